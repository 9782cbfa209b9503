"""The rounds of one plain combat on integer inputs: the prototype's reference in Python.

The same rules as ``deckkit/animayhem/engine/combat.py`` ``fight`` (set0 rulebook, Part II
"Combat"; 1998 guidelines 1.4 and 1.5; Part III "Frenzy"), for a combat that no card text
touches: no charm battle, no flash effect, enhancement or limited-use equipment spent, no card
effect on the disaster, the characters, the location or the combat cards drawn, and the heuristic
player's choice of fighters (the target first, then the others by damage). The player's retreat
decision comes in as the round it was taken (0: never); the random numbers the engine drew come
in as the stream of floats its generator produced, so the picks and the combat pile's reshuffles
are the engine's own. ``native/src/lib.rs`` is the same function in Rust.

Inputs, all plain integers (one list each so crossing into Rust is cheap):

- ``rules``: kill rule (KILL_*), cards per attacker (1) or one per side (0), stalemate rounds,
  the most characters that may fight;
- ``dis``: damage and defense (with horde and ally bonuses), health, frenzy (0/1), incapacitated
  (0/1);
- ``chars``: five numbers a character: damage, defense, health, health_max, carries items (0/1);
- ``equip``: seven numbers a limited-use equipment card (Armitage's Gun), in its holder's order:
  holder's index, uses left, uses when fresh, damage and defense modifiers as (op, value);
- ``cards``: nine numbers a combat card code: damage, defense, opponent's damage and opponent's
  defense as (op, value) pairs (OP_*), and "draw another" (0/1);
- ``pile`` (top last) and ``discard``: card codes, changed in place as the engine changes its piles;
- ``us``: the generator's floats, consumed from the start.

Returns ``[result, rounds fought, floats used, disaster health, state of each character, uses
left of each equipment card]`` (RESULT_*; a state is 0 standing, 1 bonked, 2 killed; a card used
up is discarded or taken back to the hand with its uses restored, as the engine does).
"""

from __future__ import annotations

KILL_NEGATIVE_HEALTH = 0
KILL_DOUBLE_HEALTH = 1
KILL_TRIPLE_DAMAGE = 2
OP_NONE, OP_ADD, OP_MUL, OP_DIV, OP_SET = 0, 1, 2, 3, 4
RESULT_DEFEATED, RESULT_WIPED, RESULT_RETREAT, RESULT_NONE = 0, 1, 2, 3
CARD_WIDTH = 9
CHAR_WIDTH = 5
EQUIP_WIDTH = 7


def apply_op(op: int, value: int, current: int) -> int:
    """A printed modifier (construction.cards.Modifier.apply)."""
    if op == OP_NONE:
        return current
    if op == OP_ADD:
        return current + value
    if op == OP_MUL:
        return current * value
    if op == OP_DIV:
        return current // value
    return value


def health_state(kill: int, health: int, start: int, damage: int, health_max: int) -> int:
    """0 ok, 1 bonked, 2 killed (engine.combat.health_state)."""
    if health > 0:
        return 0
    if kill == KILL_TRIPLE_DAMAGE:
        return 2 if damage >= 3 * start else 1
    return 2 if health <= -health_max else 1


class Kernel:
    """One combat's state: the sides' round abilities, the piles and the random stream."""

    def __init__(self, cards: list[int], pile: list[int], discard: list[int], us: list[float]):
        self.cards = cards
        self.pile = pile
        self.discard = discard
        self.us = us
        self.pos = 0
        self.side_dmg: list[int] = []
        self.side_def: list[int] = []

    def below(self, n: int) -> int:
        """SeededChance.pick's index: no draw for a single option."""
        if n <= 1:
            return 0
        u = self.us[self.pos]
        self.pos += 1
        return int(u * n)

    def draw(self) -> int:
        """engine.combat.draw_combat_card: the discards reshuffled (Fisher-Yates) when the pile
        runs out; -1 when both are empty."""
        pile = self.pile
        if not pile:
            if not self.discard:
                return -1
            pile.extend(self.discard)
            self.discard.clear()
            for i in range(len(pile) - 1, 0, -1):
                j = int(self.us[self.pos] * (i + 1))
                self.pos += 1
                pile[i], pile[j] = pile[j], pile[i]
        return pile.pop()

    def play_card(self, recipient: int, opponent: int) -> None:
        """engine.combat._play_card: a card's physical half, again while it says draw another
        (at most four)."""
        cards = self.cards
        for _ in range(4):
            code = self.draw()
            if code < 0:
                return
            k = code * CARD_WIDTH
            self.side_dmg[recipient] = apply_op(cards[k], cards[k + 1], self.side_dmg[recipient])
            self.side_def[recipient] = apply_op(
                cards[k + 2], cards[k + 3], self.side_def[recipient]
            )
            self.side_dmg[opponent] = apply_op(cards[k + 4], cards[k + 5], self.side_dmg[opponent])
            self.side_def[opponent] = apply_op(cards[k + 6], cards[k + 7], self.side_def[opponent])
            self.discard.append(code)
            if not cards[k + 8]:
                return


