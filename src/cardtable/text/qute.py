"""How the terminal draws Qute: the table, events, round results and notation.

Hands are held face up by their owners, so there is nothing to remember: the table shows the
human's hand sorted by suit or by rank (as the person chooses), with the cards a play may start
with marked :data:`PLAYABLE_MARK`, and the other hands face down.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..events import Happening, QuteRoundEnd
from ..games.qute.tables import EIGHT_DRAWS, J_POINTS, RUN
from ..views import QuteRoundResult, QuteView, View, is_qute_view
from .phrase import phrase, qute_legend, round_results_title
from .render import (
    FACE_DOWN,
    Front,
    RoundResult,
    TableKeys,
    card_text,
    cards_text,
    discard_pile_text,
    is_qute_result,
    number_word,
    plural_s,
    said_text,
    seat_name,
    status_grid,
    table_layout,
    text_line,
)

__all__ = [
    "HAND_ORDERS",
    "HAND_ROW",
    "PLAYABLE_MARK",
    "QUTE_FRONT",
    "QUTE_RANKS",
    "QUTE_SUITS",
    "QuteTable",
    "playable_cards",
    "sort_hand",
]


class QuteTable(QuteView, TableKeys):
    """A Qute view as a play loop hands it to the table: the game's view plus the loop's own
    keys (:class:`~cardtable.text.render.TableKeys`: ``memory_aid``, ``hand_order``; absent
    from a view that comes straight from the game)."""


def _is_qute_table(view: View) -> TypeGuard[QuteTable]:
    """Whether ``view`` is a Qute view (told apart by ``game``, as every view is)."""
    return is_qute_view(view)


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
    """A card's place in a hand sorted by suit (then rank)."""
    suits = list(QUTE_SUITS)
    rank, suit = code[:-1], code[-1:]
    return (
        suits.index(suit) if suit in suits else len(suits),
        QUTE_RANKS.index(rank) if rank in QUTE_RANKS else len(QUTE_RANKS),
    )


def _rank_key(code: str) -> tuple[int, int]:
    """A card's place in a hand sorted by rank (then suit)."""
    by_suit = _qute_key(code)
    return by_suit[1], by_suit[0]


HAND_ORDERS = ("suit", "rank")
"""The ways a Qute hand can be sorted (the person chooses; the terminal remembers)."""


def sort_hand(cards: Sequence[str], order: str = "suit") -> list[str]:
    """``cards`` sorted by suit then rank (``order`` ``suit``) or by rank then suit
    (``rank``)."""
    return sorted(cards, key=_rank_key if order == "rank" else _qute_key)


def _v(who: str, you: str, other: str) -> str:
    """``who`` with the verb form that fits it: ``you draw`` / ``seat 1 draws``."""
    return f"{who} {you if who == 'you' else other}"


def playable_cards(legal: Sequence[str]) -> list[str]:
    """The cards a legal ``play`` may start with (the first card of each ``play`` action)."""
    first: list[str] = []
    for text in legal:
        words = text.split()
        if len(words) > 1 and words[0] == "play" and words[1] not in first:
            first.append(words[1])
    return first


def _qute_hand(view: QuteTable) -> RenderableType:
    """Your Qute hand, sorted by suit or by rank (the play loop's ``hand_order`` key), the
    playable cards marked underneath."""
    order = str(view.get("hand_order", "suit"))
    hand = sort_hand(view.get("hand") or [], order)
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


def _qute_seat_panel(view: QuteTable, seat: int, me: int) -> Panel:
    count = int(view["counts"][seat])
    tags = [f"{count} card{plural_s(count)}", f"total {view['totals'][seat]}"]
    if seat == me:
        order = str(view.get("hand_order", "suit"))
        tags.append(f"sorted by {order} ('sort' turns it)")
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


