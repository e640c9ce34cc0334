"""What the full-screen table shows of the game: the seats' panels, the piles, the note on
what the table waits for, and the line of the cards just seen, all drawn from one view.

:class:`Board` holds what a drawing needs (the view, the person's seat, the marks on cards,
the layout); :func:`hand_cells` says which card of a hand is where, for the drawing and for
the moves alike (a Qute hand is sorted as the person chose, and numbered as it is shown).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.text import Text
from textual.containers import Container, Horizontal
from textual.widgets import Static

from ..games.family.rulesets import RULESETS
from ..text.catalog import say
from ..text.presentation import hand_layout, value_marks
from ..text.qute import sort_hand
from ..views import FamilySlot, QuteSlot, View, is_family_view, is_qute_view
from .steps import seat_word
from .widgets import CardBox, SeatPanel

__all__ = ["SPINNER", "Board", "Cell", "hand_cells"]

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
"""The frames of the "thinking" spinner."""


@dataclass(frozen=True)
class Cell:
    """One card of a hand as the table shows it."""

    label: str
    """Its number on the table: ``2`` for the person's card 2, ``1.3`` for seat 1's card 3."""
    code: str | None
    """Its code as shown (``None``: face down)."""
    word: str
    """What choosing it adds to a move: its number, or in Qute its code."""
    box_id: str
    """The id of its widget: ``card-S-P``."""
    face_up: bool = False
    """Whether it lies face up in the hand (cabo: taken from the discard pile, or shown by a
    wrong claim)."""


def hand_cells(view: View, seat: int, me: int, order: str = "suit") -> list[Cell]:
    """The cards of ``seat``'s hand in the order the table shows them: positions in order,
    except the person's own Qute hand, sorted by ``order`` (``suit`` or ``rank``) and numbered
    as shown. Empty positions are left out."""
    if is_qute_view(view) and seat == me:
        codes = view["hand"] or []
        return [
            Cell(str(i), code, code, f"card-{me}-{i}")
            for i, code in enumerate(sort_hand(codes, order))
        ]
    cells: list[Cell] = []
    slots: Sequence[FamilySlot | QuteSlot | None] = view["hands"][seat]
    for i, slot in enumerate(slots):
        if slot is None:
            continue
        label = str(i) if seat == me else f"{seat}.{i}"
        cells.append(
            Cell(label, slot.get("card"), label, f"card-{seat}-{i}", bool(slot.get("face_up")))
        )
    return cells


@dataclass
class Board:
    """Everything one drawing of the table needs."""

    view: View
    """The view the table is drawn from."""
    me: int
    """The person's seat."""
    opponents: str
    """The bots' level (named on their panels)."""
    thinking: int | None = None
    """The bot seat deciding now, if any."""
    spin: int = 0
    """The spinner's frame."""
    marks: dict[str, set[str]] = field(default_factory=dict)
    """Which widget ids get which mark (``-target``, ``-cursor``, ``-chosen``, ``-flash``)."""
    order: str = "suit"
    """How the person's Qute hand is sorted."""
    compact: bool = False
    """The compact layout (a short screen): panels without borders, names in their line."""
    memory_aid: bool = False
    """Whether the person plays with the memory aid."""
    _marks: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    """The game's unusual card values, read at the first card that asks."""

    @property
    def qute(self) -> bool:
        """Whether the game is Qute."""
        return is_qute_view(self.view)

    def value_mark(self, code: str | None) -> int | None:
        """The points marked beside the card ``code`` where its value is unusual in this
        game (``None``: no mark)."""
        if code is None:
            return None
        if self._marks is None:
            self._marks = value_marks(str(self.view["game"]))
        return self._marks.get(code)

    def classes(self, widget_id: str) -> str:
        """The marks of one widget, as CSS classes."""
        return " ".join(mark for mark, ids in self.marks.items() if widget_id in ids)

    def seat_panel(self, seat: int) -> SeatPanel:
        """One seat's panel: its name, total and state, then its cards."""
        view = self.view
        me = seat == self.me
        hand = hand_cells(view, seat, self.me, self.order)
        boxes = [
            CardBox(
                f"{c.label} {say('tui.family.face_up')}" if c.face_up else c.label,
                c.code,
                c.word,
                id=c.box_id,
                classes=" ".join(
                    filter(None, [self.classes(c.box_id), "-faceup" if c.face_up else ""])
                ),
                value=self.value_mark(c.code),
            )
            for c in hand
        ]
        short = say("tui.seat.you" if me else "tui.seat", seat=seat)
        name = short if me else say("tui.board.seat_ai", seat=seat, opponents=self.opponents)
        if self.compact:  # no border to carry the name: it opens the line, short
            tags = [short, say("tui.board.points", points=view["totals"][seat])]
        else:
            tags = [say("tui.seat.total", total=view["totals"][seat])]
        if is_qute_view(view):
            tags.append(say("tui.cards", n=view["counts"][seat]))
            if me:
                tags.append(say(f"tui.board.sorted.{self.order}"))
            else:
                boxes = []
        if self.thinking == seat:
            spinner = SPINNER[self.spin % len(SPINNER)]
            tags.append(say("tui.board.thinking", spinner=spinner))
        elif seat in view["actors"] and not view["over"]:
            tags.append("▶" if self.compact and not me else say("tui.seat.to_act"))
        if is_family_view(view) and view["caller"] == seat:
            tags.append(say("tui.family.seat.called", word=view["call"]))
        hand_box = Container(*boxes, classes="hand")
        rules = RULESETS.get(str(view["game"]))
        square = len(hand) <= 4 and rules is not None and hand_layout(rules) == "square"
        per_row = 2 if square else (max(1, min(12 if self.compact else 8, len(boxes))) if me else 4)
        hand_box.styles.grid_size_columns = per_row
        panel = SeatPanel(Static(" · ".join(tags), classes="tags"), hand_box)
        if not self.compact:
            panel.border_title = name
        panel.set_class(me, "-mine")
        panel.set_class(seat in view["actors"] and not view["over"], "-actor")
        return panel

    def opponents_grid(self, players: int, columns: int) -> Container:
        """The other seats, in seat order from the person's left, ``columns`` to a row."""
        others = [(self.me + k) % players for k in range(1, players)]
        grid = Container(*(self.seat_panel(s) for s in others), id="opponents")
        grid.styles.grid_size_columns = max(1, columns)
        return grid

    def pile(
        self, label: str, code: str | None, word: str, box_id: str, empty: bool = False
    ) -> CardBox:
        """A pile (or the drawn card) as a card box."""
        return CardBox(
            label,
            code,
            word,
            id=box_id,
            classes=self.classes(box_id),
            empty=empty,
            value=self.value_mark(code),
            beside=True,
        )

    def piles(self) -> Horizontal:
        """The deck (Qute: the blind), the discard pile (Qute: the stack), a drawn card, and
        the note on what the table waits for."""
        view = self.view
        boxes: list[Static] = []
        if is_qute_view(view):
            blind = say("tui.board.blind", n=view["blind"])
            boxes.append(self.pile(blind, None, "draw", "pile-deck"))
            top = view["top"]
            boxes.append(self.pile(say("tui.board.stack"), top, "", "pile-stack", top is None))
            if view["suit"]:
                follow = say("tui.board.suit_to_follow")
                boxes.append(Static(f"{follow}\n{view['suit']}", classes="note"))
        elif is_family_view(view):
            deck = say("tui.board.deck", n=view["deck"])
            boxes.append(self.pile(deck, None, "deck", "pile-deck"))
            pile = view["discard"]
            top = pile[-1] if pile else None
            discard = say("tui.board.discard", n=len(pile))
            boxes.append(self.pile(discard, top, "discard", "pile-discard", not pile))
            drawer = view["drawer"]
            if drawer is not None:
                who = seat_word(drawer, self.me)
                held = say("tui.board.held", you=drawer == self.me, who=who)
                boxes.append(self.pile(held, view["drawn"], "", "pile-drawn"))
        boxes.append(Static(self.note(), classes="note"))
        return Horizontal(*boxes, id="piles")

    def note(self) -> Text:
        """A line on what the table waits for (a power, a snap window, a Qute decision)."""
        view = self.view
        me = self.me
        parts: list[str] = []
        if is_qute_view(view):
            if view["pending"] is not None:
                parts.append(say("tui.board.to_decide", what=view["pending"]))
            if view["phase"] == "cover":
                parts.append(say("tui.board.cover"))
        elif is_family_view(view):
            pending = view["pending"]
            if pending is not None:
                if "give" in pending:
                    turn = view["turn"]
                    who = seat_word(turn, me)
                    parts.append(say("tui.board.give", you=turn == me, who=who))
                elif pending["power"]:
                    parts.append(say("tui.board.power", power=pending["power"]))
            snap = view["snap"]
            if snap:
                parts.append(say("tui.board.snap", rank=snap["rank"]))
        return Text("\n".join(parts), style="italic")

    def kept_until_draw(self, seen: Mapping[str, str]) -> Text | None:
        """Why some of the person's face-down cards show without the memory aid: gabo keeps
        the initial peek in sight until the first draw (``None`` when nothing is kept)."""
        view = self.view
        if self.memory_aid or self.qute or view["over"]:
            return None
        kept = [
            c
            for c in hand_cells(view, self.me, self.me)
            if c.code is not None and not c.face_up and f"{self.me}.{c.label}" not in seen
        ]
        if not kept:
            return None
        out = Text()
        for i, c in enumerate(kept):
            out.append(" · " if i else "")
            out.append(say("addr.yours", pos=c.label) + " ")
            out.append(f"[{c.code}]", style="bold")
        out.append(" — " + say("tui.family.until_draw.note"), style="dim")
        return out

    def sight_line(self, seen: Mapping[str, str], left: float) -> Text:
        """The cards just seen (address → code), where they are and for how long more: this
        line is always on screen, even when the table is scrolled away from the card."""
        out = Text(say("tui.family.status.seen_now") + ": ", style="bold yellow")
        for i, (addr, code) in enumerate(seen.items()):
            if i:
                out.append(" · ")
            seat, _, pos = addr.partition(".")
            out.append(say("addr.yours", pos=pos) + " " if seat == str(self.me) else f"{addr} ")
            out.append(f"[{code}]", style="bold")
        seconds = max(1, round(left))
        out.append(" — " + say("tui.board.seen", n=len(seen), seconds=seconds), style="yellow")
        return out
