"""The report's charts drawn by a helper process started early (so that vl-convert's start-up
overlaps the rest of `deckkit report --from`): the same bytes as drawing in-process, the same
page when the helper cannot start, dies or answers nonsense, and no helper left behind."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from deckkit.report import chart_process, charts
from deckkit.report.chart_process import ChartProcess

DOC: dict[str, Any] = {
    "simulated": True,
    "games": 10,
    "outcomes": {
        "win": {"rate": 0.6, "ci": [0.31, 0.83]},
        "loss": {"rate": 0.4, "ci": [0.17, 0.69]},
        "stall": {"rate": 0.0, "ci": [0.0, 0.28]},
    },
    "distributions": {
        "turns": [[5, 4], [7, 6]],
        "items_retrieved": [[2, 10]],
        "items_lost": [[0, 3], [1, 7]],
    },
    "survival": [[5, 0.4, 0.0], [7, 0.6, 0.4]],
    "impact": {"cards": [{"card": "<b>Kuno</b>", "difference": -0.1, "ci": [-0.3, 0.1]}]},
}


@pytest.fixture(autouse=True)
def vl_convert_not_started_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a fresh `deckkit report --from` (other tests draw charts in this process)."""
    monkeypatch.setattr(charts, "_drawn_here", False)
    monkeypatch.setattr(chart_process, "_helper_started", False)
    monkeypatch.setattr(chart_process, "_early", None)


def draw_with(command: list[str] | None, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    if command is not None:
        monkeypatch.setattr(chart_process, "helper_command", lambda: command)
    with ChartProcess() as drawer:
        drawer.send(charts.report_specs(DOC))
        return drawer.receive()


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_helper_draws_the_same_bytes_as_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    answered: list[object] = []
    real = ChartProcess._answer

    def spy(self: ChartProcess) -> dict[str, str] | None:
        answer = real(self)
        answered.append(answer)
        return answer

    monkeypatch.setattr(ChartProcess, "_answer", spy)
    svgs = draw_with(None, monkeypatch)
    assert answered and answered[0] is not None  # drawn by the helper, not the fallback
    assert svgs == charts.report_charts(DOC)
    assert list(svgs) == ["outcomes", "turns", "items_retrieved", "items_lost", "survival",
                          "impact"]  # fmt: skip


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
@pytest.mark.parametrize(
    "command",
    [
        ["/nonexistent/python"],  # cannot start
        [sys.executable, "-c", "import sys; sys.exit(3)"],  # dies
        [sys.executable, "-c", 'print(\'{"outcomes": "<svg/>"}\')'],  # answers too little
        [sys.executable, "-c", "print('not json')"],
    ],
    ids=["missing", "dies", "partial", "garbage"],
)
def test_same_page_without_a_working_helper(
    command: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert draw_with(command, monkeypatch) == charts.report_charts(DOC)


def test_helper_is_stopped_when_the_report_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # a helper that would wait forever for its specifications
    monkeypatch.setattr(chart_process, "helper_command",
                        lambda: [sys.executable, "-c", "import time; time.sleep(600)"])  # fmt: skip
    procs: list[subprocess.Popen[bytes]] = []
    with pytest.raises(RuntimeError), ChartProcess() as drawer:
        assert drawer._proc is not None
        procs.append(drawer._proc)
        raise RuntimeError("the results could not be read")
    assert procs[0].poll() is not None  # stopped and reaped, not left running


def test_no_helper_once_charts_are_drawn_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long-lived process that has drawn charts has vl-convert started: no helper."""
    expected = charts.report_charts(DOC)
    assert charts.drawn_here()
    monkeypatch.setattr(chart_process, "helper_command", lambda: pytest.fail("helper started"))
    with ChartProcess() as drawer:
        assert drawer._proc is None
        drawer.send(charts.report_specs(DOC))
        assert drawer.receive() == expected


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_one_helper_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper serves a process's first report; later ones are drawn here."""
    first = draw_with(None, monkeypatch)
    monkeypatch.setattr(chart_process, "helper_command", lambda: pytest.fail("helper started"))
    with ChartProcess() as drawer:
        assert drawer._proc is None
        drawer.send(charts.report_specs(DOC))
        assert drawer.receive() == first
