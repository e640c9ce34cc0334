"""PPO in plain NumPy: learn to play 2-player kaboo against cardtable's heuristic opponents.

The learner (seat 0) plays every one of its decisions through cardtable's batched Gymnasium
``VectorEnv`` (``cardtable/Kaboo-v0``, ``vectorization_mode="vector_entry_point"``); the other
seat is the ``heuristic`` rules of thumb, played inside the batch. The observation is the
learner's own 708-float view, the legal actions come as ``info["action_mask"]``.

The policy is a small multilayer perceptron: a shared trunk of tanh layers, then a linear head
of action logits and a linear value head. Illegal actions get a logit of ``-1e9`` before the
softmax, so they never get probability. Training is proximal policy optimisation (PPO):
rollouts of ``--steps`` decisions in each of ``--envs`` games, advantages by generalised
advantage estimation (GAE), then a few epochs of minibatch Adam steps on the clipped surrogate
objective, a squared-error value loss and an entropy bonus. Forward and backward passes are
written out by hand (no autodiff, no PyTorch); ``tests/interop/test_ppo_example.py`` checks
the gradients against finite differences.

A game's reward is the learner's at its end: +1 win, -1 loss, 0 tie; the printed *win share*
is the share of finished games won, ties counted half. Training prints it per block of
iterations; at the end, the trained policy (greedy: its most probable legal action, and
sampled from its probabilities) and a uniformly random legal policy play the same evaluation
deals, disjoint from the training deals.

Run::

    .venv/bin/python examples/ppo_kaboo.py            # default budget, 1-3 minutes on 2 cores
    .venv/bin/python examples/ppo_kaboo.py --quick    # a few seconds
    .venv/bin/python examples/ppo_kaboo.py --seed 3 --envs 64 --iterations 100 --steps 128

It needs numpy and gymnasium (``pip install -e '.[pettingzoo]'``). A run is deterministic for
a given ``--seed`` and budget (on one machine: BLAS may round differently elsewhere).
"""

from __future__ import annotations

import os

# One BLAS thread: the matrices here are small, and OpenBLAS's threads slow them down many
# times over on a busy machine (they also keep the run reproducible). Set before numpy loads.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

import cardtable.interop.gymnasium  # noqa: E402, F401  (registers the cardtable/... ids)

ENV_ID = "cardtable/Kaboo-v0"
"""The Gymnasium id of 2-player kaboo."""
NEG = -1e9
"""The logit an illegal action gets: its probability is exactly 0 after the softmax."""

# Training deals are dealt from ``seed * _SEED_STRIDE`` on; evaluation deals from
# ``seed * _SEED_STRIDE + _EVAL_OFFSET`` on, so the two sets never overlap.
_SEED_STRIDE = 10_000_000
_EVAL_OFFSET = 5_000_000

DEFAULT_ENVS, DEFAULT_STEPS, DEFAULT_ITERATIONS, DEFAULT_EVAL_GAMES = 128, 64, 60, 2000
"""The default budget (about 1-3 minutes on two cores)."""
QUICK_ENVS, QUICK_STEPS, QUICK_ITERATIONS, QUICK_EVAL_GAMES = 16, 32, 4, 100
"""The ``--quick`` budget (a few seconds)."""
HIDDEN = (128, 128)
"""Widths of the tanh layers of the shared trunk."""

Array = npt.NDArray[np.floating]
Params = dict[str, Array]
"""The network's weights by name: ``W0, b0, W1, b1, ...`` (trunk), ``Wp, bp``, ``Wv, bv``."""
Policy = Callable[[Array, npt.NDArray[np.bool_], np.random.Generator], npt.NDArray[np.int64]]
"""Chooses one action per game from observations, legal masks and a generator."""


@dataclass(frozen=True)
class PPOConfig:
    """Hyperparameters of PPO: the usual ones, except a larger step size and more epochs per
    rollout, which learn faster on this small budget."""

    gamma: float = 0.99
    """Discount per learner decision."""
    lam: float = 0.95
    """GAE's λ."""
    clip: float = 0.2
    """Clip range of the probability ratio."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    ent_coef: float = 0.01
    """Weight of the entropy bonus."""
    lr: float = 1e-3
    """Adam's step size."""
    epochs: int = 8
    """Passes over each rollout."""
    minibatches: int = 4
    """Minibatches per pass."""
    max_grad_norm: float = 0.5
    """Gradients are scaled down to at most this global norm."""


