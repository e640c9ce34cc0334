"""Players in the store: accounts, sessions, seats claimed, history, stats and ratings.

Account writes are rare and small, so they run in transactions of their own rather than through
the store's batching writer (:class:`~cardtable.store.db.Store`); they use the same engine. The
per-seat results they read are written by the writer, with each game's end (``results``).

A rating's *subject* is ``p:<player id>`` for a person and ``ai:<level>`` for an AI level.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from .db import Store, games, players, rating_history, ratings, results, rooms, seats, sessions

__all__ = [
    "DELETED_NAME",
    "NameTaken",
    "PlayerRow",
    "Players",
    "RatingRow",
    "Skill",
    "level_subject",
    "player_subject",
]

DELETED_NAME = "deleted player"
"""What a deleted account's seats and games are shown under."""

Skill = tuple[float, float]
"""A rating as the store keeps it: ``(mu, sigma)``."""

RECENT = 20
"""Recent games a profile lists."""
HISTORY_POINTS = 200
"""Rating changes a profile's chart gets per game type at most (the newest)."""


def player_subject(player_id: int) -> str:
    """The rating subject of a person's account."""
    return f"p:{player_id}"


def level_subject(level: str) -> str:
    """The rating subject of an AI level."""
    return f"ai:{level}"


class NameTaken(Exception):
    """Another account has this name (after case folding and Unicode normalisation)."""


@dataclass(frozen=True)
class PlayerRow:
    """An account as stored."""

    id: int
    """Its number."""
    name: str | None
    """Its display name (``None`` once deleted)."""
    password_hash: str | None
    """The argon2 hash of its password (``None`` once deleted)."""
    created: float
    """When it was made (Unix seconds)."""
    deleted: float | None = None
    """When its owner deleted it."""


@dataclass(frozen=True)
class RatingRow:
    """A stored rating: ``mu``, ``sigma`` and the rated games behind it."""

    subject: str
    """Whose (:func:`player_subject`, :func:`level_subject`)."""
    game: str
    """Game type."""
    mu: float
    """The estimate."""
    sigma: float
    """Its uncertainty."""
    games: int
    """Rated games it has been updated from."""


def _result(r: Any) -> dict[str, Any]:
    """A row of ``results`` as JSON."""
    return {
        "room": r.room_id,
        "game_no": r.game_no,
        "seat": r.seat,
        "game": r.game,
        "finished": r.finished,
        "score": r.score,
        "rounds": r.rounds,
        "place": r.place,
        "won": bool(r.won),
        "rated": bool(r.rated),
    }


def _player(row: Any) -> PlayerRow:
    return PlayerRow(row.id, row.name, row.password_hash, row.created, row.deleted)


