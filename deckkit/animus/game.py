"""Animus in the shape every game gives (:class:`deckkit.core.game.Game`): a team file (or a
draft seat), its legality, the rule options where the v3.5 text is silent, the automatic players
and one seeded battle to a :class:`~deckkit.core.game.Record`."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from deckkit.animus.construction.cards import Card, Kind
from deckkit.animus.construction.legality import check_team
from deckkit.animus.construction.options import CHOICES, parse_options
from deckkit.animus.construction.team import Team, read_team
from deckkit.animus.engine.play import Lineup, play_battle
from deckkit.animus.engine.players import PLAYERS
from deckkit.animus.engine.players import make_player as make_policy
from deckkit.animus.engine.record import STATS, BattleRecord
from deckkit.animus.montecarlo import BattleFn, Match, check_policy
from deckkit.animus.summary import END_REASONS
from deckkit.core.chance import SeededChance
from deckkit.core.game import Legality, Problem, Record, RuleChoice, StandIn
from deckkit.errors import UsageError

DEFAULT_PLAYER = "heuristic"
STAND_INS = 3  # replacements a character's worth is measured against (the median's)


@dataclass(frozen=True)
class Lineups:
    """A run's setup: the two files, rule options and players (:class:`Match`) and, for teams
    of fixed cards, each side's cards by name as the entries hold them, so that a changed team
    (a stand-in in one card's place) plays as held rather than as its file reads. None for two
    draft seats, which draft afresh before every battle."""

    match: Match
    names: tuple[tuple[str, ...], tuple[str, ...]] | None

    def __call__(self) -> BattleFn:
        return _battle(self)


class Animus:
    """The two-player card battle game (rules v3.5)."""

    name = "animus"
    title = "Animus"
    outcomes: tuple[str, ...] = ("win", "loss", "draw")
    end_reasons: Mapping[str, str] = END_REASONS

    def read(self, path: Path) -> Team:
        return read_team(path)

    def entry_name(self, entry: Team) -> str:
        return entry.name

    def members(self, entry: Team) -> tuple[str, ...]:
        return tuple(c.name for c in entry.cards)

    def stand_ins(self, entry: Team, member: str) -> tuple[StandIn, ...]:
        """Replacements only: a team is exactly nine characters ("a team of 9 character
        cards", animus-rules-v3.5.txt, Setup, Draft Characters), so a character is measured
        against characters of the card set the team does not hold, in its place. The fairest
        first: the same level (the objective counts eliminated levels, Game Objective), no
        abilities, the same type, melee and range nearest the character's, then the card id;
        the first :data:`STAND_INS` that keep the team legal. A changed team no longer records
        the draft it came from."""
        at = next(
            (i for i, c in enumerate(entry.cards) if c.name.casefold() == member.casefold()), None
        )
        if at is None:
            raise UsageError(f"{member!r} is not in the team {entry.name!r}")
        gone = entry.cards[at]
        held = {c.name.casefold() for c in entry.cards}

        def fairness(c: Card) -> tuple[int, bool, bool, int, str]:
            return (
                abs(c.level - gone.level),
                bool(c.abilities),
                c.type != gone.type,
                abs(c.melee + c.range - gone.melee - gone.range),
                c.id,
            )

        candidates = sorted(
            (
                c
                for c in entry.card_set.cards
                if c.kind is Kind.CHARACTER and c.name.casefold() not in held
            ),
            key=fairness,
        )
        found: list[StandIn] = []
        for c in candidates:
            cards = (*entry.cards[:at], c, *entry.cards[at + 1 :])
            changed = replace(entry, cards=cards, pyramid=(), picks=(), drafted=None)
            if self.legality(changed).legal:
                found.append(StandIn(f"replaced by {c.name}", changed))
                if len(found) == STAND_INS:
                    break
        return tuple(found)

    def replaced(self, entry: Team, member: str, name: str) -> StandIn:
        """The team with ``member`` replaced by the character ``name`` of the team's card file,
        in its place (a team is nine characters, rules v3.5, Setup, Draft Characters): whether
        the team is still legal (every character unique...) is :meth:`legality`'s verdict. A
        changed team no longer records the draft it came from."""
        import difflib

        at = next(
            (i for i, c in enumerate(entry.cards) if c.name.casefold() == member.casefold()), None
        )
        if at is None:
            raise UsageError(f"{member!r} is not in the team {entry.name!r}")
        newcomer = entry.card_set.find(name)
        if newcomer is None:
            near = difflib.get_close_matches(name, [c.name for c in entry.card_set.characters])
            raise UsageError(
                f"--replace-with: no card {name!r} in the card file {entry.card_set.path}",
                hint=f"did you mean {', '.join(near)}?"
                if near
                else "see `deckkit cards list` with the team's card file",
            )
        if newcomer.kind is not Kind.CHARACTER:
            raise UsageError(
                f"--replace-with: {newcomer.name} is an Entity; a team's places take characters "
                "(rules v3.5, Setup)"
            )
        if newcomer.name.casefold() == entry.cards[at].name.casefold():
            raise UsageError(
                f"--replace-with {newcomer.name!r}: {entry.cards[at].name} would be replaced by "
                "itself, nothing would change",
                hint="measure the other characters with --card, or name another character",
            )
        cards = (*entry.cards[:at], newcomer, *entry.cards[at + 1 :])
        changed = replace(entry, cards=cards, pyramid=(), picks=(), drafted=None)
        return StandIn(f"replaced by {newcomer.name} (named)", changed)

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
        return (DEFAULT_PLAYER, *(p for p in PLAYERS if p != DEFAULT_PLAYER))

    def prepare(
        self,
        entries: Sequence[Team],
        *,
        player: str | Sequence[str] | None = None,
        rules: Mapping[str, str] | None = None,
    ) -> Lineups:
        if len(entries) != 2:
            raise UsageError("an Animus battle is played by two teams")
        names = [player, player] if player is None or isinstance(player, str) else list(player)
        if len(names) != 2:
            raise UsageError("an Animus battle has two players, one per team")
        first, second = (check_policy(n or DEFAULT_PLAYER) for n in names)
        overrides = tuple(f"{k}={v}" for k, v in (rules or {}).items())
        options = read_team(entries[0].path, list(overrides)).options
        match = Match(
            entries[0].path, entries[1].path, options, (first, second), overrides
        ).carried()
        if match.drafting((entries[0], entries[1])):
            return Lineups(match, None)
        a, b = (tuple(c.name for c in e.cards) for e in entries)
        return Lineups(match, (a, b))

    def play(self, setup: Lineups | Match, seed: int, index: int, *, trace: bool = False) -> Record:
        """A battle of the setup (or of a :class:`Match`'s files as they read, as `deckkit
        play` gives, each side with its own player)."""
        if isinstance(setup, Match):
            setup = _of_files(setup)
        teams = _teams(setup.match)
        lines: list[str] = []
        if trace and setup.names is not None:
            # The very calls of the run's battles, with the battle's events kept.
            match = setup.match
            policies = (make_policy(match.policies[0]), make_policy(match.policies[1]))
            rec = play_battle(
                _lineups(setup),
                match.options,
                SeededChance.for_game(seed, index),
                policies,
                trace=lines.append,
            )
        else:
            rec = _battle(setup)(seed, index)
        if setup.names is None:
            names = [[c.name for c in t.card_set.characters] for t in teams]
        else:
            names = [list(setup.names[0]), list(setup.names[1])]
        return record_of(rec, index, names, tuple(lines) if trace and lines else None)


@functools.lru_cache(maxsize=4)
def _teams(match: Match) -> tuple[Team, Team]:
    return match.teams()


@functools.lru_cache(maxsize=4)
def _of_files(match: Match) -> Lineups:
    teams = _teams(match)
    if match.drafting(teams):
        return Lineups(match, None)
    return Lineups(
        match, (tuple(c.name for c in teams[0].cards), tuple(c.name for c in teams[1].cards))
    )


def _lineups(setup: Lineups) -> tuple[Lineup, Lineup]:
    """Each side's cards as the setup names them, from its team's card set, and its Entity."""
    assert setup.names is not None
    teams = _teams(setup.match)
    sides = []
    for team, names in zip(teams, setup.names, strict=True):
        cards = tuple(team.card_set.find(n) for n in names)
        missing = [n for n, c in zip(names, cards, strict=True) if c is None]
        if missing:
            raise UsageError(f"{', '.join(missing)}: not in the card set of {team.path}")
        sides.append(Lineup(tuple(c for c in cards if c is not None), team.entity))
    return sides[0], sides[1]


@functools.lru_cache(maxsize=8)
def _battle(setup: Lineups) -> BattleFn:
    """The run's battles: a draft seat's as the match drafts them, fixed teams' as
    :meth:`Match.player` plays its files, with the setup's cards."""
    match = setup.match
    if setup.names is None:
        return match.player()
    lineups = _lineups(setup)
    options = match.options

    def play(seed: int, index: int) -> BattleRecord:
        policies = (make_policy(match.policies[0]), make_policy(match.policies[1]))
        return play_battle(lineups, options, SeededChance.for_game(seed, index), policies)

    return play


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
