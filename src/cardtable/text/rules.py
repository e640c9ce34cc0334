"""A game's written rules: the notation page with its option table, and the plain page a person
reads, in English or German, with pictures of cards and a card-value legend made from the rules.

**The notation page** (:func:`rules_markdown`) is ``cardtable/rules/<game>.md``: the rules with
the action notation a player types (``draw deck``, ``replace 2``), followed by the option table
from the variant registry.

**The plain page** (:func:`plain_rules`) is ``cardtable/rules/plain/<lang>/<game>.md``: the same
rules in plain words, without notation. It may hold two kinds of token:

- ``{{KH}}``: a picture of a card (any card code of the game's deck). The browser draws the
  card's face in its place; the terminal reads ``[KH]`` (:func:`cards_as_text`), coloured by
  the line mode (:mod:`cardtable.cli.rules`).
- ``{{values}}``: the game's card-value legend (:func:`values_legend`), a table made from the
  rule set (values, powers, compulsory powers; Qute: its points and special cards), so it can
  never disagree with the engine. Its own cards are ``{{…}}`` tokens too.

The words of the legend are messages of ``text/locale/<lang>/LC_MESSAGES/rules.po``.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Literal, NamedTuple

from .. import variants
from ..cards import RANKS, SHORT_RANKS, card
from ..catalog import DEFAULT_LANGUAGE, catalog, language, say
from ..games.family.rulesets import RULESETS, Power, RuleSet
from ..games.qute.tables import EIGHT_DRAWS
from .presentation import card_values, unusual_values, value_marks

__all__ = [
    "LANGUAGES",
    "TOKEN",
    "VALUES_TOKEN",
    "cards_as_text",
    "page_language",
    "plain_rules",
    "plain_rules_page",
    "rules_markdown",
    "values_legend",
]

LANGUAGES: tuple[str, ...] = ("en", "de")
"""The languages the plain rules pages are written in (English first: the fallback)."""

TOKEN = re.compile(r"\{\{([^{}\s]+)\}\}")
"""A token of a plain page: ``{{KH}}`` (a card) or ``{{values}}`` (the value legend)."""

VALUES_TOKEN = "values"
"""The token that stands for the game's card-value legend."""

_POWER_KEYS: dict[Power, str] = {
    Power.PEEK: "peek",
    Power.SPY: "spy",
    Power.SWAP: "swap",
    Power.LOOK: "look",
    Power.SWAP_ANY: "swap_any",
}
"""The message of each power in the legend (``rules.power.<key>``)."""

_QUTE_EFFECTS = ("6", "7", "8", "J", "A")
"""Qute's ranks that do something when laid (``rules.qute.effect.<rank>``)."""

_SUIT_CYCLE = ("H", "S", "D", "C")
"""The suits the legend's pictures take, row by row, so the table is not all one colour."""


def rules_markdown(name: str) -> str:
    """The rules of variant ``name`` in Markdown, with its option table from the registry.

    Raises ``ValueError`` for an unknown variant.
    """
    variant = variants.get(name)
    text = variants.rules_text(variant.name)
    lines = [
        "",
        "## Options",
        "",
        f"Players: {variant.min_players} to {variant.max_players} "
        f"(default {variant.default_players}). "
        "Set options with `--target` and `-o NAME=VALUE` on `cardtable play`.",
        "",
        "| option | default | what it does |",
        "|---|---|---|",
    ]
    for opt in variant.options:
        default = "none" if opt.default is None else str(opt.default).lower()
        lines.append(f"| `{opt.name}` | {default} | {opt.doc} |")
    return text + "\n".join(lines) + "\n"


def page_language(lang: str | None = None) -> str:
    """The language a plain page is read in for ``lang`` (``de``, ``de-AT``, ``en_GB`` …): the
    first of :data:`LANGUAGES` it names, else English; ``None``: the catalog's language."""
    wanted = (catalog().language if lang is None else lang).strip().lower()
    base = re.split(r"[-_.]", wanted, maxsplit=1)[0]
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def _page(name: str, lang: str) -> str:
    """The written plain page of the game ``name`` in ``lang`` (English where that language
    has none; the title and summary where no page is written at all)."""
    for folder in dict.fromkeys((lang, DEFAULT_LANGUAGE)):
        path = resources.files("cardtable").joinpath("rules", "plain", folder, f"{name}.md")
        if path.is_file():
            return path.read_text(encoding="utf-8").rstrip() + "\n"
    variant = variants.get(name)
    return f"# {variant.title}\n\n{variant.summary}\n\n{{{{{VALUES_TOKEN}}}}}\n"


