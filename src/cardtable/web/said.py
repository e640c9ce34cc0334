"""Every event the server sends, with its words: ``said``, the event phrased from the side of the
connection that reads it (:func:`cardtable.text.phrase.phrase`, the terminal's phrasing), so that
the browser shows the same sentences as the terminal and never phrases a move itself.

An event of a ``state`` frame, of the log a join carries and of a replay's views is sent as
``{…its fields…, "said": {"text", "tone"}}``. The text names seats as the browser does (``you``
for the reader's own seat, then each seat's display name, its AI label or ``Seat N``:
:func:`seat_names`) and cards as tokens (``[7H]``), which the browser draws as it draws a card's
name. A move the server chose for a seat's player (the clock, a stand-in: the protocol's ``by``)
says so in front (``time ran out for Ann: …``).

The words are the catalog's in use (:mod:`cardtable.catalog`): each connection's frames are
built in its language (:meth:`.Conn.speaking`). The names of seats without a person's name are
the browser's own messages (``ui.seat.*`` of ``ui.po``), so that the table and the words name a
seat alike in every language.

The words are phrased from the event as the reader may read it, never from more: a card the
event does not hold for that reader cannot be named. :func:`said_for` is the one call to the
phraser.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..catalog import has, say
from ..events import Happening, Turn, decode
from ..text.phrase import Reader, chosen_for, kinds_for, phrase
from ..views import Event, View
from .protocol import AI_LEVELS, By, Phrasing, SeatInfo, ai_seat_label

__all__ = ["ai_label", "reader_for", "said_for", "seat_names", "told", "told_view"]


def ai_label(level: str) -> str:
    """The name of an AI seat of ``level`` in the catalog's language, as the browser names it
    (``Casual AI``, ``Hobby-KI``); the protocol's label (:func:`.ai_seat_label`) for a
    level the catalog does not name."""
    key = f"ui.seat.ai.{level}"
    return say(key) if has(key) else ai_seat_label(level)


_LABELS = {ai_seat_label(level): level for level in AI_LEVELS}
"""Each AI level by the protocol's label for it (a stand-in's ``by`` names one)."""


def seat_names(seats: Sequence[SeatInfo]) -> list[str]:
    """Each seat's name as the browser shows it (``table.js`` ``seatName``), in the catalog's
    language: the person's display name, an AI seat's label (``Casual AI``: :func:`ai_label`,
    also where the seat holds the protocol's label as its name), else ``Seat N``; two seats of
    one name get their seat number after it (``Casual AI 1``)."""

    def base(k: int) -> str:
        seat = seats[k]
        level = seat["level"] or ""
        if seat["type"] == "ai" and seat["name"] in (None, "", ai_seat_label(level)):
            return ai_label(level)  # the server's own label: in the reader's language
        if seat["name"]:
            return seat["name"]
        return say("ui.seat.name", seat=k)

    names = [base(k) for k in range(len(seats))]
    return [f"{name} {k}" if names.count(name) > 1 else name for k, name in enumerate(names)]


def reader_for(seat: int | None, seats: Sequence[SeatInfo]) -> Reader:
    """Whose side a connection of ``seat`` (``None``: a spectator) reads the events from."""
    return Reader(seat, tuple(seat_names(seats)))


def said_for(
    event: Happening | Mapping[str, object], reader: Reader, game: str, by: By | None = None
) -> Phrasing:
    """``event`` of variant ``game`` in words as ``reader`` reads it; ``event`` is the event as
    that reader may read it (what the phrasing names comes from it only): typed, or as views
    carry it. ``by`` is who chose the move that caused it when the seat's own player did not:
    the event of that seat (its turn aside) says so in front."""
    typed = event if isinstance(event, Happening) else decode(event, kinds_for(game))
    said = phrase(typed, reader)
    if (
        by is not None
        and getattr(typed, "seat", None) == by["seat"]
        and not isinstance(typed, Turn)
    ):
        level = _LABELS.get(by["name"])
        chooser = (
            "" if by["kind"] != "stand_in" else by["name"] if level is None else ai_label(level)
        )
        said = chosen_for(said, by["seat"], reader, by["kind"], chooser)
    return {"text": said.text, "tone": said.tone}


def told(
    sent: Mapping[str, object],
    read: Happening | Mapping[str, object],
    reader: Reader,
    game: str,
    by: By | None = None,
) -> dict[str, object]:
    """The event ``sent`` as a connection is sent it, with ``said``: the words of ``read``, the
    same event as the reader may read it again later (``sent`` itself, or less of it: a seat
    without memory aid keeps only the public part in its log and captions, so that its words
    read the same after a reload)."""
    out = dict(sent)
    out["said"] = said_for(read, reader, game, by)
    return out


def told_view(view: View, words: Callable[[Event], Phrasing]) -> dict[str, object]:
    """A copy of ``view`` whose events carry ``said``: ``words(event)`` (:func:`said_for` of
    the event, from the side of the view's reader)."""
    out: dict[str, object] = dict(view)
    events = view.get("events")
    if events:
        out["events"] = [{**e, "said": words(e)} for e in events]
    return out
