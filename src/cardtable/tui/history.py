"""The person's finished terminal games and their rating, kept on this machine with no account.

``cardtable play`` adds one line to ``history.jsonl`` (JSON lines, in the folder of the save:
:func:`history_path`) for every game played to its end, on the full-screen table or in line
mode; a game left before its end is not kept. ``cardtable stats`` reads it
(:func:`read_history`, :func:`game_stats`, :func:`stats_json`).

A game is *rated* when the person played it without the memory aid, without asking for a hint
and without showing the AI players' cards (the web's rule: a rated table has no memory aid and
no hints). A rated game moves the person's rating in its game type — openskill Plackett–Luce
(:func:`cardtable.ratings.rate_game`), starting from a new player's :class:`Rating` — against
the AI seats' calibrated level ratings (:func:`cardtable.ratings.level_ratings`; a level not
calibrated counts as a new player). The levels' ratings are read, never changed: only the
person's moves. An unrated game is kept all the same and counts in the games played.

The file is only ever appended to. A line that cannot be read (a write cut short, an edit) is
skipped and counted (:attr:`History.skipped`); a folder that is missing is made; a game that
cannot be written is reported (:attr:`Kept.error`) and never stops the game.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from .. import Game
from ..ratings import Rating, level_ratings, places, rate_game
from ..text.catalog import has, say

__all__ = [
    "HISTORY_FILE",
    "RECENT",
    "GameStats",
    "History",
    "HistoryRecord",
    "Kept",
    "RatingRecord",
    "SeatRecord",
    "game_stats",
    "history_path",
    "kept_line",
    "level_name",
    "make_record",
    "rated_after",
    "read_history",
    "record_game",
    "standing",
    "stats_json",
    "unrated_reason",
]

HISTORY_FILE = "history.jsonl"
"""The history's file name, in the folder of the save (:func:`history_path`)."""

RECENT = 10
"""How many of the latest games ``cardtable stats`` lists."""


class RatingRecord(TypedDict):
    """A rating as kept: openskill's ``mu`` and ``sigma``."""

    mu: float
    """The estimate."""
    sigma: float
    """Its uncertainty."""


class SeatRecord(TypedDict):
    """Who sat at one seat: the person, or an AI player of a level (or agent name)."""

    kind: str
    """``person`` or ``ai``."""
    level: NotRequired[str]
    """The AI player's level or agent name (an AI seat's only)."""


class HistoryRecord(TypedDict):
    """One finished game, one line of the history."""

    time: str
    """When it ended (ISO 8601, UTC)."""
    game: str
    """The game type (a variant's name)."""
    players: int
    """Seats at the table."""
    seat: int
    """The person's seat."""
    seats: list[SeatRecord]
    """Who sat at each seat."""
    totals: list[int]
    """Final totals, by seat."""
    winners: list[int]
    """The seats that won."""
    rounds: list[list[int]]
    """Each round's scores, by seat."""
    place: int
    """The person's place (1 is best; ties share a place)."""
    memory_aid: bool
    """Whether the person played with the memory aid."""
    hints_used: bool
    """Whether the person asked for a hint."""
    practice: bool
    """Whether the AI players' cards were shown face up."""
    rated: bool
    """Whether the game moved the person's rating."""
    rating: RatingRecord | None
    """The person's rating in this game type after it (a rated game's only)."""
    seed: int | None
    """The deal's seed (``cardtable play --seed`` replays it)."""


def history_path() -> Path:
    """The history's file: :data:`HISTORY_FILE` beside the save
    (:func:`cardtable.tui.saves.save_path`), so ``CARDTABLE_DATA_DIR`` moves both.
    ``ImportError`` without the ``tui`` extra (``platformdirs`` finds the folder)."""
    from . import saves  # platformdirs: the tui extra, only when the folder is asked for

    return saves.save_path().parent / HISTORY_FILE


# ---------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class History:
    """The games read from a history file, oldest first."""

    records: tuple[HistoryRecord, ...] = ()
    """Every game that could be read, in the order it was kept."""
    skipped: int = 0
    """Lines that could not be read (a write cut short, an edit), left out."""
    path: Path | None = None
    """The file read (``None``: none)."""

    def of(self, game: str) -> list[HistoryRecord]:
        """The games of ``game``, oldest first."""
        return [r for r in self.records if r["game"] == game]

    def games(self) -> list[str]:
        """The game types played, by name."""
        return sorted({r["game"] for r in self.records})

    def rating(self, game: str) -> Rating | None:
        """The person's rating in ``game`` now: the one after the last rated game of it
        (``None``: no rated game yet)."""
        for r in reversed(self.records):
            if r["game"] == game and r["rated"] and r["rating"] is not None:
                return Rating(r["rating"]["mu"], r["rating"]["sigma"])
        return None


