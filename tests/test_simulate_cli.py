"""`deckkit simulate`: arguments, legality gate, output formats, --out files and exit codes.

Most run the command against the fake engine of ``tests/fakes.py`` (injected through
``simulate_cmd.ENGINE``) on small deck files, so they check the command, not the rules; the last
ones run the real engine on the demo deck with a few hundred games.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import typer
from fakes import FakeEngine
from typer.testing import CliRunner

from deckkit.analysis.runner import GameFactory
from deckkit.animayhem.construction.cards import CardType, Coverage
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.runs import LAYOUTS
from deckkit.cli import simulate_cmd
from deckkit.cli.exits import DeckkitTyper
from deckkit.cli.simulate_cmd import EngineHooks

DEMO_DECK = Path(__file__).resolve().parent.parent / "decks" / "demo-solo.deck"
TESTS_DATA = Path(__file__).resolve().parent / "data"
SMALL_DECK = """\
name: Tiny test deck
players: 1
[characters]
A-ko Magami
Adult Gohan
[locations]
A.D. Police HQ
Alien Jungle
[items]
5 Yen Coin
[disasters]
Alien Battleship
[combat]
Assault / Shining Knight
"""


def _fake_factory(
    deck: Deck, edition: Edition, layout: str, turn_cap: int, policy: str
) -> GameFactory:
    def ids(card_type: CardType) -> tuple[str, ...]:
        return tuple(e.card.id for e in deck.entries if e.card.type is card_type)

    return FakeEngine(
        disasters=ids(CardType.DISASTER),
        characters=ids(CardType.CHARACTER),
        locations=ids(CardType.LOCATION),
        stall_weight=1 if policy == "random" else 2,
    )


def _fake_not_simulated(deck: Deck) -> list[str]:
    return [e.card.name for e in deck.entries if e.card.coverage is not Coverage.FULL]


FAKE_HOOKS = EngineHooks(
    policies=lambda: ("heuristic", "random"),
    layouts=LAYOUTS,
    factory=_fake_factory,
    not_simulated=_fake_not_simulated,
)


@pytest.fixture(autouse=True)
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_cmd, "ENGINE", FAKE_HOOKS)


@pytest.fixture
def small_deck(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.deck"
    path.write_text(SMALL_DECK)
    return path


def _app() -> typer.Typer:
    app = DeckkitTyper()  # as in deckkit.cli.main: errors become messages and exit codes

    @app.callback()
    def main() -> None:
        """Test harness with only `simulate` registered."""

    simulate_cmd.register(app)
    return app


class Outcome:
    """The exit code and the two streams."""

    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code, self.stdout, self.stderr = code, stdout, stderr

    def json(self) -> Any:
        return json.loads(self.stdout)


def run_cli(*args: str | Path) -> Outcome:
    result = CliRunner().invoke(_app(), ["simulate", *map(str, args)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a crash, not an exit code: let the test show it
    return Outcome(result.exit_code, result.stdout, result.stderr)


def without_timing(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "timing"}


# --- results -------------------------------------------------------------------------------


def test_json_shape(small_deck: Path) -> None:
    out = run_cli(small_deck, "--games", 300, "--seed", 4, "--format", "json", "--allow-illegal")
    assert out.code == 0, out.stderr
    doc = out.json()
    for key in (
        "games", "seed", "policy", "edition", "layout", "wins", "losses", "stalls",
        "win_rate", "win_rate_ci", "loss_rate", "loss_rate_ci", "stall_rate", "stall_rate_ci",
        "ci_method", "mean_turns", "mean_items_retrieved", "mean_items_lost", "not_simulated",
        "cards", "interrupted", "schema_version", "deckkit", "end_reasons",
    ):  # fmt: skip
        assert key in doc, key
    assert doc["games"] == 300 and doc["seed"] == 4 and doc["policy"] == "heuristic"
    assert doc["edition"] == "guidelines1998" and doc["layout"] == "compact"
    assert doc["wins"] + doc["losses"] + doc["stalls"] == 300
    assert doc["ci_method"] == "wilson"
    low, high = doc["win_rate_ci"]
    assert 0 <= low <= doc["win_rate"] <= high <= 1
    assert doc["interrupted"] is False
    assert "timing" not in doc  # varies between runs: on stderr only
    deck = _read(small_deck)
    partial = {e.card.id: e.card for e in deck.entries if e.card.coverage.value != "full"}
    assert [c["id"] for c in doc["not_simulated"]] == sorted(
        partial, key=lambda i: partial[i].name.casefold()
    )
    assert all(c["coverage"] in ("approximate", "none") and c["note"] for c in doc["not_simulated"])
    names = {card["name"]: card_id for card_id, card in doc["cards"].items()}
    assert set(names) == {
        "A-ko Magami", "Adult Gohan", "A.D. Police HQ", "Alien Jungle", "Alien Battleship"
    }  # fmt: skip
    assert all(card_id.startswith("am") for card_id in doc["cards"])  # keyed by card id
    assert doc["cards"][names["Alien Battleship"]]["type"] == "disaster"
    assert doc["cards"][names["Alien Jungle"]]["totals"]["scavenge_attempts"] > 0
    for reason in doc["end_reasons"]:
        assert set(reason) == {"code", "reason", "games"}


def _read(deck_path: Path) -> Deck:
    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.construction.deck import read_deck

    return read_deck(deck_path, load_card_db())


def test_same_seed_same_json_for_any_number_of_workers(small_deck: Path) -> None:
    common = ("--games", 900, "--seed", 17, "--format", "json", "--allow-illegal")
    one = run_cli(small_deck, *common, "--workers", 1)
    two = run_cli(small_deck, *common, "--workers", 2)
    assert one.code == two.code == 0
    assert without_timing(one.json()) == without_timing(two.json())
    other_seed = run_cli(small_deck, "--games", 900, "--seed", 18, "--format", "json",
                         "--allow-illegal")  # fmt: skip
    assert without_timing(other_seed.json()) != without_timing(one.json())


def test_policy_and_options_reach_the_engine(small_deck: Path) -> None:
    a = run_cli(small_deck, "-n", 400, "--format", "json", "--allow-illegal")
    b = run_cli(small_deck, "-n", 400, "--format", "json", "--allow-illegal", "--policy", "random")
    assert b.json()["policy"] == "random"
    assert a.json()["stall_rate"] != b.json()["stall_rate"]  # the fake stalls less under random


def test_text_output(small_deck: Path) -> None:
    out = run_cli(small_deck, "--games", 200, "--allow-illegal")
    assert out.code == 0
    text = out.stdout
    for expected in ("seed 0", "win", "loss", "stall", "95% CI", "Wilson", "turns: mean",
                     "items per game", "Disasters", "Alien Battleship", "not fully simulated",
                     "guidelines1998"):  # fmt: skip
        assert expected in text, expected
    assert "games/s" in out.stderr and "games/s" not in text  # timing is not a result
    assert "playing games" not in out.stderr  # no progress bar: stderr is not a terminal


def test_progress_bar_only_on_a_terminal_and_not_quiet(
    small_deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(simulate_cmd, "_stderr_is_tty", lambda: True)
    shown = run_cli(small_deck, "--games", 300, "--allow-illegal", "--format", "json")
    assert "playing games" in shown.stderr and "300/300" in shown.stderr
    quiet = run_cli(small_deck, "--games", 300, "--allow-illegal", "--quiet")
    assert "playing games" not in quiet.stderr
    assert json.loads(shown.stdout)["games"] == 300  # the bar never lands on stdout


def test_edition_from_deck_header_and_flag(tmp_path: Path) -> None:
    deck = tmp_path / "set0.deck"
    deck.write_text(SMALL_DECK.replace("players: 1", "players: 1\nedition: set0"))
    header = run_cli(deck, "-n", 20, "--format", "json", "--allow-illegal").json()
    assert header["edition"] == "set0"
    flag = run_cli(deck, "-n", 20, "--format", "json", "--allow-illegal", "--edition", "fifth2018")
    assert flag.json()["edition"] == "fifth2018"


# --- legality gate -------------------------------------------------------------------------


def test_legal_demo_deck_needs_no_flag() -> None:
    out = run_cli(DEMO_DECK, "-n", 200, "--format", "json")
    assert out.code == 0, out.stderr
    doc = out.json()
    assert doc["legal"] is True and doc["violations"] == []
    assert doc["edition"] == "guidelines1998" and doc["variant"] == "standard"
    assert doc["deck"] == "Solo demo" and doc["games"] == 200
    assert "not legal" not in out.stderr


def test_illegal_deck_is_refused_with_the_explanation(small_deck: Path) -> None:
    out = run_cli(small_deck, "--games", 50)
    assert out.code == 1
    assert "not legal" in out.stderr
    assert "add 7 locations" in out.stderr or "locations" in out.stderr
    assert "--allow-illegal" in out.stderr
    assert out.stdout == ""


def test_illegal_deck_refused_as_json(small_deck: Path) -> None:
    out = run_cli(small_deck, "--games", 50, "--format", "json")
    assert out.code == 1
    doc = out.json()
    assert doc["legality"]["legal"] is False
    assert {v["rule"] for v in doc["legality"]["violations"]} >= {"locations.count"}


def test_allow_illegal_reports_the_violations(small_deck: Path) -> None:
    doc = run_cli(small_deck, "-n", 10, "--format", "json", "--allow-illegal").json()
    assert doc["legal"] is False and doc["violations"]


# --- bad input: exit 2 ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        ("--players", "2"),
        ("--games", "0"),
        ("--games", "-5"),
        ("--workers", "-1"),
        ("--seed", "-1"),
        ("--turn-cap", "0"),
        ("--policy", "psychic"),
        ("--layout", "spiral"),
        ("--edition", "nineteen-ninety-nine"),
        ("--variant", "triangle"),
        ("--out", "rows.xlsx"),
        ("--out", "rows"),
        ("--games", "many"),
        ("--format", "yaml"),
    ],
)
def test_bad_input_exits_2(small_deck: Path, extra: tuple[str, str]) -> None:
    out = run_cli(small_deck, "--allow-illegal", *extra)
    assert out.code == 2, (extra, out.stdout, out.stderr)


def test_deck_header_for_more_players_is_a_usage_error(tmp_path: Path) -> None:
    deck = tmp_path / "four.deck"
    deck.write_text(SMALL_DECK.replace("players: 1", "players: 4"))
    out = run_cli(deck, "--allow-illegal", "-n", 10)
    assert out.code == 2 and "solitaire" in out.stderr
    assert run_cli(deck, "--allow-illegal", "-n", 10, "--players", "1").code == 0


def test_unreadable_deck_exits_2(tmp_path: Path) -> None:
    assert run_cli(tmp_path / "missing.deck").code == 2
    bad = tmp_path / "bad.deck"
    bad.write_text("name: x\n3 No Such Card Anywhere\n")
    assert run_cli(bad).code == 2


# --- --out ----------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_rows_round_trip(small_deck: Path, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"games{suffix}"
    out = run_cli(
        small_deck, "-n", 250, "--seed", 3, "--allow-illegal", "--format", "json", "--out", path
    )
    assert out.code == 0, out.stderr
    frame = pl.read_parquet(path) if suffix == ".parquet" else pl.read_csv(path)
    assert frame.columns[:7] == [
        "index", "outcome", "turns", "items_in_play", "items_retrieved", "items_lost",
        "end_reason",
    ]  # fmt: skip
    assert all(name.startswith("n:") for name in frame.columns[7:])
    assert frame["index"].to_list() == list(range(250))
    doc = out.json()
    counts = frame["outcome"].value_counts()
    by_outcome = dict(zip(counts["outcome"].to_list(), counts["count"].to_list(), strict=True))
    assert by_outcome.get("win", 0) == doc["wins"]
    assert by_outcome.get("stall", 0) == doc["stalls"]
    assert frame["turns"].mean() == pytest.approx(doc["mean_turns"])
    assert frame["items_lost"].mean() == pytest.approx(doc["mean_items_lost"])
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_rows_identical_for_any_number_of_workers(small_deck: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    base = ("-n", 700, "--seed", 9, "--allow-illegal", "--quiet")
    assert run_cli(small_deck, *base, "--out", one).code == 0
    assert run_cli(small_deck, *base, "--out", two, "--workers", 2).code == 0
    assert pl.read_parquet(one).equals(pl.read_parquet(two))


def test_out_refuses_to_overwrite(small_deck: Path, tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text("precious\n")
    out = run_cli(small_deck, "-n", 20, "--allow-illegal", "--out", path)
    assert out.code == 2 and "overwrite" in out.stderr
    assert path.read_text() == "precious\n"
    forced = run_cli(small_deck, "-n", 20, "--allow-illegal", "--out", path, "--force")
    assert forced.code == 0
    assert pl.read_csv(path).height == 20


def test_out_into_missing_directory_fails_before_simulating(
    small_deck: Path, tmp_path: Path
) -> None:
    out = run_cli(small_deck, "-n", 20, "--allow-illegal", "--out", tmp_path / "no" / "g.csv")
    assert out.code == 2 and out.stdout == ""


def test_failed_write_leaves_nothing_behind(
    small_deck: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = pl.LazyFrame.sink_parquet

    def broken_write(self: pl.LazyFrame, file: Any, **kwargs: Any) -> None:
        if isinstance(file, str | Path):  # the run's own spool of rows, by path
            return original(self, file, **kwargs)  # type: ignore[no-any-return]
        file.write(b"PAR1 half a file")  # the output, through its open temporary file
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", broken_write)
    path = tmp_path / "games.parquet"
    out = run_cli(small_deck, "-n", 30, "--allow-illegal", "--out", path)
    assert out.code == 5 and "No space left on device" in out.stderr  # exit 5: cannot write
    assert not path.exists()
    assert list(tmp_path.iterdir()) == [small_deck]  # no temporary file left over either


def test_failed_forced_write_keeps_the_old_file(
    small_deck: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_write(self: pl.LazyFrame, file: Any, **kwargs: Any) -> None:
        file.write(b"index,outc")
        raise OSError(5, "I/O error")

    path = tmp_path / "games.csv"
    path.write_text("old,rows\n")
    monkeypatch.setattr(pl.LazyFrame, "sink_csv", broken_write)
    out = run_cli(small_deck, "-n", 30, "--allow-illegal", "--out", path, "--force")
    assert out.code == 5 and "nothing was written" in out.stderr
    assert path.read_text() == "old,rows\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv", "tiny.deck"]


def test_written_file_has_ordinary_permissions(small_deck: Path, tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    assert run_cli(small_deck, "-n", 5, "--allow-illegal", "--out", path).code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


# --- interruption ----------------------------------------------------------------------------


def test_interrupt_reports_finished_games_and_exits_130(
    small_deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupting(*args: Any) -> GameFactory:
        return FakeEngine(interrupt_at=123)

    monkeypatch.setattr(
        simulate_cmd, "ENGINE", EngineHooks(FAKE_HOOKS.policies, LAYOUTS, interrupting,
                                            _fake_not_simulated)
    )  # fmt: skip
    out = run_cli(small_deck, "-n", 1000, "--allow-illegal", "--format", "json")
    assert out.code == 130
    doc = out.json()
    assert doc["interrupted"] is True and doc["games"] == 123 and doc["games_requested"] == 1000
    assert "interrupted" in out.stderr


# --- the real engine on the demo deck --------------------------------------------------------

REAL_HOOKS = simulate_cmd.ENGINE  # captured at import, before the autouse fixture patches it


@pytest.fixture
def real_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_cmd, "ENGINE", REAL_HOOKS)


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.usefixtures("real_engine")
def test_real_engine_same_seed_same_json_for_one_or_two_workers(tmp_path: Path) -> None:
    common = ("-n", 200, "--seed", 5, "--format", "json", "--policy", "random", "--quiet")
    one = run_cli(DEMO_DECK, *common, "--workers", 1, "--out", tmp_path / "one.parquet")
    two = run_cli(DEMO_DECK, *common, "--workers", 2, "--out", tmp_path / "two.parquet")
    assert one.code == two.code == 0, one.stderr + two.stderr
    assert without_timing(one.json()) == without_timing(two.json())
    rows_one = pl.read_parquet(tmp_path / "one.parquet")
    assert rows_one.equals(pl.read_parquet(tmp_path / "two.parquet"))
    doc = one.json()
    assert doc["games"] == 200 and doc["wins"] + doc["losses"] + doc["stalls"] == 200
    assert rows_one.filter(pl.col("outcome") == "win").height == doc["wins"]
    assert rows_one["turns"].mean() == pytest.approx(doc["mean_turns"])
    assert rows_one["items_retrieved"].mean() == pytest.approx(doc["mean_items_retrieved"])


@pytest.mark.usefixtures("real_engine")
def test_real_engine_report_names_cards_and_unsimulated_ones() -> None:
    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.construction.deck import read_deck
    from deckkit.animayhem.engine.play import not_simulated

    deck = read_deck(DEMO_DECK, load_card_db())
    out = run_cli(DEMO_DECK, "-n", 200, "--format", "json")
    assert out.code == 0, out.stderr
    doc = out.json()
    shown = [f"{c['name']} ({c['coverage']})" for c in doc["not_simulated"]]
    assert shown == sorted(set(not_simulated(deck)), key=str.casefold)
    assert doc["layout"] == "compact" and doc["policy"] == "heuristic"
    disasters = {e.card.name for e in deck.entries if e.card.type is CardType.DISASTER}
    characters = {e.card.name for e in deck.entries if e.card.type is CardType.CHARACTER}
    by_name = {card["name"]: card for card in doc["cards"].values()}
    assert disasters | characters <= set(by_name)
    met = sum(by_name[name]["totals"]["met"] for name in disasters)
    combats = sum(by_name[name]["totals"]["combats"] for name in characters)
    assert met > 0 and combats > 0  # the engine's counters arrive, mapped to card names
    text = run_cli(DEMO_DECK, "-n", 200, "--seed", 0).stdout
    assert f"{doc['wins']:,}" in text and "Wilson" in text


def _deckkit(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed entry point, as a user runs it (exit codes from deckkit.cli.main.run)."""
    return subprocess.run(
        [sys.executable, "-m", "deckkit", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=DEMO_DECK.parent.parent,
    )


@pytest.mark.slow  # the console script in fresh interpreters, one per exit code: end to end
def test_entry_point_exit_codes(tmp_path: Path) -> None:
    ok = _deckkit("simulate", str(DEMO_DECK), "--games", "50", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["games"] == 50
    illegal = _deckkit("simulate", str(TESTS_DATA / "illegal-disasters.deck"), "--games", "50")
    assert illegal.returncode == 1 and "not legal" in illegal.stderr
    bad = _deckkit("simulate", str(DEMO_DECK), "--policy", "psychic")
    assert bad.returncode == 2 and "'psychic' is not one of: heuristic, random" in bad.stderr
    assert bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr
