"""Deck legality, edition by edition and variant by variant, on synthetic cards.

Synthetic cards keep each test about one rule: a deck is built from exact counts, then one
count is pushed over or under a boundary. Sources are cited by file name and section under
/work/shared/rules/.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.cards import (
    POWER_TYPES,
    Abilities,
    AnyCard,
    CardType,
    CharacterCard,
    CharmHalf,
    CombatCard,
    DisasterCard,
    Gender,
    HavenCard,
    ItemCard,
    LocationCard,
    PhysicalHalf,
    PowerCard,
)
from deckkit.animayhem.construction.deck import Deck, DeckEntry
from deckkit.animayhem.construction.legality import LegalityReport, check_deck
from deckkit.animayhem.construction.requirements import Requirement
from deckkit.errors import UsageError

_ids = itertools.count(1)


def _common(name: str, type_: CardType, **kw: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": f"t{next(_ids):04d}",
        "name": name,
        "type": type_,
        "set": "Set 0",
        "rarity": "Common",
        "categories": (),
        "symbols": frozenset(),
        "deck_limit": None,
        "errata": "",
        "source": "test",
        "effects": None,
    }
    base.update(kw)
    return base


def character(name: str, alternate_form: str | None = None, **kw: object) -> CharacterCard:
    return CharacterCard(
        **_common(name, CardType.CHARACTER, **kw),  # type: ignore[arg-type]
        abilities=Abilities(2, 2, 2, 2, 0),
        alt=None,
        skills=(),
        gender=Gender.NONE,
        alternate_form=alternate_form,
        health=None,
    )


def location(name: str, **kw: object) -> LocationCard:
    return LocationCard(
        **_common(name, CardType.LOCATION, **kw),  # type: ignore[arg-type]
        requirement_text="Strength",
        requirement=Requirement("Strength", ()),
        damage=None,
        defense=None,
    )


def item(name: str, **kw: object) -> ItemCard:
    return ItemCard(**_common(name, CardType.ITEM, **kw))  # type: ignore[arg-type]


def haven(name: str, **kw: object) -> HavenCard:
    return HavenCard(**_common(name, CardType.HAVEN, **kw))  # type: ignore[arg-type]


def power(name: str, type_: CardType = CardType.EQUIPMENT, **kw: object) -> PowerCard:
    assert type_ in POWER_TYPES
    return PowerCard(
        **_common(name, type_, **kw),  # type: ignore[arg-type]
        modifiers=(),
        energy_cost=None,
        uses=None,
        requirement_text="",
        requirement=None,
        vehicle=False,
        weapon=False,
    )


def combat(name: str, **kw: object) -> CombatCard:
    return CombatCard(
        **_common(name, CardType.COMBAT, **kw),  # type: ignore[arg-type]
        physical=PhysicalHalf(name, None, None, None, None, False),
        charm=CharmHalf(name + " charm", None, "self"),
    )


def disaster(name: str, *, major: bool, fights: bool, **kw: object) -> DisasterCard:
    return DisasterCard(
        **_common(name, CardType.DISASTER, **kw),  # type: ignore[arg-type]
        major=major,
        combat=fights,
        abilities=Abilities(3, 3, 3) if fights else Abilities(),
        alt=None,
        traits=frozenset(),
        moves_times=None,
    )


def distinct(make: object, n: int, prefix: str, **kw: object) -> list[tuple[AnyCard, int]]:
    """``n`` different cards, one copy each."""
    return [(make(f"{prefix} {i}", **kw), 1) for i in range(n)]  # type: ignore[operator]


def spread(
    make: object, n: int, prefix: str, per: int = 3, **kw: object
) -> list[tuple[AnyCard, int]]:
    """``n`` copies spread over cards of ``per`` copies each (the last card takes the rest)."""
    out: list[tuple[AnyCard, int]] = []
    i = 0
    while n > 0:
        k = min(per, n)
        out.append((make(f"{prefix} {i}", **kw), k))  # type: ignore[operator]
        n -= k
        i += 1
    return out


def build(
    *,
    characters: int = 5,
    locations: int = 9,
    items: int | None = None,
    havens: int = 1,
    power_cards: int = 10,
    combat_cards: int = 30,
    major_combat: int = 0,
    minor_combat: int = 0,
    major_plain: int = 0,
    minor_plain: int = 0,
    extra: list[tuple[AnyCard, int]] | None = None,
) -> Deck:
    """A deck with these exact counts (items default to one per location)."""
    parts: list[tuple[AnyCard, int]] = []
    parts += distinct(character, characters, "Char")
    parts += distinct(location, locations, "Loc")
    parts += spread(item, locations if items is None else items, "Item", per=1)
    parts += distinct(haven, havens, "Haven")
    parts += spread(power, power_cards, "Power")
    parts += spread(combat, combat_cards, "Combat")
    parts += spread(lambda n: disaster(n, major=True, fights=True), major_combat, "MajC")
    parts += spread(lambda n: disaster(n, major=False, fights=True), minor_combat, "MinC")
    parts += spread(lambda n: disaster(n, major=True, fights=False), major_plain, "MajP")
    parts += spread(lambda n: disaster(n, major=False, fights=False), minor_plain, "MinP")
    parts += extra or []
    entries = tuple(DeckEntry(card, n, line) for line, (card, n) in enumerate(parts, 1) if n)
    return Deck(name="synthetic", entries=entries)


def legal_solo(**over: int) -> Deck:
    """A legal 1-player guidelines1998 deck: D = 2×9 + ceil((10 + 1 + 5)/2) − 2 = 24."""
    counts = {"major_combat": 9, "minor_combat": 15}
    counts.update(over)
    return build(**counts)  # type: ignore[arg-type]


def rules(report: LegalityReport) -> set[str]:
    return {v.rule for v in report.violations}


def message(report: LegalityReport, rule: str) -> str:
    return next(v.message + " | fix: " + v.fix for v in report.violations if v.rule == rule)


# -- worked examples ---------------------------------------------------------------------------


def test_set0_worked_example_formula_gives_24_not_20() -> None:
    """set0 rulebook, Deck Construction example: 3 players, 36 power, 4 characters beyond the
    first four, no extra havens. The formula gives 2×5 + 40/2 − 6 = 24; the example's "20" (and
    10 combat, 7 major) contradicts it, and deckkit follows the formula (rules README)."""
    deck = build(characters=8, locations=5, power_cards=36, major_combat=8, minor_combat=16)
    report = check_deck(deck, "set0", "standard", 3)
    assert report.required["disasters"] == 24  # the example text says 20
    assert report.required["combat_disasters"] == 12  # example: 10 (of its 20)
    assert report.required["major_disasters"] == 8  # example: 7 (of its 20)
    assert report.formula == "D = 2×5 + ceil((36 + (8−4) + 0)/2) − 2×3 = 24"
    assert report.legal, report.violations


def test_general1996_worked_example_26_disasters_13_combat_not_11() -> None:
    """general-play rules 1996 example: 36 power, 1 haven, 6 characters, 3 players: 26 disasters,
    9 major (agrees); the text's "11 combat" contradicts its own "half ... rounded up" = 13."""
    deck = build(characters=6, locations=5, power_cards=36, major_combat=9, minor_combat=17)
    report = check_deck(deck, "general1996", "standard", 3)
    assert report.required["disasters"] == 26
    assert report.required["major_disasters"] == 9
    assert report.required["combat_disasters"] == 13  # the example says 11
    assert report.formula == "D = 2×5 + ceil((36 + 1 + 6)/2) − 2×3 = 26"
    assert report.legal, report.violations