def read_history(path: Path | None = None) -> History:
    """The history at ``path`` (default: :func:`history_path`); empty if there is no such file.
    A line that is not a game as :func:`make_record` writes it is skipped and counted. An
    ``OSError`` other than a missing file is raised."""
    where = history_path() if path is None else path
    try:
        data = where.read_bytes()
    except FileNotFoundError:
        return History(path=where)
    records: list[HistoryRecord] = []
    skipped = 0
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        try:
            found = _parse(json.loads(raw.decode("utf-8")))
        except ValueError:  # not UTF-8, not JSON
            found = None
        if found is None:
            skipped += 1
        else:
            records.append(found)
    return History(tuple(records), skipped, where)


def _int(x: object) -> int | None:
    """``x`` if it is a whole number (not a bool), else ``None``."""
    return x if isinstance(x, int) and not isinstance(x, bool) else None


def _ints(x: object, size: int | None = None) -> list[int] | None:
    if not isinstance(x, list) or (size is not None and len(x) != size):
        return None
    out = [_int(v) for v in x]
    return [v for v in out if v is not None] if None not in out else None


def _rating(x: object) -> RatingRecord | None:
    if not isinstance(x, dict):
        return None
    mu, sigma = x.get("mu"), x.get("sigma")
    if isinstance(mu, bool) or isinstance(sigma, bool):
        return None
    if not (isinstance(mu, (int, float)) and isinstance(sigma, (int, float))):
        return None
    if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0):
        return None
    return {"mu": float(mu), "sigma": float(sigma)}


def _seats(x: object, players: int) -> list[SeatRecord] | None:
    if not isinstance(x, list) or len(x) != players:
        return None
    out: list[SeatRecord] = []
    for s in x:
        if not isinstance(s, dict) or not isinstance(s.get("kind"), str):
            return None
        seat: SeatRecord = {"kind": str(s["kind"])}
        if isinstance(s.get("level"), str):
            seat["level"] = str(s["level"])
        out.append(seat)
    return out


def _parse(x: object) -> HistoryRecord | None:
    """``x`` as a game of the history, or ``None`` if it is not one."""
    if not isinstance(x, dict):
        return None
    game, time = x.get("game"), x.get("time")
    n, seat, place = _int(x.get("players")), _int(x.get("seat")), _int(x.get("place"))
    if not (isinstance(game, str) and game and isinstance(time, str)):
        return None
    if n is None or seat is None or place is None or not 0 <= seat < n:
        return None
    totals, winners, seats = (
        _ints(x.get("totals"), n),
        _ints(x.get("winners")),
        _seats(x.get("seats"), n),
    )
    if totals is None or winners is None or seats is None or not all(0 <= w < n for w in winners):
        return None
    rounds_in = x.get("rounds", [])
    rounds = [_ints(r, n) for r in rounds_in] if isinstance(rounds_in, list) else [None]
    memory_aid, hints_used = x.get("memory_aid"), x.get("hints_used")
    practice, rated = x.get("practice", False), x.get("rated")
    flags = (memory_aid, hints_used, practice, rated)
    seed_in, rating_in = x.get("seed"), x.get("rating")
    seed = _int(seed_in)
    rating = None if rating_in is None else _rating(rating_in)
    if not all(isinstance(f, bool) for f in flags) or None in rounds:
        return None
    if (seed_in is not None and seed is None) or (rating_in is not None and rating is None):
        return None
    return {
        "time": time,
        "game": game,
        "players": n,
        "seat": seat,
        "seats": seats,
        "totals": totals,
        "winners": winners,
        "rounds": [r for r in rounds if r is not None],
        "place": place,
        "memory_aid": memory_aid is True,
        "hints_used": hints_used is True,
        "practice": practice is True,
        "rated": rated is True,
        "rating": rating,
        "seed": seed,
    }


# ---------------------------------------------------------------------------- keeping
def unrated_reason(*, memory_aid: bool, hints_used: bool, practice: bool = False) -> str | None:
    """Why a game is not rated (``memory_aid``, ``hints``, ``practice``), or ``None``: it is."""
    if memory_aid:
        return "memory_aid"
    if hints_used:
        return "hints"
    if practice:
        return "practice"
    return None


