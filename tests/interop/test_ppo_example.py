"""The NumPy PPO example (``examples/ppo_kaboo.py``): its hand-written gradients match finite
differences, its policy never puts probability on an illegal action, its update improves the
objective, its training is reproducible, and ``--quick`` runs and reports the win share."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from ..helpers import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "ppo_kaboo.py"


def _load_example() -> ModuleType:
    """Import the example script as a module (``examples/`` is not a package)."""
    return load_script(SCRIPT, "ppo_kaboo_example")


@pytest.fixture(scope="module")
def ex() -> ModuleType:
    return _load_example()


def _random_batch(
    ex: ModuleType, params: dict[str, np.ndarray], rng: np.random.Generator
) -> object:
    """A small batch of random decisions for ``params``: random observations, legal masks with
    at least one legal action, legal actions taken, old log-probabilities near the current
    ones (so some ratios fall outside the clip range), random advantages and returns."""
    n, d = 12, params["W0"].shape[0]
    actions_n = params["bp"].shape[0]
    obs = rng.standard_normal((n, d))
    mask = rng.random((n, actions_n)) < 0.5
    mask[np.arange(n), rng.integers(actions_n, size=n)] = True
    actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
    logp = ex.forward(params, obs, mask).logp[np.arange(n), actions]
    old = logp + rng.normal(0.0, 0.4, size=n)
    return ex.Batch(obs, mask, actions, old, rng.standard_normal(n), rng.standard_normal(n))


@pytest.mark.parametrize(
    ("vf_coef", "ent_coef"), [(0.5, 0.01), (0.0, 1.0), (2.0, 0.0)], ids=["ppo", "entropy", "value"]
)
def test_gradients_match_finite_differences(
    ex: ModuleType, vf_coef: float, ent_coef: float
) -> None:
    params = ex.init_params(9, 7, hidden=(6, 5), seed=3, dtype=np.float64)
    rng = np.random.default_rng(11)
    for p in params.values():  # non-zero biases and larger logits exercise every term
        p += rng.normal(0.0, 0.3, size=p.shape)
    batch = _random_batch(ex, params, rng)
    rows = np.arange(len(batch.actions))
    cfg = ex.PPOConfig(vf_coef=vf_coef, ent_coef=ent_coef)
    parts, grads = ex.ppo_loss(params, batch, cfg)
    ratio = np.exp(ex.forward(params, batch.obs, batch.mask).logp[rows, batch.actions] - batch.logp)
    adv = batch.advantages - batch.advantages.mean()
    clipped = np.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)
    # Both branches of the min occur: the clipped one (no gradient) and the unclipped one.
    assert (clipped * adv < ratio * adv).any() and (clipped * adv >= ratio * adv).any()
    assert 0.0 < parts.clip_fraction < 1.0
    assert set(grads) == set(params)
    h = 1e-6
    for name, p in params.items():
        numeric = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            keep = p[i]
            p[i] = keep + h
            up = ex.ppo_loss(params, batch, cfg)[0].loss
            p[i] = keep - h
            down = ex.ppo_loss(params, batch, cfg)[0].loss
            p[i] = keep
            numeric[i] = (up - down) / (2 * h)
        assert grads[name].shape == p.shape
        size = float(np.linalg.norm(grads[name]) + np.linalg.norm(numeric))
        error = float(np.linalg.norm(grads[name] - numeric)) / max(size, 1e-12)
        assert error < 1e-6, (name, error)
        if vf_coef == 0.0 and name in ("Wv", "bv"):  # the value head does not matter
            assert not grads[name].any() and not numeric.any()
        else:
            assert np.linalg.norm(numeric) > 1e-8, name  # the check is not vacuous


def _env_states(ex: ModuleType, games: int, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Real observations and legal masks: ``games`` kaboo games played ``steps`` random
    decisions."""
    envs = ex.make_envs(games)
    obs, info = envs.reset(seed=123)
    rng = np.random.default_rng(0)
    all_obs, all_mask = [], []
    for _ in range(steps):
        mask = info["action_mask"].astype(bool)
        all_obs.append(obs)
        all_mask.append(mask)
        obs, _, _, _, info = envs.step(ex.random_policy(obs, mask, rng))
    envs.close()
    return np.concatenate(all_obs), np.concatenate(all_mask)


