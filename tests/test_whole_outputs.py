"""Outputs are whole or not at all, in every command: a full disk, a dangling link, an
unwritable directory, a stop signal or a crashing chart renderer never leaves half a report, an
orphan sidecar or a replaced page, and each ends with its own exit code (5: cannot write)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.test_faults import _wait_for_workers, reaper

__all__ = ["reaper"]

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"
Preexec = Callable[[], None] | None


def deckkit(
    *args: str | Path, preexec: Preexec = None, cwd: Path = REPO
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckkit", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, timeout=120, preexec_fn=preexec,
    )  # fmt: skip


def deckkit_here(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """The command in this process (CliRunner), as :func:`deckkit` reports it: for the checks
    that need no process of their own (no signal, no resource limit), at a fraction of the
    cost of starting one."""
    from typer.testing import CliRunner

    from deckkit.cli.main import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[tuple[Path, Preexec]]:
    """A directory on a 48 KiB tmpfs (room for a report's sidecar, not for its page). Where
    mounting is not allowed, a 40 KiB file size limit on the command fails the same writes."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", str(disk)], capture_output=True
        ).returncode
        == 0
    )
    if mounted:
        yield disk, None
        subprocess.run(["umount", str(disk)], check=True)
    else:

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (40 << 10, 40 << 10))

        yield disk, limit


def exit_5_and_nothing_left(done: subprocess.CompletedProcess[str], where: Path) -> None:
    assert done.returncode == 5, done.stderr
    assert "Traceback" not in done.stderr
    assert "error: " in done.stderr and "cannot" in done.stderr
    assert sorted(p.name for p in where.iterdir() if p.name != "keep") == []


# The console script on a small filesystem: end to end, in make test-slow (run by CI).
@pytest.mark.slow
def test_report_on_a_full_disk_leaves_no_orphan_sidecar(
    small_disk: tuple[Path, Preexec],
) -> None:
    disk, preexec = small_disk
    done = deckkit("report", DECK, "-n", "10", "-q", "-o", disk / "r.html", preexec=preexec)
    exit_5_and_nothing_left(done, disk)


# A real process on a full disk: end to end, in make test-slow (run by CI), as the report's page
# and sidecar above (the same paired write, deckkit.analysis.output.write_together).
@pytest.mark.slow
def test_compare_html_on_a_full_disk_leaves_no_orphan_sidecar(
    small_disk: tuple[Path, Preexec],
) -> None:
    disk, preexec = small_disk
    (disk / "keep").write_bytes(b"x" * (14 << 10))  # leave room for the sidecar only
    done = deckkit(
        "compare", DECK, "--policy-b", "random", "-n", "10", "--html", disk / "c.html",
        preexec=preexec,
    )  # fmt: skip
    exit_5_and_nothing_left(done, disk)


# 1,500 games in a real process on a full disk: end to end (make test-slow, run by CI); make test
# keeps --out's old file under a file size limit (test_faults.py).
@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_out_on_a_full_disk_is_exit_5_and_keeps_the_old_file(
    small_disk: tuple[Path, Preexec], suffix: str
) -> None:
    disk, preexec = small_disk
    out = disk / f"games{suffix}"
    out.write_text("precious\n")
    done = deckkit(
        "simulate", DECK, "-n", "1500", "-q", "-o", out, "--force", "-f", "json", preexec=preexec
    )
    assert done.returncode == 5, done.stderr
    assert "Traceback" not in done.stderr
    assert "nothing was written" in done.stderr or "cannot keep the per-game rows" in done.stderr
    assert out.read_text() == "precious\n"
    assert [p.name for p in disk.iterdir()] == [out.name]


def test_a_failed_page_restores_the_files_it_was_replacing(tmp_path: Path) -> None:
    """--force over an existing page and sidecar: when the page cannot be written, the old
    sidecar comes back rather than a new one beside an old page."""
    from deckkit.analysis.output import write_together
    from deckkit.errors import CannotWrite

    page, sidecar = tmp_path / "r.html", tmp_path / "r.json"
    page.write_text("old page")
    sidecar.write_text("old numbers")

    def full(handle: object) -> None:
        raise OSError(28, "No space left on device")

    def fine(handle: object) -> None:
        handle.write(b"new numbers")  # type: ignore[attr-defined]

    with pytest.raises(CannotWrite) as info:
        write_together([(sidecar, fine), (page, full)], force=True)
    assert info.value.exit_code == 5
    assert (page.read_text(), sidecar.read_text()) == ("old page", "old numbers")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json"]


def test_a_dangling_link_as_the_page_is_refused_before_any_game(tmp_path: Path) -> None:
    link = tmp_path / "r.html"
    link.symlink_to(tmp_path / "nowhere.html")
    started = time.monotonic()
    done = deckkit_here("report", DECK, "-n", "100000", "-q", "-o", link)
    assert done.returncode == 2, done.stderr
    assert "refusing to overwrite" in done.stderr
    assert time.monotonic() - started < 20  # no games played
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


