"""Every command for every game (issue 28 point 2): the README's command x game table is
deckkit.games.SERVES; each "yes" cell runs on a sample file, and its ``--format json`` output
validates against the command's schema in docs/schemas/; each other cell is refused in one line
that names the game, with exit 9. Runs are kept small (a few games each): the numbers are not
what is checked here, the shapes and the routing are."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckkit import games
from deckkit.animatactics.analysis import matrix as matrix_mod
from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_INPUT, EXIT_NOT_SERVED
from tests.schema_check import SchemaError, Validator
from tests.test_animatactics_cli import _small_roster

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
DECKS = ROOT / "decks"
AM, AM2 = DECKS / "easy-solo.deck", DECKS / "medium-solo.deck"
AT, AT2 = DECKS / "at-empire-light.party", DECKS / "at-samael-darkness.party"
AN, AN2 = DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"
FILES = {"ani-mayhem": (AM, AM2), "anima-tactics": (AT, AT2), "animus": (AN, AN2)}
TITLES = {g.name: g.title for g in games.GAMES}

runner = CliRunner()
validator = Validator(SCHEMAS)


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


# Each "yes" cell: (row of SERVES, game) -> how to run it on the sample files, and the schema its
# JSON output follows (None: the command writes files, not a JSON document; it must succeed).
def _json_cells(tmp: Path) -> dict[tuple[str, str], tuple[list[str | Path], str | None]]:
    balance = tmp / "balance.toml"
    balance.write_text(
        f'seed = 1\nbudget = 80\npolicy = "heuristic"\nplayers = 1\nbaseline_games = 10\n'
        f'[[check]]\nname = "easy band"\ndeck = "{AM}"\nband = [0.3, 1.0]\n',
        encoding="utf-8",
    )
    run_file = tmp / "run.parquet"
    # tune's pool for a party: one character, five swaps to race (the sample party's 25 would
    # play a hundred games)
    at_pool = tmp / "pool.party"
    at_pool.write_text(
        "game: anima-tactics\nname: Pool\nlevels: 250\nedition: saga1\n\n[characters]\nKira\n",
        encoding="utf-8",
    )
    sides = {}
    for game, (first, second) in FILES.items():
        if game == "ani-mayhem":
            continue
        sides[game] = tmp / f"balance-{game}.toml"
        sides[game].write_text(
            f'seed = 1\nbudget = 40\nbaseline_games = 10\n[[check]]\nname = "{game} band"\n'
            f'deck = "{first}"\nvs = "{second}"\nband = [0.1, 0.9]\n'
            f'[[check]]\nname = "{game} drift"\ndeck = "{first}"\nvs = "{second}"\n'
            "max_drop = 0.2\n",
            encoding="utf-8",
        )
    return {
        ("validate", "ani-mayhem"): (["validate", AM], "validate"),
        ("validate", "anima-tactics"): (["validate", AT], "validate"),
        ("validate", "animus"): (["validate", AN], "validate"),
        ("stats", "ani-mayhem"): (["stats", AM, "--hands", "1"], "stats"),
        ("stats", "animus"): (["stats", AN, "--hands", "2"], "stats"),
        ("simulate", "ani-mayhem"): (["simulate", AM, "-n", "6", "-q", "-o", run_file], "simulate"),
        ("simulate", "anima-tactics"): (
            ["simulate", AT, "--vs", AT2, "-n", "6", "-o", tmp / "rows-anima-tactics.parquet"],
            "simulate",
        ),
        ("simulate", "animus"): (
            ["simulate", AN, "--vs", AN2, "-n", "6", "-o", tmp / "rows-animus.parquet"],
            "simulate",
        ),
        ("play", "ani-mayhem"): (["play", AM, "--seed", "3", "--game", "2"], "play"),
        ("play", "anima-tactics"): (
            ["play", AT, "--vs", AT2, "--seed", "3", "--game", "2"],
            "play",
        ),
        ("play", "animus"): (["play", AN, "--vs", AN2, "--seed", "3", "--game", "2"], "play"),
        ("report", "ani-mayhem"): (
            ["report", AM, "-n", "6", "--no-impact", "-q", "-o", tmp / "am.html"],
            None,
        ),
        ("report", "anima-tactics"): (
            ["report", AT, "--vs", AT2, "-n", "6", "-o", tmp / "at.html"],
            None,
        ),
        ("report", "animus"): (["report", AN, "--vs", AN2, "-n", "6", "-o", tmp / "an.html"], None),
        ("report --from", "ani-mayhem"): (
            ["report", "--from", run_file, "-o", tmp / "from.html"],
            None,
        ),
        # the rows `simulate --vs --out` saved just before (the simulate cells above)
        ("report --from", "anima-tactics"): (
            ["report", "--from", tmp / "rows-anima-tactics.parquet", "-o", tmp / "at-from.html"],
            None,
        ),
        ("report --from", "animus"): (
            ["report", "--from", tmp / "rows-animus.parquet", "-o", tmp / "an-from.html"],
            None,
        ),
        ("compare", "ani-mayhem"): (["compare", AM, AM2, "-n", "6", "-q"], "compare"),
        ("compare", "anima-tactics"): (
            ["compare", AT, DECKS / "at-unaligned.party", "--vs", AT2, "-n", "6", "-q"],
            "compare",
        ),
        ("compare", "animus"): (["compare", AN, AN2, "--vs", AN2, "-n", "6", "-q"], "compare"),
        ("impact", "ani-mayhem"): (["impact", AM, "--card", "Goten", "-n", "6", "-q"], "impact"),
        ("impact", "anima-tactics"): (
            ["impact", AT, "--vs", AT2, "--card", "Erika", "-n", "6", "-q"],
            "impact",
        ),
        ("impact", "animus"): (
            ["impact", AN, "--vs", AN2, "--card", "Ilka Varga", "-n", "6", "-q"],
            "impact",
        ),
        ("sensitivity", "ani-mayhem"): (
            ["sensitivity", AM, "-n", "6", "--reading", "charm"],
            "sensitivity",
        ),
        ("sensitivity", "anima-tactics"): (
            ["sensitivity", AT, "--vs", AT2, "-n", "6", "--reading", "time_limit"],
            "sensitivity",
        ),
        ("sensitivity", "animus"): (
            ["sensitivity", AN, "--vs", AN2, "-n", "6", "--reading", "empty_deck"],
            "sensitivity",
        ),
        ("tune", "ani-mayhem"): (
            ["tune", AM, "--pool", AM, "--budget", "20", "--confirm", "6", "-q"],
            "tune",
        ),
        ("tune", "anima-tactics"): (
            [
                *("tune", AT, "--vs", AT2, "--pool", at_pool),
                *("--budget", "40", "--confirm", "4", "--steps", "1"),
            ],
            "tune",
        ),
        ("build", "ani-mayhem"): (
            ["build", "--pool", AM, "--budget", "20", "--confirm", "6", "-q"],
            "build",
        ),
        ("build", "anima-tactics"): (
            ["build", "--vs", AT2, "--pool", AT, "-n", "8", "--confirm", "4"],
            "build",
        ),
        ("build", "animus"): (
            ["build", "--pool", AN, "--vs", AN2, "--drafts", "1", "-n", "8", "--confirm", "4"],
            "build",
        ),
        ("cards list", "ani-mayhem"): (["cards", "list", "--type", "haven"], "cards-list"),
        ("cards list", "anima-tactics"): (
            ["cards", "list", "--game", "anima-tactics"],
            "cards-list",
        ),
        ("cards list", "animus"): (["cards", "list", "--game", "animus"], "cards-list"),
        ("cards show", "ani-mayhem"): (["cards", "show", "Goten"], "cards-show"),
        ("cards show", "anima-tactics"): (
            ["cards", "show", "Celia", "--game", "anima-tactics"],
            "cards-show",
        ),
        ("cards show", "animus"): (
            ["cards", "show", "orrin", "vale", "--game", "animus"],
            "cards-show",
        ),
        ("cards coverage", "ani-mayhem"): (["cards", "coverage"], "cards-coverage"),
        ("cards coverage", "anima-tactics"): (
            ["cards", "coverage", "--game", "anima-tactics", "--cards"],
            "cards-coverage",
        ),
        ("cards coverage", "animus"): (["cards", "coverage", AN, "--cards"], "cards-coverage"),
        ("balance baseline", "ani-mayhem"): (["balance", "baseline", balance, "-q"], None),
        ("balance check", "ani-mayhem"): (["balance", "check", balance, "-q"], "balance-check"),
        ("balance baseline", "anima-tactics"): (
            ["balance", "baseline", sides["anima-tactics"], "-q"],
            None,
        ),
        ("balance check", "anima-tactics"): (
            ["balance", "check", sides["anima-tactics"], "-q"],
            "balance-check",
        ),
        ("balance baseline", "animus"): (["balance", "baseline", sides["animus"], "-q"], None),
        ("balance check", "animus"): (
            ["balance", "check", sides["animus"], "-q"],
            "balance-check",
        ),
        ("samples", "ani-mayhem"): (["samples"], None),
        ("samples", "anima-tactics"): (["samples"], None),
        ("samples", "animus"): (["samples"], None),
    }


def test_validate_of_several_files_follows_its_schema() -> None:
    """Several files of one game: every verdict, in the list the schema names per game."""
    for first, second in FILES.values():
        code, out, err = run("validate", first, second, "--format", "json")
        assert code == 0, err
        assert validator.errors(json.loads(out), "validate.schema.json") == []


def yes_cells() -> list[tuple[str, str]]:
    return [(c, g) for c, by_game in games.SERVES.items() for g, why in by_game.items() if not why]


def no_cells() -> list[tuple[str, str]]:
    return [(c, g) for c, by_game in games.SERVES.items() for g, why in by_game.items() if why]


def test_every_cell_of_the_table_is_exercised(tmp_path: Path) -> None:
    """Every working cell has a run below, and every game is in every row."""
    assert set(_json_cells(tmp_path)) == set(yes_cells())
    assert all(set(by_game) == set(FILES) for by_game in games.SERVES.values())


# Anima Tactics' cells play its pure-Python party games (about 8 s on a 2-core machine): in
# make test-slow (CI runs it), its commands one by one in test_animatactics_cli.
@pytest.mark.parametrize(
    "played",
    [pytest.param(g, marks=pytest.mark.slow) if g == "anima-tactics" else g for g in FILES],
)
def test_every_working_cell_runs_and_its_json_follows_its_schema(
    played: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One test for a game's cells, in their order (report --from reads simulate's --out; the
    balance baseline is recorded before the check reads it); one test a game, so the three
    games' runs share the pytest workers."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # samples writes into the current directory
    # The Anima Tactics page's duel matrix over six characters, not the whole roster's 7,744
    # exact duels (test_animatactics_cli.py checks the page itself over a dozen).
    small = _small_roster()[:6]
    monkeypatch.setattr(matrix_mod, "roster", lambda db: small)
    failures = []
    cells = [(cell, how) for cell, how in _json_cells(tmp_path).items() if cell[1] == played]
    assert cells
    for (command, game), (args, schema) in cells:
        if schema is None:
            code, out, err = run(*args)
            if code != 0:
                failures.append(f"{command} / {game}: exit {code}: {err[-300:]}")
            else:
                failures += _page_problems(args, command, game)
            continue
        code, out, err = run(*args, "--format", "json")
        if code != 0:
            failures.append(f"{command} / {game}: exit {code}: {err[-300:]}")
            continue
        doc = json.loads(out)
        problems = validator.errors(doc, f"{schema}.schema.json")
        if problems:
            failures.append(f"{command} / {game}: {problems[:5]}")
    assert not failures, "\n".join(failures)


def _page_problems(args: list[str | Path], command: str, game: str) -> list[str]:
    """A command that writes a page (``-o PAGE.html``): the page leads with its answer (its
    headline before any section below it) and its JSON sidecar is a document under the
    envelope; a page drawn from saved rows names the rows' game."""
    pages = [Path(a) for a in args if str(a).endswith(".html")]
    problems = []
    for page in pages:
        html = page.read_text(encoding="utf-8")
        head = html.find('id="headline"')
        if head < 0 or head > html.find("<h2"):
            problems.append(f"{command} / {game}: {page.name} does not lead with its answer")
        doc = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
        if not {"schema_version", "deckkit", "engine"} <= set(doc):
            problems.append(f"{command} / {game}: {page.name}'s sidecar has no envelope")
        if command == "report --from" and game != "ani-mayhem" and doc.get("game") != game:
            problems.append(f"{command} / {game}: the page is of {doc.get('game')!r}")
    return problems


