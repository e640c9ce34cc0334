"""Every move in words, once: each event of both games phrased from the reader's side.

:func:`phrase` turns one event of ``view["events"]`` (or ``history``) into a :class:`Said`: the
sentence, from the catalog (:mod:`cardtable.text.catalog`), and its tone, which a front end
lays out as it likes (the terminal styles it, the browser shows it). Who the sentence names is
the :class:`Reader`'s business: ``you`` for the reader's own seat, a seat's name where the
front end has names (``Ann``, ``Casual AI for Bob``), ``seat 2`` otherwise.

A phrasing reads only the event it is given, as the reader's seat sees it (a typed event of
:mod:`cardtable.events`, or its JSON as views carry it): a card the event does not hold for that
reader is never named. Cards are written ``[7H]``, the form the terminal styles and the leak
tests look for.

One ``case`` per event class, matched on the class (``_family``, ``_qute``, ``_both``).

:func:`refusal` says why a move was refused (an :class:`~cardtable.errors.IllegalAction`: a
catalog key and typed placeholders) from the reader's side: in full to the seat refused, seats
named as the reader names them (``you cannot act now: Bob is to act``); to anyone else only that
the seat's move was refused, since a refusal may name the refused seat's own cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ..catalog import Names, card_token, cards_list, join_and, number_word
from ..errors import IllegalAction
from ..events import (
    FAMILY_KINDS,
    QUTE_KINDS,
    At,
    Call,
    Claim,
    Continue,
    DeadEnd,
    Discard,
    Drop,
    Eights,
    Exchange,
    FamilyDraw,
    FamilyPenalty,
    FamilyRoundEnd,
    FamilyRoundStart,
    GameOver,
    Give,
    Happening,
    JPoints,
    Look,
    MaxTurns,
    Pass,
    Peek,
    Play,
    QuteCall,
    QuteDraw,
    QutePenalty,
    QuteRoundEnd,
    QuteRoundStart,
    Refill,
    Replace,
    Reshuffle,
    Skip,
    Snap,
    SnapOpen,
    Spy,
    SuitChosen,
    Turn,
    decode,
)
from ..games.family.rulesets import RULESETS
from ..games.qute.tables import EIGHT_DRAWS
from .catalog import has, say

__all__ = [
    "Reader",
    "Said",
    "Tone",
    "card_token",
    "cards_list",
    "chosen_for",
    "join_and",
    "kinds_for",
    "number_word",
    "phrase",
    "refusal",
]

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
class Reader(Names):
    """Whose side a sentence is told from: a seat (``None``: a spectator) and the seats'
    names (none: ``seat N``); seats are named as :class:`~cardtable.catalog.Names` says
    (``you``, ``Ann``, ``seat 2``), places as below."""

    def addr(self, at: At, actor: int | None = None) -> str:
        """A place in words: ``your card 2``; another seat's as ``1.3`` (or ``Ann's card 3``
        where seats have names, ``their card 3`` in a sentence about that seat, ``actor``)."""
        if self.you(at.seat):
            return say("addr.yours", pos=at.pos)
        if at.seat < len(self.names) and self.names[at.seat]:
            if at.seat == actor:
                return say("addr.theirs", pos=at.pos)
            return say("addr.named", whose=self.whose(at.seat), pos=at.pos)
        return str(at)

    def addrs(self, places: Sequence[At], actor: int | None = None) -> str:
        """Several places: ``your cards 0, 1 and 3``, or each in words, joined (``actor``: as
        for :meth:`addr`)."""
        mine = [str(a.pos) for a in places if self.you(a.seat)]
        if places and len(mine) == len(places):
            return say("addrs.yours", n=len(mine), pos=join_and(mine))
        return join_and([self.addr(a, actor) for a in places])


def _who(
    seat: int, r: Reader, key: str, tone: Tone = "plain", /, n: int | None = None, **params: object
) -> Said:
    """The message ``key`` told of ``seat`` (``who``, and its ``.you`` form when the seat is the
    reader's), with ``params`` (``n``: the count of a plural)."""
    return Said(say(key, n=n, who=r.name(seat), you=r.you(seat), **params), tone)


def _the(codes: Sequence[object]) -> str:
    """Cards with their article: ``the [7H]``, ``the [5] and [5]``."""
    return say("family.the", cards=join_and([card_token(c) for c in codes]))


def _the_one(code: str | None, unnamed: str) -> str:
    """The card ``code`` with its article when the reader knows it, else the message
    ``unnamed``."""
    return _the([code]) if code else say(unnamed)


def _power(power: str) -> str:
    name = f"power.{power}"
    return say(name) if has(name) else power


def _family_looks(ev: Happening, r: Reader) -> Said | None:
    """A Cabo-family look at cards (a peek, a spy, a look, a blind exchange) in words
    (``None``: another kind)."""
    match ev:
        case Peek(seat=seat, at=at, card=card):
            if card is not None:
                return _who(seat, r, "family.peek.card", at=r.addr(at, seat), card=card_token(card))
            return _who(seat, r, "family.peek", at=r.addr(at, seat))
        case Spy(seat=seat, at=at, card=card):
            if card is not None:
                return _who(seat, r, "family.spy.card", at=r.addr(at, seat), card=card_token(card))
            return _who(seat, r, "family.spy", at=r.addr(at, seat))
        case Look(seat=seat, at=(a, b), cards=cards):
            if cards:
                own, other = card_token(cards[0]), card_token(cards[1])
                return _who(
                    seat,
                    r,
                    "family.look.cards",
                    a=r.addr(a, seat),
                    b=r.addr(b, seat),
                    card_a=own,
                    card_b=other,
                )
            return _who(seat, r, "family.look", a=r.addr(a, seat), b=r.addr(b, seat))
        case Exchange(seat=seat, at=(a, b)):
            return _who(seat, r, "family.exchange", a=r.addr(a, seat), b=r.addr(b, seat))
    return None


def _family(ev: Happening, r: Reader) -> Said | None:
    """A Cabo-family event in words (``None``: not one of the family's)."""
    match ev:
        case FamilyRoundStart(round=n, first=first, discard=pile):
            key = "family.round_start.pile" if pile else "family.round_start"
            return Said(
                say(key, who=r.name(first), you=r.you(first), round=n, cards=_the(pile)), "strong"
            )
        case FamilyDraw(seat=seat, source=source, card=card):
            if card is not None:
                return _who(seat, r, f"family.draw.{source}.card", card=_the([card]))
            return _who(seat, r, f"family.draw.{source}")
        case Replace(seat=seat, at=at, card=card, out=out):
            return _who(
                seat,
                r,
                "family.replace",
                card=_the_one(card, "family.the_drawn_card"),
                at=r.addrs(at, seat),
                out=_the(out) if out else say("family.the_old_card"),
            )
        case Claim(seat=seat, at=at, ok=True, card=card, out=out):
            right = _the(out or ())
            new = _the_one(card, "family.the_new_card")
            to = r.addr(at[0], seat)
            return _who(
                seat, r, "family.claim.right", at=r.addrs(at, seat), out=right, card=new, to=to
            )
        case Claim(seat=seat, at=at, card=card, new=new, shown=shown):
            return _who(
                seat,
                r,
                "family.claim.wrong",
                at=r.addrs(at, seat),
                shown=_the(shown) if shown else say("family.shown_to_everyone"),
                card=_the_one(card, "family.the_new_card"),
                to=r.addr(new, seat) if new is not None else "?",
            )
        case Discard(seat=seat, power=power, card=card):
            if power:
                return _who(seat, r, "family.discard.power", card=_the([card]), power=_power(power))
            return _who(seat, r, "family.discard", card=_the([card]))
        case Pass(seat=seat):
            return _who(seat, r, "family.pass")
        case Call(seat=seat, word=word):
            return _who(seat, r, "family.call", "call", word=word)
        case FamilyPenalty(seat=seat, at=None):
            return _who(seat, r, "family.penalty.none")
        case FamilyPenalty(seat=seat, at=At() as at):
            return _who(seat, r, "family.penalty", "alarm", at=r.addr(at, seat))
        case Drop(seat=seat, at=at, ok=ok, card=card):
            key = "family.drop.match" if ok else "family.drop.no_match"
            return _who(seat, r, key, card=_the([card]), at=r.addr(at, seat))
        case Give(seat=seat, source=source, to=to):
            return _who(
                seat, r, "family.give", source=r.addr(source, seat), target=r.addr(to, seat)
            )
        case SnapOpen(card=card):
            return Said(say("family.snap_open", card=_the([card])))
        case Snap(seat=seat, at=at, ok=ok, card=card):
            key = "family.snap.right" if ok else "family.snap.wrong"
            return _who(seat, r, key, card=_the([card]), at=r.addr(at, seat))
        case Reshuffle(deck=deck):
            return Said(say("family.reshuffle", n=deck))
    return None


def _times(who: str, n: int) -> str:
    """A seat skipped ``n`` times: ``seat 1``, ``seat 1 twice``, ``seat 1 3 times``."""
    key = f"qute.times.{n}"
    return say(key if has(key) else "qute.times", who=who, n=n)


def _skip(seats: Sequence[int], rank: str, r: Reader) -> Said:
    """A skip, as it happens: an ace skips the next seat (once per ace); an 8 the next seat,
    who drew for it; after 'eights all' (several seats drew for the 8s) play goes on after the
    last seat to draw, which may be one that drew (the turn line says who)."""
    if rank == "8" and len(set(seats)) > 1:
        drew = join_and([r.name(s) for s in dict.fromkeys(seats)])
        return Said(say("qute.skip.eights_all", seats=drew))
    names = [_times(r.name(s), seats.count(s)) for s in dict.fromkeys(seats)]
    cause = "qute.skip.eight" if rank == "8" else "qute.skip.ace"
    return Said(say(cause, n=len(seats), seats=join_and(names)))


def _penalty(seat: int, count: int, rank: str, cards: Sequence[str] | None, r: Reader) -> Said:
    several = count > (EIGHT_DRAWS if rank == "8" else 1)
    reason = say("qute.penalty.reason", n=2 if several else 1, rank=rank)
    if not count:
        return _who(seat, r, "qute.penalty.none", "alarm", n=None, reason=reason)
    if cards:
        listed = cards_list(cards)
        return _who(seat, r, "qute.penalty.cards", "alarm", n=count, reason=reason, cards=listed)
    return _who(seat, r, "qute.penalty", "alarm", n=count, reason=reason)


def _qute(ev: Happening, r: Reader) -> Said | None:
    """A Qute event in words (``None``: not one of Qute's)."""
    match ev:
        case QuteRoundStart(round=n, first=first):
            return Said(
                say("qute.round_start", who=r.name(first), you=r.you(first), round=n), "strong"
            )
        case Play(seat=seat, cards=cards, left=left):
            if left:
                return _who(seat, r, "qute.play", cards=cards_list(cards), n=left)
            return _who(seat, r, "qute.play.out", cards=cards_list(cards), n=None)
        case QuteDraw(seat=seat, card=False):
            return _who(seat, r, "qute.draw.none")
        case QuteDraw(seat=seat, drawn=str() as drawn):
            return _who(seat, r, "qute.draw.card", card=card_token(drawn))
        case QuteDraw(seat=seat):
            return _who(seat, r, "qute.draw")
        case QutePenalty(seat=seat, count=count, reason=rank, cards=cards):
            return _penalty(seat, count, rank, cards, r)
        case Refill(blind=blind, refills=k):
            return Said(say("qute.refill", n=blind, refill=k, times=k + 1), "note")
        case Skip(seats=seats, reason=rank):
            return _skip(seats, rank, r)
        case QuteCall(seat=seat):
            return _who(seat, r, "qute.qute", "call")
        case Continue(seat=seat):
            return _who(seat, r, "qute.continue")
        case SuitChosen(seat=seat, suit=suit):
            name = say(f"suit.{suit}") if has(f"suit.{suit}") else suit
            return _who(seat, r, "qute.suit", suit=suit, name=name)
        case Eights(seat=seat, mode=mode):
            key = "qute.eights.all" if mode == "all" else "qute.eights.next"
            return _who(seat, r, key, draws=number_word(EIGHT_DRAWS))
        case JPoints(seat=seat, mode=mode):
            return _who(seat, r, f"qute.jpoints.{mode}")
        case DeadEnd(seat=seat):
            return _who(seat, r, "qute.dead_end", "note")
        case MaxTurns(turns=turns):
            return Said(say("qute.max_turns", turns=turns))
    return None


def _both(ev: Happening, r: Reader) -> Said | None:
    """An event both games have in words (``None``: another kind)."""
    match ev:
        case Turn(seat=seat):
            return _who(seat, r, "turn", "quiet")
        case FamilyRoundEnd(result=result) | QuteRoundEnd(result=result):
            return Said(say("round.over", round=result["round"]), "strong")
        case GameOver():
            return Said(say("game.over"), "strong")
    return None


def kinds_for(game: str | None) -> Mapping[str, type[Happening]]:
    """The event classes of variant ``game``, by kind: the Cabo family's for a rule set of
    :data:`~cardtable.games.family.rulesets.RULESETS` (and for ``None``), else Qute's."""
    return FAMILY_KINDS if game is None or game in RULESETS else QUTE_KINDS


def phrase(
    ev: Happening | Mapping[str, object], reader: Reader | int | None, game: str | None = None
) -> Said:
    """Event ``ev`` in words, as ``reader`` (a :class:`Reader`, a seat, or ``None`` for a
    spectator) reads it. ``ev`` must be the event as the reader's seat sees it (only the cards
    it holds are named): a typed event, or one as views carry it (JSON, of variant ``game``:
    default the Cabo family)."""
    r = reader if isinstance(reader, Reader) else Reader(reader)
    typed = ev if isinstance(ev, Happening) else decode(ev, kinds_for(game))
    said = _both(typed, r) or _family_looks(typed, r) or _family(typed, r) or _qute(typed, r)
    if said is None:  # pragma: no cover - every kind above has its phrasing
        raise ValueError(f"no phrasing for {typed!r}")
    return said


def refusal(exc: IllegalAction, reader: Reader | int | None) -> str:
    """Why ``exc``'s move was refused, as ``reader`` (a :class:`Reader`, a seat, or ``None`` for
    a spectator) reads it, in the catalog in use: in full for the seat refused (``you have no
    card at position 9``, ``you cannot act now: Bob is to act``), and for anyone when no seat
    is known (text that is not an action); anyone else reads only that the seat's move was not
    allowed, never the refused seat's cards."""
    r = reader if isinstance(reader, Reader) else Reader(reader)
    return exc.phrased(r)


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
