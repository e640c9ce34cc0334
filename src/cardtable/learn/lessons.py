"""Guided lessons: one short game per variant, played on a stacked deck, one step at a time.

A lesson is data, a JSON file of ``cardtable/learn/lessons/`` named after its game::

    {"game": "kaboo", "players": 2, "seat": 0, "options": {"first": 0},
     "hands": [["10C", "QD", "9H", "KS"], ["AS", "JH", "10D", "8S"]], "discard": null,
     "draws": ["2H", "6D", ...],
     "steps": [
       {"say": "learn.kaboo.welcome", "covers": ["values", "memory"]},
       {"say": "learn.kaboo.draw", "covers": ["draw.deck"], "expect": ["draw deck"],
        "wrong": {"knock": "learn.kaboo.draw.knock", "*": "learn.kaboo.draw.wrong"},
        "then": [[1, "draw deck"], [1, "replace 0"]]},
       ...
       {"say": "learn.final", "final": "beginner"}]}

The deck is stacked from ``hands`` (dealt position by position round the table, as the games
deal), the ``discard`` pile's first card (``null``: none) and the ``draws`` that follow, top
first; or given whole as ``deck``. The rest of the deck follows in seeded order.

A step says something (``say``: a catalog key; ``params`` fill it, ``{game}`` is the game's
title) and covers rules (``covers``: ids of :mod:`cardtable.learn.coverage`). A step with
``expect`` waits for one of those moves (exact action texts; ``"spy *"`` stands for any legal
move whose words begin so); a legal move it does not expect is not played, and the learner
reads why (``wrong``: by the move's text or pattern, else ``"*"``, else a general word). The
expected move is played, then the scripted moves of ``then`` (``[seat, action]``; the other
seats', and the learner's own pass in a snap window where nothing is left to teach), so the
table is the same in every run. A step without ``expect`` is read, then :meth:`LessonRun.go_on`
goes on. The last step has ``final``: the agent to play a real round against.

The words are the catalog's (``learn.po``), read in the language in use when they are asked
for: a front end may switch languages between steps.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Literal

from .. import agents, variants
from ..catalog import catalog, has, say
from ..errors import IllegalAction
from ..game import Event, Game
from ..seat import Seat
from ..text.moves import move_words
from ..text.phrase import refusal

__all__ = [
    "Lesson",
    "LessonError",
    "LessonRun",
    "Outcome",
    "RealRound",
    "Step",
    "answer",
    "available",
    "load",
    "parse",
]

WRONG = "learn.wrong"
"""What a legal move the step does not expect gets when the step has no word of its own."""

READ_ON = "learn.read_on"
"""What a move gets on a step that is only read."""

ANY = "*"
"""A pattern's last word that stands for any words (``"spy *"``), and the ``wrong`` entry for
any move not named."""


class LessonError(ValueError):
    """A lesson file that cannot be played: a field of the wrong kind, or a scripted move the
    game refuses."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson (see the module's text)."""

    say: str
    """The catalog key of what the step says."""
    params: Mapping[str, str | int] = field(default_factory=dict)
    """The placeholders of :attr:`say` (``{game}`` is always given)."""
    covers: tuple[str, ...] = ()
    """The rule ids the step explains."""
    expect: tuple[str, ...] = ()
    """The moves the step waits for (exact texts, or patterns ending in ``*``); none: a step to
    read."""
    wrong: Mapping[str, str] = field(default_factory=dict)
    """What a legal move it does not expect is told, by the move's text or pattern (``*``: any
    other): catalog keys."""
    then: tuple[tuple[int, str], ...] = ()
    """The scripted moves played after the expected one, in order."""
    final: str | None = None
    """On the last step: the agent (name or level) of the real round that follows."""

    @property
    def reading(self) -> bool:
        """Whether the step is only read (it waits for no move)."""
        return not self.expect

    def messages(self) -> set[str]:
        """Every catalog key the step uses."""
        return {self.say, *self.wrong.values()}


def _matches(pattern: str, text: str) -> bool:
    """Whether the action ``text`` is ``pattern``, or begins with its words before ``*``."""
    words = pattern.split()
    if words and words[-1] == ANY:
        head = words[:-1]
        return text.split()[: len(head)] == head and len(text.split()) > len(head)
    return text == pattern