@pytest.mark.parametrize(("command", "game"), no_cells())
def test_a_cell_that_does_not_serve_its_game_is_refused_in_one_line(
    command: str, game: str, tmp_path: Path
) -> None:
    """Exit 9, one line on stderr naming the game and why; with --format json the error
    document follows error.schema.json."""
    first, second = FILES[game]
    words = command.split()
    args: list[str | Path]
    if words[0] == "compare":
        args = ["compare", first, second]
    elif words[0] == "build":
        args = ["build", "--pool", first]
    elif words[0] == "report":  # report --from: a saved run, named for the game
        args = ["report", "--from", tmp_path / "run.parquet", "--game", game]
    elif words[0] in ("cards", "balance"):
        args = [*words, *(["X"] if words[1] == "show" else []), "--game", game]
    else:
        args = [*words, first]
    code, out, err = run(*args)
    assert code == EXIT_NOT_SERVED, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert TITLES[game] in lines[0] and f"deckkit {command}" in lines[0], lines[0]
    code, out, _ = run(*args, "--format", "json")
    assert code == EXIT_NOT_SERVED
    assert validator.errors(json.loads(out), "error.schema.json") == []


def test_the_readme_table_is_the_registry() -> None:
    """The README's command x game table says what deckkit.games.SERVES says, cell by cell."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    header = "| command | Ani-Mayhem | Anima Tactics | Animus |"
    assert header in text
    rows = text.split(header, 1)[1].splitlines()[2:]
    table: dict[str, list[str]] = {}
    for row in rows:
        if not row.startswith("|"):
            break
        cells = [c.strip() for c in row.strip("|").split("|")]
        table[cells[0].strip("`").removeprefix("deckkit ")] = cells[1:]
    assert set(table) == set(games.SERVES)
    for command, by_game in games.SERVES.items():
        for cell, name in zip(
            table[command], ("ani-mayhem", "anima-tactics", "animus"), strict=True
        ):
            why = by_game[name]
            assert cell == ("yes" if why is None else why), (command, name, cell)


def test_animus_play_replays_the_runs_battle() -> None:
    """`deckkit play TEAM --vs TEAM --seed S --game I` is battle I of `simulate --seed S`: its
    outcome, end and length are the game interface's record of that battle, which the run's
    tally counts (the traced path plays the very battle the untraced one does)."""
    from deckkit.animus.game import GAME

    match = GAME.prepare([GAME.read(AN), GAME.read(AN2)])
    for index in range(4):
        code, out, _ = run("play", AN, "--vs", AN2, "--seed", "5", "--game", index, "-f", "json")
        assert code == 0
        doc = json.loads(out)
        record = GAME.play(match, 5, index)
        assert (doc["outcome"], doc["end_reason"]["code"], doc["turns"]) == (
            record.outcome,
            record.end_reason,
            record.turns,
        )
        assert doc["events"] and doc["events"][-1]["text"].startswith("end: ")


# --- the validator the schema test relies on ---


def test_the_validator_finds_what_breaks_a_schema(tmp_path: Path) -> None:
    shutil.copy(SCHEMAS / "common.schema.json", tmp_path / "common.schema.json")
    (tmp_path / "x.schema.json").write_text(
        json.dumps(
            {
                "allOf": [{"$ref": "common.schema.json#/$defs/envelope"}],
                "type": "object",
                "required": ["win", "ends"],
                "properties": {
                    "win": {"$ref": "common.schema.json#/$defs/rate"},
                    "ends": {"type": "array", "items": {"$ref": "#/$defs/end"}},
                    "kind": {"anyOf": [{"const": "a"}, {"enum": ["b", "c"]}]},
                },
                "$defs": {"end": {"type": "object", "required": ["code"]}},
            }
        )
    )
    v = Validator(tmp_path)
    good: dict[str, Any] = {
        "schema_version": 1,
        "deckkit": "0.1.0",
        "engine": "pure",
        "win": {"count": 3, "n": 4, "rate": 0.75, "ci": [0.3, 0.95]},
        "ends": [{"code": "levels"}],
        "kind": "c",
    }
    assert v.errors(good, "x.schema.json") == []
    bad = {
        **good,
        "engine": "fast",
        "win": {"count": 3, "rate": 1.5, "ci": [0.3]},
        "ends": [{"reason": "x"}],
        "kind": "d",
    }
    found = v.errors(bad, "x.schema.json")
    expected = [
        r"^\$\.engine: .*not one of",
        r"^\$\.win: missing 'n'",
        r"^\$\.win\.rate: matches none of anyOf",
        r"^\$\.win\.ci: matches none of anyOf",
        r"^\$\.ends\[0\]: missing 'code'",
        r"^\$\.kind: matches none of anyOf",
    ]
    for pattern in expected:
        assert any(re.search(pattern, f) for f in found), (pattern, found)
    assert v.errors({**good, "schema_version": True}, "x.schema.json")  # a bool is no integer
    (tmp_path / "y.schema.json").write_text(json.dumps({"pattern": "^a"}))
    with pytest.raises(SchemaError):
        v.errors("a", "y.schema.json")  # a keyword it would skip is refused, not ignored


def test_every_schema_is_well_formed_draft_2020_12() -> None:
    """Each schema names draft 2020-12 and its own $id, uses only keywords the validator checks
    (anywhere in it, not only on the paths a document takes), and every $ref resolves."""
    names = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert "common.schema.json" in names and "error.schema.json" in names
    for name in names:
        schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        assert schema["$id"] == name
        assert validator.problems_in(name) == [], name


@pytest.mark.parametrize("verb", ["baseline", "check"])
@pytest.mark.parametrize("game", ["anima-tactics", "animus"])
def test_a_party_or_team_check_without_an_opponent_is_refused_before_any_game(
    verb: str, game: str, tmp_path: Path
) -> None:
    """A balance check's file is read for its game (its header) before anything plays; a party
    or a team plays an opponent, so a check without ``vs`` is bad input naming the check, and
    a ``vs`` on a deck's check or of another game too."""
    balance = tmp_path / "balance.toml"
    balance.write_text(
        f'[[check]]\nname = "sibling"\ndeck = "{FILES[game][0]}"\nband = [0.3, 0.7]\n',
        encoding="utf-8",
    )
    code, _, err = run("balance", verb, balance)
    assert code == EXIT_BAD_INPUT, err
    assert "'sibling'" in err and "no vs" in err and TITLES[game] in err, err
    other = FILES["animus" if game == "anima-tactics" else "anima-tactics"][1]
    for deck, vs, says in ((FILES[game][0], other, "is a"), (AM, FILES[game][1], "solitaire")):
        balance.write_text(
            f'[[check]]\nname = "sibling"\ndeck = "{deck}"\nvs = "{vs}"\nband = [0.3, 0.7]\n',
            encoding="utf-8",
        )
        code, _, err = run("balance", verb, balance)
        assert code == EXIT_BAD_INPUT and says in err, err


