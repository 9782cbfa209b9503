"""Which ability lines of a card set the battle engine plays, found by asking the engine itself.

Every ability line of a card file is encoded when it loads (deckkit.animus.construction.carddb;
a line the vocabulary cannot say is refused), but an encoded line is not always read: an
Entity is never dealt into a hand, so its Play line never applies; a character's ``hand()``
changes no hand size. Rather than keep a list of such cases beside the engine (which would drift
from it), each line is put through the engine's own code on a small probe battle, alone on a
card of its kind (a character, or its side's Entity):

- a triggered line (Play, Tactical, Combat, Kill, Death, Reset, Reaction) is set off where the
  engine collects that keyword (playing the card from hand, the Tactical and Combat options,
  a kill, the Reset Phase, damage that leaves the card standing) and is played when the engine
  applies it there (:func:`.abilities.apply`, which performs every effect a triggered line may
  name, logs each line it applies);
- a Reaction is also set off while another Reaction resolves: the engine resolves Reactions one
  level deep (:func:`.abilities.resolve`), so a Reaction played only outside another is played
  in part;
- a standing (Ongoing) line must change what the engine reads of the battle: a value, a kill
  threshold, advantage, a hand size, what each player sees (:mod:`.queries`).

Levels: ``full`` (played wherever its keyword says), ``approximate`` (in part, with what is left
out), ``none`` (never read, with why).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deckkit.animus.construction.cards import Ability, Card, Keyword, Kind
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.construction.rules import rule_numbers
from deckkit.animus.engine import abilities, phases, queries
from deckkit.animus.engine.policy import HeuristicPolicy
from deckkit.animus.engine.record import BattleRecord
from deckkit.animus.engine.state import MELEE, RANGE, Battle, Side, Unit
from deckkit.core.chance import SeededChance

FULL = "full"
APPROXIMATE = "approximate"
NONE = "none"


@dataclass(frozen=True)
class Played:
    """How much of one ability line the engine plays, and what is left out (empty when full)."""

    level: str
    note: str = ""


def _card(card_id: str, name: str, kind: Kind, found: tuple[Ability, ...] = ()) -> Card:
    character = kind is Kind.CHARACTER
    return Card(
        card_id, name, kind, 1 if character else 0, "probe" if character else "", "",
        1 if character else 0, 1 if character else 0, found,
    )  # fmt: skip


def _filler(n: int) -> Card:
    return _card(f"probe{n}", f"probe character {n}", Kind.CHARACTER)


class _Policy(HeuristicPolicy):
    """The heuristic player, with the Reset Phase's choice made for the probe."""

    reset: Card | None = None

    def choose_reset(self, battle: Battle, side: Side) -> Card | None:
        return self.reset


def _battle(probe: Card, log: Callable[[str], None]) -> tuple[Battle, Unit | None]:
    """A battle in its first turn, side 0 active: the probe (a character in Melee Position, or
    side 0's Entity) with two allies in play, a hurt ally, two enemies in play, cards in every
    deck and hand. Returns the battle and the probe's unit (None for an Entity)."""
    character = probe.kind is Kind.CHARACTER
    allies = [_filler(i) for i in range(1, 6)]
    enemies = [_filler(i) for i in range(11, 16)]
    team0 = (probe, *allies) if character else tuple(allies)
    sides = (
        Side(0, team0, None if character else probe),
        Side(1, tuple(enemies), None),
    )
    policies = (_Policy(), _Policy())
    battle = Battle(
        sides, RuleOptions(), rule_numbers(), SeededChance(0), (policies[0], policies[1]),
        BattleRecord.for_teams((len(team0), len(enemies))), trace=log,
    )  # fmt: skip
    battle.turn = 1
    mine, theirs = sides
    unit = Unit(probe, 0, 0) if character else None
    at = 1 if character else 0  # the allies' places in the team
    mine.melee = unit or Unit(allies[4], 0, 4 + at)
    hurt = Unit(allies[0], 0, at)
    hurt.damage = 1
    mine.range[0] = hurt
    mine.support.append(Unit(allies[1], 0, 1 + at))
    mine.deck = [allies[2]]
    mine.hand = [allies[3]]
    theirs.melee = Unit(enemies[0], 1, 0)
    theirs.range[0] = Unit(enemies[1], 1, 1)
    theirs.deck = [enemies[2], enemies[3]]
    theirs.hand = [enemies[4]]
    return battle, unit


