"""Guided lessons in the browser: the runs of :mod:`cardtable.learn.lessons` kept in memory, and
their HTTP routes and pages.

A lesson is one learner at a stacked table (:class:`~cardtable.learn.lessons.LessonRun`): no
room, no store, no clock of its own. :class:`Lessons` keeps the runs by id, at most
:data:`MAX_RUNS` (the one used longest ago goes first) and :data:`MAX_RUNS_PER_CLIENT` of one
client address (its own oldest goes first), each for :data:`IDLE_SECONDS` after its last
request, read on the server's injected clock (:mod:`.clock`).

The routes::

    GET  /api/lessons                     the games that have a lesson, with their titles
    POST /api/lessons/{game}?lang=de      start one: {id, ...state}
    GET  /api/lessons/{id}                the state now
    POST /api/lessons/{id}/move           {"action": "draw deck"}: try a move → the state
    POST /api/lessons/{id}/next           go on from a step that is only read → the state
    GET  /learn, /learn/{game}            the pages (static/learn.html, learn.js)

Each request may carry ``lang`` (a shipped language: ``en``, ``de``); the run keeps the last one
asked for. The state (:func:`lesson_state`) is the learner's seat's view as a person without
memory aid sees it (``Game.view(seat, memory=False)``: never a card of another seat the learner
has not been shown), the step's words and where the lesson is, the legal moves with their plain
words when the step waits for a move, the answer to the last move the lesson did not play
(:func:`~cardtable.learn.lessons.answer`), and the events of the last move played (the learner's
and the scripted answers) as the learner saw them at that moment, each with its words phrased
as the server phrases them for a table (:func:`.said.said_for`; as for a seat without memory
aid, the words do not name a card the learner saw privately: the event shows it, and the page
keeps it face up until the lesson moves on).
"""

from __future__ import annotations

import dataclasses
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal, Protocol, TypedDict

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, StringConstraints

from .. import variants
from ..catalog import DEFAULT_LANGUAGE, language, say, supported
from ..game import Event
from ..learn.lessons import LessonRun, Outcome, answer, available, load
from ..text.moves import move_words
from ..text.phrase import Reader, result_head
from ..views import View
from .guard import client_address
from .protocol import Phrasing
from .said import said_for

__all__ = [
    "IDLE_SECONDS",
    "MAX_ACTION_CHARS",
    "MAX_RUNS",
    "MAX_RUNS_PER_CLIENT",
    "LessonEntry",
    "LessonMove",
    "LessonNotFound",
    "LessonState",
    "Lessons",
    "Monotonic",
    "lesson_names",
    "lesson_routes",
    "lesson_state",
]

MAX_RUNS = 1000
"""Lessons kept at once; starting one more forgets the one used longest ago."""

MAX_RUNS_PER_CLIENT = 16
"""Lessons one client address keeps at once; starting one more forgets its own used longest
ago (so that one address cannot push everybody else's lessons out)."""

IDLE_SECONDS = 2 * 3600.0
"""Seconds a lesson is kept after its last request."""

MAX_ACTION_CHARS = 64
"""Longest action text a move may send (the longest real one is far shorter)."""

PAGE = Path(__file__).parent / "static" / "learn.html"
"""The lessons' page (the list at ``/learn``, a lesson at ``/learn/{game}``)."""


class Monotonic(Protocol):
    """The part of the server's clock (:class:`.clock.Clock`) lessons read."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back."""


class LessonNotFound(LookupError):
    """No lesson has this id (never started, or forgotten: idle too long, or pushed out)."""


class LessonMove(BaseModel):
    """Body of ``POST /api/lessons/{id}/move``: the move in the game's notation."""

    model_config = ConfigDict(extra="forbid")

    action: Annotated[
        str, StringConstraints(min_length=1, max_length=MAX_ACTION_CHARS, strip_whitespace=True)
    ]


class MoveInfo(TypedDict):
    """A legal move: its text (what ``move`` sends) and its plain words."""

    action: str
    words: str


class StepInfo(TypedDict):
    """Where the lesson is and what its step says."""

    number: int
    """The step's number, from 1."""
    count: int
    """How many steps the lesson has."""
    progress: str
    """``step 3 of 21``, in words."""
    words: str
    """What the step says."""
    reading: bool
    """Whether the step is only read (``next`` goes on)."""


