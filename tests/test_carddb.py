"""The shipped card database: whole-database checks, errata, lookup and the malformed-row error."""

from __future__ import annotations

import csv
import shutil
from collections import Counter
from pathlib import Path

import pytest

from deckkit.animayhem.construction.carddb import CardDB, card_db_dir, load_card_db
from deckkit.animayhem.construction.cards import (
    CardType,
    CharacterCard,
    CombatCard,
    DisasterCard,
    ItemCard,
    LocationCard,
    Modifier,
    PowerCard,
    Trait,
)
from deckkit.errors import EXIT_BAD_DATA, CardDataError


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


def csv_path() -> Path:
    return card_db_dir() / "animayhem" / "cards.csv"


def test_all_cards_present(db: CardDB) -> None:
    """card-data README, "Counts": 787 cards, ids am001..am787 sorted and unique."""
    assert len(db.cards) == 787
    ids = [c.id for c in db.cards]
    assert ids == sorted(ids) == [f"am{n:03d}" for n in range(1, 788)]


def test_counts_per_type(db: CardDB) -> None:
    """card-data README, "Counts": the per-type row counts."""
    counts = Counter(c.type for c in db.cards)
    assert counts == {
        CardType.CHARACTER: 101,
        CardType.COMBAT: 68,
        CardType.LOCATION: 97,
        CardType.DISASTER: 55 + 112,
        CardType.ITEM: 77,
        CardType.EQUIPMENT: 61,
        CardType.ENHANCEMENT: 56,
        CardType.FLASH_EFFECT: 101,
        CardType.GLOBAL_EFFECT: 43,
        CardType.HAVEN: 16,
    }
    disasters = [c for c in db.cards if isinstance(c, DisasterCard)]
    assert sum(d.major for d in disasters) == 55
    assert sum(not d.major for d in disasters) == 112
    assert sum(d.combat for d in disasters if d.major) == 38  # README: 38 major combat
    assert sum(d.combat for d in disasters if not d.major) == 47  # README: 47 minor combat


def test_every_row_names_its_source(db: CardDB) -> None:
    """card-data README: keep each card's source (the Lackey set file it came from)."""
    for card in db.cards:
        assert "github.com/wishmstr/Ani-Mayhem" in card.source, card.id


def test_characters_complete(db: CardDB) -> None:
    """card-data README, "Counts": every character has all 5 abilities, skills and gender."""
    for card in db.of_type(CardType.CHARACTER):
        assert isinstance(card, CharacterCard)
        ab = card.abilities
        assert None not in (ab.damage, ab.defense, ab.movement, ab.charm, ab.energy), card.id
        assert card.skills, card.id


def test_transforming_pairs_symmetric(db: CardDB) -> None:
    """1998 guidelines 2.5: the two forms of a transforming character (e.g. Washu and Little
    Washu) are separate cards; each names the other."""
    chars = [c for c in db.cards if isinstance(c, CharacterCard)]
    pairs = {frozenset((c.id, c.alternate_form)) for c in chars if c.alternate_form}
    for c in chars:
        if c.alternate_form:
            other = db.get(c.alternate_form)
            assert isinstance(other, CharacterCard) and other.alternate_form == c.id
            assert c.alt == other.abilities and other.alt == c.abilities
    names = {frozenset(db.get(i).name for i in p) for p in pairs}
    assert frozenset({"Washu", "Little Washu"}) in names
    assert frozenset({"Ryoga Hibiki", "P-Chan"}) in names
    assert frozenset({"Genma Saotome", "Mr. Panda"}) in names
    assert frozenset({"Mousse", "Mu-Mu Chan"}) in names
    assert len(pairs) == 8
    # A "5/2" stat line without a partner card is not a pair (set0 rulebook sample cards:
    # Mr. Masamichi Fujisawa, "Transformation? | No").
    (fujisawa,) = db.lookup("Mr. Masamichi Fujisawa")
    assert isinstance(fujisawa, CharacterCard) and fujisawa.alternate_form is None


def test_errata_genom_tower_and_masaki_van(db: CardDB) -> None:
    """June 1998 errata (card-data README, errata_1998): Genom Tower's Strength & Attack 4+, The
    Masaki Van's movement 3 replaces rather than adds."""
    (tower,) = db.lookup("Genom Tower")
    assert isinstance(tower, LocationCard)
    assert tower.requirement_text == "Computer & Tech or Police & Strength & Attack 4+"
    assert tower.errata
    (van,) = db.lookup("The Masaki Van")
    assert isinstance(van, PowerCard)
    assert van.modifier("movement") == Modifier("=", 3)
    assert van.vehicle


