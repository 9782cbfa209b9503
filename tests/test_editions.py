"""Edition and variant files: the numbers each rule set states, read from the shipped TOML."""

from __future__ import annotations

from importlib import resources

import pytest

from deckkit.animayhem.construction.editions import (
    DEFAULT_EDITION,
    EDITIONS,
    VARIANTS,
    load_edition,
    load_variant,
    rounded,
)
from deckkit.errors import UsageError


def test_editions_and_default() -> None:
    """rules README: set0, general1996, guidelines1998 (the default), fifth2018."""
    assert EDITIONS == ("set0", "general1996", "guidelines1998", "fifth2018")
    assert DEFAULT_EDITION == "guidelines1998"
    for name in EDITIONS:
        assert load_edition(name).name == name


def test_edition_files_are_package_data() -> None:
    """The edition TOML files live inside the package so an installed deckkit finds them."""
    folder = resources.files("deckkit.animayhem.construction").joinpath("editions")
    for name in (*EDITIONS, "variants"):
        assert folder.joinpath(f"{name}.toml").is_file()


@pytest.mark.parametrize("name", ["set0", "general1996", "guidelines1998"])
def test_location_table(name: str) -> None:
    """set0 rulebook, Location Cards; general-play rules 1996: 1: 9, 2: 7, 3-4: 5, 5+: 4."""
    e = load_edition(name)
    assert [e.locations_for(n) for n in range(1, 9)] == [9, 7, 5, 5, 4, 4, 4, 4]


def test_fifth2018_has_no_location_table() -> None:
    """fifth2018 summary: any odd number of locations, no player-count table."""
    e = load_edition("fifth2018")
    assert e.locations_for(1) is None and e.locations_odd
    assert [e.items_for(n) for n in (5, 7, 9)] == [8, 11, 14]


def test_copy_limits() -> None:
    """set0 Deck Construction: combat/items/power/disasters ≤ 3, characters/havens/locations 1;
    1996: general limit 3, combat unlimited; fifth2018: combat ≤ 3."""
    set0, g96, g98, fifth = (load_edition(n) for n in EDITIONS)
    assert [set0.copy_limit(g) for g in ("combat", "item", "power", "disaster")] == [3, 3, 3, 3]
    assert [set0.copy_limit(g) for g in ("character", "haven", "location")] == [1, 1, 1]
    for e in (g96, g98):
        assert e.copy_limit("combat") is None
        assert [e.copy_limit(g) for g in ("item", "power", "disaster")] == [3, 3, 3]
        assert e.copy_limit("character") == 1 and e.copy_limit("location") == 1
    assert fifth.copy_limit("combat") == 3 and fifth.min_combat_cards == 21


@pytest.mark.parametrize(
    ("edition", "args", "expected"),
    [
        # set0 example numbers (3 players, 36 power, 8 characters, 1 haven): 24
        ("set0", (5, 36, 8, 1, 3), "D = 2×5 + ceil((36 + (8−4) + 0)/2) − 2×3 = 24"),
        # general-play 1996 example: 26
        ("general1996", (5, 36, 6, 1, 3), "D = 2×5 + ceil((36 + 1 + 6)/2) − 2×3 = 26"),
        ("guidelines1998", (9, 18, 0, 0, 1), "D = 2×9 + ceil((18 + 0 + 0)/2) − 2×1 = 25"),
        # fifth2018 example: 7 locations, 21 power (4 starters, 1 haven): 21
        ("fifth2018", (7, 21, 4, 1, 1), "D = 2×7 + floor((21 + 0 + 0)/3) = 21"),
    ],
)
def test_disaster_formula_arithmetic(edition: str, args: tuple[int, ...], expected: str) -> None:
    """Each edition's disaster formula (set0 Disaster Cards steps A-D; 1996 "always round up";
    fifth2018 "2 per location + 1 for every 3 power cards")."""
    d = load_edition(edition).disasters.compute(*args)
    assert d.arithmetic == expected
    assert d.value == int(expected.rsplit("= ", 1)[1])


def test_negative_count_clamps() -> None:
    """general-play rules 1996 formula: a negative count clamps to zero (deckkit)."""
    d = load_edition("general1996").disasters.compute(4, 0, 1, 1, 10)
    assert (d.raw, d.value, d.clamped) == (-11, 0, True)