# -- the network -------------------------------------------------------------------------------


def _orthogonal(rng: np.random.Generator, rows: int, cols: int, gain: float) -> Array:
    """A ``rows x cols`` matrix with orthonormal rows or columns, times ``gain``."""
    a = rng.standard_normal((max(rows, cols), min(rows, cols)))
    q, r = np.linalg.qr(a)
    q *= np.sign(np.diag(r))
    w = q if rows >= cols else q.T
    return gain * w


def init_params(
    obs_size: int,
    actions: int,
    hidden: Sequence[int] = HIDDEN,
    seed: int = 0,
    dtype: type[np.floating] = np.float32,
) -> Params:
    """Orthogonally initialised weights (gain √2 in the trunk, 0.01 for the logits, so the
    first policy is nearly uniform over the legal actions, 1 for the value), zero biases."""
    rng = np.random.default_rng(seed)
    params: Params = {}
    width = obs_size
    for i, h in enumerate(hidden):
        params[f"W{i}"] = _orthogonal(rng, width, h, math.sqrt(2)).astype(dtype)
        params[f"b{i}"] = np.zeros(h, dtype=dtype)
        width = h
    params["Wp"] = _orthogonal(rng, width, actions, 0.01).astype(dtype)
    params["bp"] = np.zeros(actions, dtype=dtype)
    params["Wv"] = _orthogonal(rng, width, 1, 1.0).astype(dtype)
    params["bv"] = np.zeros(1, dtype=dtype)
    return params


def _layers(params: Params) -> int:
    """How many tanh layers the trunk has."""
    return sum(1 for k in params if k.startswith("W") and k[1:].isdigit())


@dataclass
class Forward:
    """A forward pass: its outputs and what the backward pass needs."""

    hidden: list[Array]
    """The input, then each tanh layer's output."""
    logp: Array
    """``[B, A]`` masked log-probabilities (about ``-1e9`` on illegal actions)."""
    probs: Array
    """``[B, A]`` probabilities (exactly 0 on illegal actions)."""
    values: Array
    """``[B]`` state values."""


def masked_log_softmax(logits: Array, mask: npt.NDArray[np.bool_]) -> Array:
    """Log-softmax of ``logits`` with every illegal entry's logit replaced by :data:`NEG`."""
    z = np.where(mask, logits, NEG)
    z = z - z.max(axis=1, keepdims=True)
    out: Array = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


def forward(params: Params, obs: Array, mask: npt.NDArray[np.bool_]) -> Forward:
    """Run the network on ``obs [B, D]`` with legal actions ``mask [B, A]``."""
    x = obs.astype(params["Wp"].dtype, copy=False)
    hidden = [x]
    for i in range(_layers(params)):
        x = np.tanh(x @ params[f"W{i}"] + params[f"b{i}"])
        hidden.append(x)
    logp = masked_log_softmax(x @ params["Wp"] + params["bp"], mask)
    values = (x @ params["Wv"] + params["bv"])[:, 0]
    return Forward(hidden, logp, np.exp(logp), values)


# -- the PPO loss and its gradient -------------------------------------------------------------


@dataclass
class Batch:
    """Decisions to learn from (a rollout or a minibatch of one)."""

    obs: Array
    """``[B, D]`` observations."""
    mask: npt.NDArray[np.bool_]
    """``[B, A]`` legal actions."""
    actions: npt.NDArray[np.int64]
    """``[B]`` actions taken."""
    logp: Array
    """``[B]`` their log-probability under the policy that took them."""
    advantages: Array
    """``[B]`` GAE advantages."""
    returns: Array
    """``[B]`` value targets (advantage + old value)."""

    def take(self, idx: npt.NDArray[np.int64]) -> Batch:
        """The decisions at ``idx``."""
        return Batch(
            self.obs[idx],
            self.mask[idx],
            self.actions[idx],
            self.logp[idx],
            self.advantages[idx],
            self.returns[idx],
        )


