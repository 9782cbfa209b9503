"""Party against party: many sampled games, split across processes, the same for any split.

Game ``i`` draws its dice from ``(seed, i)`` alone (:func:`.playing.play_game`), and the games
are handed out in chunks of consecutive games by every game's runner
(:mod:`deckkit.core.workers`: a lazy schedule, at most as many workers as cores, stop signals
handled as for every game, workers that end with their parent), so one process or eight give
the very same games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckkit.animatactics.engine.options import DEFAULT_RULES, RuleSet
from deckkit.animatactics.engine.playing import play_game
from deckkit.animatactics.engine.skirmish import GameResult, Side, Trace
from deckkit.core import workers as core
from deckkit.core.estimates import CI_METHOD, CONFIDENCE, proportion, rate_json


@dataclass(slots=True)
class Counts:
    """What a chunk of games adds up to: counters summed game by game, so a run of any length
    costs the memory of one game (a list of every game's result grew without bound)."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    wins_by_ko: int = 0
    losses_by_ko: int = 0
    turns: int = 0
    charges: int = 0
    attacks: int = 0

    @classmethod
    def of(cls, g: GameResult) -> Counts:
        counts = cls()
        counts.add(g)
        return counts

    def add(self, g: GameResult) -> None:
        self.games += 1
        self.wins += g.winner == 0
        self.losses += g.winner == 1
        self.draws += g.winner is None
        self.wins_by_ko += g.winner == 0 and g.by_ko
        self.losses_by_ko += g.winner == 1 and g.by_ko
        self.turns += g.turns
        self.charges += g.charges
        self.attacks += g.attacks

    def merged(self, other: Counts) -> Counts:
        return self + other

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.games + other.games,
            self.wins + other.wins,
            self.losses + other.losses,
            self.draws + other.draws,
            self.wins_by_ko + other.wins_by_ko,
            self.losses_by_ko + other.losses_by_ko,
            self.turns + other.turns,
            self.charges + other.charges,
            self.attacks + other.attacks,
        )


@dataclass(frozen=True, slots=True)
class PartyGames:
    """The factory of a run (picklable, sent to every worker): game ``index`` of the run seeded
    ``seed`` between the two sides, under the rule options ``rules``; ``names``, the parties'
    names, only word a traced game (:meth:`traced`)."""

    sides: tuple[Side, Side]
    rules: RuleSet = DEFAULT_RULES
    names: tuple[str, str] = ("the first party", "the second party")

    def __call__(self) -> core.PlayFn:
        return self.play

    def play(self, seed: int, index: int) -> GameResult:
        return play_game(self.sides, seed, index, rules=self.rules)

    def traced(self, seed: int, index: int) -> tuple[GameResult, tuple[str, ...]]:
        """Game ``index`` of the run seeded ``seed`` (the same game :meth:`play` plays) with
        its events in words."""
        trace = Trace(self.names)
        result = play_game(self.sides, seed, index, rules=self.rules, trace=trace)
        return result, tuple(trace.lines)


class CountedGames:
    """Game results as the runner folds them: into :class:`Counts`."""

    def tally(self) -> Counts:
        return Counts()

    def row(self, record: GameResult) -> tuple[int, ...]:
        raise NotImplementedError("Anima Tactics runs keep no per-game rows")


def play_games(
    sides: tuple[Side, Side],
    games: int,
    seed: int,
    workers: int = 1,
    rules: RuleSet = DEFAULT_RULES,
) -> Counts:
    """Games ``0..games-1`` of the run seeded ``seed`` under ``rules``, counted. ``workers``
    is capped at the cores this process may use, as for every game (0: all of them); results
    never depend on it.
    A stop request (Ctrl-C, SIGTERM, SIGHUP) ends the workers and is raised again as
    ``KeyboardInterrupt``."""
    played = core.play_games(
        PartyGames(sides, rules), CountedGames(), games=games, seed=seed,
        workers=core.capped_workers(workers),
    )  # fmt: skip
    if played.interrupted:
        raise KeyboardInterrupt
    counts: Counts = played.tally
    return counts


# How a skirmish ends (deckkit.animatactics.engine.skirmish, after the rulebook's "Winning":
# after 10 turns the most levels on the table win), by the code the game's records carry
# (deckkit.animatactics.game.record_of) and in words.
END_REASONS: dict[str, str] = {
    "knock_out": "every character of one party fell",
    "levels": "after the last turn the party with the most levels on the table won (or a draw)",
}


@dataclass(frozen=True)
class VersusSummary:
    games: int
    wins: int
    losses: int
    draws: int
    wins_by_ko: int
    losses_by_ko: int
    mean_turns: float
    mean_charges: float = 0.0
    mean_attacks: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """The JSON document: every rate in the shape all deckkit documents share
        (:func:`deckkit.core.estimates.rate_json`), plus ``ci95``, the same interval under the
        key this document first used; the end reasons by code with their words beside."""

        def rate(k: int) -> dict[str, Any]:
            r = proportion(k, self.games)
            return {**rate_json(r), "ci95": list(r.ci) if r.ci else None}

        outcomes = {"win": rate(self.wins), "loss": rate(self.losses), "draw": rate(self.draws)}
        knock_outs = self.wins_by_ko + self.losses_by_ko
        ends = [
            {"code": code, "reason": END_REASONS[code], "games": n}
            for code, n in (("knock_out", knock_outs), ("levels", self.games - knock_outs))
            if n
        ]
        return {
            "games": self.games,
            **outcomes,
            "win_by_ko": rate(self.wins_by_ko),
            "loss_by_ko": rate(self.losses_by_ko),
            "mean_turns": self.mean_turns,
            "mean_charges": self.mean_charges,
            "mean_attacks": self.mean_attacks,
            "ci_method": CI_METHOD,
            "confidence": CONFIDENCE,
            "outcomes": outcomes,
            "end_reasons": sorted(ends, key=lambda e: (-int(e["games"]), str(e["code"]))),
        }


def summarize(counts: Counts) -> VersusSummary:
    n = counts.games
    return VersusSummary(
        games=n,
        wins=counts.wins,
        losses=counts.losses,
        draws=counts.draws,
        wins_by_ko=counts.wins_by_ko,
        losses_by_ko=counts.losses_by_ko,
        mean_turns=counts.turns / n if n else 0.0,
        mean_charges=counts.charges / n if n else 0.0,
        mean_attacks=counts.attacks / n if n else 0.0,
    )
