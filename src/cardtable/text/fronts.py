"""Which :class:`~cardtable.text.render.Front` draws which variant, read from the registries.

Every variant whose rule set is in :data:`~cardtable.games.family.rulesets.RULESETS` is drawn
by the Cabo family's front (:mod:`cardtable.text.family`), every variant of kind ``qute``
(:attr:`cardtable.variants.Variant.family`) by Qute's. :data:`FAMILY`, :data:`PLAYABLE` and
:data:`FRONTS` are read afresh each time they are used, so a variant registered at run time
(:func:`cardtable.games.family.add_variant`) is playable in the terminal at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import overload

from rich.console import RenderableType

from .. import variants
from ..events import Happening, decode
from ..games.family.rulesets import RULESETS
from ..games.qute import FAMILY as QUTE_KIND
from ..views import View
from .family import family_front
from .phrase import kinds_for
from .qute import QUTE_FRONT
from .render import Front, RoundResult

__all__ = [
    "FAMILY",
    "FRONTS",
    "PLAYABLE",
    "describe_event",
    "front",
    "render_round_end",
    "render_view",
]

_KINDS: dict[str, Front] = {QUTE_KIND: QUTE_FRONT}
"""The front of each kind of game (:attr:`Variant.family`) that is not the Cabo family."""


class _Names(Sequence[str]):
    """A tuple of variant names computed when it is read (so it follows the registries)."""

    def __init__(self, names: Callable[[], tuple[str, ...]]) -> None:
        self._names = names

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __repr__(self) -> str:
        return repr(self._names())


def _family() -> tuple[str, ...]:
    return tuple(RULESETS)


def _others() -> tuple[str, ...]:
    return tuple(
        name
        for name in variants.names()
        if name not in RULESETS and variants.get(name).family in _KINDS
    )


FAMILY: Sequence[str] = _Names(_family)
"""Variants this front end draws as the Cabo family: every one whose rule set is registered
in :data:`~cardtable.games.family.rulesets.RULESETS` when it is read."""

PLAYABLE: Sequence[str] = _Names(lambda: _family() + _others())
"""Variants ``cardtable play`` accepts: the Cabo family's, then Qute (read when used)."""


class _Fronts(Mapping[str, Front]):
    """Every game this front end can draw, by variant name, looked up when asked."""

    def __getitem__(self, name: str) -> Front:
        if name in RULESETS:
            return family_front(RULESETS[name])
        if name in _others():
            return _KINDS[variants.get(name).family]
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(PLAYABLE)

    def __len__(self) -> int:
        return len(PLAYABLE)


FRONTS: Mapping[str, Front] = _Fronts()
"""Every game this front end can draw, by variant name (follows the registries)."""


def front(game: str | None) -> Front:
    """The :class:`~cardtable.text.render.Front` of variant ``game`` (``None``: the Cabo
    family's).

    Raises ``ValueError`` for a game the terminal cannot draw.
    """
    if game is None:
        return FRONTS[FAMILY[0]]
    if game not in FRONTS:
        raise ValueError(f"the terminal cannot draw {game}; playable here: {', '.join(PLAYABLE)}")
    return FRONTS[game]


def render_view(view: View, me: int, title: str = "") -> RenderableType:
    """Draw the table from seat ``me``'s view alone (the game is read from ``view["game"]``)."""
    return front(view["game"]).table(view, me, title)


def describe_event(
    ev: Happening | Mapping[str, object], me: int, game: str | None = None
) -> list[RenderableType]:
    """An event in plain words, as seat ``me`` sees it: a typed one, or one of
    ``view["events"]`` of variant ``game`` (default: the Cabo family)."""
    typed = ev if isinstance(ev, Happening) else decode(ev, kinds_for(game))
    return front(game).event(typed, me)


def render_round_end(info: RoundResult, me: int, game: str | None = None) -> RenderableType:
    """The results of a finished round of variant ``game`` (default: the Cabo family)."""
    return front(game).round_end(info, me)
