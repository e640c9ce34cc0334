"""The words of the game: message catalogs, one gettext PO file per language, and the few
words every sentence shares (a seat named from a reader's side, a list, a small number, a card).

Every sentence a person reads — an event, a result, a refusal — is a message of the PO files
in ``text/locale/<lang>/LC_MESSAGES/`` (read with Babel; one file per subject — ``cardtable.po``
for the table, others for lessons, rules and screens — merged, a key in one file only),
looked up by a stable key and filled with named placeholders::

    say("family.draw.deck", who="seat 1")            # 'seat 1 drew a card from the deck'
    say("family.reshuffle", n=12)                    # a plural: msgstr[0] / msgstr[1]
    say("qute.play", you=True, who="you", cards="[7H]", n=3)

- A key is the message's ``msgid``; its ``msgstr`` is a :meth:`str.format` template with named
  placeholders (``{who}``, ``{card}``). A message with ``msgid_plural`` chooses its form with
  the catalog's ``Plural-Forms`` header, for the count ``n``.
- A sentence whose subject is the reader (``you=True``) reads the key's ``.you`` form when the
  catalog has one, else the plain key: English needs it only where the verb changes (``you
  draw`` / ``seat 1 draws``); another language may add a ``.you`` form to any key.
- A second language is only another folder of PO files: ``text/locale/de/LC_MESSAGES/``
  (German ships beside English: :func:`supported`), or one given to :func:`language`. A key it
  lacks is read from English.

Which language speaks, in this order: the one :func:`language` picked for a block of code (a
context variable, so concurrent readers of different languages do not mix); else the process's
default, :func:`set_default` (the command line's ``--lang``; threads share it, as they do not
inherit a context variable); else the environment, :func:`from_env` (``CARDTABLE_LANG``, then
the POSIX locale variables, matched to a shipped language by :func:`negotiate`); else English.

The module sits in the foundation, beside :mod:`cardtable.errors`, so that the rules' refusals
(an :class:`~cardtable.errors.IllegalAction` holds a key and typed placeholders) are read from
the same catalogs as every other sentence: the English words of a refusal are in the English
PO file only, and its plain ``str()`` is that message. :mod:`cardtable.text.catalog` gives the
text package the same names; the PO files stay with the text package (``text/locale``).
"""

from __future__ import annotations

import contextvars
import gettext
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "Catalog",
    "Names",
    "card_token",
    "cards_list",
    "catalog",
    "decimal",
    "from_env",
    "has",
    "join_and",
    "join_or",
    "language",
    "load",
    "load_all",
    "negotiate",
    "number_word",
    "process_language",
    "say",
    "set_default",
    "supported",
]

DOMAIN = "cardtable"
"""The catalogs' gettext domain (the PO file's name)."""

DEFAULT_LANGUAGE = "en"
"""The language every other falls back to, message by message."""

_YOU = ".you"
"""The suffix of a key's form for a sentence whose subject is the reader."""

Template = str | tuple[str, ...]
"""A message: one template, or one per plural form."""


@dataclass(frozen=True)
class Catalog:
    """One language's messages, with the language it falls back to for a key it lacks."""

    language: str
    """The language's code (``en``, ``de``)."""
    messages: Mapping[str, Template]
    """Each key's template (a tuple of them, by plural form, for a plural message)."""
    plural: Callable[[int], int]
    """Which plural form a count takes (the PO file's ``Plural-Forms``)."""
    fallback: Catalog | None = None
    """Where a key this catalog lacks is read (English for every other language)."""

    def has(self, key: str) -> bool:
        """Whether this catalog or its fallback holds ``key``."""
        return key in self.messages or (self.fallback is not None and self.fallback.has(key))

    def template(self, key: str, n: int | None = None) -> str:
        """The template of ``key`` (its plural form for ``n``); ``KeyError`` if none holds it."""
        found = self.messages.get(key)
        if found is None:
            if self.fallback is None:
                raise KeyError(f"no message {key!r} in the {self.language} catalog")
            return self.fallback.template(key, n)
        if isinstance(found, str):
            return found
        index = 0 if n is None else self.plural(n)
        return found[min(index, len(found) - 1)]

    def say(self, key: str, /, *, n: int | None = None, you: bool = False, **params: object) -> str:
        """The message ``key`` filled with ``params`` (and ``n``, the count of a plural); its
        ``.you`` form when ``you`` and some catalog holds one."""
        return self.fill(key, params, n=n, you=you)

    def fill(
        self, key: str, params: Mapping[str, object], *, n: int | None = None, you: bool = False
    ) -> str:
        """:meth:`say` with the placeholders given as a mapping."""
        if you and self.has(key + _YOU):
            key += _YOU
        if n is not None:
            params = {**params, "n": n}
        return self.template(key, n).format_map(params)


