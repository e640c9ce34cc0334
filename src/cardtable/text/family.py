"""How the terminal draws the Cabo family: the table, events, round results and notation.

One :class:`~cardtable.text.render.Front` serves every variant whose rule set is in
:data:`~cardtable.games.family.rulesets.RULESETS` (the built-in four and any registered later
with :func:`cardtable.games.family.add_variant`): what differs between them — the call word,
which powers the cards have, drops or snaps, the hand's layout — is read from the
:class:`~cardtable.games.family.rulesets.RuleSet` or the view, never from the variant's name.

These are memory games, and the person plays without memory aid by default (RULES.md,
"Memory"): the loop draws the tables from ``view(seat, memory=False)`` and adds the cards the
seat has just seen (the ``seen_now`` key), which the ``Seen now`` row explains.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..events import FamilyRoundEnd, Happening
from ..games.family.rulesets import LOOK, RULESETS, SPY, SWAP, SWAP_ANY, RuleSet
from ..games.family.scoring import SUM
from ..views import FamilyRoundResult, FamilySlot, FamilyView, ScoreAdjustment, View, is_family_view
from .catalog import has, say, say_text
from .phrase import family_legend, family_score_step, phrase, round_results_title
from .presentation import hand_layout
from .render import (
    FACE_DOWN,
    Front,
    RoundResult,
    TableKeys,
    addr_text,
    card_text,
    cards_text,
    discard_pile_text,
    is_family_result,
    number_word,
    said_text,
    seat_name,
    status_grid,
    table_layout,
    text_line,
)

__all__ = ["FamilyTable", "family_front", "notation"]


class FamilyTable(FamilyView, TableKeys):
    """A Cabo-family view as the play loop hands it to the table: the game's view plus the
    loop's own keys (:class:`~cardtable.text.render.TableKeys`: ``memory_aid``, ``seen_now``;
    absent from a view that comes straight from the game)."""


def _is_family_table(view: View) -> TypeGuard[FamilyTable]:
    """Whether ``view`` is a Cabo-family view (told apart by ``game``, as every view is)."""
    return is_family_view(view)


def _words(key: str, word: str) -> str:
    """The message ``key`` where the catalogs have it, else ``word`` as it is."""
    return say(key) if has(key) else word


def _phase_words(view: FamilyView) -> str:
    """The phase of a view in words (``tui.family.phase.*``; the initial peek's count read
    from the rule set)."""
    phase = str(view["phase"])
    rs = RULESETS.get(str(view["game"]))
    if phase == "peek" and rs is not None:
        return say("tui.family.phase.peek.count", count=number_word(rs.initial_peeks))
    return _words(f"tui.family.phase.{phase}", phase)


# ---------------------------------------------------------------------------- notation
def _ranks(rs: RuleSet, power: int) -> str:
    """The ranks (or codes) that carry ``power`` in ``rs``, as ``J`` or ``11/12``."""
    return "/".join(rank for rank, kind in rs.powers.items() if kind == power)


def notation(rs: RuleSet) -> tuple[tuple[str, str], ...]:
    """What to type in a game of ``rs``, as ``(text, meaning)`` rows for ``help``: the moves
    every variant has, then those its rule set adds (drops, powers, its call word)."""

    def row(text: str, meaning: str, ranks: str = "") -> None:
        rows.append((text, say(f"tui.family.notation.{meaning}", ranks=ranks)))

    rows: list[tuple[str, str]] = []
    row("peek N", "peek")
    row("draw deck", "draw_deck")
    row("draw discard", "draw_discard")
    row("replace N", "replace")
    row("discard", "discard")
    if SPY in rs.powers.values():
        row("spy P.N", "spy")
    row("pass", "pass")
    if rs.drops.claims:
        row("replace N M …", "claim")
    if ranks := _ranks(rs, SWAP):
        row("exchange N P.N", "exchange", ranks=ranks)
    if ranks := _ranks(rs, LOOK):
        row("look N P.N", "look", ranks=ranks)
        row("exchange", "exchange_looked")
    if ranks := _ranks(rs, SWAP_ANY):
        row("exchange A B", "exchange_any", ranks=ranks)
    if rs.drops.pile_phases:
        row("drop N / drop P.N", "drop")
        row("give N", "give")
    if rs.drops.snaps:
        row("drop N", "snap")
        row("pass", "snap_pass")
    row(rs.call, "call_ends" if rs.call_ends_round else "call")
    return tuple(rows)


def _memory_note(rs: RuleSet, memory_aid: bool) -> str:
    """The ``help`` note's words on the memory aid in a game of ``rs``."""
    if memory_aid:
        return say("tui.family.note.memory")
    no_memory = say("tui.family.note.no_memory", face_down=FACE_DOWN)
    if not rs.peek_shown_until_draw:
        return no_memory
    n = len(rs.auto_peek) or rs.initial_peeks
    kept = say("tui.family.note.peek_kept", n=n, game=rs.name, count=number_word(n))
    return f"{no_memory} {kept}"


