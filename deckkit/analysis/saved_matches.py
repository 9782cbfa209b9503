"""A saved run of a game played through its interface: the rows ``simulate PARTY_OR_TEAM --vs
OTHER --out RUN.parquet`` writes (:func:`deckkit.api.matchups.save_run`), read back for a page.

The file holds one row per game (:data:`deckkit.analysis.matches.ROW_COLUMNS` and a column per
counter, ``SIDE:NAME|COUNTER``) and, under :data:`~deckkit.analysis.matches.RUN_METADATA_KEY`,
the run's metadata: the game, the seed, the games asked for, both files with their text and
SHA-256, and the run's settings. Everything is checked against what deckkit writes before any
number is computed from it (a clear usage error naming the file otherwise), and the numbers are
the run's own: the same tally the run's games give (:class:`~deckkit.analysis.matches.RecordTally`),
in the one JSON shape of a rate with its interval, end reasons by code with the game's words
beside them. This module imports no game: it reaches the file's game through the registry.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from deckkit.analysis import matches
from deckkit.core.estimates import CI_METHOD, CONFIDENCE, mean_estimate
from deckkit.core.game import Game
from deckkit.errors import MAX_REPORT_ROW_BYTES, DeckkitError, TooLarge, UsageError
from deckkit.textsafe import shown_inline
from deckkit.untrusted import check_regular, parse_json

if TYPE_CHECKING:  # polars is imported where frames are read
    import polars as pl

# Bounds on a saved run, checked before it is read (as for an Ani-Mayhem run,
# deckkit.analysis.results): beyond them a file is not a run deckkit wrote.
MAX_GAMES = 10_000_000
MAX_COUNT = 1_000_000  # no game has a million turns or a counter that high
MAX_METADATA_CHARS = 4 << 20
MAX_COLUMNS = 5_000
MAX_FILE_CHARS = 1 << 20  # a party or team file's kept text
ROW_BYTES = 8  # a value of a row in memory (every column is a whole number or a short code)
# A counter column: side (0 the first file, 1 the --vs file), the card's or character's name,
# the counter's name (matches.counter_column).
COUNTER_RE = re.compile(r"^([01]):(.+)\|([A-Za-z0-9_]+)$", re.DOTALL)
SHA256_RE = re.compile(r"[0-9a-f]{64}")
SAFE_NAME_RE = re.compile(r"[^\x00-\x1f/\\]{1,200}")  # a kept file's name, as a file name here
_FIXED = {"game": "Int64", "outcome": "String", "end_reason": "String", "turns": "Int64"}


@dataclass(frozen=True)
class SavedMatch:
    """A checked saved run: its game's interface, its metadata and its rows."""

    game: Game
    meta: Mapping[str, Any]
    rows: pl.DataFrame
    path: Path


def metadata_keys(path: Path) -> dict[str, str]:
    """The Parquet file's key-value metadata (empty when it has none or is no Parquet file:
    the reader that follows says what is wrong)."""
    import polars as pl

    try:
        return dict(pl.read_parquet_metadata(path))
    except Exception:  # polars raises its own error types for a damaged file
        return {}


def is_saved_match(path: Path) -> bool:
    """Whether ``path`` is a regular Parquet file carrying an interface run's metadata."""
    try:
        regular = path.suffix.lower() == ".parquet" and path.is_file()
    except OSError:
        return False
    return regular and matches.RUN_METADATA_KEY in metadata_keys(path)


