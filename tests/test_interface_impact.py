"""`deckkit impact` for a party's or team's characters through the game interface (issue 28,
build point 2): each character against what the game's rules allow in its place
(:meth:`deckkit.core.game.Game.stand_ins`), on paired games against the --vs opponent.

Anima Tactics: a party spends "up to the agreed-upon level total" and holds no more advantage
cards than characters (anima-tactics-rulebook.txt, PREPARING FOR THE GAME, Organizing your
party), so a character is removed, with what it bore, unless that breaks a rule. Animus: "a
team of 9 character cards" (animus-rules-v3.5.txt, Setup, Draft Characters), so a character is
replaced by characters of the card set the team does not hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit import games
from deckkit.api.matchups import build_arms, compare_arms, impact_members, read_side
from deckkit.cli.main import app
from deckkit.core.game import Game, Record
from deckkit.errors import EXIT_BAD_INPUT, UsageError

DECKS = Path(__file__).resolve().parent.parent / "decks"
PARTY, FOE = DECKS / "at-empire-light.party", DECKS / "at-samael-darkness.party"
TEAM, RIVAL = DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"
runner = CliRunner()


def _game(path: Path) -> Game:
    return games.game_interface(games.game_of_file(path))


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def test_a_party_character_is_removed_with_the_equipment_it_bore() -> None:
    game = _game(PARTY)
    party = game.read(PARTY)
    (stand,) = game.stand_ins(party, "duncan reid")
    assert stand.how == "removed"
    assert game.members(stand.entry) == tuple(m for m in game.members(party) if m != "Duncan Reid")
    bearers = [a.bearer for a in stand.entry.advantages]
    assert "Duncan Reid" not in bearers and len(bearers) == 1  # Tactics stays
    assert game.legality(stand.entry).legal
    assert game.members(party) == (
        "Yuri Olsen",
        "Claire Adelheid",
        "Daniella Meris",
        "Duncan Reid",
        "Erika",
    )  # fmt: skip  (the file is unchanged)


def test_a_removal_that_breaks_the_advantage_count_is_no_stand_in(tmp_path: Path) -> None:
    """Two characters and two advantage cards borne by no one: without a character, two
    advantages for one character break "never greater than the total number of your starting
    characters"; the rules allow no stand-in, and impact lists the character as not measured."""
    path = tmp_path / "pair.party"
    path.write_text(
        "game: anima-tactics\nname: Pair\nlevels: 250\nedition: saga1\n"
        "[characters]\nYuri Olsen\nErika\n[advantages]\nTactics\nLogistics\n",
        encoding="utf-8",
    )
    game = _game(path)
    party = game.read(path)
    assert game.legality(party).legal, game.legality(party).problems
    assert game.stand_ins(party, "Erika") == ()
    doc = impact_members(
        game, read_side(game, path), read_side(game, FOE), ["Erika"], games=4, seed=0
    )
    assert doc["impact"]["cards"] == []
    assert doc["impact"]["not_measured"][0]["card"] == "Erika"


def test_a_team_character_is_replaced_by_fair_legal_characters_it_does_not_hold() -> None:
    game = _game(TEAM)
    team = game.read(TEAM)
    gone = next(c for c in team.cards if c.name == "Ilka Varga")
    stands = game.stand_ins(team, "ilka varga")
    assert len(stands) == 3
    held = set(game.members(team))
    levels = []
    for stand in stands:
        names = game.members(stand.entry)
        assert len(names) == len(team.cards) == 9
        at = [c.name for c in team.cards].index("Ilka Varga")
        new = names[at]  # in the character's place
        assert new not in held and stand.how == f"replaced by {new}"
        assert [n for i, n in enumerate(names) if i != at] == [
            n for n in game.members(team) if n != "Ilka Varga"
        ]
        assert game.legality(stand.entry).legal
        levels.append(abs(stand.entry.cards[at].level - gone.level))
    assert levels == sorted(levels)  # the same level first
    with pytest.raises(UsageError):
        game.stand_ins(team, "Nobody Here")


def test_a_changed_team_plays_as_held_not_as_its_file_reads() -> None:
    """The setup carries the entries' cards: a stand-in's team plays its replacement (its
    records count the replacement under its name, and the battles go otherwise), where
    reading the file again would play the original."""
    game = _game(TEAM)
    team, rival = game.read(TEAM), game.read(RIVAL)
    stand = game.stand_ins(team, "Ilka Varga")[0]
    new = stand.how.removeprefix("replaced by ")
    changed = [game.play(game.prepare([stand.entry, rival]), 1, i) for i in range(8)]
    original = [game.play(game.prepare([team, rival]), 1, i) for i in range(8)]
    assert any(f"0:{new}" == who for r in changed for (who, _) in r.counters)
    assert not any(who == "0:Ilka Varga" for r in changed for (who, _) in r.counters)

    def course(r: Record) -> tuple[str, int, list[int]]:
        return r.outcome, r.turns, sorted(r.counters.values())

    assert [course(r) for r in changed] != [course(r) for r in original]


def test_ani_mayhem_stand_ins_are_its_impact_stand_ins() -> None:
    """The interface gives the deck's stand-in rule, the very cards `impact` measures against."""
    from deckkit.animayhem.construction import standins as si
    from deckkit.animayhem.construction.carddb import load_card_db

    deck_path = DECKS / "medium-solo.deck"
    game = _game(deck_path)
    deck = game.read(deck_path)
    card = next(e.card for e in deck.entries if e.card.name == "Goten")
    expected = si.stand_ins(deck, card, load_card_db().cards, lambda d: game.legality(d).legal)
    stands = game.stand_ins(deck, "goten")
    assert [s.how for s in stands] == [f"replaced by {c.name}" for c in expected]
    assert len(stands) == si.STAND_INS
    assert all(game.legality(s.entry).legal for s in stands)


@pytest.mark.parametrize(
    ("path", "vs", "member"), [(PARTY, FOE, "Erika"), (TEAM, RIVAL, "Ilka Varga")]
)
def test_impact_pairs_each_change_with_the_file_itself(path: Path, vs: Path, member: str) -> None:
    """The file's own games are compare's first arm on the same seed; each stand-in's change is
    its paired difference from them, the value the median stand-in's."""
    code, out, err = run(
        "impact", path, "--vs", vs, "-c", member, "-n", 8, "-s", 2, "-q", "-f", "json"
    )
    assert code == 0, err
    doc = json.loads(out)
    (card,) = doc["impact"]["cards"]
    assert card["card"] == member
    game = _game(path)
    opponent = read_side(game, vs)
    arms = build_arms(game, [path, path], opponent)
    base = compare_arms(game, arms, opponent, games=8, seed=2)["arms"][0]
    assert card["win_rate_with"] == base["outcomes"]["win"]["rate"]
    changes = sorted(s["difference"] for s in card["stand_ins"])
    assert card["difference"] == changes[(len(changes) - 1) // 2]
    assert card["spread"] == [changes[0], changes[-1]]


def test_impact_refuses_a_character_not_in_the_file_and_an_illegal_party() -> None:
    code, _, err = run("impact", PARTY, "--vs", FOE, "-c", "Goten", "-n", 2, "-q")
    assert code == EXIT_BAD_INPUT and "Yuri Olsen" in err  # names what the party holds
    code, _, err = run("impact", DECKS / "at-illegal.party", "--vs", FOE, "-n", 2, "-q")
    assert code == 1 and "--allow-illegal" in err
