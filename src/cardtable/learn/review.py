"""The review of a finished game: every decision of a seat weighed by the search against the
best alternative, and the memory slips of a person who played without the memory aid.

A review replays the game's log (:meth:`cardtable.game.Game.log`: game, players, seed, options,
deck, actions). At each decision of a reviewed seat with more than one legal action, the
rollout search (:meth:`cardtable.agents.search.RolloutAgent.appraise`) values every legal
action from what that seat knew then — its own knowledge, everything it had been shown, never a
hidden card — keeping the played action in the race, and the decision is judged by the
expected round points the played action gives away against the best one:

=============  ========================================
label          expected points lost (and > 2 std errors)
=============  ========================================
inaccuracy     at least :data:`INACCURACY` (1.5)
mistake        at least :data:`MISTAKE` (3)
blunder        at least :data:`BLUNDER` (6)
=============  ========================================

A loss is labelled only when it is more than :data:`NOISE` standard errors of the search's own
estimate, so that luck in the sampled deals is not called a mistake.

A **memory slip** is a move made against a card the seat had been shown but no longer had on
display (a person without the memory aid must remember it), where the move makes no sense
given that card (:meth:`cardtable.game.Game.sensible`): "Memory slip: your card 2 was the [2]
you saw 4 turns ago."

``docs/learning.md`` states the same thresholds; its test reads them from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, cast

from ..agents.search import ActionValue, RolloutAgent
from ..catalog import card_token, decimal, say
from ..events import At
from ..game import Game
from ..notation import Action, parse
from ..seat import Seat
from ..text.moves import move_words
from ..text.phrase import Reader
from ..variants import replay_start

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "NOISE",
    "Judgement",
    "Label",
    "Review",
    "SeatSummary",
    "Slip",
    "label_for",
    "review",
    "start",
]

INACCURACY = 1.5
"""Expected points lost from which a decision is an inaccuracy."""
MISTAKE = 3.0
"""Expected points lost from which a decision is a mistake."""
BLUNDER = 6.0
"""Expected points lost from which a decision is a blunder."""
NOISE = 2.0
"""Standard errors of the estimate a loss must exceed to be labelled at all."""

Label = Literal["inaccuracy", "mistake", "blunder"]
"""How bad a decision was."""

Progress = Callable[[int, int], None]
"""Told (decisions done, decisions in all) as a review goes."""


def label_for(loss: float, error: float) -> Label | None:
    """The label of a decision that gave away ``loss`` expected points, estimated with
    standard error ``error`` (``None``: fine, or not clearly worse than the best)."""
    if loss <= NOISE * error:
        return None
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True)
class Slip:
    """A move against a card the seat had seen and had to remember."""

    place: At
    """Where the card was."""
    card: str
    """The card (its code)."""
    turns: int
    """The seat's turns since it last saw the card (0: this turn)."""
    at_deal: bool
    """Whether it saw the card in the round's opening peeks."""

    def words(self, seat: int, names: tuple[str, ...] = ()) -> str:
        """The slip in words, told to ``seat``."""
        reader = Reader(seat, names)
        if self.at_deal:
            when = say("review.when.deal")
        elif self.turns == 0:
            when = say("review.when.now")
        else:
            when = say("review.when.turns", n=self.turns)
        return say(
            "review.slip",
            place=reader.addr(self.place),
            card=card_token(self.card),
            when=when,
        )


@dataclass(frozen=True)
class Judgement:
    """One decision of a reviewed seat, weighed."""

    index: int
    """The decision's position in the log's actions."""
    seat: int
    """Whose decision it was."""
    played: Action
    """What the seat played."""
    best: Action
    """The action with the fewest expected points."""
    loss: float
    """Expected round points the played action gave away against the best (≥ 0)."""
    error: float
    """The standard error of :attr:`loss`."""
    label: Label | None
    """:func:`label_for` of the loss."""
    slip: Slip | None
    """The memory slip, if the move was one."""
    values: tuple[ActionValue, ...]
    """The search's numbers for every legal action."""
    hands: tuple[tuple[str | None, ...], ...] = ()
    """Every hand open at the decision, per seat and position (``None``: no card): a review
    is of a finished game, whose cards may all be shown."""
    known: tuple[tuple[bool, ...], ...] = ()
    """Which of those cards the seat knew then (with everything it had been shown)."""

    def as_json(self) -> dict[str, object]:
        """The decision as ``cardtable review --json`` prints it."""
        return {
            "index": self.index,
            "played": str(self.played),
            "best": str(self.best),
            "loss": round(self.loss, 2),
            "label": self.label,
        }

    def words(self, names: tuple[str, ...] = ()) -> str:
        """The decision in words, told to its seat."""
        played = move_words(self.played, self.seat, names)
        if self.played == self.best or self.label is None:
            line = say("review.fine", move=played, loss=decimal(self.loss))
        else:
            line = say(
                f"review.{self.label}",
                move=played,
                best=move_words(self.best, self.seat, names),
                loss=decimal(self.loss),
            )
        if self.slip is not None:
            line += " " + self.slip.words(self.seat, names)
        return line


