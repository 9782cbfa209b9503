"""`simulate --vs --out` for parties and teams (issue 28, build point 2): the run's games,
played through the game interface, one row per game with the run's metadata, as Ani-Mayhem's
`--out`, which `report --from` draws."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from deckkit.analysis.matches import RUN_METADATA_KEY
from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_INPUT

DECKS = Path(__file__).resolve().parent.parent / "decks"
PAIRS = {
    "anima-tactics": (DECKS / "at-empire-light.party", DECKS / "at-samael-darkness.party"),
    "animus": (DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"),
}
runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def _wins(doc: dict[str, object]) -> int:
    win = doc["win"] if "win" in doc else doc["outcomes"]["win"]  # type: ignore[index]
    return int(win["count"])  # type: ignore[index]


@pytest.mark.parametrize("game", sorted(PAIRS))
def test_the_saved_rows_are_the_runs_games(game: str, tmp_path: Path) -> None:
    first, vs = PAIRS[game]
    out = tmp_path / "run.parquet"
    code, text, err = run("simulate", first, "--vs", vs, "-n", 12, "-s", 4, "-o", out, "-f", "json")
    assert code == 0, err
    doc = json.loads(text)
    assert doc["out"] == str(out)
    rows = pl.read_parquet(out)
    assert rows["game"].to_list() == list(range(12))
    assert (rows["outcome"] == "win").sum() == _wins(doc)
    assert set(rows["outcome"].unique()) <= {"win", "loss", "draw"}
    assert all(c.startswith(("0:", "1:")) and "|" in c for c in rows.columns[4:])
    meta = json.loads(pl.read_parquet_metadata(out)[RUN_METADATA_KEY])
    assert (meta["game"], meta["seed"], meta["games_requested"]) == (game, 4, 12)
    assert [f["path"] for f in meta["files"]] == [str(first), str(vs)]
    assert meta["files"][0]["text"] == first.read_text(encoding="utf-8")
    # an existing file stays unless --force; CSV has the same rows
    code, _, err = run("simulate", first, "--vs", vs, "-n", 12, "-s", 4, "-o", out)
    assert code == EXIT_BAD_INPUT and "--force" in err
    csv = tmp_path / "run.csv"
    code, _, err = run("simulate", first, "--vs", vs, "-n", 12, "-s", 4, "-o", csv)
    assert code == 0, err
    assert pl.read_csv(csv)["outcome"].to_list() == rows["outcome"].to_list()
    # report --from draws the page of these rows (tests/test_interface_report_from.py)
    code, _, err = run("report", "--from", out, "-o", tmp_path / "page.html")
    assert code == 0, err


def test_a_party_alone_has_no_games_to_save(tmp_path: Path) -> None:
    code, _, err = run("simulate", PAIRS["anima-tactics"][0], "-o", tmp_path / "x.parquet")
    assert code == EXIT_BAD_INPUT and "--vs" in err