def test_fifth2018_worked_example() -> None:
    """fifth2018 summary, worked example: 7 locations, 21 power: 11 items, 21 disasters, ≥11
    combat, ≥7 major (4 starters and 1 haven are not power cards)."""
    deck = build(
        characters=4, locations=7, items=11, power_cards=21, combat_cards=21,
        major_combat=7, minor_combat=14,
    )  # fmt: skip
    report = check_deck(deck, "fifth2018", "standard", 1)
    assert report.required == {
        "locations": None, "items": 11, "disasters": 21,
        "combat_disasters": 11, "major_disasters": 7,
    }  # fmt: skip
    assert report.legal, report.violations


# -- the default edition ----------------------------------------------------------------------


def test_legal_solo_deck_is_legal_under_guidelines1998() -> None:
    """general-play rules 1996 deck construction (guidelines1998 default): a deck that meets every
    count is legal, with no violations."""
    report = check_deck(legal_solo(), "guidelines1998")
    assert report.legal and not report.violations
    assert report.counts["disasters"] == 24
    assert report.required["disasters"] == 24


def test_disaster_count_violation_shows_formula_and_fix() -> None:
    """general-play rules 1996: D = ceil((P + H + C)/2) − 2×players + 2×locations, exactly; the
    message fills in this deck's numbers and says how many to add."""
    report = check_deck(legal_solo(minor_combat=13), "guidelines1998")
    assert not report.legal
    text = message(report, "disasters.count")
    assert "D = 2×9 + ceil((10 + 1 + 5)/2) − 2×1 = 24" in text
    assert "the deck has 22 disasters" in text and "add 2 disasters" in text


