"""The terminal front end: ``cardtable play``, ``cardtable rules`` and ``cardtable variants``.

It talks to the engine only through the public game contract (``new_game``, ``actors``,
``legal_actions``, ``play``, ``opening_events``, ``view``, ``over``, ``result``) and draws the
table from the human seat's ``view`` alone, so it can never show a card that seat does not know.

These are memory games, and the person plays without memory aid by default (RULES.md, "Memory"):
the tables come from ``view(seat, memory=False)``, which shows no face-down card. A card the
person sees — a peek, spy or look, kaboo's first sight of the bottom row, a card a failed claim
or drop shows to everyone — is named in the event line that reports it and shown in the next
table (the ``Seen now`` row says so), then hidden again. With a memory aid (``--memory-aid``)
every card the seat has ever seen stays shown.

One loop, prompt and error handling serve every game; what differs — the table, the words for
events, the round results and the notation — is a :class:`Front`, looked up by variant name in
:data:`FRONTS` (one for the Cabo family's four games, one for Qute).

Every card is drawn as ``[7H]`` when the seat knows it and as :data:`FACE_DOWN` when it does
not; the bracket form makes the output easy to check for leaks (see ``tests/test_cli.py``).

The play loop, :func:`play_loop`, takes its input from any iterable of lines or callable
``prompt -> line`` and writes to any Rich :class:`~rich.console.Console`, so tests can feed it
lines and read what it printed.

``cardtable arena`` (the last command here) runs tournaments between agents through
:mod:`cardtable.arena` and shows its results as tables.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from . import Game, IllegalAction, agents, new_game, variants
from .arena import ArenaError, ArenaResult, check_settings, run_arena

__all__ = [
    "FACE_DOWN",
    "FAMILY",
    "FRONTS",
    "HAND_ROW",
    "PLAYABLE",
    "PLAYABLE_MARK",
    "QUTE_RANKS",
    "QUTE_SUITS",
    "Front",
    "InputFn",
    "app",
    "arena_command",
    "arena_table",
    "card_text",
    "describe_event",
    "front",
    "head_to_head_table",
    "main",
    "parse_option",
    "play_loop",
    "playable_cards",
    "render_legal",
    "render_result",
    "render_round_end",
    "render_view",
    "rules_markdown",
]

FACE_DOWN = "[▒▒▒]"
"""How a card the human seat does not know is drawn (never a card code)."""

FAMILY = ("cabo", "cabo-german", "gabo", "kaboo")
"""Variants this front end can draw (the Cabo family)."""

InputFn = Callable[[str], str]
"""Reads one line of input after showing a prompt; raises ``EOFError`` when there is none."""

PROMPT = "Your move (number, action, help, rules, quit): "
"""The prompt shown when the human seat may act."""

DISCARD_SHOWN = 6
"""How many cards of the discard pile the table shows (the top one highlighted)."""

_PHASES = {
    "peek": "initial peek: everyone looks at two of their own cards",
    "turn": "start of a turn: draw, or call the end",
    "drawn": "a drawn card is waiting to be placed or discarded",
    "power": "a power card is being used",
    "look": "after a look: exchange the two cards or pass",
    "give": "after dropping an opponent's card: give them one of yours or pass",
    "snap": "snap window: drop cards of the same rank, or pass",
    "over": "the game is over",
}

_POWER_WORDS = {
    "peek": "peek at one of your own cards (peek N)",
    "spy": "look at another seat's card (spy P.N)",
    "exchange": "swap two cards without looking (exchange A B)",
    "look": "look at one of yours and one of another seat's (look N P.N)",
}

_NOTATION: dict[str, list[tuple[str, str]]] = {
    "common": [
        ("peek N", "look at your own card N (start of the round, or the peek power)"),
        ("draw deck", "take the top card of the deck"),
        ("draw discard", "take the top card of the discard pile"),
        ("replace N", "put the card you hold at your position N; the old card is discarded"),
        ("discard", "discard the card you drew from the deck (uses its power, if any)"),
        ("spy P.N", "spy power: look at seat P's card N"),
        ("pass", "decline a power (where allowed)"),
    ],
    "cabo": [
        ("replace N M …", "claim that your cards N, M, … have equal value and replace them all"),
        ("exchange N P.N", "11/12 power: swap your card N with seat P's card N, unseen"),
        ("cabo", "call the end at the start of your turn"),
    ],
    "cabo-german": [
        ("exchange N P.N", "J power: swap your card N with seat P's card N, unseen"),
        ("look N P.N", "Q power: look at your card N and seat P's card N"),
        ("exchange", "after look: swap the two cards you looked at"),
        ("drop N / drop P.N", "drop a card matching the top of the discard pile (your turn)"),
        ("give N", "after dropping an opponent's card: give them your card N"),
        ("cabo", "call the end at the start of your turn"),
    ],
    "gabo": [
        ("exchange A B", "J/Q power: swap any two cards of two different seats, unseen"),
        ("drop N", "snap window: throw your card N if it has the window's rank"),
        ("pass", "snap window: you are done snapping for this window"),
        ("gabo", "call the end at the start of your turn: the round ends at once"),
    ],
    "kaboo": [
        ("exchange N P.N", "J power: swap your card N with seat P's card N, unseen"),
        ("look N P.N", "Q power: look at your card N and seat P's card N"),
        ("exchange", "after look: swap the two cards you looked at"),
        ("knock", "call the end at the start of your turn"),
    ],
    "qute": [
        (
            "play C …",
            "lay cards of one rank (play 8D, play 8D 8H): the first must fit the top card, "
            "the last ends on top",
        ),
        ("draw", "nothing fits: take a card from the blind (while covering a 6, until one fits)"),
        ("suit S", "after laying a J: the suit to follow (suit C, D, H or S)"),
        (
            "eights all|next",
            "after two or more 8s (3+ players): the others draw two per 8 in turn (all), "
            "or the next seat draws them all (next)",
        ),
        ("qute / continue", "after a run of four of a rank: end the round now, or play on"),
        (
            "jpoints minus|plus",
            "the round ends on your Js: −20 per J off your score, or +20 per J to every other seat",
        ),
    ],
}


# ---------------------------------------------------------------------------- small pieces
def _s(n: object) -> str:
    return "" if n == 1 else "s"


def _who(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def _addr(addr: str, me: int) -> str:
    """An absolute address ``S.P`` as the human reads it: ``your card 2`` or ``1.3``."""
    seat, _, pos = addr.partition(".")
    if seat.isdigit() and int(seat) == me:
        return f"your card {pos}"
    return addr


def _and(items: Sequence[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _addrs(addrs: Sequence[str], me: int) -> str:
    """Several absolute addresses in words: ``your cards 0, 1 and 3`` or ``1.0 and 1.2``."""
    mine = [a.partition(".")[2] for a in addrs if a.partition(".")[0] == str(me)]
    if addrs and len(mine) == len(addrs):
        return ("your card " if len(mine) == 1 else "your cards ") + _and(mine)
    return _and([_addr(a, me) for a in addrs])


def _card_style(code: str) -> str:
    if code == "RJ" or code[-1:] in ("D", "H"):
        return "bold red"
    if code == "BJ" or code[-1:] in ("C", "S"):
        return "bold"
    return "bold cyan"  # the Cabo deck's plain numbers


def card_text(code: str | None, *, top: bool = False, pad: bool = False) -> Text:
    """A card as the human sees it: ``[7H]`` if known, :data:`FACE_DOWN` if not.

    ``pad`` right-aligns it to the width of the face-down marker (for tables); ``top`` marks
    the top of the discard pile.
    """
    if code is None:
        return Text(FACE_DOWN, style="blue")
    style = _card_style(code) + (" reverse" if top else "")
    token = f"[{code}]"  # no space inside, so a line is never broken within a card
    return Text.assemble(" " * (len(FACE_DOWN) - len(token)) if pad else "", (token, style))


def _line(*parts: str | Text | None, style: str = "") -> Text:
    out = Text(style=style)
    for part in parts:
        if part is None:
            continue
        if isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(part)
    return out


def _cards(codes: Sequence[str | None]) -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(card_text(code))
    return out


def _seen(seen: Sequence[int], me: int, players: int) -> str:
    if not seen:
        return "–"
    if len(seen) == players:
        return "all"
    return ",".join("you" if s == me else str(s) for s in seen)


# ---------------------------------------------------------------------------- the table
def _hand(view: dict[str, Any], seat: int, me: int) -> RenderableType:
    """A hand as rows of cells (address, card, who has seen it), 8 cells a row.

    Kaboo's four cards are drawn as its 2×2 square. Plain text lines are used instead of nested
    tables because they render fast even for the long hands that penalties can build.
    """
    hand: list[dict[str, Any] | None] = view["hands"][seat]
    players = int(view["players"])
    if not any(c is not None for c in hand):
        return Text("no cards", style="dim")
    per_row = 2 if view["game"] == "kaboo" and len(hand) <= 4 else 8
    lines: list[Text] = []
    for start in range(0, len(hand), per_row):
        cells: list[tuple[Text, Text, Text]] = []
        for i, cell in enumerate(hand[start : start + per_row], start):
            label = str(i) if seat == me else f"{seat}.{i}"
            if cell is None:
                cells.append((Text(label, style="dim strike"), Text("·", style="dim"), Text("")))
            else:
                cells.append(
                    (
                        Text(label, style="bold"),
                        card_text(cell["card"], pad=True),
                        Text(_seen(cell["seen"], me, players), style="dim"),
                    )
                )
        width = max(len(FACE_DOWN), *(len(t.plain) for trio in cells for t in trio))
        for row in range(3):
            line = Text(no_wrap=True, overflow="ellipsis")
            for k, trio in enumerate(cells):
                part = trio[row]
                left = (width - len(part.plain) + 1) // 2
                line.append(" " * (left + (1 if k else 0)))
                line.append_text(part)
                line.append(" " * (width - len(part.plain) - left))
            lines.append(line)
    return Group(*lines)


def _seat_panel(view: dict[str, Any], seat: int, me: int) -> Panel:
    title = f"You (seat {seat})" if seat == me else f"Seat {seat}"
    tags = [f"total {view['totals'][seat]}"]
    if seat in view["actors"] and view["phase"] != "over":
        tags.append("▶ to act")
    if view.get("caller") == seat:
        tags.append(f"called {view['call']}")
    border = "yellow" if seat in view["actors"] else ("green" if seat == me else "white")
    return Panel(
        Group(Text(" · ".join(tags), style="dim"), _hand(view, seat, me)),
        title=Text(title, style="bold"),
        title_align="left",
        border_style=border,
        expand=False,
    )


def _discard_pile(pile: Sequence[str]) -> Text:
    if not pile:
        return Text("empty", style="dim")
    shown = pile[-DISCARD_SHOWN:]
    out = Text()
    if len(pile) > len(shown):
        out.append(f"(+{len(pile) - len(shown)} under) ", style="dim")
    for i, code in enumerate(shown):
        top = i == len(shown) - 1
        out.append_text(card_text(code, top=top))
        out.append(" ← top" if top else " ", style="dim" if not top else "yellow")
    out.append(f"   {len(pile)} card{_s(len(pile))}", style="dim")
    return out


def _pending(view: dict[str, Any], me: int) -> Text | None:
    pending = view.get("pending")
    if not pending:
        return None
    who = _who(int(view["turn"]), me)
    if "give" in pending:
        return _line(f"{who} may give a card into {_addr(pending['give'], me)} (give N) or pass")
    power = str(pending.get("power"))
    if power == "look" and "looked" in pending:
        a, b = (_addr(x, me) for x in pending["looked"])
        can = "exchange or pass" if pending.get("can_exchange") else "only pass is left"
        return _line(f"{who} looked at {a} and {b} with ", card_text(pending["card"]), f": {can}")
    what = _POWER_WORDS.get(power, power)
    if power == "exchange" and pending.get("any"):
        what = "swap any two cards of two different seats, unseen (exchange A B)"
    verb = "use" if who == "you" else "uses"
    return _line(f"{who} {verb} the power of ", card_text(pending["card"]), f": {what}")


def _snap(view: dict[str, Any], me: int) -> Text | None:
    snap = view.get("snap")
    if not snap:
        return None
    passed = [int(s) for s in snap.get("passed", [])]
    deciding = [s for s in range(int(view["players"])) if s not in passed]
    rank = str(snap["rank"]).lower() if snap["rank"] == "JOKER" else str(snap["rank"])
    return _line(
        "open for rank ",
        Text(rank, style="bold"),
        " (drop N or pass); still snapping: ",
        ", ".join(_who(s, me) for s in deciding) or "nobody",
    )


def _status_grid(view: dict[str, Any], title: str, match: str, extra: str = "") -> Table:
    """The two-column status grid every table starts with, opened by its "Game" row."""
    status = Table.grid(padding=(0, 2))
    status.add_column(style="bold", no_wrap=True)
    status.add_column()
    status.add_row(
        "Game",
        f"{title or view['game']} · round {view['round']} · {match} · {view['players']} players"
        + (f" · {extra}" if extra else ""),
    )
    return status


def _memory_words(view: dict[str, Any]) -> str:
    """The Game row's word on the memory aid (the loop's ``memory_aid`` key; none without it)."""
    aid = view.get("memory_aid")
    if aid is None:
        return ""
    return "memory aid on" if aid else "no memory aid"


def _cards_at(cards: dict[str, str], me: int, note: str) -> Text:
    """Cards by address, ``your card 2 [7H] · 1.3 [5C]``, then ``note`` highlighted."""
    parts: list[str | Text | None] = []
    for addr, code in cards.items():
        if parts:
            parts.append(" · ")
        parts.extend([f"{_addr(addr, me)} ", card_text(code)])
    parts.append(Text(note, style="yellow"))
    return _line(*parts)


def _sight_rows(view: dict[str, Any], me: int) -> list[tuple[str, Text]]:
    """Without memory aid, why a face-down card shows: the ``Seen now`` row (the cards the seat
    has just seen, the loop's ``seen_now`` key) and the ``Until draw`` row (gabo's initial peek,
    which the view itself keeps shown until the seat's first draw)."""
    if view.get("memory_aid") is not False or view["phase"] == "over":
        return []
    rows: list[tuple[str, Text]] = []
    seen: dict[str, str] = view.get("seen_now") or {}
    if seen:
        them = "it" if len(seen) == 1 else "them"
        note = f" — shown in this table only: remember {them}"
        rows.append(("Seen now", _cards_at(seen, me, note)))
    kept = {
        f"{me}.{i}": str(cell["card"])
        for i, cell in enumerate(view["hands"][me])
        if cell is not None and cell["card"] is not None and f"{me}.{i}" not in seen
    }
    if kept:
        note = " — your initial peek, shown until your first draw"
        rows.append(("Until draw", _cards_at(kept, me, note)))
    return rows


def _family_view(view: dict[str, Any], me: int, title: str = "") -> RenderableType:
    """A Cabo-family table from seat ``me``'s view: status, other hands, then yours."""
    players = int(view["players"])
    target = view.get("target")
    status = _status_grid(
        view,
        title,
        "single round" if target is None else f"match to {target}",
        _memory_words(view),
    )
    phase = str(view["phase"])
    status.add_row("Phase", _PHASES.get(phase, phase))
    if phase == "peek" and view.get("peeks_left"):
        left = view["peeks_left"]
        status.add_row("Peeks left", " · ".join(f"{_who(s, me)} {n}" for s, n in enumerate(left)))
    actors = [int(s) for s in view["actors"]]
    if phase in ("peek", "snap"):
        status.add_row("To act", ", ".join(_who(s, me) for s in actors) or "nobody")
    elif phase != "over":
        status.add_row(
            "Turn",
            f"{_who(int(view['turn']), me)} (first this round: {_who(int(view['first']), me)})",
        )
    for name, row in _sight_rows(view, me):
        status.add_row(name, row)
    deck = f"{view['deck']} card{_s(view['deck'])}"
    if view.get("reshuffles"):
        deck += f" (reshuffled {view['reshuffles']}×)"
    status.add_row("Deck", deck)
    status.add_row("Discard", _discard_pile(view["discard"]))
    if view.get("drawer") is not None:
        src = {"deck": " from the deck", "discard": " from the discard pile"}.get(
            str(view.get("drawn_from")), ""
        )
        status.add_row(
            "Drawn",
            _line(card_text(view.get("drawn")), f" held by {_who(int(view['drawer']), me)}{src}"),
        )
    pending = _pending(view, me)
    if pending is not None:
        status.add_row("Pending", pending)
    snap = _snap(view, me)
    if snap is not None:
        status.add_row("Snap", snap)
    if view.get("caller") is not None:
        left = view.get("final_turns_left")
        status.add_row(
            "Called",
            f"{_who(int(view['caller']), me)} called {view['call']}"
            + (f" · {left} final turn{_s(left)} left" if left else ""),
        )
    else:
        status.add_row(
            "Call word",
            f"{view['call']} · turns played {view['turns']} (the round stops after "
            f"{view['max_turns']} without a call)",
        )
    status.add_row("Totals", " · ".join(f"{_who(s, me)} {t}" for s, t in enumerate(view["totals"])))
    order = [(me + k) % players for k in range(1, players)] + [me]
    panels: list[RenderableType] = [Panel(status, title="Table", title_align="left")]
    panels.extend(_seat_panel(view, s, me) for s in order)
    return Group(*panels)


def render_legal(legal: Sequence[str]) -> RenderableType:
    """The numbered list of legal actions (type the number or the text)."""
    items = [Text.assemble((f"{i}) ", "bold magenta"), a) for i, a in enumerate(legal, 1)]
    return Group(Text("Legal actions", style="bold"), Columns(items, padding=(0, 3)))


def _family_round_end(info: dict[str, Any], me: int) -> RenderableType:
    """The results of a finished Cabo-family round: every hand, sums, scores and totals."""
    table = Table(title=f"Round {info['round']} results", title_style="bold")
    table.add_column("Seat", no_wrap=True)
    table.add_column("Hand")
    table.add_column("Sum", justify="right")
    table.add_column("Score", justify="right")
    table.add_column("Total", justify="right")
    winners = info.get("winners", [])
    for s, hand in enumerate(info["hands"]):
        name = _who(s, me)
        if s == info.get("caller"):
            name += " (caller)"
        if s in winners:
            name += " ★"
        table.add_row(
            Text(name, style="bold green" if s in winners else ""),
            _cards([c for c in hand if c is not None]),
            str(info["sums"][s]),
            str(info["scores"][s]),
            str(info["totals"][s]),
        )
    return table


def render_result(view: dict[str, Any], me: int) -> RenderableType:
    """The final result of the game (``view["result"]``) in words and a small table."""
    result = view.get("result")
    if not result:
        return Text("The game is not over.")
    winners = [int(w) for w in result["winners"]]
    if winners == [me]:
        head = "You win!"
    elif me in winners:
        others = ", ".join(f"seat {w}" for w in winners if w != me)
        head = f"You share the win with {others}."
    elif len(winners) == 1:
        head = f"Seat {winners[0]} wins."
    else:
        head = "Seats " + ", ".join(str(w) for w in winners) + " share the win."
    table = Table(title="Final totals", title_style="bold")
    table.add_column("Seat")
    for i in range(len(result["rounds"])):
        table.add_column(f"R{i + 1}", justify="right")
    table.add_column("Total", justify="right", style="bold")
    for s, total in enumerate(result["totals"]):
        table.add_row(
            Text(
                _who(s, me) + (" ★" if s in winners else ""), style="green" if s in winners else ""
            ),
            *[str(r[s]) for r in result["rounds"]],
            str(total),
        )
    return Group(Text(head, style="bold green" if me in winners else "bold"), table)


# ---------------------------------------------------------------------------- events
def _family_event(ev: dict[str, Any], me: int) -> list[RenderableType]:
    """A Cabo-family event of ``view["events"]`` in plain words, as seat ``me`` may see it."""
    kind = ev.get("type")
    seat = ev.get("seat")
    who = _who(int(seat), me) if isinstance(seat, int) else ""
    if kind == "round_start":
        pile = ev.get("discard") or []
        return [
            _line(
                f"Round {ev['round']} begins; {_who(int(ev['first']), me)} play"
                + ("" if ev["first"] == me else "s")
                + " first",
                ("; the discard pile starts with " if pile else None),
                (_cards(pile) if pile else None),
                ".",
                style="bold",
            )
        ]
    if kind == "turn":
        return [Text(f"— {'your' if seat == me else who + chr(39) + 's'} turn —", style="dim")]
    if kind == "peek":
        if "card" in ev:
            return [_line(f"{who} peeked at {_addr(ev['at'], me)}: ", card_text(ev["card"]))]
        return [_line(f"{who} peeked at {_addr(ev['at'], me)}")]
    if kind == "draw":
        source = "the deck" if ev.get("from") == "deck" else "the discard pile"
        if "card" in ev:
            return [_line(f"{who} drew ", card_text(ev["card"]), f" from {source}")]
        return [_line(f"{who} drew from {source}")]
    if kind == "replace":
        at = _addrs(ev.get("at", []), me)
        return [_line(f"{who} put the card in hand at {at} and discarded ", _cards(ev["out"]))]
    if kind == "claim":
        at = _addrs(ev.get("at", []), me)
        if ev.get("ok"):
            return [
                _line(
                    f"{who} claimed {at} are equal — right: discarded ",
                    _cards(ev.get("out", [])),
                    "; the new card is at " + _addr(ev["at"][0], me),
                )
            ]
        return [
            _line(
                f"{who} claimed {at} are equal — wrong: they show ",
                _cards(ev.get("shown", [])),
                " and stay; the new card goes to " + _addr(str(ev.get("new")), me),
                style="",
            )
        ]
    if kind == "discard":
        power = ev.get("power")
        return [
            _line(
                f"{who} discarded the drawn ",
                card_text(ev.get("card")),
                f" — power: {power}" if power else None,
            )
        ]
    if kind == "spy":
        if "card" in ev:
            return [_line(f"{who} spied on {_addr(ev['at'], me)}: ", card_text(ev["card"]))]
        return [_line(f"{who} spied on {_addr(ev['at'], me)}")]
    if kind == "look":
        a, b = (_addr(x, me) for x in ev.get("at", ["?", "?"]))
        cards = ev.get("cards")
        if cards:
            return [
                _line(
                    f"{who} looked at {a} ", card_text(cards[0]), f" and {b} ", card_text(cards[1])
                )
            ]
        return [_line(f"{who} looked at {a} and {b}")]
    if kind == "exchange":
        a, b = (_addr(x, me) for x in ev.get("at", ["?", "?"]))
        return [_line(f"{who} exchanged {a} and {b} (unseen)")]
    if kind == "pass":
        return [_line(f"{who} passed")]
    if kind == "call":
        return [_line(f"{who} called {ev.get('word')}!", style="bold yellow")]
    if kind == "penalty":
        if ev.get("at") is None:
            return [_line(f"{who} should take a penalty card, but none is left")]
        return [_line(f"{who} took a penalty card face down at {_addr(ev['at'], me)}", style="red")]
    if kind == "drop":
        at = _addr(str(ev.get("at")), me)
        if ev.get("ok"):
            return [_line(f"{who} dropped ", card_text(ev.get("card")), f" from {at} — a match")]
        return [
            _line(
                f"{who} tried to drop ",
                card_text(ev.get("card")),
                f" from {at} — no match, it goes back",
            )
        ]
    if kind == "give":
        return [
            _line(
                f"{who} gave {_addr(str(ev.get('from')), me)} into {_addr(str(ev.get('to')), me)}"
            )
        ]
    if kind == "snap_open":
        return [_line(card_text(ev.get("card")), " landed on the discard pile: snap window open")]
    if kind == "snap":
        at = _addr(str(ev.get("at")), me)
        if ev.get("ok"):
            return [_line(f"{who} snapped ", card_text(ev.get("card")), f" from {at}")]
        return [
            _line(
                f"{who} snapped ",
                card_text(ev.get("card")),
                f" from {at} — wrong rank: it stays on the pile",
            )
        ]
    if kind == "reshuffle":
        n = ev.get("deck")
        return [_line(f"The discard pile was shuffled into a new deck of {n} card{_s(n)}")]
    if kind == "round_end":
        return [Text(f"Round {ev.get('round')} is over.", style="bold"), _family_round_end(ev, me)]
    if kind == "game_over":
        return [Text("The game is over.", style="bold")]
    public = {k: v for k, v in ev.items() if k not in ("seq", "type")}
    return [Text(f"{kind}: {public}")]


# ---------------------------------------------------------------------------- qute
QUTE_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Qute's ranks from lowest to highest (the order a hand is sorted in)."""

QUTE_SUITS = {"C": "clubs ♣", "D": "diamonds ♦", "H": "hearts ♥", "S": "spades ♠"}
"""Qute's suits in the engine's suit order, with their names."""

HAND_ROW = 12
"""How many cards of a Qute hand one line shows (and how many face-down cards per seat)."""

PLAYABLE_MARK = "▲"
"""Drawn under the cards of your hand that a legal ``play`` may start with."""

_QUTE_PHASES = {
    "play": "playing",
    "cover": "a 6 on top must be covered",
    "decide": "a decision is pending",
    "over": "the game is over",
}


def _qute_key(code: str) -> tuple[int, int]:
    suits = list(QUTE_SUITS)
    rank, suit = code[:-1], code[-1:]
    return (
        suits.index(suit) if suit in suits else len(suits),
        QUTE_RANKS.index(rank) if rank in QUTE_RANKS else len(QUTE_RANKS),
    )


def _v(who: str, you: str, other: str) -> str:
    """``who`` with the verb form that fits it: ``you draw`` / ``seat 1 draws``."""
    return f"{who} {you if who == 'you' else other}"


def _times(n: int) -> str:
    return {1: "", 2: " twice"}.get(n, f" {n} times")


def playable_cards(legal: Sequence[str]) -> list[str]:
    """The cards a legal ``play`` may start with (the first card of each ``play`` action)."""
    first: list[str] = []
    for text in legal:
        words = text.split()
        if len(words) > 1 and words[0] == "play" and words[1] not in first:
            first.append(words[1])
    return first


def _qute_hand(view: dict[str, Any]) -> RenderableType:
    """Your Qute hand, sorted by suit and rank, the playable cards marked underneath."""
    hand = sorted(view.get("hand") or [], key=_qute_key)
    if not hand:
        return Text("no cards", style="dim")
    playable = set(playable_cards(view.get("legal") or []))
    drawn = view.get("drawn")
    width = len(FACE_DOWN) + 1
    lines: list[Text] = []
    for start in range(0, len(hand), HAND_ROW):
        row = hand[start : start + HAND_ROW]
        cards = Text(no_wrap=True)
        marks = Text(no_wrap=True, style="bold green")
        for code in row:
            token = card_text(code)
            if code in playable:
                token.stylize("underline")
            cards.append_text(token)
            cards.append(" " * (width - len(token.plain)))
            mark = PLAYABLE_MARK if code in playable else ("new" if code == drawn else "")
            left = (len(token.plain) - len(mark)) // 2
            marks.append(" " * left + mark + " " * (width - left - len(mark)))
        lines.append(cards)
        if marks.plain.strip():
            lines.append(marks)
    return Group(*lines)


def _qute_seat_panel(view: dict[str, Any], seat: int, me: int) -> Panel:
    count = int(view["counts"][seat])
    tags = [f"{count} card{_s(count)}", f"total {view['totals'][seat]}"]
    if seat in view["actors"]:
        tags.append("▶ to act")
    body: RenderableType
    if seat == me:
        body = _qute_hand(view)
    elif count == 0:
        body = Text("no cards", style="dim")
    else:
        shown = min(count, HAND_ROW)
        backs = Text(" ").join(card_text(None) for _ in range(shown))
        if count > shown:
            backs.append(f" +{count - shown} more", style="dim")
        body = backs
    border = "yellow" if seat in view["actors"] else ("green" if seat == me else "white")
    return Panel(
        Group(Text(" · ".join(tags), style="dim"), body),
        title=Text(f"You (seat {seat})" if seat == me else f"Seat {seat}", style="bold"),
        title_align="left",
        border_style=border,
        expand=False,
    )


def _qute_now(view: dict[str, Any], me: int) -> Text:
    """What the game waits for, in words."""
    phase = str(view["phase"])
    turn = int(view["turn"])
    who = _who(turn, me)
    laid: list[str] = view.get("laid") or []
    pending = view.get("pending")
    if pending == "qute":
        rank = view["run"]["rank"]
        return Text(
            f"four {rank}s in a row on top, some laid by {who} this turn: {who} may call "
            "'qute' (the round ends now) or 'continue'"
        )
    if pending == "suit":
        return Text(f"{who} laid a J: {who} must choose the suit to follow (suit C|D|H|S)")
    if pending == "eights":
        k = sum(1 for c in laid if c[:-1] == "8")
        nxt = _who((turn + 1) % int(view["players"]), me)
        return Text(
            f"{who} laid {k} 8s: 'eights next' — {_v(nxt, 'draw', 'draws')} {2 * k} and "
            f"{'are' if nxt == 'you' else 'is'} skipped; 'eights all' — the other seats draw two "
            "per 8 in turn, and each that drew is skipped"
        )
    if pending == "jpoints":
        k = sum(1 for c in laid if c[:-1] == "J")
        return Text(
            f"the round ends and {_v(who, 'have', 'has')} laid {k} J{_s(k)} this turn: "
            f"'jpoints minus' — {20 * k} off {'your' if who == 'you' else who + chr(39) + 's'} "
            f"round score; 'jpoints plus' — {20 * k} onto every other seat's"
        )
    top = view.get("top")
    if phase == "cover":
        suit = str(top)[-1:]
        return _line(
            card_text(top),
            f" on top must be covered by {who}: a card of {QUTE_SUITS.get(suit, suit)}, another "
            "6 or a J; if nothing fits, draw until something does",
        )
    if turn != me:
        return Text(f"{who} is playing")
    legal: list[str] = view.get("legal") or []
    drawn = view.get("drawn")
    if drawn is not None:
        return _line(
            "the card you drew, ",
            card_text(drawn),
            ", fits: you must play it (more of its rank may follow)",
        )
    if legal == ["draw"]:
        return Text("nothing in your hand fits: draw a card from the blind")
    if top is None:
        return Text("the stack is empty: lay any card (cards marked ▲ may start a play)")
    return Text("lay cards that fit the top (marked ▲); you must play when you can")


def _qute_view(view: dict[str, Any], me: int, title: str = "") -> RenderableType:
    """A Qute table from seat ``me``'s view: status, the other seats, then your hand."""
    players = int(view["players"])
    target = view.get("target")
    match = "single round" if target is None else f"match: ends when a total goes over {target}"
    status = _status_grid(view, title, match)
    phase = str(view["phase"])
    status.add_row("Phase", _QUTE_PHASES.get(phase, phase))
    if phase != "over":
        status.add_row("Now", _qute_now(view, me))
        status.add_row(
            "Turn",
            f"{_who(int(view['turn']), me)} (first this round: {_who(int(view['first']), me)}) "
            f"· turn {int(view['turns']) + 1} (the round stops after {view['max_turns']})",
        )
    stack: list[str] = view.get("stack") or []
    status.add_row(
        "Stack",
        _discard_pile(stack) if stack else Text("empty — any card may be laid", style="dim"),
    )
    if view.get("suit"):
        suit = str(view["suit"])
        status.add_row("Suit", f"{QUTE_SUITS.get(suit, suit)} ({suit}) was chosen for the J")
    run = view.get("run") or {}
    run_cards: list[str] = run.get("cards") or []
    if run_cards:
        n = len(run_cards)
        more = 4 - n
        status.add_row(
            "Run",
            _line(
                f"{n} × {run['rank']} on top ",
                _cards(run_cards),
                f" — {more} more make{'s' if more == 1 else ''} Qute"
                if more > 0
                else " — Qute reached",
            ),
        )
    refills = int(view["refills"])
    status.add_row(
        "Blind",
        f"{view['blind']} card{_s(view['blind'])} · refilled {refills}× · "
        f"points count ×{view['multiplier']}",
    )
    laid: list[str] = view.get("laid") or []
    if laid and phase != "over":
        status.add_row(
            "Laid",
            _line(_cards(laid), f" by {_who(int(view['turn']), me)} this turn"),
        )
    if view.get("drawn") is not None:
        status.add_row("Drawn", _line("you drew ", card_text(view["drawn"]), " this turn"))
    counts = [int(c) for c in view.get("penalty_counts") or []]
    if any(counts):
        parts: list[str | Text | None] = []
        for s, c in enumerate(counts):
            if not c:
                continue
            if parts:
                parts.append(" · ")
            if s == me:
                parts.extend(["you drew ", _cards(view.get("penalty_drawn") or [])])
            else:
                parts.append(f"seat {s} drew {c} card{_s(c)}")
        status.add_row("7s/8s", _line(*parts, " for the 7s/8s of the last turn"))
    status.add_row("Totals", " · ".join(f"{_who(s, me)} {t}" for s, t in enumerate(view["totals"])))
    order = [(me + k) % players for k in range(1, players)] + [me]
    panels: list[RenderableType] = [Panel(status, title="Table", title_align="left")]
    panels.extend(_qute_seat_panel(view, s, me) for s in order)
    return Group(*panels)


def _qute_round_end(info: dict[str, Any], me: int) -> RenderableType:
    """The results of a finished Qute round: hands left, points, multiplier, scores, totals."""
    mult = int(info.get("multiplier", 1))
    table = Table(
        title=f"Round {info['round']} results",
        title_style="bold",
        caption=f"points ×{mult} (blind refilled {mult - 1}×)" if mult > 1 else None,
    )
    table.add_column("Seat", no_wrap=True)
    table.add_column("Cards left")
    table.add_column("Hand", justify="right")
    table.add_column("J points", justify="right")
    table.add_column("Score", justify="right")
    table.add_column("Total", justify="right")
    winners = [int(w) for w in info.get("winners", [])]
    for s, cards in enumerate(info["hands"]):
        hand: list[str] = sorted(cards, key=_qute_key)
        name = _who(s, me)
        if s == info.get("finisher"):
            name += " (Qute)" if info.get("qute") else (" (out)" if not hand else " (last turn)")
        if s in winners:
            name += " ★"
        table.add_row(
            Text(name, style="bold green" if s in winners else ""),
            _cards(hand) if hand else Text("none", style="dim"),
            str(info["hand_points"][s]),
            str(info["jpoints"][s]),
            str(info["scores"][s]),
            str(info["totals"][s]),
        )
    return table


def _qute_event(ev: dict[str, Any], me: int) -> list[RenderableType]:
    """A Qute event of ``view["events"]`` in plain words, as seat ``me`` may see it."""
    kind = ev.get("type")
    seat = ev.get("seat")
    who = _who(int(seat), me) if isinstance(seat, int) else ""
    if kind == "round_start":
        first = _who(int(ev["first"]), me)
        return [
            Text(f"Round {ev['round']} begins; {_v(first, 'play', 'plays')} first.", style="bold")
        ]
    if kind == "turn":
        return [Text(f"— {'your' if seat == me else who + chr(39) + 's'} turn —", style="dim")]
    if kind == "play":
        left = int(ev.get("left", 0))
        return [
            _line(
                f"{_v(who, 'lay', 'lays')} ",
                _cards(ev.get("cards", [])),
                f" — {left} card{_s(left)} left" if left else " — no cards left!",
            )
        ]
    if kind == "draw":
        if not ev.get("card"):
            return [
                _line(
                    f"{_v(who, 'cannot', 'cannot')} draw: the blind is empty and there is nothing "
                    "to refill it with"
                )
            ]
        if "drawn" in ev:
            return [
                _line(f"{_v(who, 'draw', 'draws')} ", card_text(ev["drawn"]), " from the blind")
            ]
        return [_line(f"{_v(who, 'draw', 'draws')} a card from the blind")]
    if kind == "penalty":
        count = int(ev.get("count", 0))
        rank = str(ev.get("for"))
        several = count > (2 if rank == "8" else 1)
        reason = f"the {rank}{'s' if several else ''}"
        skipped = (" and are skipped" if who == "you" else " and is skipped") if rank == "8" else ""
        if not count:
            also = f"; {_v(who, 'are', 'is')} skipped all the same" if rank == "8" else ""
            return [
                _line(f"{who} should draw for {reason}, but no card is left{also}", style="red")
            ]
        cards = ev.get("cards")
        return [
            _line(
                f"{_v(who, 'draw', 'draws')} {count} card{_s(count)} for {reason}{skipped}",
                ": " if cards else None,
                _cards(cards) if cards else None,
                style="red",
            )
        ]
    if kind == "refill":
        k = int(ev.get("refills", 0))
        n = ev.get("blind")
        return [
            _line(
                f"The blind ran out: the stack under its top card was shuffled into a new blind "
                f"of {n} card{_s(n)} (refill {k}: round points now count ×{k + 1})",
                style="yellow",
            )
        ]
    if kind == "skip":
        seats = [int(s) for s in ev.get("seats", [])]
        names = [
            _who(s, me) + _times(seats.count(s)) for i, s in enumerate(seats) if s not in seats[:i]
        ]
        verb = "the ace skips " if len(seats) == 1 else "the aces skip "
        return [_line(verb + _and(names))]
    if kind == "qute":
        return [_line(f"{_v(who, 'call', 'calls')} Qute! The round ends.", style="bold yellow")]
    if kind == "continue":
        return [_line(f"{_v(who, 'let', 'lets')} the chance of Qute pass and play on (continue)")]
    if kind == "suit":
        suit = str(ev.get("suit"))
        return [_line(f"{_v(who, 'choose', 'chooses')} {QUTE_SUITS.get(suit, suit)} ({suit})")]
    if kind == "eights":
        if ev.get("mode") == "all":
            return [_line(f"{_v(who, 'choose', 'chooses')} eights all: the others draw in turn")]
        return [_line(f"{_v(who, 'choose', 'chooses')} eights next: the next seat draws them all")]
    if kind == "jpoints":
        if ev.get("mode") == "minus":
            own = "your" if who == "you" else "its"
            return [_line(f"{_v(who, 'take', 'takes')} the J points off {own} own score")]
        return [_line(f"{_v(who, 'give', 'gives')} the J points to every other seat")]
    if kind == "dead_end":
        return [
            _line(
                f"{_v(who, 'have', 'has')} to cover a 6 but can neither play nor draw: "
                "the round ends",
                style="yellow",
            )
        ]
    if kind == "max_turns":
        return [_line(f"{ev.get('turns')} turns without an end: the round stops (safety net)")]
    if kind == "round_end":
        return [Text(f"Round {ev.get('round')} is over.", style="bold"), _qute_round_end(ev, me)]
    if kind == "game_over":
        return [Text("The game is over.", style="bold")]
    public = {k: v for k, v in ev.items() if k not in ("seq", "type")}
    return [Text(f"{kind}: {public}")]


# ---------------------------------------------------------------------------- by game
@dataclass(frozen=True)
class Front:
    """How the terminal draws one game: its table, its events, its round results, its notation."""

    table: Callable[[dict[str, Any], int, str], RenderableType]
    """Draws the table from a seat's view: ``table(view, me, title)``."""
    event: Callable[[dict[str, Any], int], list[RenderableType]]
    """Puts one event of a view into words: ``event(ev, me)``."""
    round_end: Callable[[dict[str, Any], int], RenderableType]
    """Draws one entry of ``view["round_results"]`` (or a ``round_end`` event)."""
    notation: tuple[tuple[str, str], ...]
    """What to type, as ``(text, meaning)`` rows for ``help``."""
    note: str
    """A line shown under the ``help`` table."""


_FAMILY_NOTE = (
    "Addresses: N is your own position N; P.N is seat P's position N. "
    f"A card you can see is shown by its code (7H, 10C, QS), one you cannot as {FACE_DOWN}; "
    "the line under a card lists who has looked at it."
)
_NO_MEMORY_NOTE = (
    "No memory aid (the default): a face-down card is shown only at the moment you see it — in "
    "the line that reports it and in the next table (row 'Seen now') — and is "
    f"{FACE_DOWN} again after that, so remember it. 'cardtable play --memory-aid' keeps every "
    "card you have seen shown."
)
_GABO_NOTE = " In gabo the two cards of your initial peek stay shown until your first draw."
_MEMORY_NOTE = "Memory aid on: every card you have seen stays shown."
_QUTE_NOTE = (
    "Cards are written rank then suit: 6H, 10C, QS (lower case works too). "
    f"{PLAYABLE_MARK} marks the cards of your hand a play may start with; "
    f"the other hands are shown face down as {FACE_DOWN}."
)

FRONTS: dict[str, Front] = {
    **{
        name: Front(
            _family_view,
            _family_event,
            _family_round_end,
            tuple(_NOTATION["common"] + _NOTATION[name]),
            _FAMILY_NOTE,
        )
        for name in FAMILY
    },
    "qute": Front(_qute_view, _qute_event, _qute_round_end, tuple(_NOTATION["qute"]), _QUTE_NOTE),
}
"""Every game this front end can draw, by variant name."""

PLAYABLE = tuple(FRONTS)
"""Variants ``cardtable play`` accepts."""


def front(game: str | None) -> Front:
    """The :class:`Front` of variant ``game`` (``None``: the Cabo family's).

    Raises ``ValueError`` for a game the terminal cannot draw.
    """
    if game is None:
        return FRONTS[FAMILY[0]]
    if game not in FRONTS:
        raise ValueError(f"the terminal cannot draw {game}; playable here: {', '.join(PLAYABLE)}")
    return FRONTS[game]


def render_view(view: dict[str, Any], me: int, title: str = "") -> RenderableType:
    """Draw the table from seat ``me``'s view alone (the game is read from ``view["game"]``)."""
    return front(str(view["game"])).table(view, me, title)


def describe_event(ev: dict[str, Any], me: int, game: str | None = None) -> list[RenderableType]:
    """An event of ``view["events"]`` of variant ``game`` in plain words, as seat ``me`` sees it.

    ``game`` defaults to the Cabo family.
    """
    return front(game).event(ev, me)


def render_round_end(info: dict[str, Any], me: int, game: str | None = None) -> RenderableType:
    """The results of a finished round of variant ``game`` (default: the Cabo family)."""
    return front(game).round_end(info, me)


# ---------------------------------------------------------------------------- rules text
def rules_markdown(name: str) -> str:
    """The rules of variant ``name`` in Markdown, with its option table from the registry.

    Raises ``ValueError`` for an unknown variant.
    """
    variant = variants.get(name)
    text = variants.rules_text(variant.name)
    lines = [
        "",
        "## Options",
        "",
        f"Players: {variant.min_players} to {variant.max_players} "
        f"(default {variant.default_players}). "
        "Set options with `--target` and `-o NAME=VALUE` on `cardtable play`.",
        "",
        "| option | default | what it does |",
        "|---|---|---|",
    ]
    for opt in variant.options:
        default = "none" if opt.default is None else str(opt.default).lower()
        lines.append(f"| `{opt.name}` | {default} | {opt.doc} |")
    return text + "\n".join(lines) + "\n"


def _help(game: str, memory_aid: bool = False) -> RenderableType:
    shown = front(game)
    note = shown.note
    if game in FAMILY:
        memory = _MEMORY_NOTE if memory_aid else _NO_MEMORY_NOTE
        note += " " + memory + (_GABO_NOTE if game == "gabo" and not memory_aid else "")
    table = Table(title="What to type", title_style="bold", show_lines=False)
    table.add_column("input", style="bold", no_wrap=True)
    table.add_column("meaning")
    table.add_row("a number", "the action with that number in the list of legal actions")
    for word, meaning in shown.notation:
        table.add_row(word, meaning)
    table.add_row("help", "this list")
    table.add_row("rules", "the rules of this game")
    hidden = game in FAMILY and not memory_aid
    table.add_row(
        "table",
        "draw the table again" + (" (no card you saw earlier: no memory aid)" if hidden else ""),
    )
    table.add_row("quit", "leave the game")
    return Group(table, Text(note, style="dim"))


# ---------------------------------------------------------------------------- the loop
def _reader(source: Iterable[str] | InputFn, console: Console) -> InputFn:
    if callable(source):
        return source
    lines: Iterator[str] = iter(source)

    def read(prompt: str) -> str:
        try:
            line = next(lines)
        except StopIteration:
            raise EOFError from None
        console.print(Text(prompt, style="bold") + Text(line))
        return line

    return read


def _sights(ev: dict[str, Any]) -> list[tuple[str, str]]:
    """The face-down cards event ``ev`` (as the seat sees it) showed: ``(address, code)`` pairs.

    A peek, spy or look shows its looker the cards (another seat's carries no code); a failed
    claim (``cabo``) or a failed drop (``cabo-german``) shows everyone cards that go back face
    down.
    """
    kind = ev.get("type")
    at = ev.get("at")
    addrs = [at] if isinstance(at, str) else [str(a) for a in at or []]
    if kind in ("peek", "spy") or (kind == "drop" and ev.get("ok") is False):
        return [(addrs[0], str(ev["card"]))] if addrs and "card" in ev else []
    if kind == "look" or (kind == "claim" and ev.get("ok") is False):
        codes = ev.get("cards" if kind == "look" else "shown") or []
        return list(zip(addrs, [str(c) for c in codes], strict=False))
    return []


def _note_sights(events: Iterable[dict[str, Any]], sights: dict[str, str]) -> None:
    """Add to ``sights`` (address → code: what the seat has seen since the last table) the
    cards ``events`` showed; a new deal forgets them."""
    for ev in events:
        if ev.get("type") == "round_start":
            sights.clear()
        sights.update(_sights(ev))


def _table_view(game: Game, me: int, memory_aid: bool, sights: dict[str, str]) -> dict[str, Any]:
    """The view a table is drawn from, with the terminal's own keys ``memory_aid`` and
    ``seen_now``.

    With the memory aid it is ``view(me)``: every card the seat has ever known. Without it, it
    is ``view(me, memory=False)`` plus the face-down cards in ``sights`` — those the seat has
    just seen — each only where ``view(me)`` still knows that card: a card moved since (a
    replace, a blind exchange, a drop …) is not shown at its old place (unless, in the Cabo
    deck, whose values repeat, a known card of the same value took it), and the table never
    names a card the seat does not know.
    """
    if memory_aid:
        return {**game.view(me), "memory_aid": True}
    view = {**game.view(me, memory=False), "memory_aid": False}
    if not sights or view["game"] not in FAMILY:
        return view
    known: list[list[dict[str, Any] | None]] = game.view(me)["hands"]
    hands: list[list[dict[str, Any] | None]] = [list(hand) for hand in view["hands"]]
    seen_now: dict[str, str] = {}
    for addr, code in sights.items():
        seat, _, pos = addr.partition(".")
        s, p = int(seat), int(pos)
        if not (0 <= s < len(hands) and 0 <= p < len(hands[s])):
            continue
        cell, memo = hands[s][p], known[s][p]
        if cell is None or memo is None or memo["card"] != code or cell["card"] is not None:
            continue  # gone, moved, or already shown (gabo's initial peek)
        hands[s][p] = {**cell, "card": code}
        seen_now[addr] = code
    return {**view, "hands": hands, "seen_now": seen_now}


def _print_events(
    events: Iterable[dict[str, Any]], me: int, console: Console, shown: Front
) -> None:
    """Print events (as seat ``me`` sees them: ``Event.for_seat``) in words."""
    for ev in events:
        for part in shown.event(ev, me):
            console.print(part)


def play_loop(
    game: Game,
    seat: int,
    console: Console,
    source: Iterable[str] | InputFn,
    *,
    bot_seed: int = 0,
    opponents: str = "casual",
    memory_aid: bool = False,
) -> bool:
    """Play ``game`` to its end in the terminal: ``seat`` is the human, the others are bots.

    ``game`` is a new game: the loop starts by printing its ``opening_events``, then the events
    each move returns. ``source`` gives the human's lines (an iterable, or a callable taking
    the prompt); running out of input counts as ``quit``. Bots are ``opponents`` agents (a name
    or level from :mod:`cardtable.agents`) seeded from ``bot_seed``; whenever the human seat is
    among the actors (also in simultaneous phases) the human acts first.

    Without ``memory_aid`` (the default) the human plays as a person without memory aid: a
    face-down card is shown in the event line that reports its sight and in the next table
    only. With it, every card the seat has seen stays shown. Returns ``True`` if the game was
    played to its end, ``False`` if the human quit.
    """
    shown = front(game.variant)
    read = _reader(source, console)
    bots = [agents.get(opponents, seed=bot_seed * 16 + s) for s in range(game.players)]
    title = variants.get(game.variant).title
    sights: dict[str, str] = {}  # face-down cards seen since the last table: address → code
    seen = [ev.for_seat(seat) for ev in game.opening_events]
    _print_events(seen, seat, console, shown)
    _note_sights(seen, sights)
    while not game.over:
        if seat in game.actors:
            view = _table_view(game, seat, memory_aid, sights)
            sights.clear()  # shown once: later tables hide them again
            console.print(shown.table(view, seat, title))
            legal: list[str] = view["legal"]
            console.print(render_legal(legal))
            while True:
                try:
                    line = read(PROMPT)
                except EOFError:
                    line = "quit"
                text = line.strip()
                word = text.lower()
                if not text:
                    continue
                if word in ("quit", "exit", "q"):
                    console.print(Text("You left the game.", style="bold"))
                    return False
                if word in ("help", "h", "?"):
                    console.print(_help(game.variant, memory_aid))
                    continue
                if word == "rules":
                    console.print(Markdown(rules_markdown(game.variant)))
                    continue
                if word == "table":
                    again = _table_view(game, seat, memory_aid, {})
                    console.print(shown.table(again, seat, title))
                    console.print(render_legal(legal))
                    continue
                if word.isdigit():
                    k = int(word)
                    if not 1 <= k <= len(legal):
                        console.print(Text(f"choose a number from 1 to {len(legal)}", style="red"))
                        continue
                    text = legal[k - 1]
                try:
                    events = game.play(seat, text)
                except IllegalAction as err:
                    console.print(Text(str(err), style="red"))
                    continue
                break
        else:
            bot = game.actors[0]
            events = game.play(bot, bots[bot].act(game, bot))
        seen = [ev.for_seat(seat) for ev in events]
        _print_events(seen, seat, console, shown)
        _note_sights(seen, sights)
    console.print(render_result(game.view(seat, memory=memory_aid), seat))
    return True


# ---------------------------------------------------------------------------- commands
app = typer.Typer(
    help="Play the Cabo family (cabo, cabo-german, gabo, kaboo) and Qute in the terminal.",
    no_args_is_help=True,
    add_completion=False,
)


def _fail(message: str) -> NoReturn:
    Console(stderr=True).print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code=2)


