"""`deckkit validate`: verdict, exit codes, text on stdout and errors on stderr, the JSON
contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "decks" / "demo-solo.deck"
TRIO = ROOT / "decks" / "trio-3p.deck"
DATA = ROOT / "tests" / "data"

runner = CliRunner()


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["validate", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_demo_deck_legal_exit_0() -> None:
    """Exit 0 for a legal deck (errors.py exit codes); the verdict, counts table and formula are
    printed on stdout."""
    code, out, err = invoke(DEMO)
    assert code == 0, out + err
    assert out.startswith("LEGAL: Solo demo under guidelines1998 (standard, 1 player)")
    assert "D = 2×9 + ceil((10 + 1 + 5)/2) − 2×1 = 24" in out
    assert "locations" in out and "combat disasters" in out
    assert err == ""


def test_trio_deck_legal_for_three_players() -> None:
    """general-play rules 1996 table: 3 players use 5 locations; the header says players: 3."""
    code, out, _ = invoke(TRIO)
    assert code == 0 and "(standard, 3 players)" in out


@pytest.mark.parametrize(
    ("edition", "code"), [("set0", 1), ("general1996", 0), ("guidelines1998", 0), ("fifth2018", 1)]
)
def test_demo_deck_per_edition(edition: str, code: int) -> None:
    """The demo deck targets general1996/guidelines1998; set0 (step B counts only characters
    beyond four) and fifth2018 (ceil(1.5 × L) items) need other counts."""
    assert invoke(DEMO, "--edition", edition)[0] == code


@pytest.mark.parametrize("edition", ["set0", "fifth2018"])
def test_edition_specific_demo_decks(edition: str) -> None:
    """The demo deck adjusted to set0 and fifth2018 is legal under that edition."""
    assert invoke(ROOT / "decks" / f"demo-solo-{edition}.deck")[0] == 0


def test_illegal_deck_exit_1_with_arithmetic_and_fix() -> None:
    """Exit 1 for an illegal deck; the violation shows the formula with the deck's numbers and
    what to add (general-play rules 1996 disaster formula)."""
    code, out, err = invoke(DATA / "illegal-disasters.deck")
    assert code == 1
    assert out.startswith("ILLEGAL: Two short")
    assert "D = 2×9 + ceil((10 + 1 + 5)/2) − 2×1 = 24; the deck has 22 disasters" in out
    assert "fix: add 2 disasters" in out
    assert err == ""


def test_flags_override_header() -> None:
    """Header values are defaults the flags override: the demo deck for 2 players needs 7
    locations (set0 / 1996 location table)."""
    code, out, _ = invoke(DEMO, "--players", "2")
    assert code == 1 and "2 players: 7 locations" in out


def test_transforming_pair_and_combat_copies_by_edition() -> None:
    """1998 guidelines 2.5 forbids both forms of Washu; set0 also forbids a 4th Punch (Combat
    Cards ≤ 3); general1996 allows both (pair set aside, combat unlimited)."""
    deck = DATA / "illegal-washu.deck"
    code, out, _ = invoke(deck, "--format", "json")
    assert code == 1
    assert [v["rule"] for v in json.loads(out)["violations"]] == ["characters.transforming"]
    code, out, _ = invoke(deck, "--format", "json", "--edition", "set0")
    assert "copies.combat" in {v["rule"] for v in json.loads(out)["violations"]}
    assert invoke(deck, "--edition", "general1996")[0] == 0


def test_json_shape() -> None:
    """JSON contract for CI: legal, edition, variant, players, counts, required (5 keys),
    violations (rule, message), notes."""
    code, out, err = invoke(DATA / "illegal-disasters.deck", "--format", "json")
    assert code == 1 and err == ""
    data = json.loads(out)
    assert {"legal", "edition", "variant", "players", "counts", "required", "violations",
            "notes"} <= set(data)  # fmt: skip
    assert data["legal"] is False
    assert (data["edition"], data["variant"], data["players"]) == ("guidelines1998", "standard", 1)
    assert data["required"] == {"locations": 9, "items": 9, "disasters": 24,
                                "combat_disasters": 12, "major_disasters": 8}  # fmt: skip
    assert data["counts"]["disasters"] == 22 and data["counts"]["combat_disasters"] == 22
    assert data["violations"][0]["rule"] == "disasters.count"
    assert "= 24" in data["violations"][0]["message"]
    assert isinstance(data["notes"], list)


def test_set0_output_states_rounding_choice() -> None:
    """set0 rulebook, Disaster Cards step B: the rounding is not stated; validate says what
    deckkit chose."""
    code, out, _ = invoke(ROOT / "decks" / "demo-solo-set0.deck")
    assert code == 0 and "rounds up" in out


def test_unreadable_deck_text_error_on_stderr_exit_2() -> None:
    """Exit 2 for an unreadable deck; the error (file, line, hint) goes to stderr, not stdout."""
    code, out, err = invoke(DATA / "unknown-card.deck")
    assert code == 2 and out == ""
    assert "unknown-card.deck, line 4: unknown card 'Krilin'" in err
    assert "Krillin" in err


def test_unreadable_deck_json_error_object_exit_2() -> None:
    """In JSON mode an unreadable deck still prints a JSON object with an "error" field."""
    code, out, _ = invoke(DATA / "unknown-card.deck", "--format", "json")
    assert code == 2
    data = json.loads(out)
    assert data["error"] == "unknown card 'Krilin'" and data["line"] == 4
    assert data["file"].endswith("unknown-card.deck") and "Krillin" in data["hint"]
    code, out, _ = invoke(DATA / "missing.deck", "--format", "json")
    assert code == 2 and "cannot read" in json.loads(out)["error"]


@pytest.mark.parametrize(
    "args",
    [
        ("--edition", "fourth"),
        ("--variant", "hexagon"),
        ("--players", "0"),
        ("--format", "yaml"),
    ],
)
def test_bad_usage_exit_2(args: tuple[str, ...]) -> None:
    """Exit 2 for bad usage: unknown edition or variant, players below 1, unknown format."""
    code, out, err = invoke(DEMO, *args)
    assert code == 2
    assert out == "" and err


def test_unknown_edition_json_error() -> None:
    """JSON mode reports a bad --edition as a JSON error object as well."""
    code, out, _ = invoke(DEMO, "--edition", "fourth", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and "'fourth' is not one of: set0" in doc["error"]
    assert doc["schema_version"] == 1


def test_variant_flag() -> None:
    """set0 Part IV, Big Square is a four-player variant: the demo deck fails it."""
    code, out, _ = invoke(DEMO, "--variant", "big-square", "--format", "json")
    rules = {v["rule"] for v in json.loads(out)["violations"]}
    assert code == 1 and {"variant.players", "locations.count"} <= rules


def test_help() -> None:
    """`deckkit validate --help` documents the options and exit codes."""
    result = runner.invoke(app, ["validate", "--help"])
    assert result.exit_code == 0
    for word in ("--players", "--edition", "--variant", "--format", "guidelines1998", "Exit"):
        assert word in result.stdout


@pytest.mark.slow  # the console script in fresh interpreters, one per exit code: end to end
def test_console_script_exit_codes() -> None:
    """The installed entry point (`python -m deckkit`) maps legal/illegal/unreadable to 0/1/2."""
    codes = [
        subprocess.run(
            [sys.executable, "-m", "deckkit", "validate", str(p)], capture_output=True, check=False
        ).returncode
        for p in (DEMO, DATA / "illegal-disasters.deck", DATA / "unknown-card.deck")
    ]
    assert codes == [0, 1, 2]
