"""Snapshots of a deck's cards: effect entries cut out exactly, changes detected by content, and
a replay database that plays the old cards."""

from __future__ import annotations

import shutil
from pathlib import Path

from deckkit.animayhem.construction.carddb import card_db_csv, card_db_dir, load_card_db
from deckkit.animayhem.construction.deck import Deck, read_deck
from deckkit.animayhem.construction.effectdb import EFFECTS_DIR
from deckkit.balance.snapshot import (
    changed_cards,
    effect_blocks,
    read_effect_entries,
    take_snapshot,
    write_replay_db,
)

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "medium-solo.deck"


def _ids(deck: Deck) -> list[str]:
    """The card ids a deck lists, as a snapshot takes them."""
    return [entry.card.id for entry in deck.entries]


def test_effect_blocks_give_the_file_back() -> None:
    """Cutting an effects file at its table headers loses nothing."""
    for path in (card_db_dir() / "animayhem" / EFFECTS_DIR).glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        assert "".join(chunk for _, chunk in effect_blocks(text)) == text


def copy_db(tmp_path: Path) -> Path:
    target = tmp_path / "db"
    shutil.copytree(card_db_dir(), target)
    return card_db_csv(target)


def test_snapshot_detects_row_and_effect_changes_and_replays_the_old_cards(tmp_path: Path) -> None:
    """Editing a disaster's row or an effect entry is named as a change; the replay database
    holds the snapshot's versions again, and loads."""
    csv_path = copy_db(tmp_path)
    deck = read_deck(DECK, load_card_db(csv_path))
    snapshot = take_snapshot(
        _ids(deck), DECK.read_text(encoding="utf-8"), "medium-solo.deck", csv_path
    )
    assert changed_cards(snapshot, csv_path) == []

    entries = read_effect_entries(csv_path.parent / EFFECTS_DIR)
    with_effects = sorted(
        cid for cid in snapshot["cards"] if cid in entries and 'note = "' in entries[cid]
    )
    assert with_effects, "the medium deck has cards with encoded effects"
    target = with_effects[0]
    effects_file = next(
        p
        for p in (csv_path.parent / EFFECTS_DIR).glob("*.toml")
        if f"[{target}]" in p.read_text(encoding="utf-8")
    )
    text = effects_file.read_text(encoding="utf-8")
    old_entry = entries[target]
    new_entry = old_entry.replace('note = "', 'note = "edited; ', 1)
    assert new_entry != old_entry
    effects_file.write_text(text.replace(old_entry, new_entry), encoding="utf-8")
    name = snapshot["cards"][target]["name"]
    assert changed_cards(snapshot, csv_path) == [f"{name} ({target})"]

    replay_csv = write_replay_db(snapshot, csv_path, tmp_path / "replay" / "animayhem")
    restored = read_effect_entries(replay_csv.parent / EFFECTS_DIR)
    assert restored[target] == old_entry
    assert changed_cards(snapshot, replay_csv) == []
    assert len(load_card_db(replay_csv)) == len(load_card_db(csv_path))


def test_a_comment_or_empty_column_is_no_change(tmp_path: Path) -> None:
    """Hashes are of content: reflowing comments in an effects file changes nothing."""
    csv_path = copy_db(tmp_path)
    deck = read_deck(DECK, load_card_db(csv_path))
    snapshot = take_snapshot(_ids(deck), DECK.read_text(encoding="utf-8"), "x", csv_path)
    for path in (csv_path.parent / EFFECTS_DIR).glob("*.toml"):
        path.write_text("# a new comment\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    assert changed_cards(snapshot, csv_path) == []
