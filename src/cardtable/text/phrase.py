"""Every move in words, once: each event of both games phrased from the reader's side.

:func:`phrase` turns one event of ``view["events"]`` (or ``history``) into a :class:`Said`: the
sentence, from the catalog (:mod:`cardtable.text.catalog`), and its tone, which a front end
lays out as it likes (the terminal styles it, the browser shows it). Who the sentence names is
the :class:`Reader`'s business: ``you`` for the reader's own seat, a seat's name where the
front end has names (``Ann``, ``Casual AI for Bob``), ``seat 2`` otherwise.

A phrasing reads only the event dict it is given, as the reader's seat sees it: a card the
event does not hold for that reader is never named. Cards are written ``[7H]``, the form the
terminal styles and the leak tests look for.

One function per event kind, in a table keyed by kind (:data:`FAMILY_PHRASES`,
:data:`QUTE_PHRASES`); an event of a kind neither knows is shown as its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..games.family.rulesets import RULESETS
from ..games.qute.tables import EIGHT_DRAWS
from .catalog import has, say

__all__ = [
    "FAMILY_PHRASES",
    "QUTE_PHRASES",
    "Event",
    "Reader",
    "Said",
    "Tone",
    "card_token",
    "cards_list",
    "chosen_for",
    "join_and",
    "number_word",
    "phrase",
    "phrases_for",
]

Event = Mapping[str, Any]
"""An event as a view or history holds it: a JSON object with its ``type`` and fields."""

Tone = Literal["plain", "quiet", "strong", "call", "alarm", "note"]
"""How a sentence weighs: ``quiet`` (a turn begins), ``strong`` (a round begins or ends),
``call`` (the end is called), ``alarm`` (a penalty), ``note`` (the table changed by itself)."""


@dataclass(frozen=True)
class Said:
    """One event in words, with its tone."""

    text: str
    """The sentence."""
    tone: Tone = "plain"
    """How it weighs (the front end picks the style)."""


@dataclass(frozen=True)
class Reader:
    """Whose side a sentence is told from: a seat (``None``: a spectator) and the seats'
    names (none: ``seat N``)."""

    seat: int | None = None
    """The reader's seat, named ``you``."""
    names: Sequence[str] = ()
    """Each seat's name, by seat (a seat past its end, or an empty name, is ``seat N``)."""

    def you(self, seat: object) -> bool:
        """Whether ``seat`` is the reader's."""
        return self.seat is not None and seat == self.seat

    def name(self, seat: int) -> str:
        """Seat ``seat`` as the reader reads it: ``you``, its name, or ``seat N``."""
        if self.you(seat):
            return say("you")
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return say("seat", seat=seat)

    def whose(self, seat: int) -> str:
        """Seat ``seat``'s, as a possessive: ``your``, ``Ann's``, ``seat 2's``."""
        if self.you(seat):
            return say("whose.you")
        return say("whose", who=self.name(seat))

    def addr(self, addr: str) -> str:
        """An address ``S.P`` in words: ``your card 2``; another seat's as ``1.3`` (or
        ``Ann's card 3`` where seats have names)."""
        seat, _, pos = addr.partition(".")
        if not seat.isdigit():
            return addr
        if self.you(int(seat)):
            return say("addr.yours", pos=pos)
        if int(seat) < len(self.names) and self.names[int(seat)]:
            return say("addr.named", whose=self.whose(int(seat)), pos=pos)
        return addr

    def addrs(self, addrs: Sequence[str]) -> str:
        """Several addresses: ``your cards 0, 1 and 3``, or each in words, joined."""
        mine = [a.partition(".")[2] for a in addrs if self.you(_seat_of(a))]
        if addrs and len(mine) == len(addrs):
            return say("addrs.yours", n=len(mine), pos=join_and(mine))
        return join_and([self.addr(a) for a in addrs])


def _seat_of(addr: str) -> int | None:
    seat = addr.partition(".")[0]
    return int(seat) if seat.isdigit() else None


def number_word(n: int) -> str:
    """``n`` in words for the small counts rules speak of (``two``); digits from ten on."""
    key = f"number.{n}"
    return say(key) if 0 <= n < 10 else str(n)