class Players:
    """The accounts and everything kept about them, in ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        """The store whose engine is used."""

    # -- accounts ----------------------------------------------------------------------------
    async def create(self, name: str, key: str, password_hash: str, now: float) -> PlayerRow:
        """A new account; :class:`NameTaken` if ``key`` is another account's."""
        try:
            async with self.store.engine.begin() as conn:
                res = await conn.execute(
                    insert(players)
                    .values(name=name, name_key=key, password_hash=password_hash, created=now)
                    .returning(players.c.id)
                )
                new_id = int(res.scalar_one())
        except IntegrityError:
            raise NameTaken(name) from None
        return PlayerRow(new_id, name, password_hash, now)

    async def by_key(self, key: str) -> PlayerRow | None:
        """The account whose name has ``key``, or ``None``."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(players).where(players.c.name_key == key))).first()
        return None if row is None else _player(row)

    async def by_id(self, player_id: int) -> PlayerRow | None:
        """The account ``player_id`` (deleted ones too), or ``None``."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(players).where(players.c.id == player_id))).first()
        return None if row is None else _player(row)

    async def set_password(self, player_id: int, password_hash: str) -> None:
        """Store a new hash of the account's password (a rehash with newer parameters)."""
        async with self.store.engine.begin() as conn:
            await conn.execute(
                update(players).where(players.c.id == player_id).values(password_hash=password_hash)
            )

    async def delete(self, player_id: int, now: float) -> None:
        """Delete the account: its name, password, sessions and ratings go; its seats and
        games stay, shown under :data:`DELETED_NAME`."""
        async with self.store.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.player_id == player_id))
            subject = player_subject(player_id)
            await conn.execute(delete(ratings).where(ratings.c.subject == subject))
            await conn.execute(delete(rating_history).where(rating_history.c.subject == subject))
            await conn.execute(
                update(seats).where(seats.c.player_id == player_id).values(name=DELETED_NAME)
            )
            await conn.execute(
                update(players)
                .where(players.c.id == player_id)
                .values(name=None, name_key=None, password_hash=None, deleted=now)
            )

    # -- sessions ----------------------------------------------------------------------------
    async def open_session(
        self, token_hash: str, player_id: int, now: float, expired: float = 0.0
    ) -> None:
        """Record a signed-in browser by the digest of its cookie, and forget the account's
        sessions last seen before ``expired``."""
        async with self.store.engine.begin() as conn:
            await conn.execute(
                delete(sessions).where(sessions.c.player_id == player_id, sessions.c.seen < expired)
            )
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash, player_id=player_id, created=now, seen=now
                )
            )

    async def session(self, token_hash: str, since: float) -> PlayerRow | None:
        """The account of a session opened or seen after ``since``, or ``None``."""
        stmt = (
            select(players)
            .join(sessions, sessions.c.player_id == players.c.id)
            .where(
                sessions.c.token_hash == token_hash,
                sessions.c.seen >= since,
                players.c.deleted.is_(None),
            )
        )
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else _player(row)

    async def touch_session(self, token_hash: str, now: float) -> None:
        """Record that a session was used now (it lasts from its last use)."""
        async with self.store.engine.begin() as conn:
            await conn.execute(
                update(sessions).where(sessions.c.token_hash == token_hash).values(seen=now)
            )

    async def close_session(self, token_hash: str) -> None:
        """Forget a session (sign-out)."""
        async with self.store.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    # -- seats -------------------------------------------------------------------------------
    async def claim(self, player_id: int, held: Sequence[tuple[str, int, str]]) -> int:
        """Make the guest seats ``(room, seat, token digest)`` that this browser holds the
        account's, with their results; returns how many seats were claimed (a seat whose
        digest does not match, or that is already someone's, is left as it is)."""
        claimed = 0
        async with self.store.engine.begin() as conn:
            for room, seat, digest in held:
                res = await conn.execute(
                    update(seats)
                    .where(
                        seats.c.room_id == room,
                        seats.c.seat == seat,
                        seats.c.type == "human",
                        seats.c.token_hash == digest,
                        seats.c.player_id.is_(None),
                    )
                    .values(player_id=player_id)
                )
                if res.rowcount != 1:
                    continue
                claimed += 1
                await conn.execute(
                    update(results)
                    .where(
                        results.c.room_id == room,
                        results.c.seat == seat,
                        results.c.player_id.is_(None),
                    )
                    .values(player_id=player_id)
                )
        return claimed

    async def rekey(self, room: str, seat: int, token_hash: str) -> None:
        """Give an account's seat a new key (another device of its player takes it up)."""
        async with self.store.engine.begin() as conn:
            await conn.execute(
                update(seats)
                .where(seats.c.room_id == room, seats.c.seat == seat)
                .values(token_hash=token_hash)
            )

    async def seat_of(self, player_id: int, room: str) -> int | None:
        """The account's seat at ``room``, or ``None``."""
        stmt = select(seats.c.seat).where(seats.c.room_id == room, seats.c.player_id == player_id)
        async with self.store.engine.connect() as conn:
            return (await conn.execute(stmt)).scalar()

    async def open_tables(self, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The account's rooms whose game is waiting to start or under way, newest first:
        ``room``, ``seat``, ``game``, ``status``."""
        unfinished = (
            select(games.c.room_id)
            .where(games.c.room_id == rooms.c.id, games.c.finished.is_(None))
            .exists()
        )
        started = select(games.c.room_id).where(games.c.room_id == rooms.c.id).exists()
        stmt = (
            select(rooms.c.id, rooms.c.game, seats.c.seat, unfinished.label("playing"))
            .join(seats, seats.c.room_id == rooms.c.id)
            .where(seats.c.player_id == player_id, unfinished | ~started)
            .order_by(rooms.c.created.desc())
            .limit(limit)
        )
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
        return [
            {
                "room": r.id,
                "seat": r.seat,
                "game": r.game,
                "status": "playing" if r.playing else "waiting",
            }
            for r in rows
        ]

    # -- history and stats -------------------------------------------------------------------
    async def stats(self, player_id: int) -> dict[str, dict[str, Any]]:
        """Per game type: games ``played``, ``won``, mean final total and mean round score."""
        stmt = (
            select(
                results.c.game,
                func.count().label("played"),
                func.sum(results.c.won.cast(_INT)).label("won"),
                func.sum(results.c.score).label("points"),
                func.sum(results.c.rounds).label("rounds"),
            )
            .where(results.c.player_id == player_id)
            .group_by(results.c.game)
        )
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
        out: dict[str, dict[str, Any]] = {}
        for r in rows:
            played, rounds = int(r.played), int(r.rounds or 0)
            out[r.game] = {
                "played": played,
                "won": int(r.won or 0),
                "avg_total": round(int(r.points or 0) / played, 2) if played else None,
                "avg_score": round(int(r.points or 0) / rounds, 2) if rounds else None,
            }
        return out

    async def recent(self, player_id: int, limit: int = RECENT) -> list[dict[str, Any]]:
        """The account's latest finished games, newest first, each with everyone seated (with
        ``account``: the name of the account a seat belongs to, ``None`` for a guest's, an AI's
        or a deleted account's)."""
        stmt = (
            select(results)
            .where(results.c.player_id == player_id)
            .order_by(results.c.finished.desc())
            .limit(limit)
        )
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
            room_ids = sorted({r.room_id for r in rows})
            seated = (
                (
                    await conn.execute(
                        select(
                            seats.c.room_id,
                            seats.c.seat,
                            seats.c.name,
                            seats.c.type,
                            seats.c.level,
                            players.c.name.label("account"),
                        )
                        .outerjoin(players, players.c.id == seats.c.player_id)
                        .where(seats.c.room_id.in_(room_ids))
                        .order_by(seats.c.room_id, seats.c.seat)
                    )
                ).all()
                if room_ids
                else []
            )
        by_room: dict[str, list[dict[str, Any]]] = {}
        for s in seated:
            by_room.setdefault(s.room_id, []).append(
                {
                    "seat": s.seat,
                    "name": s.name,
                    "type": s.type,
                    "level": s.level,
                    "account": s.account,
                }
            )
        return [
            {
                **_result(r),
                "players": by_room.get(r.room_id, []),
                "replay": f"/r/{r.room_id}/replay/{r.game_no}",
                "review": f"/r/{r.room_id}/review/{r.game_no}",
            }
            for r in rows
        ]

    async def all_results(self, player_id: int) -> list[dict[str, Any]]:
        """Every result of the account, oldest first (for its export)."""
        stmt = (
            select(results)
            .where(results.c.player_id == player_id)
            .order_by(results.c.finished, results.c.room_id, results.c.game_no)
        )
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
        return [_result(r) for r in rows]

    async def played_with(self, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """Other accounts the player shared a table with, latest first: ``name``, ``games``
        together and the ``last`` time."""
        mine = results.alias("mine")
        stmt = (
            select(
                players.c.name,
                func.count().label("games"),
                func.max(mine.c.finished).label("last"),
            )
            .select_from(mine)
            .join(
                seats,
                and_(
                    seats.c.room_id == mine.c.room_id,
                    seats.c.player_id.is_not(None),
                    seats.c.player_id != player_id,
                ),
            )
            .join(players, players.c.id == seats.c.player_id)
            .where(mine.c.player_id == player_id, players.c.deleted.is_(None))
            .group_by(players.c.id, players.c.name)
            .order_by(func.max(mine.c.finished).desc())
            .limit(limit)
        )
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
        return [{"name": r.name, "games": int(r.games), "last": r.last} for r in rows]

    # -- ratings -----------------------------------------------------------------------------
    async def ratings_of(self, subject: str) -> dict[str, RatingRow]:
        """The subject's rating in each game type it has one in."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(ratings).where(ratings.c.subject == subject))).all()
        return {r.game: RatingRow(r.subject, r.game, r.mu, r.sigma, r.games) for r in rows}

    async def level_ratings(self) -> dict[str, dict[str, RatingRow]]:
        """Every AI level's rating kept in the store, by game type and level."""
        stmt = select(ratings).where(ratings.c.subject.startswith("ai:"))
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
        out: dict[str, dict[str, RatingRow]] = {}
        for r in rows:
            row = RatingRow(r.subject, r.game, r.mu, r.sigma, r.games)
            out.setdefault(r.game, {})[r.subject[3:]] = row
        return out

    async def rating(self, subject: str, game: str) -> RatingRow | None:
        """The subject's rating in ``game``, or ``None``."""
        stmt = select(ratings).where(ratings.c.subject == subject, ratings.c.game == game)
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(stmt)).first()
        return None if r is None else RatingRow(r.subject, r.game, r.mu, r.sigma, r.games)

    async def history(
        self, subject: str, limit: int = HISTORY_POINTS
    ) -> dict[str, list[dict[str, float]]]:
        """The subject's rating after each rated game, oldest first, per game type (the newest
        ``limit`` of each)."""
        out: dict[str, list[dict[str, float]]] = {}
        async with self.store.engine.connect() as conn:
            kinds = (
                await conn.execute(select(ratings.c.game).where(ratings.c.subject == subject))
            ).scalars()
            for game in sorted(kinds):
                stmt = (
                    select(rating_history.c.at, rating_history.c.mu, rating_history.c.sigma)
                    .where(rating_history.c.subject == subject, rating_history.c.game == game)
                    .order_by(rating_history.c.at.desc())
                    .limit(limit)
                )
                rows = (await conn.execute(stmt)).all()
                out[game] = [{"at": r.at, "mu": r.mu, "sigma": r.sigma} for r in rows[::-1]]
        return out

    async def rate(
        self,
        room: str,
        game_no: int,
        start: Callable[[str | None, str], Skill],
        update: Callable[[list[Skill], list[int]], list[Skill]],
        now: float,
    ) -> bool:
        """Update everyone's rating after a rated game, once: in one transaction, read the
        game's rated results with its seats (a person's subject is their account's, an AI
        seat's its level's), each subject's rating (held until the commit; ``start(subject,
        game)`` when it has none, ``subject`` ``None`` for a seat of nobody's), have
        ``update(ratings, places)`` compute the new ones, and store them with a line of history
        each. A subject at several seats takes the mean of its new ratings. ``False`` (and
        nothing written) when the game is not rated, has fewer than two seats, or was rated
        already."""
        for attempt in (1, 2):  # a rating row made meanwhile by another process: once more
            try:
                async with self.store.engine.begin() as conn:
                    return await _rate(conn, room, game_no, start, update, now)
            except IntegrityError:
                if attempt == 2:
                    raise
        return False  # pragma: no cover - the loop returns or raises

    async def unrated_games(self, since: float, limit: int = 1000) -> list[tuple[str, int]]:
        """Rated games finished since ``since`` whose ratings were never updated (their
        update was cut short), oldest first."""
        done = (
            select(rating_history.c.id)
            .where(
                rating_history.c.room_id == results.c.room_id,
                rating_history.c.game_no == results.c.game_no,
            )
            .exists()
        )
        stmt = (
            select(results.c.room_id, results.c.game_no)
            .where(results.c.rated, results.c.finished >= since, ~done)
            .group_by(results.c.room_id, results.c.game_no)
            .order_by(func.min(results.c.finished))
            .limit(limit)
        )
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
        return [(r.room_id, r.game_no) for r in rows]

    async def leaderboard(
        self, game: str, min_games: int, limit: int = 100
    ) -> list[tuple[str, RatingRow]]:
        """The people with at least ``min_games`` rated games of ``game``, best first (by
        ``mu``), with their names."""
        stmt = (
            select(ratings)
            .where(
                ratings.c.game == game,
                ratings.c.games >= min_games,
                ratings.c.subject.startswith("p:"),
            )
            .order_by(ratings.c.mu.desc())
            .limit(limit)
        )
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
            ids = [int(r.subject[2:]) for r in rows]
            names = dict(
                (
                    await conn.execute(
                        select(players.c.id, players.c.name).where(
                            players.c.id.in_(ids), players.c.deleted.is_(None)
                        )
                    )
                ).all()
            )
        return [
            (names[pid], RatingRow(r.subject, r.game, r.mu, r.sigma, r.games))
            for pid, r in zip(ids, rows, strict=True)
            if pid in names
        ]


_INT = players.c.id.type
"""An integer type, to count booleans with ``SUM``."""


async def _rate(
    conn: AsyncConnection,
    room: str,
    game_no: int,
    start: Callable[[str | None, str], Skill],
    update: Callable[[list[Skill], list[int]], list[Skill]],
    now: float,
) -> bool:
    """:meth:`Players.rate` inside its transaction."""
    rows = (
        await conn.execute(
            select(
                results.c.seat,
                results.c.place,
                results.c.game,
                results.c.player_id,
                seats.c.type,
                seats.c.level,
            )
            .join(
                seats,
                and_(seats.c.room_id == results.c.room_id, seats.c.seat == results.c.seat),
            )
            .where(results.c.room_id == room, results.c.game_no == game_no, results.c.rated)
            .order_by(results.c.seat)
        )
    ).all()
    if len(rows) < 2:
        return False
    game = rows[0].game
    subjects: list[str | None] = [
        level_subject(r.level)
        if r.type == "ai" and r.level
        else (player_subject(r.player_id) if r.player_id is not None else None)
        for r in rows
    ]
    known = sorted({s for s in subjects if s is not None})
    held = (
        await conn.execute(
            select(ratings)
            .where(ratings.c.game == game, ratings.c.subject.in_(known))
            .with_for_update()
        )
    ).all()
    done = (
        await conn.execute(
            select(rating_history.c.id)
            .where(rating_history.c.room_id == room, rating_history.c.game_no == game_no)
            .limit(1)
        )
    ).first()
    if done is not None:  # (checked once the ratings are held: a second update waits, then sees)
        return False
    current = {r.subject: (r.mu, r.sigma) for r in held}
    before = [current[s] if s in current else start(s, game) for s in subjects]
    after = update(before, [r.place for r in rows])
    gathered: dict[str, list[Skill]] = {}
    for subject, skill in zip(subjects, after, strict=True):
        if subject is not None:
            gathered.setdefault(subject, []).append(skill)
    for subject, got in gathered.items():
        mu = sum(m for m, _ in got) / len(got)
        sigma = sum(s for _, s in got) / len(got)
        await _upsert(conn, subject, game, mu, sigma, now)
        await conn.execute(
            insert(rating_history).values(
                subject=subject,
                game=game,
                at=now,
                room_id=room,
                game_no=game_no,
                mu=mu,
                sigma=sigma,
            )
        )
    return True


async def _upsert(
    conn: AsyncConnection, subject: str, game: str, mu: float, sigma: float, now: float
) -> None:
    """Set a rating (a new one counts one game; an existing one one more)."""
    res = await conn.execute(
        update(ratings)
        .where(ratings.c.subject == subject, ratings.c.game == game)
        .values(mu=mu, sigma=sigma, games=ratings.c.games + 1, updated=now)
    )
    if res.rowcount == 0:
        await conn.execute(
            insert(ratings).values(
                subject=subject, game=game, mu=mu, sigma=sigma, games=1, updated=now
            )
        )