def test_errata_other_rows(db: CardDB) -> None:
    """June 1998 errata: Juraian Battlesuit costs 2 energy; Survival Shot's Streetwise typo;
    Charge +3 damage, Hammer -1 opponent defense, Panic -3 own defense; all 12 rows noted."""
    (suit,) = db.lookup("Juraian Battlesuit")
    assert isinstance(suit, PowerCard)
    assert suit.energy_cost == 2 and suit.modifier("energy") is None
    (shot,) = db.lookup("Survival Shot")
    assert isinstance(shot, LocationCard)
    assert shot.requirement_text == "Marksman or Streetwise or Hunter"
    (charge,) = db.lookup("Charge")
    (hammer,) = db.lookup("Hammer")
    (panic,) = db.lookup("Panic")
    assert isinstance(charge, CombatCard) and isinstance(hammer, CombatCard)
    assert isinstance(panic, CombatCard)
    assert charge.physical.damage == Modifier("+", 3) and charge.physical.defense is None
    assert hammer.physical.opp_defense == Modifier("+", -1) and hammer.physical.defense is None
    assert panic.physical.defense == Modifier("+", -3) and panic.physical.opp_defense is None
    assert sum(1 for c in db.cards if c.errata) == 12


def test_rulebook_categories_added(db: CardDB) -> None:
    """set0 rulebook, Lexicon "Horde" and sample combat: Bugrom Horde is << Horde >>, Bugrom,
    Type 1 is category Bugrom, so the horde bonus reaches it."""
    (horde,) = db.lookup("Bugrom Horde")
    (bugrom,) = db.lookup("Bugrom, Type 1")
    assert isinstance(horde, DisasterCard) and isinstance(bugrom, DisasterCard)
    assert horde.horde and "Bugrom" in horde.categories
    assert "Bugrom" in bugrom.categories
    assert "set0 rulebook" in horde.source and "set0 rulebook" in bugrom.source


def test_plus_characters_keeps_the_printed_bonus(db: CardDB) -> None:
    """Bugrom Horde prints +2 / +3 and 55-C Bodyguard Boomer +4 defense: bonuses on the number
    of characters at their location (card text). The bonus is stored as printed, not as a base
    value; the printed damage of 55-C (3) stays a base value."""
    (horde,) = db.lookup("Bugrom Horde")
    (boomer,) = db.lookup("55-C Bodyguard Boomer")
    assert isinstance(horde, DisasterCard) and isinstance(boomer, DisasterCard)
    assert horde.plus_characters == (("damage", 2), ("defense", 3))
    assert horde.abilities.damage is None and horde.abilities.movement == 3
    assert boomer.plus_characters == (("defense", 4),)
    assert boomer.abilities.damage == 3 and boomer.abilities.defense is None
    assert sum(1 for c in db.cards if isinstance(c, DisasterCard) and c.plus_characters) == 2


def test_requirements_from_card_text(db: CardDB) -> None:
    """Power cards whose requirement is only in their text carry it as data
    (tools/card_corrections.toml, [requirement.*]); every one parses to terms the engine knows
    but Goz' Flying Machine's "group of at least 3" alternative."""
    from deckkit.animayhem.construction.requirements import SpecialTerm

    (launcher,) = db.lookup("Rocket Launcher")
    assert isinstance(launcher, PowerCard) and launcher.requirement_text == "Weapons"
    from_text = [c for c in db.cards if "requirement from the card text" in c.source]
    assert len(from_text) == 29
    for c in from_text:
        assert isinstance(c, PowerCard) and c.requirement is not None
        terms = [t for alt in c.requirement.alternatives for t in alt]
        specials = [t for t in terms if isinstance(t, SpecialTerm)]
        assert not specials or c.name == "Goz' Flying Machine", c.name


def test_derived_traits(db: CardDB) -> None:
    """set0 rulebook, "Advanced Character and Disaster Traits": keyword traits are encoded."""

    def disaster(name: str) -> DisasterCard:
        (card,) = db.lookup(name)
        assert isinstance(card, DisasterCard)
        return card

    assert Trait.FRENZY in disaster("Big Bug").traits
    assert Trait.MAGNET in disaster("Everyone's After Me").traits
    assert Trait.ALLY in disaster("Mystery Foe").traits
    assert Trait.STEALS_EQUIPMENT in disaster("Class C Female Boomer").traits
    assert Trait.STEALS_ITEM in disaster("Sahara Demon").traits
    assert Trait.OFF_FIELD in disaster("Nightmare").traits
    assert disaster("The Pit").moves_times == 1
    assert disaster("Property Damage").moves_times == 3


def test_printed_overrides(db: CardDB) -> None:
    """card-data README, "Known caveats": health overrides, C-ko counts as 2 items, deck limits."""
    (julian,) = db.lookup('Julian "Pluto" Moore')
    assert isinstance(julian, CharacterCard) and julian.health == 6
    (cko,) = db.lookup("C-ko Kotobuki")
    assert isinstance(cko, ItemCard) and cko.tally == 2
    (kettle,) = db.lookup("Water Kettle")
    assert kettle.deck_limit == 6
    (edge,) = db.lookup("Over the Edge")
    assert edge.deck_limit == 1


