"""A run's memory does not grow with its length when its rows are kept: they go to disk as the
games finish (:class:`deckkit.analysis.rowspool.RowSpool`), in game order, and come back as a
lazy frame equal to the rows held in memory."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import polars as pl
import pytest
from fakes import FakeEngine

from deckkit.analysis.results import tally_of_frame
from deckkit.analysis.rowspool import RowSpool
from deckkit.analysis.runner import chunks, play_chunk, rows_frame, run_games

ENGINE = FakeEngine()


def test_spooled_rows_equal_rows_held_in_memory_for_any_workers(tmp_path: Path) -> None:
    held = run_games(ENGINE, games=900, seed=3, workers=1, keep_rows=True)
    assert held.rows is not None
    for workers in (1, 2):
        with RowSpool(tmp_path / "games.parquet", part_games=100) as spool:
            result = run_games(ENGINE, games=900, seed=3, workers=workers, row_sink=spool)
            assert result.rows is None and result.tally == held.tally
            frame = spool.frame().collect()
            assert len(spool.parts) > 2  # written as it came, in parts
        assert frame.equals(held.rows), workers
        assert tally_of_frame(frame) == held.tally
    assert list(tmp_path.iterdir()) == []  # the parts are gone with the spool


def test_chunks_arriving_in_any_order_are_put_back_in_game_order(tmp_path: Path) -> None:
    play = ENGINE()
    results = [play_chunk(play, 7, a, b, True) for a, b in chunks(1000, 40)]
    shuffled = results[:]
    random.Random(1).shuffle(shuffled)
    with RowSpool(tmp_path / "x.csv", part_games=150) as spool:
        for chunk in shuffled:
            assert chunk.rows is not None
            spool.add(chunk.start, chunk.rows)
        frame = spool.frame().collect()
    expected = rows_frame([row for chunk in results for row in chunk.rows or []])
    assert frame.equals(expected)


def _peak_python_memory(games: int, tmp_path: Path, part_games: int = 1_000) -> int:
    tracemalloc.start()
    try:
        with RowSpool(tmp_path / "games.parquet", part_games=part_games) as spool:
            run_games(ENGINE, games=games, seed=1, workers=1, row_sink=spool)
            spool.close()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# 7,500 games under tracemalloc: `make test-slow`. Smaller runs do not tell (at 300 and 1,200
# games a spool that kept every row grew by 1.22x, a flat one by 1.31x); the spool's order
# and contents stay in the fast suite (the tests above).
@pytest.mark.slow
def test_memory_for_the_rows_stays_flat_as_a_run_grows(tmp_path: Path) -> None:
    """Four times the games, about the same peak: the rows of a few thousand games at most are
    in memory at once (holding every row costs kilobytes a game)."""
    small = _peak_python_memory(1_500, tmp_path)
    large = _peak_python_memory(6_000, tmp_path)
    assert large < 1.3 * small, (small, large)


def test_a_spool_that_cannot_be_written_is_exit_5(tmp_path: Path) -> None:
    import pytest

    from deckkit.errors import CannotWrite

    with pytest.raises(CannotWrite) as info:
        RowSpool(tmp_path / "missing-dir" / "games.parquet")
    assert info.value.exit_code == 5
    assert pl is not None