@dataclass(frozen=True)
class Lesson:
    """A lesson: the game, its table and its steps (see the module's text)."""

    game: str
    """The variant's registry name."""
    players: int
    """Seats at the table."""
    options: Mapping[str, str | int | bool | None]
    """The game's rule options."""
    deck: tuple[str, ...]
    """The stacked deck, top first."""
    steps: tuple[Step, ...]
    """The steps, in order; the last one is final."""
    seat: int = 0
    """The learner's seat."""

    @property
    def title(self) -> str:
        """The game's title (``Kaboo``)."""
        return variants.get(self.game).title

    def covers(self) -> set[str]:
        """Every rule id some step covers."""
        return {rule for step in self.steps for rule in step.covers}

    def messages(self) -> set[str]:
        """Every catalog key the lesson uses (:data:`WRONG` and :data:`READ_ON` included)."""
        return {WRONG, READ_ON, *(k for step in self.steps for k in step.messages())}

    def new_game(self, seed: int = 0) -> Game:
        """The lesson's table, dealt (``seed`` orders the cards after the stacked ones)."""
        return variants.new_game(
            self.game, self.players, seed=seed, options=dict(self.options), deck=list(self.deck)
        )

    def start(self, seed: int = 0) -> LessonRun:
        """A run of the lesson, at its first step."""
        return LessonRun(self, self.new_game(seed))


@dataclass(frozen=True)
class Outcome:
    """What became of one move of the learner (or of going on from a step to read)."""

    accepted: bool
    """Whether the lesson moved on (the move was played, or the step was read)."""
    words: str
    """What the learner reads now: the next step's words, or why the move was not played."""
    kind: Literal["played", "wrong", "refused", "read"]
    """``played`` (the expected move, and the scripted ones after it), ``wrong`` (a legal
    move the step does not expect: not played), ``refused`` (not a legal move: the game's
    refusal), ``read`` (a step to read: gone on, or a move that waits for going on)."""
    events: tuple[Event, ...] = ()
    """The events of the moves played (the learner's, then the scripted ones), in order."""
    move: str = ""
    """The learner's move in plain words (:func:`~cardtable.text.moves.move_words`), where it
    is one of the legal moves (played or ``wrong``); empty otherwise."""


@dataclass(frozen=True)
class RealRound:
    """The real round that follows a lesson: a fresh game, the learner's seat and the agents
    of the other seats (seeded as the full-screen table seeds its bots, ``bot_seed * 16 +
    seat``)."""

    game: Game
    """A new single round of the lesson's game."""
    seat: int
    """The learner's seat."""
    opponents: str
    """The agent name or level of the other seats."""
    bot_seed: int
    """The seed the agents were made from."""
    bots: Mapping[int, agents.Agent]
    """The agent of each other seat."""


