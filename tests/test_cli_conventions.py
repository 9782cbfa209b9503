"""deckkit behaves like the tools its users know: real choices, one meaning per short flag,
help that shows its defaults, results alone on stdout, JSON with a schema version."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer import _click
from typer.core import TyperGroup
from typer.main import get_command
from typer.testing import CliRunner

from deckkit.animayhem.construction.editions import EDITIONS, VARIANTS
from deckkit.animayhem.engine.field import LAYOUTS
from deckkit.animayhem.engine.players import PLAYERS
from deckkit.api import deckinput
from deckkit.cli import options as opt
from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "decks" / "demo-solo.deck"
runner = CliRunner()


def _deckkit(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The console script in a fresh interpreter: for what only a whole process shows."""
    return subprocess.run(
        [sys.executable, "-m", "deckkit", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        input=stdin,
        env={**os.environ, "COLUMNS": "200"},
        timeout=300,
    )


def _invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """The command run in this process (exit code, stdout, stderr): the same command-line code
    as the console script, without an interpreter's start-up a run."""
    deckinput.forget_stdin()
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "200"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _commands() -> dict[str, _click.Command]:
    """Every leaf command by its path ("simulate", "cards list")."""
    out: dict[str, _click.Command] = {}

    def walk(cmd: _click.Command, path: str) -> None:
        if isinstance(cmd, TyperGroup):  # asked as the parser asks: commands load on demand
            ctx = _click.Context(cmd)
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                assert sub is not None, f"{path} {name}: listed but not found"
                walk(sub, f"{path} {name}".strip())
        else:
            out[path] = cmd

    walk(get_command(app), "")
    assert {"validate", "simulate", "cards list", "balance check"} <= set(out)
    return out


def test_the_command_line_options_spell_the_engines_own_constants() -> None:
    """options and main spell a few constants out rather than import their modules at
    start-up (the engine, the runner, the card database): they must stay the same."""
    from deckkit.analysis.dask_backend import SCHEDULER_ENV
    from deckkit.animayhem.construction.carddb import CARD_DB_ENV
    from deckkit.animayhem.engine.play import DEFAULT_TURN_CAP
    from deckkit.api import options
    from deckkit.cli import main

    assert opt.TURN_CAP == DEFAULT_TURN_CAP
    assert options.DEFAULT_TURN_CAP == DEFAULT_TURN_CAP  # the API's, which imports no game
    assert opt.SCHEDULER_ENV == SCHEDULER_ENV
    assert main.CARD_DB_ENV == CARD_DB_ENV


def test_choices_are_the_engines_and_the_editions_own() -> None:
    assert tuple(opt.Edition) == EDITIONS
    assert tuple(opt.Variant) == VARIANTS
    assert tuple(opt.Layout) == LAYOUTS
    assert tuple(opt.Policy) == PLAYERS


def test_a_short_flag_means_the_same_long_option_in_every_command() -> None:
    meaning: dict[str, tuple[str, str]] = {}
    for path, cmd in _commands().items():
        for param in cmd.params:
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in param.opts if len(o) == 2 and o[0] == "-"):
                seen = meaning.setdefault(short, (longs[0], path))
                assert seen[0] == longs[0], f"{short}: {seen[0]} in {seen[1]}, {longs[0]} in {path}"


def test_choices_are_case_insensitive() -> None:
    result = runner.invoke(app, ["validate", str(DEMO), "--edition", "SET0", "-f", "JSON"])
    assert json.loads(result.stdout)["edition"] == "set0"