def _read(folder: Path, fallback: Catalog | None) -> Catalog:
    """The catalog of the PO files in ``folder`` (``<lang>/LC_MESSAGES``), merged in name
    order (untranslated and fuzzy entries left out); the plural rule is the first file's."""
    from babel.messages.pofile import read_po  # only when a catalog is first read

    messages: dict[str, Template] = {}
    plural: Callable[[int], int] | None = None
    lang = folder.parent.name
    for path in sorted(folder.glob("*.po")):
        with path.open("rb") as f:
            po = read_po(f, domain=DOMAIN)
        if plural is None:
            plural = gettext.c2py(po.plural_expr)
            lang = str(po.locale or lang)
        for message in po:
            if not message.id or message.fuzzy:
                continue
            key = str(message.id[0] if isinstance(message.id, tuple) else message.id)
            if key in messages:
                raise ValueError(f"message {key!r} is in two files of {folder}")
            text = message.string
            if isinstance(text, (tuple, list)):
                forms = tuple(str(t) for t in text)
                if all(forms):
                    messages[key] = forms
            elif text:
                messages[key] = str(text)
    if plural is None:
        raise ValueError(f"no catalog in {folder}")
    return Catalog(lang, messages, plural, fallback)


def _folder(lang: str, root: Path | None) -> Path:
    base = Path(str(files(__package__) / "text" / "locale")) if root is None else root
    return base / lang / "LC_MESSAGES"


def load(lang: str = DEFAULT_LANGUAGE, root: Path | None = None) -> Catalog:
    """The catalog of ``lang``, read from ``root`` (default: the package's ``text/locale``)
    once per process, however it is asked for; every language but English falls back to the
    package's English catalog."""
    return _load(lang, root)


@cache
def _load(lang: str, root: Path | None) -> Catalog:
    folder = _folder(lang, root)
    if lang == DEFAULT_LANGUAGE and root is None:
        return _read(folder, None)
    if not any(folder.glob("*.po")):
        raise ValueError(f"no {lang} catalog at {folder}")
    return _read(folder, load())


def load_all() -> None:
    """Read every shipped catalog now (a server does at start, so that its first answer in a
    language does not wait for the files to be parsed)."""
    for lang in _shipped():
        load(lang)


@cache
def _shipped() -> tuple[str, ...]:
    """The languages of the package's ``text/locale`` (read once): English, then the others
    by code."""
    base = _folder(DEFAULT_LANGUAGE, None).parent.parent
    found = sorted(
        d.name for d in base.iterdir() if d.is_dir() and any((d / "LC_MESSAGES").glob("*.po"))
    )
    return (DEFAULT_LANGUAGE, *(lang for lang in found if lang != DEFAULT_LANGUAGE))


def supported() -> list[str]:
    """The languages that ship with the package (a folder of PO files under ``text/locale``),
    English first: ``['en', 'de']``."""
    return list(_shipped())


_TAG = re.compile(r"[-_.@]")
"""Where a language tag's language ends: ``de-AT``, ``de_DE.UTF-8``, ``de@euro``."""


def _base(tag: str) -> str:
    """The language of a tag, lower case: ``de`` of ``de_DE.UTF-8``."""
    return _TAG.split(tag.strip(), maxsplit=1)[0].lower()


def negotiate(preferences: Sequence[str]) -> str:
    """The first shipped language among ``preferences``, most wanted first — tags like
    ``de-AT``, ``en-US`` or locales like ``de_DE.UTF-8``, in any case (the region, encoding
    and modifier are ignored) — else English."""
    shipped = _shipped()
    for tag in preferences:
        lang = _base(tag)
        if lang in shipped:
            return lang
    return DEFAULT_LANGUAGE


