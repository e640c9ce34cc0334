"""The shipped catalogs agree with English, file by file and key by key, and a language is chosen
as documented: ``negotiate``, ``from_env``, ``set_default`` (which threads share), ``language``.

The parity checks loop over whatever PO files ship, so a new file (``learn.po``) or a new
language is checked as soon as it exists."""

from __future__ import annotations

import string
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cardtable.catalog import (
    DEFAULT_LANGUAGE,
    Catalog,
    catalog,
    from_env,
    language,
    load,
    load_all,
    negotiate,
    say,
    set_default,
    supported,
)
from cardtable.errors import MalformedAction
from cardtable.text import catalog as text_catalog
from cardtable.text.phrase import Reader, phrase

_LOCALE = Path(str(files("cardtable") / "text" / "locale"))
"""The shipped catalogs: ``<lang>/LC_MESSAGES/*.po``."""

_YOU = ".you"


@dataclass(frozen=True)
class Entry:
    """One message of a PO file, as the parity checks compare it."""

    plural: bool
    """Whether it has plural forms."""
    names: tuple[frozenset[str], ...]
    """The placeholder names of each of its templates."""
    fuzzy: bool
    """Whether it is marked fuzzy."""
    empty: bool
    """Whether a template is empty (untranslated)."""


def _names(template: str) -> frozenset[str]:
    """The placeholder names of a :meth:`str.format` template (``{who}``, ``{n}``)."""
    return frozenset(
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field is not None
    )


def _entries(path: Path) -> dict[str, Entry]:
    """The messages of the PO file at ``path``, by key."""
    with path.open("rb") as f:
        po = read_po(f)
    found: dict[str, Entry] = {}
    for message in po:
        if not message.id:
            continue
        key = str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)
        text = message.string
        forms = tuple(str(t) for t in text) if isinstance(text, (tuple, list)) else (str(text),)
        found[key] = Entry(
            plural=message.pluralizable,
            names=tuple(_names(t) for t in forms),
            fuzzy=message.fuzzy,
            empty=not all(forms),
        )
    return found


def _files(lang: str) -> dict[str, Path]:
    """The PO files of ``lang``, by name."""
    return {p.name: p for p in sorted((_LOCALE / lang / "LC_MESSAGES").glob("*.po"))}


def _others() -> list[str]:
    return [lang for lang in supported() if lang != DEFAULT_LANGUAGE]


def _pairs() -> Iterator[tuple[str, str]]:
    """Every shipped language but English, with each PO file name either side holds."""
    for lang in _others():
        for name in sorted(set(_files(DEFAULT_LANGUAGE)) | set(_files(lang))):
            yield lang, name


@pytest.fixture(autouse=True)
def _no_default() -> Iterator[None]:
    """Every test starts and ends with no process default."""
    set_default(None)
    yield
    set_default(None)


# ---------------------------------------------------------------------------- parity
def test_english_and_german_ship() -> None:
    assert supported()[0] == "en"
    assert "de" in supported()
    assert text_catalog.supported() == supported()


@pytest.mark.parametrize(("lang", "name"), list(_pairs()))
def test_every_file_is_in_every_language(lang: str, name: str) -> None:
    assert name in _files(DEFAULT_LANGUAGE), f"{lang}/{name} has no English file"
    assert name in _files(lang), f"{name} is not translated into {lang}"


@pytest.mark.parametrize(("lang", "name"), list(_pairs()))
def test_each_file_has_the_same_keys_placeholders_and_plurals(lang: str, name: str) -> None:
    en_path, other_path = _files(DEFAULT_LANGUAGE).get(name), _files(lang).get(name)
    assert en_path is not None and other_path is not None, f"{lang}/{name} lacks a language"
    english, other = _entries(en_path), _entries(other_path)
    plain = {k for k in english if not k.endswith(_YOU)}
    theirs = {k for k in other if not k.endswith(_YOU)}
    assert sorted(plain - theirs) == [], f"keys missing from {lang}/{name}"
    assert sorted(theirs - plain) == [], f"keys of {lang}/{name} that English lacks"
    for key, entry in other.items():
        # a .you form is compared with English's .you form, or with its plain key
        base = key.removesuffix(_YOU)
        ref = english.get(key) or english.get(base)
        assert ref is not None, f"{lang}/{name}: {key} has no English key"
        assert entry.plural == ref.plural, f"{lang}/{name}: {key} plural in one language only"
        # every form takes only English's placeholders, and the forms together take them all
        # (a singular may leave out the count, "one card"; a .you form who acts: the reader)
        wanted = frozenset().union(*ref.names)
        lacks = {"who"} if key.endswith(_YOU) else set()
        used = frozenset().union(*entry.names)
        assert all(names <= wanted for names in entry.names) and wanted - used <= lacks, (
            f"{lang}/{name}: {key} has placeholders {sorted(used)}, English {sorted(wanted)}"
        )


