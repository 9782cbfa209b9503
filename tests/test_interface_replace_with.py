"""`deckkit impact PARTY|TEAM --vs ... --replace-with NAME`: each character measured against one
named character in its place, on the same games as the file itself (the change equals
`compare` of the file and the changed file written out, same seed and games); the changed file
checked against the game's rules first (a party keeps its level total: an illegal change is
refused with the broken rules, exit 1, unless --allow-illegal); a name that cannot take the
place is bad usage (exit 2). The JSON validates against docs/schemas/impact.schema.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_INPUT, EXIT_ILLEGAL
from tests.schema_check import Validator

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
PARTY, PARTY_VS = DECKS / "at-unaligned.party", DECKS / "at-samael-darkness.party"
TEAM, TEAM_VS = DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"
GAMES = 20  # on seed 3 both named changes move the win rate (0.05, -0.05): a pairing shows
validator = Validator(ROOT / "docs" / "schemas")
runner = CliRunner()


def run(*args: str | Path | int) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def _impact_json(*args: str | Path | int) -> dict[str, object]:
    code, out, err = run("impact", *args, "-n", GAMES, "-s", 3, "-q", "-f", "json")
    assert code == 0, err
    doc: dict[str, object] = json.loads(out)
    assert validator.errors(doc, "impact.schema.json") == []
    return doc


def _compare_difference(file: Path, changed: Path, vs: Path) -> float:
    code, out, err = run(
        "compare", file, changed, "--vs", vs, "-n", GAMES, "-s", 3, "-q", "-f", "json"
    )
    assert code == 0, err
    (difference,) = json.loads(out)["differences"]
    value: float = difference["difference"]
    return value


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_a_party_s_character_against_a_named_one_is_paired_on_the_same_games(
    tmp_path: Path,
) -> None:
    """Kira out, Duncan Reid in (the party within its 250 levels): the change is the named
    change's alone, on the games the party itself plays."""
    doc = _impact_json(PARTY, "--vs", PARTY_VS, "--card", "Kira", "--replace-with", "duncan reid")
    assert doc["replace_with"] == "duncan reid"
    assert str(doc["command"]).endswith("--card Kira --replace-with 'duncan reid'")
    (card,) = doc["impact"]["cards"]  # type: ignore[index]
    assert card["kind"] == "named"
    assert [s["change"] for s in card["stand_ins"]] == ["replaced by Duncan Reid (named)"]
    assert "--replace-with" in doc["impact"]["method"]  # type: ignore[index]
    # The same as comparing the party with the changed party written out, on the same games.
    text = PARTY.read_text(encoding="utf-8").replace(
        "Kira                # 40", "Duncan Reid         # named"
    )
    assert "Duncan Reid" in text
    changed = tmp_path / "changed.party"
    changed.write_text(text, encoding="utf-8")
    assert card["difference"] == pytest.approx(_compare_difference(PARTY, changed, PARTY_VS))


def test_a_team_s_character_against_a_named_one_of_its_card_file(tmp_path: Path) -> None:
    doc = _impact_json(
        TEAM, "--vs", TEAM_VS, "--card", "Ilka Varga", "--replace-with", "Sabine Ostrava"
    )
    (card,) = doc["impact"]["cards"]  # type: ignore[index]
    assert card["kind"] == "named"
    assert card["change"] == "replaced by Sabine Ostrava (named)"
    # The changed team as a file: the draft it came from no longer holds, so none is recorded.
    head, _, rest = TEAM.read_text(encoding="utf-8").partition("[team]")
    team_lines = rest.partition("[pyramid]")[0].replace("Ilka Varga ", "Sabine Ostrava ")
    head = "\n".join(line for line in head.splitlines() if not line.startswith("drafted:"))
    changed = tmp_path / "changed.team"
    changed.write_text(f"{head}\n[team]{team_lines}", encoding="utf-8")
    assert card["difference"] == pytest.approx(_compare_difference(TEAM, changed, TEAM_VS))


