"""Animus card files and team files: every row checked on load; errors name the file, the
line and the column (exit 3 for a broken card file, as Ani-Mayhem's database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckkit.animus.construction.carddb import (
    COLUMNS,
    CardFileError,
    CardFileProblems,
    cardfile_cache_clear,
    load_cards,
    read_cards,
)
from deckkit.animus.construction.cards import Effect, Keyword, Kind
from deckkit.animus.construction.legality import check_team
from deckkit.animus.construction.rules import load_types
from deckkit.animus.construction.team import read_team
from deckkit.errors import EXIT_BAD_DATA, CardDataError, DeckFileError

HEADER = ",".join(COLUMNS)
GOOD = "x01,Test Card,character,2,Power,,3,1,Kill: draw(1),yes,made up"


def types():  # type: ignore[no-untyped-def]
    return load_types(Path("card_db/animus/types.toml"))


def write(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "cards.csv"
    path.write_text("# a comment\n" + HEADER + "\n" + "\n".join(rows) + "\n")
    return path


def test_the_sample_set_is_36_characters_and_7_entities_all_made_up_but_the_real_one() -> None:
    """The one real card is the Entity the rules print ("Entity Cards", example A)."""
    cards = load_cards()
    assert len(cards.characters) == 36 and len(cards.entities) == 7
    real = [c for c in cards.cards if not c.made_up]
    assert [c.name for c in real] == ["Omniscient Artificial Intelligence"]
    assert "animus-rules-v3.5.txt" in real[0].source
    assert all(c.made_up and "made up" in c.source for c in cards.cards if c not in real)
    assert len({c.name for c in cards.cards}) == 43


def test_a_good_row_reads_with_its_default_advantage(tmp_path: Path) -> None:
    card = read_cards(write(tmp_path, GOOD), types()).cards[0]
    assert (card.kind, card.level, card.type, card.advantage) == (
        Kind.CHARACTER,
        2,
        "Power",
        "Talent",
    )
    assert card.abilities[0].keyword is Keyword.KILL and card.abilities[0].effect is Effect.DRAW


def test_the_type_order_is_data(tmp_path: Path) -> None:
    (tmp_path / "types.toml").write_text(
        'types = ["Power", "Talent", "Skill"]\n[beats]\nPower = "Skill"\nSkill = "Talent"\n'
        'Talent = "Power"\n'
    )
    write(tmp_path, GOOD)
    cardfile_cache_clear()
    assert load_cards(tmp_path / "cards.csv").cards[0].advantage == "Skill"


@pytest.mark.parametrize(
    ("row", "line", "column", "words"),
    [
        ("x01,Test,character,two,Power,,3,1,,yes,made up", 3, 4, "not a whole number"),
        ("x01,Test,character,2,Fire,,3,1,,yes,made up", 3, 5, "not a card type"),
        ("x01,Test,hero,2,Power,,3,1,,yes,made up", 3, 3, "not a kind"),
        ("x01,Test,character,2,Power,,3,1,Kill: explode(1),yes,made up", 3, 9, "unknown effect"),
        ("x01,Test,character,2,Power,,3,1,Ongoing: damage(1),yes,made up", 3, 9, "not Ongoing"),
        ("x01,Test,character,2,Power,,3,1,Reaction: draw(1),yes,made up", 3, 9, "condition"),
        ("x01,Test,character,2,Power,,3,1,,maybe,made up", 3, 10, "yes or no"),
        ("x01,Test,character,2,Power,,3,1,,yes,", 3, 11, "source is empty"),
        ("x01,Test,character,2,Power,,3", 3, 8, "fields"),
        ("x01,Ent,entity,2,,,,,Ongoing: hand(1),yes,made up", 3, 4, "Entity has no level"),
    ],
)
def test_a_bad_row_names_line_and_column(
    tmp_path: Path, row: str, line: int, column: int, words: str
) -> None:
    path = write(tmp_path, row)
    with pytest.raises(CardFileError) as err:
        read_cards(path, types())
    assert err.value.line == line and err.value.column == column
    assert words in err.value.message and err.value.path == path
    assert err.value.exit_code == EXIT_BAD_DATA
    assert f"line {line}" in err.value.render() and f"column {column}" in err.value.render()


def test_duplicates_and_a_bad_header(tmp_path: Path) -> None:
    with pytest.raises(CardFileError, match="already used on line 3") as err:
        read_cards(write(tmp_path, GOOD, GOOD.replace("x01", "x02")), types())
    assert err.value.line == 4 and err.value.column == 2
    bad = tmp_path / "h.csv"
    bad.write_text("id,name,kind,lvl\n")
    with pytest.raises(CardFileError, match="'lvl' where 'level'") as err:
        read_cards(bad, types())
    assert (err.value.line, err.value.column) == (1, 4)


def test_every_broken_row_is_reported_at_once(tmp_path: Path) -> None:
    """A designer fixes a card file in one pass: each broken row with its line and column."""
    path = write(
        tmp_path,
        GOOD,
        "x02,Two,character,two,Power,,3,1,,yes,made up",
        GOOD.replace("x01", "x03"),  # the name 'Test Card' again
        "x04,Four,character,2,Fire,,3,1,,yes,made up",
    )
    with pytest.raises(CardFileProblems) as err:
        read_cards(path, types())
    assert [(p.line, p.column) for p in err.value.problems] == [(4, 4), (5, 2), (6, 5)]
    assert (err.value.line, err.value.column) == (4, 4)
    text = err.value.render()
    assert "3 broken rows" in text and all(f"line {n}:" in text for n in (4, 5, 6))
    assert len(err.value.as_dict()["problems"]) == 3  # type: ignore[arg-type]
    assert err.value.exit_code == EXIT_BAD_DATA


def test_bad_type_order_file(tmp_path: Path) -> None:
    path = tmp_path / "types.toml"
    path.write_text('types = ["A", "B"]\n[beats]\nA = "B"\n')
    with pytest.raises(CardDataError, match="for type 'B'"):
        load_types(path)


def _team(tmp_path: Path, body: str, header: str = "game: animus\nname: t\n") -> Path:
    path = tmp_path / "t.team"
    path.write_text(header + body)
    return path


NINE = [c.name for c in load_cards().characters[:9]]


def test_a_team_of_nine_is_legal_and_low_levels_warn(tmp_path: Path) -> None:
    report = check_team(read_team(_team(tmp_path, "[team]\n" + "\n".join(NINE))))
    assert report.legal and report.counts["levels"] == sum(
        c.level for c in load_cards().characters[:9]
    )
    low = [c.name for c in load_cards().characters if c.level == 1][:6]
    report = check_team(read_team(_team(tmp_path, "[team]\n" + "\n".join(low))))
    assert not report.legal  # 6 cards
    assert report.warnings and "never loses on levels" in report.warnings[0]


def test_duplicates_and_entities_are_illegal(tmp_path: Path) -> None:
    ent = load_cards().entities[0].name
    body = "[team]\n" + "\n".join([*NINE[:7], NINE[0], ent])
    report = check_team(read_team(_team(tmp_path, body)))
    rules = {v.rule for v in report.violations}
    assert {"unique cards", "characters only"} <= rules


def test_unknown_names_are_reported_with_their_lines(tmp_path: Path) -> None:
    with pytest.raises(DeckFileError) as err:
        read_team(_team(tmp_path, "[team]\nKaida Flnt\n"))
    assert err.value.line == 4 and "Kaida Flint" in (err.value.hint or "")


def test_a_team_file_needs_the_game_header(tmp_path: Path) -> None:
    with pytest.raises(DeckFileError, match="game: animus"):
        read_team(_team(tmp_path, "[team]\n", header="name: t\n"))


def test_a_team_naming_a_broken_card_file_fails_with_exit_3(tmp_path: Path) -> None:
    write(tmp_path, "x01,Test,character,zero,Power,,3,1,,yes,made up")
    path = _team(tmp_path, "[team]\nTest\n", header="game: animus\ncards: cards.csv\n")
    with pytest.raises(CardFileError) as err:
        read_team(path)
    assert err.value.exit_code == EXIT_BAD_DATA and err.value.line == 3
