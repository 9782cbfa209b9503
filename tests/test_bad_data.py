"""Corrupted copies of the card database and the edition files: every bad value is a data error
(exit 3) that names the file, the line and the field, never a crash or a silent wrong number."""

from __future__ import annotations

import csv
import io
import random
import shutil
import tomllib
from pathlib import Path

import pytest

from deckkit.animayhem.construction.carddb import read_card_db
from deckkit.animayhem.construction.editions import _edition_from
from deckkit.errors import EXIT_BAD_DATA, CardDataError

REPO = Path(__file__).resolve().parent.parent
CSV = REPO / "card_db" / "animayhem" / "cards.csv"
EDITIONS = REPO / "deckkit" / "animayhem" / "construction" / "editions"
BAD_VALUES = ("abc", "-500", "1.5", "nan", "((", "x2x", "\x00", "Strength x-1", "9" * 20)


def _copy_db(tmp_path: Path, text: str | bytes) -> Path:
    db = tmp_path / "db"
    shutil.copytree(REPO / "card_db", db)
    target = db / "animayhem" / "cards.csv"
    if isinstance(text, bytes):
        target.write_bytes(text)
    else:
        target.write_text(text, encoding="utf-8")
    return target


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_random_bad_cells_are_reported_with_file_line_and_field(tmp_path: Path) -> None:
    rows = list(csv.reader(io.StringIO(CSV.read_text(encoding="utf-8"))))
    header = rows[0]
    numeric = [j for j, name in enumerate(header) if name in {
        "damage", "defense", "movement", "charm", "energy", "health", "energy_cost", "uses",
        "deck_limit", "tally", "moves_times", "card_no",
    }]  # fmt: skip
    rng = random.Random(7)
    caught = 0
    for trial in range(20):
        corrupted = [list(r) for r in rows]
        j = rng.choice(numeric)
        # a filled cell: an empty numeric cell can be legal (no such ability)
        i = rng.choice([k for k in range(1, len(rows)) if rows[k][j].strip()])
        corrupted[i][j] = rng.choice(BAD_VALUES)
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(corrupted)
        path = _copy_db(tmp_path / str(trial), out.getvalue())
        with pytest.raises(CardDataError) as info:
            read_card_db(path)
        err = info.value
        assert err.exit_code == EXIT_BAD_DATA
        assert err.path == path and err.line == i + 1, (header[j], corrupted[i][j], err.render())
        caught += 1
    assert caught == 20


def test_a_card_database_that_is_not_utf8_is_a_data_error(tmp_path: Path) -> None:
    path = _copy_db(tmp_path, CSV.read_bytes().replace(b"A-ko Magami", b"A-ko \xff\xfe", 1))
    with pytest.raises(CardDataError, match="not UTF-8") as info:
        read_card_db(path)
    assert info.value.path == path


@pytest.mark.parametrize(
    ("key", "old", "new", "message"),
    [
        ("copy limit", "item = 3", "item = -1", "copy_limits.item: must be at least 0"),
        ("divisor", "divisor = 2", "divisor = 0", "disasters.divisor: must be at least 1"),
        ("count", "per_location = 2", 'per_location = "two"', "expected a whole number"),
        ("fraction", "combat_fraction = [1, 2]", "combat_fraction = [1, 0]", "denominator"),
    ],
)
def test_edition_values_out_of_range_are_data_errors(
    key: str, old: str, new: str, message: str
) -> None:
    text = (EDITIONS / "general1996.toml").read_text(encoding="utf-8")
    assert old in text, key
    with pytest.raises(CardDataError, match=message) as info:
        _edition_from(tomllib.loads(text.replace(old, new, 1)), "general1996.toml")
    assert info.value.path is not None and info.value.exit_code == EXIT_BAD_DATA


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.parametrize("how", ["option", "environment"])
def test_every_command_reads_a_users_card_database(tmp_path: Path, how: str) -> None:
    """Each command in this process (the command-line code the console script runs); the first
    once more through the console script in a fresh interpreter, as a user runs it."""
    import os
    import subprocess
    import sys

    from typer.testing import CliRunner

    from deckkit.cli.main import app

    csv_path = _copy_db(tmp_path, CSV.read_text(encoding="utf-8").replace(
        "am001,1,A-ko Magami,character,,,Set 1,Common,4,",
        "am001,1,A-ko Magami,character,,,Set 1,Common,four,", 1,
    ))  # fmt: skip
    db_dir = csv_path.parent.parent
    deck = str(REPO / "decks" / "demo-solo.deck")
    env = {"DECKKIT_CARD_DB": str(db_dir)} if how == "environment" else {}
    option = ["--card-db", str(db_dir)] if how == "option" else []
    message = f"error: {csv_path}, line 2: card am001, field 'damage'"
    before = dict(os.environ)
    for command in (["validate", deck], ["simulate", deck, "-n", "5"], ["cards", "list"]):
        result = CliRunner().invoke(app, [*option, *command], env=env)
        os.environ.clear()  # --card-db exports its path: each command reads the option itself
        os.environ.update(before)
        assert result.exit_code == EXIT_BAD_DATA, (command, result.stderr, result.exception)
        assert result.stderr.startswith(message), result.stderr
    done = subprocess.run(
        [sys.executable, "-m", "deckkit", *option, "validate", deck],
        capture_output=True, text=True, cwd=REPO, env={**os.environ, **env},
    )  # fmt: skip
    assert done.returncode == EXIT_BAD_DATA, done.stderr
    assert done.stderr.startswith(message)
    assert "Traceback" not in done.stderr
