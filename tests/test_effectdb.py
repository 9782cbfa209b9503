"""The effect entries: the shipped ones load and use only known vocabulary; a bad entry stops
the load with the file, the card's line and what to change; coverage is reported honestly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animayhem.construction.carddb import CardDB, card_db_dir, load_card_db, read_card_db
from deckkit.animayhem.construction.cards import Coverage
from deckkit.animayhem.construction.coverage import TARGETS, coverage_table
from deckkit.animayhem.construction.vocabulary import (
    ACTION_TARGETS,
    FIRED_FOR,
    Action,
    Trigger,
    unplayed,
)
from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_DATA, CardDataError


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


def test_every_shipped_entry_names_its_card_and_known_vocabulary(db: CardDB) -> None:
    """Every entry loaded (the loader checks ids, names, triggers, actions and targets); each
    effect's action accepts its target, and a note explains every inexact card."""
    assert db.effects, "the shipped database has effect entries"
    for cid, entry in db.effects.items():
        card = db.get(cid)
        assert card.effects is entry
        for e in entry.effects:
            assert e.when in Trigger and e.do in Action
            assert e.target in ACTION_TARGETS[e.do][0]
        if entry.coverage is not Coverage.FULL:
            assert entry.note
        if entry.coverage is not Coverage.NONE:
            assert not unplayed(card.type.value, entry.effects)


def test_every_action_has_an_allowed_target_and_every_kind_fires_something() -> None:
    assert set(ACTION_TARGETS) == set(Action)
    for targets, default in ACTION_TARGETS.values():
        assert default in targets
    assert FIRED_FOR["disaster"] >= {Trigger.AFFECT, Trigger.COMBAT, Trigger.ALWAYS}


def _copy_db(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "animayhem"
    (root / "effects").mkdir(parents=True)
    shutil.copy(card_db_dir() / "animayhem" / "cards.csv", root / "cards.csv")
    (root / "effects" / "mine.toml").write_text(text, encoding="utf-8")
    return root / "cards.csv"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[am999]\nname = "X"\ncoverage = "full"\n', "no card has this id"),
        ('[am576]\nname = "Kagat"\ncoverage = "full"\n', "is not the card's name"),
        ('[am576]\nname = "Kagato"\ncoverage = "most"\n', "coverage 'most' is unknown"),
        ('[am576]\nname = "Kagato"\ncoverage = "approximate"\neffects = []\n', "needs a note"),
        (
            '[am576]\nname = "Kagato"\ncoverage = "full"\n'
            'effects = [{ when = "lands", do = "explode" }]\n',
            "do 'explode' is unknown",
        ),
        (
            '[am576]\nname = "Kagato"\ncoverage = "full"\n'
            'effects = [{ when = "lands", do = "bonk", target = "items_here" }]\n',
            "bonk cannot target items_here",
        ),
        (
            '[am576]\nname = "Kagato"\ncoverage = "full"\n'
            'effects = [{ when = "lands", do = "bonk", unless = "Telepathy x2" }]\n',
            "Telepathy x2 is no skill",
        ),
        (
            '[am576]\nname = "Kagato"\ncoverage = "full"\n'
            'effects = [{ when = "lands", do = "bonk", turns = 2 }]\n',
            "bonk does not use turns",
        ),
        (
            '[am576]\nname = "Kagato"\ncoverage = "full"\n'
            'effects = [{ when = "lands", do = "modify", mods = { damage = "+2" } }]\n',
            "modify needs a scope",
        ),
        ("[am576\n", "malformed TOML"),
        (
            '[am291]\nname = "Rescue"\ncoverage = "full"\n'
            'effects = [{ when = "played", do = "recover", to = "graveyard" }]\n',
            "recover needs to = one of draw, hand, haven, play, not 'graveyard'",
        ),
        (
            '[am294]\nname = "Royal Librarian"\ncoverage = "full"\n'
            'effects = [{ when = "played", do = "fetch", target = "hand" }]\n',
            "fetch cannot target hand",
        ),
        (
            '[am259]\nname = "Jail Break"\ncoverage = "full"\n'
            'effects = [{ when = "played", do = "free", turns = 2 }]\n',
            "free does not use turns",
        ),
    ],
)
def test_a_bad_entry_names_file_line_and_fix(tmp_path: Path, text: str, message: str) -> None:
    path = _copy_db(tmp_path, "# a designer's working copy\n" + text)
    with pytest.raises(CardDataError) as err:
        read_card_db(path)
    assert message in str(err.value)
    assert err.value.path is not None and err.value.path.name == "mine.toml"
    assert err.value.exit_code == EXIT_BAD_DATA
    if "TOML" not in message:
        assert err.value.line == 2


