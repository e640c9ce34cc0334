"""Shared helpers for the stacked-deck rules scenarios (tests/test_rules_*.py); not a test module.

A scenario deals a known deck, plays actions in notation and checks what each seat (and a
spectator) may see. Cards are given by their codes; a stacked deck lists them top first.
Variant-specific starters (`cabo(...)`, `kaboo(...)`, `start(...)`, …) stay in their test
files and build on `deal`, `deal_and_peek` and `stack`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardtable import Game, new_game

# --------------------------------------------------------------------------- dealing


def stack(
    hands: Sequence[Sequence[str]],
    discard: str | None = None,
    deck: Sequence[str] | None = (),
) -> list[str]:
    """The stacked deck, top first, that deals ``hands`` in deal order.

    Cards are dealt position by position round the table (position 0 of every seat, then
    position 1, …), then ``discard`` starts the discard pile (``None``: no starter, as in
    kaboo), then ``deck`` follows, top first (``None`` is the same as empty).
    """
    order = [hand[pos] for pos in range(4) for hand in hands]
    if discard is not None:
        order.append(discard)
    return [*order, *(deck or ())]


def full_order(
    full: Sequence[str],
    prefix: Sequence[str],
    tail: Sequence[str],
    key: Callable[[str], Any] | None = None,
) -> list[str]:
    """Every card of the ``full`` deck: ``prefix`` first, ``tail`` last, and the rest in
    between, sorted (by ``key`` if given)."""
    middle = Counter(full) - Counter(prefix) - Counter(tail)
    return [*prefix, *sorted(middle.elements(), key=key), *tail]


def deal(
    variant: str,
    hands: Sequence[Sequence[str]],
    discard: str | None = None,
    deck: Sequence[str] | None = (),
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """A ``variant`` game for ``len(hands)`` seats dealt from ``stack(hands, discard, deck)``,
    with exactly the rule ``options`` given (no defaults added)."""
    return new_game(
        variant,
        players=len(hands),
        seed=seed,
        options=options,
        deck=stack(hands, discard, deck),
    )


def peek_all(g: Game, peeks: Sequence[tuple[int, int]] | None = None) -> None:
    """Every seat, in seat order, peeks at two of its own positions: ``peeks[seat]`` if
    given, otherwise positions 0 and 1."""
    chosen = peeks if peeks is not None else [(0, 1)] * g.players
    for seat, (a, b) in enumerate(chosen):
        g.play(seat, f"peek {a}")
        g.play(seat, f"peek {b}")


def deal_and_peek(
    variant: str,
    hands: Sequence[Sequence[str]],
    discard: str | None,
    deck: Sequence[str] | None = (),
    *,
    peeks: Sequence[tuple[int, int]] | None = None,
    seed: int = 0,
    **options: Any,
) -> Game:
    """A game dealt by `deal`, single round unless ``target`` is among ``options``, after
    every seat has peeked (see `peek_all`)."""
    g = deal(variant, hands, discard, deck, seed=seed, options={"target": None, **options})
    peek_all(g, peeks)
    return g


# --------------------------------------------------------------------------- turns


def quick_turn(g: Game, seat: int, pos: int = 0) -> None:
    """Draw from the deck and replace own card ``pos`` (never triggers a power)."""
    g.play(seat, "draw deck")
    g.play(seat, f"replace {pos}")


def all_pass(g: Game) -> None:
    """Every seat still in the (gabo) snap window passes, in seat order."""
    for seat in list(g.actors):
        g.play(seat, "pass")


def draw_turn(g: Game, seat: int) -> str:
    """Draw from the deck, note the card, replace own card 0 (gabo: everyone passes)."""
    g.play(seat, "draw deck")
    card = g.view(seat)["drawn"]
    g.play(seat, "replace 0")
    if g.variant == "gabo":
        all_pass(g)
    assert isinstance(card, str)
    return card


def draw_turns(g: Game, count: int) -> None:
    """``count`` turns in a row of `draw_turn`, each by the seat whose turn it is."""
    for _ in range(count):
        draw_turn(g, g.view(0)["turn"])


# --------------------------------------------------------------------------- views


def hand(view: dict[str, Any], seat: int) -> list[str | None]:
    """A hand as the viewer sees it: the code, "?" for an unknown card, None for empty."""
    return [None if c is None else (c["card"] or "?") for c in view["hands"][seat]]


def seen(view: dict[str, Any], seat: int) -> list[list[int] | None]:
    """Who has seen each card of a hand (None for an empty position)."""
    return [None if c is None else c["seen"] for c in view["hands"][seat]]


def cell(g: Game, viewer: int | None, seat: int, pos: int) -> dict[str, Any] | None:
    """One position of a hand as ``viewer`` sees it (``None`` viewer: a spectator)."""
    view = g.spectator_view() if viewer is None else g.view(viewer)
    result: dict[str, Any] | None = view["hands"][seat][pos]
    return result


def shown(g: Game, viewer: int | None, seat: int, pos: int) -> str | None:
    """The code ``viewer`` sees at ``seat``'s position ``pos`` (``None`` if unknown)."""
    c = cell(g, viewer, seat, pos)
    assert c is not None, f"{seat}.{pos} is empty"
    code: str | None = c["card"]
    return code


def seen_at(g: Game, seat: int, pos: int) -> list[int]:
    """Seats that know the card at ``seat``'s position ``pos`` (as seat 0's view shows)."""
    c = cell(g, 0, seat, pos)
    assert c is not None, f"{seat}.{pos} is empty"
    seats: list[int] = c["seen"]
    return seats


def last_round(g: Game) -> dict[str, Any]:
    """The result of the last finished round (from seat 0's view)."""
    result: dict[str, Any] = g.view(0)["round_results"][-1]
    return result
