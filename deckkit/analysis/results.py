"""A saved run: per-game rows plus the metadata that says how to play them again.

``deckkit simulate --out FILE.parquet`` and ``deckkit report`` write the per-game rows of
:func:`deckkit.analysis.runner.rows_frame` with a :class:`RunMetadata` in the Parquet file's
key-value metadata (CSV has no place for it), so ``deckkit report --from FILE.parquet`` can
rebuild the run's exact :class:`~deckkit.analysis.summary.Tally`, the deck (its text is kept,
with its hash) and the command that reproduces it, without playing a game.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit.analysis.matches import RUN_METADATA_KEY
from deckkit.analysis.runner import COUNTER_PREFIX, ROW_COLUMNS
from deckkit.analysis.summary import CounterKey, Tally
from deckkit.errors import UsageError
from deckkit.games import card_runs
from deckkit.textsafe import shown_inline
from deckkit.untrusted import check_regular, parse_json, read_bytes

if TYPE_CHECKING:  # polars is imported where frames are read or built
    import polars as pl

METADATA_KEY = "deckkit.run"


def card_db_hash(path: Path | None = None) -> str:
    """SHA-256 over the card database a run plays with (its cards.csv and effect files, by
    name and content), so a saved run can tell whether today's cards are still those."""
    from deckkit.errors import CardDataError

    files = card_runs().card_db_files(path)
    digest = hashlib.sha256()
    for file in files:
        data = read_bytes(file, what="card database", error=CardDataError)
        digest.update(f"{file.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def deck_hash(text: str) -> str:
    """SHA-256 of the deck file's text: what a saved run was played with."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# Bounds on a saved run, checked before it is read: beyond them a file is not a run deckkit
# wrote (and would cost memory or overflow the sums). A report reads a saved run's rows in
# columns of a few bytes a game, so ten million games stay within a few hundred megabytes.
MAX_SAVED_GAMES = 10_000_000
MAX_COUNT = 1_000_000  # no game has a million turns, items or combats
MAX_METADATA_CHARS = 4 << 20
MAX_COLUMNS = 5_000
OUTCOMES = ("win", "loss", "stall", "undecided")


@dataclass(frozen=True, slots=True)
class RunMetadata:
    """Everything needed to say what a run was and to play it again."""

    deckkit_version: str
    seed: int
    policy: str
    edition: str
    variant: str
    layout: str
    players: int
    turn_cap: int
    games_requested: int
    interrupted: bool
    deck_name: str
    deck_path: str
    deck_sha256: str
    deck_text: str
    # Every rule option's value (animayhem.construction.readings); absent from files written
    # before rule options existed, which played the defaults of their time.
    rules: dict[str, str] = field(default_factory=dict)
    # The card database the run was played with (cards.csv and its effect files); None in runs
    # saved before it was recorded.
    card_db_sha256: str | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, path: Path) -> RunMetadata:
        hint = "write it again with `deckkit simulate DECK --out FILE.parquet`"
        if len(text) > MAX_METADATA_CHARS:
            raise UsageError("the run metadata in this file is too large", path=path, hint=hint)
        try:
            raw = parse_json(text, path, what="run metadata", error=UsageError)
        except UsageError as err:
            raise UsageError(
                f"the run metadata in this file is damaged ({err.message})", path=path, hint=hint
            ) from None
        problem = _metadata_problem(raw)
        if problem is not None:
            raise UsageError(
                f"the run metadata in this file is damaged ({problem})", path=path, hint=hint
            )
        present = {f.name: raw[f.name] for f in fields(cls) if f.name in raw}
        meta = cls(**{"card_db_sha256": None, **present})
        if deck_hash(meta.deck_text) != meta.deck_sha256:
            raise UsageError(
                "the deck kept in this file does not match its hash", path=path, hint=None
            )
        return meta

    def command(self) -> str:
        """The `deckkit report` command line that plays this run again."""
        args = [
            "deckkit",
            "report",
            self.deck_path,
            "--games",
            str(self.games_requested),
            "--seed",
            str(self.seed),
            "--policy",
            self.policy,
            "--edition",
            self.edition,
            "--variant",
            self.variant,
            "--layout",
            self.layout,
            "--turn-cap",
            str(self.turn_cap),
        ]
        for name in sorted(self.rules):  # saved with sorted keys: the same line either way
            args += ["--rule", f"{name}={self.rules[name]}"]
        return shlex.join(args)

    def as_dict(self) -> dict[str, Any]:
        """For JSON documents: everything but the deck's text."""
        out = asdict(self)
        del out["deck_text"]
        return out


def _metadata_problem(raw: object) -> str | None:
    """What is wrong with a saved run's metadata (every field, its type and its range)."""
    if not isinstance(raw, dict):
        return "not a JSON object"
    kinds: dict[str, type] = {
        "deckkit_version": str, "seed": int, "policy": str, "edition": str, "variant": str,
        "layout": str, "players": int, "turn_cap": int, "games_requested": int,
        "interrupted": bool, "deck_name": str, "deck_path": str, "deck_sha256": str,
        "deck_text": str,
    }  # fmt: skip
    missing = sorted(set(kinds) - set(raw))
    if missing:
        return f"missing {', '.join(missing)}"
    for name, kind in kinds.items():
        value = raw[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"{name} must be {kind.__name__}, not {value!r}"[:200]
    rules = raw.get("rules", {})  # absent from runs saved before rule options existed
    if not isinstance(rules, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in rules.items()
    ):
        return "rules must be a table of option names to values"
    db = raw.get("card_db_sha256")
    if db is not None and not isinstance(db, str):
        return f"card_db_sha256 must be str, not {db!r}"[:200]
    ranges = {
        "seed": (0, 2**63 - 1),
        "players": (1, 99),
        "turn_cap": (1, MAX_COUNT),
        "games_requested": (0, 2**63 - 1),
    }
    for name, (lo, hi) in ranges.items():
        if not lo <= raw[name] <= hi:
            return f"{name} {raw[name]} is out of range {lo}-{hi}"
    game = card_runs()
    if len(raw["deck_text"]) > game.max_file_bytes:
        return "the deck kept in it is larger than a deck file may be"
    # A policy, layout, edition or variant this deckkit does not know (a file from a newer
    # version, or edited by hand): said here, naming the file, rather than by the engine.
    return game.unknown_setting(raw)


@dataclass(frozen=True)
class SavedRun:
    """A saved run, checked: its rows (read lazily, column by column, as they are used), its
    metadata and its number of games."""

    rows: pl.LazyFrame
    metadata: RunMetadata
    games: int


def open_results(
    path: Path, before_values: Callable[[pl.LazyFrame, int, Path], None] | None = None
) -> SavedRun:
    """A saved run, with every column and value checked against what deckkit writes, before
    anything is computed from it; a clear usage error (exit 2) naming the file otherwise.
    ``before_values`` is called with the rows, their number and the path once the metadata and
    columns are checked, before the values are read (to refuse a run too large for a use)."""
    if path.suffix.lower() != ".parquet":
        raise UsageError(
            "--from needs a .parquet file (CSV has no room for the run's metadata)",
            path=path,
            hint="write one with `deckkit simulate DECK --out FILE.parquet`",
        )
    if not (path.exists() or path.is_symlink()):
        raise UsageError("no such file", path=path)
    check_regular(path, what="saved run")
    import polars as pl

    try:
        kv = pl.read_parquet_metadata(path)
        schema = pl.read_parquet_schema(path)
        games = int(pl.scan_parquet(path).select(pl.len()).collect().item())
    except Exception as err:  # polars raises its own error types for a damaged file
        raise UsageError(f"not a readable Parquet file ({_first_line(err)})", path=path) from None
    if METADATA_KEY not in kv and RUN_METADATA_KEY in kv:
        _refuse_other_game(kv[RUN_METADATA_KEY], path)
    if METADATA_KEY not in kv:
        raise UsageError(
            "this Parquet file has no deckkit run metadata",
            path=path,
            hint="write it with `deckkit simulate DECK --out FILE.parquet` or `deckkit report`",
        )
    meta = RunMetadata.from_json(kv[METADATA_KEY], path)
    _check_columns(schema, path)
    if games > min(MAX_SAVED_GAMES, meta.games_requested):
        raise UsageError(
            f"this file holds {games:,} games, more than "
            + (
                f"its run asked for ({meta.games_requested:,})"
                if games > meta.games_requested
                else f"a report reads ({MAX_SAVED_GAMES:,})"
            ),
            path=path,
        )
    rows = pl.scan_parquet(path)
    if before_values is not None:
        before_values(rows, games, path)
    _check_values(rows, schema, meta, path)
    return SavedRun(rows, meta, games)


def _refuse_other_game(text: str, path: Path) -> None:
    """A saved run of a game played through its interface is no deck's run: refused as the
    command x game table says (exit 9) where ``report --from`` does not serve its game, else a
    usage error naming the game (its page comes from ``report --from``, through
    :mod:`deckkit.analysis.saved_matches`); a damaged record is a usage error."""
    from deckkit import games

    raw = parse_json(text[:MAX_METADATA_CHARS], path, what="run metadata", error=UsageError)
    name = raw.get("game") if isinstance(raw, dict) else None
    game = games.find_game(name) if isinstance(name, str) else None
    if game is None:
        raise UsageError("the run metadata in this file names no known game", path=path)
    refused = games.refusal("report --from", game)
    if refused is not None:
        raise refused
    raise UsageError(
        f"this file holds the saved rows of a {game.title} run, not of an Ani-Mayhem deck",
        path=path,
        hint=f"draw its page with `deckkit report --from {path}`",
    )


def read_results(path: Path) -> tuple[pl.DataFrame, RunMetadata]:
    """The rows (all in memory: for small runs) and metadata of a saved run, checked."""
    run = open_results(path)
    return run.rows.collect(), run.metadata


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0][:300] if text else type(err).__name__


def _check_columns(schema: Mapping[str, Any], path: Path) -> None:
    """The fixed columns with their types, then only well-formed counter columns."""
    import polars as pl

    if len(schema) > MAX_COLUMNS:
        raise UsageError(f"this file has {len(schema):,} columns: not a saved run", path=path)
    missing = [name for name, _ in ROW_COLUMNS if name not in schema]
    if missing:
        raise UsageError(f"per-game columns missing: {', '.join(missing)}", path=path)
    for name, dtype in ROW_COLUMNS:
        if schema[name] != getattr(pl, dtype):
            raise UsageError(f"column {name!r} holds {schema[name]}, not {dtype}", path=path)
    fixed = {name for name, _ in ROW_COLUMNS}
    known = card_runs().counters
    for name, dtype in schema.items():
        if name in fixed:
            continue
        key = counter_key(name, known)
        if key is None:
            raise UsageError(
                f"unexpected column {shown_inline(name[:80])!r}",
                path=path,
                hint=f"a saved run has {', '.join(sorted(fixed))} and card counters "
                f"({COUNTER_PREFIX}CARD:STAT)",
            )
        if dtype != pl.Int64:
            raise UsageError(f"column {name!r} holds {dtype}, not Int64", path=path)


def counter_key(name: str, counters: frozenset[str] | None = None) -> CounterKey | None:
    """(card id, stat) of a counter column's name, or None when it is not one (its stat none
    of ``counters``, by default the game's)."""
    if not name.startswith(COUNTER_PREFIX):
        return None
    card_id, _, stat = name[len(COUNTER_PREFIX) :].rpartition(":")
    known = card_runs().counters if counters is None else counters
    if not card_id or len(card_id) > 64 or stat not in known:
        return None
    return card_id, stat


def _check_values(
    rows: pl.LazyFrame, schema: Mapping[str, Any], meta: RunMetadata, path: Path
) -> None:
    """No nulls, known outcomes, games in order and counts in range: one pass over the file."""
    import polars as pl

    counts = [name for name in schema if name not in {"index", "outcome", "end_reason"}]
    # Column by column aggregates the streaming engine computes a slice of the file at a time,
    # whatever its length; the order check reads the index column alone (8 bytes a game).
    checks = [
        *(pl.col(n).null_count().alias(f"nulls{i}") for i, n in enumerate(schema)),
        (~pl.col("outcome").is_in(OUTCOMES)).sum().alias("bad_outcomes"),
        pl.col("index").min().alias("index_min"),
        pl.col("index").max().alias("index_max"),
        pl.col("end_reason").str.len_chars().max().alias("reason_len"),
        *(pl.col(n).min().alias(f"min{i}") for i, n in enumerate(counts)),
        *(pl.col(n).max().alias(f"max{i}") for i, n in enumerate(counts)),
        pl.col("turns").max().alias("turns_max"),
    ]
    try:
        got = rows.select(checks).collect(engine="streaming").row(0, named=True)
        order = rows.select(
            pl.col("index").diff().min().alias("index_step"),
            pl.col("end_reason").n_unique().alias("reasons"),
        ).collect()
    except Exception as err:  # a file whose pages do not decode
        raise UsageError(f"not a readable Parquet file ({_first_line(err)})", path=path) from None
    mins = [got[f"min{i}"] for i in range(len(counts)) if got[f"min{i}"] is not None]
    maxes = [got[f"max{i}"] for i in range(len(counts)) if got[f"max{i}"] is not None]
    found = {
        **got,
        **order.row(0, named=True),
        "nulls": sum(got[f"nulls{i}"] for i in range(len(schema))),
        "count_min": min(mins) if mins else None,
        "count_max": max(maxes) if maxes else None,
    }
    problem = None
    if found["nulls"]:
        problem = f"{found['nulls']:,} empty (null) values"
    elif found["bad_outcomes"]:
        problem = f"{found['bad_outcomes']:,} outcomes other than {', '.join(OUTCOMES)}"
    elif found["index_min"] is not None and not (
        found["index_min"] >= 0 and found["index_max"] < meta.games_requested
    ):
        problem = f"game numbers outside 0-{meta.games_requested - 1}"
    elif found["index_step"] is not None and found["index_step"] <= 0:
        problem = "games out of order or repeated"
    elif found["reason_len"] is not None and (found["reason_len"] > 200 or found["reasons"] > 100):
        problem = "end reasons that are not deckkit's"
    elif found["count_min"] is not None and found["count_min"] < 0:
        problem = "negative counts"
    elif found["count_max"] is not None and found["count_max"] > MAX_COUNT:
        problem = f"counts above {MAX_COUNT:,}"
    elif found["turns_max"] is not None and found["turns_max"] > meta.turn_cap:
        problem = f"games longer than the run's turn cap ({meta.turn_cap})"
    if problem is not None:
        raise UsageError(
            f"not a run deckkit saved: {problem}",
            path=path,
            hint="write it again with `deckkit simulate DECK --out FILE.parquet`",
        )


def counter_columns(frame: pl.DataFrame | pl.LazyFrame) -> dict[str, CounterKey]:
    """Column name -> (card id, stat) for the frame's per-card counter columns."""
    names = (
        frame.columns if not hasattr(frame, "collect_schema") else frame.collect_schema().names()
    )
    known = card_runs().counters
    out: dict[str, CounterKey] = {}
    for name in names:
        key = counter_key(name, known)
        if key is not None:
            out[name] = key
    return out


def tally_of_frame(frame: pl.DataFrame | pl.LazyFrame) -> Tally:
    """The exact tally of the games in ``frame``: equal to the runner's for the same games.
    Computed by aggregations alone, so a lazy frame is read column by column, never whole."""
    import polars as pl

    lazy = frame.lazy()
    counters = counter_columns(lazy)
    c = pl.col
    sums = [
        pl.len().alias("games"),
        (c("outcome") == "win").sum().alias("wins"),
        (c("outcome") == "loss").sum().alias("losses"),
        (c("outcome") == "stall").sum().alias("stalls"),
        (c("outcome") == "undecided").sum().alias("undecided"),
        c("turns").sum().alias("turns_sum"),
        (c("turns") * c("turns")).sum().alias("turns_sq_sum"),
        c("turns").min().alias("turns_min"),
        c("turns").max().alias("turns_max"),
        c("items_in_play").sum().alias("items_in_play_sum"),
        c("items_retrieved").sum().alias("items_retrieved_sum"),
        c("items_lost").sum().alias("items_lost_sum"),
    ]
    for i, name in enumerate(counters):
        sums += [c(name).sum().alias(f"t{i}"), (c(name) != 0).sum().alias(f"g{i}")]
    found = lazy.select(sums).collect(engine="streaming").row(0, named=True)
    tally = Tally(games=int(found["games"]))
    if tally.games == 0:
        return tally
    for name in ("wins", "losses", "stalls", "undecided", "turns_sum", "turns_sq_sum",
                 "items_in_play_sum", "items_retrieved_sum", "items_lost_sum"):  # fmt: skip
        setattr(tally, name, int(found[name]))
    tally.turns_min, tally.turns_max = int(found["turns_min"]), int(found["turns_max"])
    reasons = (
        lazy.group_by("end_reason").agg(pl.len()).sort("end_reason").collect(engine="streaming")
    )
    tally.end_reasons = {str(k): int(v) for k, v in reasons.iter_rows()}
    for i, key in enumerate(counters.values()):
        total = int(found[f"t{i}"])
        if total:
            tally.card_totals[key] = total
            tally.card_games[key] = int(found[f"g{i}"])
    return tally
