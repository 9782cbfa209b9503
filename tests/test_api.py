"""The Python API on its own: each function gives what its command prints for the same options
and seed (the commands are shells over it), results carry the per-game rows as a polars
DataFrame, decks changed in memory play without touching the card files, and `import deckkit`
stays free of the API until a name is used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from typer.testing import CliRunner

import deckkit
from deckkit import api
from deckkit.animayhem.construction.cards import CharacterCard
from deckkit.cli.main import app
from deckkit.errors import EXIT_ILLEGAL, UsageError

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "decks" / "demo-solo.deck"
MEDIUM = REPO / "decks" / "medium-solo.deck"
SET0 = REPO / "decks" / "demo-solo-set0.deck"  # illegal under guidelines1998


def cli_json(*args: object) -> dict[str, Any]:
    """The command's JSON body (without the schema envelope)."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    assert doc.pop("schema_version") == 1 and doc.pop("deckkit") == deckkit.__version__
    assert doc.pop("engine") in ("compiled", "pure")  # tests/test_engine_named.py checks which
    return doc


def test_simulate_equals_the_command_and_keeps_the_rows() -> None:
    run = deckkit.simulate(DEMO, games=120, seed=7, policy="random")
    assert run.as_dict() == cli_json(
        "simulate", DEMO, "-n", 120, "--seed", 7, "--policy", "random", "-f", "json", "-q"
    )
    rows = run.rows
    assert isinstance(rows, pl.DataFrame) and rows.height == 120
    assert rows["index"].to_list() == list(range(120))
    assert (rows["outcome"] == "win").sum() == run.win.count == run.summary.wins.count
    assert run.win.ci is not None and run.win.ci[0] <= run.win.rate <= run.win.ci[1]  # type: ignore[operator]
    assert run.metadata is not None and run.metadata.deck_path == str(DEMO)


def test_options_object_and_keywords_are_the_same_run() -> None:
    options = api.RunOptions(games=40, seed=3, rules=("charm=every",))
    by_object = deckkit.simulate(DEMO, options)
    by_keywords = deckkit.simulate(DEMO, games=40, seed=3, rules=("charm=every",))
    assert by_object.as_dict() == by_keywords.as_dict()
    assert by_object.game.rules["charm"] == "every"
    assert options.but(games=5).games == 5 and options.games == 40


def test_the_runner_options_reach_the_runner_and_never_change_results() -> None:
    """Every run passes RunOptions.runner_kwargs() to the runner: two processes, same rows."""
    one = deckkit.simulate(DEMO, games=60, seed=2, workers=1)
    two = deckkit.simulate(DEMO, games=60, seed=2, workers=2)
    assert two.result.workers == 2 and one.result.workers == 1
    assert one.rows is not None and two.rows is not None and one.rows.equals(two.rows)
    assert one.as_dict() == two.as_dict()


def test_validate_equals_the_command() -> None:
    checked = deckkit.validate(SET0, edition="guidelines1998")
    assert not checked.legal and checked.report.violations
    result = CliRunner().invoke(
        app, ["validate", str(SET0), "--edition", "guidelines1998", "-f", "json"]
    )
    assert result.exit_code == EXIT_ILLEGAL
    doc = json.loads(result.stdout)
    envelope = ("schema_version", "deckkit", "engine", "file")
    assert {k: v for k, v in doc.items() if k not in envelope} == checked.as_dict()


def test_an_illegal_deck_is_refused_unless_allowed() -> None:
    with pytest.raises(api.IllegalDeck) as refused:
        deckkit.simulate(SET0, games=10, edition="guidelines1998")
    assert refused.value.exit_code == EXIT_ILLEGAL and not refused.value.report.legal
    allowed = deckkit.simulate(SET0, games=10, edition="guidelines1998", allow_illegal=True)
    assert allowed.summary.games == 10 and allowed.as_dict()["legal"] is False


def test_bad_options_raise_the_commands_errors() -> None:
    with pytest.raises(UsageError, match="--games must be at least 1"):
        deckkit.simulate(DEMO, games=0)
    with pytest.raises(UsageError, match="unknown policy"):
        deckkit.simulate(DEMO, games=5, policy="clever")
    # No deck at all: the CLI's DECKS argument is required (issue 31, minor: the API accepted
    # compare([]) and failed inside with zip's ValueError).
    with pytest.raises(UsageError, match="compare needs two decks"):
        deckkit.compare([], games=5)


def test_compare_equals_the_command() -> None:
    result = deckkit.compare([DEMO, MEDIUM], games=50, seed=4)
    doc = dict(result.as_dict())
    cli = cli_json("compare", DEMO, MEDIUM, "-n", 50, "--seed", 4, "-f", "json", "-q")
    assert cli.pop("command").startswith("deckkit compare")
    assert doc.pop("command") is None
    assert doc == cli
    assert result.differences[0]["arm"] == "Medium solo"
    assert [arm.game.deck.name for arm in result.arms] == ["Solo demo", "Medium solo"]