def test_an_effect_the_engine_cannot_fire_is_reported_as_not_simulated(tmp_path: Path) -> None:
    """Honest coverage: an item's `played` effects are fired by no rule, so an entry using one
    counts as `none` whatever it claims, with the reason."""
    path = _copy_db(
        tmp_path,
        '[am381]\nname = "5 Yen Coin"\ncoverage = "full"\n'
        'effects = [{ when = "played", do = "heal", target = "self" }]\n',
    )
    card = read_card_db(path).get("am381")
    assert card.coverage is Coverage.NONE
    assert "does not fire played effects of a item" in card.coverage_note


def test_a_combat_card_effect_the_engine_cannot_play_is_not_simulated(tmp_path: Path) -> None:
    """A combat card's text is played only as modifiers and healing of its two sides; any other
    action counts as `none`, with the reason."""
    path = _copy_db(
        tmp_path,
        '[am770]\nname = "Screw Kick / Comfy?"\ncoverage = "full"\n'
        'effects = [{ when = "played", do = "bonk", target = "opponent" }]\n',
    )
    card = read_card_db(path).get("am770")
    assert card.coverage is Coverage.NONE
    assert "a combat card's bonk on opponent is not played yet" in card.coverage_note


def test_coverage_json_reports_every_group_with_its_target(db: CardDB) -> None:
    result = CliRunner().invoke(app, ["cards", "coverage", "--format", "json", "--cards"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    groups = {g["group"]: g for g in doc["groups"]}
    assert groups["all"]["cards"] == 787
    for name, target in TARGETS.items():
        assert groups[name]["target"] == target
    table = {r.group: r for r in coverage_table(db)}
    assert groups["disaster"]["full"] == table["disaster"].full
    listed = {c["id"] for c in doc["cards"]}
    assert listed == {c.id for c in db.cards if c.coverage is not Coverage.FULL}


# --- character-side additions: what the loader requires of them --------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{ when = "always", do = "immune" }', "immune needs against"),
        ('{ when = "always", do = "waive" }', "waive needs cards"),
        ('{ when = "always", do = "bar" }', "bar needs filter or exclude"),
        ('{ when = "always", do = "preserve" }', "preserve needs cards"),
        ('{ when = "hurt", do = "heal", pay = ["Vehicle"] }', "giving up the card itself"),
        ('{ when = "always", do = "immune", against = ["Smog"] }', "'Smog' is no card kind"),
        ('{ when = "always", do = "recycle", cards = ["equipment"] }', "recycle names cards"),
        ('{ when = "always", do = "recycle", target = "cards_in_play" }', "recycle names cards"),
        (
            '{ when = "always", do = "modify", target = "disasters", mods = { health = "+1" } }',
            "only characters have a health",
        ),
        ('{ when = "always", do = "modify", mods = { luck = "+1" } }', "'luck' is no ability"),
        ('{ when = "hurt", do = "stay", turns = 2 }', "stay does not use turns"),
    ],
)
def test_a_bad_addition_names_file_line_and_fix(tmp_path: Path, body: str, message: str) -> None:
    path = _copy_db(
        tmp_path,
        f'# additions\n[am085]\nname = "Specs"\ncoverage = "full"\neffects = [{body}]\n',
    )
    with pytest.raises(CardDataError) as err:
        read_card_db(path)
    assert message in str(err.value)
    assert err.value.path is not None and err.value.path.name == "mine.toml"
    assert err.value.line == 2