def _metadata_problem(raw: object, games: int) -> str | None:
    """What is wrong with a saved run's metadata, or None."""
    if not isinstance(raw, dict):
        return "the run metadata is not a JSON object"
    for key, kind in (("game", str), ("seed", int), ("games_requested", int), ("files", list)):
        value = raw.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"the run metadata's {key!r} is missing or not a {kind.__name__}"
    if not 0 <= raw["seed"] < 2**63 or not 1 <= raw["games_requested"] <= MAX_GAMES:
        return "the run metadata's seed or games_requested is out of range"
    if games > raw["games_requested"]:
        return f"this file holds {games:,} games, more than its run asked for " + (
            f"({raw['games_requested']:,})"
        )
    files = raw["files"]
    if len(files) != 2:
        return "the run metadata names not two files (a file and its --vs)"
    for entry in files:
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(k), str) for k in ("path", "sha256", "text")
        ):
            return "a file of the run metadata lacks its path, sha256 or text"
        if len(entry["text"]) > MAX_FILE_CHARS or not SHA256_RE.fullmatch(entry["sha256"]):
            return "a file of the run metadata is too long or its sha256 is malformed"
    return None


def _check_columns(schema: Mapping[str, Any], path: Path) -> None:
    """The fixed columns with their types, then only counter columns of whole numbers."""
    import polars as pl

    if len(schema) > MAX_COLUMNS:
        raise UsageError(f"this file has {len(schema):,} columns: not a saved run", path=path)
    for name, dtype in _FIXED.items():
        if name not in schema:
            raise UsageError(f"per-game column {name!r} missing", path=path)
        if schema[name] != getattr(pl, dtype):
            raise UsageError(f"column {name!r} holds {schema[name]}, not {dtype}", path=path)
    for name, dtype in schema.items():
        if name in _FIXED:
            continue
        if COUNTER_RE.match(name) is None:
            raise UsageError(
                f"unexpected column {shown_inline(name[:80])!r}",
                path=path,
                hint="a saved run has game, outcome, end_reason, turns and counters "
                "(SIDE:NAME|COUNTER)",
            )
        if dtype != pl.Int64:
            raise UsageError(f"column {name!r} holds {dtype}, not Int64", path=path)


def _check_values(rows: pl.DataFrame, game: Game, path: Path) -> None:
    """Game indices distinct and within the run, outcomes the game's, end reason codes the
    game's, turns and counters whole numbers in range."""
    import polars as pl

    if rows.height == 0:
        raise UsageError("this saved run holds no games", path=path)
    if rows["game"].null_count() or rows["game"].n_unique() != rows.height:
        raise UsageError("the column 'game' repeats or misses a game's index", path=path)
    if rows["game"].min() < 0:  # type: ignore[operator]
        raise UsageError("the column 'game' holds a negative index", path=path)
    for column, known in (("outcome", game.outcomes), ("end_reason", tuple(game.end_reasons))):
        odd = rows.filter(pl.col(column).is_null() | ~pl.col(column).is_in(list(known)))
        if odd.height:
            value = odd[column][0]
            raise UsageError(
                f"the column {column!r} holds {shown_inline(str(value)[:40])!r}, not one of "
                f"{game.title}'s ({', '.join(known)})",
                path=path,
            )
    counts = [c for c in rows.columns if c not in _FIXED]
    for column in ("turns", *counts):
        series = rows[column]
        if series.null_count() or series.min() < 0 or series.max() > MAX_COUNT:  # type: ignore[operator]
            raise UsageError(
                f"the column {shown_inline(column[:80])!r} holds a value out of range "
                f"(0 to {MAX_COUNT:,})",
                path=path,
            )


