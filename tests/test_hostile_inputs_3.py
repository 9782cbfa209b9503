"""Inputs a careless or hostile user can hand deckkit, third pass (issue 31): one-game reports,
byte-order marks, devices and FIFOs in the sibling games' readers, a team's `cards:` line,
saved runs with bad metadata, decks without locations, control characters on the way to the
chart renderer, huge requests. Each ends in a page, or one clear line and a known exit code
(deckkit/errors.py), never a traceback, a hang or memory without bound."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from deckkit.animatactics.engine.skirmish import GameResult
from deckkit.cli.main import app
from deckkit.errors import (
    EXIT_BAD_DATA,
    EXIT_BAD_INPUT,
    EXIT_NOT_SERVED,
    CardDataError,
    DeckFileError,
    DeckkitError,
)

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"
TEAM = REPO / "decks" / "animus-vanguard.team"
VS = REPO / "decks" / "animus-counterpoint.team"
runner = CliRunner()


def invoke(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.output


# --- one-game reports (issue 31, problem 3) ---


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_a_one_game_report_is_written_with_no_turns_interval(tmp_path: Path) -> None:
    page = tmp_path / "one.html"
    rows = tmp_path / "one.parquet"
    code, out = invoke(
        "report", DECK, "-n", "1", "-o", page, "--results", rows, "-q", "--no-impact",
        "--sensitivity", "--sensitivity-games", "2",
    )  # fmt: skip
    assert code == 0, out
    doc = json.loads(page.with_suffix(".json").read_text())
    assert doc["turns"]["ci"] is None
    assert "no interval from one game" in page.read_text()
    again = tmp_path / "again.html"
    code, out = invoke("report", "--from", rows, "-o", again, "-q", "--no-impact")
    assert code == 0, out
    assert "no interval from one game" in again.read_text()


def test_a_one_battle_animus_report_is_written(tmp_path: Path) -> None:
    page = tmp_path / "one.html"
    code, out = invoke("report", TEAM, "--vs", VS, "-n", "1", "-o", page)
    assert code == 0, out
    assert "no interval from one game" in page.read_text()


# --- a byte-order mark before the header (issue 31, problem 15) ---

BOM = b"\xef\xbb\xbf"
PARTY = REPO / "decks" / "at-empire-light.party"


def test_a_byte_order_mark_does_not_hide_a_team_or_party_header(tmp_path: Path) -> None:
    for source in (TEAM, PARTY):
        copy = tmp_path / source.name
        copy.write_bytes(BOM + source.read_bytes())
        code, out = invoke("validate", copy)
        assert code == 0, out
        assert out.startswith("LEGAL"), out
        assert "Ani-Mayhem" not in out


def test_a_byte_order_mark_is_dropped_by_every_sibling_game_reader(tmp_path: Path) -> None:
    from deckkit.animatactics.construction.carddb import card_db_csv, read_card_db
    from deckkit.animus.construction.carddb import read_cards, sample_path
    from deckkit.animus.construction.rules import load_types
    from deckkit.animus.construction.team import read_game

    cards = tmp_path / "cards.csv"
    cards.write_bytes(BOM + sample_path().read_bytes())
    types = tmp_path / "types.toml"
    types.write_bytes(BOM + (sample_path().parent / "types.toml").read_bytes())
    assert len(read_cards(cards, load_types(types)).cards) == 43  # 36 characters, 7 Entities
    team = tmp_path / "t.team"
    team.write_bytes(BOM + b"game: animus\n[team]\n")
    assert read_game(team) == "animus"
    db = tmp_path / "at.csv"
    db.write_bytes(BOM + card_db_csv().read_bytes())
    assert len(read_card_db(db).characters) == len(read_card_db(card_db_csv()).characters)


# --- devices and FIFOs in the sibling games' readers (issue 31, problem 2) ---


def finishes(call: Callable[[], object], fifo: Path | None = None, seconds: float = 10) -> object:
    """``call()``'s result or the exception it raised; fails when it is still running after
    ``seconds`` (blocked on ``fifo``, which is then opened for writing to let it go)."""
    box: list[object] = []

    def run() -> None:
        try:
            box.append(call())
        except BaseException as err:  # handed back to the test
            box.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive() and fifo is not None:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # EOF for the blocked reader
        thread.join(seconds)
        pytest.fail(f"still reading the FIFO {fifo} after {seconds} s")
    assert not thread.is_alive(), f"still running after {seconds} s"
    return box[0]


@pytest.mark.parametrize("name", ["cards.csv", "t.team", "p.party"])
def test_a_fifo_is_refused_at_once_by_every_sibling_game_reader(tmp_path: Path, name: str) -> None:
    from deckkit.animatactics.construction.carddb import load_card_db as at_db
    from deckkit.animatactics.construction.party import read_party
    from deckkit.animus.construction.carddb import load_cards
    from deckkit.animus.construction.team import read_game, read_team

    fifo = tmp_path / name
    os.mkfifo(fifo)
    readers: dict[str, list[tuple[Callable[[], object], int]]] = {
        "cards.csv": [(lambda: load_cards(fifo), EXIT_BAD_DATA)],
        "t.team": [(lambda: read_team(fifo), EXIT_BAD_INPUT), (lambda: read_game(fifo), 0)],
        "p.party": [(lambda: read_party(fifo, at_db()), EXIT_BAD_INPUT)],
    }
    for call, code in readers[name]:
        got = finishes(call, fifo)
        if code == 0:
            assert got is None
            continue
        assert isinstance(got, DeckkitError), repr(got)
        assert got.exit_code == code
        assert "not a regular file" in got.render() and str(fifo) in got.render()


def test_a_fifo_named_as_a_team_stops_every_command_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "other.team"
    os.mkfifo(fifo)
    commands: list[list[str | Path]] = [
        ["validate", fifo],
        ["validate", "--game", "animus", fifo],
        ["simulate", TEAM, "--vs", fifo, "-n", "2"],
        ["report", TEAM, "--vs", fifo, "-n", "2", "-o", tmp_path / "r.html"],
    ]
    for args in commands:
        got = finishes(lambda args=args: invoke(*args), fifo)
        assert isinstance(got, tuple), repr(got)
        code, out = got
        assert code == EXIT_BAD_INPUT, out
        assert "not a regular file" in out


@pytest.mark.parametrize("reader", ["team", "cards", "party"])
def test_dev_zero_is_refused_without_reading_it(reader: str) -> None:
    from deckkit.animatactics.construction.carddb import load_card_db as at_db
    from deckkit.animatactics.construction.party import read_party
    from deckkit.animus.construction.carddb import load_cards
    from deckkit.animus.construction.team import read_team

    zero = Path("/dev/zero")
    calls: dict[str, Callable[[], object]] = {
        "team": lambda: read_team(zero),
        "cards": lambda: load_cards(zero),
        "party": lambda: read_party(zero, at_db()),
    }
    got = finishes(calls[reader])
    assert isinstance(got, DeckkitError), repr(got)
    assert "not a regular file" in got.render()


def test_a_team_or_card_file_past_its_size_bound_is_refused(tmp_path: Path) -> None:
    from deckkit.animus.construction.carddb import load_cards
    from deckkit.animus.construction.team import read_team

    big = tmp_path / "big.team"
    big.write_bytes(b"game: animus\n" + b"#" * 300_000 + b"\n")
    with pytest.raises(DeckFileError, match="larger than 200,000 bytes"):
        read_team(big)
    cards = tmp_path / "big.csv"
    cards.write_bytes(b"#" * 1_100_000)
    with pytest.raises(CardDataError, match="larger than 1,000,000 bytes"):
        load_cards(cards)


# --- a team's `cards:` line (issue 31, problem 12) ---


def _team_naming(folder: Path, cards: str) -> Path:
    team = folder / "t.team"
    team.write_text(f"game: animus\ncards: {cards}\n[team]\nKaida Flint\n", encoding="utf-8")
    return team


@pytest.mark.parametrize(
    ("cards", "says"),
    [
        ("../../../../../../etc/passwd", "outside the team file's folder"),
        ("/etc/passwd", "outside the team file's folder"),
        ("sub/../../secret.csv", "outside the team file's folder"),
        ("notes.txt", "is not a .csv file"),
        ("fifo.csv", "is not a regular file"),
        ("missing.csv", "does not exist"),
    ],
)
def test_cards_names_only_a_csv_in_the_team_files_folder(
    tmp_path: Path, cards: str, says: str
) -> None:
    from deckkit.animus.construction.team import read_team

    folder = tmp_path / "teams"
    folder.mkdir()
    (tmp_path / "secret.csv").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (folder / "notes.txt").write_text("root:x:0:0:root:/root:/bin/bash\n")
    os.mkfifo(folder / "fifo.csv")
    team = _team_naming(folder, cards)
    got = finishes(lambda: read_team(team), folder / "fifo.csv")
    assert isinstance(got, DeckFileError), repr(got)
    text = got.render()
    assert says in text and "line 2" in text
    assert got.exit_code == EXIT_BAD_INPUT
    assert "root:" not in text


def test_cards_in_a_folder_below_the_team_is_read(tmp_path: Path) -> None:
    from deckkit.animus.construction.carddb import sample_path
    from deckkit.animus.construction.team import read_team

    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "mine.csv").write_bytes(sample_path().read_bytes())
    team = _team_naming(tmp_path, "cards/mine.csv")
    assert read_team(team).cards[0].name == "Kaida Flint"


def test_a_card_file_that_is_no_card_file_is_not_quoted(tmp_path: Path) -> None:
    secret = "root:x:0:0:root:/root:/bin/bash"
    (tmp_path / "passwd.csv").write_text(f"{secret}\n")
    (tmp_path / "wide.csv").write_text(
        "id,name,kind,level,type,advantage,melee,range,abilities,made_up,source,hunter2\n"
    )
    for name in ("passwd.csv", "wide.csv"):
        code, out = invoke("validate", _team_naming(tmp_path, name))
        assert code == EXIT_BAD_DATA, out
        assert "root:" not in out and "hunter2" not in out
        assert "line 1" in out


# --- saved runs: metadata names and decks (issue 31, problems 10 and 11) ---

NO_LOCATIONS = "name: no field\n[characters]\nKrillin\n[havens]\nThe Tendo Dojo\n"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("saved") / "run.parquet"
    code, out = invoke("simulate", DECK, "-n", "2", "--out", path, "-q")
    assert code == 0, out
    return path


def _saved_with(saved: Path, out: Path, **values: object) -> Path:
    import polars as pl

    from deckkit.analysis.results import METADATA_KEY

    meta = json.loads(pl.read_parquet_metadata(saved)[METADATA_KEY])
    meta.update(values)
    pl.read_parquet(saved).write_parquet(out, metadata={METADATA_KEY: json.dumps(meta)})
    return out


@pytest.mark.parametrize(
    ("field", "value"),
    [("policy", "bogus"), ("policy", "search:0"), ("layout", "bogus"),
     ("edition", "bogus"), ("variant", "bogus")],
)  # fmt: skip
def test_a_saved_run_with_an_unknown_name_is_refused_naming_the_file(
    saved: Path, tmp_path: Path, field: str, value: str
) -> None:
    bad = _saved_with(saved, tmp_path / "bad.parquet", **{field: value})
    code, out = invoke("report", "--from", bad, "-o", tmp_path / "r.html", "-q")
    assert code == EXIT_BAD_INPUT, out
    assert f"error: {bad}: the run metadata in this file is damaged" in out
    assert f"unknown {field} {value!r}" in out
    assert not (tmp_path / "r.html").exists()


def test_stats_of_a_deck_without_locations_shows_no_hands(tmp_path: Path) -> None:
    deck = tmp_path / "no-locations.deck"
    deck.write_text(NO_LOCATIONS)
    code, out = invoke("stats", deck, "-f", "json")
    assert code == 0, out
    doc = json.loads(out)
    assert doc["sample_hands"] == []
    assert "the deck has no locations" in doc["note"]
    code, out = invoke("report", deck, "-n", "2", "-o", tmp_path / "r.html", "-q")
    assert code == 1, out  # illegal: the page says so, no game played
    assert (tmp_path / "r.html").exists()


def test_a_saved_run_of_a_deck_without_locations_is_refused(saved: Path, tmp_path: Path) -> None:
    from deckkit.analysis.results import deck_hash

    bad = _saved_with(
        saved, tmp_path / "bad.parquet", deck_text=NO_LOCATIONS, deck_sha256=deck_hash(NO_LOCATIONS)
    )
    code, out = invoke("report", "--from", bad, "-o", tmp_path / "r.html", "-q")
    assert code == EXIT_BAD_INPUT, out
    assert f"error: {bad}: the deck kept in this run has no locations" in out


# --- control characters on the way to the chart renderer (issue 31, problem 8) ---

HOSTILE_NAME = "bell\x07 esc\x1b[31m nul\x00 \ud800\ufffe"
DRAW = """
import json, sys
from deckkit.report import charts
from deckkit.report.chart_process import ChartProcess
course = [{"line": sys.argv[1], "points": [[1, 0.1], [2, 0.3]], "bounds": [-2.9, 2.9]}]
spec = charts.llr_chart(sys.argv[1], course)
here = charts.draw({"llr": spec})["llr"]
with ChartProcess() as drawer:
    drawer.send({"llr": spec})
    helper = drawer.receive()["llr"]
