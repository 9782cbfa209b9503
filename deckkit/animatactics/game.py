"""Anima Tactics in the shape every game gives (:class:`deckkit.core.game.Game`): a party file,
its legality under its edition and level total, the automatic players (a plan's name: the
heuristic player spending actions by that plan; ``random``; ``search``) and one seeded
skirmish of two parties to a :class:`~deckkit.core.game.Record`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from deckkit.animatactics.analysis.parties import PLAN_NAMES, check_policy, fighters, plan_of
from deckkit.animatactics.analysis.party_games import END_REASONS, PartyGames
from deckkit.animatactics.analysis.readings import rule_set
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animatactics.construction.legality import check_party
from deckkit.animatactics.construction.party import Party, read_party
from deckkit.animatactics.construction.rules import rule_options as readings
from deckkit.animatactics.engine.skirmish import GameResult, Side
from deckkit.core.game import Legality, Problem, Record, RuleChoice, StandIn
from deckkit.errors import UsageError

DEFAULT_PLAN = "guarded"
EDITIONS = ("saga1", "later")


class AnimaTactics:
    """The miniatures skirmish game (Saga I rulebook and the card data)."""

    name = "anima-tactics"
    title = "Anima Tactics"
    outcomes: tuple[str, ...] = ("win", "loss", "draw")
    end_reasons: Mapping[str, str] = END_REASONS

    def read(self, path: Path) -> Party:
        return read_party(path, load_card_db())

    def entry_name(self, entry: Party) -> str:
        return entry.name

    def members(self, entry: Party) -> tuple[str, ...]:
        return tuple(m.character.name for m in entry.members)

    def stand_ins(self, entry: Party, member: str) -> tuple[StandIn, ...]:
        """The character's removal: a party spends "up to the agreed-upon level total"
        (anima-tactics-rulebook.txt, PREPARING FOR THE GAME, Organizing your party), so one with
        fewer levels is still a party; the Equipment and Powers it bore leave with it. No
        stand-in when the smaller party breaks a rule (more advantage cards than characters,
        the same section)."""
        at = self._member_at(entry, member)
        smaller = replace(
            entry,
            members=[m for i, m in enumerate(entry.members) if i != at],
            advantages=self._kept_advantages(entry, at),
        )
        if not self.legality(smaller).legal:
            return ()
        return (StandIn("removed", smaller),)

    def replaced(self, entry: Party, member: str, name: str) -> StandIn:
        """The party with ``member`` replaced by the character ``name`` of the card data, in its
        line; the Equipment and Powers the replaced character bore leave with it (they were
        placed on that character: anima-tactics-rulebook.txt, PREPARING FOR THE GAME,
        Organizing your party). The party keeps its level total, so whether the newcomer fits
        it (and every other rule) is :meth:`legality`'s verdict. A Gear takes its pilot as a
        party file names it, ``NAME with PILOT``."""
        from deckkit.animatactics.construction.party import Member

        at = self._member_at(entry, member)
        db = load_card_db()
        newcomer = db.character(name)
        pilot = None
        gear = re.match(r"^(?P<name>.+?)\s+with\s+(?P<pilot>.+)$", name.strip(), re.IGNORECASE)
        if newcomer is None and gear is not None:  # "Goethia with Valis", as a party file says
            newcomer = db.character(gear.group("name"))
            pilot = db.pilot(gear.group("pilot"))
            if newcomer is not None and pilot is None:
                raise UsageError(
                    f"--replace-with: no pilot {gear.group('pilot')!r} in the Anima Tactics "
                    "card data",
                    hint=f"pilots: {', '.join(p.name for p in db.pilots)}",
                )
        if newcomer is None:
            if db.advantage(name) is not None:
                raise UsageError(
                    f"--replace-with: {name!r} is an advantage card; a character's place takes "
                    "a character"
                )
            near = db.suggest(name)
            raise UsageError(
                f"--replace-with: no character {name!r} in the Anima Tactics card data",
                hint=f"did you mean {', '.join(near)}?"
                if near
                else "see `deckkit cards list --game anima-tactics`",
            )
        old = entry.members[at]
        if newcomer.name.casefold() == old.character.name.casefold():
            raise UsageError(
                f"--replace-with {newcomer.name!r}: {old.character.name} would be replaced by "
                "itself, nothing would change",
                hint="measure the other characters with --card, or name another character",
            )
        changed = replace(
            entry,
            members=[
                Member(newcomer, pilot, m.line) if i == at else m
                for i, m in enumerate(entry.members)
            ],
            advantages=self._kept_advantages(entry, at),
        )
        with_pilot = f" with {pilot.name}" if pilot is not None else ""
        return StandIn(f"replaced by {newcomer.name}{with_pilot} (named)", changed)

    @staticmethod
    def _member_at(entry: Party, member: str) -> int:
        at = next(
            (
                i
                for i, m in enumerate(entry.members)
                if m.character.name.casefold() == member.casefold()
            ),
            None,
        )
        if at is None:
            raise UsageError(f"{member!r} is not in the party {entry.name!r}")
        return at

    @staticmethod
    def _kept_advantages(entry: Party, at: int) -> list[Any]:
        """The party's advantage cards but those borne by member ``at`` alone (another member
        of the same name keeps them)."""
        gone = entry.members[at].character.name
        return [
            a
            for a in entry.advantages
            if a.bearer is None
            or a.bearer.casefold() != gone.casefold()
            or any(m.character.name == gone for i, m in enumerate(entry.members) if i != at)
        ]

    def legality(self, entry: Party) -> Legality:
        edition = load_edition(entry.edition or DEFAULT_EDITION)
        report = check_party(entry, edition, entry.levels or edition.levels_default)
        return Legality(
            report.legal, tuple(Problem(v.rule, v.message, v.fix) for v in report.violations)
        )

    def rule_options(self) -> tuple[RuleChoice, ...]:
        return (
            RuleChoice(
                "edition",
                DEFAULT_EDITION,
                EDITIONS,
                "saga1: advantages paid in levels; later: the advantage-point budget",
            ),
            RuleChoice("levels", "250", (), "the game's level total"),
            *(RuleChoice(o.name, o.default, o.values, o.summary) for o in readings()),
        )

    def parse_rule(self, text: str, where: str = "--rule") -> tuple[str, str]:
        """``edition=saga1|later``, ``levels=N`` (a whole number of at least 1 as ``--levels``
        takes: whether the party fits that total is the legality check's, per edition), or one
        of the readings of rules.toml (``time_limit=draw``...)."""
        name, sep, value = (part.strip() for part in text.partition("="))
        choices = {c.name: c for c in self.rule_options()}
        if not sep or not name or not value:
            raise UsageError(f"{where}: expected NAME=VALUE, not {text!r}", hint="e.g. levels=300")
        choice = choices.get(name)
        if choice is None:
            raise UsageError(
                f"{where}: unknown rule option {name!r}", hint=f"options: {', '.join(choices)}"
            )
        if choice.values and value not in choice.values:
            raise UsageError(
                f"{where}: rule {name} has no value {value!r}",
                hint=f"choose one of: {', '.join(choice.values)}",
            )
        if not choice.values and not (value.isdigit() and int(value) >= 1):
            raise UsageError(
                f"{where}: rule {name} takes a whole number of at least 1, not {value!r}"
            )
        return name, value

    def players(self) -> tuple[str, ...]:
        """The heuristic player under each plan (by the plan's name), then the random and the
        search player (:mod:`deckkit.animatactics.engine.players`) under the default plan."""
        plans = (DEFAULT_PLAN, *(p for p in PLAN_NAMES if p != DEFAULT_PLAN))
        return (*plans, "random", "search")

    def prepare(
        self,
        entries: Sequence[Party],
        *,
        player: str | Sequence[str] | None = None,
        rules: Mapping[str, str] | None = None,
    ) -> PartyGames:
        if len(entries) != 2:
            raise UsageError("an Anima Tactics skirmish is played by two parties")
        players = [player, player] if player is None or isinstance(player, str) else list(player)
        if len(players) != 2:
            raise UsageError("an Anima Tactics skirmish has two players, one per party")
        sides = tuple(
            Side(tuple(e.duellist for e in fs), tuple(e.levels for e in fs), *_plan_policy(name))
            for fs, name in zip((fighters(entries[0]), fighters(entries[1])), players, strict=True)
        )
        if not sides[0].fighters or not sides[1].fighters:
            raise UsageError("a party has no character with stats in the card data")
        party_names = (entries[0].name, entries[1].name)
        return PartyGames((sides[0], sides[1]), rule_set(rules), party_names)

    def play(self, setup: PartyGames, seed: int, index: int, *, trace: bool = False) -> Record:
        if trace:
            result, lines = setup.traced(seed, index)
            return replace(record_of(result, index, setup.sides), trace=lines)
        result = setup.play(seed, index)
        return record_of(result, index, setup.sides)


def _plan_policy(name: str | None) -> tuple[Any, str]:
    """A player's name as a side's plan and policy: a plan's name is the heuristic player
    following that plan; any other name (random, search) plays the default plan's way."""
    chosen = name or DEFAULT_PLAN
    if chosen in PLAN_NAMES:
        return plan_of(chosen), "heuristic"
    return plan_of(DEFAULT_PLAN), check_policy(chosen)


def record_of(result: GameResult, index: int, sides: tuple[Side, Side]) -> Record:
    """A skirmish in the shared shape: the end reason ``knock_out`` (every enemy fell) or
    ``levels`` (after the last turn the most levels on the table decide), and each character's
    Life Points left, keyed "SIDE:NAME"."""
    counters = {
        (f"{side}:{fighter.name}", "life_left"): life
        for side in (0, 1)
        for fighter, life in zip(sides[side].fighters, result.life[side], strict=True)
        if life
    }
    outcome = "draw" if result.winner is None else ("win" if result.winner == 0 else "loss")
    return Record(index, outcome, "knock_out" if result.by_ko else "levels", result.turns, counters)


GAME = AnimaTactics()
