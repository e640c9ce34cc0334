"""What every part of the terminal shares: cards, small phrases, the status grid, results.

Every card is drawn as ``[7H]`` when the seat knows it and as :data:`FACE_DOWN` when it does
not; the bracket form makes the output easy to check for leaks (see ``tests/test_cli.py``).

A :class:`Front` is how the terminal draws one kind of game (its table, events, round results
and notation); :mod:`cardtable.text.fronts` finds the one for a variant.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, TypeGuard, TypeVar

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # the views' TypedDicts are typing_extensions' before Python 3.12: extended alike
    from typing_extensions import TypedDict

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..catalog import say
from ..events import At, Happening
from ..views import FamilyRoundResult, GameResult, QuteRoundResult, View
from .phrase import Reader, Said, Tone, join_and, number_word, result_head

__all__ = [
    "DISCARD_SHOWN",
    "ENTER",
    "FACE_DOWN",
    "LETTERS",
    "MENU_MAX",
    "Choice",
    "Front",
    "RoundResult",
    "TableKeys",
    "addr_text",
    "card_text",
    "cards_text",
    "continuations",
    "discard_pile_text",
    "is_family_result",
    "is_position",
    "is_qute_result",
    "join_and",
    "number_word",
    "plural_s",
    "render_choices",
    "render_legal",
    "render_result",
    "said_text",
    "seat_name",
    "status_grid",
    "step_choices",
    "table_layout",
    "text_line",
]

FACE_DOWN = "[▒▒▒]"
"""How a card the human seat does not know is drawn (never a card code)."""

DISCARD_SHOWN = 6
"""How many cards of the discard pile the table shows (the top one highlighted)."""


class TableKeys(TypedDict, total=False):
    """The keys a terminal play loop adds to a view before a table is drawn from it (each
    game's table type, :class:`~cardtable.text.family.FamilyTable` and
    :class:`~cardtable.text.qute.QuteTable`, is its view plus these; all are absent from a view
    that comes straight from the game)."""

    memory_aid: bool
    """Whether the seat plays with the memory aid (a Cabo-family table's Game row says so)."""
    seen_now: dict[str, str]
    """Without the memory aid: the face-down cards the seat has just seen, address → code
    (a Cabo-family table only: a Qute hand has nothing to remember)."""
    hand_order: str
    """How the seat's Qute hand is sorted, ``suit`` or ``rank`` (the line-mode loop's)."""


RoundResult: TypeAlias = FamilyRoundResult | QuteRoundResult
"""One finished round's results, of either game (an entry of ``view["round_results"]``, or a
round-end event's ``result``)."""


def is_family_result(info: RoundResult) -> TypeGuard[FamilyRoundResult]:
    """Whether ``info`` is a Cabo-family round's results (the family's alone carry ``sums``)."""
    return "sums" in info


def is_qute_result(info: RoundResult) -> TypeGuard[QuteRoundResult]:
    """Whether ``info`` is a Qute round's results (Qute's alone carry ``jpoints``)."""
    return "jpoints" in info


def plural_s(n: object) -> str:
    """The plural ending for a count: ``""`` for one, ``"s"`` otherwise (``card{plural_s(n)}``)."""
    return "" if n == 1 else "s"


def seat_name(seat: int, me: int) -> str:
    """A seat as the human at seat ``me`` reads it: ``you`` or ``seat 2``."""
    return Reader(me).name(seat)


def addr_text(addr: str, me: int) -> str:
    """An absolute address ``S.P`` (as views carry it) as the human reads it: ``your card 2``
    or ``1.3``."""
    return Reader(me).addr(At.parse(addr))


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


_TONE_STYLES: dict[Tone, str] = {
    "plain": "",
    "quiet": "dim",
    "strong": "bold",
    "call": "bold yellow",
    "alarm": "red",
    "note": "yellow",
}
"""How the terminal styles each tone of a phrased event."""

_CARD_TOKEN = re.compile(r"\[([0-9A-Z]{1,5})\]")


def said_text(said: Said) -> Text:
    """A phrased event (:func:`cardtable.text.phrase.phrase`) as one styled line: its tone's
    style, each card it names (``[7H]``) styled as :func:`card_text` draws it."""
    out = Text(style=_TONE_STYLES[said.tone])
    end = 0
    for match in _CARD_TOKEN.finditer(said.text):
        out.append(said.text[end : match.start()])
        out.append_text(card_text(match.group(1)))
        end = match.end()
    out.append(said.text[end:])
    return out


def text_line(*parts: str | Text | None, style: str = "") -> Text:
    """One line of styled text from plain and styled pieces in order (``None`` pieces left out)."""
    out = Text(style=style)
    for part in parts:
        if part is None:
            continue
        if isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(part)
    return out


def cards_text(codes: Sequence[str | None]) -> Text:
    """Cards side by side, each as :func:`card_text` draws it (``None``: face down)."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(card_text(code))
    return out


def discard_pile_text(pile: Sequence[str]) -> Text:
    """The discard pile's last :data:`DISCARD_SHOWN` cards, top one marked, and its size."""
    if not pile:
        return Text(say("render.pile.empty"), style="dim")
    shown = pile[-DISCARD_SHOWN:]
    out = Text()
    if len(pile) > len(shown):
        out.append(say("render.pile.under", n=len(pile) - len(shown)) + " ", style="dim")
    for i, code in enumerate(shown):
        top = i == len(shown) - 1
        out.append_text(card_text(code, top=top))
        out.append(
            " " + say("render.pile.top") if top else " ", style="dim" if not top else "yellow"
        )
    out.append("   " + say("render.pile.cards", n=len(pile)), style="dim")
    return out


def status_grid(view: View, title: str, match: str, extra: str = "") -> Table:
    """The two-column status grid every table starts with, opened by its "Game" row."""
    status = Table.grid(padding=(0, 2))
    status.add_column(style="bold", no_wrap=True)
    status.add_column()
    status.add_row(
        say("render.game"),
        say(
            "render.game.row",
            title=title or view["game"],
            round=view["round"],
            match=match,
            n=view["players"],
        )
        + (f" · {extra}" if extra else ""),
    )
    return status


_View = TypeVar("_View", bound=View)


def table_layout(
    status: Table,
    view: _View,
    me: int,
    seat_panel: Callable[[_View, int, int], RenderableType],
) -> Group:
    """A table as every front lays it out: the ``status`` grid (its totals row added) in a
    panel, the other seats side by side, then the reader's own seat."""
    status.add_row(
        say("render.totals"),
        " · ".join(f"{seat_name(s, me)} {t}" for s, t in enumerate(view["totals"])),
    )
    players = view["players"]
    others = [seat_panel(view, (me + k) % players, me) for k in range(1, players)]
    return Group(
        Panel(status, title=say("render.table"), title_align="left"),
        Columns(others, padding=(0, 1)),
        seat_panel(view, me, me),
    )


def render_legal(legal: Sequence[str]) -> RenderableType:
    """The numbered list of legal actions (type the number or the text)."""
    items = [Text.assemble((f"{i}) ", "bold magenta"), a) for i, a in enumerate(legal, 1)]
    return Group(Text(say("render.legal"), style="bold"), Columns(items, padding=(0, 3)))


# ---------------------------------------------------------------------------- the step menu
MENU_MAX = 12
"""Most entries one step of the move menu lists; longer lists of addresses go by seat."""

LETTERS = "abcdefgijklmnoprstuvwxyz"
"""The keys of menu entries that are not card positions, in order (no ``h`` or ``q``: those
are help and quit)."""

ENTER = "Enter"
"""The key of the menu entry that plays the move as built so far."""

_POSITION = re.compile(r"\d+(\.\d+)?")


def is_position(word: str) -> bool:
    """Whether ``word`` is a card position: ``N`` (your own) or ``P.N`` (seat P's)."""
    return _POSITION.fullmatch(word) is not None


def continuations(legal: Sequence[str], prefix: Sequence[str]) -> list[str]:
    """The words that may follow ``prefix`` in the legal actions ``legal``, in their order,
    with ``""`` first when ``prefix`` is itself a whole legal action."""
    n = len(prefix)
    out: list[str] = []
    for action in legal:
        words = action.split()
        if words[:n] != list(prefix):
            continue
        word = words[n] if len(words) > n else ""
        if word not in out:
            out.append(word)
    if "" in out:
        out.remove("")
        out.insert(0, "")
    return out


def _group(word: str) -> str:
    """The seat group of a position word for a long menu: ``P.`` for seat P's, else ``you``."""
    return word.partition(".")[0] + "." if "." in word else "you"


@dataclass(frozen=True)
class Choice:
    """One entry of a step of the move menu."""

    key: str
    """What to type for it: a letter, or a card position itself (``3``, ``1.2``)."""
    word: str
    """The word it adds to the move (``""``: play the move as chosen so far), or, for a group
    of positions (``group`` true), the group's key."""
    label: str
    """How the entry reads in the menu."""
    group: bool = False
    """Whether the entry opens a group of positions (one seat's cards) instead of a word."""


def step_choices(
    legal: Sequence[str],
    prefix: Sequence[str],
    group: str = "",
    keys: Mapping[str, str] | None = None,
) -> list[Choice]:
    """The entries of the menu after the words ``prefix`` (inside the seat ``group`` if any).

    Only continuations of legal actions are offered. A card position is typed as itself (its
    key is the position); every other word has its fixed key (``keys``, the game's map of
    :func:`cardtable.text.keys.word_keys`; the Cabo family's by default), the same in every
    menu; playing the move as built so far is Enter's. More than :data:`MENU_MAX` positions of
    several seats are offered seat by seat first (typed ``P.``, your own ``y``).
    """
    from .keys import FAMILY_KEYS, RESERVED, SEAT_GROUP_KEY

    fixed = FAMILY_KEYS if keys is None else keys
    words = continuations(legal, prefix)
    end = bool(words) and words[0] == ""
    nexts = [w for w in words if w and (not group or _group(w) == group)]
    choices: list[Choice] = []
    if end:
        choices.append(Choice(ENTER, "", say("render.menu.as_is", move=" ".join(prefix))))
    groups: list[str] = []
    if not group and len(nexts) > MENU_MAX and all(is_position(w) for w in nexts):
        groups = list(dict.fromkeys(_group(w) for w in nexts))
    if len(groups) > 1:
        for g in groups:
            cells = [w for w in nexts if _group(w) == g]
            span = f"{cells[0]}–{cells[-1]}" if len(cells) > 1 else cells[0]
            name = say("render.menu.yours") if g == "you" else say("seat", seat=g[:-1])
            key = SEAT_GROUP_KEY if g == "you" else g
            choices.append(Choice(key, g, f"{name} ({span})", group=True))
        return choices
    taken = set(fixed.values()) | set(RESERVED)
    for w in nexts:
        if is_position(w):
            choices.append(Choice(w, w, w))
        elif w in fixed:
            choices.append(Choice(fixed[w], w, w))
        else:  # a word no map knows: a free letter, for this menu only
            free = next((c for c in w.lower() + LETTERS if c in LETTERS and c not in taken), "?")
            taken.add(free)
            choices.append(Choice(free, w, w))
    return choices


def render_choices(prefix: Sequence[str], choices: Sequence[Choice]) -> Text:
    """One step of the move menu on one line: ``replace › 0 1 2 3 · a) play 'replace 2' …``."""
    out = Text()
    out.append(
        " ".join(prefix) + " › " if prefix else say("render.menu.your_move") + " ", style="bold"
    )
    positions = [c for c in choices if c.key == c.word and is_position(c.word)]
    others = [c for c in choices if c not in positions]
    if positions:
        out.append(say("render.menu.card") + " ", style="dim")
        out.append(" ".join(c.key for c in positions), style="bold cyan")
        if others:
            out.append("  ·  ")
    for i, c in enumerate(others):
        if i:
            out.append("  ")
        out.append(f"{c.key}) ", style="bold magenta")
        out.append(c.label)
    return out


def render_result(view: View, me: int) -> RenderableType:
    """The final result of the game (``view["result"]``) in words and a small table."""
    result: GameResult | None = view.get("result")
    if not result:
        return Text(say("render.result.not_over"))
    winners = result["winners"]
    head = result_head(winners, me)
    table = Table(
        title=say("render.result.title"),
        title_style="bold",
        caption=say("render.result.caption"),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column(say("render.result.seat"))
    for i in range(len(result["rounds"])):
        table.add_column(say("render.result.round", n=i + 1), justify="right")
    table.add_column(say("render.result.total"), justify="right", style="bold")
    for s, total in enumerate(result["totals"]):
        table.add_row(
            Text(
                seat_name(s, me) + (" ★" if s in winners else ""),
                style="green" if s in winners else "",
            ),
            *[str(r[s]) for r in result["rounds"]],
            str(total),
        )
    return Group(Text(head, style="bold green" if me in winners else "bold"), table)


@dataclass(frozen=True)
class Front:
    """How the terminal draws one game: its table, its events, its round results, its notation."""

    table: Callable[[View, int, str], RenderableType]
    """Draws the table from a seat's view: ``table(view, me, title)`` (the view of this front's
    game, which the front narrows to its type, with the play loop's :class:`TableKeys` where it
    added them)."""
    event: Callable[[Happening, int], list[RenderableType]]
    """Puts one event into words: ``event(ev, me)``, ``ev`` as seat ``me`` saw it."""
    round_end: Callable[[RoundResult, int], RenderableType]
    """Draws one entry of ``view["round_results"]`` (or a ``round_end`` event's result) of this
    front's game, which the front narrows to its type."""
    notation: tuple[tuple[str, str], ...]
    """What to type, as ``(text, meaning)`` rows for ``help``."""
    note: str
    """A line shown under the ``help`` table."""
    memory: Callable[[bool], str] | None = None
    """For a memory game, the ``help`` note's words on the memory aid (given whether it is
    on); without the aid its tables show a face-down card only just after the seat saw it.
    ``None`` for a game with nothing to remember."""