@dataclass(frozen=True)
class LossParts:
    """The PPO loss and its terms (means over the batch)."""

    loss: float
    """``policy + vf_coef * value - ent_coef * entropy``: what the update minimises."""
    policy: float
    """Minus the clipped surrogate objective."""
    value: float
    """Half the mean squared error of the values."""
    entropy: float
    """Mean entropy of the policy."""
    clip_fraction: float
    """Share of decisions whose probability ratio lies outside the clip range."""


def ppo_loss(
    params: Params, batch: Batch, cfg: PPOConfig, normalize: bool = True
) -> tuple[LossParts, Params]:
    """The PPO loss of ``batch`` and its gradient with respect to every parameter.

    With ``normalize`` the advantages are standardised over the batch first (constants to the
    gradient). Per decision, with ratio ``r = π(a|s) / π_old(a|s)`` and advantage ``A``::

        loss = -min(r A, clip(r, 1-ε, 1+ε) A) + vf_coef (V(s) - R)² / 2 - ent_coef H(π(·|s))

    averaged over the batch.
    """
    n = len(batch.actions)
    rows = np.arange(n)
    adv = batch.advantages.astype(np.float64)
    if normalize:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    fw = forward(params, batch.obs, batch.mask)
    logp_a = fw.logp[rows, batch.actions].astype(np.float64)
    ratio = np.exp(logp_a - batch.logp)
    clipped = np.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)
    surrogate = np.minimum(ratio * adv, clipped * adv)
    # The gradient flows through the unclipped term wherever it is the minimum.
    unclipped = ratio * adv <= clipped * adv
    d_logp_a = np.where(unclipped, -ratio * adv, 0.0) / n  # d loss / d log π(a|s)

    probs = fw.probs.astype(np.float64)
    plogp = np.where(batch.mask, probs * fw.logp, 0.0)
    entropy = -plogp.sum(axis=1)
    err = fw.values.astype(np.float64) - batch.returns

    # d log π(a|s) / d z = onehot(a) - π;  d H / d z_j = -π_j (log π_j + H).
    d_logits = -probs * d_logp_a[:, None]
    d_logits[rows, batch.actions] += d_logp_a
    d_logits += (cfg.ent_coef / n) * (plogp + probs * entropy[:, None])
    d_logits *= batch.mask  # illegal logits are replaced by NEG: no gradient reaches them
    d_values = cfg.vf_coef * err / n

    dtype = params["Wp"].dtype
    d_logits = d_logits.astype(dtype)
    d_values = d_values.astype(dtype)
    top = fw.hidden[-1]
    grads: Params = {
        "Wp": top.T @ d_logits,
        "bp": d_logits.sum(axis=0),
        "Wv": top.T @ d_values[:, None],
        "bv": np.array([d_values.sum()], dtype=dtype),
    }
    d_h = d_logits @ params["Wp"].T + d_values[:, None] @ params["Wv"].T
    for i in reversed(range(_layers(params))):
        h = fw.hidden[i + 1]
        d_pre = d_h * (1 - h * h)
        grads[f"W{i}"] = fw.hidden[i].T @ d_pre
        grads[f"b{i}"] = d_pre.sum(axis=0)
        if i:
            d_h = d_pre @ params[f"W{i}"].T

    policy = -float(surrogate.mean())
    value = 0.5 * float(np.mean(err * err))
    ent = float(entropy.mean())
    parts = LossParts(
        loss=policy + cfg.vf_coef * value - cfg.ent_coef * ent,
        policy=policy,
        value=value,
        entropy=ent,
        clip_fraction=float(np.mean(np.abs(ratio - 1) > cfg.clip)),
    )
    return parts, grads