def resolve(
    rules: list[int],
    dis: list[int],
    chars: list[int],
    equip: list[int],
    retreat_round: int,
    cards: list[int],
    pile: list[int],
    discard: list[int],
    us: list[float],
) -> list[int]:
    """Fight one plain combat to its end (engine.combat.fight's round loop and _retreat)."""
    kill, per_attacker, stalemate, cap = rules[0], rules[1], rules[2], rules[3]
    d_damage, d_defense, d_health, frenzy, incapacitated = dis[0], dis[1], dis[2], dis[3], dis[4]
    n = len(chars) // CHAR_WIDTH
    dmg = [chars[i * CHAR_WIDTH] for i in range(n)]
    dfn = [chars[i * CHAR_WIDTH + 1] for i in range(n)]
    health = [chars[i * CHAR_WIDTH + 2] for i in range(n)]
    hmax = [chars[i * CHAR_WIDTH + 3] for i in range(n)]
    items = [chars[i * CHAR_WIDTH + 4] for i in range(n)]
    start = list(health)
    state = [0] * n
    n_equip = len(equip) // EQUIP_WIDTH
    uses = [equip[e * EQUIP_WIDTH + 1] for e in range(n_equip)]
    held = [1] * n_equip  # still in its holder's equipment
    k = Kernel(cards, pile, discard, us)
    k.side_dmg = [0] * (n + 1)
    k.side_def = [0] * (n + 1)
    result = RESULT_WIPED
    rnd = 0
    fought = 0
    while True:
        rnd += 1
        alive = [i for i in range(n) if state[i] == 0]
        if not alive:
            result = RESULT_WIPED if rnd > 1 else RESULT_NONE
            break
        if rnd > stalemate or rnd == retreat_round:
            # Declare Retreat: one random retreating character takes the disaster's damage.
            v = alive[k.below(len(alive))]
            attack = 0 if incapacitated else d_damage
            loss = attack - dfn[v]
            health[v] -= loss if loss >= 1 else 0
            state[v] = health_state(kill, health[v], start[v], attack, hmax[v])
            result = RESULT_RETREAT
            break
        fought += 1
        carriers = [i for i in alive if items[i]]
        pool = carriers if carriers else alive
        target = pool[k.below(len(pool))]
        rest = sorted((i for i in alive if i != target), key=lambda i: -dmg[i])
        fighters = [target, *rest[: cap - 1]]
        for i in fighters:
            k.side_dmg[i] = dmg[i]
            k.side_def[i] = dfn[i]
        k.side_dmg[n] = d_damage
        k.side_def[n] = d_defense
        for e in range(n_equip):
            # engine.combat._activate: limited-use equipment adds its modifiers this round.
            b = e * EQUIP_WIDTH
            i = equip[b]
            if not held[e] or state[i] != 0 or i not in fighters:
                continue
            k.side_dmg[i] = apply_op(equip[b + 3], equip[b + 4], k.side_dmg[i])
            k.side_def[i] = apply_op(equip[b + 5], equip[b + 6], k.side_def[i])
            uses[e] -= 1
            if uses[e] <= 0:
                uses[e] = equip[b + 2]
                held[e] = 0
        if per_attacker:
            for i in fighters:
                k.play_card(i, n)
        else:
            k.play_card(target, n)
        k.play_card(n, target)
        total = 0
        for i in fighters:
            total += max(0, k.side_dmg[i])
        to_disaster = total - max(0, k.side_def[n])
        attack = 0 if incapacitated else max(0, k.side_dmg[n])
        victims = fighters if frenzy else [target]
        losses = []
        for v in victims:
            loss = attack - max(0, k.side_def[v])
            losses.append(loss if loss >= 1 else 0)
        if to_disaster >= 1:
            d_health -= to_disaster
        for j, v in enumerate(victims):
            health[v] -= losses[j]
        for v in victims:
            if state[v] == 0:
                state[v] = health_state(kill, health[v], start[v], attack, hmax[v])
                if state[v] != 0:
                    for e in range(n_equip):
                        if equip[e * EQUIP_WIDTH] == v:
                            held[e] = 0  # dropped (engine.combat.drop_everything)
        if d_health <= 0:
            result = RESULT_DEFEATED
            break
        if all(state[i] != 0 for i in fighters):
            result = RESULT_WIPED
            break
    return [result, fought, k.pos, d_health, *state, *uses]
