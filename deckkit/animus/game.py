"""Animus in the shape every game gives (:class:`deckkit.core.game.Game`): a team file (or a
draft seat), its legality, the rule options where the v3.5 text is silent, the automatic players
and one seeded battle to a :class:`~deckkit.core.game.Record`."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path

from deckkit.animus.construction.legality import check_team
from deckkit.animus.construction.options import CHOICES, parse_options
from deckkit.animus.construction.team import Team, read_team
from deckkit.animus.engine.play import Lineup, play_battle
from deckkit.animus.engine.policy import POLICIES, make_policy
from deckkit.animus.engine.record import STATS, BattleRecord
from deckkit.animus.montecarlo import BattleFn, Match
from deckkit.core.chance import SeededChance
from deckkit.core.game import Legality, Problem, Record, RuleChoice
from deckkit.errors import UsageError

DEFAULT_PLAYER = "heuristic"


class Animus:
    """The two-player card battle game (rules v3.5)."""

    name = "animus"
    title = "Animus"
    outcomes: tuple[str, ...] = ("win", "loss", "draw")

    def read(self, path: Path) -> Team:
        return read_team(path)

    def entry_name(self, entry: Team) -> str:
        return entry.name

    def members(self, entry: Team) -> tuple[str, ...]:
        return tuple(c.name for c in entry.cards)

    def legality(self, entry: Team) -> Legality:
        report = check_team(entry)
        return Legality(
            report.legal, tuple(Problem(v.rule, v.message, v.fix) for v in report.violations)
        )

    def rule_options(self) -> tuple[RuleChoice, ...]:
        return tuple(RuleChoice(name, values[0], values) for name, values in CHOICES.items())

    def parse_rule(self, text: str, where: str = "--rule") -> tuple[str, str]:
        """Checked as a team file's ``rule.NAME`` line or ``--rule`` is (options.py)."""
        name, sep, value = text.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise UsageError(
                f"{where}: expected NAME=VALUE, not {text!r}", hint="e.g. empty_deck=lose"
            )
        parse_options({name.strip(): value.strip()})
        return name.strip(), value.strip()

    def players(self) -> tuple[str, ...]:
        return (DEFAULT_PLAYER, *(p for p in POLICIES if p != DEFAULT_PLAYER))

    def prepare(
        self,
        entries: Sequence[Team],
        *,
        player: str | None = None,
        rules: Mapping[str, str] | None = None,
    ) -> Match:
        if len(entries) != 2:
            raise UsageError("an Animus battle is played by two teams")
        chosen = player or DEFAULT_PLAYER
        if chosen not in POLICIES:
            raise UsageError(f"unknown policy {chosen!r}", hint=f"policies: {', '.join(POLICIES)}")
        overrides = tuple(f"{k}={v}" for k, v in (rules or {}).items())
        options = read_team(entries[0].path, list(overrides)).options
        return Match(entries[0].path, entries[1].path, options, (chosen, chosen), overrides)

    def play(self, setup: Match, seed: int, index: int, *, trace: bool = False) -> Record:
        teams = _teams(setup)
        lines: list[str] = []
        if trace and not setup.drafting(teams):
            # The very calls of Match.player, with the battle's events kept.
            lineups = (
                Lineup(teams[0].cards, teams[0].entity),
                Lineup(teams[1].cards, teams[1].entity),
            )
            policies = (make_policy(setup.policies[0]), make_policy(setup.policies[1]))
            rec = play_battle(
                lineups,
                setup.options,
                SeededChance.for_game(seed, index),
                policies,
                trace=lines.append,
            )
            names = [[c.name for c in t.cards] for t in teams]
        else:
            rec = _player(setup)(seed, index)
            drafting = setup.drafting(teams)
            names = [
                [c.name for c in (t.card_set.characters if drafting else t.cards)] for t in teams
            ]
        return record_of(rec, index, names, tuple(lines) if trace and lines else None)


@functools.lru_cache(maxsize=4)
def _teams(match: Match) -> tuple[Team, Team]:
    return match.teams()


@functools.lru_cache(maxsize=4)
def _player(match: Match) -> BattleFn:
    return match.player()


def record_of(
    rec: BattleRecord, index: int, names: list[list[str]], trace: tuple[str, ...] | None
) -> Record:
    """A battle's record in the shared shape: counters keyed "SIDE:CARD NAME" (side 0 the first
    team, 1 the --vs team) and the counter's name."""
    counters = {
        (f"{side}:{names[side][i]}", STATS[s]): n
        for side in (0, 1)
        for i, counts in enumerate(rec.cards[side])
        for s, n in enumerate(counts)
        if n
    }
    outcome = "draw" if rec.winner is None else ("win" if rec.winner == 0 else "loss")
    return Record(index, outcome, rec.reason, rec.turns, counters, trace)


GAME = Animus()
