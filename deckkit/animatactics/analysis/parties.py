"""A party's odds, as `deckkit simulate PARTY` (Anima Tactics) reports them: alone, its
characters' exact duel odds against the whole roster; against another party, seeded games."""

from __future__ import annotations

from typing import Any

from deckkit.animatactics.analysis.readings import rules_dict
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.party import Party
from deckkit.animatactics.engine.duel import PLANS
from deckkit.animatactics.engine.options import DEFAULT_RULES, RuleSet
from deckkit.errors import UsageError

PLAN_NAMES = tuple(p.name for p in PLANS)


def plan_of(name: str) -> Any:
    """The plan every character follows, by name."""
    for p in PLANS:
        if p.name == name:
            return p
    raise UsageError(f"unknown plan {name!r}", hint=f"plans: {', '.join(PLAN_NAMES)}")


def fighters(party: Party) -> list[Any]:
    """The party's characters with stats in the card data, ready to duel, each with what the
    advantage cards placed on it add to its stats (advantages.csv: "The Character carrying this
    card gets ..."; e.g. Heavy Armor's +2 Armor)."""
    from deckkit.animatactics.analysis.matrix import equipped, party_entrants

    found = party_entrants([(m.character, m.pilot) for m in party.members], load_card_db())
    return equipped(found, [(p.advantage.name, p.bearer) for p in party.advantages])


def check_policy(name: str) -> str:
    """``name`` if it names a player (:func:`.players.make_policy` raises otherwise)."""
    from deckkit.animatactics.engine.players import make_policy

    make_policy(name)
    return name


def versus_sides(
    a: Party, b: Party, plan: Any, policy: str = "heuristic", vs_policy: str | None = None
) -> tuple[Any, Any]:
    """The two sides of party ``a`` against ``b``: their fighters under ``plan``, ``a`` played
    by ``policy``, ``b`` by ``vs_policy`` (default: ``policy``); what :func:`versus` plays, and
    (as a :class:`~deckkit.animatactics.analysis.party_games.PartyGames`) what the game
    interface plays."""
    from deckkit.animatactics.engine.skirmish import Side

    policies = (check_policy(policy), check_policy(vs_policy or policy))
    sides = tuple(
        Side(tuple(e.duellist for e in fs), tuple(e.levels for e in fs), plan, pol)
        for fs, pol in zip((fighters(a), fighters(b)), policies, strict=True)
    )
    if not sides[0].fighters or not sides[1].fighters:
        raise UsageError("a party has no character with stats in the card data")
    return sides[0], sides[1]


def versus(
    a: Party,
    b: Party,
    games: int,
    seed: int,
    workers: int,
    plan: Any,
    policy: str = "heuristic",
    vs_policy: str | None = None,
    rules: RuleSet = DEFAULT_RULES,
) -> dict[str, Any]:
    """``games`` seeded games of party ``a`` against ``b`` (the same for any ``workers``), ``a``
    played by ``policy``, ``b`` by ``vs_policy`` (default: ``policy``), under the rule options
    ``rules``."""
    from deckkit.animatactics.analysis.party_games import play_games, summarize

    sides = versus_sides(a, b, plan, policy, vs_policy)
    policies = (sides[0].policy, sides[1].policy)
    results = play_games(sides, games, seed, workers, rules)
    return {
        "party": a.name,
        "vs": b.name,
        "seed": seed,
        "plan": plan.name,
        "policy": policies[0],
        "vs_policy": policies[1],
        "rules": rules_dict(rules),
        **summarize(results).as_dict(),
    }


def alone(party: Party, rules: RuleSet = DEFAULT_RULES) -> dict[str, Any]:
    """Each character's exact duel odds against every character of the roster."""
    from deckkit.animatactics.analysis.matrix import odds_against_roster, roster

    mine = fighters(party)
    others = roster(load_card_db())
    rows = odds_against_roster(mine, others, rules)
    strength = [sum(r["members"][i] for r in rows) / len(rows) for i in range(len(mine))]
    return {
        "party": party.name,
        "method": "exact duels against every character of the roster",
        "rules": rules_dict(rules),
        "members": [
            {"name": e.name, "levels": e.levels, "strength": round(s, 6), "note": e.note}
            for e, s in zip(mine, strength, strict=True)
        ],
        "odds": rows,
    }
