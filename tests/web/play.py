"""Driving whole games over the wire, and checking frames against the engine replayed."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import cardtable
from cardtable.game import Event, Game
from cardtable.store import Store

from .client import Client

__all__ = [
    "Moment",
    "card_codes",
    "drive",
    "expected_log",
    "replay_expected",
    "said_cards",
    "stored_game",
    "unsaid",
    "unsaid_log",
    "unsaid_view",
]

FACE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")
TOKEN = re.compile(r"\[([0-9A-Z]{1,5})\]")


def card_codes(text: str) -> set[str]:
    """Card-like codes of a standard deck (e.g. ``7H``, ``10S``) in ``text``."""
    return set(FACE.findall(text))


def said_cards(text: str) -> set[str]:
    """The cards an event's words name (``[7H]``: any deck's codes)."""
    return set(TOKEN.findall(text))


def unsaid(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as the engine gives them: without the words the server adds (``said``)."""
    return [{k: v for k, v in e.items() if k != "said"} for e in events]


def unsaid_log(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A join's log, its events without their words (:func:`unsaid`)."""
    return [{**entry, "events": unsaid(entry["events"])} for entry in log]


def unsaid_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view the server tells (a replay's), its events without their words (:func:`unsaid`)."""
    return {**view, "events": unsaid(view["events"])}


def drive(
    clients: list[Client],
    rng: random.Random,
    *,
    probes: list[str] | None = None,
    max_steps: int = 3000,
    on_error: Any = None,
) -> None:
    """Play until the game is over: the seat clients whose latest state is current act with
    random legal actions; with ``probes``, now and then a seat first sends a probe action that
    is usually illegal (its error answer goes to ``on_error(client, action, frame)``)."""
    probed = False
    for _ in range(max_steps):
        for c in clients:
            c.drain()
        states = [c.state for c in clients if c.state is not None]
        if not states:
            clients[0].recv(5)
            continue
        top = max(s["version"] for s in states)
        if any(s["view"] and s["view"]["over"] and s["version"] == top for s in states):
            for c in clients:  # let every client read the end
                c.wait(lambda s, top=top: s["version"] >= top)
            return
        movers = [
            c for c in clients if c.token and c.state and c.state["version"] == top and c.my_turn()
        ]
        if not movers:
            # wait for the server (an AI seat, or a frame still on its way)
            for c in clients:
                if c.recv(0.05) is not None:
                    break
            continue
        c = rng.choice(movers)
        assert c.state is not None
        if probes and (not probed or rng.random() < 0.15):  # the first move always probes
            probed = True
            probe = rng.choice(probes)
            frame = c.act(probe)
            if on_error is not None and frame["type"] == "error":
                on_error(c, probe, frame)
            if frame["type"] == "state":
                continue
        answer = c.act(rng.choice(c.state["view"]["legal"]))
        assert answer["type"] == "state" or answer["code"] in ("stale", "not_your_turn"), answer
    raise AssertionError("the game did not end")


def stored_game(url: str, room: str, game_no: int = 1) -> tuple[int, int, list[tuple[int, str]]]:
    """Seed, base version and actions of a stored game, read with the project's store."""

    async def read() -> tuple[int, int, list[tuple[int, str]]]:
        store = Store(url)
        await store.open()
        try:
            games = {g.game_no: g for g in await store.games(room)}
            acts = await store.actions(room, game_no)
        finally:
            await store.close()
        g = games[game_no]
        return g.seed, g.base_version, [(a.seat, a.action) for a in acts]

    return asyncio.run(read())


def replay_expected(
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    actions: list[tuple[int, str]],
    memory: list[bool] | None = None,
) -> list[Moment]:
    """The engine replayed: the moment after k actions, for k = 0..len(actions) (moment 0 with
    the deal's opening events). ``memory[seat]``: whether that seat has the memory aid (the
    server then sends it the perfect-memory view); every seat has it when not given."""
    g = cardtable.new_game(game, players=players, seed=seed, options=options)
    aid = memory if memory is not None else [True] * players
    out = [Moment(g, g.opening_events, aid)]
    for seat, action in actions:
        out.append(Moment(g, g.play(seat, action), aid))
    return out


class Moment:
    """What every seat and a spectator are sent at one moment, and the events that led there."""

    def __init__(self, g: Game, events: list[Event], memory: list[bool]) -> None:
        self.views = [g.view(s, memory=memory[s]) for s in range(g.players)]
        """Each seat's view, with or without memory as the seat's memory aid says."""
        self.public = g.spectator_view(memory=False)
        """What a spectator of the live table sees: face-up cards only."""
        self.record = g.spectator_view()
        """The spectator view of a replay (public knowledge: every card once face up)."""
        self.events = events
        self.players = g.players
        self.memory = memory
        """Each seat's memory aid."""
        self.memory_game = g.memory_game
        """Whether the aid matters (not in Qute, where a hand is held face up)."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (``None``: spectator)."""
        return self.public if seat is None else self.views[seat]

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The events as ``seat`` (``None``: spectator) may see them."""
        bit = 1 << (self.players if seat is None else seat)
        return [e.visible(bit) for e in self.events]

    def read_again(self, seat: int | None) -> list[dict[str, Any]]:
        """The events as ``seat`` (``None``: spectator) may read them again later, in the log
        a join carries: everything it saw with the memory aid (or in Qute, where its hand is
        face up to it), else the public parts only."""
        aid = seat is not None and (self.memory[seat] or not self.memory_game)
        bit = 1 << seat if seat is not None and aid else 0
        return [e.visible(bit) for e in self.events]


def expected_log(
    moments: list[Moment],
    base: int,
    actions: list[tuple[int, str]],
    upto: int,
    seat: int | None,
    limit: int,
) -> list[dict[str, Any]]:
    """The ``log`` a join of ``seat`` gets at version ``base + upto`` of a game nobody else
    chose a move of: the deal and every action, the newest ``limit`` entries."""
    out = [
        {
            "version": base + k,
            "seat": None if k == 0 else actions[k - 1][0],
            "by": None,
            "events": moments[k].read_again(seat),
        }
        for k in range(upto + 1)
    ]
    return out[-limit:]
