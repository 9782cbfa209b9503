"""The deck file parser: headers, counts, sections, comments, line ends, and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckkit.animayhem.construction.carddb import CardDB, load_card_db
from deckkit.animayhem.construction.deck import parse_deck, read_deck
from deckkit.errors import DeckFileError

DECKS = Path(__file__).resolve().parent.parent / "decks"


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


def counts(text: str, db: CardDB) -> dict[str, int]:
    return {e.card.name: e.count for e in parse_deck(text, db).entries}


def test_header_and_count_formats(db: CardDB) -> None:
    """Deck format: `key: value` headers, then `3 Name`, `3x Name`, `3 x Name` or `Name`."""
    deck = parse_deck(
        "name: Test\nplayers: 3\nedition: set0\nvariant: straight-line\n"
        "3 Punch\n2x Kick\n2 x Dodge\nParry\n",
        db,
    )
    assert (deck.name, deck.players, deck.edition, deck.variant) == (
        "Test", 3, "set0", "straight-line",
    )  # fmt: skip
    assert {e.card.physical.name: e.count for e in deck.entries} == {  # type: ignore[union-attr]
        "Punch": 3, "Kick": 2, "Dodge": 2, "Parry": 1,
    }  # fmt: skip


def test_names_are_case_insensitive_and_combat_halves_match(db: CardDB) -> None:
    """Names match case-insensitively; a combat card by either half or its full name."""
    found = counts("2 PUNCH\n1 lovely hair\nPunch / Lovely Hair\n", db)
    assert found == {"Punch / Lovely Hair": 4}


def test_repeated_lines_add_up(db: CardDB) -> None:
    """Repeated lines of one card add up, keeping the first line number."""
    deck = parse_deck("Keys\n\n2 keys\n", db)
    assert len(deck.entries) == 1
    assert (deck.entries[0].count, deck.entries[0].line) == (3, 1)


@pytest.mark.parametrize(
    ("line", "name", "n"),
    [
        ("2 Dragon Balls", "2 Dragon Balls", 1),  # the whole line is a name first
        ("1 2 Dragon Balls", "2 Dragon Balls", 1),  # an explicit count is never ambiguous
        ("2 2 Dragon Balls", "2 Dragon Balls", 2),
        ("2x Dragon Balls", "Dragon Ball", 0),  # "Dragon Balls" is not a card: see below
        ("3 Way Rumble", "3 Way Rumble", 1),
        ("2 3 Way Rumble", "3 Way Rumble", 2),
        ("5 Yen Coin", "5 Yen Coin", 1),
        ("7 Lucky Gods Martial Artists", "7 Lucky Gods Martial Artists", 1),
        ("33-S Sexaroid", "33-S Sexaroid", 1),
        ("2 33-S Sexaroid", "33-S Sexaroid", 2),
        ("3 Dragon Ball", "Dragon Ball", 3),
    ],
)
def test_digit_led_names(db: CardDB, line: str, name: str, n: int) -> None:
    """Deck format: a line is tried whole as a card name before a leading number is read as a
    count, so "2 Dragon Balls" is one copy of the card of that name."""
    if n == 0:
        with pytest.raises(DeckFileError, match="unknown card 'Dragon Balls'"):
            parse_deck(line, db)
        return
    assert counts(line, db) == {name: n}


def test_colon_in_card_name_at_top(db: CardDB) -> None:
    """A card whose name has a colon ("Beware: Bathroom!") is not mistaken for a header."""
    deck = parse_deck("players: 1\nBeware: Bathroom!\n", db)
    assert [e.card.name for e in deck.entries] == ["Beware: Bathroom!"]


def test_comments_blank_lines_and_disambiguated_names(db: CardDB) -> None:
    """`#` starts a comment at line start or after a space; `Goku #33` keeps its number."""
    deck = parse_deck("# a deck\n\n   # indented\nGoku #33   # the rare one\nKeys # note\n", db)
    assert [(e.card.id, e.count) for e in deck.entries] == [("am033", 1), ("am419", 1)]


def test_crlf_bom_and_trailing_spaces(db: CardDB) -> None:
    """CRLF line ends, a UTF-8 BOM and trailing spaces are accepted."""
    deck = parse_deck("\ufeffname: Windows  \r\nplayers: 2 \r\n3 Punch   \r\n\r\nKeys\t\r\n", db)
    assert deck.name == "Windows" and deck.players == 2
    assert [e.count for e in deck.entries] == [3, 1]


def test_sections_must_agree_with_card_types(db: CardDB) -> None:
    """Optional `[section]` headers; a card under the wrong section is an error with its line."""
    deck = parse_deck(
        "[characters]\nA-ko Magami\n[power]\nArmitage's Gun\nA Goddess' Kiss\n[combat]\nPunch\n",
        db,
    )
    assert [e.section for e in deck.entries] == ["characters", "power", "power", "combat"]
    with pytest.raises(DeckFileError) as err:
        parse_deck("[items]\nKeys\nA-ko Magami\n", db)
    assert err.value.line == 3 and "not in section [items]" in err.value.message


def test_unknown_section(db: CardDB) -> None:
    """Only the seven sections exist."""
    with pytest.raises(DeckFileError, match=r"unknown section \[spells\]") as err:
        parse_deck("Keys\n[spells]\n", db)
    assert err.value.line == 2 and err.value.hint and "[disasters]" in err.value.hint


def test_unknown_name_names_line_and_suggests(db: CardDB) -> None:
    """An unknown card is an error naming the line and suggesting the closest names."""
    with pytest.raises(DeckFileError) as err:
        parse_deck("Keys\n\n3 Krilin\n", db, Path("my.deck"))
    e = err.value
    assert (e.line, str(e.path)) == (3, "my.deck")
    assert e.message == "unknown card 'Krilin'"
    assert e.hint and "Krillin" in e.hint
    assert e.render().startswith("my.deck, line 3: unknown card 'Krilin'")


def test_ambiguous_name_lists_ids(db: CardDB) -> None:
    """Two cards named Goku: the error lists the ids and `Goku #N` forms to write instead."""
    with pytest.raises(DeckFileError, match="ambiguous") as err:
        parse_deck("Goku\n", db)
    assert err.value.hint and "am032 (Goku #32)" in err.value.hint
    assert "am033 (Goku #33)" in err.value.hint
    assert counts("am032\n", db) == {"Goku": 1}


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("colour: red\nKeys\n", 1, "unknown header key 'colour'"),
        ("players: three\nKeys\n", 1, "players must be a whole number"),
        ("players: 0\nKeys\n", 1, "players must be a whole number"),
        ("name: a\nedition: fourth\nKeys\n", 2, "unknown edition 'fourth'"),
        ("variant: hexagon\nKeys\n", 1, "unknown variant 'hexagon'"),
        ("players: 1\nplayers: 2\nKeys\n", 2, "given twice"),
        ("0 Keys\n", 1, "out of range"),
        ("1000 Keys\n", 1, "out of range"),
    ],
)
def test_header_and_count_errors(db: CardDB, text: str, line: int, fragment: str) -> None:
    """Bad header keys and values and impossible counts are errors with their line number."""
    with pytest.raises(DeckFileError, match=fragment) as err:
        parse_deck(text, db)
    assert err.value.line == line


def test_header_after_cards_is_a_card_line(db: CardDB) -> None:
    """Headers only at the top: later `players: 2` is read as a card name and not found."""
    with pytest.raises(DeckFileError, match="unknown card") as err:
        parse_deck("Keys\nplayers: 2\n", db)
    assert err.value.line == 2


def test_empty_deck_is_an_error(db: CardDB) -> None:
    """A deck file with no card lines cannot be checked."""
    with pytest.raises(DeckFileError, match="no cards"):
        parse_deck("# nothing\nname: x\n", db)


def test_read_deck_errors(db: CardDB, tmp_path: Path) -> None:
    """Missing files, directories and non-UTF-8 bytes are deck-file errors, not crashes."""
    with pytest.raises(DeckFileError, match="cannot read"):
        read_deck(tmp_path / "missing.deck", db)
    with pytest.raises(DeckFileError, match="cannot read"):
        read_deck(tmp_path, db)
    bad = tmp_path / "latin1.deck"
    bad.write_bytes(b"Caf\xe9\n")
    with pytest.raises(DeckFileError, match="not UTF-8"):
        read_deck(bad, db)


def test_sample_decks_parse(db: CardDB) -> None:
    """Every shipped sample deck parses; the name defaults to the file name."""
    for path in sorted(DECKS.glob("*.deck")):
        deck = read_deck(path, db)
        assert deck.entries and deck.path == path
    assert parse_deck("Keys", db, Path("x/solo.deck")).name == "solo"


_LINES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "3 Punch",
            "Goku",
            "Goku #33",
            "[combat]",
            "[items]",
            "players: 2",
            "players: -1",
            "edition: set0",
            "# c",
            "2 Dragon Balls",
            "1000000000000000000000 Keys",
            "x",
            ":",
            "[",
            "]",
            "\ufeff",
            "\r",
            "#",
            " # ",
            "Keys # x",
            "3x",
            "3 x",
            "am999",
        ]
    ),
)


# The fuzzed texts' cost is the "did you mean" search of each unknown name (difflib over every
# card name, about 50 ms a name): `make test` draws 100 texts a property, the slow suite
# (`make test-slow`, run by CI) 300 more of its own.
FAST_EXAMPLES, SLOW_EXAMPLES = 100, 300
_ANY_TEXT = st.one_of(st.text(max_size=300), st.lists(_LINES, max_size=12).map("\n".join))


def _parses_or_raises(db: CardDB, text: str) -> None:
    try:
        deck = parse_deck(text, db)
    except DeckFileError as err:
        assert err.message
    else:
        assert deck.entries and all(e.count >= 1 for e in deck.entries)


@settings(max_examples=FAST_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ANY_TEXT)
def test_any_text_parses_or_raises_deck_file_error(db: CardDB, text: str) -> None:
    """Property: arbitrary text either parses into a deck or raises DeckFileError, never
    anything else (the card database read once for the module, not once per example)."""
    _parses_or_raises(db, text)


@pytest.mark.slow  # 300 more texts
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ANY_TEXT)
def test_any_text_parses_or_raises_deck_file_error_on_more_texts(db: CardDB, text: str) -> None:
    _parses_or_raises(db, text)


def test_every_problem_of_a_deck_is_reported_at_once(db: CardDB) -> None:
    text = "[characters]\nGokuu\nA-ko Magami\n[frob]\nKrillin\n12 Sewer\n"
    with pytest.raises(DeckFileError) as info:
        parse_deck(text, db)
    rendered = info.value.render()
    assert "3 problems" in rendered
    assert [line.split(":")[0].strip() for line in rendered.splitlines()[1:]] == [
        "line 2", "line 4", "line 6"
    ]  # fmt: skip
    assert [p["line"] for p in info.value.as_dict()["problems"]] == [2, 4, 6]


_ANY_LINES = st.lists(
    st.one_of(
        st.text(max_size=60),
        st.sampled_from(
            [
                "[characters]",
                "[disasters]",
                "[frob]",
                "name: x",
                "players: 0",
                "players: x",
                "edition: nope",
                "3 Goku #33",
                "0 Sewer",
                "999999 Sewer",
                "3x",
                "# c",
                "Goku #0",
                "Smash / ",
                "\ufeff",
                "\x00",
                "\r",
                "1 2 Dragon Balls",
                "-1 Sewer",
            ]
        ),
    ),
    max_size=25,
)


def _deck_or_error(db: CardDB, lines: list[str]) -> None:
    try:
        parse_deck("\n".join(lines), db)
    except DeckFileError as err:
        assert err.render()


@settings(max_examples=FAST_EXAMPLES, deadline=None)
@given(_ANY_LINES)
def test_any_deck_text_is_a_deck_or_a_deck_file_error(db: CardDB, lines: list[str]) -> None:
    """Fuzzed deck files: whatever the text, the parser returns a deck or raises
    DeckFileError naming the line; nothing else escapes."""
    _deck_or_error(db, lines)


@pytest.mark.slow  # 300 more deck texts
@settings(max_examples=SLOW_EXAMPLES, deadline=None)
@given(_ANY_LINES)
def test_any_deck_text_is_a_deck_or_a_deck_file_error_on_more_texts(
    db: CardDB, lines: list[str]
) -> None:
    _deck_or_error(db, lines)