def _qute_now(view: QuteView, me: int) -> Text:
    """What the game waits for, in words."""
    phase = str(view["phase"])
    turn = int(view["turn"])
    who = seat_name(turn, me)
    laid: list[str] = view.get("laid") or []
    pending = view.get("pending")
    if pending == "qute":
        rank = view["run"]["rank"]
        return Text(
            f"{number_word(RUN)} {rank}s in a row on top, some laid by {who} this turn: {who} "
            "may call 'qute' (the round ends now) or 'continue'"
        )
    if pending == "suit":
        return Text(f"{who} laid a J: {who} must choose the suit to follow (suit C|D|H|S)")
    if pending == "eights":
        k = sum(1 for c in laid if c[:-1] == "8")
        nxt = seat_name((turn + 1) % int(view["players"]), me)
        return Text(
            f"{who} laid {k} 8s: 'eights next' — {_v(nxt, 'draw', 'draws')} {EIGHT_DRAWS * k} "
            f"and {'are' if nxt == 'you' else 'is'} skipped; 'eights all' — the other seats draw "
            f"{number_word(EIGHT_DRAWS)} each, one 8 at a time, in turn from the next, and play "
            "goes on after the last to draw"
        )
    if pending == "jpoints":
        k = sum(1 for c in laid if c[:-1] == "J")
        whose = "your" if who == "you" else who + "'s"
        return Text(
            f"the round ends and {_v(who, 'have', 'has')} laid {k} J{plural_s(k)} this turn: "
            f"'jpoints minus' — {J_POINTS * k} off {whose} round score; 'jpoints plus' — "
            f"{J_POINTS * k} onto every other seat's"
        )
    top = view.get("top")
    if phase == "cover":
        suit = str(top)[-1:]
        return text_line(
            card_text(top),
            f" on top must be covered by {who}: a card of {QUTE_SUITS.get(suit, suit)}, another "
            "6 or a J; if nothing fits, draw until something does",
        )
    if turn != me:
        return Text(f"{who} is playing")
    legal: list[str] = view.get("legal") or []
    drawn = view.get("drawn")
    if drawn is not None:
        return text_line(
            "the card you drew, ",
            card_text(drawn),
            ", fits: you must play it (more of its rank may follow)",
        )
    if legal == ["draw"]:
        return Text("nothing in your hand fits: draw a card from the blind")
    if top is None:
        return Text("the stack is empty: lay any card (cards marked ▲ may start a play)")
    return Text("lay cards that fit the top (marked ▲); you must play when you can")


def _qute_view(view: QuteTable, me: int, title: str = "") -> RenderableType:
    """A Qute table from seat ``me``'s view: status, the other seats, then your hand."""
    target = view.get("target")
    match = "single round" if target is None else f"match: ends when a total goes over {target}"
    status = status_grid(view, title, match)
    phase = str(view["phase"])
    status.add_row("Phase", _QUTE_PHASES.get(phase, phase))
    if phase != "over":
        status.add_row("Now", _qute_now(view, me))
        status.add_row(
            "Turn",
            f"{seat_name(int(view['turn']), me)} "
            f"(first this round: {seat_name(int(view['first']), me)}) "
            f"· turn {int(view['turns']) + 1} (the round stops after {view['max_turns']})",
        )
    stack: list[str] = view.get("stack") or []
    status.add_row(
        "Stack",
        discard_pile_text(stack) if stack else Text("empty — any card may be laid", style="dim"),
    )
    if view.get("suit"):
        suit = str(view["suit"])
        status.add_row("Suit", f"{QUTE_SUITS.get(suit, suit)} ({suit}) was chosen for the J")
    run = view.get("run") or {}
    run_cards: list[str] = run.get("cards") or []
    if run_cards:
        n = len(run_cards)
        more = RUN - n
        status.add_row(
            "Run",
            text_line(
                f"{n} × {run['rank']} on top ",
                cards_text(run_cards),
                f" — {more} more make{'s' if more == 1 else ''} Qute"
                if more > 0
                else " — Qute reached",
            ),
        )
    refills = int(view["refills"])
    status.add_row(
        "Blind",
        f"{view['blind']} card{plural_s(view['blind'])} · refilled {refills}× · "
        f"points count ×{view['multiplier']}",
    )
    laid: list[str] = view.get("laid") or []
    if laid and phase != "over":
        status.add_row(
            "Laid",
            text_line(cards_text(laid), f" by {seat_name(int(view['turn']), me)} this turn"),
        )
    if view.get("drawn") is not None:
        status.add_row("Drawn", text_line("you drew ", card_text(view["drawn"]), " this turn"))
    counts = [int(c) for c in view.get("penalty_counts") or []]
    if any(counts):
        parts: list[str | Text | None] = []
        for s, c in enumerate(counts):
            if not c:
                continue
            if parts:
                parts.append(" · ")
            if s == me:
                parts.extend(["you drew ", cards_text(view.get("penalty_drawn") or [])])
            else:
                parts.append(f"seat {s} drew {c} card{plural_s(c)}")
        status.add_row("7s/8s", text_line(*parts, " for the 7s/8s of the last turn"))
    return table_layout(status, view, me, _qute_seat_panel)


