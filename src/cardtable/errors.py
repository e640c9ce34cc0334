"""Exceptions raised by the rules engine: :class:`IllegalAction` and one subclass per kind of
refusal, so that a caller (the web server, a front end) can tell them apart without reading
their words. Each kind carries a short ``code``.

A refusal's words are a message of the catalogs (:mod:`cardtable.catalog`): the exception holds
the message's ``key`` (``"refusal.not_your_turn"``) and typed placeholder values (``params``:
seats and positions as ``int``, cards as codes, words as ``str``), never a sentence. A front end
phrases it for its reader (:func:`cardtable.text.phrase.refusal`); ``str()`` is the English
sentence told to the seat refused, with seats named ``seat N``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeAlias

from .catalog import (
    DEFAULT_LANGUAGE,
    Names,
    card_token,
    cards_list,
    catalog,
    has,
    join_and,
    join_or,
    language,
    number_word,
    say,
)

__all__ = [
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "NoSuchCard",
    "NoSuchSeat",
    "NotInThisGame",
    "NotYourTurn",
    "Param",
    "RuleForbids",
    "WrongPhase",
]

Param: TypeAlias = int | str | tuple[int, ...] | tuple[str, ...]
"""A placeholder value of a refusal: a number, a word or code, or several of them."""


class IllegalAction(ValueError):
    """An action that cannot be played now: why, as a catalog message (``key``) and its
    placeholders (``params``), told to the seat refused (``seat``).

    Raising it never changes the game: every check happens before any state is touched.
    The message only ever names public facts and the refused seat's own cards, so it is told in
    full only to that seat (and to anyone when no seat is known: the text is not an action);
    anyone else reads only that the seat's move was refused.

    A placeholder's name says how its value is put in words, for the reader:

    ========================  =============================================================
    ``who``                   a seat, named (``you``, ``Ann``, ``seat 2``); the message's
                              ``.you`` form when it is the reader's
    ``seats``                 seats, named and listed (``seat 0 and Bob``)
    ``card``, ``top``         a card code, as a card (``[7H]``)
    ``cards``                 card codes, as cards side by side (``[7H] [7D]``)
    ``options``               words, each quoted, as alternatives (``'all' or 'next'``)
    ``legal``                 action texts, listed (``draw deck, cabo``)
    ``when``                  phase names, said as when they happen, as alternatives
    ``count``                 a small number, in words (``two``)
    any other                 as it is (a position, a number, a word of the notation)
    ========================  =============================================================
    """

    code: ClassVar[str] = "illegal"
    """The kind of refusal, in one word."""

    def __init__(self, key: str, /, seat: int | None = None, **params: Param) -> None:
        super().__init__(key)
        self.key = key
        """The catalog key of the message (``refusal.…``)."""
        self.seat = seat
        """The seat whose action was refused (``None``: not known, as for text that is not an
        action)."""
        self.params = params
        """The message's placeholder values, by name."""

    def phrased(self, names: Names) -> str:
        """The refusal in the words of the catalog in use, told to ``names``' reader (the
        refused seat reads why; anyone else only that the move was refused). A key no catalog
        holds is shown as it is."""
        if self.seat is not None and not names.you(self.seat):
            seat = self.seat
            return say("refusal.theirs", who=names.name(seat), whose=names.whose(seat))
        if not has(self.key):
            return self.key
        params = self.params
        who, n = params.get("who"), params.get("n")
        words = {k: _word(k, v, names) for k, v in params.items()}
        return catalog().fill(
            self.key,
            words,
            n=n if isinstance(n, int) else None,
            you=isinstance(who, int) and names.you(who),
        )

    def __str__(self) -> str:
        with language(DEFAULT_LANGUAGE):
            return self.phrased(Names(self.seat))


def _strs(value: Param) -> Sequence[str]:
    return tuple(str(v) for v in value) if isinstance(value, tuple) else (str(value),)


def _ints(value: Param) -> Sequence[int]:
    return tuple(int(v) for v in value) if isinstance(value, tuple) else (int(value),)


def _word(name: str, value: Param, names: Names) -> object:
    """Placeholder ``name``'s ``value`` in words (see :class:`IllegalAction`)."""
    match name:
        case "who":
            return names.name(_ints(value)[0])
        case "seats":
            return join_and([names.name(s) for s in _ints(value)])
        case "card" | "top":
            return card_token(value)
        case "cards":
            return cards_list(_strs(value))
        case "options":
            return join_or([say("quoted", word=w) for w in _strs(value)])
        case "legal":
            return say("list.comma").join(_strs(value))
        case "when":
            return join_or([say(f"refusal.when.{p}") for p in _strs(value)])
        case "count":
            return number_word(_ints(value)[0])
    return value


class NoSuchSeat(IllegalAction):
    """The seat that would act is not at this table."""

    code = "no_such_seat"


class MalformedAction(IllegalAction):
    """The text is not an action of the notation (an unknown word, missing or bad arguments)."""

    code = "malformed"


class GameOver(IllegalAction):
    """The game has ended: nothing more may be played."""

    code = "game_over"


class NotYourTurn(IllegalAction):
    """The seat may not act now: another seat is to act (or others are)."""

    code = "not_your_turn"


class NoSuchCard(IllegalAction):
    """The action names a card or a place that is not there (an empty position, a card the
    seat does not hold)."""

    code = "no_such_card"


class NotInThisGame(IllegalAction):
    """The move does not exist in this game's rules (another variant's call word, a power it
    lacks)."""

    code = "not_in_game"


class WrongPhase(IllegalAction):
    """The move exists but is not one of this moment's (a draw while holding a drawn card, a
    play while a decision is asked)."""

    code = "wrong_phase"


class RuleForbids(IllegalAction):
    """The move belongs to this moment, but the rules forbid it with these cards or places."""

    code = "not_allowed"