print(json.dumps([here, helper, drawer.crashed]))
"""


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_a_check_named_with_control_characters_is_drawn(tmp_path: Path) -> None:
    name = "bell\x07 esc\x1b[31m"  # what argv can carry; the rest is held to safe_spec below
    done = subprocess.run(
        [sys.executable, "-c", DRAW, name], capture_output=True, text=True, cwd=REPO, timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    here, helper, crashed = json.loads(done.stdout)
    assert not crashed
    for svg in (here, helper):
        assert "bell\\x07 esc\\x1b[31m" in svg
        assert "\x1b" not in svg and "\x07" not in svg


def test_every_string_of_a_chart_is_made_safe_for_the_renderer() -> None:
    from deckkit.report.charts import llr_chart, safe_spec

    course = [{"line": HOSTILE_NAME, "points": [[1, 0.1]], "bounds": [-2.9, 2.9]}]
    text = json.dumps(safe_spec(llr_chart(HOSTILE_NAME, course)), ensure_ascii=False)
    assert "bell\\\\x07 esc\\\\x1b[31m nul\\\\x00 \\\\ud800\\\\ufffe" in text
    unsafe = [c for c in text if ord(c) < 0x20 or 0xD800 <= ord(c) < 0xE000 or c == "\ufffe"]
    assert unsafe == []


# --- huge requests (issue 31, problems 1, 6 and 7) ---


class _Enough(Exception):
    """Raised from a progress callback: the run has shown what it needed to."""


def test_the_animus_schedule_is_made_as_it_is_used() -> None:
    from deckkit.animus.montecarlo import CHUNK, schedule

    chunks = schedule(10**12)
    assert not isinstance(chunks, list | tuple)
    assert [next(chunks), next(chunks)] == [(0, CHUNK), (CHUNK, 2 * CHUNK)]
    assert list(schedule(2 * CHUNK + 1))[-1] == (2 * CHUNK, 2 * CHUNK + 1)


@pytest.mark.slow  # real runs of the console script: end to end (make test-slow, run by CI)
@pytest.mark.parametrize("workers", [1, 2])
def test_an_animus_run_of_a_trillion_battles_starts_at_once(workers: int) -> None:
    from deckkit.animus.construction.options import RuleOptions
    from deckkit.animus.montecarlo import Match, run

    seen: list[int] = []

    def progress(games: int) -> None:
        seen.append(games)
        raise _Enough

    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(_Enough):
            run(Match(TEAM, VS, RuleOptions()), games=10**12, seed=1, workers=workers,
                progress=progress)  # fmt: skip
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seen and seen[0] >= 1
    assert time.monotonic() - started < 60
    assert peak < 50 << 20, peak  # the whole schedule as a list: gigabytes


def _quick_game(sides: object, seed: int, index: int, rules: object = None) -> GameResult:
    """A stand-in for an Anima Tactics game: a fresh result of the real shape, at once."""
    return GameResult(
        winner=index % 3 if index % 3 < 2 else None,
        by_ko=index % 2 == 0,
        turns=5 + index % 7,
        life=(tuple(range(index % 5 + 1)), tuple(range(index % 4 + 1))),
        a_first=index % 2 == 1,
    )


def _peak_of_versus(games: int) -> int:
    from deckkit.animatactics.analysis import party_games

    tracemalloc.start()
    try:
        party_games.summarize(party_games.play_games((None, None), games, 1, 1))  # type: ignore[arg-type]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow  # peak memory of growing runs (make test-slow, run by CI)
def test_anima_tactics_versus_memory_does_not_grow_with_the_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deckkit.animatactics.analysis import party_games

    monkeypatch.setattr(party_games, "play_game", _quick_game)
    small = _peak_of_versus(20_000)
    large = _peak_of_versus(80_000)
    assert large < small + (256 << 10), (small, large)  # a list of every game: +20 MB


def test_anima_tactics_versus_counts_every_game_as_the_games_say(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deckkit.animatactics.analysis import party_games

    monkeypatch.setattr(party_games, "play_game", _quick_game)
    games = [_quick_game(None, 1, i) for i in range(1000)]
    got = party_games.summarize(party_games.play_games((None, None), 1000, 1, 1)).as_dict()  # type: ignore[arg-type]
    assert got["games"] == 1000
    assert got["win"]["count"] == sum(g.winner == 0 for g in games)
    assert got["loss"]["count"] == sum(g.winner == 1 for g in games)
    assert got["draw"]["count"] == sum(g.winner is None for g in games)
    assert got["win_by_ko"]["count"] == sum(g.winner == 0 and g.by_ko for g in games)
    assert got["loss_by_ko"]["count"] == sum(g.winner == 1 and g.by_ko for g in games)
    assert got["mean_turns"] == sum(g.turns for g in games) / 1000
    assert type(got["win"]["count"]) is int


class _Pool:
    """Stands in for the runner's pool (deckkit.core.workers.run_pool): records how many
    workers were asked for and plays the chunks in this process."""

    asked: ClassVar[list[int]] = []

    @staticmethod
    def run(factory: Any, kind: Any, seed: int, ranges: Any, workers: int, collector: Any,
            mp_context: str = "spawn") -> bool:  # fmt: skip
        from deckkit.core.workers import run_inline

        _Pool.asked.append(workers)
        return run_inline(factory, kind, seed, ranges, collector)


def test_anima_tactics_workers_are_capped_at_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    from deckkit.analysis.runner import default_workers
    from deckkit.animatactics.analysis import party_games

    monkeypatch.setattr(party_games, "play_game", _quick_game)
    monkeypatch.setattr("deckkit.core.workers.run_pool", _Pool.run)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert default_workers() == 2
    _Pool.asked.clear()
    for workers in (64, 0, 2):
        party_games.play_games((None, None), 1000, 1, workers)  # type: ignore[arg-type]
    assert _Pool.asked == [2, 2, 2]
    code, out = invoke(
        "simulate", PARTY, "--vs", REPO / "decks" / "at-samael-darkness.party", "-n", "10",
        "-w", "0", "-f", "json",
    )  # fmt: skip
    assert code == 0, out
    assert json.loads(out)["games"] == 10


# --- minor items: CSV formulas, an empty --scheduler, conflicting --rule, huge inputs ---


def test_cards_list_csv_neutralises_formulas_from_a_homebrew_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import csv
    import io
    import shutil

    from deckkit.animayhem.construction.carddb import CARD_DB_ENV, card_db_dir

    shutil.copytree(card_db_dir(), tmp_path / "db")
    cards = tmp_path / "db" / "animayhem" / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    hostile = {"A-ko Magami": "=HYPERLINK(1)", "Krillin": "+1+1", "Goten": "@SUM(A1)",
               "Ross Sylibus": "-2+cmd|x"}  # fmt: skip
    for name, formula in hostile.items():
        text = text.replace(f",{name},", f",{formula},", 1)
    cards.write_text(text, encoding="utf-8")
    monkeypatch.setenv(CARD_DB_ENV, str(tmp_path / "db"))
    code, out = invoke("cards", "list", "-f", "csv")
    assert code == 0, out
    rows = list(csv.reader(io.StringIO(out)))
    names = {row[1] for row in rows}
    for formula in hostile.values():
        assert "'" + formula in names and formula not in names
    assert any(row[4] == "- - 5 - -" for row in rows)  # a stat line is no formula: kept
    code, out = invoke("cards", "list", "--game", "anima-tactics", "-f", "csv")
    assert code == 0 and not any(row[1][:1] in "=+@" for row in csv.reader(io.StringIO(out)))


def test_cell_safe() -> None:
    from deckkit.textsafe import cell_safe

    kept = ["ok", "-2", "+3.5", "1e5", "- - 5 - -", "-", ""]
    assert [cell_safe(t) for t in kept] == kept
    for t in ("=1+1", "+A1", "-A1", "@x", "\t=x", "\r=x", "-2+3"):
        assert cell_safe(t) == "'" + t


def test_an_empty_scheduler_address_is_an_error_not_a_local_run() -> None:
    for address in ("", "  "):
        code, out = invoke("simulate", DECK, "-n", "5", "--scheduler", address)
        assert code == EXIT_BAD_INPUT, out
        assert "the address is empty" in out


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", DECK, "-n", "5", "-r", "charm=every", "--rule", "charm=off"],
        ["simulate", TEAM, "--vs", VS, "-n", "5", "--rule", "empty_deck=lose",
         "--rule", "empty_deck=draw"],
    ],
)  # fmt: skip
def test_two_values_for_one_rule_option_are_an_error(args: list[str | Path]) -> None:
    code, out = invoke(*args)
    assert code == EXIT_BAD_INPUT, out
    assert "set the same rule option; give it once" in out


def test_the_same_rule_value_twice_is_fine() -> None:
    code, out = invoke("simulate", DECK, "-n", "5", "-q", "-r", "charm=every", "-r", "charm=every")
    assert code == 0, out


def test_errors_do_not_echo_huge_inputs(tmp_path: Path) -> None:
    long_path = "a/" * 60_000 + "x.deck"
    digits = "9" * 5_000
    for args in (
        ["validate", long_path],
        ["simulate", DECK, "-e", digits],
        ["simulate", DECK, "-r", f"stalemate_rounds={digits}"],
        ["simulate", DECK, "-r", f"charm={digits}"],
    ):
        code, out = invoke(*args)
        assert code == EXIT_BAD_INPUT, out
        assert len(out) < 1_000, out[:300]
        assert "characters)" in out  # says how long the value was


@pytest.mark.parametrize("command", ["stats", "play", "sensitivity"])
@pytest.mark.parametrize("source", [TEAM, PARTY])
def test_a_command_not_serving_a_games_file_says_so_in_one_line(command: str, source: Path) -> None:
    code, out = invoke(command, source)
    two_sided = (("play", TEAM), ("play", PARTY), ("sensitivity", TEAM), ("sensitivity", PARTY))
    if (command, source) in two_sided:
        # Animus plays one battle of two teams, Anima Tactics one game of two parties;
        # sensitivity measures two teams or parties
        assert code == EXIT_BAD_INPUT and "--vs" in out, out
        return
    if (command, source) == ("stats", TEAM):  # a team's draw chances (deckkit.animus.deckstats)
        assert code == 0 and "Chance to have drawn" in out, out
        return
    # Refused before the deck reader sees the file (deckkit.games.SERVES), in one line naming
    # the game, with the exit code of a command that does not serve a game.
    assert code == EXIT_NOT_SERVED, out
    assert f"`deckkit {command}`" in out and ("Animus" in out or "Anima Tactics" in out)
    assert "problems in this deck" not in out and "unknown card" not in out


# --- the API checks an impact request when it is made (issue 31, problem 13) ---


@pytest.mark.parametrize(
    "fields",
    [{"games": 0}, {"games": -5}, {"games": True}, {"games": 10, "target_error": float("nan")},
     {"games": 10, "target_error": 1.5}, {"games": 10, "budget": -1},
     {"games": 10, "cards": "Krillin"}],
)  # fmt: skip
def test_an_impact_request_that_cannot_be_served_is_refused_when_made(
    fields: dict[str, Any],
) -> None:
    from deckkit.api import ImpactRequest
    from deckkit.errors import UsageError

    with pytest.raises(UsageError) as err:
        ImpactRequest(**fields)
    assert err.value.exit_code == EXIT_BAD_INPUT
    assert ImpactRequest(games=10, cards=["Krillin"], budget=0).games == 10


# --- control characters on a page (issue 31, minor item) ---


def test_a_report_page_shows_control_characters_escaped(tmp_path: Path) -> None:
    deck = tmp_path / "hostile.deck"
    deck.write_text(
        DECK.read_text().replace("name: Solo demo", "name: Evil\x1b[2J\x07 \u202eDeck"),
        encoding="utf-8",
    )
    page = tmp_path / "r.html"
    code, out = invoke("report", deck, "-n", "2", "-o", page, "-q", "--no-impact")
    assert code == 0, out
    html = page.read_text(encoding="utf-8")
    assert "\x1b" not in html and "\x07" not in html
    assert "\u2068Evil\\x1b[2J\\x07 \u202eDeck\u2069" in html


# --- upper bounds on the search budget and on numeric rule values (issue 31, minor) ---


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--policy", "search", "--rollouts", "1001"], "more than a search player weighs"),
        (["--policy", "search", "--rollouts", "9" * 5000], "Invalid value for '--rollouts'"),
        (["--rule", "stalemate_rounds=1001"], "a whole number from 1 to 1,000"),
        (["--rule", f"stalemate_rounds={'9' * 5000}"], "a whole number from 1 to 1,000"),
    ],
)
def test_a_huge_search_budget_or_rule_value_is_refused(args: list[str], said: str) -> None:
    """A budget or a rule value that would hold one game for hours is bad usage (exit 2), said
    in one clipped line, before any game is played."""
    code, out = invoke("simulate", DECK, "-n", "1", *args)
    assert code == EXIT_BAD_INPUT, out
    assert said in out and len(out) < 600


def test_the_bounds_themselves_are_accepted_and_the_api_refuses_beyond() -> None:
    from deckkit.animayhem.construction.editions import load_edition
    from deckkit.animayhem.construction.readings import BY_NAME, MAX_RULE_NUMBER, alternatives
    from deckkit.animayhem.engine.players import MAX_ROLLOUTS, is_player

    assert is_player(f"search:{MAX_ROLLOUTS}") and not is_player(f"search:{MAX_ROLLOUTS + 1}")
    option = BY_NAME["stalemate_rounds"]
    assert option.check(str(MAX_RULE_NUMBER), "--rule") == MAX_RULE_NUMBER
    with pytest.raises(DeckkitError, match="from 1 to"):
        option.check(str(MAX_RULE_NUMBER + 1), "--rule")
    # Sensitivity's alternatives to a value at the bound stay within it.
    chosen = {"stalemate_rounds": str(MAX_RULE_NUMBER)}
    values = [
        v for name, v in alternatives(load_edition("set0"), chosen) if name == "stalemate_rounds"
    ]
    assert values == [str(MAX_RULE_NUMBER // 2)]


# --- spool directories of a killed run (issue 31, minor) ---


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_spool_left_by_a_killed_run_is_removed_by_the_next(tmp_path: Path) -> None:
    """A run killed outright leaves its `.NAME.*.rows.partial/`; the next spool beside the same
    output removes it when its owner process is gone, and leaves a live run's alone."""
    from deckkit.analysis.rowspool import OWNER_FILE, RowSpool, _owner

    out = tmp_path / "run.parquet"
    stranded = RowSpool(out)  # as a killed run leaves it: never removed
    stranded.add(0, [])
    (stranded.directory / OWNER_FILE).write_text(_owner(_dead_pid()), encoding="utf-8")
    (stranded.directory / "000000.parquet").write_bytes(b"x" * 1000)
    live = RowSpool(out)  # a run still going (this process)
    other = RowSpool(tmp_path / "other.parquet")  # another output's, owner gone too
    (other.directory / OWNER_FILE).write_text(_owner(_dead_pid()), encoding="utf-8")
    with RowSpool(out) as spool:
        assert spool.directory.is_dir()
        assert not stranded.directory.exists()
        assert live.directory.is_dir() and other.directory.is_dir()
    assert not spool.directory.exists()
    live.remove()
    other.remove()