def join_and(items: Sequence[str]) -> str:
    """Words in a list as a sentence says them: ``a``, ``a and b``, ``a, b and c``."""
    if len(items) < 2:
        return "".join(items)
    return say("list.and", items=say("list.comma").join(items[:-1]), last=items[-1])


def card_token(code: object) -> str:
    """A card the reader knows, as the text writes it: ``[7H]``."""
    return f"[{code}]"


def cards_list(codes: Sequence[object]) -> str:
    """Cards side by side: ``[8D] [8H]``."""
    return " ".join(card_token(c) for c in codes)


Phraser = Callable[[Event, Reader], Said]
"""How one kind of event is phrased: ``phraser(event, reader)``."""


def _of(
    ev: Event,
    r: Reader,
    key: str,
    tone: Tone = "plain",
    /,
    *,
    n: int | None = None,
    **params: object,
) -> Said:
    """The message ``key`` with the event's actor (``who``, and its ``.you`` form when the
    actor is the reader) and ``params``."""
    seat = ev.get("seat")
    if not isinstance(seat, int):
        return Said(say(key, n=n, you=False, who="", **params), tone)
    return Said(say(key, n=n, who=r.name(seat), you=r.you(seat), **params), tone)


# ---------------------------------------------------------------------------- both games
def _turn(ev: Event, r: Reader) -> Said:
    return _of(ev, r, "turn", "quiet")


def _round_end(ev: Event, r: Reader) -> Said:
    return Said(say("round.over", round=ev.get("round")), "strong")


def _game_over(ev: Event, r: Reader) -> Said:
    return Said(say("game.over"), "strong")


def _unknown(ev: Event) -> Said:
    public = {k: v for k, v in ev.items() if k not in ("seq", "type")}
    return Said(say("event.unknown", kind=ev.get("type"), fields=public))


_BOTH: dict[str, Phraser] = {"turn": _turn, "round_end": _round_end, "game_over": _game_over}


# ---------------------------------------------------------------------------- Cabo family
def _the(codes: Sequence[object]) -> str:
    """Cards with their article: ``the [7H]``, ``the [5] and [5]``."""
    return say("family.the", cards=join_and([card_token(c) for c in codes]))


def _the_one(ev: Event, unnamed: str) -> str:
    """The event's card with its article when it holds one, else the message ``unnamed``."""
    code = ev.get("card")
    return _the([code]) if code else say(unnamed)


def _f_round_start(ev: Event, r: Reader) -> Said:
    first = int(ev["first"])
    pile = ev.get("discard") or []
    key = "family.round_start.pile" if pile else "family.round_start"
    words = say(key, who=r.name(first), you=r.you(first), round=ev["round"], cards=_the(pile))
    return Said(words, "strong")


def _f_peek(ev: Event, r: Reader) -> Said:
    at = r.addr(str(ev["at"]))
    if "card" in ev:
        return _of(ev, r, "family.peek.card", at=at, card=card_token(ev["card"]))
    return _of(ev, r, "family.peek", at=at)


def _f_spy(ev: Event, r: Reader) -> Said:
    at = r.addr(str(ev["at"]))
    if "card" in ev:
        return _of(ev, r, "family.spy.card", at=at, card=card_token(ev["card"]))
    return _of(ev, r, "family.spy", at=at)


def _f_draw(ev: Event, r: Reader) -> Said:
    pile = "deck" if ev.get("from") == "deck" else "discard"
    if "card" in ev:
        return _of(ev, r, f"family.draw.{pile}.card", card=_the([ev["card"]]))
    return _of(ev, r, f"family.draw.{pile}")


def _f_replace(ev: Event, r: Reader) -> Said:
    out = ev.get("out") or []
    return _of(
        ev,
        r,
        "family.replace",
        card=_the_one(ev, "family.the_drawn_card"),
        at=r.addrs(ev.get("at", [])),
        out=_the(out) if out else say("family.the_old_card"),
    )


