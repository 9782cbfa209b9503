"""A card database directory other than the shipped one: given as a path, or named by the
environment variable DECKKIT_CARD_DB."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deckkit.animayhem.construction.carddb import (
    CARD_DB_ENV,
    card_db_csv,
    card_db_dir,
    load_card_db,
)
from deckkit.errors import CardDataError


def test_a_directory_means_its_cards_csv_or_its_animayhem_cards_csv(tmp_path: Path) -> None:
    """DIR/animayhem/cards.csv when it exists, else DIR/cards.csv; a file is itself."""
    shutil.copytree(card_db_dir(), tmp_path / "db")
    nested = tmp_path / "db" / "animayhem" / "cards.csv"
    assert card_db_csv(tmp_path / "db") == nested
    assert card_db_csv(tmp_path / "db" / "animayhem") == nested
    assert card_db_csv(nested) == nested


def test_the_environment_variable_names_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With DECKKIT_CARD_DB set, the loader reads that database (here an edited copy)."""
    shutil.copytree(card_db_dir(), tmp_path / "db")
    csv_path = tmp_path / "db" / "animayhem" / "cards.csv"
    text = csv_path.read_text(encoding="utf-8")
    first_name = load_card_db().get("am001").name
    csv_path.write_text(text.replace(f",{first_name},", ",Renamed For Test,", 1), encoding="utf-8")
    monkeypatch.setenv(CARD_DB_ENV, str(tmp_path / "db"))
    assert card_db_csv() == csv_path
    assert load_card_db().get("am001").name == "Renamed For Test"
    monkeypatch.setenv(CARD_DB_ENV, "")
    assert load_card_db().get("am001").name == first_name


def test_a_missing_database_directory_is_a_data_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CARD_DB_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(CardDataError, match="cannot read card database"):
        load_card_db()
