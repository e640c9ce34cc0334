"""What the parts of the Cabo-family engine (the phase table, drops, the view, the re-deal) may
read and do on a game: the state of one table and the few steps they take on it.

The engine (:class:`~cardtable.games.family.engine.FamilyGame`) builds on these parts and
satisfies this protocol; the parts name only the protocol, so they import nothing above them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from random import Random
from typing import TYPE_CHECKING, Protocol, Self

from ...notation import Action, Address

if TYPE_CHECKING:
    from ...events import Happening
    from ...game import DrawSource
    from ...match import Result
    from ...rng import Rng
    from ...views import ViewTail
    from .rulesets import RuleSet

__all__ = ["EMPTY", "UNKNOWN", "Table"]

EMPTY = -1
"""In :meth:`Table.knowledge`: no card at that position."""
UNKNOWN = -2
"""In :meth:`Table.knowledge`: a face-down card the seat does not know."""


class Table(Protocol):
    """The state of a Cabo-family table, as the engine's parts see it. Card ids index
    ``codes``; a hand position holding no card is ``-1``; ``known`` and ``tags`` hold, per
    position, the bits of the seats that know the card and the shuffle it came from."""

    rs: RuleSet
    """The variant's rule set."""
    variant: str
    """The variant's name."""
    n: int
    """Number of seats."""
    allmask: int
    """Every seat's bit."""
    pub: int
    """The spectators' bit (just above the seats')."""
    codes: tuple[str, ...]
    """Card codes by card id."""
    keys: tuple[Hashable, ...]
    """What two cards must share to match (a drop, a snap), by card id."""
    values: tuple[int, ...]
    """Each card's points, by card id."""
    powers_of: tuple[int, ...]
    """Each card's power (``0``: none), by card id."""
    target: int | None
    """The total that ends the match; ``None`` for a single round."""
    draws: DrawSource
    """Which card leaves a face-down pile."""
    hands: list[list[int]]
    """Card ids by seat and position."""
    known: list[list[int]]
    """Who knows each card, by seat and position."""
    tags: list[list[int]]
    """The shuffle each card came from, by seat and position."""
    deck: list[int]
    """The face-down deck, top last."""
    discard: list[int]
    """The discard pile, top last."""
    epoch: int
    """How many times the discard pile was shuffled into a new deck this round."""
    phase: int
    """The current phase (``PH_…`` of the phase table)."""
    resume: int
    """The phase a snap window returns to."""
    turn: int
    """The seat whose turn it is."""
    first: int
    """The seat that began the round."""
    turns: int
    """Turns (and drops, snaps) played this round."""
    max_turns: int
    """Turns per seat after which a round ends on its own."""
    caller: int
    """The seat that called the end, ``-1`` if none."""
    final_left: int
    """Turns left after a call."""
    drawn: int
    """The card in hand after a draw, ``-1`` if none."""
    drawn_from: int
    """Where it came from (``FROM_…``)."""
    drawn_known: int
    """Who knows the card in hand."""
    drawn_tag: int
    """The shuffle it came from."""
    power: int
    """The power being used, ``0`` if none."""
    power_card: int
    """The card whose power is being used."""
    looked: tuple[int, int, int, int] | None
    """A look-and-swap's looked-at places."""
    look_valid: bool
    """Whether those places still hold the looked-at cards."""
    give_to: tuple[int, int] | None
    """After a drop on another's card: who gives a card, and to whom."""
    snap_key: Hashable | None
    """What a snap must match (a card's key), ``None`` without a window."""
    snap_card: int
    """The card a snap window opened on."""
    snap_passed: int
    """The bits of the seats that passed in the snap window."""
    peeks_left: list[int]
    """Initial peeks left, by seat."""
    first_look: list[tuple[int, ...]]
    """The positions each seat peeked at first."""
    totals: list[int]
    """Match totals."""
    rounds: list[list[int]]
    """Round scores, one list per round played."""
    round_no: int
    """The round being played, from 1."""

    @property
    def actors(self) -> list[int]:
        """Seats that may act now."""

    @property
    def over(self) -> bool:
        """Whether the match has ended."""

    @property
    def result(self) -> Result | None:
        """The result, once over."""

    def knowledge(self, seat: int) -> list[list[int]]:
        """What ``seat`` knows of every hand (card ids, :data:`UNKNOWN`, :data:`EMPTY`)."""

    def drawn_for(self, seat: int) -> int:
        """The card in hand as ``seat`` knows it: its id, :data:`UNKNOWN` or :data:`EMPTY`."""

    def occupied(self, seat: int) -> tuple[int, ...]:
        """Positions of ``seat`` that hold a card."""

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may play now."""

    def emit(self, happened: Happening, audience: int = -1) -> None:
        """Record an event (``audience``: the seats that see its secret fields)."""

    @property
    def recording(self) -> bool:
        """Whether events are being recorded (a checked ``play``; rollouts record none)."""

    def draw_from_deck(self) -> int:
        """Take the deck's top card; ``-1`` if none."""

    def reshuffle(self) -> None:
        """Shuffle the discard pile but its top card into a new deck."""

    def place(self, seat: int, cid: int, kn: int, tag: int) -> int:
        """Put a card into ``seat``'s hand; its position."""

    def resolve(self, seat: int, addr: Address) -> tuple[int, int]:
        """An address as ``(owner, position)``."""

    def tick(self) -> bool:
        """Count a drop or snap like a turn; True if that ended the round."""

    def end_turn(self) -> None:
        """Close the turn."""

    def world_for(self, seat: int, rng: Random | int) -> tuple[Self, Rng]:
        """A clone keeping only what ``seat`` may see, and ``rng`` as an ``Rng``."""

    def seed_from(self, rng: Rng) -> None:
        """Give this copy its own generator."""

    def view_tail(
        self, seat: int | None, bit: int, memory: bool = True
    ) -> ViewTail[Mapping[str, object], dict[str, object]]:
        """The fields every game's view ends with (round results and events as JSON)."""
