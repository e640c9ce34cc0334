"""The adapter's strings: information states (JSON of a view), observations (the table and the
last events in words, from the text package) and the debug text of a whole state."""

from __future__ import annotations

import json

from ...text.catalog import say
from ...text.phrase import Reader, phrase
from ...text.plain import render_table
from ...views import View
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
    """The seat's observation in words: :func:`observation_text` of its view, and what chance is
    drawing for (or that the move cap was reached); while the first deal is being chosen, how
    many cards are dealt."""
    text: str | None = n.memo_get(1, seat)
    if text is None:
        n.check_seat(seat)
        reader = Reader(seat)
        if n.eng is None:
            key = "openspiel.dealing.first" if n.first >= 0 else "openspiel.dealing"
            who = reader.name(n.first) if n.first >= 0 else ""
            text = say(key, game=n.spec.variant, n=len(n.chosen), who=who)
        else:
            lines = [observation_text(n.eng.view(seat), seat)]
            if n.pend >= 0:
                action = n.action_text(n.pseat, n.pend)
                lines.append(
                    say(
                        "openspiel.drawing",
                        whose=reader.whose(n.pseat),
                        action=action,
                        n=len(n.chosen),
                    )
                )
            if n.trunc:
                lines.append(say("openspiel.truncated"))
            text = "\n".join(lines)
        n.memo_set(1, seat, text)
    return text


def observation_text(view: View, seat: int) -> str:
    """Seat ``seat``'s ``view`` in words, read from the view alone: the table as the text
    package draws it in plain text (:func:`~cardtable.text.plain.render_table`, the
    Gymnasium environment's text render), whose view it is, then the events of the step that
    led here as the seat saw them, each phrased from its side
    (:func:`cardtable.text.phrase.phrase`)."""
    reader = Reader(seat)
    lines = [render_table(view).rstrip("\n"), say("openspiel.seat", seat=seat)]
    lines += [phrase(ev, reader, view["game"]).text for ev in view["events"]]
    return "\n".join(lines)


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