def test_help_shows_defaults_that_depend_on_the_deck() -> None:
    code, out, _ = _invoke("simulate", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "the deck's header, else guidelines1998" in text
    assert "heuristic|random" in text


def test_bare_commands_print_help_and_exit_0() -> None:
    for args in ([], ["cards"]):
        code, out, _ = _invoke(*args)
        assert code == 0 and "Usage" in out, args


def test_parser_and_deckkit_errors_share_one_style() -> None:
    parser = _invoke("simulate", str(DEMO), "--games", "0")
    ours = _invoke("simulate", str(REPO / "no-such.deck"))
    for code, _, err in (parser, ours):
        assert code == 2
        assert err.startswith("error: ") and "Traceback" not in err
    _, out, _ = _invoke("simulate", str(DEMO), "--games", "0", "--format", "json")
    doc = json.loads(out)
    assert doc["schema_version"] == 1 and "--games" in doc["error"]


@pytest.mark.slow  # four runs of the console script, each with its worker processes: end to end
def test_same_seed_gives_byte_identical_stdout() -> None:
    for fmt in ("text", "json"):
        args = ("simulate", str(DEMO), "-n", "60", "-s", "3", "-f", fmt)
        first, second = _deckkit(*args), _deckkit(*args)
        assert first.returncode == 0, first.stderr
        assert first.stdout == second.stdout, fmt
        assert "games/s" in first.stderr  # timing goes to stderr


@pytest.mark.parametrize(
    "args",
    [
        ["validate", str(DEMO), "-f", "json"],
        ["simulate", str(DEMO), "-n", "5", "-f", "json"],
        ["play", str(DEMO), "-f", "json"],
        ["cards", "list", "-t", "haven", "-f", "json"],
        ["cards", "show", "Goku #33", "-f", "json"],
        ["cards", "coverage", "-f", "json"],
    ],
)
def test_every_json_output_carries_schema_and_version(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["schema_version"] == 1 and isinstance(doc["deckkit"], str)


def test_validate_takes_many_decks_and_stdin() -> None:
    illegal = REPO / "tests" / "data" / "illegal-disasters.deck"
    code, out, _ = _invoke("validate", str(DEMO), "-", str(illegal), "-f", "json",
                           stdin=DEMO.read_text())  # fmt: skip
    assert code == 1  # the worst verdict of the three
    decks = json.loads(out)["decks"]
    assert [d["file"] for d in decks] == [str(DEMO), "<stdin>", str(illegal)]
    assert [d["legal"] for d in decks] == [True, True, False]
    code, out, _ = _invoke("validate", str(DEMO), "missing.deck")
    assert code == 2 and "LEGAL" in out


def test_cards_list_in_a_pipe_is_labelled_tab_separated() -> None:
    _, out, _ = _invoke("cards", "list", "-t", "haven")  # stdout is not a terminal here either
    lines = out.splitlines()
    assert lines[0].split("\t") == ["id", "name", "type", "set", "stats", "details", "coverage"]
    assert len(lines) == 17 and all(line.count("\t") == 6 for line in lines)
    as_csv = _invoke("cards", "list", "-t", "haven", "-f", "csv")[1].splitlines()
    assert as_csv[0] == "id,name,type,set,stats,details,coverage" and len(as_csv) == 17


def test_shell_completion_can_be_shown() -> None:
    """`--show-completion` is a flag: the shell is the one deckkit runs in, found by walking up
    its parent processes (a word after the flag is ignored). Run from bash, so the answer does
    not depend on what started pytest (under `sh -c`, as make runs a recipe, it is "Shell sh not
    supported"); `; exit` keeps bash from replacing itself with the command."""
    done = subprocess.run(
        ["bash", "-c", '"$0" -m deckkit --show-completion; exit $?', sys.executable],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "complete -o default -F" in done.stdout and "_COMPLETE=complete_bash" in done.stdout


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_short_commands_do_not_import_the_heavy_libraries() -> None:
    """Start-up stays short: polars, numpy, scipy, the page's and the chart libraries and Dask
    load only in the commands that use them, never for `--version`, `--help` or `validate`;
    `--version` and `validate` play no game, so neither loads the engine or the runner; and
    their values are read without pydantic (deckkit.cli.coercion)."""
    heavy = ["polars", "numpy", "scipy", "altair", "vl_convert", "jinja2", "markupsafe",
             "distributed", "dask", "pydantic"]  # fmt: skip
    engine = ["deckkit_engine__mypyc", "deckkit.animayhem.engine.state", "deckkit.analysis.runner"]
    probe = (
        "import sys\n"
        "from deckkit.cli.main import run\n"
        "avoided = sys.argv[1].split(',')\n"
        "sys.argv = ['deckkit', *sys.argv[2:]]\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in avoided if m in sys.modules), file=sys.stderr)\n"
    )
    for args, avoided in (
        (["--version"], heavy + engine),
        (["simulate", "--help"], heavy),
        (["validate", str(DEMO)], heavy + engine),
    ):
        done = subprocess.run(
            [sys.executable, "-c", probe, ",".join(avoided), *args],
            capture_output=True, text=True, cwd=REPO,
        )  # fmt: skip
        assert done.stderr.strip().splitlines()[-1] == "[]", (args, done.stderr)
