"""Team against team by Monte Carlo: many seeded battles over worker processes, folded into
integer counts, then rates with 95% intervals.

Determinism: battle ``i`` of a run seeded ``s`` draws every die, shuffle and first-player roll
from ``SeededChance.for_game(s, i)`` alone; battles are handed out in chunks of consecutive
indices and each chunk comes back as a :class:`Tally` of integers, merged by addition. So the
totals, and every number derived from them, are the same for any number of workers and any
order in which chunks finish.

The battles are played by every game's runner (:mod:`deckkit.core.workers`): a lazy schedule,
at most as many workers as cores, stop signals handled as for every game, and workers that end
with their parent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.construction.team import Team, read_team
from deckkit.animus.engine.draft import DRAFT_POLICIES, draft
from deckkit.animus.engine.play import Lineup, play_battle
from deckkit.animus.engine.players import MAX_ROLLOUTS, PLAYERS, is_player
from deckkit.animus.engine.players import make_player as make_policy
from deckkit.animus.engine.record import N_STATS, BattleRecord, Stat
from deckkit.core import workers as core
from deckkit.core.chance import SeededChance
from deckkit.errors import UsageError

CHUNK = 200


class BattleFn(Protocol):
    """Plays battle ``index`` of a run seeded ``seed``."""

    def __call__(self, seed: int, index: int) -> BattleRecord: ...


@dataclass(frozen=True, slots=True)
class Match:
    """What a run plays, picklable for the workers: two team files, the rule options, the two
    automatic players; and, once :meth:`carried`, the two teams as read, so that a worker on
    another machine (a Dask cluster's) plays them without the files (equality and hash are the
    files', rules and players')."""

    team: Path
    vs: Path
    options: RuleOptions
    policies: tuple[str, str] = ("heuristic", "heuristic")
    rules: tuple[str, ...] = ()
    loaded: tuple[Team, Team] | None = field(default=None, compare=False, repr=False)

    def teams(self) -> tuple[Team, Team]:
        if self.loaded is not None:
            return self.loaded
        return read_team(self.team, list(self.rules)), read_team(self.vs, list(self.rules))

    def carried(self) -> Match:
        """The same match carrying its two teams as read now (what travels to a worker)."""
        return self if self.loaded is not None else replace(self, loaded=self.teams())

    def drafting(self, teams: tuple[Team, Team]) -> bool:
        """Both files are draft seats (a fresh draft before every battle), or neither is."""
        seats = [t.draft_policy is not None for t in teams]
        if seats[0] != seats[1]:
            raise UsageError(
                "a draft seat ('draft:' header) can only play another draft seat",
                hint="give both files a 'draft: POLICY' line, or neither",
            )
        if seats[0]:
            if teams[0].card_set is not teams[1].card_set:
                raise UsageError("two draft seats must draft from the same card file")
            for t in teams:
                if t.draft_policy not in DRAFT_POLICIES:
                    raise UsageError(
                        f"unknown drafting policy {t.draft_policy!r}",
                        path=t.path,
                        hint=f"policies: {', '.join(DRAFT_POLICIES)}",
                    )
        return seats[0]

    def sizes(self, teams: tuple[Team, Team]) -> tuple[int, int]:
        """How many cards each side's counters cover: its team, or the whole card set."""
        if self.drafting(teams):
            n = len(teams[0].card_set.characters)
            return n, n
        return len(teams[0].cards), len(teams[1].cards)

    def __call__(self) -> BattleFn:
        """The factory of a run: reads the teams once per process (see deckkit.core.workers)."""
        return self.player()

    def player(self) -> BattleFn:
        a, b = self.teams()
        options = self.options
        if self.drafting((a, b)):
            return self._drafting_player(a, b)
        lineups = (Lineup(a.cards, a.entity), Lineup(b.cards, b.entity))

        def play(seed: int, index: int) -> BattleRecord:
            policies = (make_policy(self.policies[0]), make_policy(self.policies[1]))
            return play_battle(lineups, options, SeededChance.for_game(seed, index), policies)

        return play

    def _drafting_player(self, a: Team, b: Team) -> BattleFn:
        pool = a.card_set.characters
        where = {id(c): i for i, c in enumerate(pool)}
        assert a.draft_policy is not None and b.draft_policy is not None
        drafters = (a.draft_policy, b.draft_policy)

        def play(seed: int, index: int) -> BattleRecord:
            chance = SeededChance.for_game(seed, index)
            seats = (DRAFT_POLICIES[drafters[0]](), DRAFT_POLICIES[drafters[1]]())
            result = draft(a.card_set, seats, chance, self.options)
            # Side s drafted first when the die gave seat s the first pick.
            cards = tuple(result.team(0 if result.first == s else 1) for s in (0, 1))
            lineups = (Lineup(cards[0], a.entity), Lineup(cards[1], b.entity))
            policies = (make_policy(self.policies[0]), make_policy(self.policies[1]))
            rec = play_battle(lineups, self.options, chance, policies)
            remapped = [[[0] * N_STATS for _ in pool] for _ in (0, 1)]
            for side in (0, 1):
                for i, card in enumerate(cards[side]):
                    counts = remapped[side][where[id(card)]]
                    counts[:] = rec.cards[side][i]
                    counts[Stat.DRAFTED] = 1
            rec.cards = remapped
            return rec

        return play


