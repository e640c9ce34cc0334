"""The action notation shared by every game, front end and log.

Every action has one canonical text (``"draw deck"``, ``"replace 1 3"``, ``"spy 1.2"``,
``"play 7H 7S"``). :func:`parse` turns text into an :class:`Action`; ``str(action)`` gives the
canonical text back, so ``str(parse(t)) == t`` for every canonical ``t``.

Addresses are relative to the seat that acts: ``N`` (an ``int``) is your own position ``N``;
``P.N`` (a ``(P, N)`` tuple) is seat ``P``'s position ``N``.

Text that is not an action is refused with :class:`~cardtable.errors.MalformedAction`, a message
of the catalogs (``refusal.malformed.…``, ``refusal.takes.…``) that quotes back only the text.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, TypeAlias

from .cards import card
from .errors import MalformedAction

__all__ = [
    "WORDS",
    "Action",
    "Address",
    "add_word",
    "check_word",
    "parse",
    "remove_word",
    "sort_addresses",
    "words",
]

Address: TypeAlias = int | tuple[int, int]
"""``N`` (own position) or ``(P, N)`` (seat P's position N)."""

Arg: TypeAlias = int | tuple[int, int] | str


class Action(NamedTuple):
    """One action: a word and its arguments. Frozen, hashable, ordered by text fields."""

    name: str
    """The first word: ``draw``, ``replace``, ``spy``, ``play`` …"""
    args: tuple[Arg, ...] = ()
    """Positions (``int``), other seats' addresses (``(P, N)``) or words/card codes (``str``)."""

    def __str__(self) -> str:
        text = _TEXTS.get(self)
        if text is None:
            if not self.args:
                text = self.name
            else:
                text = self.name + " " + " ".join(_arg_text(a) for a in self.args)
            if len(_TEXTS) > 100_000:
                _TEXTS.clear()
            _TEXTS[self] = text
        return text

    @classmethod
    def from_text(cls, text: str) -> Action:
        """Parse canonical or lenient text (alias of :func:`parse`)."""
        return parse(text)


_TEXTS: dict[Action, str] = {}
"""Canonical texts already computed (actions are few and immutable)."""


def _arg_text(arg: Arg) -> str:
    if isinstance(arg, tuple):
        return f"{arg[0]}.{arg[1]}"
    return str(arg)


def _addr_key(addr: Address) -> tuple[int, int]:
    return (-1, addr) if isinstance(addr, int) else addr


def sort_addresses(addrs: tuple[Address, ...]) -> tuple[Address, ...]:
    """Canonical order: own positions first, then other seats by seat and position."""
    return tuple(sorted(addrs, key=_addr_key))


def _int(tok: str, what: str) -> int:
    if not tok.isdigit() or len(tok) > 3:
        raise MalformedAction(f"refusal.malformed.{what}", text=tok)
    return int(tok)


def _position(tok: str) -> int:
    return _int(tok, "position")


def _address(tok: str) -> Address:
    if "." in tok:
        seat, _, pos = tok.partition(".")
        return (_int(seat, "seat"), _int(pos, "position"))
    return _position(tok)


def _other(tok: str) -> tuple[int, int]:
    addr = _address(tok)
    if isinstance(addr, int):
        raise MalformedAction("refusal.malformed.other", text=tok)
    return addr


def _words(toks: list[str], n: int, name: str, usage: str) -> None:
    """``MalformedAction`` (``refusal.takes.<usage>``) unless ``toks`` are ``n`` words."""
    if len(toks) != n:
        raise MalformedAction(f"refusal.takes.{usage}", word=name)


def parse(text: str) -> Action:
    """Parse action text into an :class:`Action`; raise :class:`MalformedAction` (an
    :class:`IllegalAction`) if malformed.

    Parsing knows the words of every game but not the situation: whether the action is
    allowed now is the game's business.
    """
    if not isinstance(text, str):
        raise MalformedAction("refusal.malformed.not_text")
    if len(text) > 200:
        raise MalformedAction("refusal.malformed.too_long")
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Action:
    toks = text.strip().lower().split()
    if not toks:
        raise MalformedAction("refusal.malformed.empty")
    name, rest = toks[0], toks[1:]
    if (name in _NO_ARGS or name in _ADDED) and not (name == "exchange" and rest):
        if rest:
            raise MalformedAction("refusal.takes.nothing", word=name)
        return Action(name)
    if name == "draw":
        if not rest:
            return Action("draw")
        _words(rest, 1, name, "draw")
        if rest[0] not in ("deck", "discard"):
            raise MalformedAction("refusal.malformed.draw_from")
        return Action("draw", (rest[0],))
    if name in ("peek", "give"):
        _words(rest, 1, name, "position")
        return Action(name, (_position(rest[0]),))
    if name == "replace":
        if not rest:
            raise MalformedAction("refusal.takes.positions", word=name)
        positions = [_position(t) for t in rest]
        if len(set(positions)) != len(positions):
            raise MalformedAction("refusal.malformed.position_twice")
        return Action(name, tuple(sorted(positions)))
    if name == "spy":
        _words(rest, 1, name, "other")
        return Action(name, (_other(rest[0]),))
    if name == "exchange":
        _words(rest, 2, name, "exchange")
        a, b = _address(rest[0]), _address(rest[1])
        if a == b:
            raise MalformedAction("refusal.malformed.exchange_itself")
        return Action(name, sort_addresses((a, b)))
    if name == "look":
        _words(rest, 2, name, "look")
        return Action(name, (_position(rest[0]), _other(rest[1])))
    if name == "drop":
        _words(rest, 1, name, "address")
        return Action(name, (_address(rest[0]),))
    if name == "play":
        if not rest:
            raise MalformedAction("refusal.takes.cards", word=name)
        codes = []
        for tok in rest:
            code = tok.upper()
            try:
                card(code)
            except ValueError:
                raise MalformedAction("refusal.malformed.not_a_card", text=tok) from None
            codes.append(code)
        return Action(name, tuple(codes))
    if name == "suit":
        _words(rest, 1, name, "suit")
        if rest[0].upper() not in ("C", "D", "H", "S"):
            raise MalformedAction("refusal.malformed.suit")
        return Action(name, (rest[0].upper(),))
    if name in _CHOICES:
        options = _CHOICES[name]
        if len(rest) != 1 or rest[0] not in options:
            raise MalformedAction("refusal.takes.options", word=name, options=options)
        return Action(name, (rest[0],))
    raise MalformedAction("refusal.malformed.unknown", text=toks[0])


_NO_ARGS = frozenset(["discard", "pass", "qute", "continue", "exchange"])
_CHOICES = {"eights": ("all", "next"), "jpoints": ("minus", "plus")}
_WITH_ARGS = frozenset(
    ["draw", "peek", "give", "replace", "spy", "look", "drop", "play", "suit", *_CHOICES]
)

WORDS = _NO_ARGS | _WITH_ARGS
"""Every action word the notation itself knows (words games add come on top: :func:`words`)."""

_ADDED: set[str] = set()
"""Words added by games (the Cabo family's call words), each taking no arguments."""

_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz")


def check_word(word: str) -> None:
    """``ValueError`` unless :func:`add_word` would accept ``word``: one word of lowercase
    letters (at most 20) that is not one of the notation's own :data:`WORDS`."""
    if not isinstance(word, str) or not 1 <= len(word) <= 20 or not set(word) <= _WORD_CHARS:
        raise ValueError(f"an action word is 1 to 20 lowercase letters a-z, got {word!r}")
    if word in WORDS:
        raise ValueError(f"{word!r} is already an action word of the notation")


def add_word(word: str) -> None:
    """Let :func:`parse` accept ``word`` alone as an action (no arguments).

    Games call it for words of their own (a Cabo-family variant's call word, when its rule
    set is registered); the notation itself names no game. Adding a word twice is harmless.
    ``ValueError`` as :func:`check_word` says.
    """
    check_word(word)
    _ADDED.add(word)


def remove_word(word: str) -> None:
    """Forget a word given to :func:`add_word` (nothing happens for a word never added)."""
    if word in _ADDED:
        _ADDED.discard(word)
        _parse.cache_clear()


def words() -> frozenset[str]:
    """Every action word :func:`parse` accepts now: :data:`WORDS` and the added words."""
    return WORDS | _ADDED