class OutcomeInfo(TypedDict):
    """What became of the last move tried (or of going on)."""

    kind: Literal["played", "wrong", "refused", "read"]
    accepted: bool
    action: str
    """The move tried, as sent (empty for going on)."""
    move: str
    """The move in plain words, where it is one of the legal moves."""
    text: str
    """What the learner reads of a move not played (empty when the lesson moved on)."""


class LessonState(TypedDict):
    """Everything the lesson page draws (see the module's text)."""

    id: str
    game: str
    title: str
    """The game's title (``Kaboo``)."""
    heading: str
    """``Learning Kaboo``, in words."""
    lang: str
    seat: int
    """The learner's seat."""
    players: int
    names: list[str]
    """Each seat's name as the words name it (the learner's own: ``you``)."""
    view: View
    step: StepInfo
    waiting: bool
    """Whether the step waits for a move (else it is read, or the lesson is done)."""
    moves: list[MoveInfo]
    """The legal moves when the step waits for one (every legal move: one the step does not
    expect is explained, not played)."""
    outcome: OutcomeInfo | None
    events: list[dict[str, object]]
    """The events of the last move played, as the learner saw them, each with ``said``."""
    result: str | None
    """Who won, in words (``You win!``), once the lesson's game is over."""
    done: bool
    final: str | None
    """At the end: the AI level of the real round offered."""


@dataclass
class LessonEntry:
    """One learner's lesson as :class:`Lessons` keeps it."""

    run: LessonRun
    """The lesson's run: its table and step."""
    lang: str
    """The language its words are read in."""
    touched: float
    """When it was last asked about (the clock's monotonic seconds)."""
    client: str = ""
    """The address of the client that started it."""
    events: list[Event] = field(default_factory=list)
    """The events of the last move played (at the start: the deal's)."""
    outcome: OutcomeInfo | None = None
    """What became of the last move tried, until the next one."""


def _fresh_seed() -> int:
    return secrets.randbelow(2**31)


def _language(lang: str | None) -> str | None:
    """``lang`` as a shipped language (``None`` stays ``None``); ``ValueError`` otherwise."""
    if lang is None:
        return None
    code = lang.strip().lower()
    if code not in supported():
        raise ValueError(
            f"there are no words in the language {lang[:16]!r}; choose one of "
            + ", ".join(supported())
        )
    return code


