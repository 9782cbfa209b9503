"""The tally and the statistics derived from it: exact merging, intervals, per-card reports."""

from __future__ import annotations

import math
import random

import pytest
from fakes import FakeEngine, fake_play
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from deckkit.analysis.summary import (
    CI_METHOD,
    Tally,
    mean_estimate,
    proportion,
    summarize,
)
from deckkit.animayhem.cardruns import card_info
from deckkit.animayhem.construction.cards import CardType
from deckkit.animayhem.engine.record import CardStat, GameRecord

ENGINE = FakeEngine()


def _records(seed: int, n: int) -> list[GameRecord]:
    return [fake_play(ENGINE, seed, i) for i in range(n)]


def test_tally_counts_outcomes_and_sums() -> None:
    records = _records(3, 200)
    tally = Tally.of(records)
    assert tally.games == 200
    assert tally.wins == sum(r.outcome == "win" for r in records)
    assert tally.losses == sum(r.outcome == "loss" for r in records)
    assert tally.stalls == sum(r.outcome == "stall" for r in records)
    assert tally.wins + tally.losses + tally.stalls == 200
    assert tally.turns_sum == sum(r.turns for r in records)
    assert tally.turns_sq_sum == sum(r.turns**2 for r in records)
    assert tally.turns_min == min(r.turns for r in records)
    assert tally.turns_max == max(r.turns for r in records)
    assert tally.items_lost_sum == sum(r.items_lost for r in records)
    key = ("am900", CardStat.MET)
    assert tally.card_totals[key] == sum(r.counters.get(key, 0) for r in records)
    assert tally.card_games[key] == sum(1 for r in records if r.counters.get(key, 0))


def test_unknown_outcome_is_an_error() -> None:
    bad = GameRecord(0, "draw", 1, 1, 0, 0, "?")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown outcome"):
        Tally().add(bad)


@settings(max_examples=30, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=0, max_value=15), min_size=1, max_size=8),
    order_seed=st.integers(min_value=0, max_value=2**32),
)
def test_merge_is_order_independent(sizes: list[int], order_seed: int) -> None:
    """Splitting games into any chunks and merging them in any order gives the same tally."""
    records = _records(11, sum(sizes))
    whole = Tally.of(records)
    parts: list[Tally] = []
    at = 0
    for size in sizes:
        parts.append(Tally.of(records[at : at + size]))
        at += size
    random.Random(order_seed).shuffle(parts)
    merged = Tally()
    for part in parts:
        merged = merged.merged(part)
    assert merged == whole
    assert summarize(merged).as_dict() == summarize(whole).as_dict()


def test_merged_leaves_inputs_unchanged() -> None:
    a, b = Tally.of(_records(1, 5)), Tally.of(_records(2, 7))
    a_before, b_before = a.copy(), b.copy()
    both = a.merged(b)
    assert (a, b) == (a_before, b_before)
    assert both.games == 12


def test_wilson_interval_matches_scipy_and_a_known_value() -> None:
    rate = proportion(7, 20)
    assert rate.rate == pytest.approx(0.35)
    assert rate.ci is not None
    expected = stats.binomtest(7, 20).proportion_ci(confidence_level=0.95, method="wilson")
    assert rate.ci == pytest.approx((expected.low, expected.high))
    # Independently: the Wilson score formula, p +- z sqrt(p(1-p)/n + z^2/4n^2) over 1 + z^2/n.
    z, n, p = stats.norm.ppf(0.975), 20, 0.35
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert rate.ci == pytest.approx((centre - half, centre + half))
    assert rate.ci == pytest.approx((0.1812, 0.5671), abs=1e-4)