class LessonRun:
    """One learner going through a lesson: the table (:attr:`game`, :attr:`seat`), the step
    and what it says, and the learner's moves (:meth:`try_move`, :meth:`go_on`)."""

    def __init__(self, lesson: Lesson, game: Game) -> None:
        self.lesson = lesson
        """The lesson played."""
        self.game = game
        """The lesson's table."""
        self.me = lesson.seat
        """The learner's seat number."""
        self.seat = Seat(game, lesson.seat, memory=False)
        """The learner's seat (without memory aid, as a person plays)."""
        self.index = 0
        """The current step's index."""

    @property
    def step(self) -> Step:
        """The current step."""
        return self.lesson.steps[self.index]

    @property
    def words(self) -> str:
        """What the current step says, in the catalog in use."""
        return self.phrase(self.step.say)

    @property
    def progress(self) -> str:
        """Where the learner is: ``step 3 of 20``."""
        return say("learn.progress", n=self.index + 1, total=len(self.lesson.steps))

    @property
    def reading(self) -> bool:
        """Whether the current step waits for :meth:`go_on` rather than a move."""
        return self.step.reading

    @property
    def done(self) -> bool:
        """Whether the lesson is at its final step (a real round may follow)."""
        return self.step.final is not None or self.index == len(self.lesson.steps) - 1

    @property
    def final(self) -> str | None:
        """The agent of the real round offered at the end (``None`` before the final step)."""
        return self.step.final if self.done else None

    def phrase(self, key: str) -> str:
        """The message ``key`` in the catalog in use, filled for this lesson and step
        (``{game}``, the step's ``params``)."""
        return catalog().fill(key, {"game": self.lesson.title, **self.step.params})

    def expected(self) -> list[str]:
        """The legal moves the current step accepts (none on a step to read)."""
        if self.step.reading or self.me not in self.game.actors:
            return []
        legal = [str(a) for a in self.game.legal_actions(self.me)]
        return [t for t in legal if any(_matches(p, t) for p in self.step.expect)]

    def _wrong(self, text: str) -> str:
        """The words for the legal but unexpected move ``text``."""
        wrong = self.step.wrong
        key = wrong.get(text)
        if key is None:
            key = next((k for p, k in wrong.items() if p != ANY and _matches(p, text)), None)
        return self.phrase(key or wrong.get(ANY, WRONG))

    def try_move(self, text: str) -> Outcome:
        """The learner's move ``text``: refused as the game refuses it (nothing changes), not
        played with the step's explanation if it is legal but not what the step asks (nothing
        changes), or played with the step's scripted moves after it, the lesson at its next
        step."""
        if self.step.reading:
            return Outcome(False, self.phrase(READ_ON), "read")
        try:
            checked = self.game.check(self.me, text)
        except IllegalAction as err:
            return Outcome(False, refusal(err, self.me), "refused")
        action, move = str(checked), move_words(checked, self.me)
        if not any(_matches(p, action) for p in self.step.expect):
            return Outcome(False, self._wrong(action), "wrong", move=move)
        events = list(self.game.play(self.me, action))
        for seat, scripted in self.step.then:
            try:
                events += self.game.play(seat, scripted)
            except IllegalAction as err:
                raise LessonError(
                    f"{self.lesson.game} lesson, step {self.index + 1}: the scripted move "
                    f"{scripted!r} of seat {seat} is refused ({err})"
                ) from err
        self._advance()
        return Outcome(True, self.words, "played", tuple(events), move)

    def go_on(self) -> Outcome:
        """Go on from a step to read (nothing happens on a step that waits for a move, or at
        the final step)."""
        if not self.step.reading or self.done:
            return Outcome(False, self.words, "read")
        self._advance()
        return Outcome(True, self.words, "read")

    def _advance(self) -> None:
        if self.index < len(self.lesson.steps) - 1:
            self.index += 1

    def real_round(self, seed: int = 0, opponents: str | None = None) -> RealRound:
        """A fresh single round of the lesson's game against the final step's agent (or
        ``opponents``), ``seed`` dealing it and seeding the agents."""
        who = opponents or self.final or "beginner"
        game = variants.new_game(
            self.lesson.game, self.lesson.players, seed=seed, options={"target": None}
        )
        bots = {s: agents.get(who, seed=seed * 16 + s) for s in range(game.players) if s != self.me}
        return RealRound(game, self.me, who, seed, bots)


def answer(outcome: Outcome) -> str:
    """What a front end says of a move the lesson did not play: ``Not this move (put the drawn
    card in place of your card 3): …`` for a legal one, ``Not this move: …`` for one the game
    refused, the words alone on a step to read."""
    if outcome.kind == "read" or outcome.accepted:
        return outcome.words
    if outcome.move:
        return say("learn.ui.not_this_move", move=outcome.move) + " " + outcome.words
    return say("learn.ui.not_this") + " " + outcome.words


