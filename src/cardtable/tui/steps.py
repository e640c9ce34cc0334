"""The pure parts of the full-screen table: building a move word by word, keys for words, the
cards an event involves, what the event panel keeps of an event, and the status bar's words.

A move is built as a list of words (its *prefix*); :func:`cardtable.text.render.continuations`
says which words may follow, read from the legal actions only, so the table never offers a
move the engine would refuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from ..events import (
    At,
    Claim,
    Discard,
    Drop,
    FamilyDraw,
    Happening,
    Play,
    QuteDraw,
    Replace,
    Snap,
    SnapOpen,
)
from ..game import Event
from ..text.catalog import say
from ..text.keys import RESERVED
from ..text.phrase import Reader
from ..text.render import LETTERS, continuations, is_position
from ..text.sights import sights_in

__all__ = [
    "PHASE_NAMES",
    "PILE_WORDS",
    "choice_keys",
    "event_places",
    "next_words",
    "public_event",
    "seat_word",
    "verb_words",
]

PILE_WORDS = frozenset({"deck", "discard", "draw"})
"""Words a pile on the table stands for: ``draw deck``, ``draw discard`` (the piles of the
Cabo family) and Qute's ``draw`` (its blind)."""


def next_words(legal: Sequence[str], prefix: Sequence[str]) -> list[str]:
    """The words that may follow ``prefix`` (``""`` first when ``prefix`` is a whole move)."""
    return continuations(legal, prefix)


def verb_words(words: Iterable[str], card_words: Iterable[str]) -> list[str]:
    """The words among ``words`` that are not cards: neither a card position nor one of
    ``card_words`` (Qute's card codes in the person's hand), and not the empty word."""
    cards = set(card_words)
    return [w for w in words if w and not is_position(w) and w not in cards]


def choice_keys(words: Sequence[str], keys: Mapping[str, str]) -> dict[str, str]:
    """Each word of ``words`` with its fixed key in the game's map ``keys``
    (:func:`cardtable.text.keys.word_keys`); a word the map lacks gets its first free letter
    (of :data:`LETTERS`), so a key never means two words. ``h``, ``q`` and ``n`` are never
    used: help, quit, play again."""
    out: dict[str, str] = {}
    taken = set(keys.values()) | set(RESERVED)
    for word in words:
        key = keys.get(word)
        if key is None:
            key = next((c for c in word.lower() + LETTERS if c in LETTERS and c not in taken), "?")
            taken.add(key)
        out[word] = key
    return out


def _places(ev: Happening) -> list[At]:
    """The hand places event ``ev`` names."""
    out: list[At] = []
    for name in ("at", "source", "to", "new"):
        value = getattr(ev, name, None)
        if isinstance(value, At):
            out.append(value)
        elif isinstance(value, tuple):
            out.extend(v for v in value if isinstance(v, At))
    return out


def event_places(ev: Happening) -> list[str]:
    """The places an event involves, as widget ids of the table: ``card-S-P`` for seat S's card
    P, ``pile-discard`` when a card lands on the discard pile or leaves it, ``pile-deck`` when
    one leaves the deck, ``pile-stack`` when cards are laid on Qute's stack."""
    places = [f"card-{at.seat}-{at.pos}" for at in _places(ev)]
    match ev:
        case Replace() | Discard() | Drop() | Snap() | Claim() | SnapOpen():
            places.append("pile-discard")
        case FamilyDraw(source=source):
            places.append(f"pile-{source}")
        case QuteDraw():
            places.append("pile-discard")
        case Play():
            places.append("pile-stack")
    return places


_PHASES = (
    *("peek", "turn", "drawn", "power", "look", "give", "snap"),  # the Cabo family's
    *("play", "cover", "decide"),  # Qute's
    "over",
)
"""The phases of both games, each named in the catalogs (``tui.phase.<phase>``)."""


class _PhaseNames(Mapping[str, str]):
    """Each phase's name, read from the catalog in use when asked (``tui.phase.*``)."""

    def __getitem__(self, phase: str) -> str:
        if phase not in _PHASES:
            raise KeyError(phase)
        return say(f"tui.phase.{phase}")

    def __iter__(self) -> Iterator[str]:
        return iter(_PHASES)

    def __len__(self) -> int:
        return len(_PHASES)


PHASE_NAMES: Mapping[str, str] = _PhaseNames()
"""How the status bar names each phase of a game (in the catalog in use)."""


def seat_word(seat: int, me: int) -> str:
    """Seat ``seat`` as the person at ``me`` reads it: "you" or "seat N"."""
    return Reader(me).name(seat)


def public_event(ev: Event, me: int) -> Happening:
    """Event ``ev`` as the event panel keeps it without the memory aid: what seat ``me`` saw,
    except the face-down cards it saw privately (a peek, spy or look, a card drawn from the
    deck), which only the table shows, and only for their reveal time. Every card the whole
    table saw is in the event's public part, so it is named."""
    mine = ev.seen_by(me)
    if isinstance(mine, (FamilyDraw, QuteDraw)) or sights_in(mine):
        return ev.public
    return mine