class Lessons:
    """The lessons in play, by id (see the module's text): at most ``capacity``, and
    ``per_client`` of one client address, each kept ``idle`` seconds after its last request on
    ``clock``; ``seed`` deals each new table (the cards after the lesson's stacked ones)."""

    def __init__(
        self,
        clock: Monotonic,
        *,
        capacity: int = MAX_RUNS,
        per_client: int = MAX_RUNS_PER_CLIENT,
        idle: float = IDLE_SECONDS,
        seed: Callable[[], int] = _fresh_seed,
    ) -> None:
        if capacity < 1 or per_client < 1 or idle <= 0:
            raise ValueError("a lesson store keeps at least one lesson for some time")
        self.clock = clock
        """What the idle time is read on."""
        self.capacity = capacity
        """Lessons kept at most."""
        self.per_client = per_client
        """Lessons of one client address kept at most."""
        self.idle = idle
        """Seconds a lesson is kept after its last request."""
        self._seed = seed
        self._runs: OrderedDict[str, LessonEntry] = OrderedDict()

    def __len__(self) -> int:
        return len(self._runs)

    def _sweep(self) -> None:
        """Forget the lessons idle too long (the oldest are first in line)."""
        now = self.clock.monotonic()
        while self._runs:
            oldest = next(iter(self._runs.values()))
            if now - oldest.touched < self.idle:
                break
            self._runs.popitem(last=False)

    def start(
        self, game: str, lang: str | None = None, client: str = ""
    ) -> tuple[str, LessonEntry]:
        """A new lesson of ``game`` (a name or alias) read in ``lang`` (default English) for
        the client at address ``client``: its id and entry. ``ValueError`` for an unknown game
        or language, ``LookupError`` for a game without a lesson."""
        code = _language(lang) or DEFAULT_LANGUAGE
        name = variants.get(game).name  # ValueError: no such game
        try:
            lesson = load(name)
        except ValueError as err:
            raise LookupError(str(err)) from None
        self._sweep()
        own = [k for k, e in self._runs.items() if e.client == client]  # oldest first
        for k in own[: max(0, len(own) - self.per_client + 1)]:
            del self._runs[k]
        while len(self._runs) >= self.capacity:
            self._runs.popitem(last=False)
        run = lesson.start(self._seed())
        entry = LessonEntry(
            run, code, self.clock.monotonic(), client, list(run.game.opening_events)
        )
        lesson_id = secrets.token_urlsafe(12)
        self._runs[lesson_id] = entry
        return lesson_id, entry

    def get(self, lesson_id: str, lang: str | None = None) -> LessonEntry:
        """The lesson ``lesson_id``, now read in ``lang`` if given; it counts as used now.
        :class:`LessonNotFound` if there is none, ``ValueError`` for an unknown language."""
        code = _language(lang)
        self._sweep()
        entry = self._runs.get(lesson_id)
        if entry is None:
            raise LessonNotFound(lesson_id)
        self._runs.move_to_end(lesson_id)
        entry.touched = self.clock.monotonic()
        if code is not None:
            entry.lang = code
        return entry

    def move(self, lesson_id: str, action: str, lang: str | None = None) -> LessonEntry:
        """The learner of ``lesson_id`` tries ``action`` (see
        :meth:`~cardtable.learn.lessons.LessonRun.try_move`): played, or explained and nothing
        changes."""
        entry = self.get(lesson_id, lang)
        run = entry.run
        with language(entry.lang):
            outcome = run.try_move(action)
            if outcome.move and not outcome.accepted:  # a legal move: named as the table names
                named = move_words(run.game.check(run.me, action), run.me, lesson_names(run))
                outcome = dataclasses.replace(outcome, move=named)
            entry.outcome = _outcome(outcome, action)
        if outcome.accepted:
            entry.events = list(outcome.events)
        return entry

    def next(self, lesson_id: str, lang: str | None = None) -> LessonEntry:
        """Go on from the step of ``lesson_id`` that is only read (nothing happens on a step
        that waits for a move, or at the end: the outcome says so)."""
        entry = self.get(lesson_id, lang)
        with language(entry.lang):
            outcome = entry.run.go_on()
            entry.outcome = _outcome(outcome, "")
        return entry


def _outcome(outcome: Outcome, action: str) -> OutcomeInfo:
    """What the state says of ``outcome`` (read in the catalog in use)."""
    return {
        "kind": outcome.kind,
        "accepted": outcome.accepted,
        "action": action,
        "move": outcome.move,
        "text": "" if outcome.accepted else answer(outcome),
    }


def lesson_names(run: LessonRun) -> list[str]:
    """Each seat's name at the lesson's table, in the catalog in use: ``you`` for the learner,
    ``Opponent`` for the other seat (``Opponent 1``, ``Opponent 2`` … for several)."""
    others = [s for s in range(run.game.players) if s != run.me]
    names = [say("you")] * run.game.players
    for k, seat in enumerate(others):
        names[seat] = (
            say("learn.opponent")
            if len(others) == 1
            else say("learn.opponent_numbered", number=k + 1)
        )
    return names


def lesson_state(lesson_id: str, entry: LessonEntry) -> LessonState:
    """The state of lesson ``lesson_id`` as the page gets it (see the module's text), read in
    the entry's language."""
    run = entry.run
    game = run.game
    with language(entry.lang):
        names = lesson_names(run)
        reader = Reader(run.me, tuple(names))
        waiting = not run.reading and not run.done and run.me in game.actors
        moves: list[MoveInfo] = []
        if waiting:
            moves = [
                {"action": str(a), "words": move_words(a, run.me, names)}
                for a in game.legal_actions(run.me)
            ]
        # the event as the learner saw it at that moment (a peek shows its card), its words
        # from what the learner may read again (as a live table tells a seat without memory
        # aid: the card seen is not named; in Qute, whose hand is held face up, it is)
        bit = 1 << run.me
        again = 0 if game.memory_game else bit
        events: list[dict[str, object]] = []
        for ev in entry.events:
            said: Phrasing = said_for(ev.seen(again), reader, run.lesson.game)
            events.append({**ev.visible(bit), "said": said})
        title = run.lesson.title
        over = game.result
        return {
            "id": lesson_id,
            "game": run.lesson.game,
            "title": title,
            "heading": say("learn.title", game=title),
            "lang": entry.lang,
            "seat": run.me,
            "players": game.players,
            "names": names,
            "view": game.view(run.me, memory=False),
            "step": {
                "number": run.index + 1,
                "count": len(run.lesson.steps),
                "progress": run.progress,
                "words": run.words,
                "reading": run.reading,
            },
            "waiting": waiting,
            "moves": moves,
            "outcome": entry.outcome,
            "events": events,
            "result": result_head(over.winners, reader) if over is not None else None,
            "done": run.done,
            "final": run.final,
        }


