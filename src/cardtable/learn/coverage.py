"""Which rules a game has, as short ids a lesson's steps say they cover.

The ids are read from the game's own rule tables, never from a list kept by hand: a Cabo-family
variant's :class:`~cardtable.games.family.rulesets.RuleSet` (its powers, its drops, its call,
what an empty deck does, its scoring, its match) and Qute's tables
(:mod:`cardtable.games.qute.tables`: the ranks that act, the decisions a player takes). So a
power, a way of dropping or a decision added to a game shows up here at once, and the lesson
test fails until a step explains it.

Ids of the Cabo family (``rules_of("kaboo")`` …):

- ``values``, ``memory``: what cards are worth, and that a card seen once must be remembered;
- ``first-look.peek`` (two ``peek`` before play) or ``first-look.auto`` (positions shown by
  themselves), and ``first-look.shown-until-draw`` where those stay visible until the first draw;
- ``draw.deck``, ``replace``, ``discard``, ``draw.discard``; ``draw.discard.free`` where a card
  taken from the discard pile may be thrown back (using its power); ``drawn-public`` where a
  drawn card is shown to everyone; ``face-up-in-hand`` where a card seen by all lies face up;
- ``power.<kind>`` for every power a card has (``power.peek``, ``power.spy``, ``power.swap``,
  ``power.look``, ``power.swap_any``), and ``power.must`` where some must be used;
- ``drops.claim`` / ``drops.claim.fail``, ``drops.drop`` / ``drops.drop.give`` /
  ``drops.drop.penalty``, ``drops.snap`` / ``drops.snap.penalty``, as the variant drops cards;
- ``call`` and ``call.last-turns`` or ``call.ends-round``;
- ``deck-end.<rule>`` (``end``, ``reshuffle``); ``scoring.<rule>`` (``sum``, ``cabo``,
  ``gabo``) and ``scoring.caller-penalty`` where a lost call costs points;
- ``match.<rule>`` (``exceeds``, ``reaches``) where the game is a match by default.

Ids of Qute: ``qute.fit``, ``qute.several``, ``qute.draw``, ``qute.cover-six``,
``qute.rank.<rank>`` for each rank that acts when the turn passes (7, 8, A), one
``qute.decision.<name>`` per decision (``qute``, ``suit``, ``eights``, ``jpoints``),
``qute.points``, ``qute.refill`` and ``qute.match``.
"""

from __future__ import annotations

from ..games.family.rulesets import RULESETS, Power, RuleSet
from ..games.qute import FAMILY as QUTE
from ..games.qute import tables
from ..variants import get

__all__ = ["family_rules", "qute_rules", "rules_of"]


def family_rules(rs: RuleSet) -> set[str]:
    """The rule ids of a Cabo-family rule set (see the module's text)."""
    ids = {"values", "memory", "draw.deck", "replace", "discard", "draw.discard", "call"}
    ids.add("first-look.auto" if rs.auto_peek else "first-look.peek")
    if rs.peek_shown_until_draw:
        ids.add("first-look.shown-until-draw")
    if rs.pile_draw_free:
        ids.add("draw.discard.free")
    if rs.drawn_public:
        ids.add("drawn-public")
    if rs.face_up_in_hand:
        ids.add("face-up-in-hand")
    ids.update(f"power.{Power(kind).name.lower()}" for kind in set(rs.powers.values()))
    if rs.must_use:
        ids.add("power.must")
    drops = rs.drops
    if drops.claims:
        ids.update(("drops.claim", "drops.claim.fail"))
    if drops.pile_phases:
        ids.update(("drops.drop", "drops.drop.give", "drops.drop.penalty"))
    if drops.snaps:
        ids.update(("drops.snap", "drops.snap.penalty"))
    ids.add("call.ends-round" if rs.call_ends_round else "call.last-turns")
    ids.add(f"deck-end.{rs.deck_end.name}")
    ids.add(f"scoring.{rs.scoring.name}")
    if rs.scoring.penalises_caller:
        ids.add("scoring.caller-penalty")
    if rs.target is not None:
        ids.add(f"match.{rs.target_reached.name}")
    return ids


def qute_rules() -> set[str]:
    """The rule ids of Qute (see the module's text)."""
    ids = {"qute.fit", "qute.several", "qute.draw", "qute.cover-six", "qute.points"}
    ids.update(("qute.refill", "qute.match"))
    acting = (tables.SEVEN_RANK, tables.EIGHT_RANK, tables.ACE_RANK)
    ids.update(f"qute.rank.{tables.RANK_OF[rank]}" for rank in acting)
    ids.update(f"qute.decision.{name}" for name in tables.DECISIONS)
    return ids


def rules_of(variant: str) -> set[str]:
    """The rule ids of the registered game ``variant`` (``ValueError`` for an unknown game, or
    one of a family this module does not know)."""
    game = get(variant)
    if game.name in RULESETS:
        return family_rules(RULESETS[game.name])
    if game.family == QUTE:
        return qute_rules()
    raise ValueError(f"no rules are known for {game.name} (family {game.family!r})")