def test_a_spool_killed_before_it_named_its_owner_is_removed_by_the_next(tmp_path: Path) -> None:
    """A run killed between creating its spool folder and writing the owner file leaves a folder
    with no owner; its name carries the creating process's id, so the next spool beside the same
    output removes it once that process is gone, and leaves a live one's alone."""
    from deckkit.analysis.rowspool import OWNER_FILE, RowSpool

    out = tmp_path / "run.parquet"
    dead = tmp_path / f".run.parquet.{_dead_pid()}.abc123.rows.partial"
    live = tmp_path / f".run.parquet.{os.getpid()}.def456.rows.partial"
    nameless = tmp_path / ".run.parquet.ghi789.rows.partial"  # no id in the name: kept
    for folder in (dead, live, nameless):
        folder.mkdir()
    with RowSpool(out) as spool:
        assert (spool.directory / OWNER_FILE).is_file()
        assert f".run.parquet.{os.getpid()}." in spool.directory.name
        assert not dead.exists()
        assert live.is_dir() and nameless.is_dir()


@pytest.mark.slow  # a real run killed outright: end to end (make test-slow, run by CI)
def test_a_simulate_killed_outright_leaves_nothing_after_the_next_run(tmp_path: Path) -> None:
    out = tmp_path / "rows.parquet"
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckkit", "simulate", str(DECK), "-n", "1000000", "-q",
         "--out", str(out)],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".rows.parquet.*.rows.partial")):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        proc.kill()
        proc.wait()
    assert list(tmp_path.glob(".rows.parquet.*.rows.partial"))  # stranded
    code, out_text = invoke("simulate", DECK, "-n", "3", "-q", "--out", out, "--force")
    assert code == 0, out_text
    assert not list(tmp_path.glob(".*.rows.partial")) and out.exists()


