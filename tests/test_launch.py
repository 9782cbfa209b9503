"""The `deckkit` console script starts `report --from`'s chart helper before the CLI's imports:
the report takes that helper over, gives the same page as drawn in-process, and a helper no
report takes is stopped when the command exits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.cli.launch import draws_a_saved_run
from deckkit.cli.main import app
from deckkit.report import chart_process, charts
from deckkit.report.chart_process import ChartProcess

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["report", "--from", "run.parquet"], True),
        (["--card-db", "db", "report", "-o", "x.html", "--from=run.parquet"], True),
        (["report", "decks/demo-solo.deck"], False),
        (["simulate", "decks/demo-solo.deck", "--out", "run.parquet"], False),
        (["--version"], False),
    ],
)
def test_which_command_lines_start_the_helper_early(args: list[str], expected: bool) -> None:
    assert draws_a_saved_run(args) is expected


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_the_report_takes_over_the_early_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(charts, "_drawn_here", False)
    monkeypatch.setattr(chart_process, "_helper_started", False)
    chart_process.start_early()
    early = chart_process._early
    assert early is not None
    specs = {"outcomes": charts.outcome_chart({"win": {"rate": 1.0, "ci": [0.7, 1.0]}})}
    with ChartProcess() as drawer:
        assert drawer._proc is early and chart_process._early is None
        drawer.send(specs)
        assert drawer.receive() == charts.draw(specs)
    assert early.poll() is not None


def test_a_helper_no_report_takes_is_stopped_at_exit() -> None:
    # a helper that would sleep for a minute, started early by a command that draws no report
    script = (
        "import sys\n"
        "from deckkit.report import chart_process\n"
        "chart_process.helper_command = lambda: [sys.executable, '-c', "
        "'import time; time.sleep(60)']\n"
        "chart_process.start_early()\n"
        "print(chart_process._early.pid)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return  # stopped, and collected, before the command exited
    os.kill(pid, 9)
    pytest.fail("the early helper outlived the command")


@pytest.mark.slow  # the console script in a fresh interpreter: end to end (make test-slow)
def test_console_script_page_is_the_in_process_page(tmp_path: Path) -> None:
    runs = tmp_path / "run.parquet"
    result = CliRunner().invoke(
        app, ["simulate", str(ROOT / "decks" / "demo-solo.deck"), "-n", "40", "--seed", "4",
              "-q", "--out", str(runs)],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    here, there = tmp_path / "here.html", tmp_path / "there.html"
    result = CliRunner().invoke(app, ["report", "--from", str(runs), "-o", str(here)])
    assert result.exit_code == 0, result.stderr
    done = subprocess.run(
        [sys.executable, "-m", "deckkit", "report", "--from", str(runs), "-o", str(there)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    drop = json.loads(here.with_suffix(".json").read_text())["generated"]
    other = json.loads(there.with_suffix(".json").read_text())["generated"]
    assert here.read_text().replace(drop, "") == there.read_text().replace(other, "")
    assert "<svg" in there.read_text()
