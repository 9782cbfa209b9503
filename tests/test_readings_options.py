"""The rule options added for readings where the documents leave a choice: each test plays one
small constructed state under the default and the alternative value and shows what changes,
citing the passage that leaves the choice (../shared/rules/; set0 rulebook unless another
document is named). The options are defined in animayhem.construction.readings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from deckkit.animayhem.construction.cards import CombatCard
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.readings import BY_NAME, alternatives, apply_rules
from deckkit.animayhem.engine.combat import GameOver, fight
from deckkit.animayhem.engine.endgame import check_end, end_reason_code
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.phases import equip_phase, move_phase
from deckkit.animayhem.engine.policy import Policy
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game
from tests.engine_helpers import (
    NINE,
    add_char,
    bare_game,
    copy_of,
    edition,
    effect_table,
    new_disaster,
    on_field,
    stack_combat_pile,
)


def _with(name: str, **rules: str) -> Edition:
    return apply_rules(edition(name), rules)


class Script(Policy):
    """Declares the named charmers, retreats from round ``run`` on (0: never), gives a seen
    combat card to the character named ``card_to``, and moves as ``plans`` says."""

    def __init__(
        self,
        charmers: tuple[str, ...] = (),
        run: int = 0,
        card_to: str = "",
        plans: list[tuple[list[Char], list[int]]] | None = None,
    ) -> None:
        self.names = charmers
        self.run = run
        self.card_to = card_to
        self.plans = plans or []
        self.able: list[set[str]] = []

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        return [c for n in self.names for c in options if c.name == n]

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        return 0 < self.run <= rnd

    def fighters(self, game: Game, d: Dis, able: list[Char], target: Char, cap: int) -> list[Char]:
        self.able.append({c.name for c in able})
        return super().fighters(game, d, able, target, cap)

    def combat_card_to(
        self,
        game: Game,
        d: Dis,
        card: CombatCard,
        options: list[tuple[Char, int, int]],
        target: Char,
    ) -> Char:
        return next((c for c, _, _ in options if c.name == self.card_to), target)

    def moves(self, game: Game, edition: Edition) -> list[tuple[list[Char], list[int]]]:
        return self.plans


def _events(game: Game, kind: str) -> list[dict[str, object]]:
    assert game.trace is not None
    return [e for e in game.trace.events if e["kind"] == kind]


def _tally(held: int, theirs: int, hidden: int, unscavenged: bool = True) -> Game:
    """The player holds ``held`` items, the disasters ``theirs``, ``hidden`` lie under a
    location; ``unscavenged``: a disaster still lies under another location."""
    game = bare_game(NINE)
    if unscavenged:
        game.locs[2].hidden_disasters = [new_disaster(game, "Goons")]
    c = add_char(game, "Kami", 0)
    c.items = [copy_of(game, "Piece of Cake") for _ in range(held)]
    game.carried_off = [copy_of(game, "Go Board") for _ in range(theirs)]
    game.locs[1].hidden_cards = [copy_of(game, "Keys") for _ in range(hidden)]
    game.items_in_play = held + theirs + hidden
    return game


def _ends(game: Game, ed: Edition) -> str | None:
    try:
        check_end(game, ed, at_discard=True)
    except GameOver:
        return game.outcome
    return None


@pytest.mark.parametrize("rule", ["set0", "fifth2018"])
def test_majority_trigger(rule: str) -> None:
    """set0 "Object of the Game": "When more than half the item cards are retrieved or removed
    from play, the game immediately ends ... If the players retrieve more than half ..., If the
    disasters retrieve or remove from play more than half ..., all players lose" (the Fifth
    Edition summary says the same). Player 3, disasters 2 of 9: each side alone holds no
    majority and play goes on (each_side); together they pass half, so the game ends, and with
    neither side holding more than half nobody wins (combined): an outcome no document scores,
    undecided, neither a win nor a loss."""
    assert _ends(_tally(3, 2, 4), _with(rule)) is None
    game = _tally(3, 2, 4)
    assert _ends(game, _with(rule, majority_trigger="combined")) == "undecided"
    assert end_reason_code(game.ended) == "majority_undecided"
    assert _ends(_tally(2, 2, 5), _with(rule, majority_trigger="combined")) is None  # 4 of 9
    assert _ends(_tally(5, 0, 4), _with(rule, majority_trigger="combined")) == "win"


def test_all_scavenged() -> None:
    """1998 guidelines 4.1: the game ends when "all Locations have been Scavenged". Eight
    locations scavenged and the ninth emptied without it: by default the emptied one counts
    (nothing is left there to scavenge) and the game ends, a loss at 3 items each; read
    strictly (all_scavenged=scavenged) it was never scavenged and play goes on."""
    for reading, out in (("or_empty", "loss"), ("scavenged", None)):
        game = _tally(3, 3, 0, unscavenged=False)
        game.scavenged = set(range(8))
        assert _ends(game, _with("guidelines1998", all_scavenged=reading)) == out, reading


def _haven_table() -> tuple[Game, Copy, list[Char]]:
    """Three characters at slot 4 (not the starting haven's location) and The Silky Doll in the
    hand; effects live."""
    game = effect_table()
    game.field = replace(game.field, haven_slot=0)
    silky = copy_of(game, "The Silky Doll")
    fx = by_trigger(silky.card.effects)  # type: ignore[arg-type]
    assert fx is not None
    game.fx[silky.card.id] = fx
    game.hand.append(silky)
    chars = [add_char(game, n, 4) for n in ("Nabiki Tendo", "A-ko Magami", "Kami")]
    return game, silky, chars


def test_haven_abandoned() -> None:
    """set0 "Haven": the three builders "must remain at the location" for two turns; "Equip
    Phase": a turn they act "does not count toward the completion". Neither says what becomes
    of the card when one leaves: back to the hand by default (1998 guidelines 4.11: a card not
    properly used is treated as not played), discarded under haven_abandoned=discard."""
    for reading, pile in (("hand", "hand"), ("discard", "discard")):
        ed = _with("set0", haven_abandoned=reading)
        game, silky, chars = _haven_table()
        game.turn = 1
        equip_phase(game, ed, Policy())
        assert game.building
        chars[0].zone = "bonked"
        game.turn = 3
        equip_phase(game, ed, Policy())
        assert not game.building and not game.annexed, reading
        assert (silky in game.hand, silky in game.discard) == (pile == "hand", pile == "discard")


def test_location_attack() -> None:
    """set0 "Locations with Damage": "If a group of characters stops on a location card with a
    damage ability and does not have the required skills to scavenge it, the location will
    attack all the characters in that group ... The location will attack once per turn." Kami
    stays on A.D. Police HQ (damage 3) without its skills: attacked by default (standing: a
    group that stays is still stopped there), not under location_attack=stopped; Nabiki, who
    ends a move there, is attacked under either."""
    for reading, stays in (("standing", 1), ("stopped", 0)):
        ed = _with("set0", location_attack=reading)
        game = bare_game(["A.D. Police HQ", "Sewer"], cells=[(0, 0), (1, 0)])
        kami = add_char(game, "Kami", 0)
        nabiki = add_char(game, "Nabiki Tendo", 1)
        move_phase(game, ed, Script())
        assert len(_events(game, "location_attack")) == stays, reading
        game.turn += 1
        move_phase(game, ed, Script(plans=[([nabiki], [0])]))
        hit = [str(e["text"]) for e in _events(game, "location_attack")][stays:]
        assert any("Nabiki" in t for t in hit) and (any("Kami" in t for t in hit) == bool(stays))
        assert kami.slot == 0


def test_charm_loss() -> None:
    """set0 "End of Charm Battle": "If your charmer lost the charm battle, the charmer cannot
    attack the disaster it tried to charm until that disaster attacks the charmer" (1996 rules:
    "may not attack the Disaster until it attacks that Character"); no combat or turn is named.
    Akane loses against Toma (3 + 3 against 3 - 1: Face Slam, Bash), alone there: the special
    case, no combat. Next turn Kami and Akane attack Toma: by default the restriction ended with
    that combat and Akane fights from the first round; under charm_loss=until_attacked Toma has
    not attacked her since, so she does not."""
    for reading, fights in (("combat", True), ("until_attacked", False)):
        ed = _with("set0", charm="choice", charm_loss=reading)
        game = bare_game(NINE)
        game.turn = 1
        akane = add_char(game, "Akane Tendo", 0)
        d = on_field(game, new_disaster(game, "Toma"), 0)
        stack_combat_pile(game, ["Face Slam", "Bash"])
        assert fight(game, ed, Script(("Akane Tendo",)), d, 0, "disaster") == "ignored"
        game.turn = 2
        add_char(game, "Kami", 0)
        akane.slot = 0
        stack_combat_pile(game, [])
        policy = Script(run=2)
        fight(game, ed, policy, d, 0, "party")
        assert ("Akane Tendo" in policy.able[0]) is fights, reading


def test_combat_card() -> None:
    """set0 "A Disaster Attacking Your Character", "Draw Combat Cards": "You draw 1 combat card
    ... play that combat card's combat modifier on any of your retaliating characters" (the 1996
    rules give it to "the Character who the Disaster is attacking"). Toma attacks Akane, who
    carries an item; Kami fights beside her. The player's card is Enchanted View (Panic: -3
    defense): by default Akane takes it (defense 1, loses 6 - 1 = 5 to Toma's 5 + Bash);
    under combat_card=chosen the player gives it to Kami and Akane loses 6 - 4 = 2."""
    for reading, loss in (("attacked", 5), ("chosen", 2)):
        ed = _with("set0", combat_card=reading)
        game = bare_game(NINE)
        game.turn = 1
        akane = add_char(game, "Akane Tendo", 0)
        akane.items = [copy_of(game, "Piece of Cake")]
        add_char(game, "Kami", 0)
        d = on_field(game, new_disaster(game, "Toma"), 0)
        stack_combat_pile(game, ["Enchanted View", "Bash"])
        fight(game, ed, Script(run=2, card_to="Kami"), d, 0, "disaster")
        hits = _events(game, "round")[0]["hits"]
        assert hits == [{"name": "Akane Tendo", "damage": 6, "loss": loss, "health": 4 - loss}]


def test_retreat_blocked() -> None:
    """set0 "Declare Retreat": "All retreating characters that survive must move one location in
    any legal direction"; silent when none is legal. Kami at Sewer, whose one neighbour is
    destroyed and no haven beside it, wants to run from Goons: by default the retreat happens
    and she stays (no round fought); under retreat_blocked=no_retreat none is declared and she
    fights it out."""
    for reading, result in (("stay", "retreat"), ("no_retreat", "defeated")):
        ed = _with("set0", retreat_blocked=reading)
        game = bare_game(["Sewer", "Telephone Pole"], cells=[(0, 0), (1, 0)])
        game.field = replace(game.field, haven_slot=1)
        game.locs[1].destroyed = True
        kami = add_char(game, "Kami", 0)
        d = on_field(game, new_disaster(game, "Goons"), 0)
        stack_combat_pile(game, [])
        assert fight(game, ed, Script(run=1), d, 0, "disaster") == result, reading
        assert kami.slot == 0 and (len(_events(game, "round")) > 0) is (reading == "no_retreat")


def test_sensitivity_plays_only_the_choices_an_edition_leaves_open() -> None:
    """`deckkit sensitivity` plays each option's other values where the edition's own text
    leaves the choice open: combat_card under set0 only, majority_trigger under set0 and the
    Fifth Edition, all_scavenged under the 1998 guidelines."""
    played = {e: {n for n, _ in alternatives(edition(e))} for e in ("set0", "guidelines1998")}
    assert {"combat_card", "majority_trigger"} <= played["set0"]
    assert "all_scavenged" not in played["set0"]
    assert "all_scavenged" in played["guidelines1998"]
    assert not {"combat_card", "majority_trigger"} & played["guidelines1998"]
    assert {"haven_abandoned", "location_attack", "retreat_blocked", "charm_loss"} <= (
        played["set0"] & played["guidelines1998"]
    )
    assert all(o in BY_NAME for p in played.values() for o in p)


def test_the_heuristic_player_gives_a_seen_combat_card_where_it_helps() -> None:
    """Under combat_card=chosen the heuristic player gives Enchanted View (Panic: -3 defense)
    to a fighter who is not attacked, and a card that only adds damage (Punch: +2) to the
    attacked character, where it counts the same."""
    from deckkit.animayhem.engine.policy import HeuristicPolicy

    game = bare_game(NINE)
    akane = add_char(game, "Akane Tendo", 0)
    kami = add_char(game, "Kami", 0)
    d = on_field(game, new_disaster(game, "Toma"), 0)
    options = [(akane, 4, 4), (kami, 4, 4)]
    for name, to in (("Enchanted View", kami), ("Punch", akane)):
        card = copy_of(game, name).card
        assert isinstance(card, CombatCard)
        assert HeuristicPolicy().combat_card_to(game, d, card, options, akane) is to, name