def parse_option(text: str, variant: str) -> tuple[str, Any]:
    """Turn ``NAME=VALUE`` into an option for ``variant``; ``ValueError`` if it makes no sense."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise ValueError(f"options are written NAME=VALUE, got {text!r}")
    specs = {o.name: o for o in variants.get(variant).options}
    if name not in specs:
        raise ValueError(
            f"unknown option {name!r} for {variant}; known options: " + ", ".join(sorted(specs))
        )
    types = specs[name].types
    low = raw.lower()
    if low in ("none", "null") and type(None) in types:
        return name, None
    if bool in types:
        if low in ("true", "yes", "on", "1"):
            return name, True
        if low in ("false", "no", "off", "0"):
            return name, False
    if int in types:
        try:
            return name, int(raw)
        except ValueError:
            pass
    want = " or ".join("none" if t is type(None) else t.__name__ for t in types)
    raise ValueError(f"option {name!r} must be {want}, got {raw!r}")


@app.command()
def play(
    variant: Annotated[
        str, typer.Argument(help="the game: cabo, cabo-german, gabo, kaboo or qute")
    ],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of seats (default: the game's)")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="seed for the deal and the bots")] = 0,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 is the first)")] = 0,
    target: Annotated[
        str | None,
        typer.Option("--target", "-t", help="points that end the match, or 'none' for one round"),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="any rule option as NAME=VALUE (repeatable)"),
    ] = None,
    opponents: Annotated[
        str,
        typer.Option(
            "--opponents",
            "-a",
            help="the bots' level (beginner, casual, expert, master) or agent (random, …)",
        ),
    ] = "casual",
    memory_aid: Annotated[
        bool,
        typer.Option(
            "--memory-aid",
            help="keep every card you have seen shown (default: a face-down card is shown only "
            "when you see it — a peek, spy or look — and then hidden again)",
        ),
    ] = False,
) -> None:
    """Play one game against AI opponents (casual by default).

    A memory game: without --memory-aid, a card you look at is shown only once — remember it.
    """
    try:
        name = variants.get(variant).name
    except ValueError as err:
        _fail(str(err))
    try:
        agents.get(opponents)
    except ValueError as err:
        _fail(str(err))
    if name not in FRONTS:
        _fail(f"the terminal cannot draw {name} yet; playable here: {', '.join(PLAYABLE)}")
    options: dict[str, Any] = {}
    try:
        for text in option or []:
            key, value = parse_option(text, name)
            options[key] = value
        if target is not None:
            options["target"] = parse_option(f"target={target}", name)[1]
        game = new_game(name, players=players, seed=seed, options=options)
    except ValueError as err:
        _fail(str(err))
    if not 0 <= seat < game.players:
        _fail(f"--seat must be a seat from 0 to {game.players - 1}, got {seat}")
    console = Console()
    try:
        play_loop(
            game,
            seat,
            console,
            console.input,
            bot_seed=seed,
            opponents=opponents,
            memory_aid=memory_aid,
        )
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        raise typer.Exit(code=130) from None


@app.command()
def rules(
    variant: Annotated[str, typer.Argument(help="the game whose rules to print")],
) -> None:
    """Print the rules of a game, with its notation and options."""
    try:
        text = rules_markdown(variant)
    except ValueError as err:
        _fail(str(err))
    Console().print(Markdown(text))


@app.command("variants")
def list_variants() -> None:
    """List the games, their player counts and a one-line summary."""
    table = Table(title="Games", title_style="bold")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("title")
    table.add_column("players", no_wrap=True)
    table.add_column("summary")
    for name in variants.names():
        v = variants.get(name)
        table.add_row(
            name,
            v.title,
            f"{v.min_players}–{v.max_players} ({v.default_players})",
            v.summary,
        )
    Console().print(table)


# ---------------------------------------------------------------------------- the arena
def arena_table(result: ArenaResult) -> Table:
    """The arena's results as a Rich table, best win rate first.

    Columns: agent, games (seats, when an agent fills several seats of a game), win rate
    with its 95% Wilson interval, mean final score ± its standard error, openskill rating
    μ ± σ, and milliseconds per decision (mean / 95th percentile). Failures get a column when
    there are any.
    """
    seats_differ = any(s.seats != s.games for s in result.stats)
    table = Table(
        title=f"{result.variant}: {result.players} players, {result.games} games",
        title_style="bold",
        caption=(
            f"seed {result.seed} · seating period {result.period} · {result.elapsed:.1f} s, "
            f"{result.workers} {result.backend} worker{_s(result.workers)} · "
            f"equal agents win {1 / result.players:.3f}"
        ),
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("agent", style="bold", no_wrap=True)
    table.add_column("seats" if seats_differ else "games", justify="right", no_wrap=True)
    table.add_column("win rate\n[95% CI]", justify="right", no_wrap=True)
    table.add_column("mean score\n± s.e.", justify="right", no_wrap=True)
    table.add_column("rating\nμ ± σ", justify="right", no_wrap=True)
    table.add_column("ms/move\nmean / p95", justify="right", no_wrap=True)
    if result.failures:
        table.add_column("failures", justify="right", style="red")
    for st in sorted(result.stats, key=lambda x: (-x.win_rate, -x.ordinal)):
        row = [
            st.label,
            str(st.seats if seats_differ else st.games),
            f"{st.win_rate:.3f} [{st.ci_low:.3f}, {st.ci_high:.3f}]",
            f"{st.mean_score:.1f} ± {st.score_se:.1f}",
            f"{st.mu:.1f} ± {st.sigma:.1f}",
            f"{st.time_mean * 1000:.3g} / {st.time_p95 * 1000:.3g}",
        ]
        if result.failures:
            row.append(str(st.failures))
        table.add_row(*row)
    return table


def head_to_head_table(result: ArenaResult) -> Table | None:
    """How often the row's agent finished ahead of the column's (``None`` for two entrants)."""
    h2h = result.head_to_head
    if h2h is None:
        return None
    table = Table(title="Head to head: row finished ahead of column", title_style="bold")
    table.add_column("", style="bold", no_wrap=True)
    for label in result.labels:
        table.add_column(label, justify="right")
    for a, label in enumerate(result.labels):
        cells = []
        for b in range(len(result.labels)):
            rate = h2h.rate(a, b)
            cells.append("–" if rate is None else f"{rate:.3f}")
        table.add_row(label, *cells)
    return table


@app.command("arena")
def arena_command(
    variant: Annotated[
        str, typer.Argument(help="the game: cabo, cabo-german, gabo, kaboo or qute")
    ],
    agent_list: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            help="comma-separated agent names or levels, e.g. expert,heuristic (repeat a name "
            "to play an agent against itself)",
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="games to play")] = 200,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="seats per game (default: one per agent if the game allows, else the game's)",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="seed of the whole run")] = 0,
    backend: Annotated[
        str, typer.Option("--backend", "-b", help="process (default), ray or serial")
    ] = "process",
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", help="worker processes or Ray CPUs (default: all CPUs)"),
    ] = None,
    address: Annotated[
        str | None, typer.Option("--address", help="address of a running Ray cluster")
    ] = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="write every result and game as JSON")
    ] = None,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="write one row per agent as CSV")
    ] = None,
    chart_path: Annotated[
        Path | None, typer.Option("--chart", help="draw the win rates as a PNG chart")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="any rule option as NAME=VALUE (repeatable)"),
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="replay each deal once per seat rotation (less luck in the comparison)",
        ),
    ] = True,
) -> None:
    """Play agents against each other over many seeded games and compare them.

    Seats rotate so that every agent sits in every seat equally often; the same seed gives the
    same games and the same numbers on any backend. Exit code 1 if an agent broke a game.
    """
    names = [n.strip() for n in agent_list.split(",") if n.strip()]
    if not names:
        _fail("--agents needs at least one agent name, e.g. --agents heuristic,random")
    options: dict[str, Any] = {}
    try:
        name = variants.get(variant).name
        for text in option or []:
            key, value = parse_option(text, name)
            options[key] = value
        name, seats, options = check_settings(
            name, names, games, players, seed, backend, workers, options
        )
    except ValueError as err:  # ArenaError is a ValueError
        _fail(str(err))
    console = Console()
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console) as bar:
            task = bar.add_task(f"{name} · {' vs '.join(names)}", total=games)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = run_arena(
                name,
                names,
                games,
                players=seats,
                seed=seed,
                backend=backend,
                workers=workers,
                address=address,
                options=options,
                progress=advance,
                duplicate=duplicate,
            )
    except ArenaError as err:
        _fail(str(err))
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        raise typer.Exit(code=130) from None
    console.print(arena_table(result))
    pairs = head_to_head_table(result)
    if pairs is not None:
        console.print(pairs)
    try:
        for path, write in (
            (json_path, result.to_json),
            (csv_path, result.to_csv),
            (chart_path, result.chart),
        ):
            if path is not None:
                write(path)
                console.print(f"wrote {path}")
    except (OSError, ArenaError) as err:
        _fail(str(err))
    if result.failures:
        err_console = Console(stderr=True)
        for failure in result.failures[:10]:
            info = failure.to_dict(result.labels)
            who = info["agent"] or "no agent"
            did = f" playing {info['action']!r}" if info["action"] else ""
            err_console.print(
                Text(f"game {info['game']}: {who} (seat {info['seat']}){did}: {info['error']}")
            )
        more = len(result.failures) - 10
        if more > 0:
            err_console.print(f"… and {more} more")
        err_console.print(
            Text(
                f"error: {len(result.failures)} game{_s(len(result.failures))} stopped "
                "because an agent failed; they are left out of the statistics",
                style="bold red",
            )
        )
        raise typer.Exit(code=1)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="SQLAlchemy URL of the store, e.g. sqlite+aiosqlite:///cardtable.db "
            "or postgresql+asyncpg://user@host/db",
        ),
    ] = "sqlite+aiosqlite:///cardtable.db",
    ai_delay: Annotated[
        float, typer.Option("--ai-delay", help="seconds an AI seat waits before it acts")
    ] = 0.8,
    peek_window: Annotated[
        float, typer.Option("--peek-window", help="seconds the initial-peek phase stays open")
    ] = 30.0,
    snap_window: Annotated[
        float, typer.Option("--snap-window", help="seconds a gabo snap window stays open")
    ] = 5.0,
    ai_workers: Annotated[
        int | None,
        typer.Option(
            "--ai-workers",
            help="worker processes that compute the moves of the search levels (expert, "
            "master) beside the server; default: one per CPU; 0 runs them in a thread of the "
            "server instead (for debugging)",
            show_default=False,
        ),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level")] = "warning",
) -> None:
    """Run the web app: rooms, AI opponents and the browser table (prints its URL)."""
    try:
        import uvicorn

        from .web.app import create_app
    except ImportError as err:  # pragma: no cover - depends on the install
        _fail(f"the web app needs the 'web' extra: pip install 'cardtable[web]' ({err})")
    if min(ai_delay, peek_window, snap_window) < 0:
        _fail("delays and windows cannot be negative")
    if ai_workers is not None and ai_workers < 0:
        _fail("--ai-workers cannot be negative")
    application = create_app(
        db,
        ai_delay=ai_delay,
        peek_window=peek_window,
        snap_window=snap_window,
        ai_workers=ai_workers,
    )
    # bind first, so the URL printed is one that really answers (and a busy port says so)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        _fail(f"cannot listen on {host}:{port}: {err.strerror or err}")
    bound = sock.getsockname()[1]
    config = uvicorn.Config(application, log_level=log_level, ws_max_size=1 << 20)
    server = uvicorn.Server(config)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    Console().print(
        f"cardtable is running at [bold]http://{shown}:{bound}/[/bold]  (Ctrl+C stops it)"
    )
    server.run(sockets=[sock])


def main() -> None:
    """Entry point of the ``cardtable`` console script."""
    app(prog_name="cardtable")
