"""Edition and variant files are data a user can edit: every value is checked when it loads, so
a word where a count belongs, an empty location table or a negative count is a data error
naming the file (exit 3), never a traceback or a rule that silently passes every deck."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from deckkit.animayhem.construction import editions
from deckkit.errors import EXIT_BAD_DATA, CardDataError

FOLDER = resources.files("deckkit.animayhem.construction").joinpath("editions")


def _data(filename: str) -> dict[str, Any]:
    return tomllib.loads(FOLDER.joinpath(filename).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"locations_per_player": "many"}, "locations_per_player: expected a whole number"),
        ({"locations_per_player": -3}, "locations_per_player: must be at least 1"),
        ({"players": 0}, "players: must be at least 1"),
        ({"pile_copy_limit": 1.5}, "pile_copy_limit: expected a whole number"),
        ({"piles": {"characters": -4}}, "piles.characters: must be at least 0"),
        ({"piles": [4, 10]}, "piles must be a table"),
    ],
)
def test_bad_variant_values_are_data_errors(change: dict[str, Any], words: str) -> None:
    data = copy.deepcopy(_data("variants.toml"))
    data["big-square"].update(change)
    with pytest.raises(CardDataError, match=words) as info:
        editions._variant_from("big-square", data)
    assert info.value.exit_code == EXIT_BAD_DATA
    assert str(info.value.path) == "variants.toml"


@pytest.mark.parametrize(
    ("by_players", "odd", "words"),
    [
        ([], False, "is empty and odd is false"),
        ([[1, -9]], False, "must be at least 1, not -9"),
        ([[1, 0]], False, "must be at least 1, not 0"),
        ([[2, 7]], False, "the first row must be for 1 player"),
        ([[1, 9], [1, 7]], False, "rows must go up"),
        ("nine", False, "expected a list"),
    ],
)
def test_bad_location_tables_are_data_errors(by_players: object, odd: bool, words: str) -> None:
    data = copy.deepcopy(_data("guidelines1998.toml"))
    data["locations"].update({"by_players": by_players, "odd": odd})
    with pytest.raises(CardDataError, match=words) as info:
        editions._edition_from(data, "guidelines1998.toml")
    assert str(info.value.path) == "guidelines1998.toml"


def test_an_empty_table_with_an_odd_count_is_the_fifth_editions_rule() -> None:
    edition = editions._edition_from(_data("fifth2018.toml"), "fifth2018.toml")
    assert edition.locations_by_players == () and edition.locations_odd


@pytest.mark.parametrize("kind", ["directory", "fifo", "huge"])
def test_an_edition_file_that_is_not_a_file_is_a_data_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    import os

    folder = tmp_path / "editions"
    folder.mkdir()
    target = folder / "set0.toml"
    if kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)  # nobody writes: reading would block forever
    else:
        target.write_text("# " + "x" * (17 << 20) + "\n")
    monkeypatch.setattr(editions.resources, "files", lambda package: tmp_path)
    with pytest.raises(CardDataError) as info:
        editions._read("set0.toml")
    assert info.value.exit_code == EXIT_BAD_DATA
    assert "edition file" in info.value.message
