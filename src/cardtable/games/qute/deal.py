"""Re-dealing the cards a seat cannot see (:meth:`QuteGame.determinize`) consistently with what
it has inferred: the "no-fit" constraints a seat revealed by drawing."""

from __future__ import annotations

from collections.abc import Callable

from ...rng import Rng
from .tables import RANK_OF, SUIT_OF

__all__ = ["Constraint"]

Constraint = tuple[str | None, str]
"""A revealed "this card does not fit": ``(rank, suit)`` of a plain top card, or ``(None,
suit)`` when a J with that chosen suit was on top."""


def breaks(cid: int, cons: Constraint) -> bool:
    """Whether card ``cid`` would have fitted the situation ``cons`` (so cannot be there)."""
    rank = RANK_OF[cid]
    if rank == "J":
        return True
    top_rank, suit = cons
    if top_rank is None:
        return SUIT_OF[cid] == suit
    return SUIT_OF[cid] == suit or rank == top_rank


def constrained_deal(
    cards: list[int],
    limits: list[tuple[Constraint, ...]],
    fit: list[bool],
    fits: Callable[[int], bool],
    rng: Rng,
) -> list[int]:
    """A random assignment of ``cards`` to places: each place avoids its constraints, and a
    place marked in ``fit`` gets a card that ``fits`` the stack."""
    if not any(limits) and not any(fit):
        cards = list(cards)
        rng.shuffle_stable(cards)
        return cards

    def ok(c: int, i: int) -> bool:
        if fit[i] and not fits(c):
            return False
        return not any(breaks(c, con) for con in limits[i])

    for _ in range(30):
        trial = list(cards)
        rng.shuffle_stable(trial)
        if all(ok(c, i) for i, c in enumerate(trial)):
            return trial
    # Random bipartite matching (Kuhn's augmenting paths, random order), then random valid
    # swaps to mix; a solution always exists: the true deal.
    n = len(cards)
    allowed = [[c for c in cards if ok(c, i)] for i in range(n)]
    for options in allowed:
        rng.shuffle_stable(options)
    holder: dict[int, int] = {}  # card -> place

    def augment(i: int, seen: set[int]) -> bool:
        for c in allowed[i]:
            if c in seen:
                continue
            seen.add(c)
            if c not in holder or augment(holder[c], seen):
                holder[c] = i
                return True
        return False

    order = list(range(n))
    rng.shuffle_stable(order)
    for i in order:
        if not augment(i, set()):  # pragma: no cover - impossible for a consistent state
            raise RuntimeError("no deal is consistent with the recorded constraints")
    out = [-1] * n
    for c, i in holder.items():
        out[i] = c
    for _ in range(4 * n):
        x, y = rng.below(n), rng.below(n)
        if ok(out[y], x) and ok(out[x], y):
            out[x], out[y] = out[y], out[x]
    return out
