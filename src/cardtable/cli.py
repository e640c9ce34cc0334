"""The terminal front end: ``cardtable play``, ``cardtable rules`` and ``cardtable variants``.

It talks to the engine only through the public game contract (``new_game``, ``actors``,
``legal_actions``, ``play``, ``view``, ``over``, ``result``) and draws the table from the
human seat's ``view`` alone, so it can never show a card that seat does not know.

Every card is drawn as ``[7H]`` when the seat knows it and as :data:`FACE_DOWN` when it does
not; the bracket form makes the output easy to check for leaks (see ``tests/test_cli.py``).

The play loop, :func:`play_loop`, takes its input from any iterable of lines or callable
``prompt -> line`` and writes to any Rich :class:`~rich.console.Console`, so tests can feed it
lines and read what it printed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib import resources
from typing import Annotated, Any, NoReturn

import typer
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from . import Game, IllegalAction, new_game, variants
from .rng import Rng

__all__ = [
    "FACE_DOWN",
    "FAMILY",
    "InputFn",
    "app",
    "card_text",
    "describe_event",
    "main",
    "parse_option",
    "play_loop",
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


def render_view(view: dict[str, Any], me: int, title: str = "") -> RenderableType:
    """Draw the table from seat ``me``'s view: status, other hands, then yours at the bottom."""
    players = int(view["players"])
    status = Table.grid(padding=(0, 2))
    status.add_column(style="bold", no_wrap=True)
    status.add_column()
    target = view.get("target")
    match = "single round" if target is None else f"match to {target}"
    status.add_row(
        "Game", f"{title or view['game']} · round {view['round']} · {match} · {players} players"
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
    return Columns(items, padding=(0, 3), title=Text("Legal actions", style="bold"))


def render_round_end(info: dict[str, Any], me: int) -> RenderableType:
    """The results of a finished round: every hand shown, sums, scores and totals."""
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
def describe_event(ev: dict[str, Any], me: int) -> list[RenderableType]:
    """An event of ``view["events"]`` in plain words, as seat ``me`` may see it."""
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
        return [Text(f"Round {ev.get('round')} is over.", style="bold"), render_round_end(ev, me)]
    if kind == "game_over":
        return [Text("The game is over.", style="bold")]
    public = {k: v for k, v in ev.items() if k not in ("seq", "type")}
    return [Text(f"{kind}: {public}")]


# ---------------------------------------------------------------------------- rules text
def rules_markdown(name: str) -> str:
    """The rules of variant ``name`` in Markdown, with its option table from the registry.

    Raises ``ValueError`` for an unknown variant.
    """
    variant = variants.get(name)
    path = resources.files("cardtable").joinpath("rules", f"{variant.name}.md")
    if path.is_file():
        text = path.read_text(encoding="utf-8").rstrip() + "\n"
    else:
        text = f"# {variant.title}\n\n{variant.summary}\n\n(No written rules for this game yet.)\n"
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


def _help(game: str) -> RenderableType:
    table = Table(title="What to type", title_style="bold", show_lines=False)
    table.add_column("input", style="bold", no_wrap=True)
    table.add_column("meaning")
    table.add_row("a number", "the action with that number in the list of legal actions")
    for word, meaning in _NOTATION["common"] + _NOTATION.get(game, []):
        table.add_row(word, meaning)
    table.add_row("help", "this list")
    table.add_row("rules", "the rules of this game")
    table.add_row("table", "draw the table again")
    table.add_row("quit", "leave the game")
    note = Text(
        "Addresses: N is your own position N; P.N is seat P's position N. "
        f"Unknown cards are shown as {FACE_DOWN}; 'seen' lists who has looked at a card.",
        style="dim",
    )
    return Group(table, note)


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


def _print_events(game: Game, me: int, console: Console, after: int, rounds: set[int]) -> int:
    """Print the events of ``view(me)`` newer than ``after``; return the last seq printed.

    ``rounds`` collects the rounds whose results were shown; a round whose ``round_end``
    event fell out of the view's recent events is shown from ``view["round_results"]``.
    """
    view = game.view(me)
    events: list[dict[str, Any]] = view["events"]
    new = [e for e in events if int(e["seq"]) > after]
    if new and after and int(new[0]["seq"]) > after + 1:
        console.print(Text("(… earlier events not shown)", style="dim"))
    for ev in new:
        if ev.get("type") == "round_end":
            rounds.add(int(ev["round"]))
        for part in describe_event(ev, me):
            console.print(part)
    for info in view.get("round_results") or []:
        if int(info["round"]) not in rounds:
            rounds.add(int(info["round"]))
            console.print(render_round_end(info, me))
    return int(new[-1]["seq"]) if new else after


def play_loop(
    game: Game,
    seat: int,
    console: Console,
    source: Iterable[str] | InputFn,
    *,
    bot_seed: int = 0,
) -> bool:
    """Play ``game`` to its end in the terminal: ``seat`` is the human, the others are bots.

    ``source`` gives the human's lines (an iterable, or a callable taking the prompt);
    running out of input counts as ``quit``. Bots choose uniformly among their legal
    actions with a generator seeded by ``bot_seed``; whenever the human seat is among the
    actors (also in simultaneous phases) the human acts first. Returns ``True`` if the game
    was played to its end, ``False`` if the human quit.
    """
    read = _reader(source, console)
    rng = Rng(bot_seed)
    title = variants.get(game.variant).title
    rounds: set[int] = set()
    last = _print_events(game, seat, console, 0, rounds)
    while not game.over:
        if seat in game.actors:
            view = game.view(seat)
            console.print(render_view(view, seat, title))
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
                    console.print(_help(game.variant))
                    continue
                if word == "rules":
                    console.print(Markdown(rules_markdown(game.variant)))
                    continue
                if word == "table":
                    console.print(render_view(game.view(seat), seat, title))
                    console.print(render_legal(legal))
                    continue
                if word.isdigit():
                    k = int(word)
                    if not 1 <= k <= len(legal):
                        console.print(Text(f"choose a number from 1 to {len(legal)}", style="red"))
                        continue
                    text = legal[k - 1]
                try:
                    game.play(seat, text)
                except IllegalAction as err:
                    console.print(Text(str(err), style="red"))
                    continue
                break
        else:
            bot = game.actors[0]
            game.play(bot, rng.pick(game.legal_actions(bot)))
        last = _print_events(game, seat, console, last, rounds)
    console.print(render_result(game.view(seat), seat))
    return True


# ---------------------------------------------------------------------------- commands
app = typer.Typer(
    help="Play the Cabo family of card games (cabo, cabo-german, gabo, kaboo) in the terminal.",
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
    variant: Annotated[str, typer.Argument(help="the game: cabo, cabo-german, gabo or kaboo")],
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
) -> None:
    """Play one game against random opponents."""
    try:
        name = variants.get(variant).name
    except ValueError as err:
        _fail(str(err))
    if name not in FAMILY:
        _fail(f"the terminal cannot draw {name} yet; playable here: {', '.join(FAMILY)}")
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
        play_loop(game, seat, console, console.input, bot_seed=seed)
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


def main() -> None:
    """Entry point of the ``cardtable`` console script."""
    app(prog_name="cardtable")
