"""`deckkit build` for Animus: the best team seeded drafts give against a field of teams. The
built team's file records its draft, which `deckkit validate` replays; the same seed builds the
same team."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from deckkit.animus.build import candidates
from deckkit.animus.construction.carddb import load_cards
from deckkit.animus.construction.options import parse_options
from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_INPUT

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
POOL, FIELD = DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"
runner = CliRunner()


def test_candidates_are_drafted_teams_each_once() -> None:
    found = candidates(load_cards(None), 2, 5, parse_options({}))
    assert found
    assert len({c.key for c in found}) == len(found)
    for c in found:
        assert len(c.cards) == 9 and len(c.key) == 9
        assert set(c.key) <= {x.name for _, x in c.picks}
        assert [x for who, x in c.picks if who == c.seat] == list(c.cards)
    assert candidates(load_cards(None), 2, 5, parse_options({}))[0].key == found[0].key


def test_build_writes_a_team_whose_draft_replays(tmp_path: Path) -> None:
    out = tmp_path / "built.team"
    args = ["build", "--pool", str(POOL), "--vs", str(FIELD), "--drafts", "1", "-n", "40",
            "--confirm", "20", "--seed", "3"]  # fmt: skip
    result = runner.invoke(app, [*args, "--out", str(out), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert out.read_text(encoding="utf-8") == doc["best"]["team_file"]
    assert doc["entity"] == "The Ember Throne"  # the pool team's Entity comes along
    checked = runner.invoke(app, ["validate", str(out), "-f", "json"])
    assert checked.exit_code == 0, checked.stdout
    verdict = json.loads(checked.stdout)
    assert verdict["legal"] and verdict["draft_checked"]
    again = runner.invoke(app, [*args, "-f", "json"])
    assert json.loads(again.stdout)["race"] == doc["race"]
    exists = runner.invoke(app, [*args, "--out", str(out)])
    assert exists.exit_code == EXIT_BAD_INPUT
    search = runner.invoke(app, [*args, "--policy", "search"])
    assert search.exit_code == EXIT_BAD_INPUT
