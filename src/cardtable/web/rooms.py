"""The room server: a :class:`RoomManager` composes the parts that run every live room and
handles each checked message of a connection.

The parts, each given what it needs:

- a :class:`~.lobby.Lobby`, the live rooms by id: made, loaded lazily from the store, seated,
  paused when idle, repaired at start-up, listed;
- a :class:`~.table.Table` per live room (the lobby's): its lock, its moves (check, store,
  apply, push), its clocks (timed windows, the turn clock, people away and AI stand-ins, holds,
  a quick-play room's wait), its AI players and its frames;
- :class:`~.quickplay.QuickPlay`, which picks or opens a table among the lobby's;
- the :class:`~.table.Services` every table shares: the store, the settings, the clock
  (:mod:`.clock`) and the search pool (:mod:`.search`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
from collections.abc import Callable
from typing import Any

from ..catalog import catalog, language, negotiate
from ..catalog import say as words
from ..store import Store, StoreError
from ..variants import Options
from .chat import say
from .clock import Clock, LoopClock
from .cluster import Cluster, RemoteConn, RemoteError
from .fairness import AddressPace, ai_burst
from .fill import fill_in, is_quickplay
from .lobby import Lobby
from .protocol import (
    AI_LEVELS,
    ActMsg,
    ChatMsg,
    ClientMessage,
    HintMsg,
    HoldMsg,
    JoinMsg,
    MsgId,
    PingMsg,
    PongFrame,
    PracticeMsg,
    ProtocolError,
    RematchMsg,
    RoomSummary,
    StartMsg,
)
from .quickplay import QuickPlay
from .room import Conn, Room, RoomError, ai_seed, hash_token
from .search import SearchPool, default_workers
from .settings import DEFAULTS, ServerSettings
from .table import Services, Table

__all__ = ["AI_LEVELS", "Conn", "Room", "RoomError", "RoomManager", "ai_seed", "hash_token"]


class RoomManager:
    """Every live room, and the one place messages about them are handled."""

    def __init__(
        self, store: Store, settings: ServerSettings = DEFAULTS, clock: Clock | None = None
    ) -> None:
        self.store = store
        """Where every accepted action goes first."""
        self.settings = settings
        """The server's settings."""
        self.clock: Clock = LoopClock() if clock is None else clock
        """The clock every timer of the server waits on."""
        workers = settings.ai_workers
        self.search = SearchPool(default_workers() if workers is None else workers)
        """Where search-level AI moves are computed (``settings.ai_workers`` processes; 0: a
        thread; ``None``: one per CPU)."""
        rate = settings.ai_room_moves
        pace = AddressPace(rate, ai_burst(rate), self.clock.monotonic) if rate > 0 else None
        services = Services(store, settings, self.clock, self.search, ai_pace=pace)
        self.metrics = services.metrics
        """The server's metrics (:mod:`.metrics`)."""
        self.draining = False
        """Set once the server is stopping (or draining before a stop): ``/readyz`` answers
        ``503`` so that a load balancer sends no new players."""
        self.live = Lobby(services)
        """The lobby: the live rooms' tables by id (:mod:`.lobby`)."""
        self.quick = QuickPlay(self.live)
        """Quick play (:mod:`.quickplay`)."""
        self._startup: list[asyncio.Task[object]] = []
        self._losing: set[asyncio.Future[None]] = set()
        self.cluster: Cluster | None = None
        """This process's part in a cluster of processes sharing the rooms (:meth:`attach`);
        ``None``: the only process."""

    def on_game_end(self, told: Callable[[Room, int], None]) -> None:
        """Tell ``told`` each room whose game has just ended, with the game's number, once its
        end is stored (:attr:`.table.Services.game_ended`); before any room is loaded."""
        lobby = self.live
        lobby.services = dataclasses.replace(lobby.services, game_ended=told)

    def attach(self, cluster: Cluster) -> None:
        """Serve rooms in a cluster (:mod:`.cluster`): a room is loaded only once this process
        holds its lease and has fenced the store, a room made here is leased at once, a paused
        one is given up, and messages about rooms of other processes are forwarded to them."""
        self.cluster = cluster
        lobby = self.live
        lobby.claim = self._claim
        lobby.claim_new = self._claim_new
        lobby.released = self._released
        lobby.keep_reads = False
        lobby.services = dataclasses.replace(lobby.services, fenced_out=self._fenced_out)

    def _fenced_out(self, room_id: str) -> None:
        """The store refused a write of ``room_id``: another process took it over."""
        task = asyncio.ensure_future(self.lost([room_id]))
        self._losing.add(task)
        task.add_done_callback(self._losing.discard)

    # -- life cycle --------------------------------------------------------------------------
    def start(self) -> None:
        """Start a running server's background work (:meth:`.Lobby.start`), and the search
        workers, in the background, so the first search-level move does not wait for them
        (:meth:`.SearchPool.warm`)."""
        self._startup = self.live.start()
        self.search.warm()

    async def started(self) -> None:
        """Return once the start-up's one-off work (the repair, the lobby's rooms) is done."""
        await asyncio.gather(*self._startup, return_exceptions=True)

    async def close(self) -> None:
        """Stop background work, AI moves and timers, then the search workers (in a cluster:
        give up this process's rooms, whose clients reconnect to the others)."""
        if self.cluster is not None:
            self.cluster.closing = True
        self.live.close()
        await self.started()  # the start-up's tasks stop at their next room
        if self.cluster is not None:
            await self.cluster.close()
        await self.search.close()

    async def drain(self) -> None:
        """The server is about to stop: it is marked draining (``/readyz`` fails, so the
        balancer sends no one new), and in a cluster it takes no more rooms and gives up those
        it plays, whose clients reconnect to the other processes."""
        self.draining = True
        cluster = self.cluster
        if cluster is None:
            return
        cluster.closing = True
        await self.lost(self.owned())

    # -- the cluster's side (:class:`.cluster.Owner`) -------------------------------------------
    def owned(self) -> list[str]:
        """The rooms this process plays (in memory)."""
        return list(self.live.tables)

    async def lost(self, rooms: list[str]) -> None:
        """Let rooms go that another process took (or that this one gives up): they stop here,
        their connections are closed with code 1012 (the clients reconnect, and reach the
        room's new owner) and the store's fence is lifted."""
        cluster = self.cluster
        for room_id in rooms:
            table = self.live.tables.get(room_id)
            if table is None:
                continue
            async with table.lock:
                self.live.take_out(table)
                conns = list(table.room.conns)
            if cluster is not None:  # released first: a client that reconnects at once
                await cluster.release(room_id)  # finds the room free to take
                cluster.drop_local(conns)
            self.store.release(room_id)

    def listing(self) -> list[Any]:
        """This process's public rooms (:meth:`lobby`)."""
        return list(self.lobby())

    async def answer(self, op: str, args: list[Any]) -> Any:
        """Carry out another process's call about a room this one plays: ``take_seat``
        (room, name, language: ``[room, seat, token]``) or ``summary`` (room)."""
        try:
            if op == "take_seat":
                room_id, name, lang = str(args[0]), args[1], str(args[2])
                player = int(args[3]) if len(args) > 3 and args[3] is not None else None
                with language(lang):
                    room, seat, token = await self.take_seat(room_id, name, player)
                return [room.id, seat, token]
            if op == "resume":
                table, seat, token = await self.live.rekey(str(args[0]), int(args[1]))
                return [table.room.id, seat, token]
            if op == "summary":
                read = await self.read(str(args[0]))
                return None if read is None else dict(self.summary(read))
        except RoomError as exc:
            raise RemoteError(exc.code, exc.message) from None
        raise RemoteError("server_error", f"unknown call {op!r}")

    async def _claim(self, room_id: str) -> bool:
        """Take ``room_id`` for this process before it is loaded: its lease, then the store's
        fence (:meth:`.Store.claim`); ``False`` if there is no such room."""
        cluster = self.cluster
        assert cluster is not None
        if await cluster.acquire(room_id) != cluster.id:
            raise RoomError("room_moved", words("web.error.room_moved"))
        try:
            await self.store.claim(room_id)
        except StoreError:  # no such room
            await cluster.release(room_id)
            return False
        return True

    async def _claim_new(self, room_id: str) -> None:
        """Lease a room this process just made (the store fenced it when it stored it)."""
        cluster = self.cluster
        assert cluster is not None
        await cluster.acquire(room_id)

    async def _released(self, room_id: str) -> None:
        """Give up a room that was paused."""
        cluster = self.cluster
        assert cluster is not None
        await cluster.release(room_id)
        self.store.release(room_id)

    async def _elsewhere(self, room_id: str) -> str | None:
        """The other process that plays ``room_id``, else ``None`` (this process plays it, or
        may: nobody alive does, and it took the lease)."""
        cluster = self.cluster
        if cluster is None or room_id in self.live.tables:
            return None
        holder = await cluster.acquire(room_id)
        if holder == cluster.id:
            return None
        if not holder:  # this process stops, and nobody plays the room
            raise RoomError("room_moved", words("web.error.room_moved"))
        return holder

    async def sweep(self) -> int:
        """Pause the rooms idle for ``idle_time`` seconds; how many (:meth:`.Lobby.sweep`)."""
        return await self.live.sweep()

    async def repair(self) -> int:
        """Mark over the stored games whose end was never marked (:meth:`.Lobby.repair`)."""
        return await self.live.repair()

    # -- rooms -------------------------------------------------------------------------------
    @property
    def rooms(self) -> dict[str, Room]:
        """Live rooms by id."""
        return {room_id: t.room for room_id, t in self.live.tables.items()}

    def table(self, room: Room) -> Table:
        """The live table of ``room`` (``KeyError`` once it was paused)."""
        table = self.live.table_of(room)
        if table is None:
            raise KeyError(room.id)
        return table

    async def get(self, room_id: str) -> Room | None:
        """A live room, rebuilt from the store if needed; ``None`` if unknown."""
        table = await self.live.get(room_id)
        return None if table is None else table.room

    async def create(
        self,
        game: str,
        seats: list[tuple[str, str | None, bool]],
        *,
        players: int | None = None,
        options: Options | None = None,
        name: str | None = None,
        public: bool = True,
        autostart: bool = True,
        memory_aid: bool = False,
        turn_time: float | None = None,
        quickplay: bool = False,
        spectator_chat: bool = False,
        hints: bool = False,
        rated: bool = False,
        player: int | None = None,
    ) -> tuple[Room, int | None, str | None]:
        """Create a room (:meth:`.Lobby.create`, which says what each keyword does); the room,
        the creator's seat and its token (``None`` when every seat is an AI). Raises
        ``ValueError``."""
        table, seat, token = await self.live.create(
            game,
            seats,
            players=players,
            options=options,
            name=name,
            public=public,
            autostart=autostart,
            memory_aid=memory_aid,
            turn_time=turn_time,
            quickplay=quickplay,
            spectator_chat=spectator_chat,
            hints=hints,
            rated=rated,
            player=player,
        )
        return table.room, seat, token

    async def seat_anywhere(
        self, room_id: str, name: str | None, player: int | None = None
    ) -> tuple[str, int, str]:
        """Give the caller the first free person's seat (by the process that plays the room);
        returns the room's id, the seat and its token. ``RoomError`` for a refusal."""
        owner = await self._elsewhere(room_id)
        if owner is not None:
            assert self.cluster is not None
            try:
                answer = await self.cluster.call(
                    owner, "take_seat", [room_id, name, catalog().language, player]
                )
            except RemoteError as exc:
                raise RoomError(exc.code, exc.message) from None
            return str(answer[0]), int(answer[1]), str(answer[2])
        room, seat, token = await self.take_seat(room_id, name, player)
        return room.id, seat, token

    async def resume_anywhere(self, room_id: str, seat: int) -> tuple[str, int, str]:
        """A fresh key to a taken seat, by the process that plays the room (:meth:`.Lobby.rekey`):
        the room's id, the seat and the key. ``RoomError`` for a refusal."""
        owner = await self._elsewhere(room_id)
        if owner is not None:
            assert self.cluster is not None
            try:
                answer = await self.cluster.call(owner, "resume", [room_id, seat])
            except RemoteError as exc:
                raise RoomError(exc.code, exc.message) from None
            return str(answer[0]), int(answer[1]), str(answer[2])
        table, seat, token = await self.live.rekey(room_id, seat)
        return table.room.id, seat, token

    async def take_seat(
        self, room_id: str, name: str | None, player: int | None = None
    ) -> tuple[Room, int, str]:
        """Give the caller (signed in as ``player``, or a guest) the first free person's seat
        of a room this process plays (or loads); returns room, seat and token."""
        table, seat, token = await self.live.take_seat(room_id, name, player)
        return table.room, seat, token

    async def quickplay(
        self, game: str, name: str | None, player: int | None = None
    ) -> tuple[Room, int, str]:
        """Seat the caller at a quick-play table of ``game`` (:meth:`.QuickPlay.seat`)."""
        table, seat, token = await self.quick.seat(game, name, player)
        return table.room, seat, token

    async def quickplay_anywhere(
        self, game: str, name: str | None, player: int | None = None
    ) -> tuple[str, int, str]:
        """Seat the caller at a quick-play table of ``game`` (:meth:`quickplay`; in a cluster,
        first at one another process plays that waits for people); the room's id, the seat
        and its token."""
        if self.cluster is not None:
            for summary in sorted(await self.cluster.listings(), key=lambda s: s["created"]):
                if (
                    is_quickplay(summary["room"])
                    and summary["game"] == game
                    and summary["status"] == "waiting"
                    and summary["room"] not in self.live.tables
                    and any(s["type"] == "human" and not s["taken"] for s in summary["seats"])
                ):
                    try:
                        return await self.seat_anywhere(summary["room"], name, player)
                    except RoomError:  # taken meanwhile, or its process is gone
                        continue
        room, seat, token = await self.quickplay(game, name, player)
        return room.id, seat, token

    async def read(self, room_id: str) -> Room | None:
        """A room to read, live or paused, which reading never sets playing nor keeps in
        memory (:meth:`.Lobby.read`); ``None`` if unknown."""
        return await self.live.read(room_id)

    def lobby(self) -> list[RoomSummary]:
        """Public rooms waiting for people or in play, newest first."""
        return self.live.listing()

    async def lobby_everywhere(self) -> list[RoomSummary]:
        """Public rooms waiting for people or in play, newest first: this process's, and in a
        cluster every other live process's too."""
        if self.cluster is None:
            return self.lobby()
        rooms: list[RoomSummary] = await self.cluster.listings()
        rooms.sort(key=lambda s: s["created"], reverse=True)
        return rooms[:100]

    async def summary_of(self, room_id: str) -> dict[str, object] | None:
        """The summary of a room, live or paused, from the process that plays it (:meth:`read`
        does not set it playing); ``None`` if unknown."""
        cluster = self.cluster
        if cluster is not None and room_id not in self.live.tables:
            holder = await cluster.holder(room_id)
            if holder is not None and holder != cluster.id:
                try:
                    answer = await cluster.call(holder, "summary", [room_id])
                except RemoteError:
                    answer = None  # gone meanwhile: read it from the store
                if answer is not None:
                    return dict(answer)
        room = await self.read(room_id)
        return None if room is None else dict(self.summary(room))

    def summary(self, room: Room) -> RoomSummary:
        """The room's summary with what its table knows, and whether it is paused
        (:meth:`.Lobby.summary`)."""
        return self.live.summary(room)

    def ai_fill_in(self, room: Room) -> float | None:
        """Seconds until AI players take the open seats of ``room`` (:func:`.fill.fill_in`)."""
        return fill_in(room, self.settings.quickplay_wait, self.clock.now())

    # -- messages ----------------------------------------------------------------------------
    async def handle(self, conn: Conn, msg: ClientMessage) -> None:
        """Handle one checked message from ``conn``, in the language it reads (a ``join``
        may name it: the words of every frame built for it from then on)."""
        if isinstance(msg, JoinMsg) and msg.lang is not None:
            conn.lang = negotiate([msg.lang])
        cluster = self.cluster
        if (
            cluster is not None
            and not isinstance(msg, PingMsg)
            and not isinstance(conn, RemoteConn)
        ):
            try:
                owner = await self._elsewhere(msg.room)
            except RoomError as exc:
                raise ProtocolError(exc.code, exc.message, msg.id) from None
            joining = isinstance(msg, JoinMsg)
            if owner is not None:  # another process plays the room: it answers
                if joining:
                    self.leave(conn)  # the room of this process it listened to, if any
                await cluster.forward(conn, msg, owner, join=joining)
                return
            if joining:
                cluster.unforward(conn)
        with conn.speaking():
            await self._handle(conn, msg)

    async def _handle(self, conn: Conn, msg: ClientMessage) -> None:
        if isinstance(msg, PingMsg):
            pong: PongFrame = {"type": "pong"}
            if msg.id is not None:
                pong["id"] = msg.id
            conn.push(pong)
        elif isinstance(msg, JoinMsg):
            await self._join(conn, msg)
        elif isinstance(msg, ChatMsg):
            await self._chat(conn, msg)
        else:
            await self._seat_message(conn, msg)

    async def _live(self, room_id: str, msg_id: MsgId) -> Table | None:
        """The live table of a room a message names (rebuilt if paused), ``None`` if unknown;
        ``too_many_ai_rooms`` past the cap of rooms of AI players only."""
        try:
            return await self.live.get(room_id)
        except RoomError as exc:
            raise ProtocolError(exc.code, exc.message, msg_id) from None

    async def _open(self, room_id: str, msg_id: MsgId) -> Table:
        """The live table of a room a message names; ``unknown_room`` or ``rules_changed``."""
        table = await self._live(room_id, msg_id)
        if table is None:
            raise ProtocolError("unknown_room", words("web.error.unknown_room"), msg_id)
        if table.room.refusal is not None:
            raise ProtocolError("rules_changed", table.room.refusal, msg_id)
        return table

    async def _join(self, conn: Conn, msg: JoinMsg) -> None:
        """Make ``conn`` listen to a room, as the token's seat or as a spectator, and send it
        the room's state with the move log and the chat so far (a refused join leaves
        ``conn`` listening to no room)."""
        try:
            table = await self._open(msg.room, msg.id)
            seat = None
            if msg.token is not None:
                seat = self._seat_of(table.room, msg.token, msg.id)
        except ProtocolError:
            self.leave(conn)  # a refused join listens to no room (docs/protocol.md)
            raise
        async with table.lock:
            if table.room.evicted:  # paused while this join waited: join the room rebuilt
                await self.handle(conn, msg)
                return
            if seat is None and self._crowded(table.room, conn):
                most = self.settings.max_spectators
                refusal = words("web.error.too_many_spectators", most=most)
                raise ProtocolError("too_many_spectators", refusal, msg.id)
            if conn.room is not None and conn.room is not table.room:
                self.leave(conn)
            conn.on_drop = self._dropped
            table.join(conn, seat, msg.id)

    def _crowded(self, room: Room, conn: Conn) -> bool:
        """Whether ``room`` already has ``max_spectators`` spectators' connections, ``conn``
        not counted (a spectator joining again keeps its place)."""
        most = self.settings.max_spectators
        if not most:
            return False
        watching = sum(c.seat is None and c is not conn for c in room.conns)
        return watching >= most

    async def _seat_message(
        self,
        conn: Conn,
        msg: ActMsg | HoldMsg | RematchMsg | StartMsg | HintMsg | PracticeMsg,
    ) -> None:
        """An action, a hold, a rematch, a start, a hint or open hands: what only a seat's
        token may send."""
        table = await self._open(msg.room, msg.id)
        room = table.room
        if msg.token is None:  # a rematch or a hold from a spectator
            what = "hold" if isinstance(msg, HoldMsg) else "rematch"
            raise ProtocolError("not_allowed", words(f"web.error.spectator.{what}"), msg.id)
        seat = self._seat_of(room, msg.token, msg.id)
        async with table.lock:
            if room.evicted:
                raise ProtocolError("room_paused", words("web.error.room_paused"), msg.id)
            if isinstance(msg, ActMsg):
                await table.act(seat, msg.action, msg.version, conn, msg.id, person=True)
            elif isinstance(msg, HoldMsg):
                if conn.room is not room or conn.seat != seat:
                    raise ProtocolError("not_joined", words("web.error.hold_not_joined"), msg.id)
                table.hold(conn, seat, msg.on, msg.id)
            elif isinstance(msg, RematchMsg):
                await table.rematch(conn, seat, msg.accept, msg.id)
            elif isinstance(msg, PracticeMsg):
                await table.practice(conn, seat, msg.on, msg.id)
            elif isinstance(msg, HintMsg):
                # checked and started here; computed without the lock, answered to conn only
                await table.hint(conn, seat, msg.version, msg.lang, msg.handicap, msg.id)
                return
            else:
                await table.start_asked(conn, msg.id)
            if conn not in room.conns:  # not listening: answer the sender anyway
                conn.push(table.state(seat, [], msg.id))

    async def _chat(self, conn: Conn, msg: ChatMsg) -> None:
        """A chat line or reaction (:mod:`.chat`): as the token's seat, or as a spectator."""
        table = await self._live(msg.room, msg.id)
        if table is None:
            raise ProtocolError("unknown_room", words("web.error.unknown_room"), msg.id)
        seat = None if msg.token is None else self._seat_of(table.room, msg.token, msg.id)
        say(table.room, conn, seat, msg, self.settings.chat_rate, self.clock)

    def leave(self, conn: Conn, *, later: bool = False) -> None:
        """Forget a connection (closed, or moved to another room); with ``later`` the others
        hear of it right after the frame being sent now (a connection dropped mid-broadcast)."""
        room = conn.room
        if room is None or conn not in room.conns:
            conn.room = None
            return
        table = self.live.table_of(room)
        if table is None:  # a paused room: nobody is left to tell
            room.conns.discard(conn)
            conn.room = None
            return
        table.leave(conn, later=later)

    def _dropped(self, conn: Conn) -> None:
        """A connection the server dropped (too slow, or failing) stops counting as online at
        once, not when its socket finally closes."""
        self.leave(conn, later=True)

    @staticmethod
    def _seat_of(room: Room, token: str, msg_id: MsgId) -> int:
        digest = hash_token(token)
        for known, seat in room.tokens.items():
            if hmac.compare_digest(known, digest):
                return seat
        raise ProtocolError("bad_token", words("web.error.bad_token"), msg_id)
