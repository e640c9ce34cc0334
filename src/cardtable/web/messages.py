"""The browser client's words: ``GET /api/messages/{lang}`` serves the ``ui.*`` messages of a
shipped language (the PO files ``ui.po``, read through :mod:`cardtable.catalog`), which
``static/i18n.js`` reads before the page draws anything.

The answer is ``{"lang", "plural", "messages"}``: the language's code, its gettext
``Plural-Forms`` (the client picks a plural form with ``Intl.PluralRules``, whose categories
come in the same order for the shipped languages) and every ``ui.*`` key with its template — a
string, or a list of them by plural form for a plural message — each key English has, read
from English where the language lacks it. Templates keep the catalog's ``{name}``
placeholders.

The body is built once per language and process and carries an ``ETag`` (a hash of the body):
the browser asks again on each page load (``Cache-Control: no-cache``) and is answered
``304 Not Modified`` until the server's messages change. A language that does not ship is
answered ``404`` with the languages that do.

REST answers that hold words for the browser (a game's summary, an AI level's description)
take them from the same messages in the language their ``?lang=`` names: :func:`served_words`.
"""

from __future__ import annotations

import hashlib
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path

import orjson
from fastapi import FastAPI, HTTPException, Request, Response

from ..catalog import (
    DEFAULT_LANGUAGE,
    Catalog,
    language,
    load,
    negotiate,
    process_language,
    supported,
)

__all__ = ["PREFIX", "Served", "add_messages", "served", "served_words", "speaking", "ui_messages"]

PREFIX = "ui."
"""The keys the browser client reads (``ui.<file>.<what>``)."""

_LOCALE = Path(str(files("cardtable") / "text" / "locale"))
"""The shipped catalogs."""


@dataclass(frozen=True)
class Served:
    """One language's messages as the endpoint sends them."""

    body: bytes
    """The JSON answer."""
    etag: str
    """Its entity tag (quoted, as the header carries it)."""


def ui_messages(lang: str) -> dict[str, str | list[str]]:
    """Every ``ui.*`` key of English with its template in ``lang`` (English where ``lang``
    lacks it): a string, or a list of templates by plural form; ``ValueError`` for a language
    that does not ship."""
    if lang not in supported():
        raise ValueError(f"no {lang!r} catalog: the languages are {', '.join(supported())}")
    english = load(DEFAULT_LANGUAGE)
    own = load(lang)
    out: dict[str, str | list[str]] = {}
    for key in sorted(k for k in english.messages if k.startswith(PREFIX)):
        found = own.messages.get(key, english.messages[key])
        out[key] = found if isinstance(found, str) else list(found)
    return out


def _shipped(lang: str | None) -> str:
    """The shipped language a REST request's ``lang`` asks for (a tag; ``None``: the
    server's)."""
    return negotiate([lang]) if lang is not None else process_language()


def served_words(key: str, default: str, lang: str | None) -> str:
    """The words a REST answer gives for ``key`` in ``lang`` (a tag, matched to a shipped
    language; ``None``: the server's language): the catalog's message, else ``default`` (the
    English the code holds, for a game or level the catalogs do not name)."""
    catalog = load(_shipped(lang))
    return catalog.say(key) if catalog.has(key) else default


def speaking(lang: str | None) -> AbstractContextManager[Catalog]:
    """A ``with`` block in which a REST request's words (its refusals) are in ``lang`` (a tag,
    matched to a shipped language; ``None``: the server's language)."""
    return language(_shipped(lang))


def _plural_forms(lang: str) -> str:
    """The ``Plural-Forms`` header of ``lang``'s ``ui.po`` (``nplurals=2; plural=(n != 1);``)."""
    from babel.messages.pofile import read_po  # only when a language is first served

    with (_LOCALE / lang / "LC_MESSAGES" / "ui.po").open("rb") as f:
        return str(read_po(f).plural_forms)


@cache
def served(lang: str) -> Served:
    """The answer for ``lang`` (built once per process); ``ValueError`` if it does not ship."""
    messages = ui_messages(lang)  # ValueError first, before any file is looked for
    body = orjson.dumps(
        {"lang": lang, "plural": _plural_forms(lang), "messages": messages},
        option=orjson.OPT_SORT_KEYS,
    )
    return Served(body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')


def add_messages(app: FastAPI) -> None:
    """Add ``GET /api/messages/{lang}`` to ``app``."""

    @app.get("/api/messages/{lang}")
    async def messages(lang: str, request: Request) -> Response:
        """The browser client's words in ``lang`` (``en``, ``de``): ``{lang, plural,
        messages}``; ``304`` when the ``If-None-Match`` tag is current; ``404`` for a language
        the server does not have."""
        try:
            answer = served(lang)
        except ValueError:
            raise HTTPException(
                404,
                f"no messages in the language {lang[:40]!r}: the languages are "
                f"{', '.join(supported())}",
            ) from None
        headers = {"ETag": answer.etag, "Cache-Control": "no-cache"}
        if answer.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(answer.body, media_type="application/json", headers=headers)
