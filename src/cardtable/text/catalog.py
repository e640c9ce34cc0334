"""The message catalogs, as the text package reads them: ``say(key, **params)``, ``language``,
``load``, and the choice of a language (``supported``, ``negotiate``, ``from_env``,
``set_default``); see :mod:`cardtable.catalog`, where they live, in the foundation, so that the
rules' refusals are read from the same catalogs. The PO files are this package's:
``locale/<lang>/LC_MESSAGES/*.po``. :func:`say_text` is a message as a line of styled text for
the terminal, a placeholder given as styled text keeping its style."""

from __future__ import annotations

from rich.text import Text

from ..catalog import (
    DEFAULT_LANGUAGE,
    DOMAIN,
    Catalog,
    catalog,
    from_env,
    has,
    language,
    load,
    negotiate,
    say,
    set_default,
    supported,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "Catalog",
    "catalog",
    "from_env",
    "has",
    "language",
    "load",
    "negotiate",
    "say",
    "say_text",
    "set_default",
    "supported",
]


_MARK = "\x00"
"""Brackets a styled placeholder's index in the message before it is cut into pieces."""


def say_text(
    key: str, /, *, n: int | None = None, you: bool = False, style: str = "", **params: object
) -> Text:
    """The message ``key`` (see :func:`say`) as one line of text in ``style``: a placeholder
    given as a :class:`~rich.text.Text` (a card, a bold word) keeps its own style where the
    message puts it."""
    styled: list[Text] = []
    for name, value in params.items():
        if isinstance(value, Text):
            params[name] = f"{_MARK}{len(styled)}{_MARK}"
            styled.append(value)
    out = Text(style=style)
    for i, piece in enumerate(say(key, n=n, you=you, **params).split(_MARK)):
        if i % 2:
            out.append_text(styled[int(piece)])
        else:
            out.append(piece)
    return out
