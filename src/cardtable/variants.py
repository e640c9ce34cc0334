"""The variant registry: every game cardtable plays, found by name, with its options.

Games register themselves when their package is imported (``import cardtable`` imports all
of them); a Cabo-like variant added later registers with
:func:`cardtable.games.family.add_variant`. Front ends and adapters that keep something per
variant (OpenSpiel games, Gymnasium ids) :func:`subscribe` to the registry, so a variant
registered at any time reaches them. :func:`new_game` is re-exported as ``cardtable.new_game``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, TypeAlias

from .game import Options, OptionValue

if TYPE_CHECKING:
    from .game import DrawSource, Game

__all__ = [
    "MAX_INT_OPTION",
    "MAX_TARGET",
    "ChanceFactory",
    "Factory",
    "OptionSpec",
    "OptionValue",
    "Options",
    "Variant",
    "bool_option",
    "get",
    "int_option",
    "names",
    "new_game",
    "optional_int_option",
    "register",
    "replay",
    "replay_start",
    "rules_text",
    "rules_version",
    "subscribe",
    "unregister",
]


MAX_TARGET = 1000
"""Highest match target any variant accepts (ten times the usual 100 or 125: sensible bounds
for a match people play, and totals that stay small numbers)."""

Factory: TypeAlias = "Callable[[int, int, Options, list[str] | None], Game]"
"""Builds a game of a variant: ``factory(players, seed, options, deck)`` (``options``
resolved, ``deck`` a stacked prefix or ``None``)."""

ChanceFactory: TypeAlias = "Callable[[int, Options, DrawSource], Game]"
"""Builds a game whose draws are a source's choice: ``chance_factory(players, options,
draws)`` (see :attr:`Variant.chance_factory`)."""

MAX_INT_OPTION = 1000
"""The maximum of an ``int`` option that gives none of its own (:attr:`OptionSpec.upper`):
every integer option is bounded, so no value a front end accepts is too large to show or send
(e.g. ``caller_penalty``)."""


def int_option(options: Mapping[str, OptionValue], name: str) -> int:
    """The ``int`` option ``name`` of resolved ``options`` (how a game reads it into its options
    record). ``KeyError`` if it is missing, ``TypeError`` if it is not an ``int``: options that
    :meth:`Variant.resolve_options` checked hold neither."""
    value = options[name]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError(f"option {name!r} must be an int, got {_show(value)}")


def optional_int_option(options: Mapping[str, OptionValue], name: str) -> int | None:
    """The ``int`` or ``None`` option ``name`` of resolved ``options`` (see
    :func:`int_option`)."""
    return None if options[name] is None else int_option(options, name)


def bool_option(options: Mapping[str, OptionValue], name: str) -> bool:
    """The ``bool`` option ``name`` of resolved ``options`` (see :func:`int_option`)."""
    value = options[name]
    if isinstance(value, bool):
        return value
    raise TypeError(f"option {name!r} must be a bool, got {_show(value)}")


def _show(value: object, limit: int = 40) -> str:
    """``repr(value)``, cut to ``limit`` characters: errors quote input, never all of it."""
    try:
        text = repr(value)
    except ValueError:  # an integer with more digits than Python converts
        return "(a number too long to show)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class OptionSpec:
    """One rule option: its name, accepted types, default and a line of documentation."""

    name: str
    """The option's key in ``options={...}``."""
    types: tuple[type, ...]
    """Accepted Python types (``type(None)`` allows ``None``)."""
    default: OptionValue
    """Value used when the option is not given."""
    doc: str
    """What the option changes, in one line."""
    minimum: int | None = None
    """Smallest allowed value for an ``int`` option."""
    maximum: int | None = None
    """Largest allowed value for an ``int`` option (``None``: :data:`MAX_INT_OPTION`)."""
    choices: tuple[OptionValue, ...] | None = None
    """Allowed values, if the option is an enumeration."""

    @property
    def upper(self) -> int | None:
        """The largest value the option accepts, if it accepts integers: :attr:`maximum`, or
        :data:`MAX_INT_OPTION` when it gives none."""
        if int not in self.types:
            return None
        return self.maximum if self.maximum is not None else MAX_INT_OPTION

    def check(self, value: object, variant: str) -> None:
        """Raise ``ValueError`` if ``value`` is not acceptable for this option."""
        ok = any(
            isinstance(value, t) and not (t is int and isinstance(value, bool)) for t in self.types
        )
        if not ok:
            want = " or ".join("None" if t is type(None) else t.__name__ for t in self.types)
            raise ValueError(
                f"option {self.name!r} of {variant} must be {want}, got {_show(value)}"
            )
        if self.choices is not None and value not in self.choices:
            raise ValueError(
                f"option {self.name!r} of {variant} must be one of {list(self.choices)}"
            )
        if (
            self.minimum is not None
            and isinstance(value, int)
            and not isinstance(value, bool)
            and value < self.minimum
        ):
            raise ValueError(f"option {self.name!r} of {variant} must be ≥ {self.minimum}")
        upper = self.upper
        if (
            upper is not None
            and isinstance(value, int)
            and not isinstance(value, bool)
            and value > upper
        ):
            raise ValueError(f"option {self.name!r} of {variant} must be ≤ {upper}")


