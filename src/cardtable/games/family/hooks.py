"""What happens when the deck runs out, and which cards leave a hand out of the usual
replace-or-discard: two hooks a Cabo-family rule set chooses, beside its scoring.

A rule set names a :class:`DeckEnd` (:data:`END_ROUND`, :data:`RESHUFFLE`, or a subclass) and
a :class:`Drops` (:data:`NO_DROPS`, :data:`MULTI_REPLACE`, :data:`DROP`, :data:`SNAP`, or a
record of its own). The engine, the phase table, the agents, the adapters and the terminal ask
these objects their questions — can the deck be drawn from, does the round end, is ``drop``
taken in this phase, may ``replace`` claim several cards — and never compare a rule's name.

A new deck end is a subclass overriding the methods of :class:`DeckEnd`; a new way of dropping
is a :class:`Drops` record (``Drops("turn-start", pile_phases=frozenset({"turn"}))``) or a
subclass overriding :meth:`Drops.card_played`, passed to
``dataclasses.replace(rule_set, deck_end=…, drops=…)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

__all__ = [
    "DROP",
    "END_ROUND",
    "MULTI_REPLACE",
    "NO_DROPS",
    "PILE_PHASES",
    "RESHUFFLE",
    "SNAP",
    "DeckEnd",
    "Drops",
    "Piles",
    "TurnEnd",
]

PILE_PHASES = frozenset({"turn", "drawn", "power", "look"})
"""The phases of a seat's own turn in which the phase table can offer a drop against the pile
(by their names in views)."""


class Piles(Protocol):
    """The deck and the discard pile of a table, as a :class:`DeckEnd` sees them."""

    @property
    def deck(self) -> Sequence[int]:
        """The face-down deck (card ids, top last)."""
        ...

    @property
    def discard(self) -> Sequence[int]:
        """The discard pile (card ids, top last)."""
        ...

    def reshuffle(self) -> None:
        """Shuffle the discard pile but its top card into a new deck (nothing if it has fewer
        than two cards)."""
        ...


class TurnEnd(Protocol):
    """The two ways a turn's played card can close it, as :class:`Drops` sees them."""

    def end_turn(self) -> None:
        """Close the turn and go on to the next seat (or end the round)."""
        ...

    def open_snap_window(self, card: int) -> None:
        """Open a snap window on ``card``, the card just played onto the pile."""
        ...


class DeckEnd:
    """The round ends after the turn that drew the deck's last card (cabo, kaboo); an empty
    deck is never refilled."""

    name = "end"
    """The rule's name, as documents show it."""

    def can_draw(self, g: Piles) -> bool:
        """Whether ``draw deck`` can be had now."""
        return bool(g.deck)

    def refill(self, g: Piles) -> None:
        """A card is wanted from the empty deck (a draw, a penalty): refill it, or not."""

    def turn_starts(self, g: Piles) -> bool:
        """Ready the deck for the turn about to start; False if the round ends instead."""
        return True

    def round_over(self, g: Piles) -> bool:
        """Whether the round ends now that a turn is over (before the caller's count)."""
        return not g.deck

    def __repr__(self) -> str:
        return f"<deck end: {self.name}>"


class Reshuffle(DeckEnd):
    """An empty deck is refilled with the discard pile but its top card, shuffled (cabo-german,
    gabo); a turn that starts with nothing to reshuffle ends the round."""

    name = "reshuffle"

    def can_draw(self, g: Piles) -> bool:
        """A card is there, or one can be reshuffled in."""
        return bool(g.deck) or len(g.discard) > 1

    def refill(self, g: Piles) -> None:
        """Reshuffle the pile into the deck."""
        g.reshuffle()

    def turn_starts(self, g: Piles) -> bool:
        """Reshuffle an empty deck; the round ends if it stays empty."""
        if not g.deck:
            self.refill(g)
        return bool(g.deck)

    def round_over(self, g: Piles) -> bool:
        """Never by the deck: it is refilled."""
        return False


@dataclass(frozen=True, repr=False)
class Drops:
    """Which cards may leave a hand besides the turn's one replace or discard.

    The default record has none of them (kaboo): a turn replaces or discards one card.
    """

    name: str = "none"
    """The rule's name, as documents show it."""
    claims: bool = False
    """Whether ``replace`` may claim several cards of equal value at once (cabo's multi-replace,
    ``replace N M …``)."""
    pile_phases: frozenset[str] = field(default_factory=frozenset)
    """The phases of a seat's own turn (of :data:`PILE_PHASES`) in which it may drop a card,
    its own or another seat's, that matches the top of the discard pile, giving one of its own
    for another seat's (cabo-german)."""
    snaps: bool = False
    """Whether every card played onto the pile opens a snap window, in which every seat may
    throw a card of its own that matches it (gabo)."""

    def __post_init__(self) -> None:
        if not self.pile_phases <= PILE_PHASES:
            raise ValueError(f"pile_phases must be among {sorted(PILE_PHASES)}")

    @property
    def sheds(self) -> bool:
        """Whether the variant has the ``drop`` word at all."""
        return self.snaps or bool(self.pile_phases)

    def allowed_in(self, phase: str) -> bool:
        """Whether ``drop`` is played in ``phase`` (its name in views): against the pile in the
        phases of :attr:`pile_phases`, in the snap window where cards snap."""
        return phase in self.pile_phases or (self.snaps and phase == "snap")

    def card_played(self, g: TurnEnd, card: int) -> None:
        """A turn's replace or discard has put ``card`` on the pile: open the snap window where
        cards snap, else end the turn."""
        if self.snaps:
            g.open_snap_window(card)
        else:
            g.end_turn()

    def __repr__(self) -> str:
        return f"<drops: {self.name}>"


END_ROUND = DeckEnd()
"""The round ends after the turn that drew the last card (cabo, kaboo)."""
RESHUFFLE = Reshuffle()
"""The discard pile is reshuffled into an empty deck (cabo-german, gabo)."""
NO_DROPS = Drops()
"""One card a turn (kaboo)."""
MULTI_REPLACE = Drops("multi", claims=True)
"""Cabo's claims: ``replace N M …`` swaps several cards of equal value for the drawn one."""
DROP = Drops("drop", pile_phases=PILE_PHASES)
"""German Cabo: drop a card matching the pile's top any time in your own turn."""
SNAP = Drops("snap", snaps=True)
"""Gabo: a snap window after every card played."""