# ---------------------------------------------------------------------------- the routes
def _lessons(request: Request) -> Lessons:
    lessons = request.app.state.lessons
    assert isinstance(lessons, Lessons)
    return lessons


def _not_found(lesson_id: str) -> HTTPException:
    return HTTPException(
        404,
        f"there is no lesson {lesson_id[:24]!r}: it was never started, or it was left alone "
        f"for over {IDLE_SECONDS / 3600:g} hours; start the lesson again",
    )


def _answer(lessons: Lessons, lesson_id: str, act: Callable[[], LessonEntry]) -> dict[str, object]:
    """The state after ``act()``; ``404`` for an unknown lesson, ``400`` for an unknown
    language."""
    try:
        entry = act()
    except LessonNotFound:
        raise _not_found(lesson_id) from None
    except ValueError as err:
        raise HTTPException(400, str(err)) from None
    return dict(lesson_state(lesson_id, entry))


def lesson_routes() -> APIRouter:
    """The lessons' API and pages (see the module's text); they use the :class:`Lessons` of
    ``app.state.lessons``."""
    router = APIRouter()

    @router.get("/learn", include_in_schema=False)
    @router.get("/learn/{game}", include_in_schema=False)
    async def page(game: str | None = None) -> FileResponse:
        return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})

    @router.get("/api/lessons")
    async def list_lessons() -> list[dict[str, str]]:
        """The games that have a lesson: name, title and summary, in the registry's order."""
        out = []
        for name in available():
            var = variants.get(name)
            out.append({"game": var.name, "title": var.title, "summary": var.summary})
        return out

    @router.post("/api/lessons/{game}", status_code=201)
    async def start_lesson(
        request: Request, game: str, lang: str | None = None
    ) -> dict[str, object]:
        """Start the lesson of ``game`` with its words in ``lang``: its ``id`` and state."""
        lessons = _lessons(request)
        try:
            lesson_id, entry = lessons.start(game, lang, client_address(request.scope))
        except LookupError as err:
            raise HTTPException(404, str(err)) from None
        except ValueError as err:
            text = str(err)
            unknown = text.startswith("unknown game")
            raise HTTPException(404 if unknown else 400, text[:300]) from None
        return dict(lesson_state(lesson_id, entry))

    @router.get("/api/lessons/{lesson_id}")
    async def lesson(
        request: Request, lesson_id: str, lang: str | None = None
    ) -> dict[str, object]:
        """The state of a lesson."""
        lessons = _lessons(request)
        return _answer(lessons, lesson_id, lambda: lessons.get(lesson_id, lang))

    @router.post("/api/lessons/{lesson_id}/move")
    async def move(
        request: Request, lesson_id: str, body: LessonMove, lang: str | None = None
    ) -> dict[str, object]:
        """Try a move: played if the step asks for it, else explained (or refused as the game
        refuses it) and nothing changes."""
        lessons = _lessons(request)
        return _answer(lessons, lesson_id, lambda: lessons.move(lesson_id, body.action, lang))

    @router.post("/api/lessons/{lesson_id}/next")
    async def go_on(request: Request, lesson_id: str, lang: str | None = None) -> dict[str, object]:
        """Go on from a step that is only read."""
        lessons = _lessons(request)
        return _answer(lessons, lesson_id, lambda: lessons.next(lesson_id, lang))

    return router