def test_too_many_disasters_says_remove() -> None:
    """general-play rules 1996: the disaster count is exact, so extra disasters are removed."""
    report = check_deck(legal_solo(minor_combat=17), "guidelines1998")
    assert "remove 2 disasters" in message(report, "disasters.count")


@pytest.mark.parametrize(("power_cards", "expected"), [(10, 24), (11, 25), (12, 25), (13, 26)])
def test_general1996_rounds_odd_sums_up(power_cards: int, expected: int) -> None:
    """general-play rules 1996: "always round up": (P + 1 + 5)/2 with odd P + 6 rounds up."""
    deck = build(power_cards=power_cards)
    assert check_deck(deck, "general1996").required["disasters"] == expected


@pytest.mark.parametrize(("power_cards", "expected"), [(10, 22), (11, 22), (12, 23)])
def test_set0_rounds_odd_halved_sum_up_and_says_so(power_cards: int, expected: int) -> None:
    """set0 rulebook, Disaster Cards step B: the rounding of the halved sum is not stated;
    deckkit rounds up (like 1996) and adds a note saying so."""
    report = check_deck(build(power_cards=power_cards), "set0")
    assert report.required["disasters"] == expected
    assert any("rounds up" in n for n in report.notes)


@pytest.mark.parametrize(("power_cards", "expected"), [(20, 24), (21, 25), (22, 25), (23, 25)])
def test_fifth2018_floors_power_over_three(power_cards: int, expected: int) -> None:
    """fifth2018 summary: 2 per location + 1 for every 3 power cards (read as floor); the fifth
    character counts as a power card."""
    deck = build(power_cards=power_cards - 1)  # + 1 character beyond the four starters
    assert check_deck(deck, "fifth2018").required["disasters"] == expected


def test_combat_and_major_quotas_round_up_and_may_overlap() -> None:
    """general-play rules 1996: combat ≥ ceil(D/2), major ≥ ceil(D/3), and one card may count
    for both (set0: "The two specifications can overlap")."""
    # D = 25: combat ≥ 13, major ≥ 9; 9 major combat + 4 minor combat + 12 minor plain.
    deck = build(power_cards=11, major_combat=9, minor_combat=4, minor_plain=12)
    report = check_deck(deck, "guidelines1998")
    assert report.required["combat_disasters"] == 13
    assert report.required["major_disasters"] == 9
    assert report.legal, report.violations


def test_combat_quota_violation() -> None:
    """general-play rules 1996: half of ALL disasters must be combat disasters (rounded up)."""
    deck = build(major_combat=9, minor_combat=2, minor_plain=13)
    report = check_deck(deck, "guidelines1998")
    assert rules(report) == {"disasters.combat"}
    assert "combat disasters ≥ ceil(1×24/2) = 12; the deck has 11" in message(
        report, "disasters.combat"
    )
    assert "add 1 combat disaster" in message(report, "disasters.combat")


