"""The adapter's strings: information states (JSON of a view), observations (compact text)
and the debug text of a whole state."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .node import Node
from .spec import CHANCE


def info_string(n: Node, seat: int) -> str:
    """Canonical JSON of the seat's view (plus what is public about a pending draw)."""
    text: str | None = n.memo_get(0, seat)
    if text is None:
        text = json.dumps(_info_object(n, seat), sort_keys=True, separators=(",", ":"))
        n.memo_set(0, seat, text)
    return text


def _info_object(n: Node, seat: int) -> dict[str, object]:
    n.check_seat(seat)
    spec = n.spec
    if n.eng is None:
        return {
            "game": spec.variant,
            "players": spec.players,
            "seat": seat,
            "dealing": {
                "first": n.first if n.first >= 0 else None,
                "dealt": len(n.chosen),
            },
        }
    view = dict(n.eng.view(seat))
    if n.pend >= 0:
        view["chance"] = {
            "seat": n.pseat,
            "action": n.action_text(n.pseat, n.pend),
            "drawn": len(n.chosen),
        }
    if n.trunc:
        view["truncated"] = True
    return view


def obs_string(n: Node, seat: int) -> str:
    """A compact text of the seat's view, one line per seat and per public fact."""
    text: str | None = n.memo_get(1, seat)
    if text is None:
        n.check_seat(seat)
        if n.eng is None:
            first = f", first seat {n.first}" if n.first >= 0 else ""
            text = f"{n.spec.variant}: dealing ({len(n.chosen)} cards dealt{first})"
        else:
            view = n.eng.view(seat)
            lines = _family_text(view) if n.spec.family else _qute_text(view)
            if n.pend >= 0:
                lines.append(
                    f"drawing for seat {n.pseat}'s "
                    f"'{n.action_text(n.pseat, n.pend)}' "
                    f"({len(n.chosen)} drawn)"
                )
            if n.trunc:
                lines.append("truncated: the move cap was reached")
            text = "\n".join(lines)
        n.memo_set(1, seat, text)
    return text


def debug_text(n: Node) -> str:
    """Everything, hidden cards included (deterministic; for debugging and clone checks)."""
    spec = n.spec
    head = f"{spec.variant} players={spec.players} moves={n.moves}"
    if n.trunc:
        head += " truncated"
    lines = [head]
    if n.first >= 0:
        lines.append(f"first seat chosen: {n.first}")
    if n.player == CHANCE:
        chosen = " ".join(spec.card_text(c) for c in n.chosen) or "-"
        what = "deal" if n.eng is None else f"seat {n.pseat}: {n.action_text(n.pseat, n.pend)}"
        lines.append(f"chance for {what}; chosen so far: {chosen}")
    if n.eng is not None:
        lines += n.eng.debug_lines()
    return "\n".join(lines)


def _codes(cards: list[Any]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def _family_text(v: Mapping[str, Any]) -> list[str]:
    me = v["seat"]
    head = (
        f"{v['game']} round {v['round']}, phase {v['phase']}, turn of seat {v['turn']}, "
        f"to act: {_codes(v['actors'])}; you are seat {me}"
    )
    lines = [head]
    for s, hand in enumerate(v["hands"]):
        cards = " ".join("-" if slot is None else (slot["card"] or "?") for slot in hand)
        lines.append(f"seat {s}{' (you)' if s == me else ''}: {cards or '-'}")
    discard = v["discard"]
    lines.append(
        f"deck {v['deck']} (reshuffles {v['reshuffles']}), discard {len(discard)}: "
        f"top {discard[-1] if discard else '-'}"
    )
    if v["drawer"] is not None:
        lines.append(f"drawn by seat {v['drawer']} from the {v['drawn_from']}: {v['drawn'] or '?'}")
    if v["caller"] is not None:
        lines.append(
            f"{v['call']} called by seat {v['caller']}, final turns left {v['final_turns_left']}"
        )
    if v["pending"] is not None:
        lines.append("pending: " + json.dumps(v["pending"], sort_keys=True))
    if v["snap"] is not None:
        snap = v["snap"]
        lines.append(f"snap window for {snap['card']}, passed: {_codes(snap['passed'])}")
    if v["peeks_left"] is not None:
        lines.append(f"peeks left: {_codes(v['peeks_left'])}")
    lines.append(f"totals: {_codes(v['totals'])}; turns {v['turns']} of {v['max_turns']}")
    return lines


def _qute_text(v: Mapping[str, Any]) -> list[str]:
    me = v["seat"]
    lines = [
        f"qute round {v['round']}, phase {v['phase']}, turn of seat {v['turn']}; you are seat {me}"
    ]
    for s, hand in enumerate(v["hands"]):
        if s == me:
            shown = _codes(v["hand"])
        elif hand and all(slot["card"] for slot in hand):  # every hand is shown at the end
            shown = _codes([slot["card"] for slot in hand])
        else:
            shown = f"{len(hand)} cards"
        lines.append(f"seat {s}{' (you)' if s == me else ''}: {shown}")
    top = v["top"] or "-"
    suit = f" (suit {v['suit']})" if v["suit"] else ""
    lines.append(
        f"stack {len(v['stack'])}, top {top}{suit}; blind {v['blind']} (refills {v['refills']})"
    )
    if v["laid"]:
        lines.append(f"laid this turn: {_codes(v['laid'])}")
    if v["drawn"] is not None:
        lines.append(f"you drew: {v['drawn']}")
    if v["penalty_drawn"]:
        lines.append(f"your penalty cards: {_codes(v['penalty_drawn'])}")
    if any(v["penalty_counts"]):
        lines.append(f"penalty cards drawn: {_codes(v['penalty_counts'])}")
    if v["pending"] is not None:
        lines.append(f"decide: {v['pending']}")
    lines.append(f"totals: {_codes(v['totals'])}; turns {v['turns']} of {v['max_turns']}")
    return lines
