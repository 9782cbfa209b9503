"""`deckkit tune PARTY --vs PARTY`: swaps raced on paired games. Every swap leaves a legal
party, the race scores a swap by its game-by-game difference from the start on the same games,
and the same seed tunes the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animatactics.analysis.parties import plan_of
from deckkit.animatactics.analysis.party_tune import confirm, paired, race, scorer, swaps
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.editions import load_edition
from deckkit.animatactics.construction.legality import check_party
from deckkit.animatactics.construction.party import read_party
from deckkit.animatactics.engine.options import DEFAULT_RULES
from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_INPUT

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
START, FIELD, POOL = (DECKS / f"at-{n}.party" for n in ("empire-light", "samael-darkness",
                                                         "unaligned"))  # fmt: skip
runner = CliRunner()


def test_every_swap_is_legal_and_one_for_one() -> None:
    db = load_card_db()
    party, pool = read_party(START, db), read_party(POOL, db)
    ed = load_edition("saga1")
    found = swaps(party, [m.character for m in pool.members], ed, 250)
    assert found
    before = [m.character.name for m in party.members]
    for s in found:
        after = [m.character.name for m in s.party.members]
        assert s.out in before and s.out not in after and s.into in after
        assert len(after) == len(before) and len(set(after) ^ set(before)) == 2
        assert check_party(s.party, ed, 250).legal
        assert all((a.bearer or "") != s.out for a in s.party.advantages)


def test_the_race_scores_paired_differences_on_the_same_games() -> None:
    db = load_card_db()
    party, field, pool = (read_party(p, db) for p in (START, FIELD, POOL))
    score = scorer(plan_of("guarded"), "heuristic", "heuristic", DEFAULT_RULES)
    found = swaps(party, [m.character for m in pool.members], load_edition("saga1"), 250)[:3]
    ranked = race(party, found, [field], score, games=12, seed=2, offset=0)
    for r in ranked:
        n = len(r.diffs)
        mine = score(r.swap.party, field, 2, 0, n)
        start = score(party, field, 2, 0, n)
        assert r.diffs == [a - b for a, b in zip(mine, start, strict=True)]
    assert paired([1.0, 0.0, 0.5])["diff"] == 0.5
    assert paired([1.0])["ci"] is None


def test_the_race_and_the_confirmation_report_every_game_they_play() -> None:
    """A tune's progress bar counts what is played: every batch of the start and of each swap
    in the race, both parties' games in the confirmation."""
    db = load_card_db()
    party, field, pool = (read_party(p, db) for p in (START, FIELD, POOL))
    inner = scorer(plan_of("guarded"), "heuristic", "heuristic", DEFAULT_RULES)
    played: list[int] = []

    def score(a: object, b: object, seed: int, first: int, n: int) -> list[float]:
        played.append(n)
        return inner(a, b, seed, first, n)  # type: ignore[arg-type]

    found = swaps(party, [m.character for m in pool.members], load_edition("saga1"), 250)[:3]
    told: list[int] = []
    race(party, found, [field], score, games=12, seed=2, offset=0, on_games=told.append)
    assert told and sum(told) == sum(played)
    played.clear()
    told.clear()
    confirm(party, found[0].party, [field], score, games=6, seed=2, on_games=told.append)
    assert sum(told) == sum(played) == 12


# Three tunes of 60 games a swap and their confirmations: `make test-slow`. The fast suite runs the
# command's cell of the command x game table (test_command_game_table.py: a short tune, its JSON
# against the schema), the swaps and the race above, and the refusals below.
@pytest.mark.slow
def test_tune_command_is_seeded_and_writes_a_legal_party(tmp_path: Path) -> None:
    out = tmp_path / "tuned.party"
    args = ["tune", str(START), "--vs", str(FIELD), "--pool", str(POOL), "--budget", "60",
            "--confirm", "10", "--steps", "1", "--seed", "4"]  # fmt: skip
    result = runner.invoke(app, [*args, "--out", str(out), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert out.read_text(encoding="utf-8") == doc["best_party"]
    again = json.loads(runner.invoke(app, [*args, "-f", "json"]).stdout)
    assert again["steps"] == doc["steps"] and again["path"] == doc["path"]
    checked = runner.invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0, checked.stdout


def test_tune_takes_quiet_like_every_long_command(tmp_path: Path) -> None:
    """`-q` as for an Ani-Mayhem tune: no progress or notes, the same result. A pool of one
    character: five swaps to race, not the sample pool's 25."""
    pool = tmp_path / "pool.party"
    pool.write_text(
        "game: anima-tactics\nname: Pool\nlevels: 250\nedition: saga1\n\n[characters]\nKira\n",
        encoding="utf-8",
    )
    args = ["tune", str(START), "--vs", str(FIELD), "--pool", str(pool), "--budget", "12",
            "--confirm", "0", "--steps", "1", "--seed", "4"]  # fmt: skip
    loud = runner.invoke(app, args)
    quiet = runner.invoke(app, [*args, "-q"])
    assert loud.exit_code == quiet.exit_code == 0, quiet.output
    assert quiet.stdout == loud.stdout and quiet.stderr == ""
    assert "swaps" in loud.stderr  # the step's note, on the log without a terminal


def test_tune_refuses_the_search_player_and_an_illegal_party() -> None:
    args = ["tune", str(START), "--vs", str(FIELD), "--pool", str(POOL), "--budget", "60"]
    assert runner.invoke(app, [*args, "--policy", "search"]).exit_code == EXIT_BAD_INPUT
    illegal = runner.invoke(app, ["tune", str(DECKS / "at-illegal.party"), "--vs", str(FIELD)])
    assert illegal.exit_code == 1
