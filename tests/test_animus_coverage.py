"""`deckkit cards coverage` for Animus: which ability lines the battle engine plays, found by
putting each line through the engine (deckkit.animus.engine.coverage), not from a list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animus.construction.cards import Ability, Effect, Keyword, Kind
from deckkit.animus.engine import coverage
from deckkit.animus.engine.state import Battle
from deckkit.cli.main import app
from tests.schema_check import Validator

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "decks" / "animus-vanguard.team"
runner = CliRunner()


def level(kind: Kind, ability: Ability) -> str:
    return coverage.played(coverage._card("x", "x", kind), ability).level


@pytest.mark.parametrize("keyword", [Keyword.PLAY, Keyword.TACTICAL, Keyword.COMBAT,
                                     Keyword.KILL, Keyword.DEATH, Keyword.RESET])  # fmt: skip
@pytest.mark.parametrize("effect", [Effect.DAMAGE, Effect.HEAL, Effect.DRAW])
def test_a_character_s_triggered_lines_are_played_in_full(keyword: Keyword, effect: Effect) -> None:
    assert level(Kind.CHARACTER, Ability(keyword, effect, n=1)) == coverage.FULL


def test_what_the_engine_never_reads_is_found_not_played() -> None:
    # an Entity is never dealt into a hand, never damaged, never fights
    for keyword in (Keyword.PLAY, Keyword.RESET):
        assert level(Kind.ENTITY, Ability(keyword, Effect.DRAW, n=1)) == coverage.NONE
    damaged = Ability(Keyword.REACTION, Effect.DRAW, n=1, condition="damaged")
    assert level(Kind.ENTITY, damaged) == coverage.NONE
    assert level(Kind.ENTITY, Ability(Keyword.ONGOING, Effect.EDGE)) == coverage.NONE
    assert level(Kind.ENTITY, Ability(Keyword.ONGOING, Effect.TOUGH, n=1)) == coverage.NONE
    # a hand size is the Entity's to change, not a character's
    assert level(Kind.CHARACTER, Ability(Keyword.ONGOING, Effect.HAND, n=1)) == coverage.NONE
    assert level(Kind.ENTITY, Ability(Keyword.ONGOING, Effect.HAND, n=1)) == coverage.FULL
    assert level(Kind.ENTITY, Ability(Keyword.TACTICAL, Effect.HEAL, n=1)) == coverage.FULL


def test_a_reaction_is_played_in_part_one_level_deep() -> None:
    for condition in ("damaged", "ally_killed"):
        found = coverage.played(
            coverage._card("x", "x", Kind.CHARACTER),
            Ability(Keyword.REACTION, Effect.DRAW, n=1, condition=condition),
        )
        assert found.level == coverage.APPROXIMATE and "another Reaction" in found.note


def test_the_levels_follow_the_engine_not_a_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that stopped reading the Entity's hand() would have its line found unplayed."""
    hand = Ability(Keyword.ONGOING, Effect.HAND, n=1)
    assert level(Kind.ENTITY, hand) == coverage.FULL
    monkeypatch.setattr(Battle, "hand_size", lambda self, side: self.numbers.hand_size)
    assert level(Kind.ENTITY, hand) == coverage.NONE


def test_coverage_of_a_team_and_of_the_card_set() -> None:
    validator = Validator(ROOT / "docs" / "schemas")
    result = runner.invoke(app, ["cards", "coverage", str(TEAM), "--cards", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert validator.errors(doc, "cards-coverage.schema.json") == []
    assert doc["team"] == "Vanguard"
    total = next(g for g in doc["groups"] if g["group"] == "all")
    assert total["abilities"] == len(doc["abilities"]) == sum(c["abilities"] for c in doc["cards"])
    whole = runner.invoke(app, ["cards", "coverage", "--game", "animus", "-f", "json"])
    assert whole.exit_code == 0, whole.stderr
    everything = json.loads(whole.stdout)
    assert "abilities" not in everything  # only with --cards, as for the other games
    assert (
        next(g for g in everything["groups"] if g["group"] == "all")["abilities"]
        > total["abilities"]
    )
    text = runner.invoke(app, ["cards", "coverage", str(TEAM), "--cards"])
    assert text.exit_code == 0 and "in part" in text.stdout and "Ilka Varga" in text.stdout
    missing = runner.invoke(app, ["cards", "coverage", "nowhere.team", "--game", "animus"])
    assert missing.exit_code == 2
