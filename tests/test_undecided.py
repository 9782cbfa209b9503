"""A game that ends with neither side holding a majority (rule option majority_trigger=combined,
end reason ``majority_undecided``) is undecided: set0 rulebook "Object of the Game" gives a result
only to a side that holds "more than half" ("If the players retrieve more than half of the item
cards, then the player with the most item cards wins. If the disasters retrieve or remove from
play more than half of the item cards, all players lose"). It is no loss, and every output counts
it apart from wins, losses and stalls, as a stall is counted (docs/interpretations.md)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from deckkit.analysis.results import read_results, tally_of_frame
from deckkit.analysis.summary import Tally, summarize
from deckkit.animayhem.engine.record import GameRecord
from deckkit.cli.main import app

DECK = Path(__file__).resolve().parent.parent / "decks" / "demo-solo-set0.deck"
ARGS = ["--games", "40", "--seed", "1", "--workers", "1", "--rule", "majority_trigger=combined"]


def _run(*args: str | Path) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_undecided_games_are_counted_apart_in_every_output(tmp_path: Path) -> None:
    """Seeded set0 games under majority_trigger=combined: those that end ``majority_undecided``
    are neither wins nor losses in the JSON summary, the Parquet rows (and the tally read back
    from them) and the report's outcome table."""
    rows_file = tmp_path / "games.parquet"
    doc = json.loads(_run("simulate", DECK, *ARGS, "--format", "json", "--out", rows_file))
    reasons = {r["code"]: r["games"] for r in doc["end_reasons"]}
    undecided = reasons.get("majority_undecided", 0)
    assert undecided > 0
    assert doc["undecided"] == undecided
    assert doc["undecided_rate"] == undecided / doc["games"]
    assert doc["undecided_rate_ci"][0] > 0
    assert doc["wins"] + doc["losses"] + doc["stalls"] + doc["undecided"] == doc["games"]
    assert doc["losses"] == reasons.get("disasters_majority", 0)  # set0's one way to lose

    rows, _ = read_results(rows_file)
    marked = rows.filter(pl.col("outcome") == "undecided")
    assert marked.height == undecided
    assert set(marked["end_reason"]) == {
        "more than half the items retrieved or removed; neither side holds more"
    }
    back = tally_of_frame(rows)
    assert (back.wins, back.losses, back.undecided) == (doc["wins"], doc["losses"], undecided)

    page = tmp_path / "report.html"
    _run("report", DECK, *ARGS, "-o", page, "--quiet")
    outcomes = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))["outcomes"]
    assert outcomes["undecided"]["count"] == undecided
    assert outcomes["loss"]["count"] == doc["losses"]
    text = _run("simulate", DECK, *ARGS)
    assert any(line.split()[:3] == ["undecided", "│", str(undecided)] for line in text.splitlines())


def test_an_undecided_record_is_tallied_apart() -> None:
    """The tally counts an undecided game in its own count, and merges it like the others."""
    records = [
        GameRecord(0, "win", 10, 9, 5, 0, ""),
        GameRecord(1, "undecided", 10, 9, 3, 2, ""),
    ]
    tally = Tally.of(records)
    assert (tally.wins, tally.losses, tally.stalls, tally.undecided) == (1, 0, 0, 1)
    merged = tally.merged(Tally.of(records[1:]))
    summary = summarize(merged)
    assert summary.undecided.count == 2 and summary.losses.count == 0
    assert summary.as_dict()["undecided"] == 2
