"""Combat between a party and a disaster, in both directions, and charm battle.

Follows the step lists of the set0 rulebook, Part II "Combat" ("Your Characters Attacking a
Disaster", "A Disaster Attacking Your Character", "Charm Battle") with the edition's rules for the
kill threshold and the number of combat cards drawn (1998 guidelines 1.4: one per attacking
character or disaster), and Part III's traits (horde, ally, frenzy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, cast

from mypy_extensions import mypyc_attr

from deckkit.animayhem.construction.cards import (
    AnyCard,
    CombatCard,
    Modifier,
    PowerCard,
)
from deckkit.animayhem.engine.abilities import (
    answers,
    carries_effects_for,
    enter_haven,
    refresh,
)
from deckkit.animayhem.engine.codes import (
    ACT_APART,
    ACT_DEFENDS_ONLY,
    ACT_DUEL,
    ACT_ENDURE,
    ACT_FIRST_STRIKE,
    ACT_FRAIL,
    ACT_FREE_CAST,
    ACT_IGNORE_CARDS,
    ACT_IMMUNE,
    ACT_NO_RETREAT,
    ACT_RECYCLE,
    ACT_RUN_ALONE,
    ACT_SHIELD,
    ACT_SPARE,
    ACT_STRIKES,
    ACT_WEAR,
    KIND_FLASH_EFFECT,
    KIND_ITEM,
    STAT_BONKED,
    STAT_COMBATS,
    STAT_DEFEATED,
    STAT_ITEMS_RETRIEVED,
    STAT_KILLED,
    STAT_MET,
    STAT_WAS_BONKED,
    STAT_WAS_KILLED,
    TRAIT_BIT_FRENZY,
    TRIGGER_COMBAT,
    TRIGGER_DEFEATED,
    TRIGGER_HITS,
    TRIGGER_KNOCKS_OUT,
    TRIGGER_ROUND,
    TRIGGER_WINS,
)
from deckkit.animayhem.engine.gamecards import (
    ADD,
    NO_MOD,
    CombatHalf,
    apply_op,
    game_card,
    mod_op,
)
from deckkit.animayhem.engine.interpreter.combat_cards import apply_charm, combat_card
from deckkit.animayhem.engine.interpreter.common import Sides, apply_mods
from deckkit.animayhem.engine.interpreter.dispatcher import (
    fire,
    flash_extra_cards,
    held_for_charm,
    hurt,
    lone_attacker,
    play_in_combat,
    spend_free_cast,
)
from deckkit.animayhem.engine.interpreter.on_disasters_and_locations import gone
from deckkit.animayhem.engine.interpreter.piles import (
    defends,
    endures,
    recycled,
    retreat_attack,
    revived,
    runs_alone,
    spares_a_kill,
    strikes,
    strikes_first,
)
from deckkit.animayhem.engine.interpreter.standing import (
    amplified,
    attack_order,
    auras_in_play,
    can_act,
    disaster_bonus,
    extra_cards,
    has_rule,
    immune,
    party_combat_mods,
    record_uses,
    rules_of,
    shielded_from,
    spared,
    spend_use,
    wear,
)
from deckkit.animayhem.engine.interpreter.vehicles_and_forms import vehicle_first
from deckkit.animayhem.engine.queries import (
    Use,
    ally_bonus,
    apply_charm_half,
    horde_bonus,
    reachable_item,
    retreat_options,
    usable,
)
from deckkit.animayhem.engine.state import (
    CHA,
    DEF,
    DMG,
    ENE,
    NO_UIDS,
    Char,
    Copy,
    Dis,
    Game,
    Mods,
    UidSet,
    bump_card,
)

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.construction.vocabulary import Action
    from deckkit.animayhem.engine.gamecards import GameCard
    from deckkit.animayhem.engine.policy import Policy

# Charm halves are read by the players' estimates too; the rules use the queries' one.
apply_charm_half = apply_charm_half


class GameOver(Exception):
    """Raised when an end condition is met mid-phase, to unwind to the turn loop."""


def health_state(rule: str, health: int, start_health: int, damage: int, health_max: int) -> str:
    """ "ok", "bonked" or "killed" after an attack of ``damage`` (the attacker's total damage,
    before the victim's defense is subtracted: Lexicon "Attack").

    - Bonked at 0 health or less (set0 rulebook, Lexicon "Bonked").
    - triple_damage (set0 rulebook, Lexicon "Killed"): one attack's damage is at least 3 times the
      health at the beginning of combat and health is 0 or less. The damage, not the health lost:
      the "Combat Between Characters" example kills Tenchi Masaki (health 2) with a 6-damage attack
      that took 4 health.
    - double_health (1996 rules, "Combat"): the character has taken 2 times its health.
    - negative_health (1998 guidelines, "Killed"): health reduced to minus its base health.
    """
    if health > 0:
        return "ok"
    if rule == "triple_damage":
        return "killed" if damage >= 3 * start_health else "bonked"
    # double_health and negative_health: taken >= 2 x health  <=>  health <= -health_max.
    return "killed" if health <= -health_max else "bonked"


def draw_combat_card(game: Game) -> Copy | None:
    """Draw from the combat pile, reshuffling its discards when it runs out (set0 rulebook,
    "Deck Construction > Combat Cards")."""
    if not game.combat_pile:
        if not game.combat_discard:
            return None
        game.combat_pile = game.combat_discard
        game.combat_discard = []
        game.chance.shuffle(game.combat_pile)
    return game.combat_pile.pop()


# A round's sides and a fight's record are made and dropped several times a game: compiled, they
# are outside the cycle collector (nothing they hold leads back to them: ``acyclic``) and one
# freed is kept for the next (``free_list_len``), no allocation then.
@mypyc_attr(acyclic=True, free_list_len=1)
class _Side:
    """Round-local abilities of one combatant, with the combat cards played on it."""

    __slots__ = ("damage", "defense", "name", "owner")

    def __init__(self, owner: Char | Dis, damage: int, defense: int) -> None:
        self.owner = owner  # whom a combat card's text reaches (interpreter.combat_cards)
        self.name = owner.name
        self.damage = damage
        self.defense = defense


@mypyc_attr(acyclic=True, free_list_len=1)
class Combat:
    """One combat in progress, held between the steps where the player decides, so that a
    player who plans by simulating (rollout.py) can go on with it on a copy of the game: the
    step it stands at (``stage``: "charm" before the charm battles, "charm_action" when
    ``charmer`` has won one against a minor disaster, "round" at the start of round ``rnd``,
    "flash" in round ``rnd`` after the combat cards are drawn) and what the steps carry from
    one to the next. A game's ``fighting`` holds those being fought, innermost last."""

    def __init__(
        self,
        d: Dis,
        slot: int,
        initiator: str,
        chars: list[Char],
        warded: UidSet = NO_UIDS,
        start_health: dict[int, int] | None = None,
        char_mods: dict[int, list[Mods]] | None = None,
    ) -> None:
        self.d = d
        self.slot = slot
        self.initiator = initiator
        self.chars = chars
        self.stage = "charm"
        self.charmer: Char | None = None
        self.incapacitated = False
        # Given by fight (one container each, none made only to be replaced), else empty.
        self.warded: UidSet = warded
        self.start_health: dict[int, int] = {} if start_health is None else start_health
        self.effects = False
        self.fx_sides: Sides | None = None
        self.bonus_dmg = 0
        self.bonus_def = 0
        self.char_mods: dict[int, list[Mods]] = {} if char_mods is None else char_mods
        self.extra = 0
        # Charmers who lost: they do not attack it yet. This and ``energised``: the shared empty
        # NO_UIDS until one is added (``own_charmed``, ``own_energised``): most combats add none.
        self.charmed: UidSet = NO_UIDS
        self.cap = 3
        self.ally_damage = 0
        self.ally_defense = 0
        self.energised: UidSet = NO_UIDS
        self.rnd = 1
        # The round in progress (stage "flash").
        # Until then the shared empty placeholders, never changed: a round sets its own.
        self.target: Char | None = None
        self.fighters: list[Char] = _NOBODY
        # The characters' sides: those of ``fighters`` in their order, and the attacked
        # character's (one of them when it fights; ``side_of`` finds one's by identity).
        self.fsides: list[_Side] = _NO_FIGHTERS
        self.tside: _Side | None = None
        self.dside: _Side | None = None
        self.shielded: _Side | None = None
        self.alive: list[Char] = _NOBODY
        self.spent: list[Char] = _NOBODY
        self.drawn: list[str] | None = None
        # The rule options a round reads, settled once for the combat (readings.py).
        self.lasting = False  # charm_loss=until_attacked
        self.blocked = False  # retreat_blocked=no_retreat
        self.choose_card = False  # combat_card=chosen, where the rule lets the player choose

    def own_charmed(self) -> set[int]:
        """``charmed``, as a set of its own to add to."""
        own = self.charmed
        if not isinstance(own, set):
            own = self.charmed = set()
        return own

    def own_energised(self) -> set[int]:
        """``energised``, as a set of its own to add to."""
        own = self.energised
        if not isinstance(own, set):
            own = self.energised = set()
        return own


class CombatRules:
    """The rule options a combat reads (construction/readings.py), settled once per edition:
    each is an attribute of an interpreted dataclass (``Edition.play``), read here once instead
    of several times a combat. Disaster movement (movement.py) and scavenging (scavenge.py),
    which lead to combat, read theirs here too."""

    __slots__ = (
        "blocked",
        "charm",
        "charm_tie_lost",
        "chosen",
        "edition",
        "kill",
        "lasting",
        "max_party",
        "passes_charmed",
        "per_attacker",
        "pickup_first",
        "skip_destroyed",
        "special_any",
        "stalemate_rounds",
        "steal_again",
    )

    def __init__(self, edition: Edition) -> None:
        play = edition.play
        self.edition = edition  # held, so its id is not reused while this record lives
        self.charm: str = play.charm
        self.charm_tie_lost = play.charm_tie == "lost"
        self.special_any = play.charm_all_lost == "any"
        self.lasting = play.charm_loss == "until_attacked"
        self.blocked = play.retreat_blocked == "no_retreat"
        self.chosen = play.combat_card == "chosen" and play.combat_cards == "one_each_side"
        self.per_attacker = play.combat_cards == "per_attacker"
        self.stalemate_rounds: int = play.stalemate_rounds
        self.max_party: int = play.max_party or 0
        self.kill: str = play.kill
        # Disaster movement: pickup=first_item_location, steal_holding_stolen,
        # disasters_skip_destroyed.
        self.pickup_first = play.pickup == "first_item_location"
        self.steal_again: bool = play.steal_holding_stolen
        self.skip_destroyed: bool = play.disasters_skip_destroyed
        # Scavenging: scavenge_after_charm=continue (a charmed disaster is dealt with).
        self.passes_charmed = play.scavenge_after_charm == "continue"


class _LatestRules:
    """The record :func:`combat_rules` gave last: a run plays one edition, so an identity test finds
    it."""

    __slots__ = ("rules",)

    def __init__(self) -> None:
        self.rules: CombatRules | None = None


_LATEST: Final = _LatestRules()
_RULES: Final[dict[int, CombatRules]] = {}
_RULES_KEPT: Final = 64  # editions (one per rule reading a run plays): cleared when full


def combat_rules(edition: Edition) -> CombatRules:
    """The combat rule options of ``edition`` (frozen: the same edition, the same options)."""
    r = _LATEST.rules
    if r is not None and r.edition is edition:
        return r
    r = _RULES.get(id(edition))
    if r is None or r.edition is not edition:
        r = CombatRules(edition)
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        _RULES[id(edition)] = r
    _LATEST.rules = r
    return r


_NOBODY: Final[list[Char]] = []
_NO_FIGHTERS: Final[list[_Side]] = []
# A combat's start_health under the kill rules that never read it: never changed.
_NO_HEALTH: Final[dict[int, int]] = {}


@mypyc_attr(acyclic=True)
class _ActionsInCombat:
    """Whether the game's effects use the actions a combat asks about every fight or round
    (``game.acts``: every action of the deck's effects), read as native fields instead of a set
    look-up each time, and worked out again only when a game's ``acts`` is another set (the
    games of one prepared deck share theirs: ``_acts_of``). A card's own rule is still asked of
    the card. Never changed once made: another set gets a new record in place of this one, so
    the threads of other runs never read one half written."""

    __slots__ = (
        "acts",
        "defends_only",
        "endure",
        "first_strike",
        "immune",
        "recycle",
        "run_alone",
        "strikes",
        "wear",
    )

    def __init__(self, acts: frozenset[Action] | None) -> None:
        self.acts = acts  # held, so its id is not reused
        known = acts or frozenset()
        self.defends_only = ACT_DEFENDS_ONLY in known
        self.endure = ACT_ENDURE in known
        self.first_strike = ACT_FIRST_STRIKE in known
        self.immune = ACT_IMMUNE in known
        self.recycle = ACT_RECYCLE in known
        self.run_alone = ACT_RUN_ALONE in known
        self.strikes = ACT_STRIKES in known
        self.wear = ACT_WEAR in known


def _acts_of(game: Game) -> _ActionsInCombat:
    """The record of ``game``'s actions: the one kept while its ``acts`` is the same set."""
    kept = _KEPT
    found = kept.acts
    if found.acts is not game.acts:
        found = _ActionsInCombat(game.acts)
        kept.acts = found
    return found


class _Kept:
    """The record of the game asked last, replaced whole by one attribute store: the threads
    of other runs read one record or another, never one half written."""

    __slots__ = ("acts",)

    def __init__(self) -> None:
        self.acts = _ActionsInCombat(None)


_KEPT: Final = _Kept()


def _apply_round_modifiers(game: Game, side: _Side, copy: Copy) -> None:
    """A power card's damage/defense modifiers for this combat round only (read from its
    game-time record: ``GameCard.mod_slots``, in the card's order); a character in play may
    strengthen its additive ones (AMPLIFY: Shayla-Shayla's Fire effects)."""
    mods = copy.g.mod_slots
    if not mods:
        return
    # A power card's (mod_slots are a power card's): told by the type, not asked of the
    # interpreted class each round.
    more = amplified(game, cast(PowerCard, copy.card))
    for slot, mod in mods:
        op = mod.op
        bonus = more if op == ADD else 0
        if slot == DMG:
            side.damage = apply_op(op, mod.value, side.damage) + bonus
        elif slot == DEF:
            side.defense = apply_op(op, mod.value, side.defense) + bonus


def take_from_hand(game: Game, x: Copy | Char) -> None:
    """``game.hand.remove(x)`` by identity (a card is equal only to itself): compiled, a scan
    without the generic comparison of each card before it."""
    hand = game.hand
    for i in range(len(hand)):
        if hand[i] is x:
            del hand[i]
            return
    raise ValueError("the card is not in the hand")


def take_item_here(game: Game, d: Dis) -> bool:
    """A combat disaster takes an item card from underneath its current location (set0
    rulebook, "Maintenance Phase"; 1996 rules: "it will pick the Item up"), if one is within its
    reach: :func:`queries.reachable_item` holds the one reading every path follows."""
    loc = game.locs[game.field.path[d.pos]]
    x = reachable_item(game, loc.slot)
    if x is None:
        return False
    loc.hidden_cards.remove(x)
    d.carrying.append(x)
    if game.trace is not None:
        game.say("pickup", f"{d.name} takes {x.g.name} from under {loc.g.name}", d, x)
    return True


def _op(mod: Modifier | None) -> int:
    return mod_op(mod)


def _half_of(card: AnyCard) -> CombatHalf:
    """A combat card's physical half in integers (``GameCard.half``, read once per card)."""
    h = game_card(card).half
    assert h is not None
    return h


def _play_card(
    game: Game,
    recipient: _Side,
    opponent: _Side,
    cards: list[str] | None,
    shielded: _Side | None = None,
    slot: int = -1,
    fx: Sides | None = None,
    pick: Callable[[CombatCard], _Side] | None = None,
) -> None:
    """Draw one combat card and apply its physical half; "draw another" repeats. ``cards``
    collects what was played, for the trace. Nothing a card does reaches ``shielded`` (a
    disaster unaffected by combat cards). The card's encoded text (interpreter.combat_cards)
    acts after its printed numbers. ``pick``, when given, names the recipient once the card is
    seen (rule option combat_card=chosen)."""
    drawn = 0
    while drawn < 4:  # a chain of "draw another combat card" cannot run forever
        drawn += 1
        copy = draw_combat_card(game)
        if copy is None:
            return
        h = copy.g.half
        assert h is not None  # a combat card
        if pick is not None:
            recipient = pick(cast(CombatCard, copy.card))
        if recipient is not shielded:
            if h.dmg_op != NO_MOD:
                recipient.damage = apply_op(h.dmg_op, h.dmg, recipient.damage)
            if h.dfn_op != NO_MOD:
                recipient.defense = apply_op(h.dfn_op, h.dfn, recipient.defense)
        if opponent is not shielded:
            if h.opp_dmg_op != NO_MOD:
                opponent.damage = apply_op(h.opp_dmg_op, h.opp_dmg, opponent.damage)
            if h.opp_dfn_op != NO_MOD:
                opponent.defense = apply_op(h.opp_dfn_op, h.opp_dfn, opponent.defense)
        # Whether the card has effects: told when dealt (``Copy.texted``), while the game's
        # effects are the ones it was told of; looked up otherwise.
        texted = copy.texted
        if fx is not None:
            told = game.told
            if texted < 0 or told is None or game.fx is not told.fx or len(game.fx) != told.size:
                texted = 1 if h.id in game.fx else 0
        if fx is not None and texted:
            mine, theirs = combat_card(
                game, copy.card, recipient.owner, opponent.owner, slot, False, fx
            )
            if mine and recipient is not shielded:
                recipient.damage, recipient.defense = apply_mods(
                    mine, recipient.damage, recipient.defense
                )
            if theirs and opponent is not shielded:
                opponent.damage, opponent.defense = apply_mods(
                    theirs, opponent.damage, opponent.defense
                )
        game.combat_discard.append(copy)
        if cards is not None:
            cards.append(f"{h.name} on {recipient.name}")
        if not h.extra_draw:
            return


@mypyc_attr(acyclic=True)
class CharmCard:
    """A combat card's charm half in integers, read from the card's half once per card record
    (``charm_card``): what :func:`queries.apply_charm_half` does with it, on compiled fields
    instead of the construction layer's dataclasses (which stay the source, and which the
    players' estimates read). ``op``: the modifier's coded operation (gamecards.mod_op), NO_MOD
    when the half has none or names a special target (card text, not simulated); ``on_self``:
    it modifies the recipient's charm, else the opponent's."""

    __slots__ = ("card", "name", "on_self", "op", "value")

    def __init__(self, card: CombatCard) -> None:
        half = card.charm
        self.card = card  # held: the record is found again only for this card object
        self.name = half.name
        mod = half.modifier
        self.op = NO_MOD if mod is None or half.target == "special" else mod_op(mod)
        self.value = 0 if mod is None else mod.value
        self.on_self = half.target == "self"


_CHARM_CARDS: Final[dict[GameCard, CharmCard]] = {}
_CHARM_KEPT: Final = 512  # card records (a deck's combat cards): cleared when full


def charm_card(g: GameCard) -> CharmCard:
    """The charm half of the combat card whose game-time record is ``g``."""
    h = _CHARM_CARDS.get(g)
    if h is None or h.card is not g.card:
        card = g.card
        assert isinstance(card, CombatCard)
        h = CharmCard(card)
        if len(_CHARM_CARDS) >= _CHARM_KEPT:
            _CHARM_CARDS.clear()
        _CHARM_CARDS[g] = h
    return h


def charm_battle(game: Game, c: Char, d: Dis) -> int:
    """One charm round between a character and a disaster: one combat card's charm half on the
    disaster, one on the character ("Your Character Charming a Disaster > Draw Combat Cards").
    Returns the character's charm minus the disaster's (totals never below 0, 1998 guidelines
    1.5)."""
    mine = c.cur[CHA]
    theirs = d.charm
    drawn: list[str] | None = [] if game.trace is not None else None
    for k in range(2):
        recipient_is_char = k == 1  # the disaster's card first, then the character's
        copy = draw_combat_card(game)
        if copy is None:
            continue
        half = charm_card(copy.g)
        if half.op != NO_MOD:
            # The half's modifier on the recipient's charm or its opponent's
            # (queries.apply_charm_half).
            if half.on_self == recipient_is_char:
                mine = apply_op(half.op, half.value, mine)
            else:
                theirs = apply_op(half.op, half.value, theirs)
        if copy.cid in game.fx and not has_rule(game, d, ACT_IGNORE_CARDS):
            # Its encoded text: charm modifiers of the recipient and of its opponent.
            card = copy.card
            assert isinstance(card, CombatCard)
            who: Char | Dis = c if recipient_is_char else d
            other: Char | Dis = d if recipient_is_char else c
            own, opp = combat_card(game, card, who, other, c.slot, True, None)
            if recipient_is_char:
                mine, theirs = apply_charm(own, mine), apply_charm(opp, theirs)
            else:
                theirs, mine = apply_charm(own, theirs), apply_charm(opp, mine)
        game.combat_discard.append(copy)
        if drawn is not None:
            drawn.append(half.name)
    diff = max(0, mine) - max(0, theirs)
    if game.trace is not None:
        game.say(
            "charm",
            f"charm battle {c.name} ({max(0, mine)}) vs {d.name} ({max(0, theirs)}) "
            f"with {', '.join(drawn or []) or 'no cards'}: "
            + ("character wins" if diff > 0 else "disaster wins" if diff < 0 else "tie"),
            c,
            d,
            character_charm=max(0, mine),
            disaster_charm=max(0, theirs),
        )
    if diff < 0 and game.fx and game.hand:
        # A flash effect held for a lost charm battle (Following Orders, Loving You).
        diff = held_for_charm(game, c, d, max(0, mine), max(0, theirs))
    return diff


def drop_everything(game: Game, c: Char, slot: int) -> None:
    """A bonked or killed character drops its items and equipment under the location (1998
    guidelines, "Drop": they go under a location and must be scavenged); enhancements are
    discarded (set0 rulebook, "Enhancement")."""
    # An empty pile stays the character's own (most carry nothing of one kind): no list made.
    if c.items or c.equipment:
        under = game.locs[slot].hidden_cards if slot >= 0 else game.haven_cards
        if c.items:
            under.extend(c.items)
            c.items = []
        if c.equipment:
            under.extend(c.equipment)
            c.equipment = []
    if c.enhancements:
        game.discard.extend(c.enhancements)
        c.enhancements = []


def knock_out(game: Game, c: Char, how: str, by: Dis | None) -> None:
    """Bonked: out of play for one full turn of the owner. Killed: discarded, unless a card
    turns the kill into a bonk (interpreter.piles.spares_a_kill). A character a card keeps standing
    (ENDURE) is left at 1 health instead."""
    if _acts_of(game).endure and endures(game, c):
        c.health = max(c.health, 1)
        return
    if how == "killed" and game.fx and spares_a_kill(game, c, by):
        how = "bonked"
    slot = c.slot
    drop_everything(game, c, slot)
    c.slot = -1
    c.health = c.health_max
    if how == "killed":
        c.zone = "discard"
        game.discard.append(c)
        bump_card(game, c, STAT_WAS_KILLED)
        if by is not None:
            bump_card(game, by, STAT_KILLED)
    else:
        c.zone = "bonked"
        c.bonked_turn = game.turn
        bump_card(game, c, STAT_WAS_BONKED)
        if by is not None:
            bump_card(game, by, STAT_BONKED)
        if game.acts and revived(game, c):
            enter_haven(game, c)  # back at once, not a turn set aside (REVIVE)
    if game.trace is not None:
        game.say(how, f"{c.name} is {how}", target=c)


def defeat_disaster(game: Game, d: Dis, winners: list[Char], policy: Policy) -> None:
    """A defeated disaster is discarded; an item it carried goes to the party that beat it
    (those still standing: an effect of its defeat may have bonked some)."""
    disasters = game.disasters
    for i in range(len(disasters)):
        if disasters[i] is d:  # by identity: no generic comparison of those before it
            del disasters[i]
            break
    d.zone = "discard"
    d.ally_of = None
    back = _acts_of(game).recycle and recycled(game, d)  # shuffled back once what it carried is out
    if not back:
        game.discard.append(d)
    bump_card(game, d, STAT_DEFEATED)
    if game.trace is not None:
        game.say("defeated", f"{d.name} is defeated", target=d)
    for ally in game.disasters:
        if ally.ally_of is d:
            ally.ally_of = None
    if d.carrying:
        winners = [c for c in winners if c.zone == "field"]
        for item in d.carrying:
            if winners:
                carrier = policy.carrier_for(game, winners, item)
                if item.g.kind == KIND_ITEM:
                    carrier.items.append(item)
                    if item.cid in game.fx:
                        refresh(game, carrier)  # an item's standing effects (interpreter/)
                else:  # stolen equipment recovered
                    carrier.equipment.append(item)
                    refresh(game, carrier)
                if game.trace is not None:
                    game.say("retrieve", f"{carrier.name} takes back {item.g.name}", carrier, item)
            elif d.pos >= 0:
                game.locs[game.field.path[d.pos]].hidden_cards.append(item)
            else:
                game.carried_off.append(item)
        d.carrying = []
    if back:
        _shuffle_back(game, d)


def _shuffle_back(game: Game, d: Dis) -> None:
    """A defeated disaster shuffled back into the draw pile (RECYCLE: Willpower, Garlic Jr.),
    face down and as printed."""
    d.forget()
    d.zone = "draw"
    d.recycled = True
    game.draw_pile.append(d)
    game.chance.shuffle(game.draw_pile)
    if game.trace is not None:
        game.say("effect", f"{d.name} is shuffled back into the draw pile")


def _flash_effects(
    game: Game,
    policy: Policy,
    d: Dis,
    fighters: list[Char],
    target: Char,
    fsides: list[_Side],
    tside: _Side,
    dside: _Side,
    fx: Sides | None = None,
) -> list[Char]:
    """Flash effects the player plays this round (set0 rulebook, "Flash Effect": any time but
    the reload phase; the targeted character pays the energy cost or the card fizzles; an
    ability modifier lasts the combat round). ``fsides``: the sides of ``fighters``, in order;
    ``tside``: the target's. Returns the characters who expended energy on them (a cost, or
    energy a card charges into an attack: Kamehameha), for "Energy Gain" and "End of Combat
    and Revitalization": the shared empty ``_NOBODY`` when none did (most rounds), no list
    made."""
    paid: list[Char] = _NOBODY
    if not any(x.g.kind == KIND_FLASH_EFFECT for x in game.hand):
        return paid
    total = sum(max(0, side.damage) for side in fsides)
    short_damage = d.health + max(0, dside.defense) - total
    short_defense = max(0, dside.damage) - tside.defense - target.health + 1
    plays = policy.combat_flash(game, fighters, target, short_damage, short_defense)
    if game.fx and short_damage > 0:
        # A flash effect whose encoded text defeats this disaster outright.
        finisher = policy.finisher(game, d, fighters)
        if finisher is None and ACT_FRAIL in game.acts:
            # One that makes the health the party takes this round enough (Meltdown, Frozen).
            finisher = policy.frail_blow(game, d, fighters, total - max(0, dside.defense))
        if finisher is not None:
            plays = [finisher]
    for copy, c in plays:
        card = copy.card
        assert isinstance(card, PowerCard)
        take_from_hand(game, copy)
        game.discard.append(copy)
        energy = c.cur[ENE]
        cost = card.energy_cost or 0
        if cost > c.cur[ENE]:
            if not (ACT_FREE_CAST in game.acts and spend_free_cast(game)):
                continue
            cost = 0  # another flash effect paid it (Supreme Battle Aura)
        if cost:
            c.set_energy(c.cur[ENE] - cost)
        side = side_of(c, fighters, fsides, target, tside)
        _apply_round_modifiers(game, side, copy)
        if card.id in game.fx:
            slot = game.slot_of(d) if d.pos >= 0 else -1
            mine, theirs = play_in_combat(game, copy, c, d, slot, fx)
            side.damage, side.defense = apply_mods(mine, side.damage, side.defense)
            ignores = has_rule(game, d, ACT_IGNORE_CARDS)
            if not ignores:
                dside.damage, dside.defense = apply_mods(theirs, dside.damage, dside.defense)
            for _ in range(flash_extra_cards(game, card)):
                # More combat cards for its character this round (Crazy Eyes).
                _play_card(game, side, dside, None, dside if ignores else None, slot, fx)
            if lone_attacker(fx) == c.uid:
                # Everyone's energy went into its attack: the others deal none (Genki-Dama).
                for i, o in enumerate(fighters):
                    if o is not c:
                        fsides[i].damage = 0
        if game.trace is not None:
            game.say("flash", f"plays {card.name} on {c.name}", target=c, card=card.id)
        if c.cur[ENE] < energy and not _among(c, paid):
            if paid is _NOBODY:
                paid = []
            paid.append(c)
    return paid


def _round_bonus(g: GameCard) -> bool:
    """The card's printed columns, switched on, modify damage or defense: what a round's use of
    it changes (:func:`_apply_round_modifiers`)."""
    return not g.columns_off and any(i in (DMG, DEF) for i, _ in g.mod_slots)


def _activate(game: Game, c: Char, side: _Side) -> bool:
    """Use energy-cost enhancements and limited-use equipment for this round (set0 rulebook,
    "Enhancement" and "Equipment Cards With Usage Limits": once per combat round, the effect
    lasts the round). Returns True when energy was expended. Costs, uses and whether a card has
    modifiers are read from its game-time record (``Copy.g``)."""
    spent = False
    # A copy of the pile when a card may leave it this round, its last use spent (the round's
    # cards are those of its start); else the pile itself, no list made.
    enhancements = c.enhancements
    if _may_leave(enhancements):
        enhancements = list(enhancements)
    for copy in enhancements:
        cost = copy.g.energy_cost
        if cost and c.cur[ENE] >= cost:
            c.set_energy(c.cur[ENE] - cost)
            spent = True
            _apply_round_modifiers(game, side, copy)
        elif not cost and copy.uses_left is not None and _round_bonus(copy.g):
            # "N uses" (Akagiyama Missiles, Wrist Lasers): one use buys this round's bonus, as
            # for equipment ("Declare 1 use to have character carrying Dimensional Hammer gain
            # +2 damage for one combat round": set0 rulebook, Part III worked example); spent,
            # the card is discarded (an enhancement is no weapon: no reload).
            _apply_round_modifiers(game, side, copy)
            spend_use(game, c, copy)
    if not c.equipment:
        return spent
    equipment = c.equipment
    if _may_leave(equipment):
        equipment = list(equipment)
    for copy in equipment:
        g = copy.g
        left = copy.uses_left
        if left is None:
            # Equipment whose text sets an energy cost to use (Red Dragon Spirit Capture Star
            # Sword: 1 energy, +1 attack) is paid like an enhancement, once a round.
            cost = g.energy_cost
            if (
                cost
                and g.modifiers
                and c.cur[ENE] >= cost
                and usable(c, cast(PowerCard, copy.card))
            ):
                c.set_energy(c.cur[ENE] - cost)
                spent = True
                _apply_round_modifiers(game, side, copy)
            continue
        if not g.modifiers:
            continue
        _apply_round_modifiers(game, side, copy)
        uses = left - 1  # (an int of its own: ``left`` may be None, so it is held boxed)
        copy.uses_left = uses
        if uses <= 0:
            c.equipment.remove(copy)
            copy.uses_left = g.uses
            if g.weapon:
                # Weapons: "discard or reload" - back to the owner's hand, uses restored.
                game.hand.append(copy)
            else:
                game.discard.append(copy)
    return spent


def _may_leave(pile: list[Copy]) -> bool:
    """A card of ``pile`` may leave it this round: one with a usage limit and one use left or
    none (a round spends at most one use of each card, and a card leaves only as its uses run
    out)."""
    for x in pile:
        left = x.uses_left
        if left is not None and left <= 1:
            return True
    return False


def _charm_battles(game: Game, play: CombatRules, policy: Policy, f: Combat) -> str | None:
    """The charm battles before a combat with ``d``, by the edition's rule (rule option
    ``charm``). Returns the combat's result when no combat follows ("charmed": a minor disaster
    incapacitated, or every character there ignored by a major; "ignored": the special case),
    else None; the characters who lost go in ``f.charmed`` (they do not attack it this combat
    until it attacks them: "End of Charm Battle").

    - choice (set0 "Charm Battle": "you may declare"; Fifth Edition): the player declares, at
      most one charm battle per character a turn ("you can only declare one charm battle for
      each of your characters in any given turn").
    - first_automatic (1996 rules, "Combat": "If you enter Combat with a Disaster that has a
      Charm score, it will automatically engage in Charm Combat first"): one battle, by the
      character the player names; against a major "Each person at the location may engage in a
      Charm Combat ... if the player wishes", declared as under ``choice``.
    - disaster (set0's combat procedure): the disaster declares one against each character it
      fights, then the player may declare for those it did not charm. "A Disaster Attacking
      Your Character" > "Determine Attackers": "the disaster will automatically declare a charm
      battle against each character at its location before combat begins. After this charm
      battle, if you have any non-charmed characters remaining at disaster's location, you may
      declare a charm battle against the attacking disaster"; "Your Characters Attacking a
      Disaster" > "Determine Attackers": "the disaster will declare a charm battle against each
      attacking character" (those there able to attack); "Move Phase": "it will initiate a
      charm battle first". Its own declarations are not the player's: they do not spend a
      character's one declared charm battle a turn and do not make the special case, which
      needs "you decide to declare a charm attempt ... for each of your characters".
    - every: every character there, in turn, each counted as declared by the player.
    - off: none.
    """
    d, chars = f.d, f.chars
    if d.charm <= 0 or play.charm == "off":
        return None
    automatic = 1 if play.charm == "first_automatic" else 0
    tried: set[int] = set()  # the charm battles the player declared (or `every`'s)
    if play.charm == "every":
        order = list(chars)
    elif play.charm == "disaster":
        order = list(chars)
        if f.initiator == "party" and f.effects:
            order = [c for c in chars if can_act(game, c)]  # "each attacking character"
        for c in order:
            if c.zone != "field" or c.slot != f.slot or d.zone != "field":
                continue
            if _charm_one(game, play, c, d, f.own_charmed()):
                f.stage = "charm_action"
                f.charmer = c
                return _charmed_minor(game, policy, d, c)
        # "if you have any non-charmed characters remaining ..., you may declare": those that
        # neither lost nor won (a winner against a major is ignored by it), one a turn each.
        free = [
            c
            for c in chars
            if c.zone == "field"
            and c.slot == f.slot
            and c.uid not in f.charmed
            and c.uid not in d.ignores
            and c.charm_turn != game.turn
        ]
        order = []
        if free:
            for c in policy.charmers(game, d, list(free), 0):
                if c in free and c not in order:
                    order.append(c)
    else:
        free = [c for c in chars if c.charm_turn != game.turn]
        offered = chars if automatic else free
        order = []
        for c in policy.charmers(game, d, list(offered), automatic):
            if c in offered and c not in order and ((not order and automatic) or c in free):
                order.append(c)
        if automatic and not order:
            order = [chars[0]]  # the automatic one is not the player's to refuse
        if automatic and not d.major:
            order = order[:1]  # "Each person ... may engage" is said of a major disaster
    slot, lost = f.slot, f.own_charmed()
    for i, c in enumerate(order):
        if c.zone != "field" or c.slot != slot or d.zone != "field":
            continue
        if not (automatic and i == 0) and play.charm != "every":
            c.charm_turn = game.turn  # a declared charm battle
        tried.add(c.uid)
        if _charm_one(game, play, c, d, lost):
            f.stage = "charm_action"
            f.charmer = c
            return _charmed_minor(game, policy, d, c)
    here = [c for c in chars if c.zone == "field" and c.slot == slot]
    special = d.major or play.special_any
    if special and here and all(c.uid in tried and c.uid in lost for c in here):
        # "Special Case of a Character Charming a Disaster": the player declared for every
        # character at its location and all lost: the disaster takes the item card underneath
        # its location, if available (queries.reachable_item), ignores them if they do not
        # attack it, and leaves in the next Maintenance phase (its usual movement). Under the
        # 1996 rules ("Combat") only a major disaster does so (the edition's charm_all_lost);
        # a minor one fights on, those who lost not attacking it until it attacks them.
        if d.combat and not d.carrying:
            take_item_here(game, d)
        d.own_ignores().update(lost)
        if game.trace is not None:
            game.say("charm", f"every charmer lost: {d.name} ignores them")
        return "ignored"
    if here and all(c.uid in d.ignores for c in here):
        return "charmed"  # every one of them won: no one is left for it to fight
    return None


def _charm_one(game: Game, play: CombatRules, c: Char, d: Dis, lost: set[int]) -> bool:
    """One charm battle of ``c`` against ``d`` and what it settles ("End of Charm Battle"): a
    loser goes in ``lost``; a winner against a major is ignored by it. True when ``c`` won
    against a minor disaster (the player then makes one legal action for it)."""
    diff = charm_battle(game, c, d)
    if diff == 0 and play.charm_tie_lost:
        diff = -1  # rule option charm_tie=lost: a charmer who did not win lost
    if diff > 0:
        if not d.major:
            return True
        # "If your charmer won the charm battle against a major disaster, that disaster
        # will ignore the charmer until the charmer attacks it."
        d.own_ignores().add(c.uid)
    elif diff < 0:
        lost.add(c.uid)
    return False


def _charmed_minor(game: Game, policy: Policy, d: Dis, c: Char) -> str | None:
    """A charmer who won against a minor disaster makes one legal action for it, the player's
    choice ("End of Charm Battle": "The disaster gives one item card to the charmer", "You can
    incapacitate the disaster for the current turn"; 1996 rules: "hand over an Item").
    Incapacitated, there is no combat ("charmed"); an item handed over, the combat goes on
    (None)."""
    options = ["item", "incapacitate"] if d.carrying else ["incapacitate"]
    action = policy.charm_action(game, d, c, options)
    if action == "item" and d.carrying:
        x = d.carrying.pop(0)
        if x.g.kind == KIND_ITEM:
            c.items.append(x)
            bump_card(game, c, STAT_ITEMS_RETRIEVED)
        else:  # stolen equipment
            c.equipment.append(x)
        if d.stolen is x:
            d.stolen = None
        refresh(game, c)
        if game.trace is not None:
            game.say("charm", f"{d.name} hands {x.g.name} to {c.name}", d, c)
        return None
    d.incapacitated_turn = game.turn
    if game.trace is not None:
        game.say("charm", f"{d.name} is incapacitated for this turn", target=d)
    return "charmed"


def fight(
    game: Game,
    edition: Edition,
    policy: Policy,
    d: Dis,
    slot: int,
    initiator: str,
) -> str:
    """Resolve one combat at ``slot`` between disaster ``d`` and the characters there.

    ``initiator`` is "disaster" (it attacks: moving onto characters, revealed while scavenging)
    or "party" (the characters attack it). Returns "defeated", "wiped", "retreat", "charmed",
    "ignored" (every charmer lost: set0 rulebook, "Special Case of a Character Charming a
    Disaster") or "none" (nobody left to fight, or an incapacitated disaster's attack).
    """
    incapacitated = d.incapacitated_turn == game.turn
    if incapacitated and initiator == "disaster":
        return "none"  # incapacitated for the turn by a charm battle: it attacks no one
    chars = game.at(slot)
    if d.ignores is not NO_UIDS and d.ignores:
        if initiator == "party":
            # Ignored until they attack it ("End of Charm Battle": "until the charmer attacks
            # it"; "Special Case ...": "The disaster will ignore the characters if they do not
            # attack it"): attacking ends it.
            d.own_ignores().difference_update(c.uid for c in chars)
        chars = [c for c in chars if c.uid not in d.ignores]
    if chars and initiator == "disaster" and ACT_SPARE in rules_of(d.fx):
        # It never attacks them; they may still attack it (SPARE).
        chars = [c for c in chars if not spared(game, d, c)]
    # Those a card makes immune to it (IMMUNE: Bills and Calculator, Sylvie) are never
    # attacked: not drawn into its attack, and never its target when the party attacks it.
    warded: UidSet = NO_UIDS
    if _acts_of(game).immune:
        warded = {c.uid for c in chars if immune(game, d, c)}
    if warded is not NO_UIDS and warded and initiator == "disaster":
        chars = [c for c in chars if c.uid not in warded]
    if not chars or d.zone != "field":
        return "none"
    bump_card(game, d, STAT_MET)
    for c in chars:
        bump_card(game, c, STAT_COMBATS)
    if game.trace is not None:
        who = "attacks" if initiator == "disaster" else "is attacked by"
        game.say(
            "combat",
            f"{d.name} ({d.damage}/{d.defense}) {who} "
            + ", ".join(f"{c.name} ({c.cur[DMG]}/{c.cur[DEF]})" for c in chars)
            + f" at {game.locs[slot].g.name}",
            d,
            chars,
            disaster_damage=d.damage,
            disaster_defense=d.defense,
        )
    # The health each began the combat with: only the triple_damage kill rule weighs it
    # (health_state), so only under it is it recorded (else the shared empty _NO_HEALTH).
    rules = combat_rules(edition)
    start_health = {c.uid: c.health for c in chars} if rules.kill == "triple_damage" else _NO_HEALTH
    d.health = d.health_max
    effects = bool(game.fx)
    fx_sides: Sides | None = None
    bonus_dmg = bonus_def = extra = 0
    char_mods: dict[int, list[Mods]] | None = None
    if effects:
        # Card effects (interpreter/): what fires as combat begins, and what lasts through it.
        fx_sides = Sides(d, chars)
        if answers(game).combat:  # (no card of most decks has any: none asked)
            _combat_begins(game, d, slot, chars, fx_sides)
        if d.zone != "field":
            return "defeated" if gone(d) else "none"
        if not all(c.zone == "field" and c.slot == slot for c in chars):
            # An effect as combat began knocked one out (a new list only then).
            chars = [c for c in chars if c.zone == "field" and c.slot == slot]
        if not chars:
            return "none"
        auras = auras_in_play(game)  # what the cards in play lend, gathered once
        bonus_dmg, bonus_def = disaster_bonus(game, d, auras)
        d.health = d.health_max  # bonus defense does not raise health (Lexicon "Health")
        char_mods = party_combat_mods(game, chars, d, slot, auras)
        extra = extra_cards(game, d, auras)  # the cards in play that lend them last the combat
    # Charm battles before combat begins ("Charm Battle"; 1996 rules, "Combat").
    f = Combat(d, slot, initiator, chars, warded, start_health, char_mods)
    f.lasting = rules.lasting
    # Rule option retreat_blocked=no_retreat: with no legal direction to move ("Declare
    # Retreat": survivors "must move one location in any legal direction") none is declared.
    f.blocked = rules.blocked
    # Rule option combat_card=chosen: set0 "A Disaster Attacking Your Character" plays the
    # player's one card "on any of your retaliating characters"; by default the attacked one.
    f.choose_card = rules.chosen and initiator == "disaster"
    f.incapacitated = incapacitated
    f.effects = effects
    f.fx_sides = fx_sides
    f.bonus_dmg, f.bonus_def = bonus_dmg, bonus_def
    f.extra = extra
    return go_on(game, edition, policy, f)


def _combat_begins(game: Game, d: Dis, slot: int, chars: list[Char], fx_sides: Sides) -> None:
    """What fires as combat begins: the disaster's, the location's, global and the characters'
    effects and those of the cards they carry. Each card's effects are fired only where it has
    some for the trigger (``fire`` would find none, after its arguments were made)."""
    if d.fx is not None and TRIGGER_COMBAT in d.fx:
        fire(game, d, TRIGGER_COMBAT, slot, opponents=chars, sides=fx_sides)
    loc = game.locs[slot].copy
    if loc.cid in game.fx:
        fire(game, loc, TRIGGER_COMBAT, slot, opponents=chars, fought=d, sides=fx_sides)
    for g, _ in game.globals_in_play:
        if g.cid in game.fx and d.zone == "field":
            fire(game, g, TRIGGER_COMBAT, slot, holder=chars[0], fought=d, sides=fx_sides)
    for c in chars:
        if c.fx is not None and TRIGGER_COMBAT in c.fx:
            fire(game, c, TRIGGER_COMBAT, slot, opponents=chars, fought=d, sides=fx_sides)
        if (c.items or c.equipment or c.enhancements) and carries_effects_for(
            game, c, TRIGGER_COMBAT
        ):
            for x in (*c.items, *c.equipment, *c.enhancements):
                if x.cid in game.fx and d.zone == "field":
                    fire(game, x, TRIGGER_COMBAT, slot, holder=c, fought=d, sides=fx_sides)


def go_on(game: Game, edition: Edition, policy: Policy, f: Combat) -> str:
    """Fight combat ``f`` on from the step it stands at to its end (``fight``'s result). The
    combat is in the game's ``fighting`` meanwhile."""
    fighting = game.fighting
    fighting.append(f)
    try:
        return _go_on(game, edition, policy, f)
    finally:
        fighting.pop()


def _go_on(game: Game, edition: Edition, policy: Policy, f: Combat) -> str:
    d = f.d
    ended: str | None = None
    if f.stage in ("charm", "charm_action"):
        if f.stage == "charm":
            ended = _charm_battles(game, combat_rules(edition), policy, f)
        else:
            assert f.charmer is not None
            ended = _charmed_minor(game, policy, d, f.charmer)
        if f.lasting:
            # Rule option charm_loss=until_attacked: a charmer who lost in an earlier combat
            # still may not attack it "until that disaster attacks the charmer" ("End of Charm
            # Battle").
            d.own_shunned().update(f.charmed)
            f.own_charmed().update(c.uid for c in f.chars if c.uid in d.shunned)
    if ended is not None:
        return ended
    if f.stage in ("charm", "charm_action"):
        f.cap = 4 if d.major else 3
        if game.fx and has_rule(game, d, ACT_DUEL):
            f.cap = 1  # one character at a time (card text)
        if _has_ally(game, d):  # (most have none: their bonus 0, no use to record)
            uses: list[Use] = []
            f.ally_damage, f.ally_defense = ally_bonus(game, d, uses)
            record_uses(game, uses)
        f.stage = "round"
    while True:
        result = None
        if f.stage == "round":
            result = _round_start(game, edition, policy, f)
        if result is None:
            result = _round_end(game, edition, policy, f)
        if result is not None:
            break
    chars = f.chars
    _end_of_combat(game, chars, d, f.energised)
    for c in chars:
        c.pinned = False  # No Way Out lasts one fight
    fx = d.fx
    won = f.effects and result != "defeated" and d.zone == "field"
    if won and fx is not None and TRIGGER_WINS in fx:
        fire(game, d, TRIGGER_WINS, f.slot, opponents=[c for c in chars if c.zone == "field"])
    return result


def _has_ally(game: Game, d: Dis) -> bool:
    """A disaster in play is allied with ``d`` (what :func:`queries.ally_bonus` reads)."""
    return any(a.ally_of is d for a in game.disasters)


def _round_start(game: Game, edition: Edition, policy: Policy, f: Combat) -> str | None:
    """A round up to the flash effects: retreat, who is attacked and who fights, the combat
    cards. The combat's result when it ends here, else None (``f`` then stands at "flash")."""
    play = combat_rules(edition)
    acts = _acts_of(game)
    d, slot, chars, rnd, charmed = f.d, f.slot, f.chars, f.rnd, f.charmed
    effects, fx_sides, warded, cap = f.effects, f.fx_sides, f.warded, f.cap
    initiator, start_health, char_mods, extra = f.initiator, f.start_health, f.char_mods, f.extra
    bonus_dmg, bonus_def = f.bonus_dmg, f.bonus_def
    ally_damage, ally_defense = f.ally_damage, f.ally_defense
    lasting, blocked, choose_card = f.lasting, f.blocked, f.choose_card
    ignores = d.ignores
    if ignores is NO_UIDS:  # most disasters ignore nobody: no look-up a character
        # All of them still there (most rounds): the combat's own list, never changed, no
        # copy made.
        alive = chars
        if not all(c.zone == "field" and c.slot == slot for c in chars):
            alive = [c for c in chars if c.zone == "field" and c.slot == slot]
    else:
        alive = [c for c in chars if c.zone == "field" and c.slot == slot and c.uid not in ignores]
    if not alive:
        return "wiped" if rnd > 1 else "none"
    # Disabled characters only defend (and charmers who lost do not attack): often nobody.
    able = alive
    # (``charmed``, ``warded``: the shared empty NO_UIDS in most combats, told by identity.)
    if (charmed is not NO_UIDS and charmed) or (
        effects and not all(can_act(game, c) for c in alive)
    ):
        able = [c for c in alive if c.uid not in charmed and (not effects or can_act(game, c))]
    # Declare Retreat, every round from the first ("You may immediately declare a retreat"):
    # the disaster strikes one retreating character, no cards drawn.
    # A stalemate (neither side can hurt the other) is broken by a forced retreat after
    # the rule option stalemate_rounds; the rulebook sets no limit, but no sensible player
    # fights forever.
    may_run = not (effects and has_rule(game, d, ACT_NO_RETREAT))
    if may_run and effects and any(c.pinned for c in alive):
        may_run = False  # a card barred them from running from this fight (No Way Out)
    if may_run and blocked and not retreat_options(game, alive, slot):
        may_run = False
    if rnd > play.stalemate_rounds or (may_run and policy.retreat(game, d, able or alive, rnd)):
        _retreat(game, edition, policy, d, alive, slot, start_health)
        return "retreat"
    if may_run and acts.run_alone and len(alive) > 1:
        # One whose card lets it run on its own may leave its group fighting (RUN_ALONE).
        solo = [c for c in alive if runs_alone(game, c) and policy.run_alone(game, d, c)]
        for c in solo:
            runs_alone(game, c, credit=True)
            _retreat(game, edition, policy, d, [c], slot, start_health)
        if solo:
            alive = [c for c in alive if c.zone == "field" and c.slot == slot]
            able = [c for c in able if c in alive]
            if not alive:
                return "retreat"
    # Determine Attackers: random target, item carriers first; against a party's attack,
    # one of the attackers (a charmer who lost cannot attack). A disaster's effects may
    # make it attack some characters first.
    pool = alive if initiator == "disaster" or not able else able
    if effects and d.fx is not None:
        pool = attack_order(game, d, pool)
    if warded is not NO_UIDS and warded:
        pool = [c for c in pool if c.uid not in warded] or pool
    pool = vehicle_first(game, pool)  # a combat vehicle is struck before those aboard (GUARD)
    if any(c.items for c in pool):
        pool = [c for c in pool if c.items]
    target = game.chance.pick(pool)
    if charmed is not NO_UIDS and target.uid in charmed:
        # A charmer who lost "cannot attack the disaster it tried to charm until that
        # disaster attacks the charmer" ("Charm Battle"): attacked, it retaliates from now on.
        f.own_charmed().discard(target.uid)
        if lasting:
            d.own_shunned().discard(target.uid)
        if not effects or can_act(game, target):
            able.append(target)
    fighters = _retaliators(
        policy.fighters(game, d, able, target, cap) if able else _NOBODY,
        able,
        target,
        min(cap, play.max_party or cap),
    )
    if acts.defends_only and initiator == "disaster":
        fighters = [c for c in fighters if defends(game, c, target)]  # DEFENDS_ONLY
    if fx_sides is not None and answers(game).round:  # (most decks: no card has any)
        # Round effects first, so a lasting change they make counts in this round.
        if d.fx is not None and TRIGGER_ROUND in d.fx:
            fire(game, d, TRIGGER_ROUND, slot, opponents=[target, *fighters], sides=fx_sides)
        for g, _ in game.globals_in_play:
            if g.cid in game.fx:
                fire(game, g, TRIGGER_ROUND, slot, holder=target, fought=d, sides=fx_sides)
        for c in fighters:
            if c.fx is not None and TRIGGER_ROUND in c.fx:
                fire(game, c, TRIGGER_ROUND, slot, opponents=[c], fought=d, sides=fx_sides)
            if (c.items or c.equipment or c.enhancements) and carries_effects_for(
                game, c, TRIGGER_ROUND
            ):
                for x in (*c.items, *c.equipment, *c.enhancements):
                    if x.cid in game.fx:
                        fire(game, x, TRIGGER_ROUND, slot, holder=c, fought=d, sides=fx_sides)
        # A fighter a round effect knocked out (Super Saiyan's 1 damage to those beside him)
        # is out of play at once (set0 rulebook, Lexicon "Bonked"): it deals no damage.
        if not all(c.zone == "field" and c.slot == slot for c in fighters):
            fighters = [c for c in fighters if c.zone == "field" and c.slot == slot]
    # (A comprehension over the list: made at its length, not grown one append at a time.)
    fsides = [_Side(c, c.cur[DMG], c.cur[DEF]) for c in fighters]
    tside: _Side | None = None
    for i, c in enumerate(fighters):
        if c is target:
            tside = fsides[i]
            break
    if tside is None:
        tside = _Side(target, target.cur[DMG], target.cur[DEF])
    dside = _Side(d, d.damage, d.defense)
    bonus = horde_bonus(game, d)
    dside.damage += bonus + ally_damage
    dside.defense += bonus + ally_defense
    shielded: _Side | None = None
    if fx_sides is not None:
        _effect_mods(fsides, tside, dside, fx_sides, char_mods, bonus_dmg, bonus_def)
        shielded = dside if has_rule(game, d, ACT_IGNORE_CARDS) else None
    spent: list[Char] = _NOBODY  # a list of its own once one spends energy (most rounds none)
    for i, c in enumerate(fighters):
        if (c.enhancements or c.equipment) and _activate(game, c, fsides[i]):
            if spent is _NOBODY:
                spent = []
            spent.append(c)
    # Draw Combat Cards.
    drawn: list[str] | None = [] if game.trace is not None else None
    if play.per_attacker:
        for side in fsides:
            _play_card(game, side, dside, drawn, shielded, slot, fx_sides)
        if not _among(target, fighters):
            _play_card(game, tside, dside, drawn, shielded, slot, fx_sides)
    elif choose_card and len(fighters) > 1:
        pick = _card_chooser(game, policy, d, fighters, target, fsides, tside)
        _play_card(game, tside, dside, drawn, shielded, slot, fx_sides, pick)
    else:
        _play_card(game, tside, dside, drawn, shielded, slot, fx_sides)
    _play_card(game, dside, tside, drawn, shielded, slot, fx_sides)
    if effects:
        for _ in range(extra):
            _play_card(game, dside, tside, drawn, shielded, slot, fx_sides)
    for c in spent:
        f.own_energised().add(c.uid)
    f.stage = "flash"
    f.target, f.fighters, f.alive, f.spent, f.drawn = target, fighters, alive, spent, drawn
    f.dside, f.shielded = dside, shielded
    f.fsides, f.tside = fsides, tside
    return None


def _round_end(game: Game, edition: Edition, policy: Policy, f: Combat) -> str | None:
    """The rest of a round from the flash effects: damage, health, the end of combat. The
    combat's result when it ends, else None (``f`` then stands at the next round's start)."""
    play = combat_rules(edition)
    acts = _acts_of(game)
    d, slot, chars, rnd = f.d, f.slot, f.chars, f.rnd
    effects, fx_sides, warded, start_health = f.effects, f.fx_sides, f.warded, f.start_health
    target, fighters, alive, spent, drawn = f.target, f.fighters, f.alive, f.spent, f.drawn
    dside, fsides, tside = f.dside, f.fsides, f.tside
    assert target is not None and dside is not None and tside is not None
    incapacitated = f.incapacitated
    frenzy = d.g.traits & TRAIT_BIT_FRENZY

    paid = _flash_effects(game, policy, d, fighters, target, fsides, tside, dside, fx_sides)
    if paid:
        # Energy a flash effect took counts as expended this round ("Energy Gain") and comes
        # back at the end ("End of Combat and Revitalization": "All characters in play regain
        # full energy").
        spent = spent + [c for c in paid if c not in spent]
        f.own_energised().update(c.uid for c in paid)
    # Damage Dealing (simultaneous); totals never below 0 (1998 guidelines 1.5).
    hitting = fsides  # the sides of those whose attack reaches it
    if effects and d.fx is not None and ACT_SHIELD in rules_of(d.fx):
        hitting = [fsides[i] for i, c in enumerate(fighters) if not shielded_from(game, d, c)]
    total = sum(max(0, s.damage) for s in hitting)
    to_disaster = total - max(0, dside.defense)
    if effects and has_rule(game, d, ACT_APART):
        # It defends against each attack on its own (card text).
        to_disaster = sum(max(0, max(0, s.damage) - max(0, dside.defense)) for s in hitting)
    if fx_sides is not None and fx_sides.loss_times != 1:
        to_disaster = fx_sides.disaster_loss(to_disaster, d.health)  # FRAIL: Meltdown
    # An incapacitated disaster deals no damage in combat (Lexicon "Incapacitated").
    attack = 0 if incapacitated else max(0, dside.damage)
    if game.acts and attack:
        if warded is not NO_UIDS and target.uid in warded:
            attack = 0  # only characters immune to it are left to strike (IMMUNE)
        elif to_disaster >= d.health and acts.first_strike and strikes_first(game, d, fx_sides):
            attack = 0  # struck down first, it deals nothing this round (FIRST_STRIKE)
    # Frenzy hits "every character opposing it"; "Characters who are not fighting the
    # disaster are not affected" (Part III). The attacked character always fights.
    # (_NOBODY: the attacked character alone, most rounds: no list of one made.)
    victims = fighters if frenzy and _among(target, fighters) else _NOBODY
    if not frenzy and acts.strikes and (k := strikes(game, d)) > 1 and attack:
        # It strikes more than one of those fighting it, each at full damage (STRIKES).
        others = [c for c in fighters if c is not target and c.uid not in warded]
        victims = [target, *others[: k - 1]]
        if len(victims) > 1:
            has_rule(game, d, ACT_STRIKES)  # counts as a use of its effect
    # Those it hits and the health each loses, in step (no pair made for each): tuples, of one
    # each in most rounds (the attacked character alone), no list grown.
    hit: tuple[Char, ...] = ()
    losses: tuple[int, ...] = ()
    if victims is _NOBODY:
        if target.zone == "field":  # else a flash effect took it out
            loss = attack - max(0, tside.defense)
            hit, losses = (target,), (loss if loss >= 1 else 0,)
    else:
        struck: list[Char] = []
        lost: list[int] = []
        for v in victims:
            if v.zone != "field":
                continue  # a flash effect took it out this round (Ultimate Sacrifice)
            loss = attack - max(0, side_of(v, fighters, fsides, target, tside).defense)
            struck.append(v)
            lost.append(loss if loss >= 1 else 0)
        hit, losses = tuple(struck), tuple(lost)
    if to_disaster >= 1:
        d.health -= to_disaster
    for i, v in enumerate(hit):
        v.health -= losses[i]
    if acts.wear:
        # Equipment that has taken its fill is discarded (Ross' suit).
        wear(game, list(zip(hit, losses, strict=True)))
    if game.trace is not None:
        game.say(
            "round",
            f"round {rnd}: cards {', '.join(drawn or []) or 'none'}; party deals {total} - "
            f"{max(0, dside.defense)} = {max(0, to_disaster)} to {d.name} (health {d.health}); "
            + "; ".join(
                f"{d.name} deals {attack} - "
                f"{max(0, side_of(v, fighters, fsides, target, tside).defense)} = "
                f"{loss} to {v.name} (health {v.health})"
                for v, loss in zip(hit, losses, strict=True)
            ),
            round=rnd,
            cards=drawn,
            party_damage=total,
            disaster_defense=max(0, dside.defense),
            disaster_loss=max(0, to_disaster),
            disaster_health=d.health,
            hits=[
                {
                    "name": v.name,
                    "damage": attack,
                    "loss": loss,
                    "health": v.health,
                }
                for v, loss in zip(hit, losses, strict=True)
            ],
        )
    if effects:
        if d.fx is not None and TRIGGER_HITS in d.fx:
            for i, v in enumerate(hit):
                if losses[i] > 0:
                    fire(game, d, TRIGGER_HITS, slot, opponents=[v], sides=fx_sides)
        if answers(game).hurt and any(loss > 0 for loss in losses):
            wounded = [v for i, v in enumerate(hit) if losses[i] > 0 and v.zone == "field"]
            if wounded:
                hurt(game, wounded, slot, d, fx_sides)  # before health is checked (HURT)
    # Check Health: the kill threshold weighs the attack's damage, not the health it took.
    kill = play.kill
    for v in hit:
        if v.zone != "field":
            continue
        state = health_state(kill, v.health, start_health.get(v.uid, 0), attack, v.health_max)
        if state != "ok":
            knock_out(game, v, state, d)
            if effects and d.fx is not None and TRIGGER_KNOCKS_OUT in d.fx:
                fire(game, d, TRIGGER_KNOCKS_OUT, slot, opponents=[v])
    # Energy Gain: characters who expended energy this round gain 1.
    for c in spent:
        if c.zone == "field":
            c.set_energy(c.cur[ENE] + 1)
    if fx_sides is not None:
        fx_sides.new_round()  # round modifiers end with the round they were made for
    if d.zone != "field":  # an effect removed it
        return "defeated" if gone(d) else "none"
    if d.health <= 0:
        # Those still there: the combat's own list when every one of them is (most fights).
        winners = chars
        if not all(c.zone == "field" and c.slot == slot for c in chars):
            winners = [c for c in chars if c.zone == "field" and c.slot == slot]
        if effects and d.fx is not None and TRIGGER_DEFEATED in d.fx:
            fire(game, d, TRIGGER_DEFEATED, slot, opponents=winners)
        defeat_disaster(game, d, winners, policy)
        return "defeated"
    # Check for End of Combat: all who fought this round are bonked or killed.
    if all(c.zone != "field" for c in (fighters or alive)):
        return "wiped"
    f.rnd += 1
    f.stage = "round"
    return None


def _effect_mods(
    fsides: list[_Side],
    tside: _Side,
    dside: _Side,
    fx: Sides,
    char_mods: dict[int, list[Mods]],
    bonus_dmg: int,
    bonus_def: int,
) -> None:
    """Card effects on this round's abilities: lasting bonuses others lend the disaster, the
    fighters' bonuses against it, and what fired this combat or this round."""
    dside.damage += bonus_dmg
    dside.defense += bonus_def
    # (Most rounds have none of these: an empty one is skipped, no pair made.)
    if fx.combat_dis:
        dside.damage, dside.defense = apply_mods(fx.combat_dis, dside.damage, dside.defense)
    if fx.dis_round:
        dside.damage, dside.defense = apply_mods(fx.dis_round, dside.damage, dside.defense)
    # The character's lasting modifiers, then this combat's, then this round's, in turn.
    if char_mods:
        _mods_of(fsides, tside, char_mods)
    if fx.combat_chars:
        _mods_of(fsides, tside, fx.combat_chars)
    if fx.round_chars:
        _mods_of(fsides, tside, fx.round_chars)


def _mods_of(fsides: list[_Side], tside: _Side, mods_of: dict[int, list[Mods]]) -> None:
    """The fighters' sides and the attacked character's with their modifiers in ``mods_of``."""
    for side in fsides:
        _own_mods(side, mods_of)
    if not _has_side(tside, fsides):
        _own_mods(tside, mods_of)


def _own_mods(side: _Side, mods_of: dict[int, list[Mods]]) -> None:
    """A character's side with its modifiers in ``mods_of`` (by uid) applied."""
    mods = mods_of.get(side.owner.uid)
    if mods:
        side.damage, side.defense = apply_mods(mods, side.damage, side.defense)


def _has_side(side: _Side, sides: list[_Side]) -> bool:
    """``side`` is one of ``sides`` (by identity)."""
    return any(s is side for s in sides)


def side_of(
    c: Char, fighters: list[Char], fsides: list[_Side], target: Char, tside: _Side
) -> _Side:
    """A character's side this round: the attacked character's, or a fighter's (``fsides``
    lists those of ``fighters`` in their order), found by identity."""
    if c is target:
        return tside
    for i, o in enumerate(fighters):
        if o is c:
            return fsides[i]
    raise KeyError(c.uid)  # not in this round


def _card_chooser(
    game: Game,
    policy: Policy,
    d: Dis,
    fighters: list[Char],
    target: Char,
    fsides: list[_Side],
    tside: _Side,
) -> Callable[[CombatCard], _Side]:
    """The recipient of a seen combat card among the retaliating characters, the player's
    choice held to the rule (one of ``fighters``; rule option combat_card=chosen)."""

    def pick(card: CombatCard) -> _Side:
        options = [(c, fsides[i].damage, fsides[i].defense) for i, c in enumerate(fighters)]
        c = policy.combat_card_to(game, d, card, options, target)
        return side_of(c, fighters, fsides, target, tside) if c in fighters else tside

    return pick


def _retaliators(chosen: list[Char], able: list[Char], target: Char, cap: int) -> list[Char]:
    """The rule, whatever the policy chose: at most 3 characters against a minor and 4 against a
    major disaster, only those able to fight, and "one of the characters who is retaliating must
    be the character being attacked" ("A Disaster Attacking Your Character")."""
    if _as_ruled(chosen, able, target, cap):
        return chosen  # already what the rule makes of it (most rounds): no list made
    picked = [target] if _among(target, able) else []
    for c in chosen:
        if len(picked) >= cap:
            break
        if _among(c, able) and not _among(c, picked):
            picked.append(c)
    return picked if len(picked) <= cap else picked[:cap]


def _as_ruled(chosen: list[Char], able: list[Char], target: Char, cap: int) -> bool:
    """``chosen`` is what :func:`_retaliators` makes of it: at most ``cap`` distinct characters
    able to fight, the attacked one first when it is able to."""
    n = len(chosen)
    if n > cap:
        return False
    # (The attacked one first, most rounds: whether it is able is then asked in the loop.)
    if (n == 0 or chosen[0] is not target) and _among(target, able):
        return False
    for i, c in enumerate(chosen):
        if not _among(c, able):
            return False
        for j in range(i):
            if chosen[j] is c:
                return False
    return True


def _among(c: Char, group: list[Char]) -> bool:
    """``c in group`` for the few characters of a combat, by identity (a character is equal
    only to itself): compiled, a scan without the generic comparison of each member."""
    return any(x is c for x in group)


def _retreat(
    game: Game,
    edition: Edition,
    policy: Policy,
    d: Dis,
    retreating: list[Char],
    slot: int,
    start_health: dict[int, int],
) -> None:
    """Declare Retreat: the disaster deals its current damage to one random retreating
    character; survivors must move one location."""
    v = game.chance.pick(retreating)
    uses: list[Use] = []
    dmg = d.damage + horde_bonus(game, d) + ally_bonus(game, d, uses)[0]
    record_uses(game, uses)
    if d.incapacitated_turn == game.turn or (game.acts and immune(game, d, v)):
        dmg = 0  # incapacitated, or it cannot attack that one (IMMUNE): no damage
    loss = dmg - v.cur[DEF]
    loss = loss if loss >= 1 else 0
    if loss and game.fx:
        loss = retreat_attack(game, loss)  # a flash effect held for this (Know When to Run)
    v.health -= loss
    if game.trace is not None:
        game.say(
            "retreat",
            f"party retreats; {d.name} deals {dmg} - {v.cur[DEF]} = {loss} to {v.name}",
            d,
            v,
            name=v.name,
            damage=dmg,
            loss=loss,
            health=v.health,
        )
    kill = combat_rules(edition).kill
    state = health_state(kill, v.health, start_health.get(v.uid, 0), dmg, v.health_max)
    if state != "ok":
        knock_out(game, v, state, d)
    survivors = [c for c in retreating if c.zone == "field"]
    if survivors:
        dest = policy.retreat_destination(game, survivors, slot)
        for c in survivors:
            if dest < 0:
                enter_haven(game, c)
            else:
                c.slot = dest
        if game.trace is not None:
            game.say(
                "move",
                ", ".join(c.name for c in survivors)
                + (" retreats to " if len(survivors) == 1 else " retreat to ")
                + ("the haven" if dest < 0 else game.locs[dest].g.name),
                survivors,
                None if dest < 0 else game.locs[dest],
            )


def _end_of_combat(game: Game, chars: list[Char], d: Dis, energised: UidSet) -> None:
    """End of Combat and Revitalization: everyone still in play heals and regains energy."""
    for c in chars:
        if c.zone in ("field", "haven"):
            c.health = c.health_max
            if energised is not NO_UIDS and c.uid in energised:
                refresh(game, c)
    d.health = d.health_max