@pytest.mark.parametrize("n", [1, 2, 7, 50, 1000, 123_457])
def test_closed_form_wilson_equals_scipy_everywhere(n: int) -> None:
    for count in sorted({0, 1, n // 3, n // 2, n - 1, n} - {-1}):
        for confidence in (0.8, 0.95, 0.99):
            ours = proportion(count, n, confidence).ci
            theirs = stats.binomtest(count, n).proportion_ci(confidence, method="wilson")
            assert ours == pytest.approx((theirs.low, theirs.high), abs=1e-12), (count, n)


def test_t_interval_matches_scipy_stats() -> None:
    values = [3, 5, 8, 8, 13, 2, 9]
    est = mean_estimate(len(values), sum(values), sum(v * v for v in values))
    assert est.ci is not None and est.mean is not None and est.std is not None
    lo, hi = stats.t.interval(0.95, len(values) - 1, loc=est.mean, scale=est.std / math.sqrt(7))
    assert est.ci == pytest.approx((lo, hi), abs=1e-12)


@pytest.mark.parametrize("n", [5, 30, 300, 2_000, 100_000])
def test_the_t_interval_uses_scipys_quantile(n: int) -> None:
    """The mean's interval takes its quantile from scipy (stdtrit, as stats.t.ppf), not from a
    hand-written one (which agreed to about 1e-13 relative, so no printed figure moved)."""
    from scipy.special import stdtrit

    total, sq_total = 12 * n, 12 * 12 * n + 7 * n  # mean 12, variance 7 n / (n - 1)
    est = mean_estimate(n, total, sq_total)
    assert est.ci is not None and est.mean == 12 and est.std is not None
    half = float(stdtrit(n - 1, 0.975)) * est.std / math.sqrt(n)
    assert est.ci == (12 - half, 12 + half)


def test_interval_at_the_edges() -> None:
    zero = proportion(0, 50)
    assert zero.rate == 0.0 and zero.ci is not None
    assert zero.ci[0] == 0.0 and 0.0 < zero.ci[1] < 0.1
    everything = proportion(50, 50)
    assert everything.ci is not None and everything.ci[1] == pytest.approx(1.0)
    empty = proportion(0, 0)
    assert empty.rate is None and empty.ci is None


def test_mean_estimate_matches_numpy_and_t_interval() -> None:
    values = [3, 8, 8, 12, 40, 7, 7, 1]
    est = mean_estimate(len(values), sum(values), sum(v * v for v in values), 1, 40)
    sem = stats.sem(values)
    low, high = stats.t.interval(0.95, len(values) - 1, loc=sum(values) / len(values), scale=sem)
    assert est.mean == pytest.approx(sum(values) / len(values))
    assert est.std == pytest.approx(stats.tstd(values))
    assert est.ci == pytest.approx((low, high))
    assert mean_estimate(1, 5, 25).ci is None
    assert mean_estimate(0, 0, 0).mean is None


def test_summary_rates_and_card_table() -> None:
    records = _records(5, 300)
    catalog = {
        "am900": card_info("am900", "Giant Robot", CardType.DISASTER),
        "am901": card_info("am901", "Goku", CardType.DISASTER),
        "am100": card_info("am100", "Goku", CardType.CHARACTER),
        "am101": card_info("am101", "Ranma", CardType.CHARACTER),
        "am500": card_info("am500", "Tokyo", CardType.LOCATION),
        "am700": card_info("am700", "Never Met", CardType.DISASTER),
        "am300": card_info("am300", "Sword", CardType.EQUIPMENT),
    }
    summary = summarize(Tally.of(records), catalog)
    data = summary.as_dict()
    wins = sum(r.outcome == "win" for r in records)
    assert data["games"] == 300 and data["wins"] == wins
    assert data["win_rate"] == pytest.approx(wins / 300)
    low, high = data["win_rate_ci"]
    assert low < data["win_rate"] < high
    assert data["ci_method"] == CI_METHOD == "wilson"
    assert data["mean_turns"] == pytest.approx(sum(r.turns for r in records) / 300)
    # Keyed by card id, the name beside it; characters come first.
    cards = {
        c["name"] if c["name"] != "Goku" else f"Goku ({i})": c for i, c in data["cards"].items()
    }
    assert "Goku (am100)" in cards and "Goku (am901)" in cards and "Giant Robot" in cards
    assert list(cards)[:2] == ["Goku (am100)", "Ranma"]
    assert data["cards"]["am900"]["name"] == "Giant Robot"
    robot = cards["Giant Robot"]
    met = sum(r.counters.get(("am900", CardStat.MET), 0) for r in records)
    assert robot["totals"]["met"] == met
    assert robot["per_game"]["met"] == pytest.approx(met / 300)
    assert set(robot["totals"]) == {"met", "defeated", "items_carried_off", "bonked", "killed"}
    assert cards["Never Met"]["totals"]["met"] == 0  # zero-filled, still reported
    assert "Sword" not in cards  # no counters for equipment
    assert set(cards["Tokyo"]["totals"]) == {"scavenge_attempts", "scavenge_successes"}


def test_counters_of_unknown_cards_are_reported_by_id() -> None:
    record = GameRecord(0, "win", 10, 6, 6, 0, "items retrieved")
    record.bump("am999", CardStat.MET, 2)
    data = summarize(Tally.of([record]), {}).as_dict()
    assert data["cards"]["am999"]["name"] is None
    assert data["cards"]["am999"]["totals"] == {"met": 2}


def test_empty_summary_has_no_rates() -> None:
    data = summarize(Tally()).as_dict()
    assert data["games"] == 0 and data["win_rate"] is None and data["win_rate_ci"] is None
