"""Exceptions raised by the rules engine: :class:`IllegalAction` and one subclass per kind of
refusal, so that a caller (the web server, a front end) can tell them apart without reading
their words. Each kind carries a short ``code``."""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "NoSuchCard",
    "NoSuchSeat",
    "NotInThisGame",
    "NotYourTurn",
    "RuleForbids",
    "WrongPhase",
]


class IllegalAction(ValueError):
    """An action that cannot be played now; the message says why in plain words.

    Raising it never changes the game: every check happens before any state is touched.
    The message only ever refers to public information, so it is safe to show to anyone.
    """

    code: ClassVar[str] = "illegal"
    """The kind of refusal, in one word."""


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
