"""Anima Tactics through the CLI: simulate (alone and --vs, seeded, any --workers), report (page
and sidecar), cards; and the matrix's exact and Monte Carlo entries, and the cost study."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_helpers import mismatches
from typer.testing import CliRunner

from deckkit.animatactics.analysis import matrix as matrix_mod
from deckkit.animatactics.analysis.cost_study import cost_study
from deckkit.animatactics.analysis.matrix import Entrant, compute_matrix, roster
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.engine.options import RuleSet
from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
LIGHT, DARK = str(DECKS / "at-empire-light.party"), str(DECKS / "at-samael-darkness.party")
ILLEGAL = str(DECKS / "at-illegal.party")
runner = CliRunner()


def _small_roster() -> list[Entrant]:
    full = roster(load_card_db())
    wanted = {"Legion", "Celia", "Erika", "Kira", "Griever", "Church Agent", "Gemini: Zack",
              "Gemini: Zafini", "Goethia", "Yuri Olsen", "Macbeth", "Aria"}  # fmt: skip
    return [e for e in full if e.name in wanted]


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_simulate_vs_is_seeded_and_the_same_for_any_workers() -> None:
    # 24 games: 8 chunks of 3 on two workers, each game's seed drawn from its index
    args = ["simulate", LIGHT, "--vs", DARK, "--games", "24", "--seed", "5", "-f", "json"]
    one = runner.invoke(app, args)
    assert one.exit_code == 0, one.output
    two = runner.invoke(app, [*args, "--workers", "2"])
    doc1, doc2 = json.loads(one.stdout), json.loads(two.stdout)
    assert doc1 == doc2
    assert (
        doc1["games"] == 24
        and doc1["win"]["count"] + doc1["loss"]["count"] + doc1["draw"]["count"] == 24
    )
    low, high = doc1["win"]["ci95"]
    assert low <= doc1["win"]["rate"] <= high
    other = runner.invoke(app, [*args[:-4], "--seed", "6", "-f", "json"])
    assert json.loads(other.stdout) != doc1


# The whole roster's 440 exact duels (88 characters, 5 members) are `make test-slow`; the fast
# suite plays the same command against a dozen of them.
@pytest.mark.parametrize("whole", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_simulate_alone_gives_exact_odds_against_the_roster(
    whole: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not whole:
        small = _small_roster()
        monkeypatch.setattr(matrix_mod, "roster", lambda db: small)
    result = runner.invoke(app, ["simulate", LIGHT, "-f", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert len(doc["odds"]) == (88 if whole else 12) and len(doc["members"]) == 5
    # what the engine does not play, said beside the figures (the text's notice is checked
    # in test_every_simulate_output_says_what_the_engine_does_not_play)
    assert "powers" in doc["caveat"] and "special abilities" in doc["caveat"]
    yuri = next(r for r in doc["odds"] if r["opponent"] == "Yuri Olsen")
    assert yuri["members"][0] == pytest.approx(0.5)  # Yuri against himself


@pytest.mark.parametrize(
    "flags",
    [["--scheduler", "tcp://127.0.0.1:1"], ["--games", "10", "--workers", "2"], ["--seed", "3"]],
)
def test_simulate_alone_refuses_the_flags_that_play_games(
    flags: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alone, a party's odds are exact and no game is played: a flag of a run of games is a
    user expecting games, told so (exit 2), not ignored; the environment's scheduler, set for
    every command, is not a flag given."""
    monkeypatch.setenv("DECKKIT_SCHEDULER", "tcp://127.0.0.1:1")  # never named
    result = runner.invoke(app, ["simulate", LIGHT, *flags])
    assert result.exit_code == 2, result.output
    named = [f for f in flags if f.startswith("--")]
    assert f"error: {', '.join(named)} " in result.stderr and "--vs PARTY" in result.stderr


