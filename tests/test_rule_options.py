"""Rule options (`--rule NAME=VALUE`): accepted from the command line, a deck header and a balance
file, checked with a clear error, recorded in every output, carried to worker processes, and
measured by `deckkit sensitivity` (the same table as the report's section)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from deckkit.analysis.results import METADATA_KEY, read_results
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import parse_deck
from deckkit.animayhem.construction.editions import EDITIONS, load_edition
from deckkit.animayhem.construction.readings import EDITION_DEFAULT, RULE_OPTIONS, effective
from deckkit.balance.config import load_balance_file
from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_INPUT, DeckkitError, UsageError

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "decks" / "demo-solo.deck"
DOCS = ROOT / "docs" / "interpretations.md"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_every_rule_option_is_documented_with_its_default() -> None:
    """docs/interpretations.md names each option, its values and its default."""
    text = DOCS.read_text(encoding="utf-8")
    for o in RULE_OPTIONS:
        assert f"`{o.name}`" in text, o.name
        for v in o.values:
            assert f"`{v}`" in text, (o.name, v)


def test_every_default_quotes_its_passage_and_the_other_way() -> None:
    """docs/interpretations.md, "Rule options": each option's row names its default (edition by
    edition where the edition sets it) with a quoted passage, and quotes the passages that
    argue the other way in its last column."""
    rows: dict[str, list[str]] = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) == 4 and cells[0].strip("`") in {o.name for o in RULE_OPTIONS}:
            rows[cells[0].strip("`")] = cells
    for o in RULE_OPTIONS:
        _, _, default, other = rows[o.name]
        if o.default == EDITION_DEFAULT:
            for name in EDITIONS:
                value = getattr(load_edition(name).play, o.field)
                assert re.search(rf"{name}[^.:]*: `{value}`", default), (o.name, name, value)
        else:
            assert default.startswith(f"`{o.default}`"), o.name
        assert default.count('"') >= 2 and other.count('"') >= 2, o.name


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("charm", "expected NAME=VALUE"),
        ("charm=sometimes", "rule charm has no value 'sometimes'"),
        ("glamour=every", "unknown rule option 'glamour'"),
        ("stalemate_rounds=0", "whole number from 1 to 1,000"),
    ],
)
def test_a_bad_rule_is_a_usage_error(rule: str, words: str) -> None:
    code, _, err = run("simulate", DEMO, "--games", "1", "--rule", rule)
    assert code == EXIT_BAD_INPUT and words in err


def test_deck_header_rule_lines(tmp_path: Path) -> None:
    """A deck header may carry `rule: NAME=VALUE` lines (repeatable); a bad one is reported with
    the file and line."""
    body = DEMO.read_text(encoding="utf-8")
    deck = parse_deck("rule: charm=every\nrule: item_pickup=through\n" + body, load_card_db())
    assert deck.rules == (("charm", "every"), ("item_pickup", "through"))
    with pytest.raises(DeckkitError) as info:
        parse_deck("rule: charm=never\n" + body, load_card_db(), tmp_path / "x.deck")
    assert info.value.line == 1 and "charm" in info.value.message


def test_flags_override_the_deck_header(tmp_path: Path) -> None:
    deck = tmp_path / "ruled.deck"
    deck.write_text("rule: charm=every\n" + DEMO.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run("simulate", deck, "--games", "5", "--format", "json", "--quiet")
    assert code == 0 and json.loads(out)["rules"]["charm"] == "every"
    code, out, _ = run(
        "simulate", deck, "--games", "5", "--format", "json", "--quiet", "--rule", "charm=off"
    )
    assert code == 0 and json.loads(out)["rules"]["charm"] == "off"


def test_balance_file_rules(tmp_path: Path) -> None:
    """`rules = { NAME = "VALUE" }` at the top level and in a check, merged; bad ones are usage
    errors naming the check."""
    path = tmp_path / "balance.toml"
    path.write_text(
        f'rules = {{ charm = "every" }}\n[[check]]\nname = "a"\ndeck = "{DEMO}"\n'
        'band = [0.5, 0.9]\nrules = { item_pickup = "through" }\n',
        encoding="utf-8",
    )
    check = load_balance_file(path).checks[0]
    assert dict(check.rules) == {"charm": "every", "item_pickup": "through"}
    path.write_text(
        f'[[check]]\nname = "a"\ndeck = "{DEMO}"\nband = [0.5, 0.9]\n'
        'rules = { charm = "maybe" }\n',
        encoding="utf-8",
    )
    with pytest.raises(UsageError, match=r"check 'a'.*charm"):
        load_balance_file(path)


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_rules_are_recorded_and_reach_the_workers(tmp_path: Path) -> None:
    """Every output names every option's value; the Parquet metadata keeps them, `report --from`
    shows them and its command plays them again; 1 or 2 workers give the same results with a
    rule option set (the workers receive the edition with the readings)."""
    out = tmp_path / "run.parquet"
    common = ["--games", "40", "--seed", "3", "--quiet", "--rule", "item_pickup=through"]
    code, one, _ = run("simulate", DEMO, *common, "--format", "json", "--out", out)
    assert code == 0
    code, two, _ = run("simulate", DEMO, *common, "--format", "json", "--workers", "2")
    assert code == 0
    doc1, doc2 = json.loads(one), json.loads(two)
    assert doc1["rules"] == effective(load_edition("guidelines1998"), {"item_pickup": "through"})
    assert doc1 == doc2
    meta = json.loads(pl.read_parquet_metadata(out)[METADATA_KEY])
    assert meta["rules"] == doc1["rules"]
    _, saved = read_results(out)
    assert "--rule item_pickup=through" in saved.command()
    assert saved.command().index("charm=") < saved.command().index("stalemate_rounds=")
    page = tmp_path / "r.html"
    code, _, _ = run("report", "--from", out, "-o", page)
    assert code == 0
    sidecar = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    assert sidecar["run"]["rules"] == doc1["rules"]
    assert 'id="rules"' in page.read_text(encoding="utf-8")


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_sensitivity_table_and_the_report_section_agree(tmp_path: Path) -> None:
    """`deckkit sensitivity` plays every alternative reading on paired games; `deckkit report
    --sensitivity` shows the same table for the same games and seed."""
    code, out, _ = run("sensitivity", DEMO, "--games", "30", "--seed", "2", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    settings = [r["setting"] for r in doc["readings"]]
    assert "charm=every" in settings and "item_pickup=beneath" in settings
    assert all(r["ci"][0] <= r["difference"] <= r["ci"][1] for r in doc["readings"])
    page = tmp_path / "r.html"
    code, _, _ = run(
        "report", DEMO, "--games", "30", "--seed", "2", "--sensitivity",
        "--sensitivity-games", "30", "-o", page, "--quiet",
    )  # fmt: skip
    assert code == 0
    section = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))["sensitivity"]
    assert section["readings"] == doc["readings"]
    html = page.read_text(encoding="utf-8")
    assert 'id="sensitivity-table"' in html and "item_pickup=through" in html
    code, text, _ = run("sensitivity", DEMO, "--games", "30", "--seed", "2")
    assert code == 0 and "item_pickup=through" in text and "95% interval" in text


def test_sensitivity_covers_every_open_option_and_can_be_narrowed() -> None:
    """By default every option whose choice the edition leaves open is varied, each other value
    once (new options join the table by being defined); `--reading NAME` narrows it, and an
    unknown name is a usage error."""
    from deckkit.animayhem.construction.readings import alternatives

    code, out, _ = run("sensitivity", DEMO, "--games", "10", "--format", "json")
    assert code == 0
    settings = [r["setting"] for r in json.loads(out)["readings"]]
    expected = [f"{n}={v}" for n, v in alternatives(load_edition("guidelines1998"))]
    assert settings == expected and "haven_abandoned=discard" in settings
    code, out, _ = run(
        "sensitivity", DEMO, "--games", "10", "--format", "json", "--reading", "charm_tie"
    )
    assert code == 0 and [r["setting"] for r in json.loads(out)["readings"]] == ["charm_tie=lost"]
    code, _, err = run("sensitivity", DEMO, "--games", "10", "--reading", "glamour")
    assert code == EXIT_BAD_INPUT and "unknown rule option 'glamour'" in err
