"""A saved run (``simulate --out FILE.parquet``) read back by ``report --from`` is checked
before anything is computed from it: column types, nulls, outcomes, counts, game numbers, its
metadata and its size. Anything else is one line naming the file, exit 2, never a traceback or a
silently wrong page; and a run played with other cards than today's says so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from deckkit.analysis.results import METADATA_KEY
from deckkit.animayhem.construction.carddb import CARD_DB_ENV, card_db_dir
from deckkit.cli.main import app
from deckkit.errors import DeckkitError

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"


def deckkit(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckkit", *map(str, args)],
        capture_output=True, text=True, cwd=REPO, timeout=120, env={**os.environ, **(env or {})},
    )  # fmt: skip


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("run") / "games.parquet"
    code, err = deckkit_here("simulate", DECK, "-n", "60", "-q", "--out", path)
    assert code == 0, err
    return path


def _rewrite(
    saved: Path, tmp_path: Path, change: Callable[[pl.DataFrame, dict[str, object]], pl.DataFrame]
) -> Path:
    frame = pl.read_parquet(saved)
    meta = json.loads(pl.read_parquet_metadata(saved)[METADATA_KEY])
    frame = change(frame, meta)
    out = tmp_path / "edited.parquet"
    frame.write_parquet(out, metadata={METADATA_KEY: json.dumps(meta)})
    return out


def _set_meta(**values: object) -> Callable[[pl.DataFrame, dict[str, object]], pl.DataFrame]:
    def change(frame: pl.DataFrame, meta: dict[str, object]) -> pl.DataFrame:
        meta.update(values)
        return frame

    return change


def _col(expr: pl.Expr) -> Callable[[pl.DataFrame, dict[str, object]], pl.DataFrame]:
    return lambda frame, meta: frame.with_columns(expr)


def _first_counter(frame: pl.DataFrame) -> str:
    return next(c for c in frame.columns if c.startswith("n:"))


CASES: dict[str, tuple[Callable[[pl.DataFrame, dict[str, object]], pl.DataFrame], str]] = {
    "turns as text": (_col(pl.col("turns").cast(pl.String)), "column 'turns' holds String"),
    "turns as floats": (_col(pl.col("turns").cast(pl.Float64)), "column 'turns' holds Float64"),
    "a null": (
        _col(pl.when(pl.col("index") == 3).then(None).otherwise(pl.col("turns")).alias("turns")),
        "empty (null) values",
    ),
    "a banana": (
        _col(
            pl.when(pl.col("index") == 0)
            .then(pl.lit("banana"))
            .otherwise(pl.col("outcome"))
            .alias("outcome")
        ),
        "outcomes other than win, loss, stall",
    ),
    "turns of 2^62": (_col(pl.lit(2**62, dtype=pl.Int64).alias("turns")), "counts above"),
    "negative turns": (_col(pl.lit(-5, dtype=pl.Int64).alias("turns")), "negative counts"),
    "turns past the cap": (_col(pl.lit(151, dtype=pl.Int64).alias("turns")), "turn cap"),
    "an unknown column": (_col(pl.lit(1).alias("mystery")), "unexpected column 'mystery'"),
    "an unknown counter stat": (
        _col(pl.lit(1, dtype=pl.Int64).alias("n:am001:teleports")),
        "unexpected column 'n:am001:teleports'",
    ),
    "a counter as text": (
        lambda f, m: f.with_columns(pl.col(_first_counter(f)).cast(pl.String)),
        "holds String, not Int64",
    ),
    "repeated games": (_col(pl.lit(0, dtype=pl.Int64).alias("index")), "out of order or repeated"),
    "games beyond the run": (_col(pl.col("index") + 1000), "game numbers outside 0-59"),
    "more games than asked": (_set_meta(games_requested=10), "more than its run asked for"),
    "a seed as text": (_set_meta(seed="1"), "seed must be int"),
    "a negative seed": (_set_meta(seed=-1), "seed -1 is out of range"),
    "no players": (_set_meta(players=0), "players 0 is out of range"),
    "metadata not an object": (
        lambda f, m: (m.clear(), f)[1],
        "missing",
    ),
}


# The case that runs through the console script itself, in a fresh interpreter; the others run
# in this process (deckkit_here), which spares an interpreter and the chart helper that the
# script starts early for `report --from` (deckkit/cli/launch.py) for each of them.
CONSOLE_CASE = "turns as text"


def deckkit_here(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    """`deckkit ARGS` in this process: its exit code and standard error, a deckkit error mapped
    as the console script maps it (deckkit.cli.main.run: its exit code and one `error:` line).
    Any other exception is raised: the script would end in a traceback."""
    result = CliRunner().invoke(app, [str(a) for a in args], env=env)
    err = result.exception
    if isinstance(err, DeckkitError):
        return err.exit_code, f"error: {err.render()}\n"
    if err is not None and not isinstance(err, SystemExit):
        raise err
    return result.exit_code, result.stderr


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_malformed_saved_run_is_one_clear_line(saved: Path, tmp_path: Path, case: str) -> None:
    change, words = CASES[case]
    bad = _rewrite(saved, tmp_path, change)
    if case == CONSOLE_CASE:
        done = deckkit("report", "--from", bad, "-o", tmp_path / "r.html")
        code, stderr = done.returncode, done.stderr
    else:
        code, stderr = deckkit_here("report", "--from", bad, "-o", tmp_path / "r.html")
    assert code == 2, (case, stderr)
    assert "Traceback" not in stderr
    assert stderr.startswith(f"error: {bad}"), stderr
    assert words in stderr, stderr
    assert not (tmp_path / "r.html").exists()


def test_metadata_nested_beyond_reason_is_refused(saved: Path, tmp_path: Path) -> None:
    frame = pl.read_parquet(saved)
    bad = tmp_path / "deep.parquet"
    frame.write_parquet(bad, metadata={METADATA_KEY: "[" * 100_000 + "]" * 100_000})
    code, err = deckkit_here("report", "--from", bad, "-o", tmp_path / "r.html")
    assert code == 2 and "nested too deeply" in err, err


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_a_run_of_more_games_than_a_report_reads_is_refused_from_its_footer(
    tmp_path: Path,
) -> None:
    """Sixty million tiny rows (a few MB on disk) are refused by count, before any is read."""
    from deckkit.analysis import results

    path = tmp_path / "huge.parquet"
    n = results.MAX_SAVED_GAMES + 1
    text = DECK.read_text()
    meta = {
        "deckkit_version": "0", "seed": 0, "policy": "heuristic", "edition": "guidelines1998",
        "variant": "standard", "layout": "compact", "players": 1, "turn_cap": 150,
        "games_requested": n, "interrupted": False, "deck_name": "Solo demo",
        "deck_path": str(DECK), "deck_sha256": results.deck_hash(text), "deck_text": text,
    }  # fmt: skip
    pl.LazyFrame().select(pl.int_range(0, n, dtype=pl.Int64).alias("index")).with_columns(
        pl.lit("win").alias("outcome"), pl.lit(3, dtype=pl.Int64).alias("turns"),
        pl.lit(0, dtype=pl.Int64).alias("items_in_play"),
        pl.lit(0, dtype=pl.Int64).alias("items_retrieved"),
        pl.lit(0, dtype=pl.Int64).alias("items_lost"), pl.lit("won").alias("end_reason"),
    ).sink_parquet(path, metadata={METADATA_KEY: json.dumps(meta)})  # fmt: skip
    code, err = deckkit_here("report", "--from", path, "-o", tmp_path / "r.html")
    assert code == 2, err
    assert "more than a report reads" in err


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_saved_run_that_is_not_a_file_fails_fast(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "run.parquet"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    if kind == "fifo":  # could block: the console script, with its timeout
        done = deckkit("report", "--from", path, "-o", tmp_path / "r.html")
        code, err = done.returncode, done.stderr
    else:  # refused by deckkit's own reading: this process, no interpreter start-up
        code, err = deckkit_here("report", "--from", path, "-o", tmp_path / "r.html")
    assert code == 2, err
    assert "not a regular file" in err or "a directory" in err


def test_a_run_played_with_todays_cards_gives_no_warning(saved: Path, tmp_path: Path) -> None:
    code, err = deckkit_here("report", "--from", saved, "-o", tmp_path / "a.html")
    assert code == 0, err
    assert "card database" not in err


def test_a_run_played_with_other_cards_says_so(saved: Path, tmp_path: Path) -> None:
    db = tmp_path / "db"
    shutil.copytree(card_db_dir(), db)
    csv_path = db / "animayhem" / "cards.csv"
    csv_path.write_text(csv_path.read_text() + "\n")  # any change at all
    code, err = deckkit_here("report", "--from", saved, "-o", tmp_path / "b.html",
                             env={CARD_DB_ENV: str(db)})  # fmt: skip
    assert code == 0, err
    assert "warning: the card database changed since this run was played" in err
