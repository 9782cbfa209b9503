"""The per-user cache of the parsed card database (deckkit.core.diskcache, carddb.cached_card_db):
the same database as a full read, rebuilt whenever a source file, the chosen database or the
entry itself changes, and never an error of its own."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from deckkit.animayhem.construction import carddb
from deckkit.animayhem.construction.carddb import (
    CardDB,
    cached_card_db,
    card_db_dir,
    load_card_db,
    read_card_db,
)
from deckkit.core import diskcache
from deckkit.errors import CardDataError

REPO = Path(__file__).resolve().parents[1]
DECK = REPO / "decks" / "demo-solo.deck"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory of this test's own."""
    directory = tmp_path / "cache"
    monkeypatch.setenv(diskcache.CACHE_DIR_ENV, str(directory))
    monkeypatch.delenv(diskcache.NO_CACHE_ENV, raising=False)
    return directory


@pytest.fixture
def working_copy(tmp_path: Path) -> Path:
    """A designer's copy of the shipped database: DIR/animayhem/{cards.csv,effects/}."""
    root = tmp_path / "db"
    shutil.copytree(card_db_dir() / "animayhem", root / "animayhem")
    return root


@pytest.fixture(scope="module")
def full_read() -> CardDB:
    """The shipped database read in full, once for the module (0.2 CPU-s a read): a working
    copy holds the same files, so an unedited copy reads to the same database."""
    return read_card_db(card_db_dir() / "animayhem" / "cards.csv")


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.glob("*.pickle"))


def same_database(a: CardDB, b: CardDB) -> None:
    """Every card, effect entry, vocabulary word and lookup key equal."""
    assert a.cards == b.cards
    assert a.effects == b.effects
    assert a.vocabulary == b.vocabulary
    assert a._by_key == b._by_key and a._names == b._names
    assert [a.coverage(c) for c in a.cards] == [b.coverage(c) for c in b.cards]


def edit_same_size(path: Path, old: str, new: str) -> None:
    """Replace text keeping the file's size and modification time: only its bytes tell."""
    assert len(old.encode()) == len(new.encode())
    info = path.stat()
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size


def rename_rarity(working_copy: Path) -> None:
    """Little Washu (am046) becomes a "Cxmmon" card, the file's size and time unchanged."""
    row = "Little Washu,character,,,Set 0,"
    edit_same_size(working_copy / "animayhem" / "cards.csv", row + "Common", row + "Cxmmon")


def test_cached_database_equals_a_full_read(cache: Path, full_read: CardDB) -> None:
    csv_file = card_db_dir() / "animayhem" / "cards.csv"
    fresh = full_read
    first = cached_card_db(csv_file)  # a miss: read, then stored
    assert len(entries(cache)) == 1
    second = cached_card_db(csv_file)  # read back from the entry
    assert second is not first
    same_database(first, fresh)
    same_database(second, fresh)