def test_a_skill_only_an_effect_grants_is_a_skill_in_requirements(db: CardDB) -> None:
    """Archaeology is printed on no character; Ancient Pottery grants it, so the Museum's
    requirement reads it as a skill (one a granted instance meets), not a special term."""
    assert "Archaeology" in db.vocabulary.skills
    museum = db.lookup("Museum")[0]
    words = {type(t).__name__ for alt in museum.requirement.alternatives for t in alt}
    assert "SpecialTerm" not in words


# --- vehicle and form additions: what the loader requires of them ----------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{ when = "combat", do = "guard", n = 4 }', "guard is a standing rule"),
        ('{ when = "always", do = "guard", n = 0 }', "guard needs n >= 1"),
        ('{ when = "always", do = "guard", target = "here" }', "guard cannot target here"),
        ('{ when = "turn", do = "replace", filter = "Goku", turns = 1 }', "replace is a standing"),
        ('{ when = "always", do = "replace", turns = 1 }', "replace needs filter"),
        ('{ when = "always", do = "equip_anywhere", target = "play" }', "names cards exactly"),
        ('{ when = "always", do = "equip_anywhere", cards = ["vehicle"] }', "names cards exactly"),
        ('{ when = "always", do = "replace", filter = "Goku" }', "replace needs turns >= 1"),
        (
            '{ when = "always", do = "replace", filter = "Goku", turns = 1, skill = "Chi" }',
            "replace does not use skill",
        ),
    ],
)
def test_a_bad_vehicle_or_form_entry_names_file_line_and_fix(
    tmp_path: Path, body: str, message: str
) -> None:
    _assert_bad_vehicle_entry(tmp_path, "am079", "Ryo-Ohki (Ship)", body, message)


def _assert_bad_vehicle_entry(
    tmp_path: Path, card_id: str, name: str, body: str, message: str
) -> None:
    """One bad entry on line 2 of an effect file: the error names that file and line."""
    text = f'# vehicles\n[{card_id}]\nname = "{name}"\ncoverage = "full"\neffects = [{body}]\n'
    path = _copy_db(tmp_path, text)
    with pytest.raises(CardDataError) as err:
        read_card_db(path)
    assert message in str(err.value)
    assert err.value.path is not None and err.value.path.name == "mine.toml"
    assert err.value.line == 2


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{ when = "always", do = "carry" }', "carry needs n"),
        ('{ when = "always", do = "carry", n = 0 }', "carry needs n"),
        ('{ when = "turn", do = "carry", n = 2 }', "carry is a standing rule"),
        ('{ when = "always", do = "carry", n = 2, cards = ["weapon"] }', "only the vehicle"),
        ('{ when = "always", do = "carry", n = 2, target = "here" }', "carry cannot target here"),
        ('{ when = "always", do = "carry", n = 2, turns = 1 }', "carry does not use turns"),
        ('{ when = "played", do = "store", n = 2 }', "store is a standing rule"),
        ('{ when = "turn", do = "double_skills" }', "double_skills is a standing rule"),
    ],
)
def test_a_bad_carrying_limit_names_file_line_and_fix(
    tmp_path: Path, body: str, message: str
) -> None:
    _assert_bad_vehicle_entry(tmp_path, "am162", "Attack Pods", body, message)


# --- flash additions: what the loader requires of them -------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{ when = "played", do = "frail" }', "frail needs n"),
        ('{ when = "played", do = "frail", n = 1 }', "frail needs n"),
        ('{ when = "always", do = "frail", n = 0 }', "frail acts as a flash effect is played"),
        ('{ when = "played", do = "frail", n = 0, target = "self" }', "frail cannot target self"),
        ('{ when = "played", do = "charge", n = 0 }', "charge needs n >= 1"),
        ('{ when = "played", do = "charge", target = "here" }', "charge cannot target here"),
        ('{ when = "played", do = "reverse_charm", turns = 1 }', "does not use turns"),
        (
            '{ when = "played", do = "defeat", target = "disasters", pay = ["holder", "Vehicle"] }',
            "a life pays alone",
        ),
        ('{ when = "played", do = "heal", pay = ["holder"] }', "'holder' is no card kind"),
    ],
)
def test_a_bad_flash_entry_names_file_line_and_fix(tmp_path: Path, body: str, message: str) -> None:
    _assert_bad_vehicle_entry(tmp_path, "am272", "Meltdown", body, message)


