"""Copies of a Cabo-family game: the worlds a seat cannot tell apart (determinization) and
the full debug dump of a state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, TypeVar

from ...cards import codes_text
from ...game import RANDOM_DRAWS

if TYPE_CHECKING:
    from .table import Table

_World = TypeVar("_World", bound="Table")

__all__ = ["debug_lines", "redeal"]


def _weighted_index(cards: list[int], start: int, weights: Sequence[float], u: float) -> int:
    """An index ``j >= start`` of ``cards`` chosen with probability proportional to
    ``weights[cards[j]]`` (``u`` uniform in [0, 1)); uniform if every weight is 0."""
    total = 0.0
    for j in range(start, len(cards)):
        total += weights[cards[j]]
    if total <= 0.0:
        return start + int(u * (len(cards) - start))
    x = u * total
    for j in range(start, len(cards)):
        x -= weights[cards[j]]
        if x < 0.0:
            return j
    return len(cards) - 1


def redeal(
    game: _World,
    seat: int,
    rng: Random | int,
    weights: Mapping[tuple[int, int], Sequence[float]] | None = None,
) -> _World:
    """A copy where every card ``seat`` does not know is re-dealt at random.

    Cards are re-dealt only among places of the same origin (the initial shuffle, or a
    given reshuffle of the discard pile), because which cards went into each shuffle is
    public: the result is consistent with everything ``seat`` knows or can infer.
    ``rng`` is a ``random.Random`` (or an int seed). ``weights`` (a belief, see
    :meth:`Game.determinize`) deals the places it names first, each a card of its pool
    with probability proportional to the card's weight; the other places and the deck
    are then dealt uniformly from what is left.
    """
    g, rng = game.world_for(seat, rng)
    bit = 1 << seat
    epoch = g.epoch
    # Places of hidden cards, grouped by origin; the deck's own cards join the group of
    # the current shuffle and are handled as one slice.
    groups: dict[int, list[tuple[int, int]]] = {}
    hands = g.hands
    for s in range(game.n):
        hand, kn, tg = hands[s], g.known[s], g.tags[s]
        for i, c in enumerate(hand):
            if c >= 0 and not kn[i] & bit:
                places = groups.get(tg[i])
                if places is None:
                    groups[tg[i]] = [(s, i)]
                else:
                    places.append((s, i))
    if g.drawn >= 0 and not g.drawn_known & bit:
        groups.setdefault(g.drawn_tag, []).append((-1, 0))
    if g.deck and epoch not in groups:
        groups[epoch] = []
    rnd = rng.random
    for tag, places in groups.items():
        cards = [g.drawn if s < 0 else hands[s][i] for s, i in places]
        if tag == epoch:
            cards += g.deck
        # sorted first: the deal must not depend on where the hidden cards really are
        cards.sort()
        if weights:  # the places the belief weighs are dealt first
            places.sort(key=lambda place: place not in weights)
        # a choice for each place (a Fisher–Yates pass over the places only, uniform or
        # by weight); what stays is the deck, drawn from uniformly (``RANDOM_DRAWS``)
        size = len(cards)
        for k, (s, i) in enumerate(places):
            w = weights.get((s, i)) if weights else None
            j = k + int(rnd() * (size - k)) if w is None else _weighted_index(cards, k, w, rnd())
            cards[k], cards[j] = cards[j], cards[k]
            if s < 0:
                g.drawn = cards[k]
            else:
                hands[s][i] = cards[k]
        if tag == epoch:
            g.deck = cards[len(places) :]
    g.draws = RANDOM_DRAWS
    g.seed_from(rng)
    return g


def debug_lines(g: Table) -> list[str]:
    """Every field of the state, hidden ones included, a line per part (for debugging and
    OpenSpiel's ``debug_string``; never shown to a player)."""
    codes = g.codes
    lines = [
        f"round {g.round_no} phase {g.phase} turn {g.turn} first {g.first} turns {g.turns} "
        f"caller {g.caller} final_left {g.final_left} epoch {g.epoch} over {g.over}"
    ]
    for s, (hand, kn, tg) in enumerate(zip(g.hands, g.known, g.tags, strict=True)):
        cards = " ".join(
            f"{codes[c] if c >= 0 else '-'}/{k}/{t}" for c, k, t in zip(hand, kn, tg, strict=True)
        )
        lines.append(f"hand {s}: {cards}")
    lines.append("deck: " + codes_text(sorted(codes[c] for c in g.deck)))
    lines.append("discard: " + codes_text([codes[c] for c in g.discard]))
    drawn = codes[g.drawn] if g.drawn >= 0 else "-"
    lines.append(f"drawn {drawn} from {g.drawn_from} known {g.drawn_known} tag {g.drawn_tag}")
    lines.append(
        f"power {g.power} card {g.power_card} looked {g.looked} valid {g.look_valid} "
        f"give {g.give_to} resume {g.resume}"
    )
    lines.append(f"snap {g.snap_key} card {g.snap_card} passed {g.snap_passed}")
    lines.append(f"peeks {g.peeks_left} totals {g.totals} rounds {g.rounds}")
    if g.result is not None:
        lines.append(f"result {g.result.to_dict()}")
    return lines
