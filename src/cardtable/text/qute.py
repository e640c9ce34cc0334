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
from .catalog import has, say, say_text
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
"""Qute's suits in the engine's suit order, with their English names (the tables read each
name from the catalog in use: ``suit.C``)."""

HAND_ROW = 12
"""How many cards of a Qute hand one line shows (and how many face-down cards per seat)."""

PLAYABLE_MARK = "▲"
"""Drawn under the cards of your hand that a legal ``play`` may start with."""


def _words(key: str, word: str) -> str:
    """The message ``key`` where the catalogs have it, else ``word`` as it is."""
    return say(key) if has(key) else word


def _suit_name(suit: str) -> str:
    """A suit's name with its sign (``clubs ♣``), from the catalog in use."""
    return _words(f"suit.{suit}", suit)


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
        return Text(say("tui.no_cards"), style="dim")
    playable = set(playable_cards(view.get("legal") or []))
    drawn = view.get("drawn")
    width = len(FACE_DOWN) + 1
    new = say("tui.qute.new")
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
            mark = PLAYABLE_MARK if code in playable else (new if code == drawn else "")
            left = (len(token.plain) - len(mark)) // 2
            marks.append(" " * left + mark + " " * (width - left - len(mark)))
        lines.append(cards)
        if marks.plain.strip():
            lines.append(marks)
    return Group(*lines)


def _qute_seat_panel(view: QuteTable, seat: int, me: int) -> Panel:
    count = int(view["counts"][seat])
    tags = [say("tui.cards", n=count), say("tui.seat.total", total=view["totals"][seat])]
    if seat == me:
        order = str(view.get("hand_order", "suit"))
        tags.append(_words(f"tui.qute.sorted.{order}", f"sorted by {order}"))
    if seat in view["actors"]:
        tags.append(say("tui.seat.to_act"))
    body: RenderableType
    if seat == me:
        body = _qute_hand(view)
    elif count == 0:
        body = Text(say("tui.no_cards"), style="dim")
    else:
        shown = min(count, HAND_ROW)
        backs = Text(" ").join(card_text(None) for _ in range(shown))
        if count > shown:
            backs.append(" " + say("tui.qute.more", more=count - shown), style="dim")
        body = backs
    border = "yellow" if seat in view["actors"] else ("green" if seat == me else "white")
    return Panel(
        Group(Text(" · ".join(tags), style="dim"), body),
        title=Text(say("tui.seat.you" if seat == me else "tui.seat", seat=seat), style="bold"),
        title_align="left",
        border_style=border,
        expand=False,
    )


def _qute_now(view: QuteView, me: int) -> Text:
    """What the game waits for, in words."""
    phase = str(view["phase"])
    turn = int(view["turn"])
    who, you = seat_name(turn, me), turn == me
    laid: list[str] = view.get("laid") or []
    pending = view.get("pending")
    if pending == "qute":
        rank = view["run"]["rank"]
        return say_text("tui.qute.now.qute", you=you, who=who, count=number_word(RUN), rank=rank)
    if pending == "suit":
        return say_text("tui.qute.now.suit", you=you, who=who)
    if pending == "eights":
        k = sum(1 for c in laid if c[:-1] == "8")
        after = (turn + 1) % int(view["players"])
        return say_text(
            "tui.qute.now.eights.you_next" if after == me else "tui.qute.now.eights",
            you=you,
            who=who,
            eights=k,
            next=seat_name(after, me),
            draws=EIGHT_DRAWS * k,
            each=number_word(EIGHT_DRAWS),
        )
    if pending == "jpoints":
        k = sum(1 for c in laid if c[:-1] == "J")
        return say_text("tui.qute.now.jpoints", n=k, you=you, who=who, points=J_POINTS * k)
    top = view.get("top")
    if phase == "cover":
        suit = _suit_name(str(top)[-1:])
        return say_text("tui.qute.now.cover", you=you, who=who, top=card_text(top), suit=suit)
    if turn != me:
        return say_text("tui.qute.now.playing", who=who)
    legal: list[str] = view.get("legal") or []
    drawn = view.get("drawn")
    if drawn is not None:
        return say_text("tui.qute.now.drawn_fits", card=card_text(drawn))
    if legal == ["draw"]:
        return say_text("tui.qute.now.draw")
    if top is None:
        return say_text("tui.qute.now.empty", mark=PLAYABLE_MARK)
    return say_text("tui.qute.now.play", mark=PLAYABLE_MARK)