def _f_claim(ev: Event, r: Reader) -> Said:
    at = ev.get("at", [])
    card = _the_one(ev, "family.the_new_card")
    if ev.get("ok"):
        out = _the(ev.get("out", []))
        return _of(
            ev, r, "family.claim.right", at=r.addrs(at), out=out, card=card, to=r.addr(at[0])
        )
    shown = ev.get("shown") or []
    return _of(
        ev,
        r,
        "family.claim.wrong",
        at=r.addrs(at),
        shown=_the(shown) if shown else say("family.shown_to_everyone"),
        card=card,
        to=r.addr(str(ev.get("new"))),
    )


def _f_discard(ev: Event, r: Reader) -> Said:
    card = _the_one(ev, "family.the_drawn_card")
    power = ev.get("power")
    if power:
        name = f"power.{power}"
        said = say(name) if has(name) else str(power)
        return _of(ev, r, "family.discard.power", card=card, power=said)
    return _of(ev, r, "family.discard", card=card)


def _pair(ev: Event, r: Reader) -> tuple[str, str]:
    a, b = (r.addr(str(x)) for x in ev.get("at", ["?", "?"]))
    return a, b


def _f_look(ev: Event, r: Reader) -> Said:
    a, b = _pair(ev, r)
    cards = ev.get("cards")
    if cards:
        card_a, card_b = card_token(cards[0]), card_token(cards[1])
        return _of(ev, r, "family.look.cards", a=a, b=b, card_a=card_a, card_b=card_b)
    return _of(ev, r, "family.look", a=a, b=b)


def _f_exchange(ev: Event, r: Reader) -> Said:
    a, b = _pair(ev, r)
    return _of(ev, r, "family.exchange", a=a, b=b)


def _f_pass(ev: Event, r: Reader) -> Said:
    return _of(ev, r, "family.pass")


def _f_call(ev: Event, r: Reader) -> Said:
    return _of(ev, r, "family.call", "call", word=ev.get("word"))


def _f_penalty(ev: Event, r: Reader) -> Said:
    if ev.get("at") is None:
        return _of(ev, r, "family.penalty.none")
    return _of(ev, r, "family.penalty", "alarm", at=r.addr(str(ev["at"])))


def _a_card(ev: Event) -> str:
    code = ev.get("card")
    return _the([code]) if code else say("family.a_card")


def _f_drop(ev: Event, r: Reader) -> Said:
    key = "family.drop.match" if ev.get("ok") else "family.drop.no_match"
    return _of(ev, r, key, card=_a_card(ev), at=r.addr(str(ev.get("at"))))


def _f_give(ev: Event, r: Reader) -> Said:
    source, target = r.addr(str(ev.get("from"))), r.addr(str(ev.get("to")))
    return _of(ev, r, "family.give", source=source, target=target)


def _f_snap_open(ev: Event, r: Reader) -> Said:
    return Said(say("family.snap_open", card=_a_card(ev)))


def _f_snap(ev: Event, r: Reader) -> Said:
    key = "family.snap.right" if ev.get("ok") else "family.snap.wrong"
    return _of(ev, r, key, card=_a_card(ev), at=r.addr(str(ev.get("at"))))


def _f_reshuffle(ev: Event, r: Reader) -> Said:
    return Said(say("family.reshuffle", n=int(ev.get("deck") or 0)))


FAMILY_PHRASES: Mapping[str, Phraser] = {
    **_BOTH,
    "round_start": _f_round_start,
    "peek": _f_peek,
    "draw": _f_draw,
    "replace": _f_replace,
    "claim": _f_claim,
    "discard": _f_discard,
    "spy": _f_spy,
    "look": _f_look,
    "exchange": _f_exchange,
    "pass": _f_pass,
    "call": _f_call,
    "penalty": _f_penalty,
    "drop": _f_drop,
    "give": _f_give,
    "snap_open": _f_snap_open,
    "snap": _f_snap,
    "reshuffle": _f_reshuffle,
}
"""How each kind of Cabo-family event is phrased."""


# ---------------------------------------------------------------------------- Qute
def _q_round_start(ev: Event, r: Reader) -> Said:
    first = int(ev["first"])
    words = say("qute.round_start", who=r.name(first), you=r.you(first), round=ev["round"])
    return Said(words, "strong")


