"""`deckkit stats`: a deck's composition, the exact chance of drawing a card or kind by turn N
under the edition's draw rules (checked against scipy's hypergeometric distribution and against
the engine's own deal), and sample opening hands; text, JSON, stdin and the report's section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy.stats import hypergeom
from typer.testing import CliRunner

from deckkit.analysis.summary import wilson_interval
from deckkit.animayhem import deckstats
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import Deck, read_deck
from deckkit.animayhem.construction.editions import Edition, load_edition
from deckkit.animayhem.deckstats import DrawModel
from deckkit.cli.main import app

DECKS = Path(__file__).resolve().parent.parent / "decks"


@pytest.fixture(scope="module")
def medium() -> tuple[Deck, Edition]:
    deck = read_deck(DECKS / "medium-solo.deck", load_card_db())
    return deck, load_edition("guidelines1998")


def chance(doc: dict, key: str, turn: int) -> float:
    row = next(r for r in doc["draw_chances"] if r["key"] == key)
    return float(row["chances"][doc["turns"].index(turn)])


def test_the_deal_follows_the_edition(medium: tuple[Deck, Edition]) -> None:
    deck, edition = medium
    model = DrawModel.of(deck, edition)
    # 10 power cards + 1 character beyond the 4 starters; a hand of 7; 24 disasters of which
    # 2 x 9 lie under the locations; the draw pile: 4 of the pool and 6 disasters
    assert (model.pool, model.hand, model.disasters_in_pile, model.draw_pile) == (11, 7, 6, 10)
    set0 = DrawModel.of(deck, load_edition("set0"))  # set0 deals the hand from power cards only
    assert set0.pool == 10 and set0.characters_in_pool == 0 and set0.characters_in_pile == 1


def test_chances_are_scipys_hypergeometric(medium: tuple[Deck, Edition]) -> None:
    deck, edition = medium
    doc = deckstats.deck_stats(deck, edition, turns=(0, 1, 3, 5), hands=0)
    m = DrawModel.of(deck, edition)
    # a power card with 2 copies: none in the hand of 7 from 11, then none in k draws of 10
    for turn in (0, 1, 3, 5):
        none = hypergeom(m.pool, 2, m.hand).pmf(0) * hypergeom(m.draw_pile, 2, turn).pmf(0)
        assert chance(doc, "card:Big Sucker Gas Slash", turn) == pytest.approx(1 - none, abs=1e-12)
    # the 8 major disasters: j of them reach the pile of 10 (6 of 24 disasters), then k draws
    for turn in (1, 3, 5):
        none = sum(
            hypergeom(24, 8, 6).pmf(j) * hypergeom(m.draw_pile, j, turn).pmf(0) for j in range(7)
        )
        assert chance(doc, "major_disaster", turn) == pytest.approx(1 - none, abs=1e-12)
    assert chance(doc, "disaster", 0) == 0.0  # disasters never reach the opening hand


def test_chances_match_the_engines_deal(medium: tuple[Deck, Edition]) -> None:
    """Deal 3,000 games as the engine does and count; every exact chance lies inside the
    99.9% interval of the dealt frequency."""
    from deckkit.animayhem.engine.play import prepare_game, start_game
    from deckkit.animayhem.engine.policy import make_policy

    deck, edition = medium
    doc = deckstats.deck_stats(deck, edition, turns=(0, 2, 4), hands=0)
    setup, policy = prepare_game(deck, edition), make_policy("heuristic")
    n = 3_000
    checks = {
        ("card:Big Sucker Gas Slash", 0): lambda seen: "Big Sucker Gas Slash" in seen,
        ("card:Take Your Best Shot", 2): lambda seen: "Take Your Best Shot" in seen,
        ("power_equipment", 0): lambda seen: "equipment" in seen,
        ("major_disaster", 2): lambda seen: "major" in seen,
        ("major_disaster", 4): lambda seen: "major" in seen,
        ("combat_disaster", 2): lambda seen: "combat" in seen,
    }
    hits = dict.fromkeys(checks, 0)
    for i in range(n):
        game = start_game(setup, policy, 11, i)
        for (key, turn), test in checks.items():
            cards = [x.card for x in game.hand] + [x.card for x in game.draw_pile[::-1][:turn]]
            seen = {c.name for c in cards} | {c.type.value for c in cards}
            seen |= {"major" for c in cards if getattr(c, "major", False)}
            seen |= {"combat" for c in cards if c.type.value == "disaster" and c.combat}  # type: ignore[union-attr]
            hits[(key, turn)] += bool(test(seen))
    for (key, turn), count in hits.items():
        low, high = wilson_interval(count, n, 0.999)
        assert low <= chance(doc, key, turn) <= high, (key, turn, count / n)


def test_composition_and_skills(medium: tuple[Deck, Edition]) -> None:
    deck, edition = medium
    doc = deckstats.deck_stats(deck, edition, hands=2, seed=3)
    counts = {r["key"]: r["count"] for r in doc["composition"]}
    assert counts["disasters"] == 24 and counts["combat_disasters"] >= 12
    assert counts["major_disasters"] >= 8 and counts["power"] == 10
    assert counts["power"] == sum(v for k, v in counts.items() if k.startswith("power_"))
    assert "Streetwise" in doc["skills"]["brought"] and "Climbing" in doc["skills"]["missing"]
    assert len(doc["sample_hands"]) == 2 and all(len(h) == 7 for h in doc["sample_hands"])


def deckkit(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    from deckkit.api import deckinput

    deckinput.forget_stdin()
    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_cli_text_json_and_stdin() -> None:
    deck = str(DECKS / "medium-solo.deck")
    code, out, err = deckkit("stats", deck)
    assert code == 0, err
    assert "Composition" in out and "major disasters" in out and "sample opening hands" in out
    code, out, _ = deckkit("stats", deck, "--format", "json", "--turns", "0,2", "--hands", "1")
    doc = json.loads(out)
    assert code == 0 and doc["turns"] == [0, 2] and len(doc["sample_hands"]) == 1
    code, piped, _ = deckkit(
        "stats", "-", "-f", "json", "--turns", "0,2", "--hands", "1", stdin=Path(deck).read_text()
    )
    assert code == 0 and json.loads(piped)["draw_chances"] == doc["draw_chances"]
    code, _, err = deckkit("stats", deck, "--turns", "a,b")
    assert code == 2 and "--turns" in err


def test_every_sample_deck_has_stats() -> None:
    for deck in sorted(DECKS.glob("*.deck")):
        code, out, err = deckkit("stats", str(deck), "-f", "json", "--hands", "1")
        assert code == 0, (deck.name, err)
        for row in json.loads(out)["draw_chances"]:
            assert all(0.0 <= c <= 1.0 for c in row["chances"])
            assert row["chances"] == sorted(row["chances"])  # never less likely later


def test_report_has_the_stats_section(tmp_path: Path) -> None:
    deck = str(DECKS / "demo-solo.deck")
    page = tmp_path / "r.html"
    code, _, err = deckkit("report", deck, "-n", "20", "-s", "2", "-o", str(page), "-q")
    assert code == 0, err
    doc = json.loads(page.with_suffix(".json").read_text())
    code, out, _ = deckkit("stats", deck, "-f", "json", "--seed", "2")
    alone = json.loads(out)
    for key in ("composition", "skills", "draw_chances", "sample_hands", "turns"):
        assert doc["deck_stats"][key] == alone[key]
    html = page.read_text()
    assert 'id="deck-stats"' in html and "Sample opening hands" in html