def family_front(rs: RuleSet) -> Front:
    """The :class:`~cardtable.text.render.Front` of the Cabo-family variant played by ``rs``."""
    note = say("tui.family.note", face_down=FACE_DOWN)
    if rs.face_up_in_hand:
        note += " " + say("tui.family.note.face_up", up=_face_up_word())

    def event(ev: Happening, me: int) -> list[RenderableType]:
        if isinstance(ev, FamilyRoundEnd):
            return [said_text(phrase(ev, me)), _family_round_end(ev.result, me, rs)]
        return _family_event(ev, me)

    return Front(
        _family_table,
        event,
        lambda info, me: _family_round_end(_family_result(info), me, rs),
        notation(rs),
        note,
        memory=lambda memory_aid: _memory_note(rs, memory_aid),
    )


# ---------------------------------------------------------------------------- the table
def _seen(seen: Sequence[int], me: int, players: int) -> str:
    if not seen:
        return "–"
    if len(seen) == players:
        return say("tui.family.seen.all")
    you = say("tui.family.seen.you")
    return ",".join(you if s == me else str(s) for s in seen)


_ROW_LABELS = ("pos", "card", "seen")
"""The labels of a hand's three lines (``tui.family.row.*``): the positions, the cards, and who
has seen each."""


def _face_up_word() -> str:
    """What the ``seen`` line says under a card that lies face up in a hand (cabo)."""
    return say("tui.family.face_up")


def _hand(view: FamilyView, seat: int, me: int) -> RenderableType:
    """A hand as rows of cells (address, card, who has seen it), 8 cells a row, each line
    labelled (:data:`_ROW_LABELS`).

    Four cards of a rule set laid out as a ``square`` (kaboo's,
    :func:`.presentation.hand_layout`) are drawn as a 2×2 square. Plain text lines are used
    instead of nested tables because they render fast even for the long hands that penalties
    can build.
    """
    hand: list[FamilySlot | None] = view["hands"][seat]
    players = int(view["players"])
    if not any(c is not None for c in hand):
        return Text(say("tui.no_cards"), style="dim")
    rs = RULESETS.get(str(view["game"]))
    square = rs is not None and hand_layout(rs) == "square"
    per_row = 2 if square and len(hand) <= 4 else 8
    lines: list[Text] = []
    for start in range(0, len(hand), per_row):
        cells: list[tuple[Text, Text, Text]] = []
        for i, cell in enumerate(hand[start : start + per_row], start):
            label = str(i) if seat == me else f"{seat}.{i}"
            if cell is None:
                cells.append((Text(label, style="dim strike"), Text("·", style="dim"), Text("")))
            elif cell.get("face_up"):  # lies face up: everyone sees it, nothing to remember
                cells.append(
                    (
                        Text(label, style="bold"),
                        card_text(cell["card"], pad=True),
                        Text(_face_up_word(), style="bold yellow"),
                    )
                )
            else:
                cells.append(
                    (
                        Text(label, style="bold"),
                        card_text(cell["card"], pad=True),
                        Text(_seen(cell["seen"], me, players), style="dim"),
                    )
                )
        width = max(len(FACE_DOWN), *(len(t.plain) for trio in cells for t in trio))
        labels = [say(f"tui.family.row.{label}") for label in _ROW_LABELS]
        for row in range(3):
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append(labels[row].ljust(max(map(len, labels)) + 1), style="dim")
            for k, trio in enumerate(cells):
                part = trio[row]
                left = (width - len(part.plain) + 1) // 2
                line.append(" " * (left + (1 if k else 0)))
                line.append_text(part)
                line.append(" " * (width - len(part.plain) - left))
            lines.append(line)
    return Group(*lines)


def _seat_panel(view: FamilyView, seat: int, me: int) -> Panel:
    title = say("tui.seat.you" if seat == me else "tui.seat", seat=seat)
    tags = [say("tui.seat.total", total=view["totals"][seat])]
    if seat in view["actors"] and view["phase"] != "over":
        tags.append(say("tui.seat.to_act"))
    if view.get("caller") == seat:
        tags.append(say("tui.family.seat.called", word=view["call"]))
    border = "yellow" if seat in view["actors"] else ("green" if seat == me else "white")
    return Panel(
        Group(Text(" · ".join(tags), style="dim"), _hand(view, seat, me)),
        title=Text(title, style="bold"),
        title_align="left",
        border_style=border,
        expand=False,
    )


