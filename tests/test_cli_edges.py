"""The command line's rough edges, each held by a test: progress and -q on every long command,
'-' for standard input wherever a deck is read, one JSON shape for the same thing in every
command, hints that lead somewhere, help without the parser's internal type names, errors in
deckkit's words, --card-db before or after the command, default report names that never
replace another configuration's page silently, and exit 141 on a closed pipe."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.api import deckinput
from deckkit.cli.helpfmt import hoist_card_db, plain_words
from deckkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
DEMO = DECKS / "demo-solo.deck"
MEDIUM = DECKS / "medium-solo.deck"


def deckkit(*args: str | Path, stdin: str | None = None) -> tuple[int, str, str]:
    deckinput.forget_stdin()
    result = CliRunner().invoke(app, [str(a) for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


# --- progress and -q -----------------------------------------------------------------------


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_impact_says_how_far_it_is_and_q_silences_it() -> None:
    code, _, err = deckkit("impact", MEDIUM, "-c", "Goten", "-c", "Zarbon", "-n", "20")
    assert code == 0, err
    assert "impact: 1/2 done: Goten" in err and "impact: 2/2 done: Zarbon" in err
    code, _, err = deckkit("impact", MEDIUM, "-c", "Goten", "-n", "20", "-q")
    assert code == 0 and "done" not in err


def test_compare_says_how_far_it_is_and_q_silences_it() -> None:
    code, _, err = deckkit("compare", DEMO, MEDIUM, "-n", "20")
    assert code == 0, err
    assert "compare: 1/2 done" in err and "compare: 2/2 done" in err
    code, _, err = deckkit("compare", DEMO, MEDIUM, "-n", "20", "-q")
    assert code == 0 and "done" not in err


@pytest.mark.parametrize(
    "command", ["simulate", "report", "compare", "impact", "play", "stats", "validate"]
)
def test_every_command_that_reads_a_deck_takes_q_or_is_instant(command: str) -> None:
    code, out, _ = deckkit(command, "--help")
    assert code == 0
    long_running = command in {"simulate", "report", "compare", "impact"}
    assert ("-q, --quiet" in out) or not long_running


# --- '-' for standard input ----------------------------------------------------------------


def test_simulate_reads_the_deck_from_stdin() -> None:
    args = ("-n", "15", "-s", "3", "-f", "json", "-q")
    code, from_file, err = deckkit("simulate", MEDIUM, *args)
    assert code == 0, err
    code, from_stdin, err = deckkit("simulate", "-", *args, stdin=MEDIUM.read_text())
    assert code == 0, err
    a, b = json.loads(from_file), json.loads(from_stdin)
    assert a["wins"] == b["wins"] and a["cards"] == b["cards"]


def test_play_and_impact_read_the_deck_from_stdin() -> None:
    code, out, err = deckkit("play", "-", "-s", "2", "-f", "json", stdin=DEMO.read_text())
    assert code == 0, err
    assert json.loads(out)["deck"] == "Solo demo"
    code, out, err = deckkit(
        "impact", "-", "-c", "Goten", "-n", "10", "-q", "-f", "json", stdin=MEDIUM.read_text()
    )
    assert code == 0, err
    assert json.loads(out)["impact"]["cards"][0]["card"] == "Goten"


def test_report_reads_the_deck_from_stdin(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    code, _, err = deckkit("report", "-", "-n", "10", "-o", page, "-q", stdin=DEMO.read_text())
    assert code == 0, err
    doc = json.loads(page.with_suffix(".json").read_text())
    assert doc["deck"] == "Solo demo" and doc["games"] == 10 and doc["run"]["deck_path"] == "-"


# --- one JSON shape ------------------------------------------------------------------------


def test_play_json_has_simulates_end_reason_code_and_not_simulated_shape() -> None:
    code, out, _ = deckkit("play", MEDIUM, "-s", "1", "-f", "json")
    assert code == 0
    played = json.loads(out)
    code, out, _ = deckkit("simulate", MEDIUM, "-n", "5", "-s", "1", "-f", "json", "-q")
    simulated = json.loads(out)
    assert set(played["end_reason"]) == {"code", "reason"}
    codes = {r["code"]: r["reason"] for r in simulated["end_reasons"]}
    assert played["end_reason"]["code"] in {*codes, "turn_cap"}
    assert played["not_simulated"] == simulated["not_simulated"]
    assert all(set(c) == {"id", "name", "coverage", "note"} for c in played["not_simulated"])


# --- hints, help and errors ----------------------------------------------------------------


def test_a_deck_for_three_players_gets_a_hint_that_leads_somewhere() -> None:
    code, _, err = deckkit("simulate", DECKS / "trio-3p.deck", "-n", "5")
    assert code == 2 and "--players 1 --allow-illegal" in err
    code, _, err = deckkit(
        "simulate", DECKS / "trio-3p.deck", "-n", "5", "-q", "--players", "1", "--allow-illegal"
    )
    assert code == 0, err


COMMANDS = [
    ["validate"], ["stats"], ["simulate"], ["play"], ["report"], ["compare"], ["impact"],
    ["samples"], ["cards", "list"], ["cards", "show"], ["cards", "coverage"],
    ["balance", "check"], ["balance", "baseline"], [],
]  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "deckkit")
def test_help_reads_like_the_readme(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = deckkit(*command, "--help")
    assert code == 0
    for internal in ("<bool>", "<int", "<path>", "<float>", "list[", "<str>", "[[", "{"):
        assert internal not in out, (internal, out)
    usage = out.splitlines()[0]
    assert usage.startswith("Usage: deckkit")
    words = set(re.findall(r"[\w-]+", out))
    if command in (["simulate"], ["report"], ["play"]):
        # choices whole, never split mid-word, however narrow the terminal
        assert {"guidelines1998", "straight-line", "heuristic|random|search"} <= words | {
            w for w in re.findall(r"[\w|-]+", out)
        }


@pytest.mark.parametrize(
    ("args", "said", "unsaid"),
    [
        (["-n", "abc"], "expected a whole number", "Input should"),
        (["-n", "0"], "must be at least 1", "Input should"),
        (["-p", "foo"], "'foo' is not one of: heuristic, random, search", "Value error"),
    ],
)
def test_parser_errors_are_in_deckkits_words(args: list[str], said: str, unsaid: str) -> None:
    code, _, err = deckkit("simulate", DEMO, *args)
    assert code == 2 and said in err and unsaid not in err


def test_plain_words() -> None:
    assert plain_words("Input should be a valid number, unable to parse string as a number") == (
        "expected a number"
    )
    assert plain_words("Input should be less than or equal to 7") == "must be at most 7"


# --- --card-db before or after the command -------------------------------------------------


def test_card_db_after_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DECKKIT_CARD_DB", raising=False)
    missing = tmp_path / "nowhere"
    for args in (
        ["--card-db", missing, "validate", DEMO],
        ["validate", DEMO, "--card-db", missing],
    ):
        code, _, err = deckkit(*args)
        assert code == 3 and "nowhere" in err, err
    shutil.copytree(ROOT / "card_db", tmp_path / "db")
    code, _, err = deckkit("validate", DEMO, f"--card-db={tmp_path / 'db'}")
    assert code == 0, err
    assert hoist_card_db(["play", "x", "--card-db", "d", "--", "--card-db"]) == [
        "--card-db", "d", "play", "x", "--", "--card-db",
    ]  # fmt: skip


def test_card_db_in_a_symbolic_link_loop_is_a_card_data_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A --card-db path that cannot be resolved (two links naming each other) is reported as
    unreadable card data, naming the path, with the card-data exit code, not a traceback."""
    monkeypatch.delenv("DECKKIT_CARD_DB", raising=False)
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    code, _, err = deckkit("--card-db", tmp_path / "a", "validate", DEMO)
    assert code == 3 and str(tmp_path / "a") in err, err