@dataclass(frozen=True)
class SeatSummary:
    """One seat's decisions in figures."""

    seat: int
    """The seat."""
    decisions: int
    """Decisions weighed (those with more than one legal action)."""
    inaccuracies: int
    """Decisions labelled inaccuracy."""
    mistakes: int
    """Decisions labelled mistake."""
    blunders: int
    """Decisions labelled blunder."""
    mean_loss: float
    """Mean expected points lost per decision."""
    slips: int
    """Memory slips."""

    def words(self, names: tuple[str, ...] = ()) -> str:
        """The summary line, told to its seat."""
        return say(
            "review.summary",
            who=Reader(None, names).name(self.seat),
            decisions=self.decisions,
            loss=decimal(self.mean_loss, 2),
            inaccuracies=self.inaccuracies,
            mistakes=self.mistakes,
            blunders=self.blunders,
            slips=self.slips,
        )


@dataclass(frozen=True)
class Review:
    """A finished game's review."""

    game: str
    """The variant."""
    judgements: tuple[Judgement, ...]
    """Every weighed decision of the reviewed seats, in the order played."""
    summaries: tuple[SeatSummary, ...]
    """One line of figures per reviewed seat."""

    def of(self, seat: int) -> list[Judgement]:
        """The decisions of ``seat``."""
        return [j for j in self.judgements if j.seat == seat]


def start(log: Mapping[str, object]) -> tuple[Game, list[tuple[int, str]]]:
    """The game of ``log`` as dealt, before any action, and its actions (``ValueError`` for a
    log that is not one): :func:`cardtable.variants.replay_start`."""
    return replay_start(log)


class _Memory:
    """What one seat has had to remember: the card it last saw at each place (and when),
    kept while the round lasts."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.round = -1
        self.turns = 0
        self.opening = True
        self.seen: dict[At, tuple[str, int, bool]] = {}

    def update(self, game: Game, action: Action | None, actor: int) -> None:
        """Note what the seat knows after ``action`` of ``actor`` (``None``: the deal)."""
        if game.round_no != self.round:
            self.round, self.turns, self.opening, self.seen = game.round_no, 0, True, {}
        if action is not None and action.name != "peek":
            self.opening = False
            if actor == self.seat and _starts_turn(action):
                self.turns += 1
        hands = _hands(game, self.seat, memory=True)
        for owner, hand in enumerate(hands):
            for pos, cell in enumerate(hand):
                code = cell.get("card") if isinstance(cell, Mapping) else None
                at = At(owner, pos)
                if code is None:
                    self.seen.pop(at, None)
                elif at not in self.seen or self.seen[at][0] != code:
                    self.seen[at] = (str(code), self.turns, self.opening)

    def slip(self, game: Game, action: Action) -> Slip | None:
        """The slip ``action`` is, if it goes against a card the seat had to remember."""
        if game.sensible(self.seat, action):
            return None
        bare = _hands(game, self.seat, memory=False)
        for at in _places(self.seat, action, self.seen):
            if at not in self.seen:
                continue
            row = bare[at.seat] if at.seat < len(bare) else []
            cell = row[at.pos] if at.pos < len(row) else None
            if isinstance(cell, Mapping) and cell.get("card") is not None:
                continue  # on display: nothing to remember
            code, when, at_deal = self.seen[at]
            return Slip(at, code, self.turns - when, at_deal)
        return None


def _hands(game: Game, seat: int, *, memory: bool) -> list[list[Mapping[str, object]]]:
    """The hand cells of the seat's view (with or without the memory aid)."""
    view: Mapping[str, object] = game.view(seat, memory=memory)
    return cast("list[list[Mapping[str, object]]]", view.get("hands", []))


