"""Animus through the deckkit command: validate, simulate --vs and report on the sample set
and sample teams; the same seed gives the same numbers for any --workers; broken input fails
with its exit code and nothing a user owns is overwritten."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animus import montecarlo
from deckkit.animus.construction.options import RuleOptions
from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
TEAM = REPO / "decks" / "animus-vanguard.team"
VS = REPO / "decks" / "animus-counterpoint.team"
SAMPLE = REPO / "card_db" / "animus" / "sample-cards.csv"
runner = CliRunner()


def test_validate_the_sample_teams_and_card_file() -> None:
    result = runner.invoke(app, ["validate", str(TEAM), str(VS)])
    assert result.exit_code == 0, result.output
    assert result.output.count("LEGAL") == 2 and "draft replayed" in result.output
    result = runner.invoke(app, ["validate", "--game", "animus", str(SAMPLE), "-f", "json"])
    assert result.exit_code == 0
    body = json.loads(result.output)
    assert (body["characters"], body["entities"], body["made_up"]) == (36, 7, 42)


def test_validate_an_illegal_team_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "short.team"
    bad.write_text("game: animus\n[team]\nKaida Flint\nOrrin Vale\n")
    result = runner.invoke(app, ["validate", str(bad), "-f", "json"])
    assert result.exit_code == 1
    body = json.loads(result.output)
    assert not body["legal"] and body["violations"][0]["rule"] == "team size"
    result = runner.invoke(app, ["simulate", str(bad), "--vs", str(VS), "-n", "5"])
    assert result.exit_code == 2 and "not legal" in result.output


def test_a_broken_card_file_exits_3_naming_line_and_column(tmp_path: Path) -> None:
    cards = tmp_path / "cards.csv"
    lines = SAMPLE.read_text().splitlines()
    fields = lines[10].split(",")
    fields[3] = "2x"  # the level of the card on line 11
    lines[10] = ",".join(fields)
    cards.write_text("\n".join(lines) + "\n")
    before = cards.read_bytes()
    result = runner.invoke(app, ["validate", "--game", "animus", str(cards)])
    assert result.exit_code == 3
    assert "line 11" in result.output and "column 4 (level)" in result.output
    team = tmp_path / "t.team"
    team.write_text("game: animus\ncards: cards.csv\n[team]\nKaida Flint\n")
    for verb in (["validate", str(team)], ["simulate", str(team), "--vs", str(team)]):
        result = runner.invoke(app, verb)
        assert result.exit_code == 3, result.output
    assert cards.read_bytes() == before


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_same_seed_same_numbers_for_any_worker_count() -> None:
    match = montecarlo.Match(TEAM, VS, RuleOptions())
    # 150 games: 8 chunks of 19 on two workers; a tally counts every card's plays, so another
    # seed's differs
    one = montecarlo.run(match, games=150, seed=11, workers=1).tally
    two = montecarlo.run(match, games=150, seed=11, workers=2).tally
    assert one == two
    assert one.games == 150 and sum(one.wins) + one.draws == 150
    other = montecarlo.run(match, games=150, seed=12, workers=1).tally
    assert other != one


def test_simulate_json_has_rates_and_intervals() -> None:
    args = ["simulate", str(TEAM), "--vs", str(VS), "-n", "300", "-s", "5", "-f", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    wins = doc["outcomes"]["team"]
    assert wins["n"] == 300 and wins["ci"][0] <= wins["rate"] <= wins["ci"][1]
    assert (
        doc["outcomes"]["team"]["count"]
        + doc["outcomes"]["vs"]["count"]
        + doc["outcomes"]["draw"]["count"]
        == 300
    )
    assert {m["attacker"] for m in doc["matchups"]} <= {"Power", "Talent", "Skill"}
    assert len(doc["cards"]) == 18
    again = runner.invoke(app, args)
    assert again.output == result.output


def test_a_rule_option_from_the_command_line_changes_the_run() -> None:
    base = ["simulate", str(TEAM), "--vs", str(VS), "-n", "200", "-f", "json"]
    plain = json.loads(runner.invoke(app, base).output)
    harsh = json.loads(runner.invoke(app, [*base, "--rule", "empty_deck=lose"]).output)
    assert harsh["run"]["non_default_rules"] == {"empty_deck": "lose"}
    codes = {
        name: {r["code"] for r in doc["end_reasons"]}
        for name, doc in (("harsh", harsh), ("plain", plain))
    }
    assert "empty_deck" in codes["harsh"] and "empty_deck" not in codes["plain"]
    bad = runner.invoke(app, [*base, "--rule", "empty_deck=maybe"])
    assert bad.exit_code == 2


def test_report_writes_page_and_sidecar_and_never_overwrites(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    args = ["report", str(TEAM), "--vs", str(VS), "-n", "200", "-o", str(page), "-q"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    html = page.read_text()
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["game"] == "animus" and doc["schema_version"] == 1
    # every number on the page is the sidecar's, as formatted
    shown = re.findall(r'data-json="([^"]+)" data-fmt="pct">([^<]+)<', html)
    assert shown
    for path, text in shown:
        value = doc
        for part in path.split("."):
            value = value[int(part)] if isinstance(value, list) else value[part]
        assert text == ("–" if value is None else f"{100 * value:.1f}%")
    page.write_text("mine")
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and page.read_text() == "mine"


@pytest.mark.slow  # a process of its own; the same command in-process is the tests above
@pytest.mark.skipif(sys.platform != "linux", reason="uses the installed console script")
def test_the_command_runs_as_a_user_runs_it(tmp_path: Path) -> None:
    """End to end in a subprocess, from another directory: the shipped sample set is found."""
    out = subprocess.run(
        [sys.executable, "-m", "deckkit", "simulate", str(TEAM), "--vs", str(VS), "-n", "50"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "Vanguard wins" in out.stdout


def test_cards_list_shows_the_sample_set_marked_made_up() -> None:
    result = runner.invoke(app, ["cards", "list", "--game", "animus", "-f", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["cards"]
    assert len(rows) == 43
    assert [r["name"] for r in rows if not r["made_up"]] == ["Omniscient Artificial Intelligence"]
    real = rows[-1]  # an Entity: no level and no values, shown as none (not as 0)
    assert real["kind"] == "entity"
    assert (real["level"], real["melee"], real["range"]) == (None, None, None)


def test_team_files_with_different_rule_options_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.team"
    other.write_text(VS.read_text().replace("game: animus", "game: animus\nrule.empty_deck: lose"))
    result = runner.invoke(app, ["simulate", str(TEAM), "--vs", str(other), "-n", "5"])
    assert result.exit_code == 2 and "different rule options" in result.output
    fixed = ["simulate", str(TEAM), "--vs", str(other), "-n", "5", "--rule", "empty_deck=lose"]
    assert runner.invoke(app, fixed).exit_code == 0


SEAT_A = REPO / "decks" / "animus-seat-greedy.team"
SEAT_B = REPO / "decks" / "animus-seat-counter.team"


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_draft_seats_draft_before_every_battle_the_same_for_any_worker_count(
    tmp_path: Path,
) -> None:
    """Two draft seats: a fresh seeded draft, then the battle; each side drafts 9 per battle."""
    match = montecarlo.Match(SEAT_A, SEAT_B, RuleOptions())
    one = montecarlo.run(match, games=120, seed=3, workers=1).tally
    two = montecarlo.run(match, games=120, seed=3, workers=2).tally
    assert one == two and one.sizes == (36, 36)
    for side in (0, 1):
        assert sum(card[6] for card in one.cards[side]) == 9 * 120  # Stat.DRAFTED
    page = tmp_path / "seats.html"
    args = ["report", str(SEAT_A), "--vs", str(SEAT_B), "-n", "100", "-o", str(page), "-q"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "seats.json").read_text())
    assert doc["drafting"] and len(doc["cards"]) == 72
    assert "drafting with counter" in page.read_text()


def test_a_draft_seat_cannot_play_a_fixed_team() -> None:
    result = runner.invoke(app, ["simulate", str(SEAT_A), "--vs", str(TEAM), "-n", "5"])
    assert result.exit_code == 2 and "draft seat" in result.output


def test_one_battle_is_one_battle_not_1_battles(tmp_path: Path) -> None:
    """Text, stderr summary and page all count a single battle in the singular."""
    args = [str(TEAM), "--vs", str(VS), "-n", "1"]
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == 0, result.output
    assert "1 battle, seed" in result.output and "1 battles" not in result.output
    assert "1 battle in" in result.output and "worker(s)" not in result.output
    page = tmp_path / "one.html"
    assert runner.invoke(app, ["report", *args, "-o", str(page), "-q"]).exit_code == 0
    html = page.read_text()
    assert "</span> battle against" in html and "the battle lasts" in html
    assert "</span> battles against" not in html


def test_play_says_the_cards_are_made_up() -> None:
    """One battle read from the made-up sample says so, as every Animus output does."""
    args = ["play", str(TEAM), "--vs", str(VS), "-s", "1", "-g", "0"]
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "notice: 20 of the 20 cards are made up" in text.output
    doc = json.loads(runner.invoke(app, [*args, "-f", "json"]).output)
    assert any("made up" in n for n in doc["notices"])


def test_a_slow_run_gives_seconds_a_battle_not_0_per_second() -> None:
    from deckkit.cli.animus import _pace

    assert _pace(200, 747.5) == "3.7 s a battle"
    assert _pace(1000, 2.0) == "500 per second"