def test_impact_equals_the_command() -> None:
    result = deckkit.impact(DEMO, games=100, seed=1, card=["Krillin"], remove=True)
    cli = cli_json(
        "impact", DEMO, "-n", 100, "--seed", 1, "--card", "Krillin", "--remove", "-f", "json"
    )
    assert result.as_dict() == cli
    assert [i.card.name for i in result.impacts] == ["Krillin"]


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_sensitivity_equals_the_command() -> None:
    result = deckkit.sensitivity(DEMO, games=30, seed=2)
    assert result.as_dict() == cli_json("sensitivity", DEMO, "-n", 30, "--seed", 2, "-f", "json")
    assert result.readings and all(r["games"] == 30 for r in result.readings)


def test_play_one_is_game_i_of_the_run() -> None:
    played = deckkit.play_one(DEMO, 3, seed=9)
    run = deckkit.simulate(DEMO, games=4, seed=9)
    assert run.rows is not None
    assert played.record.outcome == run.rows["outcome"][3]
    assert played.as_dict() == cli_json("play", DEMO, "--seed", 9, "--game", 3, "-f", "json")
    assert played.text().startswith("Setup")


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_report_writes_the_page_the_command_writes(tmp_path: Path) -> None:
    done = deckkit.write_report(
        DEMO,
        out=tmp_path / "api.html",
        games=60,
        seed=5,
        results=tmp_path / "api.parquet",
        impact=api.ImpactRequest(games=100, budget=500),
    )
    assert done.exit_code == 0 and done.page.exists() and done.sidecar is not None
    result = CliRunner().invoke(
        app,
        [
            *("report", str(DEMO), "-n", "60", "--seed", "5", "-o", str(tmp_path / "cli.html")),
            *("--impact-games", "100", "--impact-budget", "500"),
        ],
    )
    assert result.exit_code == 0, result.output
    ours = json.loads(done.sidecar.read_text())
    theirs = json.loads((tmp_path / "cli.json").read_text())
    for doc in (ours, theirs):
        doc.pop("generated", None)
    assert ours == theirs
    assert ours["impact"]["cards"]  # the impact section was measured, within its budget
    again = deckkit.write_report_from_saved(tmp_path / "api.parquet", tmp_path / "saved.html")
    assert again.page.exists() and again.exit_code == 0


def test_balance_check_equals_the_command(tmp_path: Path) -> None:
    (tmp_path / "balance.toml").write_text(
        f'seed = 1\nbudget = 200\npolicy = "heuristic"\nplayers = 1\n\n'
        f'[[check]]\nname = "demo"\ndeck = "{DEMO}"\nband = [0.9, 1.0]\n'
    )
    outcome = deckkit.balance_check(tmp_path / "balance.toml")
    result = CliRunner().invoke(
        app, ["balance", "check", str(tmp_path / "balance.toml"), "-f", "json", "-q"]
    )
    assert result.exit_code == outcome.exit_code
    doc = json.loads(result.stdout)

    def without_time(d: dict[str, Any]) -> dict[str, Any]:
        return {**d, "checks": [{**c, "seconds": None} for c in d["checks"]]}

    assert without_time(outcome.as_dict()) == without_time(
        {k: v for k, v in doc.items() if k not in ("schema_version", "deckkit", "engine")}
    )


def test_a_card_changed_in_memory_plays_without_touching_the_card_files() -> None:
    deck = deckkit.load_deck(DEMO)
    krillin = next(e.card for e in deck.entries if e.card.name == "Krillin")
    stronger = deckkit.with_card(deck, "Krillin", damage=9)
    changed = next(e.card for e in stronger.entries if e.card.id == krillin.id)
    assert isinstance(changed, CharacterCard) and isinstance(krillin, CharacterCard)
    assert changed.abilities.damage == 9 and krillin.abilities.damage != 9
    assert deckkit.load_deck(DEMO) == deck  # the database's card is as it was
    run = deckkit.simulate(stronger, games=40, seed=1)
    assert run.metadata is None  # no file records a deck built in memory
    assert run.summary.games == 40
    with pytest.raises(UsageError, match="not in the deck"):
        deckkit.with_card(deck, "Goku", damage=3)
    with pytest.raises(UsageError, match="prints no abilities"):
        deckkit.with_card(deck, "Sewer", damage=3)