def rated_after(
    game: str,
    before: Rating,
    seat: int,
    levels: Sequence[str | None],
    totals: Sequence[int],
    winners: Sequence[int],
) -> Rating:
    """The person's rating after a rated game of ``game``: ``before`` at ``seat``, each other
    seat the calibrated rating of its level in ``levels`` (by seat; a level not calibrated: a
    new player's), the finishing places from ``totals`` and ``winners``. Only the person's
    new rating is returned: the levels' stay as calibrated."""
    calibrated = level_ratings(game)
    table = [
        before if s == seat else calibrated.get(levels[s] or "", Rating())
        for s in range(len(totals))
    ]
    return rate_game(table, places(totals, winners))[seat]


def make_record(
    game: Game,
    seat: int,
    opponents: str,
    *,
    memory_aid: bool,
    hints_used: bool,
    practice: bool = False,
    rating: Rating | None = None,
    now: datetime | None = None,
) -> HistoryRecord:
    """The line kept for ``game`` (over), played by the person at ``seat`` against
    ``opponents`` AI players, with the person's ``rating`` after it (``None``: unrated)."""
    result = game.result
    if result is None:
        raise ValueError("only a finished game is kept")
    level = opponents.strip().lower()
    totals, winners = list(result.totals), list(result.winners)
    seats: list[SeatRecord] = [
        {"kind": "person"} if s == seat else {"kind": "ai", "level": level}
        for s in range(game.players)
    ]
    return {
        "time": (now or datetime.now(UTC)).isoformat(timespec="seconds"),
        "game": game.variant,
        "players": game.players,
        "seat": seat,
        "seats": seats,
        "totals": totals,
        "winners": winners,
        "rounds": [list(r) for r in result.rounds],
        "place": places(totals, winners)[seat],
        "memory_aid": memory_aid,
        "hints_used": hints_used,
        "practice": practice,
        "rated": rating is not None,
        "rating": None if rating is None else {"mu": rating.mu, "sigma": rating.sigma},
        "seed": game.seed,
    }


@dataclass(frozen=True)
class Kept:
    """What :func:`record_game` did with a finished game."""

    record: HistoryRecord
    """The line kept (or that could not be)."""
    before: Rating | None
    """The person's rating in the game type before it (``None``: no rated game yet)."""
    reason: str | None
    """Why it is not rated (see :func:`unrated_reason`; ``rating``: the rating could not be
    worked out), or ``None``: it is."""
    error: str | None = None
    """Why it could not be kept (``None``: it was)."""

    @property
    def after(self) -> Rating | None:
        """The person's rating after the game (``None``: the game is not rated)."""
        kept = self.record["rating"]
        return None if kept is None else Rating(kept["mu"], kept["sigma"])


def record_game(
    game: Game,
    seat: int,
    opponents: str,
    *,
    memory_aid: bool,
    hints_used: bool,
    practice: bool = False,
    path: Path | None = None,
    now: datetime | None = None,
) -> Kept:
    """Keep ``game`` (over) in the history at ``path`` (default: :func:`history_path`), rated
    when the person played without the memory aid, hints or open hands. Never raises for the
    file: a history that cannot be read or written is reported in :attr:`Kept.error`."""
    reason = unrated_reason(memory_aid=memory_aid, hints_used=hints_used, practice=practice)
    error: str | None = None
    before: Rating | None = None
    where: Path | None = None
    try:
        where = history_path() if path is None else path
        before = read_history(where).rating(game.variant)
    except (OSError, ImportError) as err:
        where, error = None, _why(err)  # not kept: nothing is written over what cannot be read
    rating: Rating | None = None
    if reason is None and error is None:
        result = game.result
        assert result is not None  # make_record refuses a game not over
        levels = [None if s == seat else opponents.strip().lower() for s in range(game.players)]
        try:
            rating = rated_after(
                game.variant,
                before or Rating(),
                seat,
                levels,
                result.totals,
                result.winners,
            )
        except ImportError:  # openskill missing: kept, not rated
            reason = "rating"
    record = make_record(
        game,
        seat,
        opponents,
        memory_aid=memory_aid,
        hints_used=hints_used,
        practice=practice,
        rating=rating,
        now=now,
    )
    if where is not None:
        try:
            _append(where, record)
        except OSError as err:
            error = _why(err)
    if error is not None and rating is not None:
        reason = None  # the rating it would have had is told, not kept
    return Kept(record, before, reason, error)


def _why(err: BaseException) -> str:
    if isinstance(err, OSError):
        where = f" ({err.filename})" if err.filename else ""
        return f"{err.strerror or err}{where}"
    return str(err)


