"""The game registry: a file's header (or --game) picks the game whose commands run; files that
name no game stay Ani-Mayhem's, whose commands run unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit import games
from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "decks" / "demo-solo.deck"
runner = CliRunner()


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        games, "GAMES", (*games.GAMES, games.Game("fake-game", "Fake Game", "tests.fake_game"))
    )


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_header_names_the_game(tmp_path: Path) -> None:
    text = "# a comment\n\nname: X\ngame: Anima Tactics  # ok\nlevels: 250\n"
    f = _file(tmp_path, "a.party", text)
    assert games.header_game(f) == ("Anima Tactics", 4)
    assert games.game_of_file(f).name == "anima-tactics"
    assert games.header_game(DEMO) is None
    assert games.game_of_file(DEMO).name == games.DEFAULT_GAME
    # the header ends at the first line that is not "key: value"
    late = _file(tmp_path, "b.party", "name: X\n[characters]\ngame: fake-game\n")
    assert games.header_game(late) is None


def test_a_file_of_another_game_runs_that_games_command(fake: None, tmp_path: Path) -> None:
    f = _file(tmp_path, "p.fake", "game: fake-game\n")
    result = runner.invoke(app, ["validate", str(f), "--budget", "9"])
    assert result.exit_code == 0, result.output
    assert "fake validate p.fake budget=9" in result.output
    other = _file(tmp_path, "q.fake", "game: fake-game\n")
    result = runner.invoke(app, ["simulate", str(f), "--vs", str(other)])
    assert "fake simulate p.fake vs=q.fake" in result.output


def test_game_errors_keep_their_exit_codes(fake: None, tmp_path: Path) -> None:
    f = _file(tmp_path, "broken.fake", "game: fake-game\n")
    result = runner.invoke(app, ["validate", str(f)])
    assert result.exit_code == 2
    assert "line 3" in result.output


def test_game_option_picks_the_game_and_is_removed(fake: None) -> None:
    result = runner.invoke(app, ["cards", "list", "--game", "Fake Game"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "fake cards"
    # --game ani-mayhem runs Ani-Mayhem's own command, without the option
    result = runner.invoke(app, ["validate", "--game", "ani-mayhem", str(DEMO)])
    assert result.exit_code == 0, result.output
    assert "LEGAL" in result.output


def test_unknown_game_is_exit_2_naming_the_line(tmp_path: Path) -> None:
    f = _file(tmp_path, "x.party", "name: X\ngame: chess\n")
    result = runner.invoke(app, ["validate", str(f)])
    assert result.exit_code == 2
    assert "line 2" in result.output and "unknown game 'chess'" in result.output
    result = runner.invoke(app, ["validate", "--game", "chess", str(DEMO)])
    assert result.exit_code == 2


def test_files_of_two_games_are_refused(fake: None, tmp_path: Path) -> None:
    a = _file(tmp_path, "a.fake", "game: fake-game\n")
    b = _file(tmp_path, "b.deck", "game: ani-mayhem\n")
    result = runner.invoke(app, ["validate", str(a), str(b)])
    assert result.exit_code == 2
    assert "give files of one game" in result.output


def test_ani_mayhem_is_the_default_and_may_say_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(DEMO)])
    assert result.exit_code == 0 and "LEGAL" in result.output
    text = DEMO.read_text().replace("name: Solo demo", "game: ani-mayhem\nname: Solo demo")
    f = _file(tmp_path, "demo.deck", text)
    assert games.game_of_file(f).name == "ani-mayhem"
    result = runner.invoke(app, ["validate", str(f)])
    assert result.exit_code == 0, result.output


def test_other_games_are_not_imported_for_ani_mayhem() -> None:
    """A game's commands load only when a command line needs them."""
    import subprocess
    import sys

    code = (
        "import sys; from deckkit.cli import main; "
        "print(any(m.startswith('deckkit.cli.animatactics') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert out.stdout.strip() == "False", out.stderr