def test_the_api_names_load_lazily() -> None:
    assert api.__all__ == sorted(api.EXPORTS)
    # A name shared with a module would be replaced by the module once it is imported.
    for package in (REPO / "deckkit", REPO / "deckkit" / "api"):
        modules = {p.stem for p in package.glob("*.py")} | {
            p.parent.name for p in package.glob("*/__init__.py")
        }
        assert not modules & set(api.EXPORTS), package
    for name in api.__all__:
        assert getattr(deckkit, name) is getattr(api, name), name
    code = (
        "import sys, deckkit; before = set(sys.modules); deckkit.RunOptions; "
        "print(sorted(m for m in before if m.startswith('deckkit')), 'typing' in before)"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    # deckkit.version: the one constant deckkit/__init__.py imports (no API, no typing)
    assert shown.stdout.strip() == "['deckkit', 'deckkit.version'] False", shown.stderr
    with pytest.raises(AttributeError):
        _ = deckkit.no_such_name


def test_dir_and_help_show_the_api() -> None:
    """Tab completion lists ``dir(deckkit)``, and ``help(deckkit)`` (pydoc) documents the names
    of ``__all__``: both show every name of the API, and listing them loads none."""
    assert deckkit.__all__ == api.__all__
    code = (
        "import sys, deckkit; names = dir(deckkit); "
        "print(sorted(m for m in sys.modules if m.startswith('deckkit')), "
        "all(n in names for n in deckkit.__all__))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert shown.stdout.strip() == "['deckkit', 'deckkit.version'] True", shown.stderr
    import pydoc

    page = pydoc.render_doc(deckkit, renderer=pydoc.plaintext)
    for name in ("simulate(", "compare(", "class SimulateResult", "class RunOptions"):
        assert name in page, name
    assert "import deckkit" in page  # the docstring's example


def test_keywords_are_named_as_the_flags_and_the_old_names_still_work() -> None:
    """`impact --card`, `play --game`, `sensitivity --reading`, `balance check --check`: the
    API's keywords have the flags' names; the old ones (cards=, index=, readings=, only=) give
    the same result with a DeprecationWarning, and both at once is an error."""
    import inspect

    for function, new, old in (
        (deckkit.impact, "card", "cards"),
        (deckkit.play_one, "game", "index"),
        (deckkit.sensitivity, "reading", "readings"),
        (deckkit.balance_check, "check", "only"),
        (deckkit.baselines, "check", "only"),
    ):
        names = inspect.signature(function).parameters
        assert new in names and old not in names, function.__name__

    played = deckkit.play_one(DEMO, game=2, seed=4)
    with pytest.warns(DeprecationWarning, match=r"index= is deprecated: use game="):
        old = deckkit.play_one(DEMO, index=2, seed=4)
    assert old.as_dict() == played.as_dict()
    with pytest.raises(TypeError, match="not both"):
        deckkit.play_one(DEMO, game=2, index=2)

    measured = deckkit.impact(DEMO, games=40, seed=1, card=["Krillin"], remove=True)
    with pytest.warns(DeprecationWarning, match=r"cards= is deprecated: use card="):
        old_impact = deckkit.impact(DEMO, games=40, seed=1, cards=["Krillin"], remove=True)
    assert old_impact.as_dict() == measured.as_dict()

    with pytest.warns(DeprecationWarning, match=r"readings= is deprecated: use reading="):
        old_sens = deckkit.sensitivity(DEMO, games=20, seed=1, readings=["charm"])
    new_sens = deckkit.sensitivity(DEMO, games=20, seed=1, reading="charm")
    assert old_sens.as_dict() == new_sens.as_dict()


def test_balance_check_takes_check_as_the_flag(tmp_path: Path) -> None:
    (tmp_path / "balance.toml").write_text(
        f'seed = 1\nbudget = 200\npolicy = "heuristic"\nplayers = 1\n\n'
        f'[[check]]\nname = "demo"\ndeck = "{DEMO}"\nband = [0.9, 1.0]\n\n'
        f'[[check]]\nname = "other"\ndeck = "{DEMO}"\nband = [0.9, 1.0]\n'
    )
    chosen = deckkit.balance_check(tmp_path / "balance.toml", check=["other"])
    assert [r.check.name for r in chosen.results] == ["other"]
    with pytest.warns(DeprecationWarning, match=r"only= is deprecated: use check="):
        old = deckkit.balance_check(tmp_path / "balance.toml", only=["other"])
    assert [r.check.name for r in old.results] == ["other"]
    with pytest.raises(TypeError, match="unexpected keyword argument 'onyl'"):
        deckkit.balance_check(tmp_path / "balance.toml", onyl=["other"])


def test_no_engine_hooks_in_the_public_signatures() -> None:
    """The engine hooks are how the commands' tests swap in a fake engine: internal, so no
    public function of the API takes (or shows in help()) a ``hooks`` parameter."""
    import inspect

    for name in deckkit.__all__:
        value = getattr(deckkit, name)
        if callable(value) and not isinstance(value, type):
            assert "hooks" not in inspect.signature(value).parameters, name
    with pytest.raises(TypeError):
        deckkit.simulate(DEMO, games=5, hooks=None)