def plain_rules(
    name: str, lang: str | None = None, *, cards: Literal["text", "tokens"] = "text"
) -> str:
    """The plain-words rules of the game ``name`` (an alias works) in ``lang`` (see
    :func:`page_language`), as Markdown, with ``{{values}}`` made into the game's value
    legend. ``cards="text"`` writes every card as ``[KH]`` (the terminal); ``"tokens"`` leaves
    them as ``{{KH}}`` for a front end that draws cards (the browser).

    Raises ``ValueError`` for an unknown game.
    """
    variant = variants.get(name)
    lang = page_language(lang)
    page = _page(variant.name, lang)
    if "{{" + VALUES_TOKEN + "}}" in page:
        page = page.replace("{{" + VALUES_TOKEN + "}}", values_legend(variant.name, lang).strip())
    return cards_as_text(page) if cards == "text" else page


def plain_rules_page(name: str, lang: str | None = None) -> dict[str, str]:
    """The plain rules of the game ``name`` as a front end that draws cards shows them:
    ``variant`` (its name), ``lang`` (the language it is written in), ``title`` (the page's
    own title, in that language), ``heading`` (``Rules: Gabo``, for its dialog) and
    ``markdown`` (cards as ``{{KH}}`` tokens). ``ValueError`` for an unknown game."""
    variant = variants.get(name)
    lang = page_language(lang)
    markdown = plain_rules(variant.name, lang, cards="tokens")
    first = markdown.lstrip().splitlines()[0] if markdown.strip() else ""
    title = first[2:].strip() if first.startswith("# ") else variant.title
    with language(lang):
        heading = say("rules.heading", title=title)
    return {
        "variant": variant.name,
        "lang": lang,
        "title": title,
        "heading": heading,
        "markdown": markdown,
    }


def cards_as_text(markdown: str) -> str:
    """``markdown`` with every card token ``{{KH}}`` written as the terminal writes a card,
    ``[KH]``."""
    return TOKEN.sub(lambda m: f"[{m.group(1)}]", markdown)


# ------------------------------------------------------------------------------ the legend
class _Row(NamedTuple):
    """One row of the value legend: cards of one rank (or a run of number ranks) that are
    worth the same and do the same."""

    ranks: tuple[str, ...]
    """The ranks the row covers, in order (more than one: a run of number cards)."""
    codes: tuple[str, ...]
    """The cards of the row."""
    points: int
    """What each of them is worth (the first, for a run)."""
    last_points: int
    """What the last rank of a run is worth."""
    effect: int | str
    """What they do (a family power, 0 for none; a Qute rank with an effect, "" for none)."""
    colour: str
    """``red`` or ``black`` where the rank's cards differ by colour, else ``""``."""
    unusual: bool
    """Whether their value is unusual (:func:`~cardtable.text.presentation.unusual_values`)."""


def _rank_order(codes: list[str]) -> list[str]:
    """The ranks of ``codes`` in the order a legend lists them: ace low, jokers last; the
    Cabo deck's numbers in order; Qute's short deck as it counts (6 … A)."""
    ranks = list(dict.fromkeys(card(c).rank for c in codes))
    order = SHORT_RANKS if set(ranks) <= set(SHORT_RANKS) and "6" in ranks else RANKS
    known = {r: i for i, r in enumerate(order)}

    def key(rank: str) -> tuple[int, int]:
        if rank in known:
            return (0, known[rank])
        if rank.isdigit():
            return (0, int(rank))
        return (1, 0)  # jokers

    return sorted(ranks, key=key)


def _colour(codes: list[str]) -> str:
    """``red`` or ``black`` if every card of ``codes`` has that colour, else ``""``."""
    if all(card(c).red for c in codes):
        return "red"
    if all(card(c).black for c in codes):
        return "black"
    return ""


def _rows(values: dict[str, int], effect_of: dict[str, int | str]) -> list[_Row]:
    """The legend's rows: each rank split by value and effect, then runs of number ranks that
    are worth their number and do the same joined into one row."""
    marks = set(unusual_values(values, values.__getitem__))
    rows: list[_Row] = []
    codes = list(values)
    for rank in _rank_order(codes):
        of_rank = [c for c in codes if card(c).rank == rank]
        groups: dict[tuple[int, int | str], list[str]] = {}
        for c in of_rank:
            groups.setdefault((values[c], effect_of.get(c, 0)), []).append(c)
        split = len(groups) > 1
        for (points, effect), group in groups.items():
            rows.append(
                _Row(
                    (rank,),
                    tuple(group),
                    points,
                    points,
                    effect,
                    _colour(group) if split else "",
                    any(c in marks for c in group),
                )
            )
    joined: list[_Row] = []
    for row in rows:
        last = joined[-1] if joined else None
        if (
            last is not None
            and _runs(last)
            and _runs(row)
            and last.effect == row.effect
            and int(row.ranks[0]) == int(last.ranks[-1]) + 1
        ):
            joined[-1] = last._replace(
                ranks=last.ranks + row.ranks,
                codes=last.codes + row.codes,
                last_points=row.points,
            )
        else:
            joined.append(row)
    return joined