@pytest.mark.parametrize("lang", supported())
def test_shipped_catalogs_have_no_fuzzy_or_empty_entry(lang: str) -> None:
    for name, path in _files(lang).items():
        for key, entry in _entries(path).items():
            assert not entry.fuzzy, f"{lang}/{name}: {key} is fuzzy"
            assert not entry.empty, f"{lang}/{name}: {key} is empty"


@pytest.mark.parametrize("lang", supported())
def test_every_shipped_catalog_loads_with_its_own_plural_rule(lang: str) -> None:
    loaded = load(lang)
    assert loaded.plural(1) == 0 and loaded.plural(2) == 1
    keys = set().union(*(_entries(p) for p in _files(lang).values()))
    assert keys <= set(loaded.messages)


def test_german_speaks_every_kind_of_sentence() -> None:
    with language("de"):
        assert say("family.draw.deck", who="Ann") == "Ann hat eine Karte vom Stapel gezogen"
        assert say("family.draw.deck", who="du", you=True) == (
            "du hast eine Karte vom Stapel gezogen"
        )
        assert say("qute.play", who="Bob", cards="[7H]", n=1) == "Bob legt [7H] — noch 1 Karte"
        assert say("qute.play", you=True, cards="[7H] [7D]", n=3) == (
            "du legst [7H] [7D] — noch 3 Karten"
        )
        assert say("suit.H") == "Herz ♥"
        assert phrase({"type": "turn", "seat": 1}, Reader(1)).text == "— du bist am Zug —"
        assert phrase({"type": "pass", "seat": 2}, Reader(0)).text == "Platz 2 hat gepasst"
        refused = MalformedAction("refusal.malformed.unknown", None, text="hop")
        assert refused.phrased(Reader(0)) == "unbekannter Zug „hop“"
        # str() stays English for plain Python callers
        assert str(refused) == "unknown action 'hop'"


# ---------------------------------------------------------------------------- choosing
@pytest.mark.parametrize(
    ("preferences", "lang"),
    [
        (["de-AT", "en-US"], "de"),
        (["en-US", "de"], "en"),
        (["de_DE.UTF-8"], "de"),
        (["DE"], "de"),
        (["de@euro"], "de"),
        (["fr-FR", "de-CH"], "de"),
        (["fr", "xx"], "en"),
        ([], "en"),
        ([""], "en"),
    ],
)
def test_negotiate_picks_the_first_shipped_language(preferences: list[str], lang: str) -> None:
    assert negotiate(preferences) == lang


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_MESSAGES": "de_AT", "LANG": "en_US"}, "de"),
        ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "de_DE"}, "en"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_ALL": "POSIX"}, "en"),
        ({"LC_ALL": "", "LANG": "de_DE.UTF-8"}, "de"),
        ({"CARDTABLE_LANG": "de", "LANG": "en_US"}, "de"),
        ({"CARDTABLE_LANG": "en", "LANG": "de_DE"}, "en"),
        ({"CARDTABLE_LANG": "xx", "LANG": "de_DE"}, "de"),
        ({"CARDTABLE_LANG": "fr:de", "LC_ALL": "C"}, "de"),
    ],
)
def test_from_env_reads_cardtable_lang_then_the_posix_locale(
    environ: dict[str, str], lang: str
) -> None:
    assert from_env(environ) == lang


def test_catalog_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CARDTABLE_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert from_env() == "de" and catalog().language == "de"
    monkeypatch.setenv("CARDTABLE_LANG", "en")
    assert catalog().language == "en"


def test_set_default_comes_after_a_language_block_and_before_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CARDTABLE_LANG", "en")
    set_default("de")
    assert catalog().language == "de"
    assert say("game.over") == "Das Spiel ist vorbei."
    with language("en"):
        assert say("game.over") == "The game is over."
    set_default("en")
    with language("de"):
        assert catalog().language == "de"
    set_default(None)
    monkeypatch.setenv("CARDTABLE_LANG", "de")
    assert catalog().language == "de"


def test_set_default_refuses_a_language_that_does_not_ship() -> None:
    with pytest.raises(ValueError, match="en, de"):
        set_default("xx")
    assert catalog().language == from_env()
    set_default("DE")  # a tag's case and region do not matter
    assert catalog().language == "de"


def test_a_thread_started_after_set_default_speaks_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_LANG", "en")
    set_default("de")
    heard: list[str] = []
    worker = threading.Thread(target=lambda: heard.append(say("game.over")))
    worker.start()
    worker.join()
    assert heard == ["Das Spiel ist vorbei."]


def test_a_catalog_is_read_once_however_it_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable import catalog as catalog_module

    load_all()  # what a server does at start
    reads: list[Path] = []
    real = catalog_module._read

    def counted(folder: Path, fallback: Catalog | None) -> Catalog:
        reads.append(folder)
        return real(folder, fallback)

    monkeypatch.setattr(catalog_module, "_read", counted)
    assert load() is load("en") is load("en", None) is load(lang="en")
    assert load("de") is load("de", None) and load("de").language == "de"
    assert catalog_module.catalog() is load()
    assert reads == []  # every shipped language was read by load_all, and only once
