"""Coverage has one source: what `cards show`, `cards list` (every format) and `cards coverage`
say about a card all come from its effect entry, with what the engine derives by itself
(deckkit/animayhem/construction/coverage.py). They must never disagree, on any of the 787 cards,
and the derived parts must follow the engine: a requirement alternative it cannot read, a
printed column it never applies."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.cards import Coverage, LocationCard, PowerCard
from deckkit.animayhem.construction.coverage import DERIVED, derive
from deckkit.animayhem.engine.scavenge import passes_skill_test
from deckkit.cli import cards_cmd
from tests.engine_helpers import NINE, add_char, bare_game, card, copy_of
from tests.test_cards_cli import APP

runner = CliRunner()


def _json(args: list[str]) -> object:
    result = runner.invoke(APP, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_show_list_and_coverage_never_disagree_on_any_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """All 787 cards: `cards show` (text and JSON), `cards list` (JSON, CSV, TSV) and
    `cards coverage --cards --format json` name the same coverage and note. The commands read
    the card database once here, not once for each of the 1,500 and more calls."""
    db = load_card_db()
    monkeypatch.setattr(cards_cmd, "load_card_db", lambda: db)
    # The runner builds the click command from the app on every call (typer's parameter
    # adapters: ten times the command's own work here); the app does not change, so once.
    command = typer.main.get_command(APP)
    monkeypatch.setattr(typer.testing, "_get_command", lambda app: command)
    assert len(db.cards) == 787
    listed = {c["id"]: c for c in _json(["cards", "list", "--format", "json"])["cards"]}  # type: ignore[index]
    doc = _json(["cards", "coverage", "--cards", "--format", "json"])
    partial = {c["id"]: c for c in doc["cards"]}  # type: ignore[index]
    groups = {g["group"]: g for g in doc["groups"]}  # type: ignore[index]
    tables = {}
    for fmt, sep in (("csv", ","), ("tsv", "\t")):
        out = runner.invoke(APP, ["cards", "list", "--format", fmt]).stdout
        tables[fmt] = {r["id"]: r for r in csv.DictReader(io.StringIO(out), delimiter=sep)}
    counts = {s: 0 for s in Coverage}
    for c in db.cards:
        counts[c.coverage] += 1
        shown = _json(["cards", "show", c.id, "--format", "json"])
        assert isinstance(shown, dict)
        text = runner.invoke(APP, ["cards", "show", c.id]).stdout
        line = next(x for x in text.splitlines() if x.strip().startswith("coverage "))
        status = line.split()[1].rstrip(":")
        in_list = listed[c.id]
        views = {
            "show": shown["coverage"],
            "show text": status,
            "list json": in_list["coverage"],
            "list csv": tables["csv"][c.id]["coverage"],
            "list tsv": tables["tsv"][c.id]["coverage"],
            "coverage": partial[c.id]["coverage"] if c.id in partial else "full",
        }
        assert len(set(views.values())) == 1, (c.id, c.name, views)
        assert "not_simulated" not in shown and "not_simulated" not in in_list
        notes = {shown["coverage_note"] or "", in_list["coverage_note"] or ""}
        if c.id in partial:
            notes.add(partial[c.id]["note"])
        assert len(notes) == 1, (c.id, notes)
        assert (notes.pop() in line) if c.coverage_note else line.strip() == "coverage    full"
    assert groups["all"]["full"] == counts[Coverage.FULL]
    assert groups["all"]["approximate"] == counts[Coverage.APPROXIMATE]
    assert groups["all"]["none"] == counts[Coverage.NONE]


def test_a_requirement_alternative_the_engine_cannot_read_is_derived_approximate() -> None:
    """An alternative naming something no card in the database is (requirements.py: a special
    term, never met) cannot be played: U.S.S.D. Military HQ's "Any 2 Knight Sabers in
    Hardsuits", Campground's "remain on Location for 2 turns". Such a card is not `full`
    whatever its entry says, and the note names the alternative."""
    db = load_card_db()
    for name, words in (
        ("U.S.S.D. Military HQ", "Any 2 Knight Sabers in Hardsuits"),
        ("Campground", "remain on Location for 2 turns"),
        ("King Kai's Planetoid", "King Kai"),
    ):
        (c,) = db.lookup(name)
        assert c.coverage is Coverage.APPROXIMATE, name
        assert DERIVED in c.coverage_note and words in c.coverage_note, c.coverage_note


def test_a_power_card_no_alternative_of_which_can_be_met_is_derived_none() -> None:
    """A power card whose every alternative is unreadable can never be played: `none`."""
    db = load_card_db()
    (goz,) = db.lookup("Goz' Flying Machine")
    assert isinstance(goz, PowerCard) and goz.requirement is not None
    only_unreadable = replace(
        goz,
        requirement=replace(goz.requirement, alternatives=goz.requirement.alternatives[1:]),
        effects=None,
    )
    entry = derive(only_unreadable, None)
    assert entry is not None and entry.coverage is Coverage.NONE


def test_columns_the_engine_never_applies_are_derived() -> None:
    """set0 rulebook, "Enhancement": an enhancement with an energy cost is paid "each time it is
    used", once per combat round (the engine: its damage and defense for that round); Juraian
    Battlesuit's printed +1 movement is applied nowhere, so the card is approximate and says
    so. A vehicle is read for its movement only (set0 "Vehicles"; engine/queries.py
    party_movement): Attack Pods' +1 attack is not applied."""
    db = load_card_db()
    for name, column in (("Juraian Battlesuit", "movement +1"), ("Attack Pods", "damage +1")):
        (c,) = db.lookup(name)
        assert c.coverage is Coverage.APPROXIMATE, name
        assert f"its printed {column} is not applied" in c.coverage_note, c.coverage_note