_ENV = ("CARDTABLE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables :func:`from_env` reads: cardtable's own, then the POSIX locale's."""

_PLAIN_LOCALES = frozenset({"c", "posix"})
"""The locales that name no language (``C``, ``C.UTF-8``, ``POSIX``): English."""


@lru_cache(maxsize=32)
def _from_values(own: str, locale: str) -> str:
    """:func:`from_env` of ``CARDTABLE_LANG`` (``own``, a tag or a ``:``-list of them) and the
    locale in effect (``locale``)."""
    wanted = [tag for tag in own.split(":") if tag.strip()]
    if locale and _base(locale) not in _PLAIN_LOCALES:
        wanted.append(locale)
    return negotiate(wanted)


def from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (default: :data:`os.environ`): ``CARDTABLE_LANG``
    (a tag, or several separated by ``:``), else the locale in effect for messages — the first
    of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set, as POSIX orders them (``C`` and
    ``POSIX`` mean English) — matched to a shipped language by :func:`negotiate`; English if
    none matches."""
    env = os.environ if environ is None else environ
    own = env.get(_ENV[0], "")
    locale = next((value for name in _ENV[1:] if (value := env.get(name, ""))), "")
    return _from_values(own, locale)


_DEFAULT: str | None = None
"""The process's language (:func:`set_default`), ``None``: the environment's."""


def set_default(lang: str | None) -> None:
    """Speak ``lang`` in this whole process — every thread — wherever no :func:`language`
    block is active (``None``: the environment's language again). ``ValueError`` for a
    language that does not ship, naming those that do."""
    global _DEFAULT
    if lang is None:
        _DEFAULT = None
        return
    code = _base(lang)
    if code not in _shipped():
        raise ValueError(f"no {lang!r} catalog: the languages are {', '.join(_shipped())}")
    _DEFAULT = code


def process_language() -> str:
    """The language spoken where no :func:`language` block is active: the process's default
    (:func:`set_default`), else the environment's (:func:`from_env`)."""
    return _DEFAULT if _DEFAULT is not None else from_env()


_CURRENT: contextvars.ContextVar[Catalog | None] = contextvars.ContextVar(
    "cardtable_catalog", default=None
)


def catalog() -> Catalog:
    """The catalog in use: the one :func:`language` picked for this context, else the
    process's default (:func:`set_default`), else the environment's (:func:`from_env`), else
    English."""
    chosen = _CURRENT.get()
    if chosen is not None:
        return chosen
    return load(process_language())


@contextmanager
def language(lang: str, root: Path | None = None) -> Iterator[Catalog]:
    """Speak ``lang`` inside the ``with`` block (its catalog read from ``root`` if given)."""
    token = _CURRENT.set(load(lang, root))
    try:
        yield _CURRENT.get() or load(lang, root)
    finally:
        _CURRENT.reset(token)


def has(key: str) -> bool:
    """Whether the catalog in use (or English) holds ``key``."""
    return catalog().has(key)


def say(key: str, /, *, n: int | None = None, you: bool = False, **params: object) -> str:
    """The message ``key`` of the catalog in use, filled with ``params`` (see
    :meth:`Catalog.say`)."""
    return catalog().say(key, n=n, you=you, **params)


# ---------------------------------------------------------------------------- shared words
@dataclass(frozen=True)
class Names:
    """Whose side a sentence is told from, for the words that name seats: a seat (``None``: a
    spectator), named ``you``, and the seats' names (none: ``seat N``).
    :class:`cardtable.text.phrase.Reader` adds places (``your card 2``)."""

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


def number_word(n: int) -> str:
    """``n`` in words for the small counts rules speak of (``two``); digits from ten on."""
    return say(f"number.{n}") if 0 <= n < 10 else str(n)


def decimal(x: float, places: int = 1) -> str:
    """``x`` with ``places`` decimals as the language in use writes it (``0.26``, ``0,26``)."""
    from babel.numbers import format_decimal  # only when a number is first written

    pattern = "0." + "0" * places if places > 0 else "0"
    return str(format_decimal(round(x, places), format=pattern, locale=catalog().language))


def join_and(items: Sequence[str]) -> str:
    """Words in a list as a sentence says them: ``a``, ``a and b``, ``a, b and c``."""
    if len(items) < 2:
        return "".join(items)
    return say("list.and", items=say("list.comma").join(items[:-1]), last=items[-1])


def join_or(items: Sequence[str]) -> str:
    """Alternatives as a sentence offers them: ``a``, ``a or b``, ``a or b or c``."""
    return say("list.or").join(items)


def card_token(code: object) -> str:
    """A card the reader knows, as the text writes it: ``[7H]``."""
    return f"[{code}]"


def cards_list(codes: Sequence[object]) -> str:
    """Cards side by side: ``[8D] [8H]``."""
    return " ".join(card_token(c) for c in codes)
