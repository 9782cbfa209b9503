"""`deckkit build` for Anima Tactics (issue 29, point 4): an exact knapsack screen over legal
groupings, a seeded race against field parties, the winner confirmed on fresh games."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animatactics.analysis import party_build as pb
from deckkit.animatactics.analysis.matrix import roster
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.editions import load_edition
from deckkit.animatactics.construction.legality import check_party
from deckkit.animatactics.engine.options import DEFAULT_RULES, RuleSet
from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
runner = CliRunner()


def test_the_knapsack_is_exact_against_brute_force() -> None:
    rng = random.Random(7)
    everyone = roster(load_card_db())
    for _ in range(25):
        items = rng.sample(everyone, 9)
        worth = {e.name: rng.random() * e.levels for e in items}
        budget = rng.randrange(60, 260)
        got = pb.knapsack(items, worth, budget, frozenset())
        assert sum(e.levels for e in got) <= budget
        best = max(
            (sum(worth[e.name] for e in combo))
            for k in range(len(items) + 1)
            for combo in itertools.combinations(items, k)
            if sum(e.levels for e in combo) <= budget
        )
        assert abs(sum(worth[e.name] for e in got) - best) < 1e-9


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_every_candidate_is_legal_and_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    db = load_card_db()
    pool = roster(db)[:40]
    field = pb.field_of(db, [])[:3]  # the field ranks candidates; legal or not is the pool's
    # The pool's worths against the field (120 exact duels) hold for every edition: once.
    once = pb.worths(pool, field)

    def worths(p: object, f: object, rules: RuleSet = DEFAULT_RULES) -> list[float]:
        assert p is pool and f is field and rules == DEFAULT_RULES
        return once

    monkeypatch.setattr(pb, "worths", worths)
    for edition, levels in (("saga1", 250), ("later", 300), ("saga1", 150)):
        ed = load_edition(edition)
        found = pb.candidates(pool, field, ed, levels)
        assert found
        for c in found:
            assert c.levels <= levels
            assert check_party(c.party("x"), ed, levels).legal
        assert [c.worth for c in found] == sorted((c.worth for c in found), reverse=True)


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_the_race_keeps_a_planted_best_and_confirms_on_fresh_seeds() -> None:
    """Candidates whose planted win rates differ widely: the race never drops the best; the
    confirmation uses a seed no race game used."""
    db = load_card_db()
    found = pb.candidates(roster(db)[:30], pb.field_of(db, [])[:4], load_edition("saga1"), 250)
    assert len(found) >= 4
    rates = {c.names: 0.2 + 0.1 * i for i, c in enumerate(found[: pb.RACED])}
    planted = max(rates, key=lambda k: rates[k])
    seeds: list[int] = []

    def fake(a, b, n, seed):  # type: ignore[no-untyped-def]
        seeds.append(seed)
        names = tuple(m.character.name for m in a.members)
        rng = random.Random(f"{names}:{seed}")
        wins = sum(rng.random() < rates[names] for _ in range(n))
        return {
            "games": n,
            "win": {"count": wins},
            "draw": {"count": 0},
            "loss": {"count": n - wins},
        }

    field = [found[0].party("field")]
    ranked = pb.race(found, field, fake, games=4_000, seed=5)
    assert ranked[0].candidate.names == planted
    race_seeds = set(seeds)
    seeds.clear()
    conf = pb.confirm(ranked[0].candidate, field, fake, games=500, seed=5)
    assert conf["games"] == 500 and not set(seeds) & race_seeds


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_build_against_a_field_writes_a_legal_party(tmp_path: Path) -> None:
    out = tmp_path / "built.party"
    pools = ["--pool", str(DECKS / "at-empire-light.party")]
    pools += ["--pool", str(DECKS / "at-unaligned.party")]
    args = ["build", "--vs", str(DECKS / "at-samael-darkness.party"), *pools, "--levels", "250",
            "-n", "40", "--confirm", "10", "-o", str(out), "--format", "json"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["game"] == "anima-tactics" and doc["confirmation"]["games"] == 10
    owned = {"Yuri Olsen", "Claire Adelheid", "Daniella Meris", "Duncan Reid", "Erika"}
    section = (DECKS / "at-unaligned.party").read_text().split("[characters]")[1].split("[")[0]
    owned |= {line.split("#")[0].strip() for line in section.splitlines()}
    assert {m["name"] for m in doc["best"]["members"]} <= owned
    checked = runner.invoke(app, ["validate", str(out), "--format", "json"])
    assert checked.exit_code == 0 and json.loads(checked.stdout)["legal"]
    # The player's file is not replaced without --force.
    assert runner.invoke(app, args).exit_code == 2