def test_a_flash_only_action_on_another_kind_is_not_simulated(tmp_path: Path) -> None:
    """charge on a global effect's played trigger loads, but counts as not simulated."""
    text = (
        '# flash\n[am336]\nname = "Happy Ending"\ncoverage = "full"\n'
        'effects = [{ when = "played", do = "charge" }]\n'
    )
    db = read_card_db(_copy_db(tmp_path, text))
    entry = db.lookup("Happy Ending")[0]
    assert entry.coverage is Coverage.NONE
    assert entry.effects is not None and "only from a flash effect" in entry.effects.note


# --- the draw pile's order, stealing, a global's columns: what the loader requires ----------


@pytest.mark.parametrize(
    ("card_id", "name", "extra", "body", "message"),
    [
        ("am325", "Classy Crooks", "", '{ when = "always", do = "safeguard" }', "needs cards"),
        (
            "am325",
            "Classy Crooks",
            "",
            '{ when = "played", do = "safeguard", cards = ["Gift"] }',
            "safeguard is a standing rule",
        ),
        (
            "am325",
            "Classy Crooks",
            "",
            '{ when = "always", do = "safeguard", target = "here", cards = ["Gift"] }',
            "safeguard cannot target here",
        ),
        ("am323", "Briefing", "", '{ when = "played", do = "reorder", to = "hand" }', "not use to"),
        ("am129", "Mind Scanner", "", '{ when = "turn", do = "share" }', "turns >= 1"),
        (
            "am129",
            "Mind Scanner",
            "",
            '{ when = "always", do = "share", turns = 1 }',
            "share is an event",
        ),
        ("am129", "Mind Scanner", "", '{ when = "always", do = "forfeit" }', "needs skill"),
        ("am205", "Ross' Battle Suit", "", '{ when = "always", do = "wear", n = 0 }', "wear needs"),
        (
            "am121",
            "Jump",
            "",
            '{ when = "turn", do = "leap", n = 1 }',
            "leap is a standing rule",
        ),
        (
            "am323",
            "Briefing",
            "",
            '{ when = "played", do = "send", target = "here", to = "anywhere" }',
            "send needs to = one of",
        ),
        (
            "am326",
            "Combat Training",
            "columns = 0\n",
            '{ when = "round", do = "modify", mods = { damage = "+1" }, scope = "round" }',
            "columns must be true or false",
        ),
        (
            "am325",
            "Classy Crooks",
            "columns = false\n",
            '{ when = "always", do = "safeguard", cards = ["Gift"] }',
            "printed ability modifiers",
        ),
        (
            "am283",
            "Panic Attack",
            "columns = false\n",
            '{ when = "round", do = "modify", mods = { damage = "+1" }, scope = "round" }',
            "for a global effect, equipment or enhancement",
        ),
        (
            "am143",
            "Speed",
            "columns = false\n",
            '{ when = "always", do = "leap", mods = { damage = "x2" } }',
            "leap changes movement only",
        ),
        (
            "am177",
            "Goz' Flying Machine",
            'note = "its column plays it"\ncolumns = false\n',
            "",
            "needs effects that play the card's text",
        ),
        (
            "am326",
            "Combat Training",
            "columns = false\n",
            '{ when = "played", do = "grant", skill = "Chi" }',
            "needs a modify effect",
        ),
    ],
)
def test_a_bad_pile_steal_or_columns_entry_names_file_line_and_fix(
    tmp_path: Path, card_id: str, name: str, extra: str, body: str, message: str
) -> None:
    text = f'# powers\n[{card_id}]\nname = "{name}"\ncoverage = "full"\n{extra}effects = [{body}]\n'
    path = _copy_db(tmp_path, text)
    with pytest.raises(CardDataError) as err:
        read_card_db(path)
    assert message in str(err.value)
    assert err.value.path is not None and err.value.path.name == "mine.toml"
    assert err.value.line == 2
