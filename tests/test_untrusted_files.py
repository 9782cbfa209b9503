"""Every file a user can hand deckkit is read with the bounds deck files have: card databases,
effects files, balance files and baselines. A FIFO, a device, a huge file or TOML nested beyond
reason ends at once in one line naming the file, never a hang, a MemoryError or a
RecursionError; a hand-edited baseline missing what the replay needs is named as damaged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animayhem.construction.carddb import card_db_dir
from deckkit.cli.main import app
from deckkit.errors import DeckkitError

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"
BALANCE = REPO / "reports" / "balance.toml"


def deckkit(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckkit", *map(str, args)],
        capture_output=True, text=True, cwd=REPO, timeout=60, env={**os.environ, **(env or {})},
    )  # fmt: skip


def deckkit_here(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """`deckkit ARGS` in this process, a deckkit error mapped as the console script maps it
    (deckkit.cli.main.run: its exit code and one `error:` line); any other exception is raised
    (the script would end in a traceback). No interpreter start-up: for the checks whose
    reading happens inside deckkit's own code, with one case of each kept on the script."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    err = result.exception
    if isinstance(err, DeckkitError):
        return subprocess.CompletedProcess(args, err.exit_code, "", f"error: {err.render()}\n")
    if err is not None and not isinstance(err, SystemExit):
        raise err
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def deckkit_guarded(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """:func:`deckkit_here` in a thread given the console script's 60 seconds: a read that
    blocks (a FIFO nobody writes) or never ends fails the test instead of hanging the run. For
    the cases of each behaviour past the one kept on the console script."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["done"] = deckkit_here(*args)
        except BaseException as err:  # re-raised in the test's thread
            box["error"] = err

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(60)
    if thread.is_alive():
        pytest.fail(f"deckkit {' '.join(map(str, args))} still running after 60 s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["done"]  # type: ignore[return-value]


def plant(path: Path, kind: str) -> None:
    """Put something that is not a reasonable file at ``path``."""
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)  # nobody ever writes: reading it would block forever
    elif kind == "device":
        path.symlink_to("/dev/zero")  # never ends
    elif kind == "directory":
        path.mkdir()
    elif kind == "huge":
        with path.open("wb") as handle:
            handle.truncate(17 << 20)  # sparse: costs no disk
    elif kind == "deep":
        path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    else:
        raise AssertionError(kind)


def run_for(kind: str, script: bool = False) -> Callable[..., subprocess.CompletedProcess[str]]:
    """For what could block or recurse without end (a FIFO, a device, deep nesting): the console
    script (a fresh process with its own timeout and stack) for one file kind of each, named by
    ``script`` (the card database's FIFO and device, the balance file's nesting), this process
    under a time limit for the others; this process for the rest (a directory, a huge file:
    refused by deckkit's own reading, no interpreter start-up)."""
    if kind in ("directory", "huge"):
        return deckkit_here
    return deckkit if script else deckkit_guarded


def one_clear_line(done: subprocess.CompletedProcess[str], code: int, path: Path) -> None:
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert done.stderr.startswith(f"error: {path}"), done.stderr


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "huge"])
def test_a_card_database_that_is_not_a_file_fails_fast(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "db"
    shutil.copytree(card_db_dir(), db)
    csv_path = db / "animayhem" / "cards.csv"
    plant(csv_path, kind)
    started = time.monotonic()
    done = run_for(kind, script=True)("--card-db", db, "validate", DECK)
    assert time.monotonic() - started < 30
    one_clear_line(done, 3, csv_path)


@pytest.mark.parametrize("kind", ["fifo", "device", "huge", "deep"])
def test_an_effects_file_that_is_not_an_effects_file_fails_fast(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "db"
    shutil.copytree(card_db_dir(), db)
    bad = db / "animayhem" / "effects" / "zz-planted.toml"
    plant(bad, kind)
    done = run_for(kind)("--card-db", db, "validate", DECK)
    one_clear_line(done, 3, bad)


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "huge", "deep"])
def test_a_balance_file_that_is_not_a_balance_file_fails_fast(tmp_path: Path, kind: str) -> None:
    file = tmp_path / "balance.toml"
    plant(file, kind)
    done = run_for(kind, script=kind == "deep")("balance", "check", file, "-q")
    one_clear_line(done, 2, file)


def _drift_setup(tmp_path: Path) -> tuple[Path, Path, dict[str, object]]:
    """A balance file with one drift check and a copy of its shipped baseline."""
    file = tmp_path / "balance.toml"
    file.write_text(
        f'[[check]]\nname = "medium-solo drift"\ndeck = "{REPO / "decks" / "medium-solo.deck"}"\n'
        "max_drop = 0.05\nbudget = 20\nseed = 1\n"
    )
    baseline = tmp_path / "baselines" / "medium-solo-drift.json"
    baseline.parent.mkdir()
    record = json.loads((REPO / "reports" / "baselines" / "medium-solo-drift.json").read_text())
    return file, baseline, record


def _first_card(record: dict[str, object]) -> dict[str, object]:
    cards = record["snapshot"]["cards"]  # type: ignore[index]
    return cards[sorted(cards)[0]]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda r: _first_card(r).pop("row"), ".row must be an object of text fields"),
        (lambda r: _first_card(r).update(row="am001,Goku"), ".row must be an object"),
        (lambda r: _first_card(r).update(name=7), ".name must be text"),
        (lambda r: _first_card(r).update(effects="[broken"), ".effects is not TOML"),
        (lambda r: r["snapshot"]["deck_file"].pop("text"), "deck_file.text must be text"),  # type: ignore[index]
        (lambda r: r["snapshot"].update(cards=[]), "snapshot.cards must be an object"),  # type: ignore[attr-defined]
    ],
)
def test_a_hand_edited_baseline_is_named_as_damaged(
    tmp_path: Path, edit: object, words: str
) -> None:
    file, baseline, record = _drift_setup(tmp_path)
    edit(record)  # type: ignore[operator]
    baseline.write_text(json.dumps(record))
    # The console script for the first edit, this process for the others (the same reading).
    first = words == ".row must be an object of text fields"
    done = (deckkit if first else deckkit_here)("balance", "check", file, "-q")
    one_clear_line(done, 2, baseline)
    assert "its baseline is damaged" in done.stderr and words in done.stderr


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "huge", "deep"])
def test_a_baseline_that_is_not_a_baseline_fails_fast(tmp_path: Path, kind: str) -> None:
    file, baseline, _ = _drift_setup(tmp_path)
    if kind == "deep":
        baseline.write_text("[" * 100_000 + "]" * 100_000)
    else:
        plant(baseline, kind)
    done = run_for(kind)("balance", "check", file, "-q")
    one_clear_line(done, 2, baseline)