def test_masked_policy_never_chooses_an_illegal_action(ex: ModuleType) -> None:
    obs, mask = _env_states(ex, 16, 12)
    assert obs.shape == (len(mask), 708) and mask.shape[1] == 50
    assert (~mask).any(axis=1).all() and mask.any(axis=1).all()
    params = ex.init_params(708, 50, hidden=(32,), seed=0)
    rng = np.random.default_rng(1)
    for trial in range(2):
        if trial:  # a network that strongly prefers illegal actions
            params["bp"][:] = 1e4 * rng.standard_normal(50)
        fw = ex.forward(params, obs, mask)
        assert np.all(fw.probs[~mask] == 0.0)
        np.testing.assert_allclose(fw.probs.sum(axis=1), 1.0, rtol=1e-5)
        for policy in (ex.sampled_policy(params), ex.greedy_policy(params), ex.random_policy):
            for _ in range(20):
                actions = policy(obs, mask, rng)
                assert mask[np.arange(len(mask)), actions].all()


def test_ppo_update_improves_the_objective_on_a_fixed_batch(ex: ModuleType) -> None:
    cfg = ex.PPOConfig(epochs=2, minibatches=2, lr=3e-3)
    envs = ex.make_envs(16)
    obs, info = envs.reset(seed=5)
    params = ex.init_params(708, 50, hidden=(32,), seed=2)
    rng = np.random.default_rng(4)
    rollout = ex.collect(envs, params, obs, info["action_mask"].astype(bool), 16, cfg, rng)
    envs.close()
    batch = rollout.batch
    rows = np.arange(len(batch.actions))
    np.testing.assert_allclose(  # the rollout recorded the policy's own log-probabilities
        ex.forward(params, batch.obs, batch.mask).logp[rows, batch.actions], batch.logp, atol=1e-5
    )
    before = ex.ppo_loss(params, batch, cfg)[0]
    assert before.clip_fraction == 0.0 and abs(before.policy) < 1e-5  # ratios are all 1
    adam = ex.Adam(params, cfg.lr)
    for _ in range(3):
        ex.ppo_update(params, adam, batch, cfg, rng)
    after = ex.ppo_loss(params, batch, cfg)[0]
    assert after.loss < before.loss - 0.01, (before, after)
    assert after.policy < before.policy and after.value < before.value
    # Decisions with a positive (normalised) advantage became likelier, the others less likely.
    change = ex.forward(params, batch.obs, batch.mask).logp[rows, batch.actions] - batch.logp
    adv = batch.advantages - batch.advantages.mean()
    assert change[adv > 0].mean() > 0.0 > change[adv < 0].mean()


def test_gae_stops_at_the_end_of_a_game(ex: ModuleType) -> None:
    cfg = ex.PPOConfig(gamma=0.9, lam=0.5)
    rewards = np.array([[0.0], [1.0], [0.0]])
    values = np.array([[0.2], [0.4], [0.1]])
    dones = np.array([[False], [True], [False]])
    last = np.array([0.3])
    adv = ex.gae(rewards, values, dones, last, cfg)
    d2 = 0.0 + 0.9 * 0.3 - 0.1
    d1 = 1.0 - 0.4  # the game ended: nothing bootstrapped from the next game's value
    d0 = 0.0 + 0.9 * 0.4 - 0.2
    expected = [d0 + 0.9 * 0.5 * d1, d1, d2]
    np.testing.assert_allclose(adv[:, 0], expected)


def test_training_is_deterministic(ex: ModuleType) -> None:
    runs = [ex.train(ex.PPOConfig(), 8, 8, 2, 7, lambda _: None, hidden=(16,)) for _ in range(2)]
    (a, games_a), (b, games_b) = runs
    assert games_a == games_b
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])


def test_quick_run_reports_the_win_share() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--seed", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    blocks = re.findall(
        r"^iteration +(\d+) +games +(\d+) +win share (\d\.\d{3})\b", out, re.MULTILINE
    )
    assert [int(it) for it, _, _ in blocks] == [1, 2, 3, 4], out
    for _, games, share in blocks:
        assert int(games) > 0 and 0.0 <= float(share) <= 1.0
    finals = dict(
        re.findall(
            r"^  (trained policy \(\w+\)|uniformly random legal policy) +win share "
            r"(\d\.\d{3}) ± \d\.\d{3}$",
            out,
            re.MULTILINE,
        )
    )
    assert set(finals) == {
        "trained policy (greedy)",
        "trained policy (sampled)",
        "uniformly random legal policy",
    }, out
    for share in finals.values():
        assert 0.0 <= float(share) <= 1.0
    assert re.search(r"^final evaluation: 100 games against the heuristic", out, re.MULTILINE)
    assert "elapsed:" in out
