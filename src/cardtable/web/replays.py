"""Replays of finished games: built once, off the event loop, cached, served by pages.

``GET /api/rooms/{room}/games/{n}`` used to replay the whole game on the event loop for every
request and answer every step at once, each with a full spectator view: a long match gave
hundreds of megabytes and stalled every other connection for seconds. Now:

* A replay is built **once per game** (a finished game never changes) by a
  :class:`ReplayCache`. Requests for a game whose replay is being built await that same build;
  none starts a second one (:attr:`ReplayCache.builds` counts them).
* The build runs **off the event loop**, in one thread of the cache's own, a block of steps
  at a time (:data:`BLOCK_STEPS`): the loop resumes between blocks, and within a block the
  build lets go of the interpreter lock every couple of milliseconds
  (:func:`_yield_interpreter`), so the loop never waits long for it.
* Each step (``{"seat", "action", "by", "view", "first_event"}``, ``by`` saying who chose the
  action when its seat's own player did not (:mod:`.movelog`), the view being
  ``game.spectator_view()`` after the step, or ``game.view(seat)`` for the replay of one seat's
  view: see :class:`ReplaySource`, each of its events with its words from that viewer's side
  (``said``, :mod:`.said`); ``first_event`` the running number of the first event the
  step caused, so that the view's events from it on are the step's) is encoded to JSON once,
  at build time, and kept **compressed** in blocks: the views of consecutive steps are nearly
  the same, so a block shrinks 20–60 times. A step that ends a round of a match (the engine
  deals the next round in the same action, so its ``view`` already shows the new deal) also
  carries ``end_view``: the table at that round's end, every hand shown
  (:func:`round_end_view`). Every page says how many moves each round took (``rounds``), so
  that a client can place the round ends. The cache is bounded by the total size of what it
  keeps (:data:`CACHE_BYTES`) and by its number of replays (:data:`CACHE_ENTRIES`), and drops
  the least recently used first.
* An answer is one **page**: at most ``count`` steps (:data:`MAX_COUNT`), and no more steps
  than fit in :data:`PAGE_BYTES`. Serving a page inflates the few blocks it covers (in a
  thread when they are large) and joins pre-encoded bytes; no view is built or encoded again.

Why a thread and not a worker process: measured on the 2-core dev machine (shared with other
work) with a 2,669-move qute match (25 MiB of step JSON, 0.41 MiB once compressed), while a
task slept 10 ms again and again and another went to a thread and back:

===========================================  ==========  ===============  ================
build                                        build time  worst sleep      thread round
                                                         lateness         trip, p99
===========================================  ==========  ===============  ================
on the event loop (as before)                0.8 s       800 ms           —
thread, lock let go every 2 ms (this one)    0.6–0.75 s  4–13 ms          5–6 ms
thread, never letting go of the lock         0.75–1.0 s  8–14 ms          7.5–12 ms
thread, letting go after every step          1.0–1.5 s   4–12 ms          4–6 ms
worker process (spawned, already running)    0.75–0.9 s  1.5–7 ms         0.3–4 ms
===========================================  ==========  ===============  ================

Bursts of 100 non-blocking socket sends on the loop took 0.5 ms during a thread's build, as
with none running: the loop does not queue behind the thread at every system call. A process
keeps the loop a few milliseconds freer, but it is a second interpreter to start, keep in
memory and stop with the server; the thread costs nothing when no replay is asked for, and one
thread also bounds the CPU all replay builds take together to one core. Against the real server
(``cardtable serve``, a 2,000-move match, a client sending a ping every 10 ms): 20 parallel
requests for the replay before it was built were all answered in 0.4–0.5 s, pings took
11–13 ms at worst (the same as 20 requests for the game list) and the server grew by
10 MB; the code this replaces took 12.8 s for the same 20 requests (16.7 MiB each), stalled
pings for 3.7 s and grew to 261 MB.
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import functools
import hmac
import logging
import time
import zlib
from array import array
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NotRequired, TypedDict, TypeVar

import orjson
from fastapi import HTTPException
from starlette.responses import Response

from .. import variants
from ..catalog import language
from ..game import Game
from ..text.phrase import Reader
from ..variants import Options
from ..views import Event, FamilyView, QuteView, View, is_family_view, is_qute_view
from .protocol import By, Phrasing, PlayedFor
from .room import hash_token
from .said import said_for, told_view

__all__ = [
    "BLOCK_BYTES",
    "BLOCK_STEPS",
    "CACHE_BYTES",
    "CACHE_ENTRIES",
    "DEFAULT_COUNT",
    "MAX_COUNT",
    "MAX_START",
    "PAGE_BYTES",
    "SEAT_TOKEN_HEADER",
    "Block",
    "BuiltReplay",
    "JSONBytes",
    "NotFinished",
    "ReplayBuilder",
    "ReplayCache",
    "ReplaySource",
    "Step",
    "build_replay",
    "check_page",
    "check_seat",
    "known_places",
    "open_hands",
    "page_body",
    "round_end_view",
]

log = logging.getLogger("cardtable.web")

DEFAULT_COUNT = 100
"""Steps a page holds when the request gives no ``count``."""

MAX_COUNT = 200
"""Largest ``count`` a request may ask for."""

MAX_START = 10**9
"""Largest ``start`` a request may give (far past the end of any game)."""

PAGE_BYTES = 256 * 1024
"""Most bytes of steps one page carries: a page holds at most ``count`` steps and stops
before the step that would take its steps past this (it always holds at least one step, and
one step is one table view: a few kilobytes, tens in the longest matches). The first page
also carries the initial view, and every page a few hundred bytes about the room."""

BLOCK_STEPS = 100
"""Most steps the build encodes and compresses in one go (one block of the cache)."""

BLOCK_BYTES = 256 * 1024
"""A block is closed once its steps' JSON reaches this many bytes, even if it holds fewer
than :data:`BLOCK_STEPS` steps: serving a page never inflates more than a megabyte or so."""

CACHE_BYTES = 64 * 1024 * 1024
"""Default bound of a :class:`ReplayCache`: total (compressed) bytes of the replays it keeps."""

CACHE_ENTRIES = 256
"""Default bound of a :class:`ReplayCache`: number of replays it keeps."""

_LEVEL = 6
"""zlib level of the blocks: 3–4 times smaller than level 1 on replays, for about the same
time (the views repeat from one step to the next; the compressor finds it at any level)."""

_INLINE_INFLATE = 64 * 1024
"""Bytes of JSON a page may inflate on the event loop; a larger page is made in a thread
(zlib lets go of the interpreter lock while it inflates)."""


@dataclasses.dataclass(frozen=True)
class ReplaySource:
    """What a replay is built from: the game as dealt and the actions played."""

    game: str
    """Variant name."""
    players: int
    """Number of seats."""
    options: Options
    """Resolved rule options."""
    seed: int
    """The seed the game was dealt from (never sent to clients)."""
    actions: Sequence[tuple[int, str]]
    """``(seat, action)`` of every accepted action, in order."""
    seat: int | None = None
    """Whose view the steps show: ``None`` for a spectator's, a seat for that seat's own
    (``game.view(seat)``: the cards it knew at each step; only for that seat's player)."""
    by: Sequence[By | None] = ()
    """Who chose each action when its seat's own player did not (the protocol's ``by``), in
    the order of :attr:`actions`; missing entries are ``None``."""
    names: Sequence[str] = ()
    """Each seat's name as the browser shows it (:func:`.said.seat_names`), for the words of
    the events (none: ``seat N``)."""
    open: bool = False
    """Every hand shown at every step (:func:`open_hands`), with what each seat knew: only for
    a finished game (the build refuses a game that does not end, :class:`NotFinished`). The
    steps show the spectator's view otherwise (:attr:`seat` is not read)."""
    lang: str | None = None
    """The language of the events' words (``None``: the server's)."""


class Step(TypedDict):
    """One step of a replay, as a page carries it (encoded once, when the replay is built)."""

    seat: int
    """The seat that played the action."""
    action: str
    """The action, in canonical notation."""
    by: By | None
    """Who chose it when its seat's own player did not (:mod:`.movelog`)."""
    view: dict[str, object]
    """The table after it, as the replay's viewer sees it, each event with its words
    (``said``)."""
    first_event: int
    """The running number of the first event the action caused: the view's events from it on
    are the step's."""
    end_view: NotRequired[dict[str, object]]
    """For an action that ends a round of a match: the table at that round's end, every hand
    shown (:func:`round_end_view`)."""


@dataclasses.dataclass(frozen=True)
class Block:
    """Consecutive steps of a replay, encoded and compressed together."""

    first: int
    """Index of the block's first step (0: the first action of the game)."""
    ends: array[int]
    """End offset of each step's JSON in the inflated :attr:`data` (steps lie end to end)."""
    data: bytes
    """The steps' JSON objects one after another, zlib-compressed."""

    def steps(self) -> list[memoryview]:
        """Each step's JSON (views into the inflated data)."""
        raw = memoryview(zlib.decompress(self.data))
        out: list[memoryview] = []
        begin = 0
        for end in self.ends:
            out.append(raw[begin:end])
            begin = end
        return out


@dataclasses.dataclass(frozen=True)
class BuiltReplay:
    """A finished game ready to serve: every step encoded, in compressed blocks."""

    total: int
    """Number of steps (the game's actions)."""
    initial: bytes
    """JSON of the view before the first step."""
    result: bytes
    """JSON of the game's result (``null`` if it has none)."""
    blocks: tuple[Block, ...]
    """The steps, in order."""
    raw_bytes: int
    """Size of every step's JSON, uncompressed."""
    rounds: bytes = b"[]"
    """JSON of the rounds: ``[{"round", "moves"}]``, the number of steps each round took."""
    seconds: float = 0.0
    """Time from the start of the build to its end (the waits between blocks included)."""
    build_no: int = 0
    """Which build of its :class:`ReplayCache` made it (1 for the first)."""
    played_for: tuple[PlayedFor, ...] = ()
    """Per seat, how many of its actions in the game the clock and the stand-ins chose."""

    @property
    def nbytes(self) -> int:
        """Memory the replay holds in a cache (approximately: its bytes and offsets)."""
        return (
            len(self.initial)
            + len(self.result)
            + len(self.rounds)
            + sum(len(b.data) + b.ends.itemsize * len(b.ends) + 100 for b in self.blocks)
            + 200
        )

    def block_of(self, step: int) -> int:
        """Index in :attr:`blocks` of the block holding step ``step`` (0-based)."""
        return bisect.bisect_right([b.first for b in self.blocks], step) - 1


def _dumps(value: object) -> bytes:
    """Compact JSON, as the server encodes its other messages."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _yield_interpreter() -> None:
    """Let go of the interpreter lock for a moment, so that the event loop's thread, if it is
    waiting for it, takes it now rather than at the end of the switch interval."""
    time.sleep(0)


_YIELD_EVERY = 0.002
"""Seconds of building between two :func:`_yield_interpreter` calls."""


def _last_seq(view: View, default: int = 0) -> int:
    """The running number of the last event a view carries (``default`` if it carries none)."""
    events = view.get("events") or ()
    return int(events[-1]["seq"]) if events else default


class NotFinished(RuntimeError):
    """An open-hands replay was asked of a game that does not end (every hand is shown only
    once a game is over)."""


def known_places(game: Game, seat: int, hands: Sequence[Sequence[object]]) -> list[str]:
    """The places (``"S.P"``) of the hand cards ``seat`` knows now in ``game`` (its
    :meth:`~cardtable.game.Game.knowledge`: what it was shown, remembered perfectly; in a
    game of hands held face up, as Qute, its own hand); ``hands`` are the view's."""
    knows = game.knowledge(seat)
    if knows is None:
        mine = hands[seat] if seat < len(hands) else ()
        return [f"{seat}.{pos}" for pos, cell in enumerate(mine) if cell is not None]
    return [
        f"{owner}.{pos}"
        for owner, row in enumerate(knows)
        for pos, card in enumerate(row)
        if card >= 0
    ]


def open_hands(game: Game, told: Mapping[str, object]) -> dict[str, object]:
    """The spectator's view ``told`` (of ``game`` now) with every hand card's face, the card a
    seat holds after drawing it, and ``known``: for each seat, the places of the cards it knew
    (:func:`known_places`).

    Omniscient (:meth:`~cardtable.game.Game.card_at`): only for the replay of a **finished**
    game, which :class:`ReplayBuilder` checks before anything of it is served."""
    out = dict(told)
    hands = told.get("hands")
    opened: list[list[object]] = []
    if isinstance(hands, list):
        for owner, hand in enumerate(hands):
            row: list[object] = []
            for pos, cell in enumerate(hand if isinstance(hand, list) else ()):
                if isinstance(cell, Mapping):
                    row.append({**cell, "card": game.card_at(owner, pos)})
                else:
                    row.append(cell)
            opened.append(row)
        out["hands"] = opened
    drawer = told.get("drawer")
    if isinstance(drawer, int) and told.get("drawn") is None:
        out["drawn"] = game.view(drawer).get("drawn")  # the drawer sees what it drew
    out["known"] = [known_places(game, s, opened) for s in range(game.players)]
    return out


def _all_known(told: Mapping[str, object], players: int) -> dict[str, object]:
    """The table at a round's end (every hand shown to everyone) with every card known to
    every seat."""
    hands = told.get("hands")
    places = [
        f"{owner}.{pos}"
        for owner, hand in enumerate(hands if isinstance(hands, list) else ())
        for pos, cell in enumerate(hand if isinstance(hand, list) else ())
        if cell is not None
    ]
    return {**told, "known": [list(places) for _ in range(players)]}


def round_end_view(
    before: Game, seat: int, action: str, after: View, viewer: int | None
) -> View | None:
    """The table at the end of the round that ``action`` ends, as ``viewer`` (``None``: a
    spectator) sees it: every hand shown, the piles as the last move left them.

    The engine ends a round of a match and deals the next one in the same action, so the view
    ``after`` it already shows the new deal. ``before`` is a copy of the game taken just before
    the action (``game.clone()``; it is played on): told that the match ends with this round
    (no target), it stops at the round's end instead of dealing, and its view there is the
    finished round. What the copy got wrong on purpose is taken from ``after``: the match goes
    on (``over``, ``result``, ``target``), the totals and round results (a reset at the exact
    target), and the events (the real ones, up to the new round's deal). ``None`` if the copy
    does not end there with the same hands (it always should)."""
    act = before.check(seat, action)
    before.target = None  # every engine keeps ``target`` and reads it only at a round's end
    before.apply(seat, act)
    if not before.over:
        return None
    seen = before.spectator_view() if viewer is None else before.view(viewer)
    done = after["round_results"]
    if not done or not seen["round_results"]:
        return None
    if seen["round_results"][-1].get("hands") != done[-1].get("hands"):
        return None
    deal = next(
        (
            i
            for i, e in enumerate(after["events"])
            if e.get("type") == "round_start" and e.get("round") == seen["round"] + 1
        ),
        0,
    )
    if is_family_view(seen) and is_family_view(after):
        return _at_round_end(seen, after, deal)
    if is_qute_view(seen) and is_qute_view(after):
        return _at_round_end(seen, after, deal)
    return None  # never: both views are of the one game


_V = TypeVar("_V", FamilyView, QuteView)


def _at_round_end(seen: _V, after: _V, deal: int) -> _V:
    """The finished round ``seen`` with what the copy of :func:`round_end_view` got wrong on
    purpose taken from ``after`` (the same game's view after the action), and the events of
    ``after`` before its ``deal``-th (the new round's deal)."""
    end = seen.copy()
    end["over"] = False
    end["result"] = None
    end["target"] = after["target"]
    end["totals"] = after["totals"]
    end["round_results"] = after["round_results"]
    end["events"] = after["events"][:deal]
    end["actors"] = []
    end["legal"] = []
    return end


class ReplayBuilder:
    """Builds a :class:`BuiltReplay` a block at a time (:meth:`run_block`), so that the caller
    may give the event loop a turn between blocks. Not thread-safe: one caller at a time."""

    def __init__(self, source: ReplaySource, *, level: int = _LEVEL) -> None:
        self._started = time.perf_counter()
        self._game: Game = variants.new_game(
            source.game, players=source.players, seed=source.seed, options=source.options
        )
        self._open = source.open
        self._lang = source.lang
        self._seat = None if source.open else source.seat
        self._actions = source.actions
        self._by = source.by
        self._variant = source.game
        self._reader = Reader(self._seat, tuple(source.names))
        self._chosen: dict[int, By] = {}
        """Who chose the move that caused each event of a move its player did not choose."""
        self._said: dict[int, Phrasing] = {}
        """The words of the events the last view held, by ``seq`` (a view holds the recent
        events: each is phrased once, not once per view)."""
        self._played_for: list[PlayedFor] = [
            {"clock": 0, "stand_in": 0} for _ in range(source.players)
        ]
        self._level = level
        self._pos = 0
        self._blocks: list[Block] = []
        self._raw = 0
        first = self._view(self._game)
        self._seq = _last_seq(first)
        self._done_rounds = len(first["round_results"])
        self._moves = 0
        self._rounds: list[dict[str, int]] = []
        self.initial = _dumps(self._shown(first))
        """JSON of the view before the first step."""

    def _view(self, game: Game) -> View:
        """The view the steps show: the spectator's, or the seat's."""
        return game.spectator_view() if self._seat is None else game.view(self._seat)

    def _words(self, event: Event) -> Phrasing:
        """An event of the views in words, from the viewer's side (once per event)."""
        seq = int(event["seq"])
        said = self._said.get(seq)
        if said is None:
            by = self._chosen.get(seq)
            if self._lang is None:
                said = said_for(event, self._reader, self._variant, by)
            else:
                with language(self._lang):
                    said = said_for(event, self._reader, self._variant, by)
            self._said[seq] = said
        return said

    def _shown(self, view: View) -> dict[str, object]:
        """``view`` (of the game now) as a step shows it: with its events' words, and every
        hand open in an open replay."""
        told = self._told(view)
        return open_hands(self._game, told) if self._open else told

    def _told(self, view: View) -> dict[str, object]:
        """``view`` with the words of its events; the words of older events are forgotten."""
        out = told_view(view, self._words)
        oldest = min((int(e["seq"]) for e in view.get("events") or ()), default=self._seq + 1)
        for seq in [s for s in self._said if s < oldest]:
            del self._said[seq]
        return out

    @property
    def done(self) -> bool:
        """Every action has been played and encoded."""
        return self._pos >= len(self._actions)

    def _step(self, seat: int, action: str, by: By | None) -> Step:
        """Play one action; its step: who, what, who chose it, the view after it, its first
        event's number, and the table at the round's end if it ended a round of a match."""
        game = self._game
        before = game.clone()  # cheap (about a twentieth of a view): only read at a round's end
        game.play(seat, action)
        view = self._view(game)
        first, self._seq = self._seq + 1, _last_seq(view, self._seq)
        if by is not None:
            self._played_for[seat][by["kind"]] += 1
            self._chosen.update(dict.fromkeys(range(first, self._seq + 1), by))
        step: Step = {
            "seat": seat,
            "action": action,
            "by": by,
            "view": self._shown(view),
            "first_event": first,
        }
        self._moves += 1
        if len(view["round_results"]) > self._done_rounds:
            self._done_rounds = len(view["round_results"])
            self._rounds.append({"round": view["round_results"][-1]["round"], "moves": self._moves})
            self._moves = 0
            if not view["over"]:
                end = round_end_view(before, seat, action, view, self._seat)
                if end is None:
                    log.warning("a round's end could not be drawn apart from the next deal")
                else:
                    told = self._told(end)
                    step["end_view"] = _all_known(told, game.players) if self._open else told
        return step

    def run_block(self) -> bool:
        """Play, view and encode the next block of steps; ``True`` once :attr:`done`."""
        first = self._pos
        parts: list[bytes] = []
        ends: array[int] = array("I")
        size = 0
        clock = time.perf_counter
        since = clock()
        while self._pos < len(self._actions) and len(parts) < BLOCK_STEPS and size < BLOCK_BYTES:
            seat, action = self._actions[self._pos]
            by = self._by[self._pos] if self._pos < len(self._by) else None
            step = _dumps(self._step(seat, action, by))
            parts.append(step)
            size += len(step)
            ends.append(size)
            self._pos += 1
            if clock() - since > _YIELD_EVERY:
                _yield_interpreter()
                since = clock()
        if parts:
            data = zlib.compress(b"".join(parts), self._level)
            self._blocks.append(Block(first=first, ends=ends, data=data))
            self._raw += size
        return self.done

    def result(self) -> BuiltReplay:
        """The replay, once :attr:`done`."""
        if not self.done:
            raise RuntimeError("the replay is not built yet")
        if self._open and not self._game.over:
            raise NotFinished("every hand is shown only once the game is over")
        res = self._game.result
        rounds = list(self._rounds)
        if self._moves:  # a game that stopped inside a round (not a finished game)
            rounds.append({"round": len(rounds) + 1, "moves": self._moves})
        return BuiltReplay(
            total=len(self._actions),
            initial=self.initial,
            result=_dumps(res.to_dict() if res is not None else None),
            rounds=_dumps(rounds),
            blocks=tuple(self._blocks),
            raw_bytes=self._raw,
            seconds=time.perf_counter() - self._started,
            played_for=tuple(self._played_for),
        )


def build_replay(source: ReplaySource) -> BuiltReplay:
    """The whole replay of ``source`` in one call (blocking: the cache runs it in blocks)."""
    builder = ReplayBuilder(source)
    while not builder.run_block():
        pass
    return builder.result()


def page_body(replay: BuiltReplay, meta: Mapping[str, object], start: int, count: int) -> bytes:
    """The JSON answer for one page: ``meta`` (the room, the game, the seats: a non-empty
    mapping) with ``result``, ``rounds``, ``total``, ``start``, ``next`` and ``steps``, and
    ``initial`` when ``start`` is 0. ``steps`` holds steps ``start`` onwards: at most
    ``count`` of them and, past the first, no more than fit in :data:`PAGE_BYTES`. ``next`` is
    the start of the following page, ``null`` after the last step (or for a ``start`` past the
    end, which gets no steps)."""
    if start < 0 or count < 1:
        raise ValueError("start must be at least 0 and count at least 1")
    total = replay.total
    steps: list[memoryview] = []
    if start < total:
        end = min(total, start + count)
        size = 0
        index = replay.block_of(start)
        while index < len(replay.blocks) and start + len(steps) < end:
            block = replay.blocks[index]
            for i, step in enumerate(block.steps()):
                at = block.first + i
                if at < start + len(steps):
                    continue
                if at >= end or (steps and size + len(step) + 1 > PAGE_BYTES):
                    end = at  # the page is full
                    break
                steps.append(step)
                size += len(step) + 1
            index += 1
    stop = start + len(steps)
    head = dict(meta)
    head.update(
        {"total": total, "start": start, "next": stop if stop < total else None},
    )
    out = [_dumps(head)[:-1], b',"result":', replay.result, b',"rounds":', replay.rounds]
    if start == 0:
        out += [b',"initial":', replay.initial]
    out.append(b',"steps":[')
    out.append(b",".join(steps))
    out.append(b"]}")
    return b"".join(out)


def _inflated_bytes(replay: BuiltReplay, start: int, count: int) -> int:
    """Bytes of JSON the blocks a page from ``start`` of ``count`` steps inflate to."""
    if start >= replay.total:
        return 0
    first = replay.block_of(start)
    last = replay.block_of(min(replay.total, start + count) - 1)
    return sum(b.ends[-1] for b in replay.blocks[first : last + 1])


SEAT_TOKEN_HEADER = "X-Seat-Token"
"""The request header that carries a seat's token, for the replay of that seat's view."""


def check_seat(players: int, tokens: Mapping[str, int], seat: int, token: str | None) -> None:
    """Refuse a request for the replay of ``seat``'s view unless ``token`` holds that seat:
    ``422`` for a seat the table does not have, ``403`` (one plain message, whatever is wrong:
    no token, a token of another seat or of no seat) otherwise. ``tokens`` maps the digests of
    the room's seat tokens to their seats (:attr:`~.room.Room.tokens`). A seat never changes
    hands and a room deals only once every person's seat is taken, so the token that holds a
    seat now held it in every game of the room."""
    if not 0 <= seat < players:
        raise HTTPException(422, f"seat must be from 0 to {players - 1}")
    held = None
    if token:
        digest = hash_token(token)
        for known, at in tokens.items():
            if hmac.compare_digest(known, digest):
                held = at
    if held != seat:
        raise HTTPException(403, "only the player of that seat may replay the game as they saw it")


def check_page(start: int, count: int) -> None:
    """Refuse (``422``, a short message) a page request out of bounds: ``start`` from 0 to
    :data:`MAX_START`, ``count`` from 1 to :data:`MAX_COUNT`."""
    if not 0 <= start <= MAX_START:
        raise HTTPException(422, f"start must be a step number from 0 to {MAX_START}")
    if not 1 <= count <= MAX_COUNT:
        raise HTTPException(422, f"count must be from 1 to {MAX_COUNT}")


class JSONBytes(Response):
    """An answer whose body is JSON already encoded (a replay page)."""

    media_type = "application/json"


Key = (
    tuple[str, int]
    | tuple[str, int, int | None]
    | tuple[str, int, int | None, str]
    | tuple[str, int, str, str]
)
"""A replay: ``(room id, game number)``, or with the seat whose view it shows (``None``: the
spectator's) and the language of its words (none: the server's), or ``(room id, game number,
"open", language)`` for every hand shown."""


def _whose(key: Key) -> str:
    """Whose view the replay of ``key`` shows, for the log."""
    seat = key[2] if len(key) > 2 else None
    if isinstance(seat, str):
        return "open hands"
    return "spectator" if seat is None else f"seat {seat}"


class ReplayCache:
    """Finished games' replays, built once each off the event loop and kept in a bounded
    least-recently-used cache.

    :meth:`get` answers from the cache, or awaits the build already under way for that game,
    or starts one; a build runs in this cache's own thread (``workers`` of them), a block of
    steps at a time. A replay larger than the whole cache is served to those who waited for
    it but not kept."""

    def __init__(
        self,
        *,
        max_bytes: int = CACHE_BYTES,
        max_entries: int = CACHE_ENTRIES,
        workers: int = 1,
    ) -> None:
        if max_bytes < 1 or max_entries < 1 or workers < 1:
            raise ValueError("max_bytes, max_entries and workers must be at least 1")
        self.max_bytes = max_bytes
        """Bound on the total :attr:`BuiltReplay.nbytes` kept."""
        self.max_entries = max_entries
        """Bound on the number of replays kept."""
        self.builds = 0
        """Builds started so far (one per game, unless a replay was evicted and asked again)."""
        self.hits = 0
        """Requests answered from the cache."""
        self.evictions = 0
        """Replays dropped to stay within the bounds."""
        self.bytes = 0
        """Total :attr:`BuiltReplay.nbytes` kept now."""
        self._entries: OrderedDict[Key, BuiltReplay] = OrderedDict()
        self._pending: dict[Key, asyncio.Task[BuiltReplay]] = {}
        self._workers = workers
        self._executor: ThreadPoolExecutor | None = None
        # one page made in a thread at a time: threads holding the interpreter lock in turn
        # would keep the event loop waiting for it (measured: p99 of the tables' moves 68 ms
        # with six at once)
        self._page_slot = asyncio.Semaphore(1)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def keys(self) -> list[Key]:
        """The games kept, least recently used first."""
        return list(self._entries)

    async def get(self, key: Key, source: Callable[[], Awaitable[ReplaySource]]) -> BuiltReplay:
        """The replay of game ``key``: from the cache, from the build under way, or built now
        from what ``source()`` returns (awaited once per build; what it raises reaches every
        request waiting for that build, and nothing is kept)."""
        hit = self._entries.get(key)
        if hit is not None:
            self._entries.move_to_end(key)
            self.hits += 1
            return hit
        task = self._pending.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._build(key, source))
            self._pending[key] = task
            task.add_done_callback(functools.partial(self._done, key))
        # a request that goes away does not cancel the build the others wait for
        return await asyncio.shield(task)

    async def page(
        self, replay: BuiltReplay, meta: Mapping[str, object], start: int, count: int
    ) -> bytes:
        """:func:`page_body` of ``replay``; in a thread when it inflates more than a little."""
        if _inflated_bytes(replay, start, count) <= _INLINE_INFLATE:
            return page_body(replay, meta, start, count)
        async with self._page_slot:
            return await asyncio.to_thread(page_body, replay, meta, start, count)

    def _done(self, key: Key, task: asyncio.Task[BuiltReplay]) -> None:
        """A build ended: forget it (its waiters hold it); mark its failure as seen."""
        if self._pending.get(key) is task:
            del self._pending[key]
        if not task.cancelled():
            task.exception()

    async def _build(self, key: Key, source: Callable[[], Awaitable[ReplaySource]]) -> BuiltReplay:
        """Read the game, build its replay in the build thread a block at a time, keep it."""
        src = await source()
        self.builds += 1
        number = self.builds
        loop = asyncio.get_running_loop()
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self._workers, thread_name_prefix="replay")
        builder = await loop.run_in_executor(self._executor, ReplayBuilder, src)
        while not await loop.run_in_executor(self._executor, builder.run_block):
            await asyncio.sleep(0)
        built = dataclasses.replace(builder.result(), build_no=number)
        log.info(
            "replay %s/%d (%s) built: %d steps, %d bytes of JSON kept in %d, %.2f s",
            key[0],
            key[1],
            _whose(key),
            built.total,
            built.raw_bytes,
            built.nbytes,
            built.seconds,
        )
        self._keep(key, built)
        return built

    def _keep(self, key: Key, built: BuiltReplay) -> None:
        """Keep ``built`` as the most recently used, then drop the least recently used
        replays until the cache is within its bounds."""
        if built.nbytes > self.max_bytes:
            log.warning(
                "replay %s/%d (%s, %d bytes) is larger than the replay cache; not kept",
                key[0],
                key[1],
                _whose(key),
                built.nbytes,
            )
            return
        old = self._entries.pop(key, None)
        if old is not None:
            self.bytes -= old.nbytes
        self._entries[key] = built
        self.bytes += built.nbytes
        while self.bytes > self.max_bytes or len(self._entries) > self.max_entries:
            _, dropped = self._entries.popitem(last=False)
            self.bytes -= dropped.nbytes
            self.evictions += 1

    def close(self) -> None:
        """Stop the build thread (builds under way finish first)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
