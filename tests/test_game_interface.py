"""Every game gives the same shape (issue 28, build point 1; deckkit.core.game): reading its
files, their legality, its rule options, its players, and one seeded game to a record. The
records are the games' own results in the shared shape: counted over many games they give the
very numbers each game's runner reports, and the runner plays any game through the interface."""

from __future__ import annotations

import pickle
from collections import Counter
from pathlib import Path

import pytest

from deckkit import games
from deckkit.core import workers
from deckkit.core.game import EDITION_DEFAULT, Game, Legality, Record
from deckkit.errors import UsageError

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
# Each game's sample files: the ones a run plays (one side, or two that meet).
SAMPLES = {
    "ani-mayhem": [DECKS / "demo-solo.deck"],
    "anima-tactics": [DECKS / "at-empire-light.party", DECKS / "at-samael-darkness.party"],
    "animus": [DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"],
}
GAMES = 12  # games per comparison: a few seconds of the pure-Python engines


def _game(name: str) -> Game:
    found = games.find_game(name)
    assert found is not None
    return games.game_interface(found)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_registered_game_provides_the_interface(name: str) -> None:
    game = _game(name)
    assert isinstance(game, Game)
    assert game.name == name
    assert games.find_game(game.title) == games.find_game(name)
    assert game.outcomes[0] == "win"
    players = game.players()
    assert players and len(set(players)) == len(players)
    options = game.rule_options()
    assert options and len({o.name for o in options}) == len(options)
    for option in options:
        assert not option.values or option.default in (*option.values, EDITION_DEFAULT), option


def test_every_game_of_the_registry_is_covered() -> None:
    assert {g.name for g in games.GAMES} == set(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_sample_is_read_judged_and_played_to_the_same_record_twice(name: str) -> None:
    game = _game(name)
    entries = [game.read(path) for path in SAMPLES[name]]
    for entry in entries:
        verdict = game.legality(entry)
        assert isinstance(verdict, Legality)
        assert verdict.legal, verdict.problems
    setup = game.prepare(entries, player=game.players()[0])
    setup = pickle.loads(pickle.dumps(setup))  # a setup travels to worker processes
    records = [game.play(setup, 7, i) for i in range(4)]
    assert [game.play(setup, 7, i) for i in range(4)] == records
    for i, record in enumerate(records):
        assert isinstance(record, Record)
        assert record.index == i
        assert record.outcome in game.outcomes
        assert record.end_reason and record.end_reason.isidentifier(), record.end_reason
        # every code a record carries has the game's words beside it (what a page shows)
        assert game.end_reasons.get(record.end_reason, "").strip(), record.end_reason
        assert record.turns >= 1
        assert record.counters and all(n > 0 for n in record.counters.values())
        assert record.trace is None


def test_an_illegal_party_is_judged_so_with_its_broken_rules() -> None:
    game = _game("anima-tactics")
    verdict = game.legality(game.read(DECKS / "at-illegal.party"))
    assert not verdict.legal
    assert verdict.problems and all(p.rule and p.message for p in verdict.problems)


@pytest.mark.parametrize("name", ["ani-mayhem", "anima-tactics", "animus"])
def test_a_trace_comes_with_the_same_game(name: str) -> None:
    game = _game(name)
    setup = game.prepare([game.read(path) for path in SAMPLES[name]])
    plain = game.play(setup, 3, 1)
    traced = game.play(setup, 3, 1, trace=True)
    assert traced.trace
    assert traced == Record(plain.index, plain.outcome, plain.end_reason, plain.turns,
                            plain.counters, traced.trace)  # fmt: skip


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_setup_is_a_wrong_size_refused(name: str) -> None:
    game = _game(name)
    entries = [game.read(path) for path in SAMPLES[name]]
    with pytest.raises(UsageError):
        game.prepare([*entries, entries[0]])
    with pytest.raises(UsageError):
        game.prepare(entries, player="no-such-player")


def _outcomes(game: Game, setup: object, seed: int) -> Counter[str]:
    return Counter(game.play(setup, seed, i).outcome for i in range(GAMES))


def test_ani_mayhem_records_count_as_its_runner_counts() -> None:
    from deckkit.analysis.runner import run_games

    game = _game("ani-mayhem")
    setup = game.prepare([game.read(SAMPLES["ani-mayhem"][0])])
    tally = run_games(setup, games=GAMES, seed=2).tally
    seen = _outcomes(game, setup, 2)
    assert (seen["win"], seen["loss"], seen["stall"]) == (tally.wins, tally.losses, tally.stalls)
    reasons = Counter(game.play(setup, 2, i).end_reason for i in range(GAMES))
    from deckkit.animayhem.engine.endgame import end_reason_code

    assert reasons == Counter({end_reason_code(r): n for r, n in tally.end_reasons.items()})


def test_animus_records_count_as_its_runner_counts() -> None:
    from deckkit.animus.montecarlo import run

    game = _game("animus")
    setup = game.prepare([game.read(path) for path in SAMPLES["animus"]])
    tally = run(setup.match, games=GAMES, seed=2).tally  # the files' own run
    seen = _outcomes(game, setup, 2)
    assert (seen["win"], seen["loss"], seen["draw"]) == (tally.wins[0], tally.wins[1], tally.draws)
    kills = sum(n for (who, stat), n in _counters(game, setup, 2).items() if stat == "kills")
    assert kills == sum(card[3] for side in tally.cards for card in side)  # Stat.KILLS


def test_anima_tactics_records_count_as_its_runner_counts() -> None:
    from deckkit.animatactics.analysis.party_games import play_games

    game = _game("anima-tactics")
    setup = game.prepare([game.read(path) for path in SAMPLES["anima-tactics"]])
    counts = play_games(setup.sides, GAMES, 2)
    seen = _outcomes(game, setup, 2)
    assert (seen["win"], seen["loss"], seen["draw"]) == (counts.wins, counts.losses, counts.draws)
    by_ko = sum(game.play(setup, 2, i).end_reason == "knock_out" for i in range(GAMES))
    assert by_ko == counts.wins_by_ko + counts.losses_by_ko


def _counters(game: Game, setup: object, seed: int) -> Counter[tuple[str, str]]:
    total: Counter[tuple[str, str]] = Counter()
    for i in range(GAMES):
        total.update(game.play(setup, seed, i).counters)
    return total


class _Outcomes:
    """A record kind for the runner: games counted by outcome (picklable)."""

    def tally(self) -> _OutcomeTally:
        return _OutcomeTally()

    def row(self, record: Record) -> tuple[object, ...]:
        return (record.index, record.outcome)


class _OutcomeTally:
    def __init__(self) -> None:
        self.games = 0
        self.seen: Counter[str] = Counter()

    def add(self, record: object) -> None:
        self.games += 1
        self.seen[getattr(record, "outcome", None) or _winner(record)] += 1

    def merged(self, other: _OutcomeTally) -> _OutcomeTally:
        out = _OutcomeTally()
        out.games = self.games + other.games
        out.seen = self.seen + other.seen
        return out


def _winner(record: object) -> str:
    winner = getattr(record, "winner", None)
    return "draw" if winner is None else ("win" if winner == 0 else "loss")


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_runner_plays_every_game_through_its_setup(name: str) -> None:
    """A prepared setup is the runner's factory, whatever the game: the runner's counts are
    the interface's."""
    game = _game(name)
    setup = game.prepare([game.read(path) for path in SAMPLES[name]])
    played = workers.play_games(setup, _Outcomes(), games=GAMES, seed=5, chunk_size=5)
    assert not played.interrupted
    assert played.tally.games == GAMES
    assert played.tally.seen == _outcomes(game, setup, 5)