# --- report --from bounded by a documented size (issue 31, problem 9) ---


def test_a_saved_run_too_large_for_a_report_is_exit_8_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows a report holds (~32 bytes a game and a byte per card counter shown) are bounded
    by MAX_REPORT_ROW_BYTES: beyond it, exit 8 and one line saying what fits, before a value is
    read. (The bound lowered here: a run of millions of games is too slow to write in a test.)"""
    from deckkit.analysis import results
    from deckkit.api import pages
    from deckkit.errors import EXIT_TOO_LARGE, MAX_REPORT_ROW_BYTES

    rows = tmp_path / "run.parquet"
    code, out = invoke("simulate", DECK, "-n", "200", "-q", "--out", rows)
    assert code == 0, out
    assert MAX_REPORT_ROW_BYTES == 256 << 20  # as README and errors.py say
    read: list[str] = []
    monkeypatch.setattr(results, "_check_values", lambda *a: read.append("values"))
    monkeypatch.setattr(pages, "MAX_REPORT_ROW_BYTES", 200 * 40)
    code, out = invoke("report", "--from", rows, "-o", tmp_path / "r.html", "-q")
    assert code == EXIT_TOO_LARGE == 8, out
    assert "this run is too large for a report: 200 games with" in out
    assert "the limit is 0 MB (about" in out and read == []
    assert not (tmp_path / "r.html").exists()
    monkeypatch.setattr(pages, "MAX_REPORT_ROW_BYTES", MAX_REPORT_ROW_BYTES)
    monkeypatch.undo()
    code, out = invoke("report", "--from", rows, "-o", tmp_path / "r.html", "-q", "--no-impact")
    assert code == 0, out


@pytest.mark.slow
def test_report_from_reads_a_saved_run_in_flat_memory(tmp_path: Path) -> None:
    """The checks and totals of a saved run are computed a slice at a time (the streaming
    engine), not by loading every column of every game: memory does not follow its length."""
    import polars as pl

    from deckkit.analysis.results import open_results, tally_of_frame

    source = tmp_path / "small.parquet"
    code, out = invoke("simulate", DECK, "-n", "500", "-q", "--out", source)
    assert code == 0, out
    meta = pl.read_parquet_metadata(source)
    small = pl.read_parquet(source).drop("index")
    n = 2_000_000
    doc = json.loads(meta["deckkit.run"])
    doc["games_requested"] = n
    big = tmp_path / "big.parquet"
    (
        pl.concat([small.lazy()] * (n // small.height))
        .with_row_index("index")
        .with_columns(pl.col("index").cast(pl.Int64))
        .select(["index", *small.columns])
        .sink_parquet(big, metadata={"deckkit.run": json.dumps(doc)}, row_group_size=50_000)
    )
    script = (
        "import sys; from pathlib import Path\n"
        "from deckkit.analysis.results import open_results, tally_of_frame\n"
        "run = open_results(Path(sys.argv[1])); tally = tally_of_frame(run.rows)\n"
        "peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
        "print(tally.games, int(peak.split()[1]) // 1024)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(big)], capture_output=True, text=True, cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)}, check=True,
    )  # fmt: skip
    games, peak_mb = map(int, done.stdout.split())
    assert games == n
    # All 2M games' columns in memory would be 75 x 8 x 2M = 1.2 GB; a slice at a time, a few
    # hundred megabytes whatever the length: 224-238 MB on an idle 2-core machine, 464 MB once
    # beside two benchmark runs (the streaming engine holds more slices when starved of CPU), so
    # the bound is half of the whole, not the idle figure.
    assert peak_mb < 600, peak_mb
    assert open_results(source).games == 500 and tally_of_frame(open_results(source).rows).games


# --- report under an address-space cap (issue 31, problem 14) ---


@pytest.mark.slow  # real reports under ulimit -v: end to end (make test-slow, run by CI)
@pytest.mark.parametrize("cap_mib", [768, 1024])
def test_report_runs_under_an_address_space_cap(tmp_path: Path, cap_mib: int) -> None:
    """`ulimit -v` of 1 GiB or 768 MiB: the report is written (its charts, drawn by a helper
    the cap may stop, can be missing), with no allocator abort, hang or numpy install advice.
    glibc reserves 64 MB of address space for each thread's arena: the report's threads
    reserved 1.35 GB of it while using 135 MB, until the launcher kept the arenas to two
    (deckkit/cli/launch.py)."""
    import resource

    page = tmp_path / "capped.html"

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap_mib << 20, cap_mib << 20))

    env = {
        k: v for k, v in os.environ.items() if k not in ("POLARS_MAX_THREADS", "MALLOC_ARENA_MAX")
    }
    done = subprocess.run(
        [sys.executable, "-m", "deckkit", "report", str(DECK), "-n", "20", "-o", str(page),
         "-q", "--no-impact"],
        capture_output=True, text=True, cwd=REPO, preexec_fn=cap, timeout=120,
        env={**env, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert page.exists() and "Traceback" not in done.stderr
    assert "numpy" not in done.stderr.lower()


# --- the API's chart drawing in a helper process (issue 31, problem 13) ---

_CAPPED_SAVE_CHART = """
import resource, sys
from deckkit.api.charts import save_chart
from deckkit.errors import CannotWrite
spec = {"data": {"values": [{"x": 1}]}, "mark": "point",
        "encoding": {"x": {"field": "x", "type": "quantitative"}}}
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
try:
    save_chart(spec, sys.argv[1])
    print("drawn")