def test_a_party_over_its_level_total_is_refused_before_any_game() -> None:
    code, out, err = run(
        "impact", PARTY, "--vs", PARTY_VS, "--card", "Kira", "--replace-with",
        "Hecatondies Zero Sigma", "-n", GAMES, "-q",
    )  # fmt: skip
    assert code == EXIT_ILLEGAL and out == ""
    assert "ILLEGAL: " in err and "with Kira replaced by Hecatondies Zero Sigma" in err
    assert "level budget" in err and "270 levels > 250" in err
    assert "--allow-illegal" in err
    code, out, err = run(
        "impact", PARTY, "--vs", PARTY_VS, "--card", "Kira", "--replace-with",
        "Hecatondies Zero Sigma", "-n", 4, "-q", "--allow-illegal", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["impact"]["cards"][0]["kind"] == "named"


def test_a_team_holding_the_named_character_twice_is_refused() -> None:
    code, out, err = run(
        "impact", TEAM, "--vs", TEAM_VS, "--card", "Ilka Varga", "--replace-with",
        "Juno Castell", "-n", GAMES, "-q",
    )  # fmt: skip
    assert code == EXIT_ILLEGAL and out == ""
    assert "unique cards: Juno Castell appears 2 times" in err


@pytest.mark.parametrize(
    ("file", "vs", "card", "name", "says"),
    [
        (PARTY, PARTY_VS, "Kira", "Nobody Here", "no character 'Nobody Here'"),
        (PARTY, PARTY_VS, "Kira", "Heavy Armor", "is an advantage card"),
        (PARTY, PARTY_VS, "Kira", "kira", "would be replaced by itself"),
        (TEAM, TEAM_VS, "Ilka Varga", "Nobody Here", "no card 'Nobody Here' in the card file"),
        (TEAM, TEAM_VS, "Ilka Varga", "The Ember Throne", "is an Entity"),
        (TEAM, TEAM_VS, "Ilka Varga", "Ilka Varga", "would be replaced by itself"),
    ],
)
def test_a_name_that_cannot_take_the_place_is_bad_usage(
    file: Path, vs: Path, card: str, name: str, says: str
) -> None:
    code, out, err = run(
        "impact", file, "--vs", vs, "--card", card, "--replace-with", name, "-n", 2, "-q"
    )
    assert code == EXIT_BAD_INPUT and out == "", err
    assert says in err
    code, out, _ = run(
        "impact", file, "--vs", vs, "--card", card, "--replace-with", name, "-n", 2, "-q",
        "-f", "json",
    )  # fmt: skip
    assert code == EXIT_BAD_INPUT
    assert validator.errors(json.loads(out), "error.schema.json") == []


def test_remove_and_replace_with_together_are_bad_usage() -> None:
    code, _, err = run(
        "impact", PARTY, "--vs", PARTY_VS, "--remove", "--replace-with", "Duncan Reid", "-n", 2
    )
    assert code == EXIT_BAD_INPUT and "not both" in err


def test_a_gear_takes_its_place_with_the_pilot_named_as_a_party_file_names_it() -> None:
    """``NAME with PILOT``, as a party file's line: without a pilot a Gear breaks the party's
    rules (its recovery and part of its cost come from its pilot)."""
    doc = _impact_json(PARTY, "--vs", PARTY_VS, "--card", "Griever", "--replace-with",
                       "Goethia with Valis")  # fmt: skip
    (card,) = doc["impact"]["cards"]  # type: ignore[index]
    assert card["change"] == "replaced by Goethia with Valis (named)"
    code, out, err = run(
        "impact", PARTY, "--vs", PARTY_VS, "--card", "Griever", "--replace-with", "Goethia",
        "-n", 2, "-q",
    )  # fmt: skip
    assert code == EXIT_ILLEGAL and out == "" and "gear without pilot" in err
    code, _, err = run(
        "impact", PARTY, "--vs", PARTY_VS, "--card", "Griever", "--replace-with",
        "Goethia with Nobody", "-n", 2, "-q",
    )  # fmt: skip
    assert code == EXIT_BAD_INPUT and "no pilot 'Nobody'" in err