def _append(path: Path, record: HistoryRecord) -> None:
    """Add ``record`` as one line at the end of ``path`` (its folder made if missing; a last
    line cut short gets its line end first, so that only it is lost)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    with path.open("ab+") as f:
        f.seek(0, os.SEEK_END)
        lead = b""
        if f.tell() > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                lead = b"\n"
        f.write(lead + line.encode("utf-8"))
        f.flush()


def kept_line(kept: Kept) -> str:
    """What the person is told once a finished game is kept (or could not be)."""
    game = kept.record["game"]
    if kept.error is not None:
        return say("stats.kept.error", error=kept.error)
    after = kept.after
    if after is None:
        why = say(f"stats.unrated.{kept.reason or 'rating'}")
        return say("stats.kept.unrated", why=why, game=game)
    low, high = after.interval
    change = after.points - (kept.before or Rating()).points
    return say(
        "stats.kept.rated",
        game=game,
        rating=after.points,
        low=low,
        high=high,
        change=f"{change:+d}",
    )


# ---------------------------------------------------------------------------- what it says
def level_name(level: str) -> str:
    """A level's name in the language in use (an agent name as it is)."""
    key = f"ui.level.{level}"
    return say(key) if has(key) else level


def standing(rating: Rating, levels: Mapping[str, Rating]) -> tuple[str | None, str | None]:
    """The calibrated levels just below and just above ``rating`` in points (``None`` where
    none is: below every level, or above every one)."""
    below = [(r.points, name) for name, r in levels.items() if r.points <= rating.points]
    above = [(r.points, name) for name, r in levels.items() if r.points > rating.points]
    return (max(below)[1] if below else None, min(above)[1] if above else None)


@dataclass(frozen=True)
class GameStats:
    """The person's games of one game type, summed up."""

    game: str
    """The game type."""
    played: int
    """Games played to their end."""
    won: int
    """Games the person won (a shared win counts)."""
    rated: int
    """Games that moved the rating."""
    avg_score: float
    """The person's average final total."""
    avg_round_score: float | None
    """The person's average score in a round (``None``: no round kept)."""
    rating: Rating | None
    """The person's rating now (``None``: no rated game yet)."""
    levels: dict[str, Rating] = field(default_factory=dict)
    """The AI levels' calibrated ratings in this game type."""

    @property
    def win_rate(self) -> float:
        """Games won per game played (0 when none was)."""
        return self.won / self.played if self.played else 0.0

    def to_dict(self) -> dict[str, Any]:
        """As ``cardtable stats --json`` writes it (as the web's ``GET /api/players/{name}``
        does each game type): ``played``, ``won``, ``avg_score``, ``rating`` (or ``null``) and
        more."""
        below, above = standing(self.rating, self.levels) if self.rating else (None, None)
        return {
            "played": self.played,
            "won": self.won,
            "win_rate": round(self.win_rate, 4),
            "rated": self.rated,
            "avg_score": round(self.avg_score, 2),
            "avg_round_score": (
                None if self.avg_round_score is None else round(self.avg_round_score, 2)
            ),
            "rating": _rating_dict(self.rating) if self.rating else None,
            "levels": {name: _rating_dict(r) for name, r in _best_first(self.levels)},
            "between": [below, above] if self.rating else None,
        }


def _rating_dict(r: Rating) -> dict[str, float | int]:
    return {**r.to_dict(), "points": r.points}


def _best_first(levels: Mapping[str, Rating]) -> list[tuple[str, Rating]]:
    return sorted(levels.items(), key=lambda kv: -kv[1].mu)


def game_stats(history: History, game: str) -> GameStats:
    """The person's games of ``game`` in ``history``, summed up, with the levels' ratings."""
    games = history.of(game)
    mine = [r["totals"][r["seat"]] for r in games]
    rounds = [row[r["seat"]] for r in games for row in r["rounds"]]
    return GameStats(
        game=game,
        played=len(games),
        won=sum(1 for r in games if r["seat"] in r["winners"]),
        rated=sum(1 for r in games if r["rated"] and r["rating"] is not None),
        avg_score=sum(mine) / len(mine) if mine else 0.0,
        avg_round_score=sum(rounds) / len(rounds) if rounds else None,
        rating=history.rating(game),
        levels=level_ratings(game),
    )


def stats_json(history: History, games: Iterable[str] | None = None) -> dict[str, Any]:
    """The history as ``cardtable stats --json`` writes it: ``games`` (by game type, see
    :meth:`GameStats.to_dict`), ``recent`` (the latest :data:`RECENT` games, newest first) and
    ``skipped`` (lines that could not be read)."""
    chosen = history.games() if games is None else sorted(set(games))
    shown = [r for r in history.records if r["game"] in chosen]
    return {
        "games": {game: game_stats(history, game).to_dict() for game in chosen},
        "recent": list(reversed(shown[-RECENT:])),
        "skipped": history.skipped,
    }