def test_major_quota_violation() -> None:
    """general-play rules 1996: one third of ALL disasters must be major (rounded up)."""
    report = check_deck(legal_solo(major_combat=7, minor_combat=17), "guidelines1998")
    assert rules(report) == {"disasters.major"}
    assert "ceil(1×24/3) = 8; the deck has 7" in message(report, "disasters.major")


# -- locations and items -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "locations"),
    [(1, 9), (2, 7), (3, 5), (4, 5), (5, 4), (6, 4), (12, 4)],
)
@pytest.mark.parametrize("edition", ["set0", "general1996", "guidelines1998"])
def test_location_table_boundaries(edition: str, players: int, locations: int) -> None:
    """set0 rulebook, Location Cards / general-play rules 1996: 1 player 9, 2 players 7, 3-4
    players 5, 5 or more 4; one location fewer or more is a violation."""
    for n, ok in ((locations, True), (locations - 1, False), (locations + 1, False)):
        report = check_deck(build(locations=n), edition, "standard", players)
        assert report.required["locations"] == locations
        assert ("locations.count" not in rules(report)) is ok, (n, report.violations)


def test_location_count_message() -> None:
    """set0 rulebook, Location Cards: the message names the table entry and the fix."""
    report = check_deck(build(locations=8), "guidelines1998", "standard", 1)
    text = message(report, "locations.count")
    assert "1 player: 9 locations" in text and "the deck has 8" in text and "add 1 location" in text


def test_items_one_per_location() -> None:
    """set0 rulebook, Item Cards: 1 item card for every location card, exactly."""
    report = check_deck(legal_solo(items=8), "guidelines1998")
    assert "items = 1 per location = 9" in message(report, "items.count")
    assert rules(check_deck(legal_solo(items=10), "guidelines1998")) == {"items.count"}


def test_fifth2018_odd_locations_and_ceil_items() -> None:
    """fifth2018 summary: any odd number of locations; items = ceil(1.5 × locations)."""
    ok = build(characters=4, locations=7, items=11, power_cards=21, combat_cards=21,
               major_combat=7, minor_combat=14)  # fmt: skip
    assert check_deck(ok, "fifth2018").legal
    even = build(characters=4, locations=8, items=12, power_cards=21, combat_cards=21,
                 major_combat=8, minor_combat=15)  # fmt: skip
    report = check_deck(even, "fifth2018")
    assert rules(report) == {"locations.odd"}
    few_items = replace(ok, entries=tuple(e for e in ok.entries if e.card.name != "Item 0"))
    assert "items = ceil(3×7/2) = 11" in message(check_deck(few_items, "fifth2018"), "items.count")


def test_fifth2018_needs_21_combat_cards() -> None:
    """fifth2018 summary: combat cards: at least 21."""
    deck = build(characters=4, locations=7, items=11, power_cards=21, combat_cards=20,
                 major_combat=7, minor_combat=14)  # fmt: skip
    report = check_deck(deck, "fifth2018")
    assert rules(report) == {"combat_cards.min"}
    assert "add 1 combat card" in message(report, "combat_cards.min")


# -- copy limits -------------------------------------------------------------------------------


def _with_combat_copies(n: int) -> Deck:
    deck = legal_solo(combat_cards=0)
    return replace(deck, entries=(*deck.entries, DeckEntry(combat("Punch"), n, 99)))


def test_four_copies_of_a_combat_card_illegal_under_set0() -> None:
    """set0 rulebook, Combat Cards: a maximum of 3 of any particular combat card."""
    assert "copies.combat" not in rules(check_deck(_with_combat_copies(3), "set0"))
    report = check_deck(_with_combat_copies(4), "set0")
    assert "copies.combat" in rules(report)
    assert "4 × Punch: set0 allows at most 3 of one combat card" in message(report, "copies.combat")
    assert "remove 1 Punch" in message(report, "copies.combat")