def _q_play(ev: Event, r: Reader) -> Said:
    left = int(ev.get("left", 0))
    cards = cards_list(ev.get("cards", []))
    if left:
        return _of(ev, r, "qute.play", cards=cards, n=left)
    return _of(ev, r, "qute.play.out", cards=cards)


def _q_draw(ev: Event, r: Reader) -> Said:
    if not ev.get("card"):
        return _of(ev, r, "qute.draw.none")
    if "drawn" in ev:
        return _of(ev, r, "qute.draw.card", card=card_token(ev["drawn"]))
    return _of(ev, r, "qute.draw")


def _q_penalty(ev: Event, r: Reader) -> Said:
    count = int(ev.get("count", 0))
    rank = str(ev.get("for"))
    several = count > (EIGHT_DRAWS if rank == "8" else 1)
    reason = say("qute.penalty.reason", n=2 if several else 1, rank=rank)
    if not count:
        return _of(ev, r, "qute.penalty.none", "alarm", reason=reason)
    cards = ev.get("cards")
    if cards:
        return _of(
            ev, r, "qute.penalty.cards", "alarm", n=count, reason=reason, cards=cards_list(cards)
        )
    return _of(ev, r, "qute.penalty", "alarm", n=count, reason=reason)


def _q_refill(ev: Event, r: Reader) -> Said:
    k = int(ev.get("refills", 0))
    words = say("qute.refill", n=int(ev.get("blind") or 0), refill=k, times=k + 1)
    return Said(words, "note")


def _times(who: str, n: int) -> str:
    """A seat skipped ``n`` times: ``seat 1``, ``seat 1 twice``, ``seat 1 3 times``."""
    key = f"qute.times.{n}"
    return say(key if has(key) else "qute.times", who=who, n=n)


def _q_skip(ev: Event, r: Reader) -> Said:
    """A skip, as it happens: an ace skips the next seat (once per ace); an 8 the next seat,
    who drew for it; after 'eights all' (several seats drew for the 8s) play goes on after the
    last seat to draw, which may be one that drew (the turn line says who)."""
    seats = [int(s) for s in ev.get("seats", [])]
    rank = str(ev.get("for", "A"))
    if rank == "8" and len(set(seats)) > 1:
        drew = join_and([r.name(s) for s in dict.fromkeys(seats)])
        return Said(say("qute.skip.eights_all", seats=drew))
    names = [_times(r.name(s), seats.count(s)) for s in dict.fromkeys(seats)]
    cause = "qute.skip.eight" if rank == "8" else "qute.skip.ace"
    return Said(say(cause, n=len(seats), seats=join_and(names)))


def _q_qute(ev: Event, r: Reader) -> Said:
    return _of(ev, r, "qute.qute", "call")


def _q_continue(ev: Event, r: Reader) -> Said:
    return _of(ev, r, "qute.continue")


def _q_suit(ev: Event, r: Reader) -> Said:
    suit = str(ev.get("suit"))
    name = say(f"suit.{suit}") if has(f"suit.{suit}") else suit
    return _of(ev, r, "qute.suit", suit=suit, name=name)


def _q_eights(ev: Event, r: Reader) -> Said:
    key = "qute.eights.all" if ev.get("mode") == "all" else "qute.eights.next"
    return _of(ev, r, key, draws=number_word(EIGHT_DRAWS))


def _q_jpoints(ev: Event, r: Reader) -> Said:
    key = "qute.jpoints.minus" if ev.get("mode") == "minus" else "qute.jpoints.plus"
    return _of(ev, r, key)


def _q_dead_end(ev: Event, r: Reader) -> Said:
    return _of(ev, r, "qute.dead_end", "note")


def _q_max_turns(ev: Event, r: Reader) -> Said:
    return Said(say("qute.max_turns", turns=ev.get("turns")))