def test_quotas_round_up() -> None:
    """1996: one third major, half combat, "we always round up"."""
    f = load_edition("guidelines1998").disasters
    assert [f.combat_quota(n) for n in (20, 25, 26)] == [10, 13, 13]
    assert [f.major_quota(n) for n in (20, 25, 26)] == [7, 9, 9]


def test_rounded() -> None:
    """ceil and floor in integer arithmetic, negatives included."""
    assert [rounded(n, 2, "up") for n in (-3, -2, 3, 4)] == [-1, -1, 2, 2]
    assert [rounded(n, 3, "down") for n in (-1, 2, 3)] == [-1, 0, 1]


def test_set0_rounding_is_documented() -> None:
    """set0 rulebook, Disaster Cards step B states no rounding; the edition file says what
    deckkit does."""
    assert "rounds up" in load_edition("set0").disasters.rounding_note


def test_play_rules() -> None:
    """Kill: set0 Lexicon "Killed" (3× damage), 1996 (2× health), 1998 "Killed" (−base health);
    combat cards: 1998 guidelines 1.4 per attacker; fifth2018 party of 4, disasters stop on
    destroyed locations; end: 1998 guidelines 4.1; hand: set0 draws 7 power cards; set0
    Maintenance / Equip Phase: pickup after the first full movement, enhancements in a haven."""
    set0, g96, g98, fifth = (load_edition(n).play for n in EDITIONS)
    assert [p.kill for p in (set0, g96, g98, fifth)] == [
        "triple_damage", "double_health", "negative_health", "negative_health",
    ]  # fmt: skip
    assert [p.combat_cards for p in (set0, g96, g98, fifth)] == [
        "one_each_side", "one_each_side", "per_attacker", "one_each_side",
    ]  # fmt: skip
    assert [p.disasters_skip_destroyed for p in (set0, g96, g98, fifth)] == [
        True, True, True, False,
    ]  # fmt: skip
    assert [p.end_conditions for p in (set0, g96, g98, fifth)] == [
        "majority", "majority", "guidelines1998", "majority",
    ]  # fmt: skip
    assert [p.majority_needs_more_than_half for p in (set0, g96, g98, fifth)] == [
        True, False, True, True,
    ]  # fmt: skip
    assert [p.max_party for p in (set0, g96, g98, fifth)] == [None, None, None, 4]
    assert [p.hand_from_characters for p in (set0, g96, g98, fifth)] == [False, True, True, True]
    for p in (set0, g96, g98, fifth):
        assert (p.hand_limit, p.max_on_field, p.starting_characters) == (7, 6, 4)
    assert [p.pickup for p in (set0, g96)] == ["after_first_movement", "first_item_location"]
    assert [p.enhance_in_haven_only for p in (set0, g96)] == [True, False]


def test_transform_and_unique_rules() -> None:
    """set0 Transforming Characters (one form set aside) vs 1998 guidelines 2.5 (both forms in a
    deck illegal); set0 Lexicon "Unique"."""
    assert load_edition("set0").transform_pair == "set_aside"
    assert load_edition("general1996").transform_pair == "set_aside"
    assert load_edition("guidelines1998").transform_pair == "illegal"
    assert load_edition("set0").unique_one_copy


def test_variants() -> None:
    """set0 Part IV: Straight Line, Big Square (36 locations, duplicates, 4 players), Skirmish
    (fixed piles, 2 copies, 2 players)."""
    assert VARIANTS == ("standard", "straight-line", "big-square", "skirmish")
    big = load_variant("big-square")
    assert (big.players, big.locations_per_player, big.location_duplicates) == (4, 36, True)
    sk = load_variant("skirmish")
    assert dict(sk.piles or ()) == {"characters": 4, "items": 10, "combat": 10, "disasters": 20,
                                    "power": 20, "locations": 0, "havens": 0}  # fmt: skip
    assert (sk.players, sk.pile_copy_limit, sk.pile_combat_disasters) == (2, 2, 10)
    assert load_variant("straight-line").piles is None


def test_unknown_names_are_usage_errors() -> None:
    """An edition or variant name outside the list is the user's error (exit 2)."""
    with pytest.raises(UsageError, match="unknown edition"):
        load_edition("sixth")
    with pytest.raises(UsageError, match="unknown variant"):
        load_variant("circle")