def _set_off(keyword: Keyword, condition: str | None, battle: Battle, probe: Card,
             unit: Unit | None) -> None:  # fmt: skip
    """Bring about the moment ``keyword`` names, through the engine's own code."""
    mine, theirs = battle.sides
    if keyword is Keyword.PLAY:
        if probe in mine.team:
            mine.melee = None
            mine.hand.append(probe)
            phases.play_card(battle, mine, probe, (MELEE, 0))
    elif keyword is Keyword.TACTICAL:
        for card, who, line in queries.tactical_options(battle, mine):
            if card is probe:
                abilities.apply(battle, mine, card, who, line)
    elif keyword is Keyword.COMBAT:
        for kind, actor, what in queries.combat_options(battle, mine):
            if kind == "ability" and actor.card is probe and isinstance(what, Ability):
                abilities.apply(battle, mine, probe, actor, what)
    elif keyword is Keyword.KILL:
        if unit is not None:
            victim = theirs.melee
            assert victim is not None
            victim.damage = battle.kill_threshold(victim) - 1
            abilities.deal(battle, [(victim, 1, unit)])
    elif keyword is Keyword.DEATH:
        if unit is not None:
            abilities.deal(battle, [(unit, battle.kill_threshold(unit), None)])
    elif keyword is Keyword.RESET:
        if probe in mine.team:
            mine.melee = None
            mine.hand.append(probe)
            policy = battle.policies[0]
            assert isinstance(policy, _Policy)
            policy.reset = probe
            phases.reset_phase(battle, mine)
    elif condition == "damaged":
        if unit is not None:
            abilities.deal(battle, [(unit, 1, None)])
    elif condition == "ally_killed":
        ally = mine.support[0]
        abilities.deal(battle, [(ally, battle.kill_threshold(ally), None)])


def _triggered(probe: Card, ability: Ability, nested: bool) -> bool:
    """Whether the engine applies the line at its moment (``nested``: while another Reaction
    resolves)."""
    lines: list[str] = []
    battle, unit = _battle(probe, lines.append)
    battle.resolving_reaction = nested
    _set_off(ability.keyword, ability.condition, battle, probe, unit)
    return f"ability: {probe.name} {ability.text()}" in lines


def _readings(battle: Battle) -> tuple[object, ...]:
    """Everything the engine reads of a battle's standing effects."""
    units = [u for s in battle.sides for u in s.units()]
    return (
        tuple(battle.value(u, kind) for u in units for kind in (MELEE, RANGE)),
        tuple(battle.kill_threshold(u) for u in units),
        tuple(battle.has_edge(u) for u in units),
        tuple(battle.hand_size(s) for s in battle.sides),
        tuple(_names(queries.known_hand(battle, v, i)) for v in (0, 1) for i in (0, 1)),
        tuple(_names(queries.known_deck(battle, v, i)) for v in (0, 1) for i in (0, 1)),
    )


def _names(cards: list[Card | None]) -> tuple[str | None, ...]:
    """Cards compare by identity: two probe battles are compared by what is known of a card."""
    return tuple(c.name if c is not None else None for c in cards)


def _standing(probe: Card, bare: Card) -> bool:
    """Whether the line changes anything the engine reads (the probe against a card without
    it)."""
    return _readings(_battle(probe, lambda _: None)[0]) != _readings(
        _battle(bare, lambda _: None)[0]
    )


WHEN = {
    Keyword.PLAY: "when its card is played from hand",
    Keyword.TACTICAL: "in a Tactical Phase",
    Keyword.COMBAT: "in the Combat Phase",
    Keyword.KILL: "when its card kills",
    Keyword.DEATH: "when its card is killed",
    Keyword.RESET: "when its card is put back in the Reset Phase",
    Keyword.REACTION: "when its condition happens",
    Keyword.ONGOING: "while its card is in play",
}


def played(card: Card, ability: Ability) -> Played:
    """How much of ``ability`` (a line of ``card``) the engine plays: the line alone on a card
    of the same kind, through the engine (the module's docstring)."""
    kind = card.kind
    probe = _card("probe0", "probe card", kind, (ability,))
    what = "an Entity" if kind is Kind.ENTITY else "a character"
    if ability.keyword is Keyword.ONGOING:
        if _standing(probe, _card("probe0", "probe card", kind)):
            return Played(FULL)
        return Played(NONE, f"on {what}, {ability.effect}() changes nothing the battle reads")
    if not _triggered(probe, ability, nested=False):
        return Played(NONE, f"the engine never applies {what}'s line {WHEN[ability.keyword]}")
    if ability.keyword is Keyword.REACTION and not _triggered(probe, ability, nested=True):
        return Played(APPROXIMATE, "not when set off while another Reaction resolves")
    return Played(FULL)


def card_lines(cards: list[Card]) -> list[tuple[Card, Ability, Played]]:
    """Every ability line of ``cards``, with how much of it the engine plays."""
    return [(c, a, played(c, a)) for c in cards for a in c.abilities]