QUTE_PHRASES: Mapping[str, Phraser] = {
    **_BOTH,
    "round_start": _q_round_start,
    "play": _q_play,
    "draw": _q_draw,
    "penalty": _q_penalty,
    "refill": _q_refill,
    "skip": _q_skip,
    "qute": _q_qute,
    "continue": _q_continue,
    "suit": _q_suit,
    "eights": _q_eights,
    "jpoints": _q_jpoints,
    "dead_end": _q_dead_end,
    "max_turns": _q_max_turns,
}
"""How each kind of Qute event is phrased."""


def phrases_for(game: str | None) -> Mapping[str, Phraser]:
    """The phrasings of variant ``game``'s events: the Cabo family's for a rule set of
    :data:`~cardtable.games.family.rulesets.RULESETS` (and for ``None``), else Qute's."""
    return FAMILY_PHRASES if game is None or game in RULESETS else QUTE_PHRASES


def phrase(ev: Event, reader: Reader | int | None, game: str | None = None) -> Said:
    """Event ``ev`` of variant ``game`` (default: the Cabo family) in words, as ``reader`` (a
    :class:`Reader`, a seat, or ``None`` for a spectator) reads it. ``ev`` must be the event as
    the reader's seat sees it: only the cards it holds are named."""
    r = reader if isinstance(reader, Reader) else Reader(reader)
    phraser = phrases_for(game).get(str(ev.get("type")))
    return _unknown(ev) if phraser is None else phraser(ev, r)


def chosen_for(
    said: Said, seat: int, reader: Reader, kind: Literal["clock", "stand_in"], chooser: str = ""
) -> Said:
    """``said``, a move of seat ``seat`` that someone else chose for its player, with who chose
    it in front: ``time ran out for Ann: …`` (``kind`` ``clock``: the server played the timeout
    move) or ``Casual AI for you: …`` (``stand_in``: the AI ``chooser`` stood in)."""
    key = "chosen.clock" if kind == "clock" else "chosen.stand_in"
    return Said(say(key, whose=reader.name(seat), chooser=chooser, said=said.text), said.tone)


# ---------------------------------------------------------------------------- results
def round_results_title(n: object) -> str:
    """The title of a round's results table: ``Round 2 results``."""
    return say("results.round", round=n)


def result_head(winners: Sequence[int], reader: Reader | int | None) -> str:
    """Who won the game, from the reader's side: ``You win!``, ``Seat 1 wins.``, …"""
    r = reader if isinstance(reader, Reader) else Reader(reader)
    if r.seat is not None and r.seat in winners:
        others = [r.name(w) for w in winners if w != r.seat]
        return say("result.you_share", others=join_and(others)) if others else say("result.you")
    text = say("result.others", n=len(winners), seats=join_and([r.name(w) for w in winners]))
    return text[:1].upper() + text[1:]


def family_score_step(reason: str, points: int) -> str:
    """One step from a hand's sum to its round score, in words (``call failed: +5``)."""
    signed = f"+{points}" if points >= 0 else str(points)
    key = f"results.family.{reason}"
    return say(key if has(key) else "results.family.other", points=points, signed=signed)


def family_legend(scoring: str, called: bool, reset: bool) -> str:
    """What a Cabo-family results table needs explained: the star, the scoring rule of the
    game (``scoring``: its scoring hook's name, ``cabo``/``gabo``; another scores the sum) and
    the exact-target reset, where it happened."""
    parts = [say("results.family.legend")]
    if has(f"results.family.legend.{scoring}"):
        parts.append(say(f"results.family.legend.{scoring}"))
    elif called:
        parts.append(say("results.family.legend.sum"))
    if reset:
        parts.append(say("results.family.legend.reset"))
    return " ".join(parts)


def qute_legend(jpoints: bool, multiplier: int, reset: bool, j_points: int) -> str:
    """What a Qute results table needs explained, only where it applied."""
    parts = [say("results.qute.legend")]
    if jpoints:
        parts.append(say("results.qute.legend.jpoints", points=j_points))
    if multiplier > 1:
        times = multiplier - 1
        key = f"count.times.{times}"
        count = say(key if has(key) else "count.times", n=times)
        parts.append(say("results.qute.legend.multiplier", times=multiplier, refills=count))
    if reset:
        parts.append(say("results.qute.legend.reset"))
    return " ".join(parts)
