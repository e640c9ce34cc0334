"""Every move in plain words, from the side of the seat that makes it: what a hint, a review
or a lesson says instead of the notation (``replace 2`` reads "put the drawn card in place
of your card 2").

The words are the messages ``move.*`` of the catalogs (``moves.po``); places are named as
:class:`~cardtable.text.phrase.Reader` names them, another seat's card with the seat's name
(``seat 1's card 3``, ``Ann's card 3``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..catalog import card_token, has, join_and, say
from ..events import At
from ..notation import Action, Address
from .phrase import Reader

__all__ = ["move_words"]


def _at(seat: int, addr: Address) -> At:
    if isinstance(addr, int):
        return At(seat, addr)
    return At(addr[0], addr[1])


def move_words(action: Action, seat: int, names: Sequence[str] = ()) -> str:
    """``action`` of ``seat`` in words, told to that seat (``names``: the seats' names)."""
    reader = Reader(seat, tuple(names) or tuple(say("seat", seat=s) for s in range(8)))

    def place(addr: object) -> str:
        assert isinstance(addr, (int, tuple))
        return reader.addr(_at(seat, addr))

    name, args = action.name, action.args
    if name == "draw":
        return say("move.draw." + str(args[0])) if args else say("move.draw")
    if name == "replace" and len(args) > 1:
        return say(
            "move.claim",
            places=reader.addrs([_at(seat, a) for a in args if isinstance(a, (int, tuple))]),
        )
    if name in ("replace", "peek", "spy", "drop", "give") and len(args) == 1:
        return say(f"move.{name}", place=place(args[0]))
    if name == "exchange" and not args:
        return say("move.exchange.looked")
    if name in ("exchange", "look") and len(args) == 2:
        return say(f"move.{name}", a=place(args[0]), b=place(args[1]))
    if name == "play":
        return say("move.play", cards=join_and([card_token(c) for c in args]))
    if name == "suit":
        return say("move.suit", suit=say(f"suit.{args[0]}"))
    if name in ("eights", "jpoints"):
        return say(f"move.{name}.{args[0]}")
    if not args and has(f"move.{name}"):
        return say(f"move.{name}")
    return say("move.call", word=name.capitalize()) if not args else str(action)
