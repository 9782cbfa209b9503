"""`deckkit compare` for the two-sided games through the game interface (issue 28, build point
2): parties (Anima Tactics) and teams (Animus) against one opponent on paired games, in
Ani-Mayhem's shape (deckkit.api.matchups). The arms play the very games the game's own
`simulate --vs` plays on the same seed, and a file compared with itself differs in no game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit import games
from deckkit.analysis import matches
from deckkit.api.matchups import build_arms, compare_arms, read_side
from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_INPUT, EXIT_ILLEGAL

DECKS = Path(__file__).resolve().parent.parent / "decks"
AT = (
    DECKS / "at-empire-light.party",
    DECKS / "at-unaligned.party",
    DECKS / "at-samael-darkness.party",
)
AN = (
    DECKS / "animus-vanguard.team",
    DECKS / "animus-counterpoint.team",
    DECKS / "animus-counterpoint.team",
)
GAMES = 10
runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("files", "win_key"), [(AT, "win"), (AN, "outcomes")])
def test_each_arm_plays_the_games_simulate_plays(files: tuple[Path, ...], win_key: str) -> None:
    """Arm i is file i against --vs on games 0..n-1 of the seed: its outcome counts are the
    game's own `simulate FILE --vs OPPONENT` on the same seed."""
    a, b, vs = files
    code, out, err = run("compare", a, b, "--vs", vs, "-n", GAMES, "-s", 3, "-q", "-f", "json")
    assert code == 0, err
    doc = json.loads(out)
    for path, arm in zip((a, b), doc["arms"], strict=True):
        code, out, err = run("simulate", path, "--vs", vs, "-n", GAMES, "-s", 3, "-f", "json")
        assert code == 0, err
        sim = json.loads(out)
        win = sim["win"] if win_key == "win" else sim["outcomes"]["win"]
        assert arm["outcomes"]["win"]["count"] == win["count"], (path, arm, win)
        assert arm["games"] == GAMES
        assert sum(r["count"] for r in arm["outcomes"].values()) == GAMES
    (d,) = doc["differences"]
    wins = [arm["outcomes"]["win"]["count"] for arm in doc["arms"]]
    assert d["only_b_won"] - d["only_a_won"] == wins[1] - wins[0]
    assert d["difference"] == pytest.approx((wins[1] - wins[0]) / GAMES)


@pytest.mark.parametrize("files", [AT, AN])
def test_a_file_compared_with_itself_differs_in_no_game(files: tuple[Path, ...]) -> None:
    """Paired on common random numbers: the same file twice wins exactly the same games."""
    first, _, vs = files
    game = games.game_interface(games.game_of_file(first))
    opponent = read_side(game, vs)
    arms = build_arms(game, [first, first], opponent)
    assert arms[0].label != arms[1].label  # same names: the files tell them apart
    doc = compare_arms(game, arms, opponent, games=GAMES, seed=1)
    (d,) = doc["differences"]
    assert (d["only_a_won"], d["only_b_won"], d["difference"]) == (0, 0, 0.0)
    assert d["cards_that_differ"] == []
    assert d["p_value"] == 1.0


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_the_run_is_the_same_for_any_number_of_workers() -> None:
    game = games.game_interface(games.game_of_file(AT[0]))
    setup = game.prepare([game.read(AT[0]), game.read(AT[2])])
    one = matches.run(game.name, setup, games=8, seed=2, keep_rows=True)
    two = matches.run(game.name, setup, games=8, seed=2, workers=2, keep_rows=True)
    assert one.rows == two.rows and one.tally == two.tally
    assert [r[0] for r in one.rows or []] == list(range(8))


def test_an_illegal_party_is_refused_unless_allowed() -> None:
    illegal = DECKS / "at-illegal.party"
    code, _, err = run("compare", AT[0], illegal, "--vs", AT[2], "-n", 2, "-q")
    assert code == EXIT_ILLEGAL
    assert "ILLEGAL" in err and "--allow-illegal" in err
    code, out, err = run(
        "compare", AT[0], illegal, "--vs", AT[2], "-n", 2, "-q", "--allow-illegal", "-f", "json"
    )
    assert code == 0, err
    assert [a["legal"] for a in json.loads(out)["arms"]] == [True, False]


def test_one_file_or_an_unknown_player_is_a_usage_error() -> None:
    code, _, err = run("compare", AN[0], "--vs", AN[1], "-n", 2)
    assert code == EXIT_BAD_INPUT and "two or more" in err
    code, _, err = run("compare", AT[0], AT[1], "--vs", AT[2], "-n", 2, "--policy", "nobody")
    assert code == EXIT_BAD_INPUT and "guarded" in err


def test_the_interface_commands_short_flags_mean_what_they_mean_everywhere() -> None:
    """The README: a short flag means the same in every command (tests/test_cli_conventions.py
    holds Ani-Mayhem's commands to it; the interface's compare and impact are held here)."""
    from typer.main import get_command

    from deckkit.cli import interface_cmd
    from tests.test_cli_conventions import _commands

    meaning = {
        short: next(o for o in p.opts if o.startswith("--"))
        for cmd in _commands().values()
        for p in cmd.params
        for short in p.opts
        if len(short) == 2 and short[0] == "-"
    }
    group = get_command(interface_cmd.app)
    commands = group.commands  # type: ignore[attr-defined]
    assert set(commands) == set(games.INTERFACE_VERBS)
    for name, cmd in commands.items():
        for param in cmd.params:
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in param.opts if len(o) == 2 and o[0] == "-"):
                assert meaning.get(short, longs[0]) == longs[0], (name, short)