def _pending(view: FamilyView, me: int) -> Text | None:
    pending = view.get("pending")
    if not pending:
        return None
    turn = int(view["turn"])
    who, you = seat_name(turn, me), turn == me
    if "give" in pending:
        at = addr_text(pending["give"], me)
        return say_text("tui.family.pending.give", you=you, who=who, at=at)
    power = str(pending.get("power"))
    card = card_text(pending["card"])
    if power == "look" and "looked" in pending:
        a, b = (addr_text(x, me) for x in pending["looked"])
        can = say(
            "tui.family.pending.exchange"
            if pending.get("can_exchange")
            else "tui.family.pending.only_pass"
        )
        return say_text("tui.family.pending.looked", you=you, who=who, a=a, b=b, card=card, can=can)
    if power == "exchange" and pending.get("any"):
        power = "exchange_any"
    what = _words(f"tui.family.power.{power}", power)
    return say_text("tui.family.pending.power", you=you, who=who, card=card, what=what)


def _snap(view: FamilyView, me: int) -> Text | None:
    snap = view.get("snap")
    if not snap:
        return None
    passed = [int(s) for s in snap.get("passed", [])]
    deciding = [s for s in range(int(view["players"])) if s not in passed]
    rank = str(snap["rank"]).lower() if snap["rank"] == "JOKER" else str(snap["rank"])
    seats = ", ".join(seat_name(s, me) for s in deciding) or say("tui.nobody")
    return say_text("tui.family.snap", rank=Text(rank, style="bold"), seats=seats)


def _memory_words(view: FamilyTable) -> str:
    """The Game row's word on the memory aid (the loop's ``memory_aid`` key; none without it)."""
    aid = view.get("memory_aid")
    if aid is None:
        return ""
    return say("tui.memory.on" if aid else "tui.memory.off")


def _cards_at(cards: dict[str, str], me: int, note: str) -> Text:
    """Cards by address, ``your card 2 [7H] · 1.3 [5C]``, then ``note`` highlighted."""
    parts: list[str | Text | None] = []
    for addr, code in cards.items():
        if parts:
            parts.append(" · ")
        parts.extend([f"{addr_text(addr, me)} ", card_text(code)])
    parts.append(Text(note, style="yellow"))
    return text_line(*parts)


def _sight_rows(view: FamilyTable, me: int) -> list[tuple[str, Text]]:
    """Without memory aid, why a face-down card shows: the ``Seen now`` row (the cards the seat
    has just seen, the loop's ``seen_now`` key) and the ``Until draw`` row (gabo's initial peek,
    which the view itself keeps shown until the seat's first draw)."""
    if view.get("memory_aid") is not False or view["phase"] == "over":
        return []
    rows: list[tuple[str, Text]] = []
    seen: dict[str, str] = view.get("seen_now") or {}
    if seen:
        note = " — " + say("tui.family.seen_now.note", n=len(seen))
        rows.append((say("tui.family.status.seen_now"), _cards_at(seen, me, note)))
    kept = {
        f"{me}.{i}": str(cell["card"])
        for i, cell in enumerate(view["hands"][me])
        if cell is not None
        and cell["card"] is not None
        and not cell.get("face_up")
        and f"{me}.{i}" not in seen
    }
    if kept:
        note = " — " + say("tui.family.until_draw.note")
        rows.append((say("tui.family.status.until_draw"), _cards_at(kept, me, note)))
    return rows


def _family_view(view: FamilyTable, me: int, title: str = "") -> RenderableType:
    """A Cabo-family table from seat ``me``'s view: status, other hands, then yours."""
    target = view.get("target")
    status = status_grid(
        view,
        title,
        say("tui.single_round") if target is None else say("tui.family.match_to", target=target),
        _memory_words(view),
    )
    phase = str(view["phase"])

    def row(label: str, value: str | Text) -> None:
        status.add_row(say(f"tui.family.status.{label}"), value)

    row("phase", _phase_words(view))
    peeks_left = view.get("peeks_left")
    if phase == "peek" and peeks_left:
        row("peeks_left", " · ".join(f"{seat_name(s, me)} {n}" for s, n in enumerate(peeks_left)))
    actors = [int(s) for s in view["actors"]]
    if phase in ("peek", "snap"):
        row("to_act", ", ".join(seat_name(s, me) for s in actors) or say("tui.nobody"))
    elif phase != "over":
        first = seat_name(int(view["first"]), me)
        row("turn", say("tui.turn.first", who=seat_name(int(view["turn"]), me), first=first))
    for name, sight in _sight_rows(view, me):
        status.add_row(name, sight)
    deck = say("tui.cards", n=view["deck"])
    if view.get("reshuffles"):
        deck += " " + say("tui.family.reshuffled", times=view["reshuffles"])
    row("deck", deck)
    row("discard", discard_pile_text(view["discard"]))
    drawer = view.get("drawer")
    if drawer is not None:
        source = str(view.get("drawn_from"))
        held = f"tui.family.held.{source}" if source in ("deck", "discard") else "tui.family.held"
        who = seat_name(int(drawer), me)
        row(
            "drawn",
            text_line(card_text(view.get("drawn")), " " + say(held, you=drawer == me, who=who)),
        )
    pending = _pending(view, me)
    if pending is not None:
        row("pending", pending)
    snap = _snap(view, me)
    if snap is not None:
        row("snap", snap)
    caller = view.get("caller")
    if caller is not None:
        left = view.get("final_turns_left")
        who, you = seat_name(int(caller), me), caller == me
        called = say("tui.family.called", you=you, who=who, word=view["call"])
        if left:
            called += " · " + say("tui.family.final_turns", n=left)
        row("called", called)
    else:
        row(
            "call_word",
            say(
                "tui.family.call_word",
                word=view["call"],
                turns=view["turns"],
                max_turns=view["max_turns"],
            ),
        )
    return table_layout(status, view, me, _seat_panel)