except CannotWrite as err:
    print("refused:", err.render().splitlines()[0])
"""


def test_save_chart_under_an_address_space_cap_leaves_the_interpreter_standing(
    tmp_path: Path,
) -> None:
    """Under `ulimit -v` vl-convert's engine aborts the process that runs it: the API draws in
    a helper, so the caller gets CannotWrite (or the chart), never a dead interpreter."""
    target = tmp_path / "capped.svg"
    done = subprocess.run(
        [sys.executable, "-c", _CAPPED_SAVE_CHART, str(target)],
        capture_output=True, text=True, cwd=REPO, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode == 0, (done.returncode, done.stderr[-1500:])
    said = done.stdout.strip()
    assert said == "drawn" or said.startswith("refused:"), said
    assert target.exists() == (said == "drawn")


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_save_chart_draws_what_vl_convert_draws(tmp_path: Path) -> None:
    import vl_convert

    from deckkit.api.charts import save_chart

    spec: dict[str, Any] = {
        "data": {"values": [{"x": 1, "y": 2}]},
        "mark": "point",
        "encoding": {"x": {"field": "x", "type": "quantitative"}},
    }
    svg = save_chart(spec, tmp_path / "c.svg")
    assert svg.read_text() == vl_convert.vegalite_to_svg(spec)
    png = save_chart(spec, tmp_path / "c.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(DeckkitError, match=r"FILE\.svg or FILE\.png"):
        save_chart(spec, tmp_path / "c.pdf")


# --- an interrupted report stops measuring (issue 31, minor) ---


def test_an_interrupted_report_plays_no_impact_or_sensitivity_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop during the games writes the page of what was played at once: the card impact
    and sensitivity games (tens of seconds) are not started for it."""
    import contextlib

    from deckkit import stopping
    from deckkit.api import pages
    from deckkit.api.options import RunOptions
    from deckkit.api.solitaire import prepare

    started: list[str] = []
    monkeypatch.setattr(pages, "_impact", lambda *a: started.append("impact"))
    monkeypatch.setattr(pages, "_sensitivity", lambda *a: started.append("sensitivity"))

    def stop_after_the_first_chunk(done: int) -> None:
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def bar(games: int) -> Iterator[Callable[[int], None]]:
        yield stop_after_the_first_chunk

    notes: list[str] = []
    options = RunOptions(games=5000, seed=3)
    with stopping.stop_on_signals():
        done = pages.report_of(
            prepare(DECK, options), options, tmp_path / "partial.html",
            impact=pages.ImpactRequest(games=200), sensitivity_games=50,
            notify=notes.append, progress=bar,
        )  # fmt: skip
    assert done.exit_code == 130 and started == []
    assert "interrupted: card impact and rule sensitivity not measured" in notes
    assert done.document["impact"] is None


# --- a bare carriage return inside an Animus card row (found by tests/test_fuzz_readers.py) ---


def test_a_bare_carriage_return_in_a_card_row_names_the_file_and_line(tmp_path: Path) -> None:
    """A line holding a lone CR before its text (b"\\r text") is no CSV row: the csv module
    raised its own error, a traceback; now it is the card file's error, with file and line."""
    from deckkit.animus.construction.carddb import (
        CardFileError,
        load_types,
        read_cards,
        sample_path,
        types_path_for,
    )

    sample = sample_path().read_bytes()
    bad = tmp_path / "cards.csv"
    bad.write_bytes(b"\r Animus cards\n" + sample)
    with pytest.raises(CardFileError) as caught:
        read_cards(bad, load_types(types_path_for(sample_path())))
    text = caught.value.render()
    assert "cards.csv" in text and "line 1" in text