@pytest.mark.parametrize("command", ["report", "compare"])
def test_an_unwritable_page_directory_is_found_before_any_game(command: str) -> None:
    page = Path("/proc/r.html")
    if command == "report":
        done = deckkit_here("report", DECK, "-n", "100000", "-o", page)
    else:
        done = deckkit_here("compare", DECK, "--policy-b", "random", "-n", "100000", "--html", page)
    assert done.returncode == 2, done.stderr
    assert "cannot write in the directory" in done.stderr
    assert done.stdout == ""


@pytest.mark.slow  # a real report stopped by a signal: end to end (make test-slow, run by CI)
def test_a_stopped_report_never_replaces_the_page(
    tmp_path: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    page, sidecar = tmp_path / "r.html", tmp_path / "r.json"
    page.write_text("old page")
    sidecar.write_text("old numbers")
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckkit", "report", str(DECK), "-n", "2000000", "-w", "2",
         "-q", "-o", str(page), "--force"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
        start_new_session=True,
    )  # fmt: skip
    reaper.append(proc)
    _wait_for_workers(proc)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "left as it was" in err
    assert (page.read_text(), sidecar.read_text()) == ("old page", "old numbers")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json"]


@pytest.mark.slow  # a real report whose renderer aborts: end to end (make test-slow, run by CI)
def test_a_chart_renderer_that_aborts_costs_the_charts_not_the_page(tmp_path: Path) -> None:
    """Under ``ulimit -v`` vl-convert's JavaScript engine aborts; the page is still written."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    page = tmp_path / "r.html"
    done = deckkit("report", DECK, "-n", "10", "-q", "-o", page, preexec=limit)
    assert done.returncode == 0, done.stderr
    assert page.exists() and page.with_suffix(".json").exists()
    html = page.read_text()
    assert "<svg" in html or "could not be drawn" in html  # drawn, or a note in its place


def test_a_dead_chart_helper_falls_back_to_drawing_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper dies before reading: sending fails, and closing its pipe (which flushes the
    buffered request once more) fails again; the report draws its charts itself, rather than
    ending as a broken pipe (exit 141) with no page."""
    from deckkit.report import chart_process, charts
    from deckkit.report.chart_process import ChartProcess

    monkeypatch.setattr(charts, "_drawn_here", False)
    monkeypatch.setattr(chart_process, "_helper_started", False)
    monkeypatch.setattr(chart_process, "_early", None)
    monkeypatch.setattr(chart_process, "helper_command", lambda: [sys.executable, "-c", ""])
    spec = charts.outcome_chart({k: {"count": 1, "rate": 0.5, "ci": [0.1, 0.9]}
                                 for k in ("win", "loss", "stall")})  # fmt: skip
    big = {"outcomes": spec}  # small: it waits in the pipe's buffer, flushed again at close
    with ChartProcess() as drawer:
        assert drawer._proc is not None
        drawer._proc.wait(timeout=60)  # the helper has exited
        drawer.send(big)
        svgs = drawer.receive()
    assert set(svgs) == set(big) and all("<svg" in svg for svg in svgs.values())


def test_samples_never_follow_a_planted_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "tour"
    (target / "decks").mkdir(parents=True)
    (target / "decks" / ".demo-solo.deck.partial").symlink_to(victim)
    done = deckkit_here("samples", target)
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "precious\n"
    assert (target / "decks" / "demo-solo.deck").read_text() == DECK.read_text()
    leftovers = [p.name for p in (target / "decks").iterdir() if p.name.endswith(".partial")]
    assert leftovers == [".demo-solo.deck.partial"]  # the planted link only, untouched


def test_samples_on_a_full_disk_leave_no_partial_file(small_disk: tuple[Path, Preexec]) -> None:
    disk, preexec = small_disk
    done = deckkit("samples", disk, preexec=preexec)
    assert done.returncode == 5, done.stderr
    assert "Traceback" not in done.stderr
    partial = [str(p) for p in disk.rglob("*") if "partial" in p.name]
    assert partial == []


def test_names_with_bidi_overrides_are_isolated_in_pages() -> None:
    from deckkit.report.render import environment

    template = environment().from_string("<td>{{ name }}</td> wins")
    html = template.render(name="evil\u202eniw")
    assert html == "<td>\u2068evil\u202eniw\u2069</td> wins"
    assert environment().from_string("{{ n }}").render(n="plain") == "plain"


# The console script on a small filesystem: end to end, in make test-slow (run by CI).
@pytest.mark.slow
def test_junit_on_a_full_disk_is_exit_5(small_disk: tuple[Path, Preexec], tmp_path: Path) -> None:
    disk, preexec = small_disk
    if preexec is None:
        (disk / "keep").write_bytes(b"x" * (48 << 10))  # the disk is full
    else:

        def preexec() -> None:  # no file over 100 bytes
            resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))

    balance = tmp_path / "balance.toml"
    balance.write_text(f'[[check]]\nname = "b"\ndeck = "{DECK}"\nband = [0.8, 1.0]\nbudget = 3\n')
    done = deckkit("balance", "check", balance, "-q", "--junit", disk / "j.xml", preexec=preexec)
    assert done.returncode == 5, done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in disk.iterdir() if p.name != "keep") == []
