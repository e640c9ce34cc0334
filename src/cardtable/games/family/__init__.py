"""The Cabo family (``cabo``, ``cabo-german``, ``gabo``, ``kaboo``): one engine, four rule sets."""

from __future__ import annotations

from typing import Any

from ...variants import MAX_TARGET, OptionSpec, Variant, register
from .engine import PHASES, FamilyGame
from .rulesets import RULESETS, RuleSet

__all__ = ["PHASES", "RULESETS", "FamilyGame", "RuleSet"]


def _common_options(rs: RuleSet) -> tuple[OptionSpec, ...]:
    return (
        OptionSpec(
            "target",
            (int, type(None)),
            rs.target,
            "None plays one round; a number plays a match until a total "
            + ("reaches" if rs.target_reached == "reaches" else "exceeds")
            + " it",
            1,
            MAX_TARGET,
        ),
        OptionSpec(
            "first",
            (int, type(None)),
            None,
            "seat that starts round 1 (default: "
            + ("drawn from the seed" if rs.random_first else "seat 0")
            + ")",
            0,
        ),
        OptionSpec(
            "max_turns",
            (int,),
            30,
            "turns per seat after which a round with no call ends (scored as if nobody called)",
            1,
        ),
    )


def _factory(rs: RuleSet) -> Any:
    def build(
        players: int, seed: int, options: dict[str, Any], deck: list[str] | None
    ) -> FamilyGame:
        return FamilyGame(rs, players, seed, options, deck)

    return build


for _rs in RULESETS.values():
    register(
        Variant(
            name=_rs.name,
            title=_rs.title,
            min_players=_rs.min_players,
            max_players=_rs.max_players,
            default_players=_rs.default_players,
            options=_common_options(_rs) + _rs.extra_options,
            factory=_factory(_rs),
            summary=_rs.summary,
            aliases=(_rs.name.replace("-", "_"),) if "-" in _rs.name else (),
        )
    )
