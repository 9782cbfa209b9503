"""Parties and teams on a Dask cluster (``--scheduler``, ``DECKKIT_SCHEDULER``): every run of
any game goes through the runner (:mod:`deckkit.core.workers`), which hands its chunks to the
backend with the game's record kind; the same seed gives the same results as a local run with
any ``--workers``.

The fast tests need no cluster: every command of the two games that plays games reaches the
runner with the scheduler (a malformed address refused at the first run, before any file is
written), an in-process backend gets every chunk of each game's runs and gives the local
totals, and a run's factory travels without the files it was read from. The tests on a
``distributed.LocalCluster`` are end to end and in the slow suite, as in
tests/test_dask_backend.py.
"""

from __future__ import annotations

import json
import pickle
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckkit.analysis import dask_backend, matches
from deckkit.analysis.game_sensitivity import first_side_wins
from deckkit.animatactics.analysis.party_games import play_games
from deckkit.animatactics.game import GAME as TACTICS
from deckkit.animus import montecarlo
from deckkit.animus.game import GAME as ANIMUS
from deckkit.cli.main import app
from deckkit.core import workers as core

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
PARTY, PARTY_VS = DECKS / "at-unaligned.party", DECKS / "at-samael-darkness.party"
TEAM, TEAM_VS = DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"
runner = CliRunner()


def _deckkit(*args: str | Path, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, [str(a) for a in args], env=env)


# --- no cluster -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", PARTY, "--vs", PARTY_VS],
        ["compare", PARTY, "--vs", PARTY_VS, "--policy-b", "random"],
        ["impact", PARTY, "--vs", PARTY_VS, "--card", "Kira"],
        ["sensitivity", PARTY, "--vs", PARTY_VS],
        ["report", PARTY, "--vs", PARTY_VS, "--force"],
        ["simulate", TEAM, "--vs", TEAM_VS],
        ["compare", TEAM, "--vs", TEAM_VS, "--policy-b", "random"],
        ["impact", TEAM, "--vs", TEAM_VS, "--card", "Ilka Varga"],
        ["sensitivity", TEAM, "--vs", TEAM_VS],
        ["report", TEAM, "--vs", TEAM_VS, "--force"],
    ],
)
@pytest.mark.parametrize("how", ["flag", "variable"])
def test_every_command_of_parties_and_teams_sends_its_games_to_the_scheduler(
    command: list[str | Path], how: str, tmp_path: Path
) -> None:
    """Each reaches the runner with the scheduler: a malformed address is refused at the first
    run, before any game is played or any file written (exit 2, not 9 as when parties and teams
    played on this machine only)."""
    page = tmp_path / "page.html"
    if command[0] == "report":
        command = [*command, "--out" if command[1] == PARTY else "--output", page]
    if how == "flag":
        result = _deckkit(*command, "-n", "4", "--scheduler", "not-an-address")
    else:
        env = {dask_backend.SCHEDULER_ENV: "not-an-address"}
        result = _deckkit(*command, "-n", "4", env=env)
    assert result.exit_code == 2, result.output
    assert "not a Dask scheduler address: not-an-address" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("verb", ["baseline", "check"])
def test_a_balance_check_of_a_party_and_a_team_sends_its_games_to_the_scheduler(
    verb: str, tmp_path: Path
) -> None:
    """Their checks play through the game interface's runs, which used to stay on this machine
    whatever --scheduler said."""
    for path in (PARTY, PARTY_VS, TEAM, TEAM_VS):
        shutil.copy(path, tmp_path / path.name)
    balance = tmp_path / "balance.toml"
    balance.write_text(
        "seed = 2\nbudget = 100\nbaseline_games = 20\n"
        f'[[check]]\nname = "party"\ndeck = "{PARTY.name}"\nvs = "{PARTY_VS.name}"\n'
        "band = [0.0, 1.0]\n"
        f'[[check]]\nname = "team"\ndeck = "{TEAM.name}"\nvs = "{TEAM_VS.name}"\n'
        "band = [0.0, 1.0]\n",
        encoding="utf-8",
    )
    files = sorted(tmp_path.iterdir())
    result = _deckkit("balance", verb, balance, "-q", "--scheduler", "not-an-address")
    assert result.exit_code == 2, result.output
    assert "not a Dask scheduler address: not-an-address" in result.stderr
    assert sorted(tmp_path.iterdir()) == files  # no baseline written


class InProcessBackend:
    """A backend playing every chunk here, in reverse order, noting each run's factory."""

    def __init__(self) -> None:
        self.runs: list[str] = []

    def slots(self) -> int:
        return 3

    def play(
        self,
        factory: core.GameFactory,
        seed: int,
        ranges: Iterator[tuple[int, int]],
        keep_rows: bool,
        fold: core.FoldFn,
        kind: core.RecordKind,
    ) -> bool:
        self.runs.append(type(factory).__name__)
        play = pickle.loads(pickle.dumps(factory))()
        kind = pickle.loads(pickle.dumps(kind))
        for start, stop in reversed(list(ranges)):
            fold(core.play_chunk(play, kind, seed, start, stop, keep_rows))
        return False


