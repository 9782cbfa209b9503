"""The construction layer's enum members as constants of the compiled engine.

Reading ``Trigger.COMBAT`` is an attribute lookup on the enum class, slow on Python 3.11 (the
enum metaclass defines ``__getattr__``, so every read goes through a Python-level hook), and
the compiled engine makes millions of them. These names are ``Final``: mypyc keeps each in a C
static, read at the cost of a pointer load. They are the same objects as the enum members, so
results do not change; the pure-Python engine reads them as plain module globals. The per-card
counters' ``CardStat`` names are the exception: integers, a counter's offset in a card's counters.
"""

from __future__ import annotations

from typing import Final

from deckkit.animayhem.construction.cards import CardType, Coverage, Gender, Trait
from deckkit.animayhem.construction.vocabulary import Action, Scope, Target, Trigger
from deckkit.animayhem.engine.record import CardStat

# Trigger
TRIGGER_AFFECT: Final = Trigger.AFFECT
TRIGGER_ENTERS: Final = Trigger.ENTERS
TRIGGER_LANDS: Final = Trigger.LANDS
TRIGGER_PASSES: Final = Trigger.PASSES
TRIGGER_COMBAT: Final = Trigger.COMBAT
TRIGGER_ROUND: Final = Trigger.ROUND
TRIGGER_HITS: Final = Trigger.HITS
TRIGGER_DEFEATED: Final = Trigger.DEFEATED
TRIGGER_WINS: Final = Trigger.WINS
TRIGGER_KNOCKS_OUT: Final = Trigger.KNOCKS_OUT
TRIGGER_TURN: Final = Trigger.TURN
TRIGGER_ALWAYS: Final = Trigger.ALWAYS
TRIGGER_PLAYED: Final = Trigger.PLAYED
TRIGGER_SCAVENGED: Final = Trigger.SCAVENGED
TRIGGER_HURT: Final = Trigger.HURT
TRIGGER_STOPS: Final = Trigger.STOPS

# Action
ACT_BONK: Final = Action.BONK
ACT_KILL: Final = Action.KILL
ACT_DAMAGE: Final = Action.DAMAGE
ACT_HEAL: Final = Action.HEAL
ACT_DISABLE: Final = Action.DISABLE
ACT_HOLD: Final = Action.HOLD
ACT_CAPTURE: Final = Action.CAPTURE
ACT_SEND: Final = Action.SEND
ACT_DROP: Final = Action.DROP
ACT_GRANT: Final = Action.GRANT
ACT_TRANSFORM: Final = Action.TRANSFORM
ACT_MODIFY: Final = Action.MODIFY
ACT_DESTROY: Final = Action.DESTROY
ACT_TAKE: Final = Action.TAKE
ACT_DISCARD_HAND: Final = Action.DISCARD_HAND
ACT_RESHUFFLE_HAND: Final = Action.RESHUFFLE_HAND
ACT_MOVE_TO: Final = Action.MOVE_TO
ACT_PULL: Final = Action.PULL
ACT_ATTACK: Final = Action.ATTACK
ACT_BLOCK: Final = Action.BLOCK
ACT_DESTROY_LOCATION: Final = Action.DESTROY_LOCATION
ACT_EXTRA_CARDS: Final = Action.EXTRA_CARDS
ACT_IGNORE_CARDS: Final = Action.IGNORE_CARDS
ACT_PREFER: Final = Action.PREFER
ACT_SPARE: Final = Action.SPARE
ACT_NO_RETREAT: Final = Action.NO_RETREAT
ACT_DEFEAT: Final = Action.DEFEAT
ACT_DISCARD: Final = Action.DISCARD
ACT_SHIELD: Final = Action.SHIELD
ACT_UNLOCK: Final = Action.UNLOCK
ACT_DUEL: Final = Action.DUEL
ACT_APART: Final = Action.APART
ACT_IMMUNE: Final = Action.IMMUNE
ACT_STAY: Final = Action.STAY
ACT_WAIVE: Final = Action.WAIVE
ACT_RECYCLE: Final = Action.RECYCLE
ACT_FIRST_STRIKE: Final = Action.FIRST_STRIKE
ACT_REVIVE: Final = Action.REVIVE
ACT_BAR: Final = Action.BAR
ACT_EXTRA_EQUIP: Final = Action.EXTRA_EQUIP
ACT_PRESERVE: Final = Action.PRESERVE
ACT_EQUIP_ANYWHERE: Final = Action.EQUIP_ANYWHERE
ACT_ENDURE: Final = Action.ENDURE
ACT_BECOME_HAVEN: Final = Action.BECOME_HAVEN
ACT_DEFENDS_ONLY: Final = Action.DEFENDS_ONLY
ACT_RUN_ALONE: Final = Action.RUN_ALONE
ACT_STRIKES: Final = Action.STRIKES
ACT_RECOVER: Final = Action.RECOVER
ACT_FETCH: Final = Action.FETCH
ACT_DRAW: Final = Action.DRAW
ACT_FREE: Final = Action.FREE
ACT_UNBLOCK: Final = Action.UNBLOCK
ACT_PUSH: Final = Action.PUSH
ACT_SURVIVE: Final = Action.SURVIVE
ACT_RELOAD: Final = Action.RELOAD
ACT_EASE: Final = Action.EASE
ACT_RETRIEVE: Final = Action.RETRIEVE
ACT_EDGE: Final = Action.EDGE
ACT_SWAP: Final = Action.SWAP
ACT_GUARD: Final = Action.GUARD
ACT_REPLACE: Final = Action.REPLACE
ACT_CARRY: Final = Action.CARRY
ACT_STORE: Final = Action.STORE
ACT_DOUBLE_SKILLS: Final = Action.DOUBLE_SKILLS
ACT_HIDE: Final = Action.HIDE
ACT_BOOST: Final = Action.BOOST
ACT_FRAIL: Final = Action.FRAIL
ACT_CHARGE: Final = Action.CHARGE
ACT_REVERSE_CHARM: Final = Action.REVERSE_CHARM
ACT_REVERSE: Final = Action.REVERSE
ACT_FREE_CAST: Final = Action.FREE_CAST
ACT_REORDER: Final = Action.REORDER
ACT_SAFEGUARD: Final = Action.SAFEGUARD
ACT_LEAP: Final = Action.LEAP
ACT_FORFEIT: Final = Action.FORFEIT
ACT_WEAR: Final = Action.WEAR
ACT_SHARE: Final = Action.SHARE
ACT_REVEAL: Final = Action.REVEAL
ACT_CLEAR: Final = Action.CLEAR
ACT_UNEARTH: Final = Action.UNEARTH
ACT_BURY: Final = Action.BURY
ACT_SUPPLY: Final = Action.SUPPLY
ACT_REMATCH: Final = Action.REMATCH
ACT_AMPLIFY: Final = Action.AMPLIFY