def _family_table(view: View, me: int, title: str = "") -> RenderableType:
    """The front's table: :func:`_family_view` once ``view`` is known to be a Cabo-family one."""
    if not _is_family_table(view):
        raise ValueError(f"not a Cabo-family view: game {view.get('game')!r}")
    return _family_view(view, me, title)


def _adjustment_words(steps: Sequence[ScoreAdjustment]) -> str:
    """A seat's steps from its hand's sum to its score, in words (empty: the score is the
    sum)."""
    return "; ".join(family_score_step(step["reason"], step["points"]) for step in steps)


def _legend(rs: RuleSet | None, info: FamilyRoundResult) -> str:
    """What the results table needs explained, for this game only: ★, the scoring rule of the
    game (its caller rule, Kamikaze) and the exact-target reset when it happened."""
    scoring = rs.scoring if rs is not None else SUM
    return family_legend(scoring.name, info.get("caller") is not None, bool(info.get("reset")))


def _family_result(info: RoundResult) -> FamilyRoundResult:
    """``info`` once it is known to be a Cabo-family round's results."""
    if not is_family_result(info):
        raise ValueError("not a Cabo-family round's results")
    return info


def _family_round_end(
    info: FamilyRoundResult, me: int, rs: RuleSet | None = None
) -> RenderableType:
    """The results of a finished Cabo-family round: every hand, its sum, each step from the
    sum to the score with its reason (``adjustments``), the score and the total (a total
    halved at exactly the target says so)."""
    table = Table(
        title=round_results_title(info["round"]),
        title_style="bold",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column(say("tui.results.seat"), no_wrap=True)
    table.add_column(say("tui.results.hand"))
    table.add_column(say("tui.results.sum"), justify="right")
    table.add_column(say("tui.results.steps"))
    table.add_column(say("tui.results.score"), justify="right")
    table.add_column(say("tui.results.total"), justify="right")
    winners = info.get("winners", [])
    caller = info.get("caller")
    steps: list[list[ScoreAdjustment]] = info.get("adjustments") or []
    reset = [int(r) for r in info.get("reset") or []]
    for s, hand in enumerate(info["hands"]):
        name = seat_name(s, me)
        if s == caller:
            name += " " + say("tui.results.caller")
        if s in winners:
            name += " ★"
        total = str(info["totals"][s])
        if s in reset:
            total += " " + say("tui.results.halved")
        why = (
            _adjustment_words(steps[s])
            if s < len(steps)
            else _score_words(int(info["sums"][s]), int(info["scores"][s]), s == caller)
        )
        table.add_row(
            Text(name, style="bold green" if s in winners else ""),
            cards_text([c for c in hand if c is not None]),
            str(info["sums"][s]),
            why,
            str(info["scores"][s]),
            total,
        )
    return Group(table, Text(_legend(rs, info), style="dim"))


def _score_words(total: int, score: int, caller: bool) -> str:
    """Why a round score differs from the hand's sum, for results that carry no adjustments."""
    if score == total:
        return ""
    if caller and score > total:
        return family_score_step("caller_penalty", score - total)
    if caller and score == 0:
        return family_score_step("caller_lowest", 0)
    return family_score_step("rule", score - total)


# ---------------------------------------------------------------------------- events
def _family_event(ev: Happening, me: int) -> list[RenderableType]:
    """A Cabo-family event in words (:func:`.phrase.phrase`), as seat
    ``me`` may see it, its cards styled; a round's end adds its results.

    Every card the event shows is named (``seat 1 took the [7H] from the discard pile``): an
    event as a seat without memory aid reads it again holds only the cards the whole table
    saw, so what it names stays true for everyone.
    """
    line = said_text(phrase(ev, me))
    if isinstance(ev, FamilyRoundEnd):
        return [line, _family_round_end(ev.result, me)]
    return [line]
