"""The charts drawn in a helper process started early, so that vl-convert's start-up runs on
another core while this process reads the results, loads the card database and computes the
report's numbers.

vl-convert (1.9) holds the interpreter lock for the whole of a call, and its first call in a
process pays about half a second of start-up (its JavaScript engine and the Vega-Lite compiler),
so a thread cannot overlap it with anything; a process can. The helper imports only vl-convert
(a few milliseconds after Python's own start), draws a tiny chart to pay that start-up, then
waits for the report's specifications on its standard input and writes the SVGs, as JSON, on
its standard output.

The `deckkit` console script starts the helper for ``report --from`` before even the CLI's
imports (:func:`start_early`, from :mod:`deckkit.cli.launch`), so that its start-up overlaps those
too; otherwise the report starts it as it begins.

The bytes are those of drawing in this process (the same vl-convert draws them, and
:func:`deckkit.report.charts.inline` finishes them here). Should the helper be missing, fail
or answer something else, the charts are drawn in this process instead: slower, same page.
Should it be killed by a signal (vl-convert's JavaScript engine aborts when it cannot reserve
the address space it wants, under ``ulimit -v``), drawing here would abort this process too,
after all its games: the page is written with a note in place of each chart, and a warning.
For the same reason a process whose address space is limited always draws in a helper.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import subprocess
import sys
from collections.abc import Mapping
from types import TracebackType
from typing import IO, Any

from deckkit.report import charts

# A chart small enough to draw in a few milliseconds once vl-convert has started.
WARM_UP: charts.Spec = {
    "data": {"values": [{"x": 0}]},
    "mark": "point",
    "encoding": {"x": {"field": "x", "type": "quantitative"}},
}
TIMEOUT = 120.0  # seconds to wait for the helper's answer before drawing here instead


def helper_command() -> list[str]:
    """How the helper is started: this module run by this Python. ``-P`` keeps the current
    directory off its path, so it imports deckkit from where this process found it, never from
    a ``deckkit/`` folder that happens to be where the command runs."""
    return [sys.executable, "-P", "-m", __name__]


_helper_started = False  # whether this process has started a helper before
_early: subprocess.Popen[bytes] | None = None  # started by start_early(), not yet taken


def _spawn() -> subprocess.Popen[bytes] | None:
    try:
        return subprocess.Popen(
            helper_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # its errors show again when drawn here
        )
    except OSError:
        return None


def start_early() -> None:
    """Start the helper before the command's own imports (about half a second), so that its
    start-up overlaps them too; the next :class:`ChartProcess` takes it over, and if none does
    (``--help``, a usage error) it is stopped when this process exits."""
    global _early, _helper_started
    if _helper_started or charts.drawn_here():
        return
    _helper_started = True
    _early = _spawn()
    atexit.register(_stop_early)


def _stop_early() -> None:
    global _early
    proc, _early = _early, None
    if proc is not None:
        _reap(proc)


class ChartProcess:
    """A helper process drawing charts; use it as a context manager so that it never outlives
    the command (it is stopped when the report fails before sending it anything).

    A helper is started once per process, for its first report: a process that draws more
    reports (a benchmark, a notebook) draws them itself after that, paying vl-convert's
    start-up once rather than once per report."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._specs: dict[str, charts.Spec] = {}
        self.crashed = False  # the helper was killed by a signal: charts not drawn

    def __enter__(self) -> ChartProcess:
        global _early, _helper_started
        if _early is not None:  # started before the command's imports
            self._proc, _early = _early, None
        elif address_space_limited() or not (charts.drawn_here() or _helper_started):
            _helper_started = True
            self._proc = _spawn()
        # else: a later report in this process, whose charts are drawn here
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop()

    def send(self, specs: Mapping[str, charts.Spec]) -> None:
        """Hand the helper the charts to draw; it starts at once, while this process goes on."""
        self._specs = {name: charts.safe_spec(spec) for name, spec in specs.items()}
        if self._proc is None or self._proc.stdin is None:
            return
        try:  # one line of JSON (its strings escape any newline); it is read at once
            self._proc.stdin.write(json.dumps(self._specs, allow_nan=False).encode() + b"\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):
            self._stop()

    def receive(self) -> dict[str, str]:
        """The charts sent, by name, as inline SVG."""
        svgs = self._answer()
        if svgs is None and (self.crashed or address_space_limited()):
            return {name: not_drawn(name) for name in self._specs}
        if svgs is None:
            return charts.draw(self._specs)
        return {name: charts.inline(svgs[name], name, spec) for name, spec in self._specs.items()}

    def _answer(self) -> dict[str, str] | None:
        """The helper's SVGs, or None when it gave no usable answer."""
        proc = self._proc
        if proc is None or proc.stdout is None:
            return None
        try:
            out, _ = proc.communicate(timeout=TIMEOUT)
            answer = json.loads(out) if proc.returncode == 0 else None
            self.crashed = proc.returncode < 0
        except (OSError, ValueError, subprocess.TimeoutExpired):
            answer = None
        finally:
            self._stop()
        if not isinstance(answer, dict) or set(answer) != set(self._specs):
            return None
        if not all(isinstance(svg, str) for svg in answer.values()):
            return None
        return answer

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            _reap(proc)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """Stop the helper if it still runs, and collect it. Closing its stdin flushes what a
    failed send left in the buffer: a helper already gone makes that a second broken pipe,
    which must not end the report (the charts are drawn here instead)."""
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None and not stream.closed:
            with contextlib.suppress(OSError, ValueError):
                stream.close()


def address_space_limited() -> bool:
    """Whether ``ulimit -v`` limits this process (vl-convert may then abort whoever calls it)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not Unix
        return False
    return soft != resource.RLIM_INFINITY


def not_drawn(name: str) -> str:
    """What stands in a page for a chart the renderer could not draw."""
    return (
        f'<p class="chart-not-drawn" role="note">The {name.replace("_", " ")} chart could not '
        "be drawn here (the chart renderer stopped); the numbers are in the tables and in the "
        "JSON file beside this page.</p>"
    )


def draw_apart(spec: charts.Spec, fmt: str) -> bytes | None:
    """One chart as SVG or PNG bytes (``fmt``), drawn in a helper process of its own, so that
    vl-convert aborting (as it does under an address-space cap) ends the helper, never this
    interpreter; None when the helper died or gave no answer."""
    script = (
        "import json, sys, vl_convert\n"
        "spec = json.loads(sys.stdin.buffer.read())\n"
        "out = vl_convert.vegalite_to_svg(spec).encode() if sys.argv[1] == 'svg' "
        "else vl_convert.vegalite_to_png(spec, scale=2)\n"
        "sys.stdout.buffer.write(out)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-P", "-c", script, fmt],
            input=json.dumps(charts.safe_spec(spec), allow_nan=False).encode(),
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 and done.stdout else None


def serve(source: IO[bytes], sink: IO[bytes]) -> None:
    """The helper's side: start vl-convert, then draw every specification of the line read
    from ``source`` (a JSON object of name -> spec) and write name -> SVG to ``sink``."""
    import vl_convert

    vl_convert.vegalite_to_svg(WARM_UP)
    specs: dict[str, Any] = json.loads(source.readline() or b"{}")
    sink.write(json.dumps({n: vl_convert.vegalite_to_svg(s) for n, s in specs.items()}).encode())
    sink.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