# ---------------------------------------------------------------------------- reading
def _strings(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LessonError(f"{what} must be a list of strings")
    return tuple(value)


def _step(raw: object, number: int) -> Step:
    where = f"step {number}"
    if not isinstance(raw, dict) or not isinstance(raw.get("say"), str):
        raise LessonError(f"{where} must be an object with a 'say' key")
    params = raw.get("params", {})
    if not isinstance(params, dict) or not all(
        isinstance(v, str | int) and not isinstance(v, bool) for v in params.values()
    ):
        raise LessonError(f"{where}: params must map names to strings or numbers")
    wrong = raw.get("wrong", {})
    if isinstance(wrong, str):
        wrong = {ANY: wrong}
    if not isinstance(wrong, dict) or not all(isinstance(v, str) for v in wrong.values()):
        raise LessonError(f"{where}: wrong must be a key or map moves to keys")
    then = raw.get("then", [])
    moves: list[tuple[int, str]] = []
    for move in then if isinstance(then, list) else [None]:
        if not (
            isinstance(move, list)
            and len(move) == 2
            and type(move[0]) is int
            and isinstance(move[1], str)
        ):
            raise LessonError(f"{where}: then must be a list of [seat, action]")
        moves.append((move[0], move[1]))
    final = raw.get("final")
    if final is not None and not isinstance(final, str):
        raise LessonError(f"{where}: final must name an agent")
    known = {"say", "params", "covers", "expect", "wrong", "then", "final"}
    if set(raw) - known:
        raise LessonError(f"{where}: unknown keys {sorted(set(raw) - known)}")
    return Step(
        say=raw["say"],
        params=dict(params),
        covers=_strings(raw.get("covers", []), f"{where}: covers"),
        expect=_strings(raw.get("expect", []), f"{where}: expect"),
        wrong=dict(wrong),
        then=tuple(moves),
        final=final,
    )


def _deck(raw: Mapping[str, object]) -> tuple[str, ...]:
    """The stacked deck of a lesson: ``deck``, or dealt from ``hands``, ``discard``, ``draws``."""
    if "deck" in raw:
        return _strings(raw["deck"], "deck")
    hands = raw.get("hands")
    if not isinstance(hands, list) or not hands:
        raise LessonError("a lesson needs 'deck' or 'hands'")
    dealt = [_strings(h, "each hand") for h in hands]
    if len({len(h) for h in dealt}) != 1:
        raise LessonError("every hand must have as many cards")
    order = [hand[pos] for pos in range(len(dealt[0])) for hand in dealt]
    discard = raw.get("discard")
    if discard is not None:
        if not isinstance(discard, str):
            raise LessonError("discard must be a card code or null")
        order.append(discard)
    return (*order, *_strings(raw.get("draws", []), "draws"))


def parse(raw: object) -> Lesson:
    """The lesson of a decoded JSON file (``LessonError`` where a field is wrong)."""
    if not isinstance(raw, dict):
        raise LessonError("a lesson is a JSON object")
    game, players, seat = raw.get("game"), raw.get("players", 2), raw.get("seat", 0)
    if not isinstance(game, str):
        raise LessonError("a lesson names its game")
    if type(players) is not int or type(seat) is not int or not 0 <= seat < players:
        raise LessonError("players and seat must be numbers, the seat one of the players")
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise LessonError("options must be an object")
    steps = raw.get("steps")
    if not isinstance(steps, list) or not steps:
        raise LessonError("a lesson has steps")
    parsed = tuple(_step(s, i + 1) for i, s in enumerate(steps))
    if any(s.final is not None for s in parsed[:-1]) or parsed[-1].final is None:
        raise LessonError("the last step, and only it, is final")
    lesson = Lesson(game, players, dict(options), _deck(raw), parsed, seat)
    missing = sorted(k for k in lesson.messages() if not has(k))
    if missing:
        raise LessonError(f"{game} lesson: no words for {', '.join(missing)}")
    return lesson


def available() -> list[str]:
    """The games that have a lesson, in registry order."""
    folder = files(__package__).joinpath("lessons")
    return [n for n in variants.names() if folder.joinpath(f"{n}.json").is_file()]


@cache
def load(game: str) -> Lesson:
    """The lesson of ``game`` (a name or alias of a registered game); ``ValueError`` for an
    unknown game, or one without a lesson."""
    name = variants.get(game).name
    path = files(__package__).joinpath("lessons", f"{name}.json")
    if not path.is_file():
        raise ValueError(f"there is no lesson for {name} yet")
    return parse(json.loads(path.read_text(encoding="utf-8")))
