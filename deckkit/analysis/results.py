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
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit.analysis.runner import COUNTER_PREFIX, ROW_COLUMNS
from deckkit.analysis.summary import Tally
from deckkit.animayhem.engine.record import CardStat
from deckkit.errors import UsageError

if TYPE_CHECKING:  # polars is imported where frames are read or built
    import polars as pl

METADATA_KEY = "deckkit.run"


def deck_hash(text: str) -> str:
    """SHA-256 of the deck file's text: what a saved run was played with."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, path: Path) -> RunMetadata:
        try:
            raw = json.loads(text)
            names = {f.name for f in fields(cls)}
            missing = names - set(raw) - {"rules"}
            if missing:
                raise KeyError(", ".join(sorted(missing)))
            meta = cls(**{k: raw[k] for k in names if k in raw})
            if not isinstance(meta.rules, dict):
                raise TypeError("rules is not a table")
        except (ValueError, KeyError, TypeError) as err:
            raise UsageError(
                f"the run metadata in this file is damaged ({err})",
                path=path,
                hint="write it again with `deckkit simulate DECK --out FILE.parquet`",
            ) from None
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


def read_results(path: Path) -> tuple[pl.DataFrame, RunMetadata]:
    """The rows and metadata of a saved run; a clear usage error when the file is not one."""
    if path.suffix.lower() != ".parquet":
        raise UsageError(
            "--from needs a .parquet file (CSV has no room for the run's metadata)",
            path=path,
            hint="write one with `deckkit simulate DECK --out FILE.parquet`",
        )
    if not path.is_file():
        raise UsageError("no such file", path=path)
    import polars as pl

    try:
        kv = pl.read_parquet_metadata(path)
        frame = pl.read_parquet(path)
    except Exception as err:  # polars raises its own error types for a damaged file
        raise UsageError(f"not a readable Parquet file ({err})", path=path) from None
    if METADATA_KEY not in kv:
        raise UsageError(
            "this Parquet file has no deckkit run metadata",
            path=path,
            hint="write it with `deckkit simulate DECK --out FILE.parquet` or `deckkit report`",
        )
    missing = [name for name, _ in ROW_COLUMNS if name not in frame.columns]
    if missing:
        raise UsageError(f"per-game columns missing: {', '.join(missing)}", path=path)
    return frame, RunMetadata.from_json(kv[METADATA_KEY], path)


def counter_columns(frame: pl.DataFrame) -> dict[str, tuple[str, CardStat]]:
    """Column name -> (card id, stat) for the frame's per-card counter columns."""
    out: dict[str, tuple[str, CardStat]] = {}
    for name in frame.columns:
        if name.startswith(COUNTER_PREFIX):
            card_id, _, stat = name[len(COUNTER_PREFIX) :].rpartition(":")
            out[name] = (card_id, CardStat(stat))
    return out


def tally_of_frame(frame: pl.DataFrame) -> Tally:
    """The exact tally of the games in ``frame``: equal to the runner's for the same games."""
    n = frame.height
    tally = Tally(games=n)
    if n == 0:
        return tally
    outcomes = dict(frame["outcome"].value_counts().iter_rows())
    tally.wins = int(outcomes.get("win", 0))
    tally.losses = int(outcomes.get("loss", 0))
    tally.stalls = int(outcomes.get("stall", 0))
    turns = frame["turns"]
    tally.turns_sum = int(turns.sum())
    tally.turns_sq_sum = int((turns * turns).sum())
    tally.turns_min = int(turns.min())  # type: ignore[arg-type]
    tally.turns_max = int(turns.max())  # type: ignore[arg-type]
    tally.items_in_play_sum = int(frame["items_in_play"].sum())
    tally.items_retrieved_sum = int(frame["items_retrieved"].sum())
    tally.items_lost_sum = int(frame["items_lost"].sum())
    tally.end_reasons = {str(k): int(v) for k, v in frame["end_reason"].value_counts().iter_rows()}
    for name, key in counter_columns(frame).items():
        column = frame[name]
        total = int(column.sum())
        if total:
            tally.card_totals[key] = total
            tally.card_games[key] = int((column != 0).sum())
    return tally
