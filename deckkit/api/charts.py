"""Charts of API results, drawn with the report's chart code (Vega-Lite specifications,
rendered by vl-convert without a browser)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from deckkit.analysis.output import write_bytes
from deckkit.api.simulation import SimulateResult
from deckkit.errors import CannotWrite, UsageError
from deckkit.report.charts import Spec, sweep_chart


def win_rate_chart(
    runs: Mapping[float, SimulateResult], what: str, *, title: str | None = None
) -> Spec:
    """The win rate of each run with its Wilson 95% interval, against the value of ``what``
    the run was played at (``{3: run_at_3, 4: run_at_4, ...}``): a Vega-Lite specification,
    for :func:`save_chart` or any Vega-Lite renderer (a notebook's ``altair.Chart.from_dict``)."""
    points = []
    for value, run in sorted(runs.items()):
        win = run.win
        if win.rate is None or win.ci is None:
            raise UsageError(f"the run at {what} {value} played no games")
        points.append((float(value), win.rate, win.ci[0], win.ci[1]))
    return sweep_chart(points, title or f"Win rate by {what}", what)


def save_chart(spec: Spec, path: str | Path, *, force: bool = False) -> Path:
    """Write the chart as ``.svg`` or ``.png`` (by the extension), whole or not at all; an
    existing file is replaced only with ``force``.

    Drawn in a helper process, as `deckkit report` draws its charts: vl-convert's JavaScript
    engine aborts the process it runs in when it cannot reserve its memory (under an
    address-space cap), which would take the caller's interpreter down with it. A helper that
    stops is :class:`~deckkit.errors.CannotWrite` (exit 5), and nothing is written."""
    from deckkit.report.chart_process import draw_apart

    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise UsageError("a chart is written as FILE.svg or FILE.png", path=target)
    data = draw_apart(spec, suffix[1:])
    if data is None:
        raise CannotWrite(
            "the chart renderer stopped before drawing this chart (out of memory?)",
            path=target,
            hint="raise the memory limit (ulimit -v) and draw it again",
        )
    write_bytes(data, target, force=force)
    return target