def _starts_turn(action: Action) -> bool:
    """Whether ``action`` begins a turn: a draw, or the call."""
    return action.name == "draw" or (
        not action.args and action.name not in ("discard", "pass", "exchange")
    )


def _places(seat: int, action: Action, seen: Mapping[At, object]) -> list[At]:
    """The places ``action`` goes against: the seat's own cards it replaces, gives, drops or
    swaps away, or (discarding the drawn card) every own card it remembers."""
    name, args = action.name, action.args
    out: list[At] = []
    if name in ("replace", "give", "drop", "exchange", "look"):
        for a in args:
            if isinstance(a, int):
                out.append(At(seat, a))
            elif isinstance(a, tuple):
                out.append(At(a[0], a[1]))
    elif name == "discard":
        out = [at for at in seen if at.seat == seat]
    return out


def review(
    log: Mapping[str, object],
    seats: Iterable[int] | None = None,
    *,
    samples: int = 200,
    seed: int = 0,
    memory_aid: Mapping[int, bool] | bool = False,
    progress: Progress | None = None,
) -> Review:
    """Review the game of ``log`` for ``seats`` (default: every seat): each decision weighed
    by the search with ``samples`` deals from what the seat knew, and memory slips of the
    seats that played without the memory aid (``memory_aid``: per seat, or one for all)."""
    game, steps = start(log)
    chosen = sorted(set(range(game.players) if seats is None else seats))
    for s in chosen:
        if not 0 <= s < game.players:
            raise ValueError(f"seat {s} is not at this table of {game.players}")
    aid = {
        s: memory_aid if isinstance(memory_aid, bool) else memory_aid.get(s, False) for s in chosen
    }
    minds = {s: _Memory(s) for s in chosen if not aid[s] and game.knowledge(s) is not None}
    for mind in minds.values():
        mind.update(game, None, -1)
    total = sum(1 for s, _ in steps if s in chosen)
    done = 0
    judgements: list[Judgement] = []
    for index, (actor, text) in enumerate(steps):
        action = parse(text)
        if actor in chosen:
            legal = game.legal_actions(actor)
            if len(legal) > 1 and action in legal:
                judgements.append(_judge(game, index, actor, action, samples, seed, minds))
            done += 1
            if progress is not None:
                progress(done, total)
        game.play(actor, text)
        for mind in minds.values():
            mind.update(game, action, actor)
    summaries = tuple(_summary(s, [j for j in judgements if j.seat == s]) for s in chosen)
    return Review(game.variant, tuple(judgements), summaries)


def _judge(
    game: Game,
    index: int,
    seat: int,
    action: Action,
    samples: int,
    seed: int,
    minds: Mapping[int, _Memory],
) -> Judgement:
    """Weigh ``seat``'s ``action`` at step ``index`` (before it is played)."""
    agent = RolloutAgent(seed=seed * 100_003 + index, samples=samples)
    appraisal = agent.appraise(Seat(game, seat), keep=[action])
    mine = appraisal.of(action)
    best = appraisal.best
    loss, error = (0.0, 0.0) if action == best else (mine.loss, mine.loss_error)
    mind = minds.get(seat)
    slip = mind.slip(game, action) if mind is not None else None
    seen = _hands(game, seat, memory=True)
    hands = tuple(
        tuple(game.card_at(owner, pos) for pos in range(len(row))) for owner, row in enumerate(seen)
    )
    known = tuple(
        tuple(isinstance(cell, Mapping) and cell.get("card") is not None for cell in row)
        for row in seen
    )
    return Judgement(
        index,
        seat,
        action,
        best,
        loss,
        error,
        label_for(loss, error),
        slip,
        appraisal.values,
        hands,
        known,
    )


def _summary(seat: int, mine: list[Judgement]) -> SeatSummary:
    labels = [j.label for j in mine]
    mean = sum(j.loss for j in mine) / len(mine) if mine else 0.0
    return SeatSummary(
        seat,
        len(mine),
        labels.count("inaccuracy"),
        labels.count("mistake"),
        labels.count("blunder"),
        mean,
        sum(1 for j in mine if j.slip is not None),
    )