@pytest.mark.parametrize(
    ("game", "good", "bad"),
    [
        ("ani-mayhem", "charm=every", ["charm=sometimes", "nonsense=1", "charm"]),
        ("anima-tactics", "levels=300", ["levels=0", "edition=saga9", "plan=x", "levels"]),
        ("animus", "empty_deck=lose", ["empty_deck=maybe", "nonsense=1", "=lose"]),
    ],
)
def test_every_game_checks_its_own_rule_options(game: str, good: str, bad: list[str]) -> None:
    """The interface's parse_rule (what a balance file's rules table is checked with): a known
    option and value come back as a pair; anything else is a usage error naming where."""
    from deckkit.errors import UsageError

    entry = games.find_game(game)
    assert entry is not None
    iface = games.game_interface(entry)
    assert iface.parse_rule(good) == tuple(good.split("="))
    for text in bad:
        with pytest.raises(UsageError):
            iface.parse_rule(text, "rules")


def test_animus_cards_show_finds_a_card_by_name_or_id_and_suggests_names() -> None:
    code, out, _ = run("cards", "show", "ANS02", "--game", "animus", "-f", "json")
    assert code == 0 and json.loads(out)["name"] == "Orrin Vale"
    code, _, err = run("cards", "show", "orrin", "--game", "animus")
    assert code == 2 and "no Animus card named 'orrin'" in err and "'Orrin Vale'" in err, err