def _qute_table(view: View, me: int, title: str = "") -> RenderableType:
    """The front's table: :func:`_qute_view` once ``view`` is known to be a Qute one."""
    if not _is_qute_table(view):
        raise ValueError(f"not a Qute view: game {view.get('game')!r}")
    return _qute_view(view, me, title)


def _qute_result(info: RoundResult) -> QuteRoundResult:
    """``info`` once it is known to be a Qute round's results."""
    if not is_qute_result(info):
        raise ValueError("not a Qute round's results")
    return info


def _qute_round_end(info: QuteRoundResult, me: int) -> RenderableType:
    """The results of a finished Qute round: the cards left and their points, J points, the
    multiplier, each seat's score with how it was reached, the totals (a total that hit the
    target exactly and went back to 0 says so), and what each rule means, only where it
    applied."""
    mult = int(info.get("multiplier", 1))
    jpoints = [int(j) for j in info["jpoints"]]
    table = Table(
        title=round_results_title(info["round"]),
        title_style="bold",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("Seat", no_wrap=True)
    table.add_column("Cards left")
    table.add_column("Points", justify="right")
    if any(jpoints):
        table.add_column("J points", justify="right")
    if any(jpoints) or mult > 1:
        table.add_column("How")
    table.add_column("Score", justify="right")
    table.add_column("Total", justify="right")
    winners = [int(w) for w in info.get("winners", [])]
    reset = [int(r) for r in info.get("reset") or []]
    for s, cards in enumerate(info["hands"]):
        hand: list[str] = sorted(cards, key=_qute_key)
        name = seat_name(s, me)
        if s == info.get("finisher"):
            name += " (Qute)" if info.get("qute") else (" (out)" if not hand else " (last turn)")
        if s in winners:
            name += " ★"
        points, j = int(info["hand_points"][s]), jpoints[s]
        how = f"{points} {'+' if j >= 0 else '−'} {abs(j)}" if j else str(points)
        if mult > 1:
            how = f"({how}) × {mult}" if j else f"{how} × {mult}"
        total = str(info["totals"][s])
        if s in reset:
            total += " (exactly the target: back to 0)"
        row: list[RenderableType] = [
            Text(name, style="bold green" if s in winners else ""),
            cards_text(hand) if hand else Text("none", style="dim"),
            str(points),
        ]
        if any(jpoints):
            row.append(f"{j:+d}" if j else "–")
        if any(jpoints) or mult > 1:
            row.append(how)
        row += [str(info["scores"][s]), total]
        table.add_row(*row)
    legend = qute_legend(any(jpoints), mult, bool(reset), J_POINTS)
    return Group(table, Text(legend, style="dim"))


def _qute_event(ev: Happening, me: int) -> list[RenderableType]:
    """A Qute event in words (:func:`.phrase.phrase`), as seat ``me``
    may see it, its cards styled; a round's end adds its results."""
    line = said_text(phrase(ev, me))
    if isinstance(ev, QuteRoundEnd):
        return [line, _qute_round_end(ev.result, me)]
    return [line]


_NOTATION = (
    (
        "play C …",
        "lay cards of one rank (play 8D, play 8D 8H): the first must fit the top card, "
        "the last ends on top",
    ),
    ("draw", "nothing fits: take a card from the blind (while covering a 6, until one fits)"),
    ("suit S", "after laying a J: the suit to follow (suit C, D, H or S)"),
    (
        "eights all|next",
        f"after two or more 8s (3+ players): the other seats draw {number_word(EIGHT_DRAWS)} "
        "each, one 8 at a time in turn, and play goes on after the last to draw (all); or the "
        f"next seat draws {number_word(EIGHT_DRAWS)} per 8 and is skipped (next)",
    ),
    (
        "qute / continue",
        f"after a run of {number_word(RUN)} of a rank: end the round now, or play on",
    ),
    (
        "jpoints minus|plus",
        f"the round ends on your Js: −{J_POINTS} per J off your score, or +{J_POINTS} per J to "
        "every other seat",
    ),
)
_NOTE = (
    "Cards are written rank then suit: 6H, 10C, QS (lower case works too). "
    f"{PLAYABLE_MARK} marks the cards of your hand a play may start with; "
    f"the other hands are shown face down as {FACE_DOWN}."
)

QUTE_FRONT = Front(
    _qute_table,
    _qute_event,
    lambda info, me: _qute_round_end(_qute_result(info), me),
    _NOTATION,
    _NOTE,
)
"""How the terminal draws Qute (no memory aid: hands are held face up)."""
