"""`deckkit compare` and `deckkit impact` take the same flags in every game where a flag has a
meaning: a party or team compared with itself under two players (--policy-b, the opponent
keeping --policy), the comparison page (--html, --force), the JSON of every game valid against
docs/schemas/compare.schema.json; a flag with no meaning for the game is refused in one line
with the usage exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit import games
from deckkit.analysis import matches
from deckkit.api import matchups
from deckkit.cli.main import app
from deckkit.core.game import Game
from deckkit.errors import EXIT_BAD_INPUT
from tests.schema_check import Validator

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
PAIRS = {
    "anima-tactics": (DECKS / "at-unaligned.party", DECKS / "at-samael-darkness.party"),
    "animus": (DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"),
}
GAMES = 6
validator = Validator(ROOT / "docs" / "schemas")
runner = CliRunner()


def run(*args: str | Path | float) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def interface(name: str) -> Game:
    found = games.find_game(name)
    assert found is not None
    return games.game_interface(found)


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_policy_b_compares_one_file_under_two_players_against_the_same_opponent(
    name: str, tmp_path: Path
) -> None:
    """Arm 2 is the file played by --policy-b against the opponent played by the default
    player, on the same games: its wins are those of that very setup run on its own."""
    file, vs = PAIRS[name]
    game = interface(name)
    default = game.players()[0]
    code, out, err = run(
        "compare", file, "--vs", vs, "--policy-b", "random", "-n", GAMES, "-s", 5, "-q",
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    doc = json.loads(out)
    assert validator.errors(doc, "compare.schema.json") == []
    assert [a["policy"] for a in doc["arms"]] == [default, "random"]
    assert doc["vs"]["policy"] == default
    assert [a["label"] for a in doc["arms"]] == [
        f"{game.entry_name(game.read(file))}, policy {p}" for p in (default, "random")
    ]
    assert "--policy-b random" in doc["command"]
    entries = [game.read(file), game.read(vs)]
    for arm, players in zip(doc["arms"], [default, ("random", default)], strict=True):
        setup = game.prepare(entries, player=players)
        alone = matches.run(name, setup, games=GAMES, seed=5)
        assert arm["outcomes"]["win"]["count"] == alone.tally.outcomes.get("win", 0)
    (d,) = doc["differences"]
    assert d["cards_that_differ"] == []
    assert d["games"] == GAMES


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_same_player_twice_differs_in_no_game(name: str) -> None:
    file, vs = PAIRS[name]
    default = interface(name).players()[0]
    code, out, err = run(
        "compare", file, "--vs", vs, "--policy-b", default, "-n", GAMES, "-q", "-f", "json"
    )
    assert code == 0, err
    (d,) = json.loads(out)["differences"]
    assert (d["only_a_won"], d["only_b_won"], d["difference"]) == (0, 0, 0.0)


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_page_is_written_whole_and_never_over_a_file_without_force(
    name: str, tmp_path: Path
) -> None:
    file, vs = PAIRS[name]
    page = tmp_path / "compare.html"
    args = ("compare", file, "--vs", vs, "--policy-b", "random", "-n", GAMES, "-q")
    code, out, err = run(*args, "--html", page)
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert html.rstrip().endswith("</html>")
    title = interface(name).entry_name(interface(name).read(vs))
    assert f"against {title}" in html
    sidecar = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    assert sidecar["game"] == name
    assert validator.errors(sidecar, "compare.schema.json") == []
    assert "paired games per arm against" in out
    # an existing page is refused before any game, and left as it was
    page.write_text("kept", encoding="utf-8")
    code, _, err = run(*args, "--html", page)
    assert code == EXIT_BAD_INPUT and "--force" in err
    assert page.read_text(encoding="utf-8") == "kept"
    code, _, err = run(*args, "--html", page, "--force")
    assert code == 0, err
    assert page.read_text(encoding="utf-8").rstrip().endswith("</html>")


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize(
    ("flag", "code"),
    [
        (("--edition", "fifth"), EXIT_BAD_INPUT),
        (("--edition-b", "fifth"), EXIT_BAD_INPUT),
        (("--variant", "standard"), EXIT_BAD_INPUT),
        (("--layout", "compact"), EXIT_BAD_INPUT),
        (("--turn-cap", "9"), EXIT_BAD_INPUT),
    ],
)
def test_a_flag_without_meaning_is_refused_in_one_line(
    name: str, flag: tuple[str, str], code: int
) -> None:
    file, vs = PAIRS[name]
    title = games.find_game(name).title  # type: ignore[union-attr]
    got, out, err = run("compare", file, "--vs", vs, "--policy-b", "random", "-n", 2, *flag)
    assert got == code, err
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert flag[0] in err and title in err


def test_impact_remove_plays_removals_and_means_nothing_for_a_team_of_fixed_size() -> None:
    party, vs = PAIRS["anima-tactics"]
    code, out, err = run(
        "impact", party, "--vs", vs, "-c", "Kira", "--remove", "-n", 4, "-q", "-f", "json"
    )
    assert code == 0, err
    doc = json.loads(out)
    (card,) = doc["impact"]["cards"]
    assert [s["change"] for s in card["stand_ins"]] == ["removed"]
    assert doc["command"].endswith("--remove")
    team, vs = PAIRS["animus"]
    code, out, err = run("impact", team, "--vs", vs, "--remove", "-n", 2, "-q")
    assert code == EXIT_BAD_INPUT and out == ""
    assert "--remove has no meaning for Animus" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize(
    ("flag", "code"),
    [
        (("--target-error", "1.5"), EXIT_BAD_INPUT),
        (("--edition", "fifth"), EXIT_BAD_INPUT),
        (("--turn-cap", "9"), EXIT_BAD_INPUT),
    ],
)
def test_impact_refuses_what_it_does_not_serve(name: str, flag: tuple[str, str], code: int) -> None:
    file, vs = PAIRS[name]
    got, out, err = run("impact", file, "--vs", vs, "-n", 2, "-q", *flag)
    assert got == code, err
    said = [line for line in err.strip().splitlines() if not line.startswith("  hint:")]
    assert out == "" and len(said) == 1 and flag[0] in said[0], err


def _params(command: object) -> dict[str, object]:
    return {
        next(o for o in p.opts if o.startswith("--")): p
        for p in command.params  # type: ignore[attr-defined]
        if any(o.startswith("--") for o in p.opts)
    }


@pytest.mark.parametrize("verb", ["compare", "impact"])
def test_every_ani_mayhem_flag_is_declared_for_parties_with_the_same_help_and_default(
    verb: str,
) -> None:
    """Every flag of Ani-Mayhem's command is one of the interface command's (shown, or hidden
    only to be refused by name); the ones both serve alike keep Ani-Mayhem's help text and
    default."""
    from tests.test_cli_conventions import _commands

    mayhem = _params(_commands()[verb])
    party, _ = PAIRS["anima-tactics"]
    command, _ = games.command_for(verb, [str(party)])
    sibling = _params(command)
    assert set(mayhem) <= set(sibling), set(mayhem) - set(sibling)
    alike = {
        "--games", "--seed", "--workers", "--scheduler", "--format", "--allow-illegal", "--quiet"
    }  # fmt: skip
    # impact's --remove says where it has a meaning; --card is every card when not given
    alike |= {"--policy-b", "--html", "--force"} if verb == "compare" else {"--remove"}
    for flag in sorted(alike):
        a, b = mayhem[flag], sibling[flag]
        assert a.default == b.default, flag  # type: ignore[attr-defined]
        if flag != "--remove":
            assert a.help == b.help, flag  # type: ignore[attr-defined]


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_impact_target_error_stops_each_stand_in_on_the_games_a_shorter_run_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under --target-error a stand-in stops after a batch once its half-width is small enough:
    its estimate is then the one a run of that many games gives (game i is the same game
    however the run is cut), and the document says the games each change took. Batches of 100
    games instead of 500: this change's half-width is 0.10 after one batch and 0.07 after two,
    so the run goes on past its first batch and stops after its second."""
    monkeypatch.setattr(matchups, "BATCH", 100)
    team, vs = PAIRS["animus"]
    args = ("impact", team, "--vs", vs, "-c", "Astrid Kell", "-s", 2, "-q", "-f", "json")
    code, out, err = run(*args, "-n", 1000, "--target-error", 0.08)
    assert code == 0, err
    stopped = json.loads(out)
    assert stopped["target_error"] == 0.08
    assert stopped["command"].endswith("--target-error 0.08")
    code, out, err = run(*args, "-n", 200)
    assert code == 0, err
    short = json.loads(out)
    assert short["target_error"] is None
    (a,), (b,) = stopped["impact"]["cards"], short["impact"]["cards"]
    assert a["games"] == 200
    assert a["stand_ins"] == b["stand_ins"]
    assert (a["difference"], a["ci"]) == (b["difference"], b["ci"])