def _party_setup() -> Any:
    return TACTICS.prepare([TACTICS.read(PARTY), TACTICS.read(PARTY_VS)])


def _team_setup() -> Any:
    return ANIMUS.prepare([ANIMUS.read(TEAM), ANIMUS.read(TEAM_VS)])


# 12 games: on the three slots of InProcessBackend a run is 12 chunks of one game, played in
# reverse order.
GAMES = 12


def _runs() -> dict[str, Any]:
    """Each way a party's or a team's games are run, with its totals (or rows)."""
    party = _party_setup()
    team = _team_setup()
    match = montecarlo.Match(TEAM, TEAM_VS, team.match.options).carried()
    return {
        "party through the interface": matches.run(
            TACTICS.name, party, games=GAMES, seed=4, keep_rows=True
        ).rows,
        "team through the interface": matches.run(
            ANIMUS.name, team, games=GAMES, seed=4, keep_rows=True
        ).rows,
        "party games": play_games(party.sides, GAMES, 4),
        "team battles": montecarlo.run(match, games=GAMES, seed=4).tally,
        "party sensitivity": first_side_wins(
            TACTICS,
            [TACTICS.read(PARTY), TACTICS.read(PARTY_VS)],
            player=None,
            rules={},
            games=GAMES,
            seed=4,
            workers=1,
        ),
    }


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_every_run_of_parties_and_teams_goes_to_the_backend_with_the_same_results() -> None:
    local = _runs()
    backend = InProcessBackend()
    with core.chunks_played_by(backend):
        remote = _runs()
    assert remote == local
    assert sorted(backend.runs) == sorted(  # every run went to the backend
        ["InterfacePlay", "InterfacePlay", "PartyGames", "Match", "RecordGames"]
    )


def test_a_team_run_s_factory_travels_without_the_team_files(tmp_path: Path) -> None:
    """A Dask worker on another machine has no copy of the team files (nor the same working
    directory): the setup carries the teams as read."""
    files = [shutil.copy(p, tmp_path / p.name) for p in (TEAM, TEAM_VS)]
    setup = ANIMUS.prepare([ANIMUS.read(Path(f)) for f in files])
    before = [ANIMUS.play(setup, 9, i) for i in range(5)]
    payload = pickle.dumps(matches.InterfacePlay(ANIMUS.name, setup))
    for f in files:
        Path(f).unlink()
    travelled = pickle.loads(payload)
    assert travelled.setup.match.loaded is not None
    play = travelled()
    assert [play(9, i) for i in range(5)] == before


# --- on a cluster (slow) ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        host="127.0.0.1",
        processes=True,
        dashboard_address=":0",
    ) as local:
        yield local


def _json_of(*args: str | Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    result = _deckkit(*args, "--format", "json", env=env)
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def _computed(cluster: Any) -> float:
    """The seconds the cluster's workers have spent on deckkit's chunks so far (its tasks are
    keyed ``deckkit-RUN-START``)."""
    prefix = cluster.scheduler.task_prefixes.get("deckkit")
    return 0.0 if prefix is None else float(prefix.all_durations.get("compute", 0.0))


def _same_but_timing(doc: dict[str, Any]) -> dict[str, Any]:
    """The document without what says how long the run took (the same games otherwise)."""
    return {k: v for k, v in doc.items() if k not in {"seconds", "games_per_second"}}


@pytest.mark.slow
def test_a_party_run_and_a_team_run_on_the_cluster_equal_the_local_run(cluster: Any) -> None:
    address = cluster.scheduler_address
    party = ["simulate", PARTY, "--vs", PARTY_VS, "-n", "120", "-s", "5"]
    before = _computed(cluster)
    remote = _json_of(*party, "--scheduler", address)
    assert _computed(cluster) > before  # played there
    assert remote["games"] == 120
    assert remote == _json_of(*party, "--workers", "1") == _json_of(*party, "--workers", "2")
    team = ["simulate", TEAM, "--vs", TEAM_VS, "-n", "120", "-s", "5", "-q"]
    before = _computed(cluster)
    remote = _json_of(*team, env={dask_backend.SCHEDULER_ENV: address})
    assert _computed(cluster) > before
    one = _json_of(*team, "--workers", "1")
    two = _json_of(*team, "--workers", "2")
    assert _same_but_timing(remote) == _same_but_timing(one) == _same_but_timing(two)


@pytest.mark.slow
@pytest.mark.parametrize(("file", "vs"), [(PARTY, PARTY_VS), (TEAM, TEAM_VS)])
def test_compare_and_impact_of_parties_and_teams_on_the_cluster_equal_the_local_run(
    cluster: Any, file: Path, vs: Path
) -> None:
    address = cluster.scheduler_address
    compare = ["compare", file, "--vs", vs, "--policy-b", "random", "-n", "60", "-s", "2", "-q"]
    before = _computed(cluster)
    assert _json_of(*compare, "--scheduler", address) == _json_of(*compare, "--workers", "2")
    assert _computed(cluster) > before
    card = "Kira" if file == PARTY else "Ilka Varga"
    impact = ["impact", file, "--vs", vs, "--card", card, "-n", "60", "-s", "2", "-q"]
    assert _json_of(*impact, "--scheduler", address) == _json_of(*impact)