def _qute_view(view: QuteTable, me: int, title: str = "") -> RenderableType:
    """A Qute table from seat ``me``'s view: status, the other seats, then your hand."""
    target = view.get("target")
    match = say("tui.single_round") if target is None else say("tui.qute.match_to", target=target)
    status = status_grid(view, title, match)
    phase = str(view["phase"])

    def row(label: str, value: str | Text) -> None:
        status.add_row(say(f"tui.qute.status.{label}"), value)

    row("phase", _words(f"tui.qute.phase.{phase}", phase))
    turn = int(view["turn"])
    if phase != "over":
        row("now", _qute_now(view, me))
        first = seat_name(int(view["first"]), me)
        counted = say("tui.qute.turns", turn=int(view["turns"]) + 1, max_turns=view["max_turns"])
        row("turn", say("tui.turn.first", who=seat_name(turn, me), first=first) + f" · {counted}")
    stack: list[str] = view.get("stack") or []
    empty = Text(say("tui.qute.stack_empty"), style="dim")
    row("stack", discard_pile_text(stack) if stack else empty)
    if view.get("suit"):
        suit = str(view["suit"])
        row("suit", say("tui.qute.suit_chosen", name=_suit_name(suit), suit=suit))
    run = view.get("run") or {}
    run_cards: list[str] = run.get("cards") or []
    if run_cards:
        more = RUN - len(run_cards)
        reached = say("tui.qute.run.more", n=more) if more > 0 else say("tui.qute.run.reached")
        cards = cards_text(run_cards)
        row(
            "run",
            say_text("tui.qute.run", count=len(run_cards), rank=run["rank"], cards=cards)
            + f" — {reached}",
        )
    refills = int(view["refills"])
    blind = say("tui.qute.blind", refills=refills, multiplier=view["multiplier"])
    row("blind", say("tui.cards", n=view["blind"]) + f" · {blind}")
    laid: list[str] = view.get("laid") or []
    if laid and phase != "over":
        who = seat_name(turn, me)
        row("laid", say_text("tui.qute.laid", you=turn == me, who=who, cards=cards_text(laid)))
    if view.get("drawn") is not None:
        row("drawn", say_text("tui.qute.drawn", card=card_text(view["drawn"])))
    counts = [int(c) for c in view.get("penalty_counts") or []]
    if any(counts):
        parts: list[str | Text | None] = []
        for s, c in enumerate(counts):
            if not c:
                continue
            if parts:
                parts.append(" · ")
            if s == me:
                drew = cards_text(view.get("penalty_drawn") or [])
                parts.append(say_text("tui.qute.penalty.you", cards=drew))
            else:
                parts.append(say("tui.qute.penalty.seat", n=c, seat=s))
        row("penalties", text_line(*parts, " " + say("tui.qute.penalty.why")))
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
    table.add_column(say("tui.results.seat"), no_wrap=True)
    table.add_column(say("tui.results.qute.left"))
    table.add_column(say("tui.results.qute.points"), justify="right")
    if any(jpoints):
        table.add_column(say("tui.results.qute.jpoints"), justify="right")
    if any(jpoints) or mult > 1:
        table.add_column(say("tui.results.qute.how"))
    table.add_column(say("tui.results.score"), justify="right")
    table.add_column(say("tui.results.total"), justify="right")
    winners = [int(w) for w in info.get("winners", [])]
    reset = [int(r) for r in info.get("reset") or []]
    for s, cards in enumerate(info["hands"]):
        hand: list[str] = sorted(cards, key=_qute_key)
        name = seat_name(s, me)
        if s == info.get("finisher"):
            ended = "qute" if info.get("qute") else ("out" if not hand else "last_turn")
            name += " " + say(f"tui.results.qute.{ended}")
        if s in winners:
            name += " ★"
        points, j = int(info["hand_points"][s]), jpoints[s]
        how = f"{points} {'+' if j >= 0 else '−'} {abs(j)}" if j else str(points)
        if mult > 1:
            how = f"({how}) × {mult}" if j else f"{how} × {mult}"
        total = str(info["totals"][s])
        if s in reset:
            total += " " + say("tui.results.qute.reset")
        row: list[RenderableType] = [
            Text(name, style="bold green" if s in winners else ""),
            cards_text(hand) if hand else Text(say("tui.results.qute.none"), style="dim"),
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


def _notation() -> tuple[tuple[str, str], ...]:
    """What to type in Qute, as ``(text, meaning)`` rows for ``help``, in the catalog in use."""
    each = number_word(EIGHT_DRAWS)
    return (
        ("play C …", say("tui.qute.notation.play")),
        ("draw", say("tui.qute.notation.draw")),
        ("suit S", say("tui.qute.notation.suit")),
        ("eights all|next", say("tui.qute.notation.eights", each=each)),
        ("qute / continue", say("tui.qute.notation.qute", count=number_word(RUN))),
        ("jpoints minus|plus", say("tui.qute.notation.jpoints", points=J_POINTS)),
    )


def _note() -> str:
    """The line under Qute's ``help`` table, in the catalog in use."""
    return say("tui.qute.note", mark=PLAYABLE_MARK, face_down=FACE_DOWN)


class _QuteFront(Front):
    """Qute's :class:`~cardtable.text.render.Front`, made once: its notation and note are read
    from the catalog in use each time they are asked for."""

    def __getattribute__(self, name: str) -> object:
        if name == "notation":
            return _notation()
        if name == "note":
            return _note()
        return super().__getattribute__(name)


QUTE_FRONT = _QuteFront(
    _qute_table,
    _qute_event,
    lambda info, me: _qute_round_end(_qute_result(info), me),
    (),
    "",
)
"""How the terminal draws Qute (no memory aid: hands are held face up)."""