def open_saved_match(path: Path) -> SavedMatch:
    """The saved run at ``path``, every column and value checked (exit 2 naming the file)."""
    if path.suffix.lower() != ".parquet":
        raise UsageError("--from needs a .parquet file (CSV has no room for the run's metadata)",
                         path=path)  # fmt: skip
    if not (path.exists() or path.is_symlink()):
        raise UsageError("no such file", path=path)
    check_regular(path, what="saved run")
    import polars as pl

    try:
        kv = pl.read_parquet_metadata(path)
        schema = pl.read_parquet_schema(path)
        games = int(pl.scan_parquet(path).select(pl.len()).collect().item())
    except Exception as err:  # polars raises its own error types for a damaged file
        first = (str(err).strip().splitlines() or [type(err).__name__])[0][:300]
        raise UsageError(f"not a readable Parquet file ({first})", path=path) from None
    text = kv.get(matches.RUN_METADATA_KEY)
    if text is None:
        raise UsageError("this Parquet file has no deckkit run metadata", path=path)
    if len(text) > MAX_METADATA_CHARS:
        raise UsageError("the run metadata is too long for a saved run", path=path)
    raw = parse_json(text, path, what="run metadata", error=UsageError)
    problem = _metadata_problem(raw, games)
    if problem is not None:
        raise UsageError(problem, path=path)
    from deckkit import games as registry

    found = registry.find_game(raw["game"])
    if found is None or not found.interface:
        raise UsageError(
            f"the run metadata names no game deckkit plays ({shown_inline(raw['game'][:40])!r})",
            path=path,
        )
    game = registry.game_interface(found)
    _check_columns(schema, path)
    need = games * ROW_BYTES * len(schema)
    if need > MAX_REPORT_ROW_BYTES:
        most = MAX_REPORT_ROW_BYTES // (ROW_BYTES * len(schema))
        raise TooLarge(
            f"this run is too large for a report: {games:,} games of {len(schema):,} columns "
            f"would need {need / 2**20:,.0f} MB of rows, the limit is "
            f"{MAX_REPORT_ROW_BYTES / 2**20:,.0f} MB (about {most:,} games of it)",
            path=path,
            hint="draw the page of a shorter run (`deckkit simulate FILE --vs OTHER --games N "
            "--out FILE.parquet`)",
        )
    rows = pl.read_parquet(path)
    _check_values(rows, game, path)
    return SavedMatch(game, raw, rows.sort("game"), path)


def tally_of(rows: pl.DataFrame) -> matches.RecordTally:
    """The run's tally from its rows: what the run's games summed to when they were played
    (the integer sums :meth:`~deckkit.analysis.matches.RecordTally.add` keeps, taken a column
    at a time)."""
    import polars as pl

    def counts(column: str) -> dict[str, int]:
        grouped = rows.group_by(column).len()
        return {str(k): int(n) for k, n in grouped.iter_rows()}

    turns = rows["turns"]
    keys = {c: COUNTER_RE.match(c) for c in rows.columns if c not in _FIXED}
    sums = rows.select(pl.col(c).sum() for c in keys).row(0) if keys else ()
    counters = {
        (f"{m.group(1)}:{m.group(2)}", m.group(3)): int(n)
        for (c, m), n in zip(keys.items(), sums, strict=True)
        if m is not None and n
    }
    return matches.RecordTally(
        games=rows.height,
        outcomes=counts("outcome"),
        end_reasons=counts("end_reason"),
        turns=int(turns.sum()),
        turns_sq=int((turns * turns).sum()),
        turns_min=int(turns.min()),  # type: ignore[arg-type]
        turns_max=int(turns.max()),  # type: ignore[arg-type]
        counters=counters,
    )


def side_name(game: Game, kept: Mapping[str, str]) -> tuple[str, str | None]:
    """The name a kept file goes by, read through the game from the text the run kept (under
    the file's own name, which a file without a ``name:`` line goes by), and a note when the
    kept text no longer reads (today's card data lacks one of its cards, say)."""
    name = PurePosixPath(kept["path"].replace("\\", "/")).name
    if not SAFE_NAME_RE.fullmatch(name) or name in (".", ".."):
        name = "file"  # the copy stays inside its scratch folder, whatever the metadata says
    with tempfile.TemporaryDirectory(prefix="deckkit-") as tmp:
        copy = Path(tmp) / name
        copy.write_text(kept["text"], encoding="utf-8", errors="replace")
        try:
            return game.entry_name(game.read(copy)), None
        except DeckkitError as err:
            why = str(err).splitlines()[0] if str(err) else type(err).__name__
            return Path(name).stem, f"the kept text of {name} no longer reads ({why[:200]})"