@pytest.mark.parametrize("edition", ["general1996", "guidelines1998"])
def test_four_copies_of_a_combat_card_legal_from_1996(edition: str) -> None:
    """general-play rules 1996: "no limit to duplicate Combat cards"."""
    report = check_deck(_with_combat_copies(4), edition)
    assert report.legal, report.violations


def test_fifth2018_combat_cards_limited_to_three() -> None:
    """fifth2018 summary: combat cards at most 3 of each."""
    assert "copies.combat" in rules(check_deck(_with_combat_copies(4), "fifth2018"))


@pytest.mark.parametrize("edition", ["set0", "general1996", "guidelines1998", "fifth2018"])
def test_power_card_limit_three(edition: str) -> None:
    """set0 Power Cards / 1996 general limit / fifth2018: at most 3 of any power card."""
    card = power("Big Gun")
    deck = legal_solo(power_cards=6)
    over = replace(deck, entries=(*deck.entries, DeckEntry(card, 4, 99)))
    at = replace(deck, entries=(*deck.entries, DeckEntry(card, 3, 99)))
    assert "copies.power" in rules(check_deck(over, edition))
    assert "copies.power" not in rules(check_deck(at, edition))


@pytest.mark.parametrize(
    ("make", "group"),
    [
        (lambda: item("Spare Item"), "item"),
        (lambda: disaster("Spare Disaster", major=False, fights=True), "disaster"),
    ],
)
def test_item_and_disaster_limit_three(make: object, group: str) -> None:
    """set0 Item / Disaster Cards, 1996 general limit: at most 3 of one item or disaster."""
    deck = legal_solo()
    over = replace(deck, entries=(*deck.entries, DeckEntry(make(), 4, 99)))  # type: ignore[operator]
    assert f"copies.{group}" in rules(check_deck(over, "guidelines1998"))


def test_one_copy_per_character_location_haven() -> None:
    """set0 Character / Haven / Location Cards; 1996: one of each character, no duplicate
    locations; one of each haven."""
    deck = legal_solo()
    for card, group in ((character("Twin"), "character"), (location("Twice"), "location"),
                        (haven("Home"), "haven")):  # fmt: skip
        doubled = replace(deck, entries=(*deck.entries, DeckEntry(card, 2, 99)))
        assert f"copies.{group}" in rules(check_deck(doubled, "guidelines1998")), group


def test_printed_limit_overrides_general_limit() -> None:
    """fifth2018 summary ("A limit printed on a card overrides these") and the precedence card
    text > rules: Water Kettle's 6 per deck allows 6; a "1 per deck" card allows 1."""
    deck = legal_solo(power_cards=4)
    kettle = power("Kettle", CardType.FLASH_EFFECT, deck_limit=6)
    six = replace(deck, entries=(*deck.entries, DeckEntry(kettle, 6, 99)))
    assert check_deck(six, "guidelines1998").legal
    seven = replace(deck, entries=(*deck.entries, DeckEntry(kettle, 7, 99)))
    report = check_deck(seven, "guidelines1998")
    assert "copies.printed" in rules(report)
    assert "the card itself says 6 per deck" in message(report, "copies.printed")
    radar = power("Radar", deck_limit=1)
    two = replace(legal_solo(power_cards=8), entries=(*legal_solo(power_cards=8).entries,
                                                      DeckEntry(radar, 2, 99)))  # fmt: skip
    assert "copies.printed" in rules(check_deck(two, "guidelines1998"))


def test_unique_one_copy_under_set0() -> None:
    """set0 rulebook, Lexicon "Unique": a << Unique >> card may appear only once."""
    deck = legal_solo(power_cards=8)
    special = power("Special", categories=("Unique",))
    two = replace(deck, entries=(*deck.entries, DeckEntry(special, 2, 99)))
    report = check_deck(two, "set0")
    assert "copies.unique" in rules(report)
    one = replace(legal_solo(power_cards=9), entries=(*legal_solo(power_cards=9).entries,
                                                      DeckEntry(special, 1, 99)))  # fmt: skip
    assert "copies.unique" not in rules(check_deck(one, "set0"))


