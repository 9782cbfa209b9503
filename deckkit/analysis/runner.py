from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from deckkit.analysis.summary import Played as Played
from deckkit.analysis.summary import Tally
from deckkit.core import workers as core
from deckkit.core.workers import DEFAULT_CHUNK as DEFAULT_CHUNK
from deckkit.core.workers import MAX_CHUNK as MAX_CHUNK
from deckkit.core.workers import PARENT_POLL_SECONDS as PARENT_POLL_SECONDS
from deckkit.core.workers import STOP_SIGNALS as STOP_SIGNALS
from deckkit.core.workers import YOUNG_THRESHOLD as YOUNG_THRESHOLD
from deckkit.core.workers import ChunkBackend as ChunkBackend
from deckkit.core.workers import ChunkResult as ChunkResult
from deckkit.core.workers import FoldFn as FoldFn
from deckkit.core.workers import ProgressFn as ProgressFn
from deckkit.core.workers import RowSink as RowSink
from deckkit.core.workers import WorkerDied as WorkerDied
from deckkit.core.workers import capped_workers as capped_workers
from deckkit.core.workers import chunk_size_for as chunk_size_for
from deckkit.core.workers import chunks as chunks
from deckkit.core.workers import chunks_played_by as chunks_played_by
from deckkit.core.workers import default_workers as default_workers
from deckkit.core.workers import fewer_collections as fewer_collections
from deckkit.core.workers import shared_pool as shared_pool

if TYPE_CHECKING:  # polars is imported only where rows are built, keeping worker start-up light
    import polars as pl

_terminate = core.terminate  # the name tests and tools know it by

# One row per game, in this column order, for --out; then one column per card counter the run
# saw, named by COUNTER_PREFIX + "card id:stat" (e.g. "n:am033:combats"), sorted, zero when the
# counter stayed at 0 in that game. The counters let a report rebuild the run's tally exactly.
ROW_COLUMNS: tuple[tuple[str, str], ...] = (
    ("index", "Int64"),
    ("outcome", "String"),
    ("turns", "Int64"),
    ("items_in_play", "Int64"),
    ("items_retrieved", "Int64"),
    ("items_lost", "Int64"),
    ("end_reason", "String"),
)
COUNTER_PREFIX = "n:"
Counters = dict[tuple[str, str], int]
Row = tuple[int, str, int, int, int, int, str, Counters]


class PlayFn(Protocol):
    """Plays game ``index`` of a run seeded ``seed``; deterministic in ``(seed, index)``."""

    def __call__(self, seed: int, index: int) -> Played: ...


class GameFactory(Protocol):
    """Builds a :class:`PlayFn` (deck setup, policy) once per process. Must be picklable, since
    it is sent to every worker."""

    def __call__(self) -> PlayFn: ...


def row_of(record: Played) -> Row:
    """The per-game row written by ``--out``."""
    return (
        record.index,
        record.outcome,
        record.turns,
        record.items_in_play,
        record.items_retrieved,
        record.items_lost,
        record.end_reason,
        {(card_id, str(stat)): n for (card_id, stat), n in record.counters.items() if n},
    )


def counter_column(card_id: str, stat: str) -> str:
    """The per-game column of one card counter."""
    return f"{COUNTER_PREFIX}{card_id}:{stat}"


def rows_frame(rows: list[Row]) -> pl.DataFrame:
    """Per-game rows as a polars frame: the fixed columns (present even for an empty run), then
    the counters, in an order that depends only on which counters occurred."""
    import polars as pl

    schema = {name: getattr(pl, dtype) for name, dtype in ROW_COLUMNS}
    frame = pl.DataFrame([row[:-1] for row in rows], schema=schema, orient="row")
    keys = sorted({key for row in rows for key in row[-1]})
    if not keys:
        return frame
    counters = pl.DataFrame(
        {
            counter_column(*key): pl.Series([row[-1].get(key, 0) for row in rows], dtype=pl.Int64)
            for key in keys
        }
    )
    return frame.hstack(counters)


class AniMayhemRecords:
    """Ani-Mayhem's records as the runner folds them: into a :class:`Tally`, and into rows."""

    def tally(self) -> Tally:
        return Tally()

    def row(self, record: Played) -> Row:
        return row_of(record)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AniMayhemRecords)

    def __hash__(self) -> int:
        return hash(AniMayhemRecords)


RECORDS = AniMayhemRecords()


@dataclass(frozen=True, slots=True)
class RunResult:
    """A finished (or interrupted) run: the tally of completed games and, if asked, their rows
    in game order."""

    tally: Tally
    rows: pl.DataFrame | None
    games_requested: int
    seed: int
    workers: int
    interrupted: bool
    seconds: float

    @property
    def games_per_second(self) -> float | None:
        return self.tally.games / self.seconds if self.seconds > 0 else None


def play_chunk(
    play: PlayFn,
    seed: int,
    start: int,
    stop: int,
    keep_rows: bool,
    kind: core.RecordKind = RECORDS,
) -> ChunkResult:
    """Play games ``start..stop-1`` and tally them (Ani-Mayhem's records unless ``kind`` says
    another game's)."""
    return core.play_chunk(play, kind, seed, start, stop, keep_rows)


def run_games(
    factory: GameFactory,
    *,
    games: int,
    seed: int,
    workers: int = 1,
    keep_rows: bool = False,
    row_sink: RowSink | None = None,
    progress: ProgressFn | None = None,
    chunk_size: int | None = None,
    mp_context: str = "spawn",
    first: int = 0,
) -> RunResult:
    """Play games ``first..first+games-1`` of the run seeded ``seed`` and tally them.

    ``first`` lets a caller extend a run in batches (game ``i`` is the same game whatever batch
    plays it), as the impact estimates do until their intervals are narrow enough.

    ``workers=1`` plays in this process; more start a pool of that many processes ("spawn" by
    default: safe with the threads polars and numpy start, and the same on every platform).
    The tally, and the rows when ``keep_rows``, do not depend on ``workers`` or ``chunk_size``.
    With a ``row_sink`` the rows go to it as chunks finish instead of into the result.
    Inside :func:`chunks_played_by` the chunks go to that backend and ``workers`` is ignored
    (the result's ``workers`` is then the backend's slots).
    """
    played = core.play_games(
        factory,
        RECORDS,
        games=games,
        seed=seed,
        workers=workers,
        keep_rows=keep_rows,
        row_sink=row_sink,
        progress=progress,
        chunk_size=chunk_size,
        mp_context=mp_context,
        first=first,
    )
    rows = played.rows
    return RunResult(
        tally=played.tally,
        rows=None if rows is None else rows_frame(rows),
        games_requested=games,
        seed=seed,
        workers=played.workers,
        interrupted=played.interrupted,
        seconds=played.seconds,
    )
