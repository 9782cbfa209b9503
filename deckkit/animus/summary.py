"""A run's tally as numbers a reader can use: win rates with 95% Wilson intervals, battle
length with a Student-t interval, what each card did and how each type matchup fought.

The rates and intervals are the project's own (deckkit.analysis.summary): the same Wilson score
interval and Student-t mean as Ani-Mayhem's reports.
"""

from __future__ import annotations

from typing import Any

from deckkit.animus.construction.team import Team
from deckkit.animus.engine.record import ATTACKER_WON, DEFENDER_WON, FIGHTS, TIED, Stat
from deckkit.animus.montecarlo import Match, RunResult
from deckkit.core.estimates import (
    CI_METHOD,
    CONFIDENCE,
    Rate,
    mean_estimate,
    proportion,
    rate_json,
)

# Each way a battle ends (deckkit/animus/engine/endgame.py and phases.py, after
# animus-rules-v3.5.txt "Winning The Game" and "Turn Order: End Phase"), by the stable code the
# engine records and the words a reader sees beside it.
END_REASONS: dict[str, str] = {
    "levels": "an End Phase found 10 levels in a discard pile: fewer eliminated levels won",
    "no_characters": "one side has no character left",
    "simultaneous_last": "both last characters killed at once: the player whose turn it is wins",
    "empty_deck": "a player could not draw a full hand (rule option empty_deck=lose)",
    "turn_cap": "the turn cap was reached: a draw (a safety stop, not a rule)",
}


def rate(r: Rate) -> dict[str, Any]:
    """A rate in the shape every deckkit document uses (:func:`.estimates.rate_json`)."""
    return rate_json(r)


def end_reasons(counts: dict[str, int]) -> list[dict[str, Any]]:
    """The end reasons by code with their words beside, the most frequent first, as Ani-Mayhem's
    ``simulate --format json`` gives them."""
    return [
        {"code": code, "reason": END_REASONS.get(code, code), "games": n}
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def summarize(result: RunResult, match: Match, teams: tuple[Team, Team]) -> dict[str, Any]:
    """The JSON document of a run (also the report's sidecar); independent of ``workers``."""
    t = result.tally
    n = t.games
    decided = n - t.draws
    turns = mean_estimate(n, t.turns, t.turns_sq, t.turns_min, t.turns_max)
    cards: list[dict[str, Any]] = []
    drafting = match.drafting(teams)
    for side, team in enumerate(teams):
        roster = team.card_set.characters if drafting else team.cards
        for i, card in enumerate(roster):
            counts = t.cards[side][i]
            played = t.played_in[side][i]
            won_played = t.won_played[side][i]
            with_card = proportion(won_played, played)
            without = proportion(t.wins[side] - won_played, n - played)
            lift = (
                with_card.rate - without.rate
                if with_card.rate is not None and without.rate is not None
                else None
            )
            cards.append(
                {
                    "side": side,
                    "team": team.name,
                    "name": card.name,
                    "type": card.type,
                    "level": card.level,
                    "played": rate(proportion(played, n)),
                    "win_when_played": rate(with_card),
                    "win_when_not_played": rate(without),
                    "lift": lift,
                    "kills_per_battle": counts[Stat.KILLS] / n,
                    "killed_per_battle": counts[Stat.KILLED] / n,
                    "fights_per_battle": counts[Stat.FIGHTS] / n,
                    "fights_won": rate(proportion(counts[Stat.FIGHTS_WON], counts[Stat.FIGHTS])),
                    "abilities_per_battle": counts[Stat.ABILITIES] / n,
                    "drafted": rate(proportion(counts[Stat.DRAFTED], n)) if drafting else None,
                }
            )
    matchups = []
    for (att, dfn), counts in sorted(t.matchups.items()):
        fights = counts[FIGHTS]
        matchups.append(
            {
                "attacker": att,
                "defender": dfn,
                "fights": fights,
                "fights_per_battle": fights / n,
                "attacker_won": rate(proportion(counts[ATTACKER_WON], fights)),
                "defender_won": rate(proportion(counts[DEFENDER_WON], fights)),
                "tied": rate(proportion(counts[TIED], fights)),
            }
        )
    return {
        "game": "animus",
        "drafting": drafting,
        "teams": [
            {
                "name": team.name,
                "file": str(path),
                "levels": team.levels,
                "entity": team.entity.name if team.entity else None,
                "policy": match.policies[side],
                "draft_policy": team.draft_policy,
                "card_file": str(team.card_set.path),
            }
            for side, (team, path) in enumerate(zip(teams, (match.team, match.vs), strict=True))
        ],
        "run": {
            "seed": result.seed,
            "games": n,
            "rules": match.options.as_dict(),
            "non_default_rules": match.options.non_default(),
        },
        "ci_method": CI_METHOD,
        "confidence": CONFIDENCE,
        "outcomes": {
            "team": rate(proportion(t.wins[0], n)),
            "vs": rate(proportion(t.wins[1], n)),
            # From the first team's view, under the names every game's documents use.
            "win": rate(proportion(t.wins[0], n)),
            "loss": rate(proportion(t.wins[1], n)),
            "draw": rate(proportion(t.draws, n)),
            "first_player_won": rate(proportion(t.first_wins, decided)),
        },
        "turns": {
            "mean": turns.mean,
            "std": turns.std,
            "ci": list(turns.ci) if turns.ci else None,
            "min": turns.min,
            "max": turns.max,
        },
        "end_reasons": end_reasons(dict(t.reasons)),
        "cards": sorted(cards, key=lambda c: (-(c["lift"] or 0.0), c["side"], c["name"])),
        "matchups": matchups,
    }