# CardType
TYPE_CHARACTER: Final = CardType.CHARACTER
TYPE_LOCATION: Final = CardType.LOCATION
TYPE_ITEM: Final = CardType.ITEM
TYPE_HAVEN: Final = CardType.HAVEN
TYPE_EQUIPMENT: Final = CardType.EQUIPMENT
TYPE_ENHANCEMENT: Final = CardType.ENHANCEMENT
TYPE_FLASH_EFFECT: Final = CardType.FLASH_EFFECT
TYPE_GLOBAL_EFFECT: Final = CardType.GLOBAL_EFFECT
TYPE_COMBAT: Final = CardType.COMBAT
TYPE_DISASTER: Final = CardType.DISASTER

# Trait
TRAIT_HORDE: Final = Trait.HORDE
TRAIT_ALLY: Final = Trait.ALLY
TRAIT_FRENZY: Final = Trait.FRENZY
TRAIT_STEALS_ITEM: Final = Trait.STEALS_ITEM
TRAIT_STEALS_EQUIPMENT: Final = Trait.STEALS_EQUIPMENT
TRAIT_MAGNET: Final = Trait.MAGNET
TRAIT_OFF_FIELD: Final = Trait.OFF_FIELD

# Coverage
COVERAGE_FULL: Final = Coverage.FULL
COVERAGE_APPROXIMATE: Final = Coverage.APPROXIMATE
COVERAGE_NONE: Final = Coverage.NONE

# CardStat, as its counter's offset in a card's counters (state.bump: the card's slot times
# state.N_STATS, plus this), where a (card id, CardStat) key was a tuple to build and hash.
# CARD_STATS maps back.
STAT_MET: Final = 0
STAT_DEFEATED: Final = 1
STAT_ITEMS_CARRIED_OFF: Final = 2
STAT_BONKED: Final = 3
STAT_KILLED: Final = 4
STAT_COMBATS: Final = 5
STAT_WAS_BONKED: Final = 6
STAT_WAS_KILLED: Final = 7
STAT_ITEMS_RETRIEVED: Final = 8
STAT_EFFECTS: Final = 9
STAT_SCAVENGE_ATTEMPTS: Final = 10
STAT_SCAVENGE_SUCCESSES: Final = 11
# A tuple of any length, so the compiled engine keeps it as one object (a fixed-length one it
# would keep as a C struct and box again at every index).
CARD_STATS: Final[tuple[CardStat, ...]] = (
    CardStat.MET,
    CardStat.DEFEATED,
    CardStat.ITEMS_CARRIED_OFF,
    CardStat.BONKED,
    CardStat.KILLED,
    CardStat.COMBATS,
    CardStat.WAS_BONKED,
    CardStat.WAS_KILLED,
    CardStat.ITEMS_RETRIEVED,
    CardStat.EFFECTS,
    CardStat.SCAVENGE_ATTEMPTS,
    CardStat.SCAVENGE_SUCCESSES,
)