def today_differs(kept: Mapping[str, str]) -> bool | None:
    """Whether the file at the kept path (as the run was started) now holds other text; None
    when there is no such file here."""
    path = Path(kept["path"])
    try:
        if not path.is_file():
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest() != kept["sha256"]
    except OSError:
        return None


def _turns(tally: matches.RecordTally) -> dict[str, Any]:
    est = mean_estimate(tally.games, tally.turns, tally.turns_sq, tally.turns_min, tally.turns_max)
    return {
        "mean": est.mean,
        "ci": list(est.ci) if est.ci is not None else None,
        "std": est.std,
        "min": est.min,
        "max": est.max,
    }


def _members(rows: pl.DataFrame, sides: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """Each side's cards or characters with each counter's mean per game and the share of
    games it was not zero in, in the side's order then by name."""
    found: dict[tuple[int, str], dict[str, Any]] = {}
    names: set[str] = set()
    games = rows.height
    for column in rows.columns:
        m = COUNTER_RE.match(column)
        if m is None:
            continue
        side, member, counter = int(m.group(1)), m.group(2), m.group(3)
        names.add(counter)
        series = rows[column]
        entry = found.setdefault(
            (side, member), {"side": side, "side_name": sides[side], "name": member, "counters": {}}
        )
        entry["counters"][counter] = {
            "mean": float(series.sum()) / games,
            "games": int((series != 0).sum()),
        }
    order = sorted(found, key=lambda k: (k[0], k[1].casefold()))
    return sorted(names), [found[k] for k in order]


def match_document(saved: SavedMatch) -> dict[str, Any]:
    """The page's numbers (and its JSON sidecar): who played whom, the outcomes with their
    intervals, the end reasons by code with the game's words and the outcomes each ended in,
    the turns, and each side's counters."""
    game, meta, rows = saved.game, saved.meta, saved.rows
    tally = tally_of(rows)
    sides, notices = [], []
    for kept in meta["files"]:
        name, note = side_name(game, kept)
        if note:
            notices.append(note)
        changed = today_differs(kept)
        if changed:
            notices.append(
                f"{Path(kept['path']).name} has changed since this run was played; the page "
                "shows the run as played, from the text it kept"
            )
        sides.append(
            {"name": name, "file": Path(kept["path"]).name, "sha256": kept["sha256"],
             "changed_since": changed}
        )  # fmt: skip
    if rows.height < meta["games_requested"]:
        notices.append(
            f"the run asked for {meta['games_requested']:,} games; this file holds "
            f"{rows.height:,} (an interrupted run)"
        )
    by_end: dict[str, dict[str, int]] = {}
    for end, outcome, n in rows.group_by("end_reason", "outcome").len().iter_rows():
        by_end.setdefault(end, {})[outcome] = n
    by_turns = {(t, o): n for t, o, n in rows.group_by("turns", "outcome").len().iter_rows()}
    ends = matches.end_reasons_json(tally, game.end_reasons)
    for end in ends:
        end["outcomes"] = {o: by_end[str(end["code"])].get(o, 0) for o in game.outcomes}
    counters, members = _members(rows, [s["name"] for s in sides])
    settings = {
        k: v
        for k, v in sorted(meta.items())
        if k not in ("game", "seed", "games_requested", "files", "deckkit_version")
        and isinstance(v, str | int | float | list)
    }
    return {
        "kind": "match",
        "game": game.name,
        "game_title": game.title,
        "source": saved.path.name,
        "ci_method": CI_METHOD,
        "confidence": CONFIDENCE,
        "sides": sides,
        "run": {
            "seed": meta["seed"],
            "games_requested": meta["games_requested"],
            "played_by": meta.get("deckkit_version"),
            "settings": settings,
        },
        "games": tally.games,
        "outcomes": matches.outcomes_json(tally, game.outcomes),
        "end_reasons": ends,
        "turns": _turns(tally),
        "turns_by_outcome": [[t, o, n] for (t, o), n in sorted(by_turns.items())],
        "counters": counters,
        "members": members,
        "notices": notices,
    }
