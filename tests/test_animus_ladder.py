"""The Animus player ladder (deckkit.animus.ladder): paired battles, the gap's arithmetic and
the made-up notice on its output."""

from __future__ import annotations

import json

import pytest

from deckkit.animus import ladder


def test_the_heuristic_against_itself_gains_nothing_on_the_same_battles() -> None:
    """Paired: battle i of the seed is the same battle for the player and its stand-in."""
    row = ladder.paired_gap(ladder.TEAMS, 0, "heuristic", 6, 0)
    assert row["gap"] == 0 and row["score"] == row["baseline_score"]


def test_the_random_player_is_below_the_heuristic_in_both_seats() -> None:
    for seat in (0, 1):
        row = ladder.paired_gap(ladder.TEAMS, seat, "random", 60, 0)
        assert row["ci95"] is not None and row["ci95"][1] < 0, row


def test_a_rung_is_the_mean_difference_in_score_points() -> None:
    """Half points: differences +2, 0, -1 over three battles -> a gap of 1/6 of a point."""
    row = ladder.row("x", 3, 2 + 0 - 1, 4 + 0 + 1, 3)
    assert row["gap"] == pytest.approx(1 / 6)
    assert row["baseline_score"] == pytest.approx(0.5) and row["score"] == pytest.approx(4 / 6)


def test_the_ladder_says_its_teams_are_made_up(capsys: pytest.CaptureFixture[str]) -> None:
    ladder.main(["--games", "2", "--policies", "random"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "made up" in lines[0]["notice"]
    assert [r["team"] for r in lines[1:]] == ["Vanguard", "Counterpoint", "both seatings"]


def test_two_one_seat_runs_pool_to_the_both_seatings_row(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def rows(*extra: str) -> list[dict[str, object]]:
        ladder.main(["--games", "4", "--policies", "random", *extra])
        out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        return [r for r in out if "sums" in r]

    first, second = rows("--seat", "0"), rows("--seat", "1")
    whole = rows()
    assert [len(first), len(second), len(whole)] == [1, 1, 3]
    pooled = [a + b for a, b in zip(first[0]["sums"], second[0]["sums"], strict=True)]  # type: ignore[call-overload]
    assert pooled == whole[2]["sums"]