def test_a_location_without_a_listing_or_entry_is_derived_from_its_defense() -> None:
    """A location printing no skills is scavenged only by attacking its defense (Garlic Jr.'s
    Palace's entry says so and is `full`); without an entry the engine says it itself."""
    (garlic,) = load_card_db().lookup("Garlic Jr.'s Palace")
    assert isinstance(garlic, LocationCard) and garlic.coverage is Coverage.FULL
    bare = replace(garlic, effects=None)
    entry = derive(bare, None)
    assert entry is not None and entry.coverage is Coverage.APPROXIMATE
    entry = derive(replace(bare, defense=None), None)
    assert entry is not None and entry.coverage is Coverage.NONE


@pytest.mark.parametrize("carried", [True, False])
def test_ryokos_prison_cave_opens_to_a_party_carrying_the_keys(carried: bool) -> None:
    """Ryoko's Prison Cave lists "Priest or Genius or Keys or Martial Arts & Strength x2"; Keys
    is an item card, so a party carrying it meets that alternative (set0 rulebook, "Skill
    Listings": any one alternative suffices)."""
    game = bare_game(["Ryoko's Prison Cave", *NINE[1:]])
    assert isinstance(game.locs[0].card, LocationCard)
    c = add_char(game, "Nabiki Tendo", 0)  # neither Priest, Genius nor Martial Arts
    if carried:
        c.items.append(copy_of(game, "Keys"))
    assert passes_skill_test(game, [c], 0) is carried
    assert card("Ryoko's Prison Cave").coverage is Coverage.FULL


def test_a_group_bonus_weighed_only_in_fights_is_derived_approximate() -> None:
    """Bubbles' card: every other character in his party gets +1 attack and defense. The engine
    weighs a bonus lent to a whole group in fights with disasters only (interpreter/standing.py,
    party_lenders), not against a location's defense ("Locations with Defense": the party's
    combined damage) nor in an "Attack N+" listing: Bubbles is approximate, and says why."""
    (bubbles,) = load_card_db().lookup("Bubbles")
    assert bubbles.coverage is Coverage.APPROXIMATE
    assert (
        DERIVED in bubbles.coverage_note and "fights with disasters only" in bubbles.coverage_note
    )


def test_a_usage_limit_the_engine_does_not_count_is_derived_approximate() -> None:
    """set0 rulebook, "Equipment Cards With Usage Limits" and "Global Effect Cards With Usage
    Limits": a card printing "N uses" is discarded once they are spent. An entry whose effects
    never count them (no ``max_times``, no effect spending the card's uses) plays a card that
    never runs out, so it cannot be `full`, whatever the entry says: Security Camera's look with
    its ``max_times`` taken away is derived approximate, and says why. An enhancement's damage
    column (Akagiyama Missiles, no entry needed) is counted a combat round a use; Speed's
    movement column is not, so with its columns on and no effect it is approximate too."""
    db = load_card_db()
    (camera,) = db.lookup("Security Camera")
    assert camera.effects is not None
    counted = replace(camera.effects, coverage=Coverage.FULL)
    assert derive(camera, counted) == counted  # max_times = 3: its uses are counted
    endless = replace(counted, effects=tuple(replace(e, max_times=0) for e in counted.effects))
    entry = derive(camera, endless)
    assert entry is not None and entry.coverage is Coverage.APPROXIMATE
    assert DERIVED in entry.note and "usage limit (3 uses) is not counted" in entry.note
    (missiles,) = db.lookup("Akagiyama Missiles")
    assert derive(missiles, None) is None
    (speed,) = db.lookup("Speed")
    assert speed.coverage is Coverage.FULL  # its LEAP spends the uses
    assert speed.effects is not None
    columns_only = replace(speed.effects, columns=True, effects=())
    entry = derive(speed, columns_only)
    assert entry is not None and entry.coverage is Coverage.APPROXIMATE
    assert "usage limit (3 uses) is not counted" in entry.note
    assert "movement x2 is not applied" in entry.note
