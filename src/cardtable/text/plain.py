"""The table as plain text: what the research adapters show of a game (the Gymnasium and
PettingZoo ``render()``, the OpenSpiel observation string). It reads a view and nothing else,
so the text never holds more than the view does."""

from __future__ import annotations

from collections.abc import Sequence

from .. import variants
from ..views import View, is_family_view, is_qute_view
from .phrase import Reader, result_head

__all__ = ["render_table"]


def _card(code: str | None) -> str:
    return "[??]" if code is None else f"[{code}]"


_PUBLIC = Reader()
"""The public table's reader (a spectator): seats are named as the text package names them."""


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(_PUBLIC.name(s) for s in seats) if seats else "nobody"


def render_table(view: View) -> str:
    """The table of ``view`` as text (pass ``game.spectator_view()`` for the public table).

    Every card is drawn in brackets: ``[7H]`` a card the view shows, ``[??]`` a card it does
    not, ``[  ]`` an empty hand position. Only fields of ``view`` are read, so the text never
    holds more than the view does.
    """
    name = view["game"]
    try:
        title = variants.get(name).title
    except ValueError:
        title = str(name)
    totals = view["totals"]
    target = view["target"]
    lines = [
        f"{title} · round {view['round']} · target {target if target is not None else 'none'}"
        f" · phase {view['phase']}",
        f"turn: {_seats([view['turn']])} · to act: {_seats(view['actors'])}",
    ]
    if is_family_view(view):
        caller = view["caller"]
        for s, hand in enumerate(view["hands"]):
            slots = " ".join("[  ]" if slot is None else _card(slot["card"]) for slot in hand)
            total = f" · total {totals[s]}" if s < len(totals) else ""
            mark = f" · called {view['call']}" if caller == s else ""
            lines.append(f"{_PUBLIC.name(s)}: {slots}{total}{mark}")
        discard = view["discard"]
        top = _card(discard[-1]) if discard else "empty"
        lines.append(
            f"discard: {top} ({len(discard)} cards) · deck: {view['deck']} cards"
            f" · reshuffles: {view['reshuffles']}"
        )
        if view["drawer"] is not None:
            lines.append(
                f"drawn: {_PUBLIC.name(view['drawer'])} holds {_card(view['drawn'])}"
                f" from the {view['drawn_from']}"
            )
        pending = view["pending"]
        if pending is not None:
            if "give" in pending:
                lines.append(f"pending: give a card to {pending['give']}")
            else:
                text = f"pending: {pending['power']} from {_card(pending['card'])}"
                if "looked" in pending:  # a look: the two cards it showed
                    text += " · looked at " + " and ".join(pending["looked"])
                lines.append(text)
        snap = view["snap"]
        if snap is not None:
            lines.append(f"snap window: {_card(snap['card'])} · passed: {_seats(snap['passed'])}")
        if caller is not None:
            lines.append(f"final turns left: {view['final_turns_left']}")
    elif is_qute_view(view):
        counts = view["counts"]
        for s, qute_hand in enumerate(view["hands"]):
            slots = " ".join(_card(slot["card"]) for slot in qute_hand)
            total = f" · total {totals[s]}" if s < len(totals) else ""
            lines.append(f"{_PUBLIC.name(s)}: {counts[s]} cards {slots}{total}")
        stack = view["stack"]
        top = _card(view["top"]) if view["top"] is not None else "empty"
        suit = f" · suit asked: {view['suit']}" if view["suit"] is not None else ""
        lines.append(
            f"stack: top {top}{suit} ({len(stack)} cards) · blind: {view['blind']} cards"
            f" · refills: {view['refills']}"
        )
        laid = view["laid"]
        if laid:
            lines.append("laid this turn: " + " ".join(_card(c) for c in laid))
        if view["drawn"] is not None:
            lines.append(f"drawn this turn: {_card(view['drawn'])}")
        if view["pending"] is not None:
            lines.append(f"pending: {view['pending']}")
    result = view["result"]
    if view["over"] and result is not None:
        lines.append(f"game over · {result_head(result['winners'], _PUBLIC)}")
    return "\n".join(lines) + "\n"