def _runs(row: _Row) -> bool:
    """Whether ``row`` may join a run: number cards of a whole rank worth their number."""
    return row.ranks[-1].isdigit() and not row.colour and not row.unusual


def _picture(row: _Row, index: int) -> str:
    """The row's cards as tokens: one card of the rank (suits taking turns down the table),
    each rank of a short run and the first and last of a longer one (``{{2S}} … {{6S}}``), or
    every card where a colour is named or the row is the jokers."""
    if row.colour or card(row.codes[0]).rank == "JOKER":
        return " ".join("{{" + c + "}}" for c in dict.fromkeys(row.codes))
    suit = _SUIT_CYCLE[index % len(_SUIT_CYCLE)]
    shown = ["{{" + _code(row, rank, suit) + "}}" for rank in row.ranks]
    return " … ".join((shown[0], shown[-1])) if len(shown) > 2 else " ".join(shown)


def _code(row: _Row, rank: str, suit: str) -> str:
    """The card of ``rank`` in ``suit`` among the row's (else its first card of that rank)."""
    of_rank = [c for c in row.codes if card(c).rank == rank]
    for c in of_rank:
        if card(c).suit == suit:
            return c
    return of_rank[0]


def _name(row: _Row) -> str:
    """What the row's cards are called, after their pictures: ``aces``, ``red kings``; nothing
    for number cards (their pictures say it)."""
    rank = row.ranks[0]
    if rank.isdigit():
        return ""
    words = say(f"rules.rank.{rank}")
    return say(f"rules.colour.{row.colour}", cards=words) if row.colour else words


def _number(n: int) -> str:
    """A value as the legend prints it (a real minus sign)."""
    return f"−{-n}" if n < 0 else str(n)


def _points(row: _Row) -> str:
    """The row's points: one value (bold where unusual), or a run's first to last."""
    if row.last_points != row.points:
        return f"{_number(row.points)} – {_number(row.last_points)}"
    text = _number(row.points)
    return f"**{text}**" if row.unusual else text


def _family_power(rs: RuleSet, power: int) -> str:
    """A power's words, with whether it must be used in ``rs``."""
    if not power:
        return "–"
    kind = Power(power)
    text = say(f"rules.power.{_POWER_KEYS[kind]}")
    if kind in rs.must_use:
        text += " " + say("rules.power.must.look" if kind is Power.LOOK else "rules.power.must")
    return text


def _qute_effect(rank: object) -> str:
    """What a Qute rank does when laid."""
    if not rank:
        return "–"
    return say(f"rules.qute.effect.{rank}", n=EIGHT_DRAWS)


def values_legend(name: str, lang: str | None = None) -> str:
    """The card-value legend of the game ``name`` as Markdown in ``lang`` (see
    :func:`page_language`): a table of every card's points (and its power, or in Qute what it
    does when laid), made from the rule set, its cards as ``{{KH}}`` tokens, and a note on the
    unusual values the table marks. ``ValueError`` for an unknown game."""
    variant = variants.get(name)
    values = card_values(variant.name)
    rs = RULESETS.get(variant.name)
    with language(page_language(lang)):
        if rs is not None:
            effects: dict[str, int | str] = {c: rs.power_of(c) for c in values}
            head = (say("rules.values.card"), say("rules.values.points"), say("rules.values.power"))
        else:
            effects = {c: r for c in values if (r := card(c).rank) in _QUTE_EFFECTS}
            head = (say("rules.values.card"), say("rules.qute.points"), say("rules.qute.effect"))
        lines = [f"| {head[0]} | {head[1]} | {head[2]} |", "|---|---|---|"]
        for i, row in enumerate(_rows(values, effects)):
            does = _family_power(rs, int(row.effect)) if rs else _qute_effect(row.effect)
            named = f"{_picture(row, i)} {_name(row)}".strip()
            lines.append(f"| {named} | {_points(row)} | {does} |")
        notes = [say("rules.values.note.suits")] if any(card(c).suit for c in values) else []
        if value_marks(variant.name):
            notes.append(say("rules.values.note.marked"))
    table = "\n".join(lines) + "\n"
    return table + "\n" + " ".join(notes) + "\n" if notes else table