@dataclass(frozen=True)
class Variant:
    """A registered game: how to build it and what it accepts."""

    name: str
    """Registry name, e.g. ``"kaboo"``."""
    title: str
    """Human title, e.g. ``"Kaboo"``."""
    min_players: int
    """Fewest seats allowed."""
    max_players: int
    """Most seats allowed."""
    default_players: int
    """Seats used when ``players`` is not given."""
    options: tuple[OptionSpec, ...]
    """Every rule option the variant accepts."""
    factory: Factory
    """Builds a game: ``factory(players, seed, options, deck)``."""
    summary: str = ""
    """One line describing the game."""
    aliases: tuple[str, ...] = field(default=())
    """Other accepted names."""
    family: str = ""
    """The kind of game, i.e. the engine that plays it: ``"cabo"`` for every variant of the
    Cabo family, ``"qute"`` for Qute. Front ends choose their layout by it, never by name."""
    details: Mapping[str, object] = field(default_factory=dict, compare=False)
    """JSON-ready facts of the rules a front end shows (the call word, card values, hand size
    …), served by the web app's ``/api/variants`` with the words and layout shown beside them
    (the call's label, the power word on each card: :mod:`cardtable.text.presentation`)."""
    chance_factory: ChanceFactory | None = field(default=None, compare=False)
    """Builds a game whose every face-down card is the choice of a draw source from outside
    (a :class:`~cardtable.game.ChanceDrawn`): ``chance_factory(players, options, draws)``;
    ``None`` where the game offers none. :func:`new_game` calls it when given ``draws``."""
    rules_version: int = 1
    """Bumped whenever a change to the rules would replay recorded actions differently (a
    stored game is resumed only under the rules version it was recorded with)."""

    def resolve_options(self, options: Mapping[str, object] | None) -> Options:
        """Validate ``options`` and fill in defaults; ``ValueError`` on anything wrong."""
        try:
            # the type is part of the key: True == 1, but True is not a valid int option
            key = tuple(sorted((k, type(v).__name__, v) for k, v in (options or {}).items()))
            cached = _RESOLVED.get((self.name, key))
        except TypeError:  # unhashable values: validate (and fail) below
            key, cached = None, None
        if cached is not None:
            return dict(cached)
        resolved = self._resolve(options)
        if key is not None:
            _RESOLVED[(self.name, key)] = dict(resolved)
        return resolved

    def _resolve(self, options: Mapping[str, object] | None) -> Options:
        given = dict(options or {})
        known = {o.name: o for o in self.options}
        for key in given:
            if key not in known:
                raise ValueError(
                    f"unknown option {_show(key)} for {self.name}; known options: "
                    + ", ".join(sorted(known))
                )
        resolved: Options = {}
        for spec in self.options:
            value = given.get(spec.name, spec.default)
            spec.check(value, self.name)
            if not isinstance(value, bool | int | str | None):  # a spec of another type
                raise ValueError(
                    f"option {spec.name!r} of {self.name} holds {_show(value)}: an option's "
                    "value is a bool, an int, a str or None"
                )
            resolved[spec.name] = value
        return resolved

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` unless ``players`` is an allowed seat count."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} "
                f"players, not {players}"
            )


_REGISTRY: dict[str, Variant] = {}
_RESOLVED: dict[tuple[str, tuple[tuple[str, str, object], ...]], Options] = {}
"""Validated option sets already seen (validation is pure, so its result can be reused)."""
_ALIASES: dict[str, str] = {}


Listener = Callable[[Variant], None]
"""Told of one variant (see :func:`subscribe`)."""

_ADDED: list[Listener] = []
_REMOVED: list[Listener] = []


def register(variant: Variant) -> None:
    """Add a variant to the registry and tell every subscriber (see :func:`subscribe`).

    Called by each game package on import. ``ValueError`` if its name or an alias is taken.
    """
    taken = set(_REGISTRY) | set(_ALIASES)
    clash = sorted(taken & {variant.name, *variant.aliases})
    if clash:
        raise ValueError(f"a game called {clash[0]!r} is already registered")
    _REGISTRY[variant.name] = variant
    for alias in variant.aliases:
        _ALIASES[alias] = variant.name
    for listener in list(_ADDED):
        listener(variant)


def unregister(name: str) -> Variant:
    """Remove the variant called ``name`` (aliases too), tell the subscribers, return it.

    ``ValueError`` if no such variant is registered.
    """
    variant = get(name)
    del _REGISTRY[variant.name]
    for alias in variant.aliases:
        _ALIASES.pop(alias, None)
    for key in [k for k in _RESOLVED if k[0] == variant.name]:
        del _RESOLVED[key]
    for listener in list(_REMOVED):
        listener(variant)
    return variant


def subscribe(added: Listener, removed: Listener | None = None) -> None:
    """Call ``added(variant)`` for every variant registered so far, at once, and for every
    variant registered later; ``removed(variant)`` for every variant unregistered later.

    Adapters that keep something per variant (an OpenSpiel game, a Gymnasium id) subscribe
    when they are imported, so a variant added at run time reaches them too.
    """
    _ADDED.append(added)
    if removed is not None:
        _REMOVED.append(removed)
    for variant in list(_REGISTRY.values()):
        added(variant)


def names() -> list[str]:
    """Names of every registered variant, in registration order."""
    return list(_REGISTRY)


def get(name: str) -> Variant:
    """The variant called ``name`` (or one of its aliases); ``ValueError`` if unknown."""
    key = _ALIASES.get(name, name)
    if key not in _REGISTRY:
        raise ValueError(f"unknown game {name!r}; choose one of: " + ", ".join(_REGISTRY))
    return _REGISTRY[key]


def rules_text(name: str) -> str:
    """The written rules of variant ``name`` (Markdown, from ``cardtable/rules/``).

    Raises ``ValueError`` for an unknown variant.
    """
    variant = get(name)
    path = resources.files("cardtable").joinpath("rules", f"{variant.name}.md")
    if path.is_file():
        return path.read_text(encoding="utf-8").rstrip() + "\n"
    return f"# {variant.title}\n\n{variant.summary}\n\n(No written rules for this game yet.)\n"


def rules_version(name: str) -> str:
    """The rules version of variant ``name`` as stored with each game: its registry name, a
    slash and :attr:`Variant.rules_version`, e.g. ``"kaboo/1"``.

    Raises ``ValueError`` for an unknown variant.
    """
    variant = get(name)
    return f"{variant.name}/{variant.rules_version}"


def new_game(
    name: str,
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    deck: Sequence[str] | None = None,
    *,
    draws: DrawSource | None = None,
) -> Game:
    """Start a game of variant ``name``.

    ``players`` defaults to the variant's usual count; ``seed`` (an int) drives every random
    choice; ``options`` are the variant's rule options; ``deck`` stacks the deck (card codes,
    top first; a prefix is allowed, the rest follows in seeded order).

    ``draws``: every card that leaves a face-down pile, the deal's included, is this source's
    choice (the OpenSpiel adapter's chance nodes): the game is a
    :class:`~cardtable.game.ChanceDrawn`, whose own generator decides nothing, so it takes no
    ``seed`` and no ``deck``.

    Raises ``ValueError`` for an unknown game or option, a wrong option type, a player count
    out of range, a deck that is not part of the variant's deck, or ``draws`` for a game that
    offers no such games or with a seed or deck.
    """
    variant = get(name)
    n = variant.default_players if players is None else players
    variant.check_players(n)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    resolved = variant.resolve_options(options)
    if draws is not None:
        return _chance_game(variant, n, seed, resolved, deck, draws)
    return variant.factory(n, seed, resolved, list(deck) if deck is not None else None)


def _chance_game(
    variant: Variant,
    players: int,
    seed: int,
    options: Options,
    deck: Sequence[str] | None,
    draws: DrawSource,
) -> Game:
    """A game of ``variant`` whose draws are ``draws``'s choice (see :func:`new_game`)."""
    if variant.chance_factory is None:
        raise ValueError(f"{variant.name} cannot take its draws from a source")
    if seed != 0 or deck is not None:
        raise ValueError(
            "a game whose draws come from a source takes no seed or deck: the source chooses "
            "every card"
        )
    return variant.chance_factory(players, options, draws)


def replay(log: Mapping[str, object]) -> Game:
    """Rebuild a game from its ``log``: same seed, options, deck and actions.

    The log may come from outside (a save, a store): ``ValueError`` where a field is not of
    its kind (``KeyError`` where one is missing), and each action is checked as
    :meth:`Game.play` checks it.
    """
    for key in ("game", "players", "seed", "options", "actions"):
        if key not in log:
            raise KeyError(key)
    game, actions = replay_start(log)
    for seat, text in actions:
        game.play(seat, text)
    return game


def replay_start(log: Mapping[str, object]) -> tuple[Game, list[tuple[int, str]]]:
    """The game of ``log`` as dealt, before any action, and its actions as ``(seat, text)``
    (``ValueError`` where a field is not of its kind or a needed one is missing; ``players``,
    ``options`` and ``deck`` may be left out): :func:`replay` plays them at once, a review one
    by one."""
    for key in ("game", "seed", "actions"):
        if key not in log:
            raise ValueError(f"a game log has a {key!r} field")
    name, players, seed = log["game"], log.get("players"), log["seed"]
    options, deck, actions = log.get("options"), log.get("deck"), log["actions"]
    if not isinstance(name, str):
        raise ValueError(f"a log names its game by a string, got {_show(name)}")
    if players is not None and not isinstance(players, int):
        raise ValueError(f"players must be an integer, got {_show(players)}")
    if not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {_show(seed)}")
    if options is not None and not isinstance(options, Mapping):
        raise ValueError(f"a log's options are a mapping, got {_show(options)}")
    if deck is not None and not isinstance(deck, list):
        raise ValueError(f"a log's deck is a list of card codes, got {_show(deck)}")
    if not isinstance(actions, list):
        raise ValueError(f"a log's actions are a list, got {_show(actions)}")
    steps: list[tuple[int, str]] = []
    for item in actions:
        if (
            not isinstance(item, (list, tuple))
            or len(item) != 2
            or not isinstance(item[0], int)
            or not isinstance(item[1], str)
        ):
            raise ValueError(f"each action of a log is [seat, action text], got {_show(item)}")
        steps.append((item[0], item[1]))
    game = new_game(name, players=players, seed=seed, options=options, deck=deck)
    return game, steps