# --- default report names ------------------------------------------------------------------


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_default_report_names_carry_policy_and_edition(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(DEMO, tmp_path / "mine.deck")
    code, out, err = deckkit("report", "mine.deck", "-n", "5", "-q")
    assert code == 0 and "reports/mine.report.html" in out, err
    code, out, _ = deckkit("report", "mine.deck", "-n", "5", "-q", "-p", "random")
    assert "reports/mine-random.report.html" in out
    code, out, _ = deckkit("report", "mine.deck", "-n", "5", "-q", "-e", "general1996")
    assert "reports/mine-general1996.report.html" in out
    # a saved random run drawn again goes to the random page, not over the heuristic one
    runs = tmp_path / "random.parquet"
    code, _, err = deckkit("simulate", "mine.deck", "-n", "5", "-p", "random", "-o", runs, "-q")
    assert code == 0, err
    heuristic_page = (tmp_path / "reports" / "mine.report.html").read_text()
    code, out, err = deckkit("report", "--from", runs)
    assert "reports/mine-random.report.html" in out
    assert "replacing reports/mine-random.report.html" in err  # said, never silent
    assert (tmp_path / "reports" / "mine.report.html").read_text() == heuristic_page


# --- exit 141 on a closed pipe ---------------------------------------------------------------


# A process each (about a CPU-second): the fast suite closes the pipe on a command's own
# output (one handler serves every command, deckkit.cli.exits); the help and version texts'
# cases are `make test-slow`.
@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--help"], marks=pytest.mark.slow),
        pytest.param(["--version"], marks=pytest.mark.slow),
        pytest.param(["report", "--help"], marks=pytest.mark.slow),
        ["cards", "list", "-f", "json"],
    ],
)
def test_a_closed_pipe_exits_141(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "deckkit", *args], stdout=write, stderr=subprocess.PIPE
        )
    finally:
        os.close(write)
    assert done.returncode == 141, done.stderr
    assert b"Traceback" not in done.stderr


# --- a play event names the characters its data lists ----------------------------------------


def test_a_party_move_names_exactly_the_members_it_lists() -> None:
    """tough-solo, seed 1, game 22, turn 4: passing Mt. Muldoon, Priss Asagiri is bonked, and
    the party that goes on to Tea Room Transylvania is the other three (the text once named
    everyone who set out)."""
    code, out, _ = deckkit("play", DECKS / "tough-solo.deck", "-s", "1", "-g", "22", "-f", "json")
    assert code == 0
    events = json.loads(out)["events"]
    moves = [e for e in events if e["kind"] == "move" and "actor" in e]
    passing = "A-ko Magami, Ross Sylibus, Goten, Priss Asagiri pass through Mt. Muldoon"
    assert any(e["text"] == passing and e["turn"] == 4 for e in moves)
    assert any(e["text"] == "Priss Asagiri is bonked" and e["turn"] == 4 for e in events)
    stopping = "A-ko Magami, Ross Sylibus, Goten stop at Tea Room Transylvania"
    assert any(e["text"] == stopping and e["turn"] == 4 for e in moves)
    for e in moves:
        actors = e["actor"] if isinstance(e["actor"], list) else [e["actor"]]
        assert e["text"].startswith(", ".join(a["name"] for a in actors) + " "), e
