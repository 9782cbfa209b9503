"""Automatic players: they choose actions, never change rules.

A policy sees what a human player would: its hand, its characters and what they carry, face-up
disasters, the layout, and how many cards lie face down under each location, but never which
cards those are, except the ones a card's effect let the player look at (REVEAL:
``game.known``, read through ``queries.known_under``). Policies draw any randomness from the
game's chance object, so one seed fixes the whole game.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr  # keeps compiled policies open to Python subclasses

from deckkit.animayhem.construction.cards import (
    CardType,
    CharmHalf,
    CombatCard,
    PowerCard,
)
from deckkit.animayhem.engine.cardrules import apply_mod, met, requirement_met, skill_totals
from deckkit.animayhem.engine.codes import (
    ACT_SHIELD,
    KIND_ENHANCEMENT,
    KIND_EQUIPMENT,
    KIND_FLASH_EFFECT,
    KIND_GLOBAL_EFFECT,
    KIND_ITEM,
    KIND_OF_TYPE,
    TYPE_ENHANCEMENT,
    TYPE_EQUIPMENT,
    TYPE_FLASH_EFFECT,
)
from deckkit.animayhem.engine.queries import (
    ACTIONS,
    HAVEN,
    ally_bonus,
    barred,
    can_stop,
    can_use,
    charm_chance,
    charm_halves,
    charm_only,
    combat_flash_mods,
    combat_only,
    costs_a_life,
    cycle_steps_left,
    defeats,
    draw_may_bring_disaster,
    equips_anywhere,
    fits,
    flash_reaches,
    forfeited,
    frail_times,
    free_cast,
    harmful,
    haven_equips,
    horde_bonus,
    keep_for_combat,
    known_under,
    may_unlock,
    party_movement,
    retreat_options,
    sends_to_goal,
    special_defeat,
    standing_or_none,
    strikes_first_card,
    traps,
    trim_to_stop,
    unlocked,
    usable,
    waits_for_a_use,
    waits_to_turn,
)
from deckkit.animayhem.engine.state import (
    CHA,
    DEF,
    DMG,
    ENE,
    Char,
    Copy,
    Dis,
    Game,
    Loc,
    Triggers,
)

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.engine.gamecards import GameCard

Move = tuple[list[Char], list[int]]

# The charm odds' memo keys a combat pile's make-up and two charm values each below this as one
# number (a value outside is worked out and not kept).
CHARM_KEY_RANGE: Final = 1024

# Flash effects are card text the engine does not play; a player spends them from the hand.
PLAYED_OUT = frozenset({TYPE_FLASH_EFFECT})
# The same as game-time kinds (gamecards.py), for the decisions that read the records.
PLAYED_OUT_KINDS: Final = frozenset(KIND_OF_TYPE[t] for t in PLAYED_OUT)
# The same as a bit per kind, read without a set look-up.
PLAYED_OUT_BITS: Final = sum(1 << k for k in PLAYED_OUT_KINDS)

# The construction layer's power card class, for the isinstance checks of the hot decisions: a
# name bound Final is read from the compiled module's own static, where the imported class's
# name is looked up in the module's dictionary at each check (the class is interpreted).
_POWER_CARD: Final = PowerCard


@mypyc_attr(allow_interpreted_subclasses=True)
class Policy:
    """The decisions the rules leave to the player. The base class decides nothing clever."""

    name = "base"

    def starting_haven(self, havens: Sequence[Copy]) -> Copy | None:
        return havens[0] if havens else None

    def starting_characters(self, game: Game, chars: Sequence[Char], n: int) -> list[Char]:
        return list(chars[:n])

    def build_haven(
        self, game: Game, haven: Copy, sites: Sequence[tuple[int, list[Char]]]
    ) -> tuple[int, list[Char]] | None:
        """Where to build an extra haven drawn into the hand, and by whom (three characters
        standing there: havens.py), or None to keep it. By default: at a location with nothing
        left to scavenge and no face-up disaster, by the three weakest characters there, since
        they rest two turns."""
        for slot, chars in sites:
            loc = game.locs[slot]
            if loc.hidden_cards or loc.hidden_disasters or game.disasters_at(slot):
                continue
            weakest = sorted(chars, key=lambda c: (c.cur[DMG] + c.cur[DEF], c.uid))
            return slot, weakest[:3]
        return None

    def discards(self, game: Game) -> list[Copy | Char]:
        return []

    def bring_character(self, game: Game, c: Char) -> bool:
        return True

    def power_card(self, game: Game, kind: CardType, anywhere: bool) -> tuple[Copy, Char] | None:
        return None

    def global_effect(self, game: Game) -> Copy | None:
        return None

    def moves(self, game: Game, edition: Edition) -> list[Move]:
        return []

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        return False

    def scavenge(self, game: Game, party: list[Char], slot: int) -> bool:
        return True

    def continue_scavenging(self, game: Game, party: list[Char], slot: int) -> bool:
        return True

    def carrier_for(self, game: Game, party: list[Char], card: Copy) -> Char:
        return party[0]

    def fighters(self, game: Game, d: Dis, able: list[Char], target: Char, cap: int) -> list[Char]:
        return ([target] if target in able else []) + [c for c in able if c is not target][
            : cap - 1
        ]

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        return False

    def combat_card_to(
        self,
        game: Game,
        d: Dis,
        card: CombatCard,
        options: list[tuple[Char, int, int]],
        target: Char,
    ) -> Char:
        """Who of the retaliating characters (each with this round's damage and defense) gets
        a combat card already drawn (rule option combat_card=chosen); the attacked one by
        default."""
        return target

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        """Flash effects to play this combat round, each on a character."""
        return []

    def flash_target(self, game: Game, card: Copy) -> Char | None:
        """The character a flash or global effect is played on: the strongest on the field,
        else in a haven."""
        for pool in (game.on_field(), game.in_haven()):
            if pool:
                return max(pool, key=lambda c: (c.cur[DMG] + c.cur[DEF], -c.uid))
        return None

    def pay_item(self, game: Game, source: Dis | Char | Copy) -> bool:
        """Give up an item (which then counts for the disasters) to defeat a disaster?"""
        return False

    def destination(self, game: Game, party: list[Char]) -> int:
        """The location a card sends ``party`` straight to (Shortcut); -1: nowhere better."""
        return -1

    def use_item(self, game: Game, card: Copy, who: list[Char], fought: Dis | None) -> bool:
        """Give up a carried card to heal or strengthen ``who`` (Senzu Beans, Sleepy Grass)?"""
        return False

    def run_alone(self, game: Game, d: Dis, c: Char) -> bool:
        """Let ``c``, whose card allows it, run from this fight on its own (Yajirobe)?"""
        return False

    def finisher(self, game: Game, d: Dis, fighters: list[Char]) -> tuple[Copy, Char] | None:
        """A flash effect from the hand that defeats ``d`` outright, and who plays it."""
        return None

    def frail_blow(
        self, game: Game, d: Dis, fighters: list[Char], loss: int
    ) -> tuple[Copy, Char] | None:
        """A flash effect that multiplies the ``loss`` of health the party inflicts on ``d`` this
        round (Meltdown, Frozen), and who plays it."""
        return None

    def retreat_destination(self, game: Game, chars: list[Char], slot: int) -> int:
        """Where the engine moves retreating characters: the policy's ``retreat_to`` held to the
        rule whatever it asks ("Declare Retreat": "must move one location in any legal
        direction"). A destination that is not a legal move becomes the first legal one; with
        none, the party stays at ``slot``. Policies override ``retreat_to``, never this."""
        options = retreat_options(game, chars, slot)
        if not options:
            if game.trace is not None:
                here = game.locs[slot].g.name
                game.say("move", f"no legal direction to retreat: the party stays at {here}")
            return slot
        dest = self.retreat_to(game, chars, slot)
        return dest if dest in options else options[0]

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        """Who declares a charm battle against ``d``, in order, among ``options`` (the rules'
        legal charmers). When ``automatic`` is 1 the rules start one charm battle whatever the
        player wishes (1996 rules) and the first named wages it; the others are declarations."""
        return list(options[:automatic])

    def charm_action(self, game: Game, d: Dis, c: Char, options: list[str]) -> str:
        """The legal action a charmer who won against a minor disaster makes it take: "item"
        (it hands over the item it carries) or "incapacitate" (for the turn)."""
        return options[-1]

    def retreat_to(self, game: Game, chars: list[Char], slot: int) -> int:
        """One legal move away ("Declare Retreat"); ``slot`` itself when there is none."""
        options = retreat_options(game, chars, slot)
        if HAVEN in options:
            return HAVEN
        return options[0] if options else slot


def equip_targets(game: Game, kind: CardType, anywhere: bool) -> list[Char]:
    """Who may receive a power card of this kind in the Equip phase: characters in a haven;
    enhancements also on the field where the edition allows it; equipment also a character on
    the field whose card allows it (Mousse). The haven's first, then the field's, each in the
    game's order."""
    enhancement = anywhere and kind is TYPE_ENHANCEMENT
    # (Equipment goes on the field only by an EQUIP_ANYWHERE, none when the game has none.)
    equipment = not enhancement and kind is TYPE_EQUIPMENT and ACTIONS.of(game).equip_anywhere
    # A haven's rule for some equipment (Squad Bay) lets it on anyone on the field.
    some = equipment and haven_equips(game, None)
    targets: list[Char] = []
    for c in game.chars:
        if c.zone == "haven":
            targets.append(c)
    if enhancement or equipment:  # the field's after the haven's: a second pass, no list
        for c in game.chars:
            if c.zone == "field" and (enhancement or some or equips_anywhere(game, c)):
                targets.append(c)
    return targets


def may_equip(game: Game, c: Char, card: PowerCard) -> bool:
    """Equipment goes on a character on the field only by its own rule or by a haven's rule
    for this card (a haven's may name only vehicles)."""
    if c.zone != "field" or card.type is not TYPE_EQUIPMENT:
        return True
    return equips_anywhere(game, c, card=card) or haven_equips(game, card)


class _Steps:
    """Each slot's next step toward a goal as :func:`route_to` takes it: the first of its
    neighbours nearest the goal (as min() with a key picks it). Worked out for a goal when
    first asked, and kept while the games' distances are the same object (a setup's fixed
    layout shares one for all its games; a random layout has its own each game)."""

    def __init__(self) -> None:
        self.dist: tuple[tuple[int, ...], ...] = ()  # held: its identity is the key
        self.rows: list[list[int]] = []  # by goal, empty until asked

    def toward(self, game: Game, goal: int) -> list[int]:
        """The next step from each slot toward ``goal`` (``goal`` itself: its first
        neighbour, never read)."""
        dist = game.dist
        if dist is not self.dist:
            self.dist = dist
            self.rows = [[] for _ in range(len(dist))]
        row = self.rows[goal]
        if not row:
            neighbours = game.field.neighbours
            for here in range(len(dist)):
                nbrs = neighbours[here]
                if not nbrs:  # (a lone location: never left, never read)
                    row.append(here)
                    continue
                step = nbrs[0]
                near = dist[step][goal]
                for s in nbrs:
                    if dist[s][goal] < near:
                        step = s
                        near = dist[s][goal]
                row.append(step)
        return row


# The routes' table of next steps, shared by every game and policy (card-free geometry).
_STEPS: Final = _Steps()


def route_to(game: Game, start: int, goal: int, budget: int) -> list[int]:
    """Steps along a shortest path from ``start`` (a slot, or HAVEN) toward ``goal``, at most
    ``budget`` of them. From the haven the first step enters the haven's slot. Each step is
    the first neighbour nearest the goal (``_Steps``)."""
    route: list[int] = []
    here = start
    if here == HAVEN:
        if budget <= 0:
            return []
        here = game.field.haven_slot
        route.append(here)
        budget -= 1
    if here != goal and budget > 0:
        toward = _STEPS.toward(game, goal)
        while here != goal and budget > 0:
            here = toward[here]
            route.append(here)
            budget -= 1
    return route


def _harm_slots(game: Game) -> list[int]:
    """The slots where a face-up non-combat disaster stands that would act on a party moving
    there (movement.move_party: "non-combat ones affect the party" on every step)."""
    out: list[int] = []
    path = game.field.path
    for d in game.disasters:
        if not d.combat and d.ally_of is None and harmful(d):
            slot = path[d.pos]
            if slot not in out:
                out.append(slot)
    return out


# A location under which more than one item lies counts as a goal one step nearer for each item
# beyond the first. Items pile up there when carriers are knocked out (combat.drop_everything;
# 1998 guidelines, "Drop": "they go under a Location (and must be Scavenged)"), all in plain
# view, and one scavenge takes every card beneath
# (scavenge.py: "retrieve every non-disaster card underneath"), so such a location is worth that
# many scavenges elsewhere. Against the player before
# (benchmarks/player_paired.py, 3,000 games a deck), seed 1: hard +0.7 points (95% CI +0.2 to
# +1.2), tricky +0.4 (-0.0 to +0.9), strike +0.2, tough +0.2, easy +0.1, medium -0.1 (-0.5 to
# +0.3); seed 2: tough +0.5 (+0.0 to +1.0), hard +0.2, tricky +0.2, strike +0.2. Three steps an
# item: hard +0.7 (-0.1 to +1.5), tough -0.4 (-1.0 to +0.2).
PILED_ITEM_STEPS: Final = 1


def piled_items(loc: Loc) -> int:
    """The steps nearer a goal counts for the items beneath ``loc`` beyond the first
    (``PILED_ITEM_STEPS``); 0 for one item or none. Dropped equipment does not count."""
    n = 0
    for x in loc.hidden_cards:
        if x.g.kind == KIND_ITEM:
            n += 1
    return PILED_ITEM_STEPS * (n - 1) if n > 1 else 0


def _items_elsewhere(game: Game) -> bool:
    """Some location not destroyed still has a card beneath its disasters (an item, or
    equipment dropped there): how many cards lie under each location is in plain view, and a
    disaster taking an item away is seen."""
    return any(loc.hidden_cards and not loc.destroyed for loc in game.locs)


def safe_route(
    game: Game, start: int, goal: int, budget: int, avoid: list[int], stop_at_goal: bool
) -> list[int]:
    """Steps toward ``goal`` as :func:`route_to` takes them, but never onto a slot of ``avoid``
    (``goal`` itself allowed when ``stop_at_goal``): along a shortest path around them, else as
    far as the plain route goes before the first of them."""
    plain = route_to(game, start, goal, budget)
    if not any(s in avoid for s in plain):
        return plain
    blocked = [s for s in avoid if not (stop_at_goal and s == goal)]
    if goal not in blocked:
        # Steps to the goal from every slot, never through a blocked one (a search from the
        # goal over the free slots).
        n = len(game.field.neighbours)
        far = [-1] * n
        far[goal] = 0
        queue = [goal]
        for here in queue:
            for s in game.field.neighbours[here]:
                if far[s] < 0 and s not in blocked:
                    far[s] = far[here] + 1
                    queue.append(s)
        here = game.field.haven_slot if start == HAVEN else start
        if far[here] >= 0:
            route: list[int] = []
            left = budget
            if start == HAVEN and left > 0:
                route.append(here)  # the step into the field
                left -= 1
            while here != goal and left > 0:
                step = -1
                for s in game.field.neighbours[here]:
                    if far[s] >= 0 and far[s] == far[here] - 1:
                        step = s
                        break
                if step < 0:
                    break
                route.append(step)
                here = step
                left -= 1
            return route
    out: list[int] = []
    for s in plain:
        if s in blocked:
            break
        out.append(s)
    return out


# A party carrying items splits when at least this many of its members carry nothing: the
# carriers alone take the items to the haven whenever they reach it this turn, and the others
# go on toward the goal. Set0 rulebook, "Move Phase": each character moves "up to and including
# its movement ability" and "may enter one of your havens if it is annexed to the current
# location"; a party only moves "as fast as the character with the lowest movement ability", so
# the carriers, alone, may reach the haven where the whole party would not. A carried item is
# the one a combat disaster goes for ("will first randomly attack one of the characters who are
# carrying items", same section); in the haven it counts for the player and no disaster can take
# it. Against the player that sent the whole party home (1,000 paired games a deck, seed 1,
# pure engine): strike +8.2 points (95% CI +5.4 to +11.0), medium +5.4 (+2.7 to +8.1), tough
# +4.1 (+1.3 to +6.9), tricky +3.3 (+0.5 to +6.1), easy +2.4 (+0.2 to +4.6), hard -0.6 (-3.2 to
# +2.0); seed 2: medium +7.4 (+4.8 to +10.0), tough +2.9 (-0.1 to +5.9). One member left to go
# on did less (medium +4.8, tough +3.5), three less again (medium +4.3, tough +1.8).
CARRY_ALONE_REST: Final = 2


def _carriers_apart(party: list[Char]) -> tuple[list[Char], list[Char]]:
    """The members carrying items, and the others, each in the party's order."""
    carriers: list[Char] = []
    rest: list[Char] = []
    for c in party:
        if c.items:
            carriers.append(c)
        else:
            rest.append(c)
    return carriers, rest


def _empty_handed(party: list[Char]) -> int:
    """How many members carry no item (the count :func:`_carriers_apart` would make ``rest``,
    no list made)."""
    n = 0
    for c in party:
        if not c.items:
            n += 1
    return n


def _home_route(game: Game, start: int, budget: int, harm: list[int]) -> list[int]:
    """The steps from ``start`` (a slot) into the haven, never onto a slot of ``harm``, at most
    ``budget`` of them, the last the step into the haven (HAVEN); shorter when the haven is out
    of reach, empty when its distance plus the step in exceeds ``budget``."""
    home = game.field.haven_slot
    if game.dist[start][home] + 1 > budget:
        return []
    if start == home:
        return [HAVEN]
    route = safe_route(game, start, home, budget - 1, harm, False)
    if route and route[-1] == home:
        route.append(HAVEN)
    return route


def _top_damage(party: list[Char], cap: int) -> int:
    """The damage of the party's ``cap`` hardest hitters together. For the caps the player asks
    (3, or 4 against a major disaster) the party is read once, its four hardest hits kept in
    order as it goes; any other cap takes the whole party's less its weakest hits
    (:func:`_top_damage_any`)."""
    n = len(party)
    if n <= cap:
        total = 0
        for c in party:
            total += c.cur[DMG]
        return total
    if cap != 3 and cap != 4:
        return _top_damage_any(party, cap)
    # The party has at least four members: its first four hits in order, hardest first, then
    # each further hit put in its place among them.
    t0 = party[0].cur[DMG]
    t1 = party[1].cur[DMG]
    t2 = party[2].cur[DMG]
    t3 = party[3].cur[DMG]
    if t0 < t1:
        t0, t1 = t1, t0
    if t2 < t3:
        t2, t3 = t3, t2
    if t0 < t2:
        t0, t2 = t2, t0
    if t1 < t3:
        t1, t3 = t3, t1
    if t1 < t2:
        t1, t2 = t2, t1
    for i in range(4, n):
        hit = party[i].cur[DMG]
        if hit > t3:
            if hit > t2:
                t3 = t2
                if hit > t1:
                    t2 = t1
                    if hit > t0:
                        t1 = t0
                        t0 = hit
                    else:
                        t1 = hit
                else:
                    t2 = hit
            else:
                t3 = hit
    return t0 + t1 + t2 + t3 if cap == 4 else t0 + t1 + t2


def _top_damage_any(party: list[Char], cap: int) -> int:
    """:func:`_top_damage` for any cap: the whole party's damage less its weakest hits, taken
    from the lowest up (the party read once more for each level taken away)."""
    total = 0
    for c in party:
        total += c.cur[DMG]
    drop = len(party) - cap  # the weakest hits that do not count
    floor = 0  # the level last taken away (all hits at or below it are gone)
    taken = False
    while drop > 0:
        low = 0  # the weakest hit above the floor, and how many members hit that
        ties = 0
        for c in party:
            hit = c.cur[DMG]
            if taken and hit <= floor:
                continue
            if ties == 0 or hit < low:
                low, ties = hit, 1
            elif hit == low:
                ties += 1
        k = min(ties, drop)
        total -= low * k
        drop -= k
        floor, taken = low, True
    return total


def _rank(chars: list[Char], start: int, with_defense: bool) -> None:
    """Order ``chars[start:]`` in place by damage (plus defense when ``with_defense``), highest
    first, ties in their order: what a stable sort with that key gives, without a key function
    called for each of the handful of characters (an insertion sort). Each score is read off
    the character's abilities where it is compared (``cur`` read once: each read of the
    attribute copies its five values)."""
    for i in range(start + 1, len(chars)):
        c = chars[i]
        cur = c.cur
        score = cur[DMG] + cur[DEF] if with_defense else cur[DMG]
        j = i
        while j > start:
            before = chars[j - 1]
            had = before.cur
            if (had[DMG] + had[DEF] if with_defense else had[DMG]) >= score:
                break
            chars[j] = before
            j -= 1
        chars[j] = c


def _doubles_up(c: Char, card: PowerCard) -> bool:
    """Equipment ``c`` wears already modifies an ability this equipment modifies."""
    for e in c.equipment:
        for a, _ in e.card.modifiers:  # type: ignore[union-attr]
            for b, _ in card.modifiers:
                if a == b:
                    return True
    return False


def _combat_modifiers(card: PowerCard, game: Game | None = None) -> dict[str, int]:
    """The additive damage/defense bonuses of a power card (printed, or in its encoded text for
    the round), for weighing it in combat."""
    out: dict[str, int] = {
        a: m.value
        for a, m in card.modifiers
        if a in ("damage", "defense") and m.op == "+" and m.value > 0
    }
    if game is not None and card.id in game.fx:
        mine, theirs = combat_flash_mods(game, card)
        for group in mine:
            for a, m in group:
                if a in ("damage", "defense") and m.op == "+" and m.value > 0:
                    out[a] = out.get(a, 0) + m.value
        for group in theirs:  # weakening the disaster helps as much as strengthening oneself
            for a, m in group:
                if a in ("damage", "defense") and m.op == "+" and m.value < 0:
                    mine_a = "defense" if a == "damage" else "damage"
                    out[mine_a] = out.get(mine_a, 0) - m.value
    return out


def _reaches(game: Game, card: PowerCard, c: Char) -> bool:
    """A flash effect's bonus reaches this character against the disaster at its location
    (the card's text may limit it to some characters or some disasters)."""
    return not game.fx or flash_reaches(game, card, c)


def _payer(game: Game, card: PowerCard, fighters: Sequence[Char], cost: int) -> Char | None:
    """The first fighter who can play this flash effect: energy for its cost, the skills to use
    it, and its text reaching that character."""
    for c in fighters:
        if c.cur[ENE] >= cost and usable(c, card) and _reaches(game, card, c):
            return c
    return None


def _among(cards: list[Copy], x: Copy) -> bool:
    """``x`` is one of ``cards`` (by identity: a card in the hand is one object; mypyc runs
    ``any`` over a generator expression as a loop, no generator made)."""
    return any(y is x for y in cards)


def _weak(party: Sequence[Char]) -> bool:
    """One character too weak to stand alone against a typical disaster (the threshold the
    player goes on scavenging with)."""
    return len(party) < 2 and party[0].cur[DMG] + party[0].cur[DEF] < 8


def _before(far: int, prize: int, slot: int, far2: int, prize2: int, slot2: int) -> bool:
    """``(far, prize, slot) < (far2, prize2, slot2)``, without building the tuples."""
    if far != far2:
        return far < far2
    if prize != prize2:
        return prize < prize2
    return slot < slot2


# Parties step around the combat disasters they could not beat on the way to their goal (the
# goal itself may be entered), along a shortest path around, else as far as the plain route
# goes before the first (``safe_route``). Against the
# player that walked through them (benchmarks/player_paired.py, 1,000 games a deck, seed 1):
# hard +2.8 points (95% CI +0.9 to +4.7), easy +0.3 (-0.4 to +1.0), tricky +0.2 (-0.7 to +1.1),
# strike +0.1 (-0.6 to +0.8), tough +0.0 (-1.8 to +1.8), medium -0.1 (-0.8 to +0.6). Never
# entering the goal either did less (against the player before STRIKE_PATH_RISK as well:
# hard +2.0, tough +0.0, tricky +0.3, where that change alone gives -0.1, +1.0, +1.0).
AROUND_UNBEATABLE: Final = True

# A disaster carrying an item that the party can beat counts as a goal this many steps nearer
# than it stands: taking the item back moves the tally two items the player's way (one fewer for
# the disasters, one more for the player). With the path key below, against the player before
# both (benchmarks/player_paired.py, 2,000 games a deck, seed 1): easy +2.8 points, medium +3.4,
# strike +2.1, tricky +1.6, tough +2.8, hard +4.2 (every 95% interval but tricky's above 0).
# Alone, on the same paired games against one step: medium +2.0, easy +2.1, hard +1.5, strike
# +1.2, tough +0.8, tricky +0.3; two steps did less, five no more.
HUNT_STEPS: Final = 3

# A hunted disaster that will complete its cycle at the next Maintenance (its steps left on the
# path, the step off the field included, no more than its movement) counts this many steps nearer
# still: this turn is the last in which its item can be taken back. 1996 general play rules,
# "Disaster capable of movement ...": "Disasters with movement will move their full movement
# capability each Maintenance phase", and "If it completes its cycle, the Item is removed from
# play, and can't be retrieved". Against the player before (benchmarks/player_paired.py, pure
# engine, 3,000 games a deck), seed 1: strike +1.6 points (95% CI +1.0 to +2.1), tricky +1.1
# (+0.6 to +1.6), tough +0.7 (+0.3 to +1.1), medium +0.7 (+0.2 to +1.3), hard +0.6 (+0.1 to
# +1.0), easy +0.4 (-0.1 to +0.9), demo +0.0; seed 2: strike +1.3 (+0.8 to +1.8), tricky +1.1
# (+0.6 to +1.6), medium +0.9 (+0.3 to +1.5), tough +0.8 (+0.4 to +1.3), hard +0.7 (+0.2 to
# +1.2), easy +0.1 (-0.3 to +0.6). On 2,000 games of seed 1 two steps did less (tough +0.6, hard
# +0.3) and six the same as four.
URGENT_HUNT_STEPS: Final = 4


def hunt_steps(game: Game, d: Dis) -> int:
    """How many steps nearer than it stands a hunted disaster counts as a goal: ``HUNT_STEPS``,
    and ``URGENT_HUNT_STEPS`` more when it leaves the field with its item at the next
    Maintenance."""
    if d.stationary or cycle_steps_left(d, len(game.field.path)) > d.movement:
        return HUNT_STEPS
    return HUNT_STEPS + URGENT_HUNT_STEPS


# A hunted disaster is a waypoint, not a stop: a party that reaches it with steps to spare goes on
# toward the goal it would pick from there (the other locations it may scavenge). Set0 rulebook,
# "Move Phase": "if your characters pass through or stop on a location where there is a combat
# disaster, the disaster will automatically attack your characters", so the fight comes on the
# way, and a party that defeats the disaster (taking its item) passes on with the steps it has
# left (movement.move_party); stopping there leaves those steps unused. The search player, which
# weighs plans by playing them out, turned down the heuristic's hunt in about half of the Move
# phases that had one (tough 350 of 755, tricky 435 of 835; 300 games each, seed 1), most often
# for a disaster one step away, and in most of those it went to another goal through the hunted
# disaster's location (tricky 216 of 348). Against the player that stopped there
# (benchmarks/player_paired.py, 1,000 games a deck, seed 1): tricky +9.4 points (95% CI +6.3 to
# +12.5), hard +6.4 (+3.4 to +9.4), tough +5.8 (+2.6 to +9.0), strike +4.2 (+1.7 to +6.7),
# medium +3.7 (+1.1 to +6.3), easy +1.1 (-1.0 to +3.2), demo +0.0; 2,000 a deck, seed 2: tough
# +6.3 (+4.0 to +8.6), tricky +6.3 (+4.1 to +8.6), hard +5.5 (+3.5 to +7.6), medium +2.9 (+0.9
# to +4.9), easy +2.8 (+1.2 to +4.4), strike +2.5 (+0.6 to +4.4).
HUNT_PASS_ON: Final = True


# A party that passes on past a hunted disaster (``HUNT_PASS_ON``) does so only once it has beaten
# it, and then it holds the item the disaster carried (combat.defeat_disaster: the item goes to the
# party that beat it), so its steps beyond never enter a slot where a face-up non-combat disaster
# would act on it, as an item carrier's route never does: "if your characters pass through or
# stop on a location where there is a non-combat disaster, they are automatically affected by it"
# (set0 rulebook, "Move Phase"), and Satellite Strike destroys what its victims carry. Before, the
# steps beyond avoided them only for a party already carrying an item when it set out, and a hunt
# won on the way could end with the item destroyed a step later. Against the player before
# (benchmarks/player_paired.py, 1,000 games a deck, seed 1): tricky +1.7 points (95% CI +0.8 to
# +2.6), tough +1.1 (+0.4 to +1.8), strike +1.0 (+0.3 to +1.7), easy +0.1, hard +0.0, medium
# +0.0; seed 2: tricky +1.2 (+0.4 to +2.0), tough +0.8 (+0.1 to +1.5), strike +0.8 (+0.1 to
# +1.5), medium +0.4, hard +0.3, easy +0.1.
HUNT_SPOILS_SAFE: Final = True


def beyond_hunt_avoid(carrying: bool, harm: list[int]) -> list[int]:
    """The slots the steps past a hunted disaster keep off (``HUNT_SPOILS_SAFE``): those of
    ``harm`` (:func:`_harm_slots`) whenever the party will carry an item there, which after a
    won hunt it always does; before the rule, only when it set out ``carrying``."""
    return harm if carrying or HUNT_SPOILS_SAFE else []


def _path_scale(game: Game) -> tuple[int, tuple[int, ...]]:
    """The goal search's path key: a multiplier for distances greater than any path position,
    and each slot's position on the disaster path. Between goals equally far, the one further
    along the path comes first: disasters enter at the path's start (set0 rulebook,
    "Maintenance Phase") and take the items of the locations they reach first, and a party
    further on stands where they pass with what they carry before leaving the field. Measured
    alone, 2,000 paired games: hard +2.2 points, tough +1.6, strike +1.3, easy +1.1, tricky
    +0.7, medium +0.5 (each interval but hard's includes 0; with ``HUNT_STEPS`` see there)."""
    index = game.field.path_index
    return len(index) + 1, index


def _distances_from(game: Game, anchor: int) -> tuple[tuple[int, ...], int]:
    """The distances from ``anchor`` to every slot, and the steps to add to them: from the
    haven (HAVEN), one more, the step into the field."""
    if anchor == HAVEN:
        return game.dist[game.field.haven_slot], 1
    return game.dist[anchor], 0


class _Party:
    """A party as the goal search asks about it: its damage, summed when first read (a location
    prints a defense more rarely than not), and its skills counted once a second location's
    listing asks (the nearest goal is most often the first asked, and one listing's few skills
    are summed faster than all of a party's are counted)."""

    def __init__(self, members: list[Char]) -> None:
        self.members = members
        self._damage = -1
        self._asked = False
        self._totals: dict[str, int] | None = None
        self._opens = -1  # may_unlock, once asked (-1: not yet)

    def of(self, members: list[Char]) -> _Party:
        """This view made over for ``members`` (``_PARTY``: one view, no object a goal search),
        as new."""
        self.members = members
        self._damage = -1
        self._asked = False
        self._totals = None
        self._opens = -1
        return self

    def may_unlock(self, game: Game) -> bool:
        """``queries.may_unlock`` for the members, asked once: without it, a location whose
        listing the party does not meet asks ``unlocked`` of every member's cards again (in
        long games, a tenth of the player's time)."""
        if self._opens < 0:
            self._opens = 1 if may_unlock(game, self.members) else 0
        return self._opens == 1

    def damage(self) -> int:
        """The members' damage together."""
        damage = self._damage
        if damage < 0:
            damage = 0
            for c in self.members:
                damage += c.cur[DMG]
            self._damage = damage
        return damage

    def totals(self) -> dict[str, int] | None:
        """The party's skill totals (cardrules.skill_totals), or None on the first ask."""
        if not self._asked:
            self._asked = True
            return None
        if self._totals is None:
            self._totals = skill_totals(self.members)
        return self._totals


class _LocDefenses:
    """Each location card's printed defense by its copy's uid (a setup deals a location the same
    uid in every game, wherever the layout puts it), with the card it was read from (a location
    card is the construction layer's, an interpreted class: its attribute is looked up by name,
    a list slot is read)."""

    def __init__(self) -> None:
        self.cards: list[object] = []
        self.values: list[int | None] = []


_LOC_DEFENSES: Final = _LocDefenses()


def _loc_defense(loc: Loc) -> int | None:
    """The printed defense of the card of ``loc`` (None where it prints none)."""
    card = loc.card
    uid = loc.copy.uid
    if uid < 0 or uid >= MEMO_UIDS:
        return card.defense
    keep = _LOC_DEFENSES
    cards = keep.cards
    if uid < len(cards) and cards[uid] is card:
        return keep.values[uid]
    while len(cards) <= uid:
        cards.append(None)
        keep.values.append(None)
    dfn = card.defense
    cards[uid] = card
    keep.values[uid] = dfn
    return dfn


# The view the goal searches (``_targets``, ``_nearest_from``) make over for their party each
# time (``_Party.of``): neither asks another search while it reads the view.
_PARTY: Final = _Party([])


# Steps of risk the goal search adds to a location for each face-up non-combat disaster that
# acts and will pass it in its next movement (a party that stops there to scavenge waits for it:
# it acts on the characters it meets as it moves, movement.move_disaster; Satellite Strike bonks
# them all and destroys what they carry and the items beneath). A disaster standing at a location
# counts 3. Six, with a major disaster's path followed past the field's end into its next cycle
# (before: 3, and the path stopped at the end), against the player before both (benchmarks/
# player_paired.py, 1,000 games a deck, seed 1): tough +1.2 points (95% CI +0.2 to +2.2), tricky
# +1.0 (+0.1 to +1.9), strike +0.7 (-0.1 to +1.5), medium +0.5 (-0.1 to +1.1), easy +0.3 (-0.1
# to +0.7), hard +0.1 (-0.6 to +0.8); the longer path alone, tricky +0.4 (-0.3 to +1.1); nine
# steps, tricky +0.7.
STRIKE_PATH_RISK: Final = 6


class _DangerRow:
    """The list ``_danger_slots`` hands out, kept from call to call (one slot per location),
    and whether its last call wrote any (then it sets them back to 0 first)."""

    def __init__(self) -> None:
        self.row: list[int] = []
        self.written = False


_DANGER: Final = _DangerRow()


def _danger_slots(game: Game) -> list[int]:
    """Three steps of risk at a location for each disaster there that fights or acts, and
    ``STRIKE_PATH_RISK`` for each location a face-up non-combat disaster that acts will pass in
    its next movement (it acts on the characters it meets as it moves: movement.move_disaster,
    set0 rulebook "Maintenance Phase"), where a party that stops to scavenge would wait for it;
    a major disaster's path goes on past the field's end into its next cycle. By slot: 0 where
    there is none. The list is ``_DANGER``'s, written again by the next call: the callers read
    it before they ask again and keep none."""
    keep = _DANGER
    danger = keep.row
    n = len(game.locs)
    if len(danger) != n:
        danger = [0] * n
        keep.row = danger
    elif keep.written:
        for i in range(n):  # back to 0 where the last call wrote, not a new list
            danger[i] = 0
    keep.written = False
    path = game.field.path
    last = len(path) - 1
    for d in game.disasters:
        if d.combat or harmful(d):
            slot = path[d.pos]
            danger[slot] = danger[slot] + 3  # (not +=: a list item added to as an object)
            keep.written = True
            if d.combat or d.stationary or d.ally_of is not None:
                continue
            step = -1 if d.backward else 1
            pos = d.pos
            for _ in range(d.movement):
                pos += step
                if pos < 0 or pos > last:
                    if not d.major:
                        break
                    # A major disaster leaving the field "goes back to the top and rightmost
                    # location card ... to start its cycle again. Returning the major disaster
                    # to the field does not cost it any movement" (set0 rulebook, "Maintenance
                    # Phase"): the step off the field lands it at the path's start
                    # (movement._leave_field), the other end for one moving back.
                    pos = last if d.backward else 0
                slot = path[pos]
                danger[slot] = danger[slot] + STRIKE_PATH_RISK
    return danger


def _danger(game: Game) -> dict[int, int]:
    """:func:`_danger_slots` by slot, for the slots at any risk."""
    return {s: v for s, v in enumerate(_danger_slots(game)) if v}


# A party that carries no item never retreats from a disaster that carries one: a won fight takes
# the item back (combat.defeat_disaster: it goes to the party that beat the disaster), two items
# the player's way, while the party has no item a lost fight could cost it, and a retreat is no
# free way out either (set0 rulebook, "Declare Retreat": the disaster deals its damage to one of
# the retreating characters, who deal none back). Against the player that retreated from every
# full-health disaster it did not expect to beat (benchmarks/player_paired.py, 1,000 games a
# deck, seed 1): hard +3.6 points (95% CI +2.1 to +5.1), tricky +1.9 (+0.8 to +3.0), medium +1.3
# (-0.5 to +3.1), tough +1.1 (-0.1 to +2.3), strike +1.1 (+0.1 to +2.1), easy +0.8 (-1.0 to
# +2.6); 2,000 games, seed 2: hard +2.1, tough +1.7, tricky +1.5, strike +1.5, medium +0.5,
# easy -0.2 (-1.5 to +1.1). Fighting on against every disaster when the party carries nothing
# lost tough 4.6 points (a Kishiime no one can hurt); fighting on only where the party's best
# hitters get past the disaster's defense gained less on tricky and tough (+0.2, +0.3). It does
# not fight on against one it cannot hurt at all (Kishiime, but for Speed: ``can_hurt``); under
# the held hand, against the player that did (2,000 games a deck, seed 1): hard +0.7 (+0.1 to
# +1.2), tough +0.9 (+0.4 to +1.3); by the top damage against the defense instead, hard -2.5,
# rough -5.2 (the combat cards' bonuses get past it).
FIGHT_FOR_ITEMS: Final = True


def fights_for_item(game: Game, d: Dis, chars: list[Char]) -> bool:
    """``FIGHT_FOR_ITEMS``: the disaster carries an item and none of ``chars`` carries one, so
    the party fights on rather than retreats (a fight lost costs health, never an item), unless
    it cannot hurt the disaster at all (:func:`can_hurt`: Kishiime but for Speed)."""
    if not FIGHT_FOR_ITEMS or not d.carrying:
        return False
    return all(not c.items for c in chars) and can_hurt(game, chars, d)


# A retreating party that cannot reach the haven goes to the location where the goal search sees
# the least risk (``_danger``: disasters that fight or act there, and where a face-up non-combat
# disaster will pass in its next movement, acting on the characters it meets: set0 rulebook,
# "Maintenance Phase"), then the nearest the haven; before, the nearest the haven alone. The
# rules let it "move one location in any legal direction" ("Declare Retreat"). Against the player
# before (paired games, FIGHT_FOR_ITEMS in both; 1,000 a deck, seed 1): medium +0.7 points (95% CI
# +0.1 to +1.3), tough +0.6 (-0.3 to +1.5), easy +0.2, hard +0.0, tricky -0.1 (-0.6 to +0.4),
# strike -0.3 (-0.7 to +0.1); 2,000 a deck, seed 2: tough +0.9 (+0.2 to +1.5), hard +0.6 (+0.1 to
# +1.1), medium +0.3, tricky +0.2, strike +0.2, easy +0.1. With FIGHT_FOR_ITEMS, against the
# player before both (benchmarks/player_paired.py, 1,000 games a deck, seed 1): hard +3.6 (+2.0
# to +5.2), medium +2.0 (+0.1 to +3.9), tricky +1.8 (+0.6 to +3.0), tough +1.7 (+0.2 to +3.2),
# easy +1.0 (-0.9 to +2.9), strike +0.8 (-0.3 to +1.9). Carriers to the haven and the others to
# the field's least risk lost hard 3.2 points.
RETREAT_AWAY_FROM_RISK: Final = True


# A party carrying items declares no scavenge where a disaster still lies face down above the
# item: each one is revealed to be fought or suffered before the item ("Scavenge Phase": "all
# disaster cards underneath the location must be cleared"), a combat disaster attacks the
# carriers first ("Determine Attackers": "Priority of a disaster's attack will be against
# characters who are carrying item cards"), and a Satellite Strike destroys what its victims
# carry: the items the party holds are staked on an item it may not reach. Its carriers take
# them home when they can reach the haven this turn (``plan_moves``), and the party scavenges
# again empty-handed. The search player declined 34% to 41% of these scavenges on strike (26%
# of an empty-handed party's), and weighing scavenging alone carried much of its lead on strike,
# tough and hard (benchmarks/search_ablation.py, 300 games, seed 1: +4.0, +8.3, +4.7 points).
# Against the player before (benchmarks/player_paired.py, 1,000 games a deck, seed 1): tough
# +6.5 points (95% CI +3.6 to +9.4), tricky +3.2 (+0.6 to +5.8), hard +3.1 (+0.2 to +6.0),
# medium +3.0 (+0.8 to +5.2), strike +2.4 (+0.4 to +4.4), easy +1.1 (-0.7 to +2.9). Only with
# two disasters face down gave the same within 0.2 points; carriers that cannot reach the haven
# this turn heading for it rather than for the goal they will not scavenge, tough -0.1, hard
# +0.0; a lone character not scavenging above two face-down disasters as well, seed 1 +0.8 to
# +1.7 on every deck but seed 2 tricky -1.7 (-3.4 to -0.0), medium +2.8.
CARRIERS_SKIP_SCAVENGE: Final = True


def carriers_skip(game: Game, party: list[Char], slot: int) -> bool:
    """``CARRIERS_SKIP_SCAVENGE``: ``party`` carries an item and a disaster lies face down under
    the location at ``slot`` (how many cards lie under a location is in plain view), so it does
    not scavenge there."""
    if not CARRIERS_SKIP_SCAVENGE or not game.locs[slot].hidden_disasters:
        return False
    return any(c.items for c in party)


# A party declares no scavenge where a disaster lies face down while at least half of the
# disasters the player has not seen are ones it could not beat in a fight (``can_beat``) or major
# non-combat ones (Satellite Strike, The Dead Zone): each face-down disaster is revealed and fought
# or suffered before the item ("Scavenge Phase"); which disasters are still unseen, a player who
# built the deck counts from its list less those that came into view. The count is of the unseen
# disasters as a whole, never of where each lies (those of ``game.known`` are seen). Where the
# heuristic scavenged above a face-down disaster from turn 6 on, the search player's rollouts
# valued declining higher the larger that share: -0.10 below a fifth, -0.04 from a fifth to two,
# +0.00, +0.01 and +0.05 above (600 hard games, seed 1, benchmarks/search_diffs.py). Against the
# player before (benchmarks/player_paired.py, 3,000 games a deck), seed 1: easy +1.6 points (+0.8
# to +2.5), hard +1.5 (+0.5 to +2.5), tough +1.3 (+0.3 to +2.3), medium +0.9 (+0.1 to +1.6),
# strike +0.8 (+0.2 to +1.5), tricky +0.5 (-0.2 to +1.2); seed 2: medium +1.6 (+0.7 to +2.4),
# hard +1.5 (+0.6 to +2.5), strike +0.7, tricky +0.6, easy +0.5, tough -0.2 (-1.1 to +0.7). At two
# fifths or three fifths, and going on scavenging by the same count once a disaster is revealed,
# it did no better.
COUNTED_THREAT: Final = True


def counted_threat(game: Game, party: list[Char], slot: int) -> bool:
    """``COUNTED_THREAT``: a disaster the player has not seen lies face down under the location
    at ``slot``, and at least half of all the unseen disasters (under the locations and in the
    draw pile) are ones ``party`` could not beat or major non-combat ones."""
    if not COUNTED_THREAT:
        return False
    known = game.known
    here = game.locs[slot].hidden_disasters
    if not here or (known and all(d.uid in known for d in here)):
        return False
    # How many disasters are unseen (under the locations, then in the draw pile): counted
    # first, then each weighed in that order only until the answer is settled either way, half
    # of them bad already, or too few left to make a half (``bad * 2 >= n`` is ``bad >= need``).
    n = 0
    seen = bool(known)
    for loc in game.locs:
        if seen:
            for d in loc.hidden_disasters:
                if d.uid not in known:
                    n += 1
        else:
            n += len(loc.hidden_disasters)
    for x in game.draw_pile:
        if isinstance(x, Dis):
            n += 1
    need = (n + 1) // 2
    # The party's hardest hitters, the same against every disaster weighed: worked out once.
    top3 = _top_damage(party, 3)
    top4 = _top_damage(party, 4)
    # Whether any disaster on the field is some disaster's ally (``ally_bonus`` lends nothing
    # otherwise): asked once, not once for each disaster weighed.
    allied = False
    for a in game.disasters:
        if a.ally_of is not None:
            allied = True
            break
    bad = 0
    left = n  # the unseen disasters not yet weighed
    for loc in game.locs:
        for d in loc.hidden_disasters:
            if seen and d.uid in known:
                continue
            bad += _threat(game, party, d, top3, top4, allied)
            left -= 1
            if bad >= need or bad + left < need:
                return bad >= need
    for x in game.draw_pile:
        if isinstance(x, Dis):
            bad += _threat(game, party, x, top3, top4, allied)
            left -= 1
            if bad >= need or bad + left < need:
                return bad >= need
    return bad >= need


# The player holds its hand while the next Reload could draw a disaster: it plays no
# enhancement, equipment or global effect and discards nothing. Reload draws only until the hand
# holds 7 cards or a disaster is drawn, and equipping and discarding are the player's to choose
# (set0 rulebook, "Reload Phase"; "Equip Phase", "You may play one enhancement card"; "Discard
# Phase", "You may discard any number of cards"; the 1996 rules the same): a full hand draws
# nothing, so no disaster comes from the pile (in the sample decks the pile left after the
# opening hand is mostly disasters) and the ones dealt face down are met one by one. Once
# ``IDLE_TURNS`` turns pass with nothing changed under the locations or in the items the player
# holds, it plays as before (with no bound, 9-15% of tricky and tough games stalled on a hand
# it would never play). Against the player before (benchmarks/player_paired.py, 1,000 games a
# deck, seed 1, pure engine): hard 38.3% -> 64.1% (+25.8 points, 95% CI +21.9 to +29.7),
# tough 62.8% -> 94.2% (+31.4, +28.2 to +34.6); the README's ladder has every deck.
HOLD_HAND: Final = True
IDLE_TURNS: Final = 3
# While the hand is held and no disaster is face up, a party does not scavenge above a face-down
# disaster while one of the player's characters is bonked: it comes back within a turn, and
# nothing on the field moves meanwhile.
WAIT_FOR_BONKED: Final = True


def _hold_signature(game: Game) -> int:
    """What the held hand waits on: the cards face down under the locations and the items the
    player holds (carried or in a haven), as one number."""
    under = 0
    for loc in game.locs:
        under += len(loc.hidden_disasters) + len(loc.hidden_cards)
    held = len(game.haven_cards)
    for c in game.chars:
        held += len(c.items)
    return under * 65536 + held


def holds_hand(game: Game) -> bool:
    """``HOLD_HAND``: the next Reload could draw a disaster, and the game has moved in the last
    ``IDLE_TURNS`` turns. Remembers on the game (``hold_mark``) when it last moved."""
    if not HOLD_HAND or not draw_may_bring_disaster(game):
        return False
    sig = _hold_signature(game)
    mark, since = game.hold_mark
    if sig != mark:
        game.hold_mark = (sig, game.turn)
        return True
    return game.turn - since < IDLE_TURNS


def waits_for_bonked(game: Game, slot: int) -> bool:
    """``WAIT_FOR_BONKED``: hold off scavenging above a face-down disaster at ``slot`` while the
    hand is held, no disaster is face up and a character of the player's is bonked."""
    if not WAIT_FOR_BONKED or game.disasters or not game.locs[slot].hidden_disasters:
        return False
    if not any(c.zone == "bonked" for c in game.chars):
        return False
    return holds_hand(game)


def _threat(game: Game, party: list[Char], d: Dis, top3: int, top4: int, allied: bool) -> int:
    """1 when ``d`` is a disaster ``counted_threat`` counts against the party, else 0
    (``top3``, ``top4``: the damage of the party's 3 and 4 hardest hitters, ``_top_damage``;
    ``allied``: some disaster on the field is an ally)."""
    if d.combat:
        return 0 if _can_beat(game, party, d, True, top3, top4, allied) else 1
    return 1 if d.major else 0


def retreat_risk(danger: dict[int, int], slot: int) -> int:
    """The steps of risk the goal search counts at ``slot`` (``_danger``), which a retreating
    party that cannot reach the haven keeps as low as it can (``RETREAT_AWAY_FROM_RISK``)."""
    return danger.get(slot, 0)


def _unbeatable_slots(game: Game, party: list[Char]) -> list[int]:
    """The slots where a face-up combat disaster stands that ``party`` could not beat
    (:func:`can_beat`): "if your characters pass through or stop on a location where there is a
    combat disaster, the disaster will automatically attack your characters" (set0 rulebook,
    "Move Phase"), and a fight the party does not win ends its move there
    (movement.move_party). A disaster incapacitated this turn (a won charm battle) fights no
    one."""
    out: list[int] = []
    path = game.field.path
    turn = game.turn
    for d in game.disasters:
        if not d.combat or d.ally_of is not None or d.pos < 0 or d.incapacitated_turn == turn:
            continue
        slot = path[d.pos]
        if slot not in out and not can_beat(game, party, d):
            out.append(slot)
    return out


# A party whose best fighters get past a disaster's defense counts as able to beat it when they
# would take its health within this many rounds (before: three). Set0 rulebook, "Health": "Loss
# of health is cumulative during combat", so a disaster they hurt at all is worn down round after
# round, and a retreat is no free way out ("Declare Retreat": the disaster deals its damage to one
# of the retreating characters, who deal none back); the count decides whether the party fights on
# or retreats, which disasters it hunts and which it steps around (``can_beat``). Against the
# player that counted three (benchmarks/player_paired.py, 1,000 games a deck, seed 1): hard +1.7
# points (95% CI +0.3 to +3.1), tricky +0.7 (-0.2 to +1.6), tough +0.3 (-0.6 to +1.2), medium
# +0.2, strike +0.2, easy -0.4 (-1.6 to +0.8); 2,000 a deck, seed 2: hard +0.6 (-0.3 to +1.5),
# strike +0.6 (-0.1 to +1.3), medium +0.4, tricky +0.4, easy +0.4, tough +0.1. Most of it is the
# retreat (counted there alone, seed 1: hard +1.1, +0.1 to +2.1); five rounds did less (hard +0.6),
# any number of rounds as much (hard +1.5); weighing instead who the disaster would knock out
# first, round by round, lost hard 13.5 points.
WEAR_DOWN_ROUNDS: Final = 8


def can_beat(game: Game, party: list[Char], d: Dis) -> bool:
    """A rough estimate: the best fighters take the disaster's health (its base defense) within
    ``WEAR_DOWN_ROUNDS`` rounds, against its current defense; or the party can defeat it a
    special way (the costlier question, asked second). Those it takes no damage from (SHIELD:
    Kishiime but for Speed) do not count."""
    return _can_beat(game, party, d, False, 0, 0, True)


def _can_beat(
    game: Game, party: list[Char], d: Dis, tops: bool, top3: int, top4: int, allied: bool
) -> bool:
    """:func:`can_beat`; given ``tops``, ``top3`` and ``top4`` are the party's
    ``_top_damage(party, 3)`` and ``(party, 4)``, worked out once by a caller that asks about
    many disasters. Without ``allied`` no disaster is an ally, so none lends ``d`` defense."""
    dfn = d.defense + horde_bonus(game, d)
    if allied:
        dfn += ally_bonus(game, d)[1]
    cap = 4 if d.major else 3
    hitters = _hitters(game, party, d)
    if hitters is not None:
        per_round = _top_damage(hitters, cap) - dfn
    elif tops:
        per_round = (top4 if cap == 4 else top3) - dfn
    else:
        per_round = _top_damage(party, cap) - dfn
    if per_round > 0 and per_round * WEAR_DOWN_ROUNDS >= d.health_max:
        return True
    return bool(game.fx) and special_defeat(game, party, d)


def _hitters(game: Game, party: list[Char], d: Dis) -> list[Char] | None:
    """Those of the party the disaster takes damage from when its SHIELD names whom it takes
    none from (Kishiime: all but Speed); None when it has no shield."""
    shields = standing_or_none(d.fx, ACT_SHIELD) if game.fx else None
    if not shields:
        return None
    return [c for c in party if not any(fits(e, c) for e in shields)]


def can_hurt(game: Game, party: list[Char], d: Dis) -> bool:
    """Whether some character of the party can deal the disaster damage at all (its SHIELD
    aside, :func:`_hitters`), or it can be defeated a special way."""
    hitters = _hitters(game, party, d)
    return hitters is None or bool(hitters) or special_defeat(game, party, d)


def known_outlook(game: Game, party: list[Char], slot: int) -> tuple[int, int]:
    """How a location the player has looked under (REVEAL) weighs as a goal: 3 more steps for
    each known disaster the party could not beat (a combat one) or that would act on it (a
    harmful non-combat one); and, between goals equally far, -1 where it knows an item lies
    and no such disaster guards it (as a tie-break only: nearly every location hides an item,
    and weighing it as a step made the player do worse in measured runs). (0, 0) for what it
    has not seen."""
    dis, items = known_under(game, slot)
    bad = sum(1 for d in dis if (not can_beat(game, party, d) if d.combat else harmful(d)))
    return 3 * bad, -1 if items and not bad else 0


def known_threat(game: Game, party: list[Char], slot: int) -> bool:
    """The next face-down disaster here is one the player has seen and the party could not beat
    (REVEAL); an unseen one is never a known threat."""
    loc = game.locs[slot]
    if not loc.hidden_disasters:
        return False
    d = loc.hidden_disasters[0]
    return d.uid in game.known and d.combat and not can_beat(game, party, d)


class _Flash:
    """What ``combat_flash`` weighs of a flash effect in the hand, all of it fixed by the card
    and its encoded text (the run's, the same for every game): worked out once per card
    instead of once per card and combat round, with the card and its text kept to check the
    entry is theirs."""

    __slots__ = (
        "bonus", "card", "cost", "damage", "defense", "guards", "held", "hits", "plain", "text"
    )  # fmt: skip

    def __init__(self, game: Game, card: PowerCard, text: Triggers | None) -> None:
        self.card = card
        self.text = text
        # Kept for the round it finishes the disaster (frail_blow), or for a charm battle it
        # turns (held_for_charm); without a text neither holds.
        self.held = text is not None and (frail_times(game, card) != 1 or charm_only(game, card))
        self.cost = card.energy_cost or 0
        mods = _combat_modifiers(card, game)
        self.bonus = bool(mods)
        self.plain = not mods and combat_only(game, card)  # encoded combat effects only
        self.guards = "defense" in mods
        self.defense = mods.get("defense", 0)
        self.hits = "damage" in mods
        self.damage = mods.get("damage", 0)


class _OddsRows:
    """The entries of one charm odds table (``HeuristicPolicy._charm_odds``, held: its
    identity is the key) for one make-up's number, by disaster charm then charm: list slots
    read where the table's keys would be made, boxed and hashed. The odds of a key never change
    (``charm_chance`` of the make-up's halves), so these are the table's own entries. Another
    table or make-up gets a new object in place of this one (never this one emptied), so the
    threads of other runs never read one table's rows under another's name."""

    def __init__(self, table: dict[int, tuple[float, float]] | None, makeup: int) -> None:
        self.table = table
        self.makeup = makeup
        self.rows: list[list[tuple[float, float] | None]] = []

    def keep(self, mine: int, theirs: int, odds: tuple[float, float]) -> None:
        rows = self.rows
        while len(rows) <= theirs:
            rows.append([])
        row = rows[theirs]
        while len(row) <= mine:
            row.append(None)
        row[mine] = odds


class _Kept:
    """What the players read last, shared by every player (a rollout's player reads its search
    player's tables: search._Forced): the odds rows of the table and make-up read last, the
    starting choice read last. Each is replaced whole, by one attribute store, so the threads
    of other runs read one or another, never one half written."""

    __slots__ = ("odds", "starters")

    def __init__(self) -> None:
        self.odds = _OddsRows(None, -1)
        self.starters: _StartersSeen | None = None


_KEPT: Final = _Kept()


class _CardMemo:
    """What the player worked out about one power card in the hand, read by the card's uid (a
    list slot, where ``HeuristicPolicy._bonus`` and ``_flash`` each look the card's id up): its
    combat bonuses (``_bonuses``) and what ``combat_flash`` weighs of it (``_Flash``), each
    taken from those tables when first asked. Both are a function of the card and its encoded
    text alone (the tables' own check), so the entry is the card's while the card and its text
    (``game.fx``'s entry, held: its identity is never another's) are the ones it was made for."""

    __slots__ = ("card", "flash", "mods", "text")

    def __init__(self, card: PowerCard, text: Triggers | None) -> None:
        self.card = card
        self.text = text
        self.mods: dict[str, int] | None = None
        self.flash: _Flash | None = None


# Uids from 0 to below this have a slot in ``_MEMO`` (a game's uids count its cards from 0:
# setup.py); another, if any, is looked up by card id alone.
MEMO_UIDS: Final = 4096

# ``_CardMemo`` by uid, shared by every player (an entry is a function of its card and text).
_MEMO: Final[list[_CardMemo | None]] = []


def _memo(x: Copy | Char, card: PowerCard, text: Triggers | None) -> _CardMemo | None:
    """``x``'s entry of ``_MEMO`` for ``card`` (its card) and ``text`` (its encoded text), made
    when it has none or one for another card or text; None for a uid without a slot."""
    uid = x.uid
    memo = _MEMO
    if 0 <= uid < len(memo):
        e = memo[uid]
        if e is not None and e.card is card and e.text is text:
            return e
    elif not 0 <= uid < MEMO_UIDS:
        return None
    while len(memo) <= uid:
        memo.append(None)
    e = _CardMemo(card, text)
    memo[uid] = e
    return e


class _StartersSeen:
    """The last starting choice read from a table of ``HeuristicPolicy._starters`` (held: its
    identity is the key) and what its key was made of: the characters' game-time records in
    their order, and the locations' by their copies' uids (a setup deals a location the same
    uid in every game, wherever the layout puts it). A game whose characters are those records
    in that order and whose locations are those records by uid, as many, makes the same key
    (a card's id is its record's), so its choice is this one, found without the key's ids
    gathered, sorted and hashed. Never changed once made: a new choice replaces the whole
    object (``_keep_starters``), so the threads of other runs never read one half written."""

    def __init__(
        self,
        table: dict[tuple[str, ...], tuple[int, ...]],
        chars: list[GameCard],
        locs: list[GameCard | None],
        n_locs: int,
        picks: tuple[int, ...],
    ) -> None:
        self.table = table
        self.chars = chars
        self.locs = locs
        self.n_locs = n_locs
        self.picks = picks

    def same(self, table: object, chars: Sequence[Char], locs: list[Loc]) -> bool:
        """``chars`` and ``locs`` make the key of the choice kept, for ``table``."""
        if self.table is not table or len(chars) != len(self.chars) or len(locs) != self.n_locs:
            return False
        records = self.chars
        for i in range(len(records)):
            if chars[i].g is not records[i]:
                return False
        by_uid = self.locs
        size = len(by_uid)
        for loc in locs:
            uid = loc.copy.uid
            if uid < 0 or uid >= size or by_uid[uid] is not loc.g:
                return False
        return True


def _keep_starters(
    table: dict[tuple[str, ...], tuple[int, ...]],
    chars: Sequence[Char],
    locs: list[Loc],
    picks: tuple[int, ...],
) -> None:
    """Keep ``picks``, the choice of ``table`` for ``chars`` and ``locs`` (nothing new kept
    when a location's uid has no slot)."""
    top = -1
    for loc in locs:
        uid = loc.copy.uid
        if uid < 0 or uid >= MEMO_UIDS:
            return
        top = max(top, uid)
    by_uid: list[GameCard | None] = [None] * (top + 1)
    for loc in locs:
        by_uid[loc.copy.uid] = loc.g
    _KEPT.starters = _StartersSeen(table, [c.g for c in chars], by_uid, len(locs), picks)


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicPolicy(Policy):
    """A sensible player: heads for locations it can scavenge, fights what it can beat, retreats
    from what it cannot, equips the characters who need it, and takes items home."""

    name = "heuristic"

    def __init__(self) -> None:
        # The choice depends only on the deck (every location of the deck is on the field), so
        # it is made once per deck, not once per game.
        self._starters: dict[tuple[str, ...], tuple[int, ...]] = {}
        # Charm odds by (combat pile make-up, charm, disaster charm): the make-up is read once
        # a game and is the same in every game of a deck, so the odds are worked out once.
        self._charm_game: Game | None = None
        self._halves: tuple[tuple[CharmHalf, int], ...] = ()
        self._makeup = 0  # the number standing for ``_halves`` in the keys below
        # Each make-up's number, by its halves' identities and counts (``_makeup_number``),
        # with the halves kept so that no identity is reused while the table lives.
        self._makeups: dict[
            tuple[tuple[int, int], ...], tuple[int, tuple[tuple[CharmHalf, int], ...]]
        ] = {}
        # (By one number for the three: ``_odds_key``.)
        self._charm_odds: dict[int, tuple[float, float]] = {}
        # Each combat pile's make-up and its number, by the pile's cards (``_pile_makeup``).
        self._piles: dict[
            frozenset[tuple[GameCard, int]], tuple[tuple[tuple[CharmHalf, int], ...], int]
        ] = {}
        # A flash effect's combat bonuses depend only on the card and its encoded text (the
        # run's, the same for every game), so they are worked out once per card: by card id,
        # with the card and its text kept to check the entry is theirs.
        self._bonus: dict[str, tuple[PowerCard, Triggers | None, dict[str, int]]] = {}
        # The make-up read last and its entry of ``_piles``: the record of each combat card it
        # was read from by the card's uid (None for the other uids), and how many they were.
        self._last_pile: (
            tuple[list[GameCard | None], int, tuple[tuple[tuple[CharmHalf, int], ...], int]] | None
        ) = None
        # The same for what ``combat_flash`` weighs of each flash effect (``_Flash``).
        self._flash: dict[str, _Flash] = {}
        # The edition's limits on who moves (``plan_moves``), read once for each edition.
        self._limits_of: Edition | None = None
        self._max_on_field = 0
        self._max_party = 0

    def _bonuses(self, game: Game, x: Copy | Char, card: PowerCard) -> dict[str, int]:
        """:func:`_combat_modifiers` of ``x``'s card, from the cache (read it, never change
        it): ``x``'s ``_CardMemo``, which takes it from the cache by card id when first
        asked."""
        e = _memo(x, card, game.fx.get(x.cid))
        if e is None:
            return self._bonuses_by_id(game, x, card)
        mods = e.mods
        if mods is None:
            mods = self._bonuses_by_id(game, x, card)
            e.mods = mods
        return mods

    def _bonuses_by_id(self, game: Game, x: Copy | Char, card: PowerCard) -> dict[str, int]:
        """:func:`_combat_modifiers` of ``x``'s card, from the cache by card id."""
        cid = x.cid
        text = game.fx.get(cid)
        hit = self._bonus.get(cid)
        if hit is not None and hit[0] is card and hit[1] is text:
            return hit[2]
        mods = _combat_modifiers(card, game)
        self._bonus[cid] = (card, text, mods)
        return mods

    def _makeup_number(self, halves: tuple[tuple[CharmHalf, int], ...]) -> int:
        """The number standing for a combat pile's make-up in the charm odds' keys. Looked up
        by the halves' identities (card data, shared by every game of a run) rather than by
        the halves: hashing a half runs its dataclass's interpreted ``__hash__``, once per half
        and game. Halves equal but not the same get a number each: the odds worked out for
        each are the same (``charm_chance`` reads their values)."""
        key = tuple([(id(half), n) for half, n in halves])
        known = self._makeups.get(key)
        if known is None:
            known = (len(self._makeups), halves)
            self._makeups[key] = known
        return known[0]

    def _pile_makeup(self, game: Game) -> tuple[tuple[tuple[CharmHalf, int], ...], int]:
        """:func:`charm_halves` of ``game`` and its number, read once for each make-up of the
        combat pile and its discards (counted by the cards' game-time records, shared by every
        game of a run): every game of a deck holds the same combat cards, so its first charm
        odds find them here instead of reading and sorting the halves again. A make-up read
        from another game may list halves that print alike in another order: the odds come out
        the same (``charm_chance`` sums whole counts, whatever their order).

        Most often the cards are the last make-up's: each one's uid names a card of that
        make-up with the same record, and there are as many. A game's uids are its own
        (set_up counts them), so the piles then hold exactly that make-up's cards: no tally."""
        last = self._last_pile
        if last is not None:
            table, total, found = last
            size = len(table)
            n = 0
            same = True
            for pile in (game.combat_pile, game.combat_discard):
                for x in pile:
                    g = x.g
                    if g.charm_half is None:
                        continue  # not a combat card
                    uid = x.uid
                    if uid < 0 or uid >= size or table[uid] is not g:
                        same = False
                        break
                    n += 1
                if not same:
                    break
            if same and n == total:
                return found
        by_card: dict[GameCard, int] = {}
        top = 0
        n = 0
        for pile in (game.combat_pile, game.combat_discard):
            for x in pile:
                g = x.g
                if g.charm_half is not None:  # a combat card
                    by_card[g] = by_card.get(g, 0) + 1
                    top = max(top, x.uid)
                    n += 1
        key = frozenset(by_card.items())
        known = self._piles.get(key)
        if known is None:
            halves = charm_halves(game)
            known = (halves, self._makeup_number(halves))
            self._piles[key] = known
        cards: list[GameCard | None] = [None] * (top + 1)
        for pile in (game.combat_pile, game.combat_discard):
            for x in pile:
                g = x.g
                if g.charm_half is not None and x.uid >= 0:
                    cards[x.uid] = g
        self._last_pile = (cards, n, known)
        return known

    def _odds(self, game: Game, mine: int, theirs: int) -> tuple[float, float]:
        if self._charm_game is not game:
            self._charm_game = game
            self._halves, self._makeup = self._pile_makeup(game)
        if not (0 <= mine < CHARM_KEY_RANGE and 0 <= theirs < CHARM_KEY_RANGE):
            return charm_chance(self._halves, mine, theirs)  # outside the keys: not kept
        rows = _KEPT.odds
        makeup = self._makeup
        if rows.table is self._charm_odds and rows.makeup == makeup:
            if theirs < len(rows.rows):
                row = rows.rows[theirs]
                if mine < len(row):
                    hit = row[mine]
                    if hit is not None:
                        return hit
        else:
            rows = _OddsRows(self._charm_odds, makeup)
            _KEPT.odds = rows
        key = (makeup * CHARM_KEY_RANGE + mine) * CHARM_KEY_RANGE + theirs
        odds = self._charm_odds.get(key)
        if odds is None:
            odds = charm_chance(self._halves, mine, theirs)
            self._charm_odds[key] = odds
        rows.keep(mine, theirs, odds)
        return odds

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        """Charm only with characters more likely than not to win, best first, and only when
        the party there could not beat the disaster in a fight (a fight it wins takes back what
        the disaster carries and removes it). An automatic charm battle goes to the likeliest
        winner."""
        if not options:
            return []
        # Best first: the likeliest to win, then the least likely to lose, then the smaller uid
        # (uids differ: the order a sort by those three gives), each put in its place as its
        # odds are read (an insertion sort of the few options).
        # (Each one's odds to win and to lose in lists beside ``ranked``, no tuple made.)
        ranked: list[Char] = []
        wins: list[float] = []
        loses: list[float] = []
        theirs = d.charm
        for c in options:
            win, lose = self._odds(game, c.cur[CHA], theirs)
            uid = c.uid
            i = len(ranked)
            while i > 0:
                w = wins[i - 1]
                lo = loses[i - 1]
                if not (
                    win > w
                    or (win == w and (lose < lo or (lose == lo and uid < ranked[i - 1].uid)))
                ):
                    break
                i -= 1
            ranked.insert(i, c)
            wins.insert(i, win)
            loses.insert(i, lose)
        picks = ranked[:automatic]
        more = [ranked[i] for i in range(automatic, len(ranked)) if wins[i] > 0.5]
        # (The fight is weighed only when someone more would charm: a query, asked or not.)
        if not more or can_beat(game, game.at(options[0].slot), d):
            return picks
        return picks + more

    def charm_action(self, game: Game, d: Dis, c: Char, options: list[str]) -> str:
        """Take the item it carries (items win the game); otherwise incapacitate it."""
        return "item" if "item" in options else "incapacitate"

    def starting_characters(self, game: Game, chars: Sequence[Char], n: int) -> list[Char]:
        """The four who together can scavenge most of the field, then the strongest."""
        if len(chars) <= n:
            return list(chars)
        seen = _KEPT.starters
        if seen is not None and seen.same(self._starters, chars, game.locs):
            return [chars[i] for i in seen.picks]
        # The characters in their order, then the locations' ids: in the order of their
        # uids, which set_up deals alike in every game of a setup (0 up to their number), else
        # sorted. Either way the key holds every id, so a key found is this deck's choice.
        locs = game.locs
        size = len(locs)
        ids = [""] * size
        for loc in locs:
            uid = loc.copy.uid
            if uid < 0 or uid >= size or ids[uid]:
                ids = sorted([loc.cid for loc in locs])
                break
            ids[uid] = loc.cid
        parts = [c.cid for c in chars]
        parts.append("|")
        parts += ids
        key = tuple(parts)
        picks = self._starters.get(key)
        if picks is None:
            picks = self._choose_starters(game, chars, n)
            self._starters[key] = picks
        _keep_starters(self._starters, chars, locs, picks)
        return [chars[i] for i in picks]

    def _choose_starters(self, game: Game, chars: Sequence[Char], n: int) -> tuple[int, ...]:
        reqs = [loc.card.requirement for loc in game.locs]
        best: tuple[int, int, tuple[int, ...]] | None = None
        for combo in itertools.combinations(range(len(chars)), n):
            party = [chars[i] for i in combo]
            covered = sum(1 for r in reqs if requirement_met(r, party))
            power = sum(c.cur[DMG] + c.cur[DEF] for c in party)
            if best is None or (covered, power) > best[:2]:
                best = (covered, power, combo)
        assert best is not None
        return best[2]

    def discards(self, game: Game) -> list[Copy | Char]:
        """Nothing while the hand is held (:func:`holds_hand`); else the cards the engine cannot
        play (flash effects, power no one can use), played out of the hand as if their text
        happened, so the hand keeps drawing as a human's would."""
        if holds_hand(game):
            return []
        out: list[Copy | Char] = []
        chars: list[Char] | None = None  # who could use a card, listed when first needed
        for x in game.hand:
            g = x.g
            kind = g.kind
            if PLAYED_OUT_BITS >> kind & 1:
                card = x.card
                kept = isinstance(card, _POWER_CARD) and (
                    bool(self._bonuses(game, x, card))
                    # Without encoded text none of these keeps it.
                    or (
                        x.cid in game.fx
                        and (
                            keep_for_combat(game, card)
                            or waits_for_a_use(game, card)
                            or (
                                isinstance(x, Copy)
                                and waits_to_turn(game, card, self.flash_target(game, x))
                            )
                        )
                    )
                )
                if not kept:
                    out.append(x)
            elif kind == KIND_EQUIPMENT:
                if chars is None:
                    chars = [c for c in game.chars if c.zone in ("field", "haven", "hand")]
                if not any(can_use(c, g) for c in chars):
                    out.append(x)
            elif kind == KIND_GLOBAL_EFFECT:
                req = g.requirement
                if req is not None:
                    if chars is None:
                        chars = [c for c in game.chars if c.zone in ("field", "haven", "hand")]
                    if not met(req, chars):
                        out.append(x)  # nobody to meet its requirement (Palace Guard: Royalty)
            elif kind == KIND_ITEM:
                out.append(x)
        return out

    def power_card(self, game: Game, kind: CardType, anywhere: bool) -> tuple[Copy, Char] | None:
        """The card of this kind and the character it helps most: ten points for each point of
        damage and defense it adds, less the character's own (the weaker gain more from it)."""
        # (The Equip phase's two kinds compared by identity, not looked up by the enum.)
        if kind is TYPE_EQUIPMENT:
            want = KIND_EQUIPMENT
        elif kind is TYPE_ENHANCEMENT:
            want = KIND_ENHANCEMENT
        else:
            want = KIND_OF_TYPE[kind]
        for x in game.hand:
            if x.g.kind == want:
                break
        else:
            return None
        if holds_hand(game):
            return None
        targets = equip_targets(game, kind, anywhere)
        if not targets:
            return None
        best: Copy | None = None
        best_char = targets[0]
        best_score = 0
        for x in game.hand:
            g = x.g
            if g.kind != want:
                continue
            card = x.card
            if not isinstance(card, _POWER_CARD):
                continue
            lost = forfeited(game, card) if g.cid in game.fx else ()
            unique = want == KIND_EQUIPMENT and bool(g.mod_slots)
            for c in targets:
                if not can_use(c, g):
                    continue
                # (may_equip holds but for equipment on the field: ``want`` is the card's kind.)
                if want == KIND_EQUIPMENT and c.zone == "field" and not may_equip(game, c, card):
                    continue
                if lost and any(c.skill_counts.get(s, 0) > 0 for s in lost):
                    continue  # it would take a skill the character holds (Blasters: Chi)
                if unique and _doubles_up(c, card):
                    continue
                cur = c.cur  # (read once: each read copies its five values)
                dmg, dfn = cur[DMG], cur[DEF]
                gain = 0  # what the card's damage and defense modifiers add
                for slot, mod in g.mod_slots:
                    if slot == DMG:
                        gain += apply_mod(mod, dmg) - dmg
                    elif slot == DEF:
                        gain += apply_mod(mod, dfn) - dfn
                score = gain * 10 - dmg - dfn
                if (best is None or score > best_score) and isinstance(x, Copy):
                    best, best_char, best_score = x, c, score
        return (best, best_char) if best is not None else None

    def global_effect(self, game: Game) -> Copy | None:
        for x in game.hand:
            if x.g.kind == KIND_GLOBAL_EFFECT:
                assert isinstance(x, Copy)
                if holds_hand(game):
                    return None
                if self._worth_playing(game, x):
                    return x
        return None

    def _worth_playing(self, game: Game, x: Copy) -> bool:
        """A global effect whose requirement nobody in play meets (Palace Guard: Royalty) waits;
        so does one that sends a party straight to a location (Shortcut) until its next target
        lies beyond the party's own movement."""
        card = x.card
        assert isinstance(card, PowerCard)
        if card.requirement is not None:
            in_play = [c for c in game.chars if c.zone in ("field", "haven")]
            if not requirement_met(card.requirement, in_play):
                return False
        if game.fx and sends_to_goal(game, card):
            on = self.flash_target(game, x)
            if on is None or on.zone != "field":
                return False
            party = game.at(on.slot)
            goal = self.destination(game, party)
            return goal >= 0 and game.dist[on.slot][goal] > party_movement(game, party)
        return True

    def destination(self, game: Game, party: list[Char]) -> int:
        """The nearest location the party can scavenge, as its moves would pick."""
        if not party or party[0].zone != "field":
            return -1
        here = party[0].slot
        targets = [s for s in self._targets(game, party) if s != here]
        goal = self._pick_goal(game, here, targets, [])
        return -1 if goal is None else goal

    def _targets(self, game: Game, party: list[Char]) -> list[int]:
        """The locations the party may stop at and scavenge."""
        view = _PARTY.of(party)
        return [loc.slot for loc in game.locs if self._scavengeable(game, view, loc)]

    def _scavengeable(self, game: Game, party: _Party, loc: Loc) -> bool:
        """May the party stop at this location and scavenge it: something is left beneath, and
        the party beats its defense, or meets its skill listing, or holds a card's way in."""
        if not (loc.hidden_disasters or loc.hidden_cards) or loc.destroyed:
            return False
        if not loc.hidden_cards and _items_elsewhere(game):
            return False  # only disasters beneath: nothing to gain while items lie elsewhere
        members = party.members
        if not can_stop(game, members, loc.slot):
            return False
        if game.acts and barred(game, members, loc.slot):
            return False
        dfn = _loc_defense(loc)
        if dfn is not None and party.damage() > dfn:
            return True
        req = loc.g.requirement
        assert req is not None  # a location's listing
        return met(req, members, party.totals()) or (
            bool(game.fx) and party.may_unlock(game) and unlocked(game, members, loc.slot)
        )

    def moves(self, game: Game, edition: Edition) -> list[Move]:
        return self.plan_moves(game, edition, None)

    def plan_moves(self, game: Game, edition: Edition, goal_slot: int | None) -> list[Move]:
        """The Move phase's plans: toward the goal this player picks, or ``goal_slot`` when
        given (a player weighing other goals: ``search.py``)."""
        if self._limits_of is not edition:  # an edition's rules are frozen: read once
            self._limits_of = edition
            self._max_on_field = edition.play.max_on_field
            self._max_party = edition.play.max_party or 0  # (None: no limit)
        everyone: list[Char] = []  # those on the field, then (below) some in the haven
        haven: list[Char] | None = None  # (made when someone is there)
        here = -1  # the slot of the first on the field, and whether the others all stand there
        together = True
        for c in game.chars:
            zone = c.zone
            if zone == "field":
                everyone.append(c)
                if here < 0:
                    here = c.slot
                elif c.slot != here:
                    together = False
            elif zone == "haven":
                if haven is None:
                    haven = [c]
                else:
                    haven.append(c)
        room = self._max_on_field - len(everyone)
        if room > 0 and haven:  # the strongest in the haven join while there is room
            _rank(haven, 0, True)
            if everyone:
                together = False  # the field's and the haven's start apart
            else:
                here = HAVEN
            for i in range(min(room, len(haven))):  # (not ``+= haven[:room]``: no slice)
                everyone.append(haven[i])
        max_party = self._max_party
        if max_party:
            everyone = everyone[:max_party]
        if not everyone:
            return []
        # The groups by where they start (a slot, or HAVEN) in the order first met: a few, so
        # two lists read by position rather than a dictionary. Most often everyone starts
        # together: then ``everyone`` is the one group (no list of it made; nothing here
        # changes a party's list, and neither does the Move phase).
        starts: list[int]
        groups: list[list[Char]]
        if together:
            starts = [here]
            groups = [everyone]
        else:
            starts = []
            groups = []
            for c in everyone:
                start = c.slot if c.zone == "field" else HAVEN
                for i in range(len(starts)):
                    if starts[i] == start:
                        groups[i].append(c)
                        break
                else:
                    starts.append(start)
                    groups.append([c])
        # Carriers take their items to the haven whenever they can reach it this turn (a
        # carried item is one a disaster can still take or destroy; measured, 1,000 paired
        # games under item_pickup=through: tricky +10.5 points, strike +9.1, medium +4.8,
        # tough +3.4, hard -1.7 within its noise); a disaster the party can beat that carries an
        # item is worth hunting.
        hunt: list[Dis] = []
        if goal_slot is None:
            for d in game.disasters:
                live = d.combat and d.incapacitated_turn != game.turn
                if live and d.carrying and can_beat(game, everyone, d):
                    hunt.append(d)
        first = 0  # the largest group (the first of the largest)
        size = 0
        for i in range(len(groups)):
            if len(groups[i]) > size:
                first, size = i, len(groups[i])
        anchor = starts[first]
        goal = goal_slot
        if goal is None and game.known:
            targets = self._targets(game, everyone)
            goal = self._pick_goal(game, anchor, targets, hunt, everyone)
        elif goal is None:
            goal = self._nearest_goal(game, anchor, everyone, hunt)
        hunted = goal is not None and HUNT_PASS_ON and any(game.slot_of(d) == goal for d in hunt)
        # The largest group plans first; the others join it where it will stand rather than
        # set out for the goal on their own, ahead of or apart from the party.
        plans: list[Move] = []
        home = game.field.haven_slot
        meet: int | None = None
        harm = _harm_slots(game)
        for k in range(len(groups)):
            # The anchor's group first, then the others in their order.
            i = first if k == 0 else (k - 1 if k <= first else k)
            start = starts[i]
            party = groups[i]
            budget = -1  # the party's movement, worked out when first needed
            carrying = start != HAVEN and any(c.items for c in party)
            if carrying and _empty_handed(party) >= CARRY_ALONE_REST:
                # The carriers alone take the items home this turn; the others go on.
                carriers, rest = _carriers_apart(party)
                route = _home_route(game, start, party_movement(game, carriers), harm)
                if route and route[-1] == HAVEN:
                    plans.append((carriers, route))
                    party = rest
                    carrying = False
            if carrying:
                budget = party_movement(game, party)
                back = game.dist[start][home] + 1
                if back <= budget:
                    route = _home_route(game, start, budget, harm)
                    if route:
                        plans.append((party, route))
                        continue
            dest = goal
            if start != anchor and meet is not None:
                dest = meet
            if dest is None or start == dest:
                if start == anchor:
                    meet = None if start == HAVEN else start
                continue
            if budget < 0:
                budget = party_movement(game, party)
            # No party walks through a combat disaster it could not beat on its way to the goal
            # (``AROUND_UNBEATABLE``).
            walls = _unbeatable_slots(game, party) if AROUND_UNBEATABLE else []
            if carrying and harm:
                # An item carrier never steps where a non-combat disaster would act on it
                # (Satellite Strike destroys what it carries).
                route = safe_route(game, start, dest, budget, harm + walls, False)
            elif walls:
                route = safe_route(game, start, dest, budget, walls, True)
            else:
                route = route_to(game, start, dest, budget)
            if hunted and start == anchor and route and route[-1] == dest and len(route) < budget:
                left = budget - len(route)
                avoid = beyond_hunt_avoid(carrying, harm)
                route += self._beyond_hunt(game, everyone, walls, dest, left, avoid)
            route = trim_to_stop(game, party, route)
            while game.acts and route and route[-1] != HAVEN and traps(game, party, route[-1]):
                route = trim_to_stop(game, party, route[:-1])  # stop short of a trap (STOPS)
            if start == anchor:
                meet = route[-1] if route and route[-1] != HAVEN else None
            elif start == HAVEN and (not route or route[-1] != dest) and _weak(party):
                continue  # a weak newcomer that cannot reach the party waits in the haven
            if route:
                plans.append((party, route))
        return plans

    def _beyond_hunt(
        self,
        game: Game,
        everyone: list[Char],
        walls: list[int],
        slot: int,
        budget: int,
        harm: list[int],
    ) -> list[int]:
        """``HUNT_PASS_ON``: the steps past the hunted disaster at ``slot``, at most ``budget``,
        toward the goal the party would pick from there among the other locations it may
        scavenge, around the combat disasters it could not beat (``walls``: the party's
        ``_unbeatable_slots``, which its route to ``slot`` went around already) (and, for a
        party carrying items, the slots of ``harm``); none when there is none."""
        goal = self._goal_beyond(game, everyone, slot)
        if goal is None:
            return []
        if harm:
            return safe_route(game, slot, goal, budget, harm + walls, False)
        if walls:
            return safe_route(game, slot, goal, budget, walls, True)
        return route_to(game, slot, goal, budget)

    def _goal_beyond(self, game: Game, everyone: list[Char], slot: int) -> int | None:
        """The goal a party at ``slot`` would pick among the other locations it may scavenge:
        ``_pick_goal`` over ``_targets`` but ``slot``; while the player has seen nothing under
        a location, the nearest-first search of ``_nearest_goal``, which asks most locations
        nothing (the same pick: tests/test_policy_goal.py)."""
        if game.known:
            targets = [s for s in self._targets(game, everyone) if s != slot]
            return self._pick_goal(game, slot, targets, [], everyone)
        return self._nearest_from(game, slot, everyone, [], slot)

    def _pick_goal(
        self,
        game: Game,
        anchor: int,
        targets: list[int],
        hunt: list[Dis],
        party: list[Char] | None = None,
    ) -> int | None:
        """The nearest target, a step further for each disaster there (and for what the
        player has seen beneath it) and for each face-down disaster above its item (the count
        is in plain view: each one is a fight or an effect before the item; measured, 1,000
        paired games under item_pickup=through: medium +4.4 points, hard +4.9, strike +3.7,
        tough +2.0, tricky +1.5), a step nearer for each item piled beneath beyond the first
        (``PILED_ITEM_STEPS``), or a disaster worth hunting ``hunt_steps`` nearer; between
        targets equally far, the one further along the disaster path (``_path_key``), then the
        smaller slot. Distances from the haven count the step into the field."""
        row, extra = _distances_from(game, anchor)
        danger = _danger_slots(game)
        scale, index = _path_scale(game)
        # The least (distance + risk, path key, prize, slot), compared term by term: distance
        # and path key are one number, ``far * scale - path position``.
        best = -1
        best_far = best_prize = 0
        for slot in targets:
            loc = game.locs[slot]
            far = row[slot] + extra + danger[slot] + len(loc.hidden_disasters) - piled_items(loc)
            far = far * scale - index[slot]
            prize = 0
            if game.known and party:
                risk, prize = known_outlook(game, party, slot)  # what the player looked at
                far += risk * scale
            if best < 0 or _before(far, prize, slot, best_far, best_prize, best):
                best, best_far, best_prize = slot, far, prize
        for d in hunt:
            slot = game.slot_of(d)
            far = (row[slot] + extra - hunt_steps(game, d)) * scale
            if best < 0 or _before(far, 0, slot, best_far, best_prize, best):
                best, best_far, best_prize = slot, far, 0
        return best if best >= 0 else None

    def _nearest_goal(
        self, game: Game, anchor: int, party: list[Char], hunt: list[Dis]
    ) -> int | None:
        """What ``_pick_goal`` picks among ``_targets`` while the player has seen nothing under
        a location: the locations are asked whether the party may scavenge them nearest first
        (by distance and risk, then slot), until the first yes or until a disaster worth
        hunting is nearer, so most are never asked."""
        return self._nearest_from(game, anchor, party, hunt, -1)

    def _nearest_from(
        self, game: Game, anchor: int, party: list[Char], hunt: list[Dis], skip: int
    ) -> int | None:
        """``_nearest_goal``, the location at ``skip`` left out (none when -1)."""
        row, extra = _distances_from(game, anchor)
        scale, index = _path_scale(game)
        hunted = -1
        hunt_far = 0
        for d in hunt:
            slot = game.slot_of(d)
            far = (row[slot] + extra - hunt_steps(game, d)) * scale
            if hunted < 0 or _before(far, 0, slot, hunt_far, 0, hunted):
                hunted, hunt_far = slot, far
        # Each round asks the nearest location (distance and risk, then the path key, the
        # smaller slot on a tie) still to be asked: something is left beneath it and it was
        # not asked before (a bit per slot of ``refused``). Most often the first round's is
        # the answer, so the keys are worked out as each round goes, never kept. The key's two
        # terms are compared one after the other (the step into the field, the same for every
        # location, left out): the path position is read only on a tie of distance and risk,
        # and the one number ``far`` is made for the winner alone.
        danger = _danger_slots(game)
        refused = 0
        view: _Party | None = None
        while True:
            slot = -1
            near = 0  # the nearest's distance and risk, and its path position
            pos = 0
            for loc in game.locs:
                hidden = loc.hidden_disasters
                if not (hidden or loc.hidden_cards) or loc.destroyed:
                    continue
                s = loc.slot
                if s == skip or (refused and refused >> s & 1):
                    continue
                f = row[s] + len(hidden) + danger[s] - piled_items(loc)
                if slot < 0 or f < near:
                    slot, near, pos = s, f, index[s]
                elif f == near:
                    p = index[s]
                    if p > pos:
                        slot, pos = s, p
            far = (near + extra) * scale - pos
            if slot < 0 or (hunted >= 0 and _before(hunt_far, 0, hunted, far, 0, slot)):
                break
            if view is None:
                view = _PARTY.of(party)
            if self._scavengeable(game, view, game.locs[slot]):
                return slot
            refused |= 1 << slot
        return hunted if hunted >= 0 else None

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        return can_beat(game, chars, d)

    def scavenge(self, game: Game, party: list[Char], slot: int) -> bool:
        """Scavenge, unless the player has seen that the first disaster beneath is one the
        party cannot beat (REVEAL), or only disasters lie beneath while items lie under other
        locations, or the party carries an item and a disaster still lies face down there
        (:func:`carriers_skip`), or the unseen disasters it counts make one it cannot beat
        likely (:func:`counted_threat`)."""
        if not game.locs[slot].hidden_cards and _items_elsewhere(game):
            return False
        if carriers_skip(game, party, slot):
            return False
        if waits_for_bonked(game, slot):
            return False
        if game.known and known_threat(game, party, slot):
            return False
        return not counted_threat(game, party, slot)

    def continue_scavenging(self, game: Game, party: list[Char], slot: int) -> bool:
        """Go on while the party looks strong enough; where the player has seen the next
        disaster (REVEAL), go on exactly when it is no fight or one the party can win."""
        loc = game.locs[slot]
        if game.known and loc.hidden_disasters and loc.hidden_disasters[0].uid in game.known:
            return not known_threat(game, party, slot)
        return len(party) >= 2 or party[0].cur[DMG] + party[0].cur[DEF] >= 8

    def carrier_for(self, game: Game, party: list[Char], card: Copy) -> Char:
        """Equipment to the weakest hitter who can use it; anything else to the sturdiest."""
        kept = card.card
        if kept.type is TYPE_EQUIPMENT and isinstance(kept, _POWER_CARD):
            user: Char | None = None  # the first with the least damage, as min() picks it
            for c in party:
                if (user is None or c.cur[DMG] < user.cur[DMG]) and usable(c, kept):
                    user = c
            if user is not None:
                return user
        best = party[0]  # the first with the most defense, then health, as max() picks it
        for c in party:
            dfn, top = c.cur[DEF], best.cur[DEF]
            if dfn > top or (dfn == top and c.health_max > best.health_max):
                best = c
        return best

    def fighters(self, game: Game, d: Dis, able: list[Char], target: Char, cap: int) -> list[Char]:
        """The attacked character, then the hardest hitters."""
        out = [target]  # the attacked one first, when it may fight
        fights = False
        for c in able:
            if c is target:
                fights = True
            else:
                out.append(c)
        if not fights:
            out.pop(0)
        _rank(out, 1 if fights else 0, False)
        # The engine's cap is 1, 3 or 4: room for the attacked one. (The list cut to it in
        # place: no slice made and the list dropped.)
        while len(out) > cap:
            out.pop()
        return out

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        """Retreat from a disaster still at full health that the party does not expect to beat,
        unless it fights on for the item the disaster carries (:func:`fights_for_item`)."""
        if fights_for_item(game, d, chars):
            return False
        return d.health >= d.health_max and not can_beat(game, chars, d)

    def combat_card_to(
        self,
        game: Game,
        d: Dis,
        card: CombatCard,
        options: list[tuple[Char, int, int]],
        target: Char,
    ) -> Char:
        """Where the card's physical half does most: the party's total damage (each fighter's
        at least 0) plus the attacked character's defense, the attacked one on a tie."""
        half = card.physical

        def gain(i: int) -> tuple[int, int]:
            total = 0
            guard = 0
            for j, (c, dmg, dfn) in enumerate(options):
                if i == j:
                    dmg = apply_mod(half.damage, dmg) if half.damage is not None else dmg
                    dfn = apply_mod(half.defense, dfn) if half.defense is not None else dfn
                total += max(0, dmg)
                if c is target:
                    guard = dfn
            return total + guard, 1 if options[i][0] is target else 0

        best = max(range(len(options)), key=gain)
        return options[best][0]

    def finisher(self, game: Game, d: Dis, fighters: list[Char]) -> tuple[Copy, Char] | None:
        """Spend a flash effect that defeats the disaster when the fight looks hopeless, or
        against a major disaster (which otherwise keeps coming back)."""
        if not fighters or (can_beat(game, fighters, d) and not d.major):
            return None
        for x in game.hand:
            flash = isinstance(x, Copy) and x.g.kind == KIND_FLASH_EFFECT
            if flash and isinstance(x, Copy) and defeats(game, x.card, d):
                card = x.card
                assert isinstance(card, PowerCard)
                cost = 0 if free_cast(game) else card.energy_cost or 0
                able = [c for c in fighters if c.cur[ENE] >= cost and usable(c, card)]
                if costs_a_life(game, card):
                    # A life is worth a major disaster or one carrying an item: the weakest.
                    if not (d.major or d.carrying):
                        continue
                    able.sort(key=lambda c: (c.cur[DMG] + c.cur[DEF], c.uid))
                if able:
                    return x, able[0]
        return None

    def frail_blow(
        self, game: Game, d: Dis, fighters: list[Char], loss: int
    ) -> tuple[Copy, Char] | None:
        """Spend a card that multiplies the health the party takes this round only when it then
        finishes the disaster, and only in a fight worth it (as for a finisher)."""
        if loss < 1 or not fighters or (can_beat(game, fighters, d) and not d.major):
            return None
        for x in game.hand:
            card = x.card
            if card.type is not TYPE_FLASH_EFFECT or not isinstance(card, _POWER_CARD):
                continue
            n = frail_times(game, card)
            if n == 1 or (n > 1 and loss * n < d.health):
                continue
            cost = 0 if free_cast(game) else card.energy_cost or 0
            c = _payer(game, card, fighters, cost)
            if c is not None:
                assert isinstance(x, Copy)
                return x, c
        return None

    def pay_item(self, game: Game, source: Dis | Char | Copy) -> bool:
        """Give up an item to defeat a disaster only when fighting it looks hopeless, or to stop
        a non-combat disaster that will act on the party."""
        if isinstance(source, Dis) and not source.combat:
            return harmful(source)
        if not isinstance(source, Dis) or source.pos < 0:
            return False
        party = game.at(game.slot_of(source))
        dfn = source.defense + horde_bonus(game, source)
        return _top_damage(party, 4 if source.major else 3) <= dfn

    def run_alone(self, game: Game, d: Dis, c: Char) -> bool:
        """Run alone when the disaster's next hit would knock it out."""
        return d.damage + horde_bonus(game, d) - c.cur[DEF] >= c.health

    def use_item(self, game: Game, card: Copy, who: list[Char], fought: Dis | None) -> bool:
        """Heal or raise health only to save a character the disaster would knock out; strike
        first only in a fight the party can win but where one hit can knock a member out."""
        if fought is None or not who:
            return False
        hit = fought.damage + horde_bonus(game, fought)
        if strikes_first_card(game, card.card):
            party = game.at(game.slot_of(fought)) if fought.pos >= 0 else who
            deadly = any(hit - c.cur[DEF] >= c.health for c in party)
            return deadly and can_beat(game, party, fought)
        return any(c.health <= 0 or hit - c.cur[DEF] >= c.health for c in who)

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        """Spend flash effects only when they decide the round: enough defense on the attacked
        character to keep it standing, or enough damage to finish the disaster now. Cards that
        would fall short are kept, and none goes to a character the round still knocks out
        (measured: 352 of 794 such cards in 500 medium games were spent on one)."""
        if short_damage <= 0 and short_defense <= 0:
            return []  # the round is decided without a card
        for x in game.hand:
            if x.g.kind == KIND_FLASH_EFFECT:
                break
        else:
            return []  # no flash effect in the hand
        # The candidates as lists side by side (a card and what ``_Flash`` keeps of it), not
        # tuples: the cards playable on the target for defense, those adding damage, and those
        # with encoded combat effects only (no plain bonus).
        guard: list[Copy] = []
        guard_info: list[_Flash] = []
        blows: list[Copy] = []
        blow_info: list[_Flash] = []
        plain: list[Copy] = []
        plain_info: list[_Flash] = []
        fx = game.fx
        for x in game.hand:
            if x.g.kind != KIND_FLASH_EFFECT:
                continue
            card = x.card
            if not isinstance(card, _POWER_CARD):
                continue
            cid = x.cid
            text = fx.get(cid)
            e = _memo(x, card, text)
            info = e.flash if e is not None else None
            if info is None:
                info = self._flash.get(cid)
                if info is None or info.card is not card or info.text is not text:
                    info = _Flash(game, card, text)
                    self._flash[cid] = info
                if e is not None:
                    e.flash = info
            if info.held:
                continue
            assert isinstance(x, Copy)
            if not info.bonus:
                if short_damage > 0 and info.plain:
                    plain.append(x)
                    plain_info.append(info)
                continue
            # Each list kept in the order a stable sort by value, highest first, gives it (the
            # cards of equal value in the hand's order), without a key called per card.
            if (
                short_defense > 0
                and info.guards
                and usable(target, card)
                and _reaches(game, card, target)
            ):
                value = info.defense
                i = len(guard)
                while i > 0 and guard_info[i - 1].defense < value:
                    i -= 1
                guard.insert(i, x)
                guard_info.insert(i, info)
            if short_damage > 0 and info.hits:
                value = info.damage
                i = len(blows)
                while i > 0 and blow_info[i - 1].damage < value:
                    i -= 1
                blows.insert(i, x)
                blow_info.insert(i, info)
        if not (guard or blows or plain):
            return []
        aura = bool(game.fx) and free_cast(game)  # pays one card's energy (Supreme Battle Aura)
        plays: list[tuple[Copy, Char]] = []
        # The cards the shield takes (a blow may be the same card: it is played once).
        chosen: list[Copy] = []
        # The target's energy left once the shield is paid for.
        target_energy = target.cur[ENE]
        standing = short_defense <= 0
        if guard:
            need = short_defense
            spent = 0
            for i in range(len(guard)):
                if need <= 0:
                    break
                info = guard_info[i]
                cost = info.cost
                if target_energy - spent >= cost:
                    chosen.append(guard[i])
                    spent += cost
                    need -= info.defense
            if need <= 0:  # all of them, or none: a partial shield buys nothing this round
                target_energy -= spent
                for x in chosen:
                    plays.append((x, target))
                standing = True
            else:
                chosen = []
        # Those the round does not knock out: every fighter but an unshielded target.
        safe = [c for c in fighters if c is not target or standing]
        if blows:
            picks: list[tuple[Copy, Char]] = []
            need = short_damage
            saved_aura = aura
            # Each safe fighter's energy left as the blows are paid for (the target's after
            # its shield), by its place in ``safe``; only this trial of the blows spends it.
            energy: list[int] = []
            for c in safe:
                energy.append(target_energy if c is target else c.cur[ENE])
            for k in range(len(blows)):
                if need <= 0:
                    break
                x = blows[k]
                if _among(chosen, x):
                    continue
                info = blow_info[k]
                card = info.card
                cost = info.cost
                # The first safe fighter who can play it and pay for it; with the aura at
                # hand, the first who can play it.
                payer = -1
                for j in range(len(safe)):
                    c = safe[j]
                    if energy[j] >= cost and usable(c, card) and _reaches(game, card, c):
                        payer = j
                        break
                if payer < 0 and aura and cost > 0:
                    for j in range(len(safe)):
                        c = safe[j]
                        if usable(c, card) and _reaches(game, card, c):
                            payer = j
                            break
                if payer < 0:
                    continue
                if energy[payer] >= cost:
                    energy[payer] -= cost
                elif aura and cost > 0:
                    aura = False
                else:
                    continue
                picks.append((x, safe[payer]))
                need -= info.damage
            if need <= 0:
                plays += picks
                short_damage = 0
            else:
                aura = saved_aura
        if short_damage > 0 and plain:
            # Encoded effects whose worth is not a plain bonus: one, while the round is not won.
            for k in range(len(plain)):
                x = plain[k]
                info = plain_info[k]
                payer_c = _payer(game, info.card, safe, 0 if aura else info.cost)
                if payer_c is not None and not _among(chosen, x):
                    plays.append((x, payer_c))
                    break
        return plays

    def retreat_to(self, game: Game, chars: list[Char], slot: int) -> int:
        """The haven when it is one step away; else a location without a combat disaster (any
        legal one when none is free), the least at risk (:func:`retreat_risk`), then the nearest
        the haven."""
        home = game.field.haven_slot
        legal = retreat_options(game, chars, slot)
        if HAVEN in legal:
            return HAVEN
        options = [s for s in legal if not any(d.combat for d in game.disasters_at(s))]
        if not options:
            options = legal
        if not options:
            return slot  # no legal direction: the party stays
        danger = _danger(game) if RETREAT_AWAY_FROM_RISK else {}
        return min(options, key=lambda s: (retreat_risk(danger, s), game.dist[s][home]))


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomPolicy(Policy):
    """The floor: a random legal choice at every decision."""

    name = "random"

    def starting_characters(self, game: Game, chars: Sequence[Char], n: int) -> list[Char]:
        pool = list(chars)
        game.chance.shuffle(pool)
        return pool[:n]

    def power_card(self, game: Game, kind: CardType, anywhere: bool) -> tuple[Copy, Char] | None:
        if not any(x.card.type is kind for x in game.hand):
            return None
        targets = equip_targets(game, kind, anywhere)
        options = [
            (x, c)
            for x in game.hand
            if x.card.type == kind and isinstance(x.card, PowerCard)
            for c in targets
            if can_use(c, x.g) and may_equip(game, c, x.card)
        ]
        if not options or game.chance.below(2) == 0:
            return None
        x, c = game.chance.pick(options)
        assert isinstance(x, Copy)
        return x, c

    def global_effect(self, game: Game) -> Copy | None:
        options = [x for x in game.hand if x.g.kind == KIND_GLOBAL_EFFECT]
        if not options or game.chance.below(2) == 0:
            return None
        x = game.chance.pick(options)
        assert isinstance(x, Copy)
        return x

    def discards(self, game: Game) -> list[Copy | Char]:
        return [x for x in game.hand if x.card.type in PLAYED_OUT and game.chance.below(2)]

    def destination(self, game: Game, party: list[Char]) -> int:
        options = [loc.slot for loc in game.locs if can_stop(game, party, loc.slot)]
        return game.chance.pick(options) if options else -1

    def moves(self, game: Game, edition: Edition) -> list[Move]:
        play = edition.play
        plans: list[Move] = []
        groups: dict[int, list[Char]] = {}
        on_field = game.on_field()
        room = play.max_on_field - len(on_field)
        for c in on_field:
            groups.setdefault(c.slot, []).append(c)
        haven = game.in_haven()[: max(0, room)]
        if haven:
            groups[HAVEN] = haven
        for start, party in groups.items():
            if play.max_party:
                party = party[: play.max_party]
            budget = party_movement(game, party)
            steps = game.chance.below(budget + 1)
            route: list[int] = []
            here = start
            for _ in range(steps):
                if here == HAVEN:
                    here = game.field.haven_slot
                else:
                    options = list(game.field.neighbours[here])
                    if here == game.field.haven_slot:
                        options.append(HAVEN)
                    here = game.chance.pick(options)
                route.append(here)
                if here == HAVEN:
                    break
            route = trim_to_stop(game, party, route)
            if route:
                plans.append((party, route))
        return plans

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        return game.chance.below(3) == 0

    def scavenge(self, game: Game, party: list[Char], slot: int) -> bool:
        return game.chance.below(4) != 0

    def continue_scavenging(self, game: Game, party: list[Char], slot: int) -> bool:
        return game.chance.below(2) == 0

    def carrier_for(self, game: Game, party: list[Char], card: Copy) -> Char:
        return game.chance.pick(party)

    def fighters(self, game: Game, d: Dis, able: list[Char], target: Char, cap: int) -> list[Char]:
        others = [c for c in able if c is not target]
        game.chance.shuffle(others)
        first = [target] if target in able else []
        k = game.chance.below(cap - len(first) + 1)
        return first + others[:k]

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        return game.chance.below(4) == 0

    def combat_card_to(
        self,
        game: Game,
        d: Dis,
        card: CombatCard,
        options: list[tuple[Char, int, int]],
        target: Char,
    ) -> Char:
        return game.chance.pick(options)[0]

    def use_item(self, game: Game, card: Copy, who: list[Char], fought: Dis | None) -> bool:
        return game.chance.below(2) == 0

    def run_alone(self, game: Game, d: Dis, c: Char) -> bool:
        return game.chance.below(4) == 0

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        """Now and then a flash effect with a combat bonus, on a random fighter."""
        options = [
            x
            for x in game.hand
            if isinstance(x, Copy)
            and isinstance(x.card, PowerCard)
            and x.g.kind == KIND_FLASH_EFFECT
            and (_combat_modifiers(x.card, game) or combat_only(game, x.card))
        ]
        if not options or not fighters or game.chance.below(3):
            return []
        return [(game.chance.pick(options), game.chance.pick(fighters))]

    def retreat_to(self, game: Game, chars: list[Char], slot: int) -> int:
        options = retreat_options(game, chars, slot)
        return game.chance.pick(options) if options else slot

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        """A random order; the automatic one and each further charmer declared at random."""
        pool = list(options)
        game.chance.shuffle(pool)
        return pool[:automatic] + [c for c in pool[automatic:] if game.chance.below(2) == 0]

    def charm_action(self, game: Game, d: Dis, c: Char, options: list[str]) -> str:
        return game.chance.pick(options)


POLICIES: tuple[str, ...] = ("heuristic", "random")


def make_policy(name: str) -> Policy:
    """A policy by name: "heuristic" (the sensible player) or "random" (the floor)."""
    if name == "heuristic":
        return HeuristicPolicy()
    if name == "random":
        return RandomPolicy()
    raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}")