def test_an_edited_card_file_is_read_again(
    cache: Path, working_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(carddb.CARD_DB_ENV, str(working_copy))
    assert load_card_db().get("am046").rarity == "Common"
    assert load_card_db().get("am046").rarity == "Common"  # from the cache
    rename_rarity(working_copy)
    assert load_card_db().get("am046").rarity == "Cxmmon"
    assert len(entries(cache)) == 1  # the location's entry replaced, not a second one


def test_an_edited_effects_file_is_read_again(
    cache: Path, working_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(carddb.CARD_DB_ENV, str(working_copy))
    assert load_card_db().effects["am046"].note.startswith("+1 health for the others")
    anchor = '[am046]\nname = "Little Washu"\ncoverage = "approximate"\nnote = '
    effects = working_copy / "animayhem" / "effects" / "characters.toml"
    edit_same_size(effects, anchor + '"+1 health', anchor + '"+1 HEALTH')
    assert load_card_db().effects["am046"].note.startswith("+1 HEALTH for the others")


def test_a_removed_and_restored_effects_file_is_read_again(
    cache: Path, working_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(carddb.CARD_DB_ENV, str(working_copy))
    effects = working_copy / "animayhem" / "effects"

    def source() -> str:
        entry = load_card_db().effects.get("am046")
        return "" if entry is None else entry.source.partition(":")[0]

    assert source() == "characters.toml"
    (effects / "characters.toml").rename(effects / "characters.off")
    assert source() != "characters.toml"
    (effects / "characters.off").rename(effects / "characters.toml")
    assert source() == "characters.toml"


def test_each_database_named_by_the_environment_is_its_own(
    cache: Path, working_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rename_rarity(working_copy)
    shipped_csv = card_db_dir() / "animayhem" / "cards.csv"
    assert cached_card_db(shipped_csv).get("am046").rarity == "Common"
    monkeypatch.setenv(carddb.CARD_DB_ENV, str(working_copy))
    assert load_card_db().get("am046").rarity == "Cxmmon"
    monkeypatch.delenv(carddb.CARD_DB_ENV)
    assert cached_card_db(shipped_csv).get("am046").rarity == "Common"
    monkeypatch.setenv(carddb.CARD_DB_ENV, str(working_copy))
    assert load_card_db().get("am046").rarity == "Cxmmon"
    assert len(entries(cache)) == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: data[:-200] + b"\x00" * 200,  # a corrupt tail
        lambda data: b"not a cache entry at all",
        lambda data: data.replace(diskcache.MAGIC, b"deckkit-cache-0\n"),  # another layout
        lambda data: data[: len(diskcache.MAGIC)] + b"0" * 64 + data[len(diskcache.MAGIC) + 64 :],
    ],
    ids=["truncated", "corrupt", "foreign", "old-layout", "other-key"],
)
def test_a_damaged_entry_is_ignored_and_replaced(
    cache: Path, working_copy: Path, damage: Callable[[bytes], bytes], full_read: CardDB
) -> None:
    csv_file = working_copy / "animayhem" / "cards.csv"
    expected = full_read
    cached_card_db(csv_file)
    (entry,) = entries(cache)
    entry.write_bytes(damage(entry.read_bytes()))
    same_database(cached_card_db(csv_file), expected)  # read from the sources
    same_database(cached_card_db(csv_file), expected)  # and from the rewritten entry
    assert pickle.loads(entry.read_bytes()[len(diskcache.MAGIC) + 65 :]).cards == expected.cards


def test_an_entry_others_may_write_is_not_read(cache: Path, working_copy: Path) -> None:
    """Entries are pickles: one that someone else could have written is rebuilt, not loaded."""
    csv_file = working_copy / "animayhem" / "cards.csv"
    cached_card_db(csv_file)
    (entry,) = entries(cache)
    entry.chmod(0o666)
    key = carddb._cache_key(csv_file, csv_file.resolve()) or ""
    assert diskcache.load(entry.name, key) is None
    entry.chmod(0o600)
    assert isinstance(diskcache.load(entry.name, key), CardDB)


def test_a_broken_database_is_never_stored(cache: Path, working_copy: Path) -> None:
    csv_file = working_copy / "animayhem" / "cards.csv"
    text = csv_file.read_text(encoding="utf-8")
    csv_file.write_text(text.replace("Little Washu,character,", "Little Washu,wizard,"), "utf-8")
    for _ in range(2):
        with pytest.raises(CardDataError, match="'type'"):
            cached_card_db(csv_file)
    assert entries(cache) == []


def test_unreadable_sources_are_reported_as_without_the_cache(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that cannot be read (a symbolic link loop, a directory, a missing file) fails
    as the full read fails, and leaves no entry."""
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop")
    (tmp_path / "dir.csv").mkdir()
    for path in (loop, tmp_path / "dir.csv", tmp_path / "missing.csv"):
        with pytest.raises(Exception) as uncached:
            read_card_db(path)
        with pytest.raises(type(uncached.value)) as cached:
            cached_card_db(path)
        assert str(cached.value) == str(uncached.value)
    assert entries(cache) == []


def test_no_cache_when_turned_off_or_unwritable(
    cache: Path, working_copy: Path, monkeypatch: pytest.MonkeyPatch, full_read: CardDB
) -> None:
    csv_file = working_copy / "animayhem" / "cards.csv"
    monkeypatch.setenv(diskcache.NO_CACHE_ENV, "1")
    same_database(cached_card_db(csv_file), full_read)
    assert not cache.exists()
    monkeypatch.delenv(diskcache.NO_CACHE_ENV)
    cache.write_text("a file where the directory should be", encoding="utf-8")
    same_database(cached_card_db(csv_file), full_read)


@pytest.mark.slow  # three processes; the cache's reads and stores are the in-process tests above
def test_validate_prints_the_same_with_and_without_the_cache(tmp_path: Path) -> None:
    """The command line: a cold cache, a warm one and none give the same output and exit code."""
    env = {**os.environ, diskcache.CACHE_DIR_ENV: str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    env.pop(carddb.CARD_DB_ENV, None)
    command = [sys.executable, "-m", "deckkit", "validate", str(DECK), "--format", "json"]
    runs = [
        subprocess.run(command, env=env, capture_output=True, text=True, cwd=tmp_path)
        for _ in range(2)
    ]
    env[diskcache.NO_CACHE_ENV] = "1"
    runs.append(subprocess.run(command, env=env, capture_output=True, text=True, cwd=tmp_path))
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 1
    assert {(r.returncode, r.stdout, r.stderr) for r in runs} == {
        (runs[0].returncode, runs[0].stdout, runs[0].stderr)
    }
    assert runs[0].returncode == 0 and '"legal": true' in runs[0].stdout


def test_entries_unused_for_a_month_are_removed_when_their_family_stores(cache: Path) -> None:
    """Each place a database is read from has its own entry: a store removes the entries of its
    family nobody has used for MAX_AGE_DAYS, a hit keeps its entry young, and nothing of
    another family is touched."""
    month_ago = diskcache.MAX_AGE_DAYS * 86_400 + 60
    assert diskcache.store("animayhem-cards-old.pickle", "k", 1)
    assert diskcache.store("animayhem-cards-used.pickle", "k", 2)
    assert diskcache.store("other-thing-old.pickle", "k", 3)
    for name in (
        "animayhem-cards-old.pickle",
        "animayhem-cards-used.pickle",
        "other-thing-old.pickle",
    ):
        stamp = (cache / name).stat().st_mtime - month_ago
        os.utime(cache / name, (stamp, stamp))
    assert diskcache.load("animayhem-cards-used.pickle", "k") == 2  # a hit: used now
    assert diskcache.store("animayhem-cards-new.pickle", "k", 4)
    assert sorted(p.name for p in entries(cache)) == [
        "animayhem-cards-new.pickle",
        "animayhem-cards-used.pickle",
        "other-thing-old.pickle",
    ]