def test_fifth2018_parenthesised_versions_share_a_limit() -> None:
    """fifth2018 summary: versions "(…)" of one card: the type's limit of one version, or one of
    each version."""
    deck = build(characters=4, locations=7, items=11, power_cards=21, combat_cards=21,
                 major_combat=7, minor_combat=12)  # fmt: skip
    aqua = disaster("Bot (Aqua)", major=False, fights=True)
    land = disaster("Bot (Land)", major=False, fights=True)
    one_each = replace(
        deck, entries=(*deck.entries, DeckEntry(aqua, 1, 98), DeckEntry(land, 1, 99))
    )
    assert check_deck(one_each, "fifth2018").legal
    mixed = replace(deck, entries=(*deck.entries, DeckEntry(aqua, 2, 98), DeckEntry(land, 1, 99)))
    mixed = replace(mixed, entries=tuple(e for e in mixed.entries if e.card.name != "MinC 3"))
    assert "copies.versions" in rules(check_deck(mixed, "fifth2018"))
    assert "copies.versions" not in rules(check_deck(mixed, "guidelines1998"))


# -- characters and havens ----------------------------------------------------------------------


def _pair_deck() -> Deck:
    deck = legal_solo(characters=4)
    a = character("Washu")
    b = character("Little Washu", alternate_form=a.id)
    a = replace(a, alternate_form=b.id)
    return replace(deck, entries=(*deck.entries, DeckEntry(a, 1, 98), DeckEntry(b, 1, 99)))


def test_both_transforming_forms_illegal_under_guidelines1998() -> None:
    """1998 guidelines 2.5: you cannot have both forms of a transforming character in your deck."""
    report = check_deck(_pair_deck(), "guidelines1998")
    assert rules(report) == {"characters.transforming"}
    assert "Little Washu" in message(report, "characters.transforming")


def test_transforming_pair_counts_once() -> None:
    """set0 rulebook, Transforming Characters: the two forms count as a single card; so 4 + the
    pair = 5 characters, and the deck built for 5 is legal under set0/general1996."""
    for edition in ("set0", "general1996"):
        report = check_deck(_pair_deck(), edition, "standard", 1)
        assert report.counts["characters"] == 5
        assert "characters.transforming" not in rules(report)
        assert any("counts once" in n for n in report.notes)
    assert check_deck(_pair_deck(), "general1996").legal


def test_set0_needs_four_characters() -> None:
    """set0 rulebook, Character Cards: four characters start the game."""
    deck = build(characters=3, power_cards=12, major_combat=9, minor_combat=13)
    report = check_deck(deck, "set0")
    assert "characters.min" in rules(report)
    assert "characters.min" not in rules(check_deck(build(characters=3), "guidelines1998"))


def test_haven_required_or_spare_location_proxy() -> None:
    """set0 Haven Cards / 1996 setup ("you MUST have a Haven"; an extra location may stand in):
    no haven and 9 locations is illegal; no haven and 10 locations uses one as proxy."""
    no_haven = build(havens=0, power_cards=11, major_combat=9, minor_combat=15)
    report = check_deck(no_haven, "guidelines1998")
    assert "havens.min" in rules(report)
    proxy = build(havens=0, locations=10, items=9, power_cards=10, major_combat=9, minor_combat=15)
    report = check_deck(proxy, "guidelines1998")
    assert report.legal, report.violations
    assert any("proxy" in n for n in report.notes)
    set0_proxy = build(havens=0, locations=10, items=9, power_cards=10, major_combat=8,
                       minor_combat=14)  # fmt: skip
    assert check_deck(set0_proxy, "set0").legal


def test_fifth2018_has_no_location_proxy() -> None:
    """fifth2018 summary: starting haven exactly 1; no proxy is mentioned."""
    deck = build(characters=4, havens=0, locations=7, items=11, power_cards=21, combat_cards=21,
                 major_combat=7, minor_combat=14)  # fmt: skip
    assert "havens.min" in rules(check_deck(deck, "fifth2018"))


