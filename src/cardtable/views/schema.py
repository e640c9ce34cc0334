"""The union of both games' views and events, its JSON Schema and the strict validators.

:func:`view_schema` exports the JSON Schema (``python -m cardtable.views > docs/view.schema.json``
regenerates the checked-in copy) and :func:`validate_view` checks a view against it. Both need
pydantic, imported only when they are called.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Annotated, TypeAlias, TypeGuard

from .family import FamilyEvent, FamilyView
from .qute import QuteEvent, QuteView

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, TypeAdapter
    from pydantic_core import CoreSchema

__all__ = [
    "Event",
    "View",
    "is_family_view",
    "is_qute_view",
    "main",
    "validate_event",
    "validate_view",
    "view_schema",
]


class _ByGame:
    """Marks the union of views as told apart by ``game`` (``qute`` or a family variant)."""

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic import Discriminator, Tag

        def game(view: object) -> str | None:
            if not isinstance(view, dict):
                return None
            return "qute" if view.get("game") == "qute" else "family"

        family = Annotated[FamilyView, Tag("family")]
        qute = Annotated[QuteView, Tag("qute")]
        return handler(Annotated[family | qute, Discriminator(game)])


View: TypeAlias = Annotated[FamilyView | QuteView, _ByGame()]
"""What ``Game.view`` and ``Game.spectator_view`` return."""

Event: TypeAlias = FamilyEvent | QuteEvent
"""Any event as a seat sees it (``Event.for_seat``, ``Game.history``, a view's ``events``)."""


def is_qute_view(view: Mapping[str, object]) -> TypeGuard[QuteView]:
    """Whether ``view`` (either game's) is a Qute view: told apart by ``game``, as :data:`View`
    is. Narrows a view typed only as a mapping (``Game.view``) to :class:`QuteView`."""
    return view.get("game") == "qute"


def is_family_view(view: Mapping[str, object]) -> TypeGuard[FamilyView]:
    """Whether ``view`` (either game's) is a Cabo-family view (``game`` is any name but
    ``qute``). Narrows a view typed only as a mapping to :class:`FamilyView`."""
    return view.get("game") != "qute"


@cache
def _adapter() -> TypeAdapter[View]:
    from pydantic import TypeAdapter

    return TypeAdapter(View)


def view_schema() -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of a view of either game, as pydantic generates it
    from :data:`View`."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "View",
        "description": "What Game.view(seat) and Game.spectator_view() return (cardtable).",
        **_adapter().json_schema(),
    }


def validate_view(view: object) -> None:
    """Check that ``view`` has exactly the shape of :data:`View`.

    Strict: no key beyond those declared, none missing, no value of another type (no ``True``
    for an int, no tuple for a list). Raises :class:`pydantic.ValidationError` on a mismatch.
    """
    _adapter().validate_python(view, strict=True)


@cache
def _event_adapter() -> TypeAdapter[Event]:
    from pydantic import TypeAdapter

    return TypeAdapter(Event)


def validate_event(event: object) -> None:
    """Check that ``event`` (as a seat sees it: ``Event.for_seat``, ``Game.history``) has
    exactly the shape of one of the :data:`Event` types, strictly as :func:`validate_view`.
    Raises :class:`pydantic.ValidationError` on a mismatch."""
    _event_adapter().validate_python(event, strict=True)


def main() -> None:
    """Print the JSON Schema (``python -m cardtable.views > docs/view.schema.json``)."""
    import json

    print(json.dumps(view_schema(), indent=2, ensure_ascii=False))
