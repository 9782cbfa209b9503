"""Baseline records: a check's win rate at one moment, and the snapshot to replay it from.

One JSON file per check under the balance file's ``baselines/`` directory, written whole or not
at all. It holds the win rate over a fixed number of games with its Wilson interval, the seed,
the deckkit version and which engine played (compiled or pure, :func:`deckkit.schema.engine`),
when it was taken, and the snapshot of the deck and its cards
(:mod:`deckkit.balance.snapshot`).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from deckkit import __version__
from deckkit.analysis.summary import CI_METHOD_LABEL, proportion
from deckkit.balance.atomic import write_text_atomic
from deckkit.balance.config import Check
from deckkit.balance.snapshot import snapshot_problem
from deckkit.errors import UsageError
from deckkit.schema import engine
from deckkit.untrusted import parse_json, read_text

FORMAT = 1


def baseline_record(
    check: Check,
    *,
    wins: int,
    games: int,
    edition: str,
    variant: str,
    layout: str,
    snapshot: dict[str, Any],
    rules: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The JSON document of a baseline."""
    rate = proportion(wins, games)
    return {
        "format": FORMAT,
        "check": check.name,
        "kind": check.kind,
        "deck": check.deck_as_written,
        "edition": edition,
        "variant": variant,
        "layout": layout,
        "rules": dict(rules or {}),
        "players": check.players,
        "policy": check.policy,
        "turn_cap": check.turn_cap,
        "seed": check.seed,
        "games": games,
        "wins": wins,
        "win_rate": rate.rate,
        "win_rate_ci": list(rate.ci) if rate.ci is not None else None,
        "ci_method": CI_METHOD_LABEL,
        "deckkit_version": __version__,
        "engine": engine(),
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "snapshot": snapshot,
    }


def write_baseline(path: Path, record: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(record, indent=2, ensure_ascii=False) + "\n")


def read_baseline(path: Path, check: Check) -> dict[str, Any] | None:
    """The check's baseline, or None when there is none; a damaged file is a usage error."""
    if not path.exists() and not path.is_symlink():
        return None
    hint = "re-create it with `deckkit balance baseline --force`"
    try:
        text = read_text(path, what="baseline", hint=hint)
        record = parse_json(text, path, what="baseline", error=UsageError)
    except UsageError as err:
        raise UsageError(
            f"check {check.name!r}: cannot read its baseline: {err.message}", path=path, hint=hint
        ) from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise UsageError(
            f"check {check.name!r}: its baseline is not a deckkit baseline of format {FORMAT}",
            path=path,
            hint=hint,
        )
    problem = snapshot_problem(record.get("snapshot"))
    if problem is not None:
        raise UsageError(
            f"check {check.name!r}: its baseline is damaged: {problem}", path=path, hint=hint
        )
    return dict(record)