# -- negative D, players -----------------------------------------------------------------------


def test_negative_disaster_count_clamps_to_zero_with_note() -> None:
    """general-play rules 1996 formula with many players and few cards goes negative: deckkit
    requires 0 and says why."""
    deck = build(characters=1, locations=4, power_cards=0, havens=1)
    report = check_deck(deck, "general1996", "standard", 10)
    assert report.required["disasters"] == 0
    assert report.formula.endswith("= -11, clamped to 0")
    assert any("clamped" in n or "fewer than 0" in n for n in report.notes)
    assert report.legal, report.violations


def test_players_below_one_is_usage_error() -> None:
    """A game has at least one player (set0 rulebook, Deck Construction table starts at 1)."""
    with pytest.raises(UsageError):
        check_deck(legal_solo(), "guidelines1998", "standard", 0)


def test_unknown_edition_and_variant_are_usage_errors() -> None:
    """README: the editions are set0, general1996, guidelines1998, fifth2018."""
    with pytest.raises(UsageError):
        check_deck(legal_solo(), "fourth")
    with pytest.raises(UsageError):
        check_deck(legal_solo(), "guidelines1998", "hexagon")


# -- variants ----------------------------------------------------------------------------------


def test_straight_line_uses_standard_construction() -> None:
    """set0 Part IV, Straight Line: only the layout changes; the deck is built as usual."""
    assert check_deck(legal_solo(), "guidelines1998", "straight-line").legal
    assert not check_deck(legal_solo(items=8), "guidelines1998", "straight-line").legal


def _big_square(duplicate_locations: bool) -> Deck:
    # 4 players, 36 locations: D = 2×36 + ceil((10 + 1 + 5)/2) − 8 = 72.
    deck = build(locations=0 if duplicate_locations else 36, items=36, major_combat=24,
                 minor_combat=48)  # fmt: skip
    if duplicate_locations:
        entries = (*deck.entries, DeckEntry(location("Field A"), 20, 98),
                   DeckEntry(location("Field B"), 16, 99))  # fmt: skip
        deck = replace(deck, entries=entries)
    return deck


def test_big_square_36_locations_duplicates_allowed() -> None:
    """set0 Part IV, Big Square: each player selects 36 locations and may have more than 1 of
    any given location; a four-player field."""
    for dup in (False, True):
        report = check_deck(_big_square(dup), "guidelines1998", "big-square", 4)
        assert report.required["locations"] == 36
        assert report.legal, report.violations
    standard = check_deck(_big_square(True), "guidelines1998", "standard", 4)
    assert "copies.location" in rules(standard)


@pytest.mark.parametrize("rule", ["set0", "guidelines1998"])
def test_big_square_robert_and_his_four_have_a_nice_trips(rule: str) -> None:
    """Worked example, set0 Part IV, "Four-player: The Big Square": "Robert has 4 disaster
    cards, each called Have a Nice Trip. He finds out that he is lacking cards and cannot make a
    legal deck with just 3 Have a Nice Trips. Only then is Robert permitted to make a non-legal
    deck using 4." A Big Square deck (36 locations) with the real Have a Nice Trip: with 3
    copies it is legal; the fourth breaks the copy limit of 3 a disaster, which deckkit reports
    (the rules still call it a non-legal deck, and say so in a note; Robert simulates it with
    --allow-illegal)."""
    (trip,) = load_card_db().lookup("Have a Nice Trip")
    assert trip.type is CardType.DISASTER
    required = check_deck(_big_square(False), rule, "big-square", 4).required["disasters"]
    for copies, legal in ((3, True), (4, False)):
        deck = build(locations=36, items=36, major_combat=24, minor_combat=required - 24 - copies,
                     extra=[(trip, copies)])  # fmt: skip
        report = check_deck(deck, rule, "big-square", 4)
        assert report.counts["disasters"] == required
        assert report.legal is legal, report.violations
        if not legal:
            assert rules(report) == {"copies.disaster"}
            assert "Have a Nice Trip" in message(report, "copies.disaster")
        assert any("non-legal" in n for n in report.notes)