# Target
TARGET_SELF: Final = Target.SELF
TARGET_HERE: Final = Target.HERE
TARGET_ONE_HERE: Final = Target.ONE_HERE
TARGET_STRONGEST_HERE: Final = Target.STRONGEST_HERE
TARGET_NEAREST: Final = Target.NEAREST
TARGET_NEAREST_ONE: Final = Target.NEAREST_ONE
TARGET_WITHIN: Final = Target.WITHIN
TARGET_FIELD: Final = Target.FIELD
TARGET_PLAY: Final = Target.PLAY
TARGET_STRONGEST: Final = Target.STRONGEST
TARGET_OPPONENT: Final = Target.OPPONENT
TARGET_DISASTERS: Final = Target.DISASTERS
TARGET_NEAREST_DISASTER: Final = Target.NEAREST_DISASTER
TARGET_LOCATION: Final = Target.LOCATION
TARGET_LOCATIONS: Final = Target.LOCATIONS
TARGET_ITEMS_HERE: Final = Target.ITEMS_HERE
TARGET_CARRIED_HERE: Final = Target.CARRIED_HERE
TARGET_CARDS_IN_PLAY: Final = Target.CARDS_IN_PLAY
TARGET_NEAREST_CARD: Final = Target.NEAREST_CARD
TARGET_HAND: Final = Target.HAND
TARGET_DISCARD_PILE: Final = Target.DISCARD_PILE
TARGET_DRAW_PILE: Final = Target.DRAW_PILE

# Scope
SCOPE_ROUND: Final = Scope.ROUND
SCOPE_COMBAT: Final = Scope.COMBAT
SCOPE_NEXT_COMBAT: Final = Scope.NEXT_COMBAT
SCOPE_TURNS: Final = Scope.TURNS
SCOPE_GAME: Final = Scope.GAME
SCOPE_WHILE: Final = Scope.WHILE
SCOPE_RETREAT: Final = Scope.RETREAT

# Gender
GENDER_MALE: Final = Gender.MALE
GENDER_FEMALE: Final = Gender.FEMALE
GENDER_NONE: Final = Gender.NONE

# The game-time form of the cards (gamecards.py) codes a card's type and its traits as plain
# integers: the game loop compares ints instead of reading enums off the construction layer.

# Card type codes (``GameCard.kind``); the four power types are contiguous.
KIND_CHARACTER: Final = 0
KIND_LOCATION: Final = 1
KIND_ITEM: Final = 2
KIND_HAVEN: Final = 3
KIND_EQUIPMENT: Final = 4
KIND_ENHANCEMENT: Final = 5
KIND_FLASH_EFFECT: Final = 6
KIND_GLOBAL_EFFECT: Final = 7
KIND_COMBAT: Final = 8
KIND_DISASTER: Final = 9
KIND_OF_TYPE: Final = {
    CardType.CHARACTER: KIND_CHARACTER,
    CardType.LOCATION: KIND_LOCATION,
    CardType.ITEM: KIND_ITEM,
    CardType.HAVEN: KIND_HAVEN,
    CardType.EQUIPMENT: KIND_EQUIPMENT,
    CardType.ENHANCEMENT: KIND_ENHANCEMENT,
    CardType.FLASH_EFFECT: KIND_FLASH_EFFECT,
    CardType.GLOBAL_EFFECT: KIND_GLOBAL_EFFECT,
    CardType.COMBAT: KIND_COMBAT,
    CardType.DISASTER: KIND_DISASTER,
}

# Trait bits (``GameCard.traits``): ``g.traits & TRAIT_BIT_HORDE`` for ``Trait.HORDE in traits``.
TRAIT_BIT_HORDE: Final = 1
TRAIT_BIT_ALLY: Final = 2
TRAIT_BIT_FRENZY: Final = 4
TRAIT_BIT_STEALS_ITEM: Final = 8
TRAIT_BIT_STEALS_EQUIPMENT: Final = 16
TRAIT_BIT_MAGNET: Final = 32
TRAIT_BIT_OFF_FIELD: Final = 64
TRAIT_BIT: Final = {
    Trait.HORDE: TRAIT_BIT_HORDE,
    Trait.ALLY: TRAIT_BIT_ALLY,
    Trait.FRENZY: TRAIT_BIT_FRENZY,
    Trait.STEALS_ITEM: TRAIT_BIT_STEALS_ITEM,
    Trait.STEALS_EQUIPMENT: TRAIT_BIT_STEALS_EQUIPMENT,
    Trait.MAGNET: TRAIT_BIT_MAGNET,
    Trait.OFF_FIELD: TRAIT_BIT_OFF_FIELD,
}

# Requirement term codes (``GameTerm.op``), one per term class of requirements.py.
TERM_SKILL: Final = 0
TERM_ANY_SKILL: Final = 1
TERM_STAT: Final = 2
TERM_GENDER: Final = 3
TERM_CATEGORY: Final = 4
TERM_NAME: Final = 5
TERM_CARD: Final = 6
TERM_SPECIAL: Final = 7
