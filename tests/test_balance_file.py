"""The balance file: defaults, paths relative to the file, and errors that say what to write."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckkit.balance.config import load_balance_file
from deckkit.errors import EXIT_BAD_INPUT, UsageError

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "balance.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_balance_file_loads() -> None:
    """reports/balance.toml is valid and checks only decks that exist."""
    balance = load_balance_file(REPO / "reports" / "balance.toml")
    assert balance.checks
    assert all(c.deck.is_file() for c in balance.checks)
    assert balance.baselines == REPO / "reports" / "baselines"


def test_defaults_apply_and_top_level_values_override_them(tmp_path: Path) -> None:
    """A check inherits the built-in defaults, then the file's top-level values, then its own."""
    path = write(
        tmp_path,
        f'budget = 500\n[[check]]\nname = "a"\ndeck = "{DECK}"\nband = [0.2, 0.6]\n'
        f'[[check]]\nname = "b"\ndeck = "{DECK}"\nmax_drop = 0.03\nbudget = 9\nalpha = 0.1\n',
    )
    a, b = load_balance_file(path).checks
    assert (a.budget, a.alpha, a.beta, a.policy, a.kind) == (500, 0.05, 0.05, "heuristic", "band")
    assert (b.budget, b.alpha, b.kind, b.max_drop) == (9, 0.1, "drift", 0.03)
    assert a.line == 2 and b.line == 6


def test_deck_paths_are_relative_to_the_balance_file(tmp_path: Path) -> None:
    """deck = "x.deck" means the x.deck beside the balance file, wherever deckkit runs."""
    (tmp_path / "my.deck").write_text(DECK.read_text(encoding="utf-8"), encoding="utf-8")
    path = write(tmp_path, '[[check]]\nname = "a"\ndeck = "my.deck"\nband = [0.2, 0.6]\n')
    assert load_balance_file(path).checks[0].deck == tmp_path / "my.deck"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("band = [0.2, 0.6]\nmax_drop = 0.1", "exactly one of band"),
        ("", "exactly one of band"),
        ("band = [0.6, 0.2]", "0 <= lo < hi <= 1"),
        ("band = [20, 60]", "not percentages"),
        ("band = [0.2, 0.6]\nalpha = 0.7", "alpha must lie strictly between 0 and 0.5"),
        ("band = [0.2, 0.6]\nbudget = 0", "budget must be a whole number of at least 1"),
        ("band = [0.2, 0.6]\nplayers = 3", "solitaire"),
        ("band = [0.2, 0.6]\nbandd = 1", "unknown key(s) bandd"),
        ("band = [0.02, 0.6]", "lo - margin must stay above 0"),
        ("max_drop = 3", "max_drop must lie strictly between 0 and 1"),
    ],
)
def test_bad_checks_name_file_check_and_line(tmp_path: Path, body: str, words: str) -> None:
    """Each mistake is a usage error (exit 2) naming the file, the check and its line."""
    path = write(tmp_path, f'seed = 1\n\n[[check]]\nname = "demo"\ndeck = "{DECK}"\n{body}\n')
    with pytest.raises(UsageError) as err:
        load_balance_file(path)
    text = err.value.render()
    assert words in text
    assert str(path) in text and "check 'demo'" in text and "line 3" in text
    assert err.value.exit_code == EXIT_BAD_INPUT


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no checks"),
        ("[[check]]\nband = [0.2, 0.6]\n", "has no name"),
        ('[[check]]\nname = "a"\nband = [0.2, 0.6]\n', "no deck"),
        ('[[check]]\nname = "a"\ndeck = "nope.deck"\nband = [0.2, 0.6]\n', "does not exist"),
        ("name = 'x'\n[[check]]\n", "unknown top-level key(s) name"),
        ("[[check]\n", "malformed TOML"),
        (
            f'[[check]]\nname = "a"\ndeck = "{DECK}"\nband = [0.2, 0.6]\n'
            f'[[check]]\nname = "a"\ndeck = "{DECK}"\nband = [0.2, 0.6]\n',
            "used twice (first on line 1)",
        ),
        (
            f'[[check]]\nname = "A b"\ndeck = "{DECK}"\nband = [0.2, 0.6]\n'
            f'[[check]]\nname = "a-b"\ndeck = "{DECK}"\nband = [0.2, 0.6]\n',
            "rename one of the two checks",
        ),
    ],
)
def test_bad_files_are_usage_errors(tmp_path: Path, text: str, words: str) -> None:
    """Structural mistakes are named with what to do."""
    with pytest.raises(UsageError) as err:
        load_balance_file(write(tmp_path, text))
    assert words in err.value.render()


def test_a_missing_balance_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="balance file not found"):
        load_balance_file(tmp_path / "none.toml")