def check_policy(name: str) -> str:
    if not is_player(name):
        raise UsageError(
            f"unknown policy {name!r}",
            hint=f"policies: {', '.join(PLAYERS)} (search:N: N rollouts per choice, "
            f"1 to {MAX_ROLLOUTS})",
        )
    return name


@dataclass(slots=True)
class Tally:
    """Integer sums over battles; ``+`` merges two tallies exactly."""

    sizes: tuple[int, int]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    first_wins: int = 0  # battles won by the side that played first
    turns: int = 0
    turns_sq: int = 0
    turns_min: int | None = None
    turns_max: int | None = None
    reasons: dict[str, int] = field(default_factory=dict)
    cards: list[list[list[int]]] = field(default_factory=list)  # [side][card][stat] totals
    played_in: list[list[int]] = field(default_factory=list)  # battles a card entered play
    won_played: list[list[int]] = field(default_factory=list)  # ... that its side won
    matchups: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.cards:
            self.cards = [[[0] * N_STATS for _ in range(n)] for n in self.sizes]
            self.played_in = [[0] * n for n in self.sizes]
            self.won_played = [[0] * n for n in self.sizes]

    def add(self, rec: BattleRecord) -> None:
        self.games += 1
        if rec.winner is None:
            self.draws += 1
        else:
            self.wins[rec.winner] += 1
            self.first_wins += rec.winner == rec.first
        self.turns += rec.turns
        self.turns_sq += rec.turns * rec.turns
        self.turns_min = rec.turns if self.turns_min is None else min(self.turns_min, rec.turns)
        self.turns_max = rec.turns if self.turns_max is None else max(self.turns_max, rec.turns)
        self.reasons[rec.reason] = self.reasons.get(rec.reason, 0) + 1
        for side in (0, 1):
            for i, counts in enumerate(rec.cards[side]):
                mine = self.cards[side][i]
                for s in range(N_STATS):
                    mine[s] += counts[s]
                if counts[Stat.PLAYED]:
                    self.played_in[side][i] += 1
                    self.won_played[side][i] += rec.winner == side
        for key, counts in rec.matchups.items():
            mine = self.matchups.setdefault(key, [0, 0, 0, 0])
            for s in range(4):
                mine[s] += counts[s]

    def merged(self, other: Tally) -> Tally:
        """A new tally of both (neither changes)."""
        out = Tally(self.sizes)
        out.merge(self)
        out.merge(other)
        return out

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.draws += other.draws
        self.first_wins += other.first_wins
        self.turns += other.turns
        self.turns_sq += other.turns_sq
        for side in (0, 1):
            self.wins[side] += other.wins[side]
            for i in range(self.sizes[side]):
                self.played_in[side][i] += other.played_in[side][i]
                self.won_played[side][i] += other.won_played[side][i]
                for s in range(N_STATS):
                    self.cards[side][i][s] += other.cards[side][i][s]
        if other.turns_min is not None:
            self.turns_min = (
                other.turns_min if self.turns_min is None else min(self.turns_min, other.turns_min)
            )
        if other.turns_max is not None:
            self.turns_max = (
                other.turns_max if self.turns_max is None else max(self.turns_max, other.turns_max)
            )
        for reason, n in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + n
        for key, counts in other.matchups.items():
            mine = self.matchups.setdefault(key, [0, 0, 0, 0])
            for s in range(4):
                mine[s] += counts[s]


@dataclass(frozen=True, slots=True)
class Battles:
    """Battle records as the runner folds them: into a :class:`Tally` of the teams' sizes."""

    sizes: tuple[int, int]

    def tally(self) -> Tally:
        return Tally(self.sizes)

    def row(self, record: BattleRecord) -> tuple[int, ...]:
        raise NotImplementedError("Animus runs keep no per-battle rows")


@dataclass(frozen=True, slots=True)
class RunResult:
    tally: Tally
    seed: int
    games: int
    workers: int
    seconds: float


def run(
    match: Match,
    *,
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Play battles ``0..games-1`` of the run seeded ``seed``. A stop request (Ctrl-C, SIGTERM,
    SIGHUP) ends the workers and is raised again as ``KeyboardInterrupt``."""
    if games < 1:
        raise UsageError("--games must be at least 1")
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    sizes = match.sizes(match.teams())  # read and checked before any worker starts
    played = core.play_games(
        match,
        Battles(sizes),
        games=games,
        seed=seed,
        workers=core.capped_workers(workers),
        progress=progress,
        chunk_size=CHUNK,
    )
    if played.interrupted:
        raise KeyboardInterrupt
    return RunResult(played.tally, seed, games, played.workers, played.seconds)


def schedule(games: int) -> Iterator[tuple[int, int]]:
    """The chunks of battles ``0..games-1``, made as they are handed out: a run of 10^12
    battles starts at once, in the memory of a run of a thousand."""
    return core.chunks(games, CHUNK)