def test_illegal_party_is_refused_unless_allowed() -> None:
    result = runner.invoke(app, ["simulate", ILLEGAL, "--vs", DARK, "--games", "10"])
    assert result.exit_code == 1 and "Light and Darkness" in result.output
    result = runner.invoke(
        app, ["simulate", ILLEGAL, "--vs", DARK, "--games", "10", "--allow-illegal"]
    )
    assert result.exit_code == 0, result.output


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_report_page_and_sidecar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = _small_roster()[:8]  # an 8 x 8 matrix; the cost study still finds over-costed ones
    monkeypatch.setattr(matrix_mod, "roster", lambda db: small)
    out = tmp_path / "light.html"
    args = ["report", LIGHT, "--vs", DARK, "--games", "20", "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    page = out.read_text()
    doc = json.loads(out.with_suffix(".json").read_text())
    assert doc["game"] == "anima-tactics" and doc["legality"]["legal"]
    n = len(small)
    assert len(doc["matrix"]["value"]) == n and doc["matrix"]["method"] == {"exact": n * n}
    assert doc["cost_study"]["over_costed"] and doc["versus"]["games"] == 20
    # the run plays time_limit=levels, the cost study draws (its strength holds no cost)
    assert doc["rules"]["time_limit"] == "levels"
    assert doc["cost_study"]["rules"]["time_limit"] == "draw"
    assert doc["cost_study"]["scoring"] in page
    assert 'id="heat-title"' in page and 'id="cost-title"' in page  # both charts, labelled
    cells = page.split('data-values="', 1)[1].split('"', 1)[0].split(",")
    assert len(cells) == n * n and "<script>" in page  # every duel's value, for the read-out
    # the page's numbers are the sidecar's
    assert f'data-json="versus.win.count" data-fmt="int">{doc["versus"]["win"]["count"]:,}<' in page
    # What the engine does not play is said in the headline, where the answer is read.
    headline = page[
        page.index('id="headline"') : page.index("</section>", page.index('id="headline"'))
    ]
    assert "not other powers, most effect special" in headline and doc["caveat"] in headline
    # so is how far a stronger player moved the sample match-up (both sides the heuristic)
    assert 'id="player-gap"' in headline and doc["player_gap"]["reference"]
    assert mismatches(page, doc) == []
    # the user's file is not replaced without --force
    assert runner.invoke(app, args).exit_code == 2
    # an illegal party: the page opens with its violations, exit 1
    bad = tmp_path / "bad.html"
    result = runner.invoke(app, ["report", ILLEGAL, "-o", str(bad)])
    assert result.exit_code == 1
    assert 'id="illegal"' in bad.read_text() and "Light and Darkness" in bad.read_text()


def test_cards_list_and_show() -> None:
    result = runner.invoke(app, ["cards", "list", "--game", "anima-tactics", "-t", "pilot"])
    assert result.exit_code == 0 and result.output.count("\n") == 13  # header + 12 pilots
    result = runner.invoke(app, ["cards", "show", "Celia", "--game", "anima-tactics", "-f", "json"])
    doc = json.loads(result.stdout)
    assert (doc["defense"], doc["armor"]) == (10, 0) and doc["source"].startswith("https://")
    result = runner.invoke(app, ["cards", "show", "Celya", "--game", "anima-tactics"])
    assert result.exit_code == 2 and "Celia" in result.output


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_matrix_entries_past_the_size_limit_are_sampled_with_intervals() -> None:
    """Past the size limit every entry is sampled and carries its 95% interval, the two orders
    of a pair sum to one, and the JSON lists the sampled entries (the slow test below checks
    the intervals against the exact duels on 3,000 samples)."""
    small = [e for e in _small_roster() if e.name in ("Erika", "Kira")]
    sampled = compute_matrix(small, max_cells=1, samples=200, seed=2)
    assert sampled.methods() == {"monte-carlo": 4}
    assert all(cell.ci is not None for row in sampled.cells for cell in row)
    assert sampled.cells[0][1].value + sampled.cells[1][0].value == pytest.approx(1.0)
    assert sampled.as_dict()["monte_carlo"][0]["ci95"]


@pytest.mark.slow  # 12,000 sampled duels against the exact ones
def test_matrix_monte_carlo_entries_carry_intervals_around_the_exact_value() -> None:
    """Past the size limit an entry is sampled (the "guarded" plans), with a 95% interval; the
    exact duel of the same plans lies inside it."""
    from deckkit.animatactics.engine.duel import (
        PLANS,
        _Tables,
        play_exact,
        schedule,
        undecided_share,
    )
    from deckkit.animatactics.engine.options import DEFAULT_RULES

    # Two characters, four entries (both orders and each against itself), 3,000 samples each:
    # every entry keeps its interval's width (a third character cost 3 more sampled entries).
    small = [e for e in _small_roster() if e.name in ("Erika", "Kira")]
    exact = compute_matrix(small)
    sampled = compute_matrix(small, max_cells=1, samples=3000, seed=2)
    assert exact.methods() == {"exact": 4} and sampled.methods() == {"monte-carlo": 4}
    for i, a in enumerate(small):
        for j, b in enumerate(small):
            cell = sampled.cells[i][j]
            assert cell.ci is not None
            outcomes = [
                play_exact(_Tables(a.duellist, b.duellist), schedule(
                    a.duellist, b.duellist, PLANS[1], PLANS[1], first),
                    undecided_share(DEFAULT_RULES, (a.levels, b.levels)))
                for first in (True, False)
            ]  # fmt: skip
            value = 0.5 * (outcomes[0].value + outcomes[1].value)
            assert cell.ci[0] <= value <= cell.ci[1], (a.name, b.name, value, cell.ci)
            if i != j:
                assert cell.value + sampled.cells[j][i].value == pytest.approx(1.0)
    assert sampled.as_dict()["monte_carlo"][0]["ci95"]


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_cost_study_ranks_by_residual_and_leaves_out_the_pair() -> None:
    m = compute_matrix(_small_roster())
    study = cost_study(m)
    over, under = study.furthest(3)
    assert [p.residual for p in over] == sorted((p.residual for p in over), reverse=True)
    assert all(p.residual >= q.residual for p in over for q in under)
    assert study.slope > 0
    assert len(study.excluded) == 2 and all("Gemini" in e for e in study.excluded)
    for p in study.points:
        assert p.interval[0] < p.predicted < p.interval[1]
    goethia = next(e for e in m.entrants if e.name == "Goethia")
    assert goethia.levels == 50 + 5 and "piloted by" in goethia.note


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_cost_study_scores_its_duels_as_draws_whatever_the_runs_time_limit() -> None:
    """ "The standard scenario is that the player with the most levels on the table at the end
    of 10 turns is the winner" (rulebook, "Winning"): under the default ``time_limit=levels`` a
    duel still standing goes to the character worth more levels, so a strength measured that
    way contains the level cost the study regresses on it. The study scores its duels with
    ``time_limit=draw`` whatever the run's rule options, and says so."""
    small = _small_roster()[:8]
    by_levels = compute_matrix(small)  # the run's default: time_limit=levels
    by_draw = compute_matrix(small, rules=RuleSet(time_limit="draw"))
    study = cost_study(by_levels)
    fitted = {p.name: p.strength for p in study.points}
    rows = [i for i, e in enumerate(small) if e.name in fitted]
    # on this roster the scoring changes strengths, so the check below can tell them apart
    assert any(abs(by_levels.strength(i) - by_draw.strength(i)) > 1e-3 for i in rows)
    for i in rows:
        assert fitted[small[i].name] == pytest.approx(by_draw.strength(i), abs=1e-12)
    doc = study.as_dict()
    assert study.rules.time_limit == "draw" and doc["rules"]["time_limit"] == "draw"
    assert "circular" in doc["scoring"]
    # the run's other options stay: an alternate initiative is played by the study too
    alternate = cost_study(compute_matrix(small, rules=RuleSet(initiative="alternate")))
    assert alternate.rules == RuleSet(time_limit="draw", initiative="alternate")


def test_cards_show_against_gives_the_exact_attack_odds() -> None:
    args = ["cards", "show", "Kira", "--game", "anima-tactics", "--against", "Celia", "-f", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    odds = json.loads(result.stdout)["against"]["odds"]
    plain = odds["attack, no defence"]
    # Kira (Attack 5, Damage 4) on Celia (Defense 10, Armor 0): 5+ on the d10 hits, 4 to 9 LP
    assert plain["p_hit"] == pytest.approx(0.6)
    assert plain["exact"]["damage"] == {str(k): "1/10" for k in range(4, 10)}
    assert odds["attack, Dodge or Counterattack"]["p_hit"] == pytest.approx(0.2)


def test_every_simulate_output_says_what_the_engine_does_not_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Powers, effect specials, states and advantage cards are not played (issue 27): text and
    JSON say so beside the figures (the JSON of a party alone, its exact odds against the whole
    roster, is checked in test_simulate_alone_gives_exact_odds_against_the_roster; here the
    party alone duels a dozen characters, and the runs against a party play 10 games: the
    notice does not depend on either)."""
    small = _small_roster()
    monkeypatch.setattr(matrix_mod, "roster", lambda db: small)
    for extra in ([], ["--vs", DARK, "--games", "10"]):
        text = runner.invoke(app, ["simulate", LIGHT, *extra])
        assert (
            text.exit_code == 0
            and "notice: played from the printed stat lines and attacks only" in text.stdout
        )
    doc = json.loads(runner.invoke(app, ["simulate", LIGHT, "--vs", DARK, "--games", "10",
                                         "--format", "json"]).stdout)  # fmt: skip
    assert "powers" in doc["caveat"] and "special abilities" in doc["caveat"]