def test_big_square_is_four_players() -> None:
    """set0 Part IV, "Four-player: The Big Square"."""
    report = check_deck(_big_square(False), "guidelines1998", "big-square", 3)
    assert "variant.players" in rules(report)


def _skirmish(**over: int) -> Deck:
    counts = {
        "characters": 4,
        "locations": 0,
        "items": 10,
        "havens": 0,
        "power_cards": 20,
        "combat_cards": 10,
        "major_combat": 0,
        "minor_combat": 10,
        "minor_plain": 10,
    }
    counts.update(over)
    # spread() puts 3 copies on a card; Skirmish allows 2, so rebuild with per=2.
    deck = build(**{k: 0 if k in ("power_cards", "combat_cards", "minor_combat", "minor_plain")
                    else v for k, v in counts.items()})  # type: ignore[arg-type]  # fmt: skip
    extra = (spread(power, counts["power_cards"], "SkP", per=2)
             + spread(combat, counts["combat_cards"], "SkC", per=2)
             + spread(lambda n: disaster(n, major=False, fights=True), counts["minor_combat"],
                      "SkD", per=2)
             + spread(lambda n: disaster(n, major=False, fights=False), counts["minor_plain"],
                      "SkN", per=2))  # fmt: skip
    return replace(deck, entries=(*deck.entries, *(DeckEntry(c, n, 0) for c, n in extra)))


def test_skirmish_fixed_piles_legal() -> None:
    """set0 Part IV, Skirmish: 4 characters, 10 items, 10 combat, 20 disasters (half combat),
    20 power; no locations or havens."""
    report = check_deck(_skirmish(), "guidelines1998", "skirmish", 2)
    assert report.legal, report.violations
    assert report.required == {"locations": 0, "items": 10, "disasters": 20,
                               "combat_disasters": 10, "major_disasters": 0}  # fmt: skip


@pytest.mark.parametrize(
    ("over", "rule"),
    [
        ({"characters": 5}, "skirmish.characters"),
        ({"items": 9}, "skirmish.items"),
        ({"combat_cards": 11}, "skirmish.combat"),
        ({"power_cards": 19}, "skirmish.power"),
        ({"minor_plain": 11}, "skirmish.disasters"),
        ({"minor_combat": 9, "minor_plain": 11}, "skirmish.combat_disasters"),
        ({"havens": 1}, "skirmish.havens"),
        ({"locations": 1}, "skirmish.locations"),
    ],
)
def test_skirmish_pile_violations(over: dict[str, int], rule: str) -> None:
    """set0 Part IV, Skirmish: every pile has a fixed size; half the disasters are combat."""
    assert rule in rules(check_deck(_skirmish(**over), "guidelines1998", "skirmish", 2))


def test_skirmish_two_copies_at_most_and_two_players() -> None:
    """set0 Part IV, Skirmish: no more than two of any item, combat, disaster or power card;
    a two-player game."""
    deck = _skirmish(combat_cards=7)
    three = replace(deck, entries=(*deck.entries, DeckEntry(combat("Thrice"), 3, 99)))
    report = check_deck(three, "general1996", "skirmish", 2)
    assert rules(report) == {"skirmish.copies"}
    assert "variant.players" in rules(check_deck(_skirmish(), "guidelines1998", "skirmish", 1))


def test_report_json_shape() -> None:
    """deckkit validate --format json contract: legal, edition, variant, players, counts,
    required (5 keys), violations (rule, message), notes."""
    data = check_deck(legal_solo(items=8), "guidelines1998").as_dict()
    assert set(data) >= {"legal", "edition", "variant", "players", "counts", "required",
                         "violations", "notes"}  # fmt: skip
    assert set(data["required"]) == {"locations", "items", "disasters", "combat_disasters",
                                     "major_disasters"}  # fmt: skip
    assert data["violations"][0]["rule"] == "items.count"
    assert {"rule", "message"} <= set(data["violations"][0])