class Adam:
    """Adam (Kingma & Ba) over a :data:`Params` dict, updating it in place."""

    def __init__(
        self,
        params: Params,
        lr: float,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-5,
    ) -> None:
        self.lr = lr
        """Step size."""
        self.betas = betas
        """Decay rates of the first and second moment estimates."""
        self.eps = eps
        """Added to the root of the second moment."""
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        """First moment estimates."""
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        """Second moment estimates."""
        self.t = 0
        """Steps taken."""

    def step(self, params: Params, grads: Params) -> None:
        """One Adam step of ``params`` down ``grads``."""
        self.t += 1
        b1, b2 = self.betas
        scale = self.lr * math.sqrt(1 - b2**self.t) / (1 - b1**self.t)
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            params[k] -= (scale * self.m[k] / (np.sqrt(self.v[k]) + self.eps)).astype(
                params[k].dtype
            )


def clip_grad_norm(grads: Params, max_norm: float) -> float:
    """Scale ``grads`` in place to a global norm of at most ``max_norm``; the norm before."""
    norm = math.sqrt(sum(float(np.sum(g.astype(np.float64) ** 2)) for g in grads.values()))
    if norm > max_norm:
        for g in grads.values():
            g *= max_norm / (norm + 1e-12)
    return norm


def ppo_update(
    params: Params, adam: Adam, batch: Batch, cfg: PPOConfig, rng: np.random.Generator
) -> LossParts:
    """``cfg.epochs`` passes of shuffled minibatch Adam steps on ``batch``; the loss parts of
    the last minibatch."""
    n = len(batch.actions)
    size = max(1, n // cfg.minibatches)
    parts = None
    for _ in range(cfg.epochs):
        order = rng.permutation(n)
        for start in range(0, n - size + 1, size):
            parts, grads = ppo_loss(params, batch.take(order[start : start + size]), cfg)
            clip_grad_norm(grads, cfg.max_grad_norm)
            adam.step(params, grads)
    assert parts is not None
    return parts


def gae(
    rewards: Array, values: Array, dones: npt.NDArray[np.bool_], last_values: Array, cfg: PPOConfig
) -> Array:
    """Generalised advantage estimates of a ``[T, N]`` rollout. ``dones[t]``: the game ended
    at step ``t`` (the environment then already shows the next game, so nothing is
    bootstrapped across it); ``last_values``: the values of the observations after the last
    step."""
    steps = len(rewards)
    adv = np.zeros_like(values, dtype=np.float64)
    running = np.zeros(values.shape[1])
    for t in reversed(range(steps)):
        following = last_values if t == steps - 1 else values[t + 1]
        going = 1.0 - dones[t]
        delta = rewards[t] + cfg.gamma * following * going - values[t]
        running = delta + cfg.gamma * cfg.lam * going * running
        adv[t] = running
    return adv


# -- playing -----------------------------------------------------------------------------------


def make_envs(num_envs: int, opponents: str = "heuristic") -> gymnasium.vector.VectorEnv:
    """``num_envs`` games of 2-player kaboo, the learner in seat 0."""
    return gymnasium.make_vec(
        ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", opponents=opponents
    )


def sample(logp: Array, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action per row drawn from ``exp(logp)`` (Gumbel-max: never an illegal action)."""
    out: npt.NDArray[np.int64] = np.argmax(logp + rng.gumbel(size=logp.shape), axis=1)
    return out


def sampled_policy(params: Params) -> Policy:
    """Actions drawn from the network's masked softmax."""

    def choose(
        obs: Array, mask: npt.NDArray[np.bool_], rng: np.random.Generator
    ) -> npt.NDArray[np.int64]:
        return sample(forward(params, obs, mask).logp, rng)

    return choose


def greedy_policy(params: Params) -> Policy:
    """The network's most probable legal action."""

    def choose(
        obs: Array, mask: npt.NDArray[np.bool_], rng: np.random.Generator
    ) -> npt.NDArray[np.int64]:
        out: npt.NDArray[np.int64] = np.argmax(forward(params, obs, mask).logp, axis=1)
        return out

    return choose


def random_policy(
    obs: Array, mask: npt.NDArray[np.bool_], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """A uniformly random legal action."""
    return sample(np.where(mask, 0.0, NEG), rng)


def win_share(rewards: Array) -> float:
    """Share of games won, ties half, from 2-player final rewards (+1, 0, -1)."""
    return float(np.mean((np.asarray(rewards) + 1) / 2)) if len(rewards) else float("nan")


@dataclass
class Rollout:
    """A rollout and the environments' state after it."""

    batch: Batch
    """The decisions, flattened, with advantages and returns."""
    finished: Array
    """Final rewards of the games that ended during it."""
    obs: Array
    """Observations after the last step."""
    mask: npt.NDArray[np.bool_]
    """Legal actions after the last step."""


def collect(
    envs: gymnasium.vector.VectorEnv,
    params: Params,
    obs: Array,
    mask: npt.NDArray[np.bool_],
    steps: int,
    cfg: PPOConfig,
    rng: np.random.Generator,
) -> Rollout:
    """Play ``steps`` decisions in every game with the sampled policy, from ``obs``/``mask``."""
    n = envs.num_envs
    obs_buf = np.zeros((steps, *obs.shape), dtype=np.float32)
    mask_buf = np.zeros((steps, *mask.shape), dtype=bool)
    act_buf = np.zeros((steps, n), dtype=np.int64)
    logp_buf = np.zeros((steps, n))
    val_buf = np.zeros((steps, n))
    rew_buf = np.zeros((steps, n))
    done_buf = np.zeros((steps, n), dtype=bool)
    finished = []
    for t in range(steps):
        fw = forward(params, obs, mask)
        actions = sample(fw.logp, rng)
        obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, actions
        logp_buf[t] = fw.logp[np.arange(n), actions]
        val_buf[t] = fw.values
        obs, rewards, terminated, truncated, info = envs.step(actions)
        mask = info["action_mask"].astype(bool)
        rew_buf[t] = rewards
        done_buf[t] = terminated | truncated
        finished.append(rewards[terminated])
    last_values = forward(params, obs, mask).values.astype(np.float64)
    adv = gae(rew_buf, val_buf, done_buf, last_values, cfg)
    batch = Batch(
        obs_buf.reshape(steps * n, -1),
        mask_buf.reshape(steps * n, -1),
        act_buf.reshape(-1),
        logp_buf.reshape(-1),
        adv.reshape(-1),
        (adv + val_buf).reshape(-1),
    )
    return Rollout(batch, np.concatenate(finished), obs, mask)


def train(
    cfg: PPOConfig,
    envs_n: int,
    steps: int,
    iterations: int,
    seed: int,
    log: Callable[[str], None],
    hidden: Sequence[int] = HIDDEN,
) -> tuple[Params, int]:
    """Train a fresh network (weights, deals and sampling drawn from ``seed``) for
    ``iterations`` PPO iterations of ``steps`` decisions in each of ``envs_n`` games against
    the heuristic opponents; the trained weights and the number of games finished. Logs the
    win share of the first iteration, then of each block of about a tenth of the iterations."""
    started = time.perf_counter()
    envs = make_envs(envs_n)
    obs, info = envs.reset(seed=seed * _SEED_STRIDE)
    mask = info["action_mask"].astype(bool)
    params = init_params(obs.shape[1], mask.shape[1], hidden, seed)
    adam = Adam(params, cfg.lr)
    rng = np.random.default_rng(seed)
    report_every = max(1, iterations // 10)
    block: list[Array] = []
    games = 0
    for it in range(1, iterations + 1):
        # Anneal the step size linearly towards 0, as PPO usually does.
        adam.lr = cfg.lr * (1 - (it - 1) / iterations)
        rollout = collect(envs, params, obs, mask, steps, cfg, rng)
        obs, mask = rollout.obs, rollout.mask
        parts = ppo_update(params, adam, rollout.batch, cfg, rng)
        block.append(rollout.finished)
        games += len(rollout.finished)
        if it == 1 or it % report_every == 0 or it == iterations:
            done = np.concatenate(block)
            log(
                f"iteration {it:>3}  games {len(done):>5}  win share {win_share(done):.3f}"
                f"   (entropy {parts.entropy:.2f}, value loss {parts.value:.3f}, "
                f"{time.perf_counter() - started:.0f}s)"
            )
            block = []
    envs.close()
    return params, games


def evaluate(
    policy: Policy, games: int, seed: int, opponents: str = "heuristic"
) -> npt.NDArray[np.float64]:
    """Final rewards of ``games`` games, dealt from seeds ``seed .. seed + games - 1``, with
    ``policy`` in seat 0 (one game per environment: the first one each plays to the end)."""
    envs = make_envs(games, opponents)
    obs, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    result = np.zeros(games)
    pending = np.ones(games, dtype=bool)
    while pending.any():
        actions = policy(obs, info["action_mask"].astype(bool), rng)
        obs, rewards, terminated, _, info = envs.step(actions)
        first = terminated & pending
        result[first] = rewards[first]
        pending &= ~terminated
    envs.close()
    return result


def _ci(rewards: Array) -> float:
    """Half-width of a normal 95% confidence interval of the win share."""
    shares = (np.asarray(rewards) + 1) / 2
    return 1.96 * float(shares.std(ddof=1)) / math.sqrt(len(shares)) if len(shares) > 1 else 0.0


# -- main --------------------------------------------------------------------------------------


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Train with PPO against the heuristic opponents, then evaluate; print the report."""
    parser = argparse.ArgumentParser(
        description="PPO in NumPy: learn 2-player kaboo against the heuristic opponents."
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of deals, weights, sampling")
    parser.add_argument(
        "--envs", type=_positive, help=f"games played at once (default {DEFAULT_ENVS})"
    )
    parser.add_argument(
        "--iterations", type=_positive, help=f"PPO iterations (default {DEFAULT_ITERATIONS})"
    )
    parser.add_argument(
        "--steps",
        type=_positive,
        help=f"rollout length per iteration, decisions per game (default {DEFAULT_STEPS})",
    )
    parser.add_argument(
        "--eval-games", type=_positive, help=f"evaluation games (default {DEFAULT_EVAL_GAMES})"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"tiny budget: {QUICK_ITERATIONS} iterations of {QUICK_ENVS} x {QUICK_STEPS} "
        f"decisions, {QUICK_EVAL_GAMES} evaluation games",
    )
    args = parser.parse_args(argv)
    envs_n: int = args.envs or (QUICK_ENVS if args.quick else DEFAULT_ENVS)
    steps: int = args.steps or (QUICK_STEPS if args.quick else DEFAULT_STEPS)
    iterations: int = args.iterations or (QUICK_ITERATIONS if args.quick else DEFAULT_ITERATIONS)
    eval_games: int = args.eval_games or (QUICK_EVAL_GAMES if args.quick else DEFAULT_EVAL_GAMES)
    cfg = PPOConfig()
    started = time.perf_counter()

    def log(text: str = "") -> None:
        print(text, flush=True)

    log("PPO (NumPy) on 2-player kaboo against the heuristic opponents, learner in seat 0.")
    log(
        f"seed {args.seed}; {iterations} iterations of {envs_n} games x {steps} decisions; "
        f"trunk {' x '.join(map(str, HIDDEN))} tanh"
    )
    log("win share: share of the games finished in the block won by the learner, ties half")
    log()
    params, games = train(cfg, envs_n, steps, iterations, args.seed, log)
    log(
        f"training: {games} games, {iterations * envs_n * steps} decisions, "
        f"{time.perf_counter() - started:.1f}s"
    )
    log()
    eval_seed = args.seed * _SEED_STRIDE + _EVAL_OFFSET
    log(
        f"final evaluation: {eval_games} games against the heuristic, deals from seeds "
        f"{eval_seed}..{eval_seed + eval_games - 1} (the same for every policy):"
    )
    for label, policy in (
        ("trained policy (greedy)", greedy_policy(params)),
        ("trained policy (sampled)", sampled_policy(params)),
        ("uniformly random legal policy", random_policy),
    ):
        rewards = evaluate(policy, eval_games, eval_seed)
        log(f"  {label:<30} win share {win_share(rewards):.3f} ± {_ci(rewards):.3f}")
    log()
    log(f"elapsed: {time.perf_counter() - started:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
