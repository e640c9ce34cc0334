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
    plural_s,
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


_PHASES = {
    "peek": "initial peek: everyone looks at some of their own cards",
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


def _phase_words(view: FamilyView) -> str:
    """The phase of a view in words (the initial peek's count read from the rule set)."""
    phase = str(view["phase"])
    rs = RULESETS.get(str(view["game"]))
    if phase == "peek" and rs is not None:
        return f"initial peek: everyone looks at {number_word(rs.initial_peeks)} of their own cards"
    return _PHASES.get(phase, phase)


# ---------------------------------------------------------------------------- notation
def _ranks(rs: RuleSet, power: int) -> str:
    """The ranks (or codes) that carry ``power`` in ``rs``, as ``J`` or ``11/12``."""
    return "/".join(rank for rank, kind in rs.powers.items() if kind == power)


def notation(rs: RuleSet) -> tuple[tuple[str, str], ...]:
    """What to type in a game of ``rs``, as ``(text, meaning)`` rows for ``help``: the moves
    every variant has, then those its rule set adds (drops, powers, its call word)."""
    rows = [
        ("peek N", "look at your own card N (start of the round, or the peek power)"),
        ("draw deck", "take the top card of the deck"),
        ("draw discard", "take the top card of the discard pile"),
        ("replace N", "put the card you hold at your position N; the old card is discarded"),
        ("discard", "discard the card you drew from the deck (uses its power, if any)"),
    ]
    if SPY in rs.powers.values():
        rows.append(("spy P.N", "spy power: look at seat P's card N"))
    rows.append(("pass", "decline a power (where allowed)"))
    if rs.drops.claims:
        rows.append(
            ("replace N M …", "claim that your cards N, M, … have equal value and replace them all")
        )
    if ranks := _ranks(rs, SWAP):
        rows.append(
            ("exchange N P.N", f"{ranks} power: swap your card N with seat P's card N, unseen")
        )
    if ranks := _ranks(rs, LOOK):
        rows.append(("look N P.N", f"{ranks} power: look at your card N and seat P's card N"))
        rows.append(("exchange", "after look: swap the two cards you looked at"))
    if ranks := _ranks(rs, SWAP_ANY):
        rows.append(
            ("exchange A B", f"{ranks} power: swap any two cards of two different seats, unseen")
        )
    if rs.drops.pile_phases:
        rows.append(
            ("drop N / drop P.N", "drop a card matching the top of the discard pile (your turn)")
        )
        rows.append(("give N", "after dropping an opponent's card: give them your card N"))
    if rs.drops.snaps:
        rows.append(("drop N", "snap window: throw your card N if it has the window's rank"))
        rows.append(("pass", "snap window: you are done snapping for this window"))
    call = "call the end at the start of your turn"
    rows.append((rs.call, call + (": the round ends at once" if rs.call_ends_round else "")))
    return tuple(rows)


_NOTE = (
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
_MEMORY_NOTE = "Memory aid on: every card you have seen stays shown."


def _memory_note(rs: RuleSet, memory_aid: bool) -> str:
    """The ``help`` note's words on the memory aid in a game of ``rs``."""
    if memory_aid:
        return _MEMORY_NOTE
    if not rs.peek_shown_until_draw:
        return _NO_MEMORY_NOTE
    n = len(rs.auto_peek) or rs.initial_peeks
    cards = "card of your initial peek stays" if n == 1 else "cards of your initial peek stay"
    return (
        f"{_NO_MEMORY_NOTE} In {rs.name} the {'' if n == 1 else number_word(n) + ' '}{cards} "
        "shown until your first draw."
    )


def family_front(rs: RuleSet) -> Front:
    """The :class:`~cardtable.text.render.Front` of the Cabo-family variant played by ``rs``."""
    note = _NOTE
    if rs.face_up_in_hand:
        note += (
            f" '{FACE_UP_WORD}' under a card: it lies face up (taken from the discard pile, or "
            "shown by a wrong claim), for everyone to see."
        )

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
        return "all"
    return ",".join("you" if s == me else str(s) for s in seen)


_ROW_LABELS = ("pos", "card", "seen")
"""The labels of a hand's three lines: the positions, the cards, and who has seen each."""

FACE_UP_WORD = "up"
"""What the ``seen`` line says under a card that lies face up in a hand (cabo)."""


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
        return Text("no cards", style="dim")
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
                        Text(FACE_UP_WORD, style="bold yellow"),
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
        for row in range(3):
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append(_ROW_LABELS[row].ljust(5), style="dim")
            for k, trio in enumerate(cells):
                part = trio[row]
                left = (width - len(part.plain) + 1) // 2
                line.append(" " * (left + (1 if k else 0)))
                line.append_text(part)
                line.append(" " * (width - len(part.plain) - left))
            lines.append(line)
    return Group(*lines)


def _seat_panel(view: FamilyView, seat: int, me: int) -> Panel:
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


def _pending(view: FamilyView, me: int) -> Text | None:
    pending = view.get("pending")
    if not pending:
        return None
    who = seat_name(int(view["turn"]), me)
    if "give" in pending:
        return text_line(
            f"{who} may give a card into {addr_text(pending['give'], me)} (give N) or pass"
        )
    power = str(pending.get("power"))
    if power == "look" and "looked" in pending:
        a, b = (addr_text(x, me) for x in pending["looked"])
        can = "exchange or pass" if pending.get("can_exchange") else "only pass is left"
        return text_line(
            f"{who} looked at {a} and {b} with ", card_text(pending["card"]), f": {can}"
        )
    what = _POWER_WORDS.get(power, power)
    if power == "exchange" and pending.get("any"):
        what = "swap any two cards of two different seats, unseen (exchange A B)"
    verb = "use" if who == "you" else "uses"
    return text_line(f"{who} {verb} the power of ", card_text(pending["card"]), f": {what}")


def _snap(view: FamilyView, me: int) -> Text | None:
    snap = view.get("snap")
    if not snap:
        return None
    passed = [int(s) for s in snap.get("passed", [])]
    deciding = [s for s in range(int(view["players"])) if s not in passed]
    rank = str(snap["rank"]).lower() if snap["rank"] == "JOKER" else str(snap["rank"])
    return text_line(
        "open for rank ",
        Text(rank, style="bold"),
        " (drop N or pass); still snapping: ",
        ", ".join(seat_name(s, me) for s in deciding) or "nobody",
    )


def _memory_words(view: FamilyTable) -> str:
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
        them = "it" if len(seen) == 1 else "them"
        note = f" — shown in this table only: remember {them}"
        rows.append(("Seen now", _cards_at(seen, me, note)))
    kept = {
        f"{me}.{i}": str(cell["card"])
        for i, cell in enumerate(view["hands"][me])
        if cell is not None
        and cell["card"] is not None
        and not cell.get("face_up")
        and f"{me}.{i}" not in seen
    }
    if kept:
        note = " — your initial peek, shown until your first draw"
        rows.append(("Until draw", _cards_at(kept, me, note)))
    return rows


def _family_view(view: FamilyTable, me: int, title: str = "") -> RenderableType:
    """A Cabo-family table from seat ``me``'s view: status, other hands, then yours."""
    target = view.get("target")
    status = status_grid(
        view,
        title,
        "single round" if target is None else f"match to {target}",
        _memory_words(view),
    )
    phase = str(view["phase"])
    status.add_row("Phase", _phase_words(view))
    peeks_left = view.get("peeks_left")
    if phase == "peek" and peeks_left:
        status.add_row(
            "Peeks left", " · ".join(f"{seat_name(s, me)} {n}" for s, n in enumerate(peeks_left))
        )
    actors = [int(s) for s in view["actors"]]
    if phase in ("peek", "snap"):
        status.add_row("To act", ", ".join(seat_name(s, me) for s in actors) or "nobody")
    elif phase != "over":
        status.add_row(
            "Turn",
            f"{seat_name(int(view['turn']), me)} "
            f"(first this round: {seat_name(int(view['first']), me)})",
        )
    for name, row in _sight_rows(view, me):
        status.add_row(name, row)
    deck = f"{view['deck']} card{plural_s(view['deck'])}"
    if view.get("reshuffles"):
        deck += f" (reshuffled {view['reshuffles']}×)"
    status.add_row("Deck", deck)
    status.add_row("Discard", discard_pile_text(view["discard"]))
    drawer = view.get("drawer")
    if drawer is not None:
        src = {"deck": " from the deck", "discard": " from the discard pile"}.get(
            str(view.get("drawn_from")), ""
        )
        status.add_row(
            "Drawn",
            text_line(card_text(view.get("drawn")), f" held by {seat_name(int(drawer), me)}{src}"),
        )
    pending = _pending(view, me)
    if pending is not None:
        status.add_row("Pending", pending)
    snap = _snap(view, me)
    if snap is not None:
        status.add_row("Snap", snap)
    caller = view.get("caller")
    if caller is not None:
        left = view.get("final_turns_left")
        status.add_row(
            "Called",
            f"{seat_name(int(caller), me)} called {view['call']}"
            + (f" · {left} final turn{plural_s(left)} left" if left else ""),
        )
    else:
        status.add_row(
            "Call word",
            f"{view['call']} · turns played {view['turns']} (the round stops after "
            f"{view['max_turns']} without a call)",
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
    table.add_column("Seat", no_wrap=True)
    table.add_column("Hand")
    table.add_column("Sum", justify="right")
    table.add_column("Sum → score")
    table.add_column("Score", justify="right")
    table.add_column("Total", justify="right")
    winners = info.get("winners", [])
    caller = info.get("caller")
    steps: list[list[ScoreAdjustment]] = info.get("adjustments") or []
    reset = [int(r) for r in info.get("reset") or []]
    for s, hand in enumerate(info["hands"]):
        name = seat_name(s, me)
        if s == caller:
            name += " (caller)"
        if s in winners:
            name += " ★"
        total = str(info["totals"][s])
        if s in reset:
            total += " (halved: exactly the target)"
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