def test_no_card_text_copied() -> None:
    """card-data README: the publisher's sentences never enter the repository."""
    # The raw data lies in ../shared beside the checkout, or beside a folder holding checkouts
    # (a worktree or a clone one level deeper): look in every folder above.
    found = [
        up / "shared" / "card-data" / "lackey"
        for up in Path(__file__).resolve().parents[1:]
        if (up / "shared" / "card-data" / "lackey").is_dir()
    ]
    if not found:
        pytest.skip("raw card data not available")
    lackey = found[0]
    text = csv_path().read_text(encoding="utf-8")
    for path in lackey.glob("*.txt"):
        with path.open(encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
            for row in reader:
                sentence = (row.get("Instructions") or "").strip()
                if len(sentence) > 30:
                    assert sentence not in text, row["Name"]


def test_lookup_shared_name_and_disambiguation(db: CardDB) -> None:
    """card-data README, "Known caveats": two Goku cards (#32 and #33); lookup returns both and
    "Goku #33" or the id picks one."""
    assert [c.id for c in db.lookup("Goku")] == ["am032", "am033"]
    assert [c.id for c in db.lookup("goku #33")] == ["am033"]
    assert [c.id for c in db.lookup("am032")] == ["am032"]
    assert db.lookup("Goku #34") == []


def test_lookup_combat_halves_case_and_whitespace(db: CardDB) -> None:
    """set0 rulebook, "Combat" cards: a combat card is named by either half or both."""
    for name in ("Smash", "stupefaction", "  Smash / Stupefaction ", "SMASH/STUPEFACTION"):
        assert [c.id for c in db.lookup(name)] == ["am776"], name
    assert [c.name for c in db.lookup("  little WASHU ")] == ["Little Washu"]


def test_suggest(db: CardDB) -> None:
    """Unknown names get the closest known names (deckkit CLI usage errors)."""
    assert db.lookup("Washoo") == []
    assert "Washu" in db.suggest("Washoo")


def test_of_type_and_get(db: CardDB) -> None:
    """Cards are retrievable by type and id."""
    assert all(c.type is CardType.HAVEN for c in db.of_type(CardType.HAVEN))
    assert db.get("am046").name == "Little Washu"
    with pytest.raises(KeyError):
        db.get("am999")


def test_default_load_is_cached() -> None:
    """The default load is cached: every command and worker reads the database once."""
    assert load_card_db() is load_card_db()


# --- malformed rows -----------------------------------------------------------------------


def write_variant(tmp_path: Path, edit: dict[str, str], card_id: str = "am046") -> Path:
    with csv_path().open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        fields = list(reader.fieldnames or [])
        rows = list(reader)
    for row in rows:
        if row["id"] == card_id:
            row.update(edit)
    out = tmp_path / "cards.csv"
    with out.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out


def test_malformed_integer_names_file_line_field(tmp_path: Path) -> None:
    """A bad row stops the load naming file, line and field (deckkit.errors.CardDataError)."""
    path = write_variant(tmp_path, {"damage": "two"})
    with pytest.raises(CardDataError) as info:
        load_card_db(path)
    err = info.value
    assert err.path == path and err.line == 47  # header is line 1, am046 is line 47
    assert "'damage'" in err.message and "am046" in err.message
    assert f"{path}, line 47" in str(err)
    assert err.exit_code == EXIT_BAD_DATA


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"gender": "X"}, "gender"),
        ({"type": "wizard"}, "type"),
        ({"source": ""}, "source"),
        ({"alternate_form": "am001"}, "alternate_form"),
        ({"alternate_form": "am999"}, "alternate_form"),
        ({"id": "am045"}, "id"),
    ],
)
def test_schema_violations(tmp_path: Path, edit: dict[str, str], field: str) -> None:
    """Schema (card_db/animayhem/README.md): enums, required source, symmetric forms, unique ids."""
    with pytest.raises(CardDataError) as info:
        load_card_db(write_variant(tmp_path, edit))
    assert f"'{field}'" in info.value.message
    assert info.value.line is not None


def test_the_retired_not_simulated_column_is_read_by_nobody(tmp_path: Path) -> None:
    """Coverage has one source, the effect entries: a cards.csv still carrying the old
    ``not_simulated`` column (a balance baseline's snapshot) loads, and the column decides
    nothing: every card's coverage is the shipped database's."""
    text = csv_path().read_text(encoding="utf-8").splitlines()
    lines = [text[0] + ",not_simulated"] + [line + ",true" for line in text[1:]]
    (tmp_path / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copytree(csv_path().parent / "effects", tmp_path / "effects")
    old = load_card_db(tmp_path)
    assert [(c.id, c.coverage, c.coverage_note) for c in old.cards] == [
        (c.id, c.coverage, c.coverage_note) for c in load_card_db().cards
    ]


def test_directory_path_and_missing_column(tmp_path: Path) -> None:
    """load_card_db accepts a directory; a missing column is reported on line 1."""
    (tmp_path / "cards.csv").write_text("id,name\nam001,X\n", encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        load_card_db(tmp_path)
    assert info.value.line == 1 and "missing column" in info.value.message
