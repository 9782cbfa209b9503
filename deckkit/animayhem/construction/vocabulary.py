"""The effect vocabulary: what a card's text does, as typed data.

Card text is the publisher's, so deckkit never stores it; instead each card's behaviour is a
short list of :class:`Effect` records in ``card_db/animayhem/effects/*.toml`` (see
``docs/effects.md``), read and checked by :mod:`deckkit.animayhem.construction.effectdb` and
played by :mod:`deckkit.animayhem.engine.interpreter`. An effect says *when* (a
:class:`Trigger`), *what* (an :class:`Action`) and *to whom* (a :class:`Target` narrowed by
filters), under optional conditions written in the skill-listing grammar the locations already
use (set0 rulebook, "Skill Listings"), so "Strength x2 or Blind Luck" means the same everywhere.

This module is data only: no engine import, so the loader, the coverage report and the engine
share it without cycles.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from deckkit.animayhem.construction.modifiers import Modifier, Stat
from deckkit.animayhem.construction.requirements import Requirement


class Coverage(StrEnum):
    """How faithfully the engine plays a card's text."""

    FULL = "full"
    APPROXIMATE = "approximate"  # with a one-line note of what differs
    NONE = "none"  # with the reason


class Trigger(StrEnum):
    """When an effect fires."""

    AFFECT = "affect"  # a non-combat disaster takes effect (drawn, reached, or revealed)
    # a disaster enters the field (drawn or revealed by scavenging); a location: a party moves
    # onto it, passing over or stopping (Capsule Corporation)
    ENTERS = "enters"
    LANDS = "lands"  # a disaster ends one of its movements at a location
    PASSES = "passes"  # each location a disaster moves onto
    COMBAT = "combat"  # a combat with this card begins
    ROUND = "round"  # each combat round of this card, before damage is dealt
    HITS = "hits"  # this disaster took health from a character this round
    DEFEATED = "defeated"  # this disaster is defeated
    WINS = "wins"  # a combat with this disaster ends and it was not defeated
    KNOCKS_OUT = "knocks_out"  # this disaster bonked or killed a character
    TURN = "turn"  # each Maintenance phase while this card is in play
    ALWAYS = "always"  # continuously while the card is in play, carried or equipped
    PLAYED = "played"  # a power card is played (flash effect, global effect)
    SCAVENGED = "scavenged"  # this location was scavenged successfully
    # Character-side additions: health, protection, disaster-side rules.
    HURT = "hurt"  # a character lost health in a combat round, before health is checked
    # Field2 additions.
    STOPS = "stops"  # a party ends its move on this location (Move phase)


class Action(StrEnum):
    """What an effect does. Each has one function in the interpreter and a rule test."""

    # on characters
    BONK = "bonk"
    KILL = "kill"
    DAMAGE = "damage"  # n points of health, no combat
    HEAL = "heal"  # back to full health
    DISABLE = "disable"  # no move, scavenge or attack for `turns` (defending stays possible)
    HOLD = "hold"  # no move for `turns`
    CAPTURE = "capture"  # off the field for `turns` (0: until this disaster is defeated)
    SEND = "send"  # move characters: `to` = haven, right, left, here, dimensional
    DROP = "drop"  # characters drop what they carry under their location
    GRANT = "grant"  # targets hold `skill` while the effect lasts
    TRANSFORM = "transform"  # a character changes to its other form
    # on abilities (characters or disasters)
    MODIFY = "modify"  # `mods` for `scope`
    # on cards
    DESTROY = "destroy"  # items leave play (they count for the disasters); others discarded
    TAKE = "take"  # this disaster takes cards from characters here, or an item from under here
    DISCARD_HAND = "discard_hand"  # n random cards from the hand
    RESHUFFLE_HAND = "reshuffle_hand"  # the hand goes back into the draw pile; draw as many
    # on disasters and locations
    MOVE_TO = "move_to"  # this disaster moves to `to`: nearest_character, nearest_disaster
    PULL = "pull"  # every movable disaster moves to this card's location
    ATTACK = "attack"  # this disaster attacks the targets now
    BLOCK = "block"  # target locations cannot be entered or scavenged for `turns`
    DESTROY_LOCATION = "destroy_location"  # the location and every card under it are destroyed
    EXTRA_CARDS = "extra_cards"  # combat disasters draw n more combat cards (n < 0: fewer)
    IGNORE_CARDS = "ignore_cards"  # combat cards played on it have no effect
    PREFER = "prefer"  # attacks characters matching `filter` before others
    SPARE = "spare"  # never attacks characters matching `filter`
    NO_RETREAT = "no_retreat"  # characters fighting it cannot retreat
    DEFEAT = "defeat"  # the disaster is defeated at once (a special way to defeat it)
    DISCARD = "discard"  # the card leaves play, not defeated
    SHIELD = "shield"  # characters meeting `filter` deal it no damage
    UNLOCK = "unlock"  # the holder's party may scavenge locations matching `cards` freely
    DUEL = "duel"  # only one character fights it each round
    APART = "apart"  # it defends against each attacker's damage separately
    # Character-side additions: protection, requirements, disaster-side rules.
    IMMUNE = "immune"  # disasters matching `against` neither attack nor affect the targets
    STAY = "stay"  # the holder's group cannot be sent elsewhere by card effects
    WAIVE = "waive"  # the character uses power cards matching `cards` without requirements
    RECYCLE = "recycle"  # defeated disasters are shuffled back into the draw pile
    FIRST_STRIKE = "first_strike"  # the characters' damage lands first
    REVIVE = "revive"  # bonked characters return to the haven at once
    BAR = "bar"  # a party with a member meeting `filter` cannot scavenge this location
    EXTRA_EQUIP = "extra_equip"  # the player may play n more equipment cards each Equip phase
    PRESERVE = "preserve"  # cards in play matching `cards` are not destroyed (max_times)
    EQUIP_ANYWHERE = "equip_anywhere"  # equipment may be played on it on the field
    ENDURE = "endure"  # the targets cannot be bonked or killed (left at 1 health)
    BECOME_HAVEN = "become_haven"  # this location joins the player's havens
    DEFENDS_ONLY = "defends_only"  # it fights a disaster's attack only to defend `filter`
    RUN_ALONE = "run_alone"  # it may run away from a fight while its group fights on
    STRIKES = "strikes"  # this disaster strikes up to n of the characters fighting it a round
    # the player's piles, captives, blocks, disasters' places and card uses (power cards)
    RECOVER = "recover"  # n cards from the discard pile back `to` draw, hand, haven or play
    FETCH = "fetch"  # n cards searched from the draw pile `to` the hand or the holder
    DRAW = "draw"  # n cards from the draw pile into the hand; a disaster drawn is discarded
    FREE = "free"  # captured characters return to the haven now
    UNBLOCK = "unblock"  # blocked locations open again; a blocking disaster leaves play
    PUSH = "push"  # disasters move n locations along their path, away from the holder
    SURVIVE = "survive"  # a kill of the targets becomes a bonk
    RELOAD = "reload"  # n carried cards (weapons) get their printed uses back
    EASE = "ease"  # scavenge a location missing n of its required skills (0: one is enough)
    RETRIEVE = "retrieve"  # a party takes back n items a disaster at its location carries
    EDGE = "edge"  # the player wins ties and a game the disasters win by at most n items
    SWAP = "swap"  # the disaster reached and the one farthest from the card change places
    # Vehicles and forms (field2 additions).
    GUARD = "guard"  # a disaster fighting its group strikes this character before n aboard
    REPLACE = "replace"  # from the hand, this card replaces a character in play for `turns`
    # vehicles' carrying limits (power cards)
    CARRY = "carry"  # this vehicle carries at most n characters, its holder included
    STORE = "store"  # up to n flash effects in the hand do not count toward the hand limit
    DOUBLE_SKILLS = "double_skills"  # the character holds each printed skill twice
    HIDE = "hide"  # moving disasters pass over one group's location (the Maintenance phase)
    BOOST = "boost"  # a non-flying vehicle moves n more
    # flash effects played in a fight or held for a moment (flash additions)
    FRAIL = "frail"  # the fought disaster's health loss this round x n (n = 0: any loss defeats)
    CHARGE = "charge"  # the holder's attack this round + n x energy (its own, or everyone's)
    REVERSE_CHARM = "reverse_charm"  # held: a charm battle the player's character loses is won
    REVERSE = "reverse"  # the disaster moves back along the disaster path from now on
    FREE_CAST = "free_cast"  # held: pays the energy cost of another flash effect in a fight
    # the draw pile's order, stealing, and where a card sends characters (powers additions)
    REORDER = "reorder"  # the top n cards of the draw pile go back in the player's order
    SAFEGUARD = "safeguard"  # disasters cannot steal or take carried cards matching `cards`
    LEAP = "leap"  # the holder's party moves n more (max_times moves that need it)
    FORFEIT = "forfeit"  # the character holds `skill` n times fewer (an anti-skill)
    WEAR = "wear"  # this equipment is discarded once its wearer has lost n health in fights
    SHARE = "share"  # one printed skill passes to the holder, or from it, for `turns` turns
    # Information (field3 additions).
    REVEAL = "reveal"  # face-down cards become known to the player
    # Cards under locations, without scavenging (field3 additions).
    CLEAR = "clear"  # n random face-down disasters under the location are discarded
    UNEARTH = "unearth"  # n cards from under a location go to the holder
    BURY = "bury"  # n items the disasters hold as discarded go under a location with a disaster
    SUPPLY = "supply"  # n of the deck's unused items go into the player's haven
    REMATCH = "rematch"  # a discarded combat disaster attacks the party here; `mods` if beaten
    # Element boosters (characters).
    AMPLIFY = "amplify"  # power cards matching `cards` get n more on each additive modifier


class Target(StrEnum):
    """Who or what an effect reaches, from where the card is (its location, or the location
    it took effect at)."""

    SELF = "self"
    HERE = "here"  # every character at the location
    ONE_HERE = "one_here"  # one random character at the location
    STRONGEST_HERE = "strongest_here"  # highest damage + defense at the location
    NEAREST = "nearest"  # the nearest group of characters on the field
    NEAREST_ONE = "nearest_one"  # one random character of the nearest group
    WITHIN = "within"  # every character within `n` locations
    FIELD = "field"  # every character on the field
    PLAY = "play"  # every character in play (field and havens)
    STRONGEST = "strongest"  # the strongest character on the field
    OPPONENT = "opponent"  # in combat: the character(s) it fights or just hit
    DISASTERS = "disasters"  # every face-up disaster (narrowed by `cards`)
    NEAREST_DISASTER = "nearest_disaster"  # the nearest other combat disaster
    LOCATION = "location"  # the location it is at
    LOCATIONS = "locations"  # every location whose requirement mentions `skill`
    ITEMS_HERE = "items_here"  # items under the location
    CARRIED_HERE = "carried_here"  # cards carried by characters at the location
    CARDS_IN_PLAY = "cards_in_play"  # cards carried or equipped by characters in play
    NEAREST_CARD = "nearest_card"  # the nearest matching card carried on the field
    HAND = "hand"
    DISCARD_PILE = "discard_pile"  # the player's discard pile
    DRAW_PILE = "draw_pile"  # the player's draw pile


class Scope(StrEnum):
    """How long a MODIFY lasts."""

    ROUND = "round"  # this combat round
    COMBAT = "combat"  # this combat
    NEXT_COMBAT = "next_combat"  # the targets' next combat
    TURNS = "turns"  # `turns` of the player's turns (set0 rulebook, Lexicon "Duration")
    GAME = "game"  # for the rest of the game
    WHILE = "while"  # while the card is in play (the ALWAYS trigger)
    RETREAT = "retreat"  # a flash effect's opponent: its final attack on a party running away


CHARACTER_TARGETS = frozenset(
    {
        Target.SELF,
        Target.HERE,
        Target.ONE_HERE,
        Target.STRONGEST_HERE,
        Target.NEAREST,
        Target.NEAREST_ONE,
        Target.WITHIN,
        Target.FIELD,
        Target.PLAY,
        Target.STRONGEST,
        Target.OPPONENT,
    }
)
CARD_TARGETS = frozenset(
    {Target.ITEMS_HERE, Target.CARRIED_HERE, Target.CARDS_IN_PLAY, Target.NEAREST_CARD, Target.HAND}
)
LOCATION_TARGETS = frozenset({Target.LOCATION, Target.LOCATIONS})
DISASTER_TARGETS = frozenset({Target.SELF, Target.DISASTERS, Target.NEAREST_DISASTER})

# Which targets each action accepts, and the default when an entry names none.
ACTION_TARGETS: dict[Action, tuple[frozenset[Target], Target]] = {
    Action.BONK: (CHARACTER_TARGETS, Target.HERE),
    Action.KILL: (CHARACTER_TARGETS, Target.HERE),
    Action.DAMAGE: (CHARACTER_TARGETS, Target.HERE),
    Action.HEAL: (CHARACTER_TARGETS, Target.HERE),
    Action.DISABLE: (CHARACTER_TARGETS, Target.HERE),
    Action.HOLD: (CHARACTER_TARGETS, Target.HERE),
    Action.CAPTURE: (CHARACTER_TARGETS, Target.HERE),
    Action.SEND: (CHARACTER_TARGETS, Target.HERE),
    Action.DROP: (CHARACTER_TARGETS, Target.HERE),
    Action.GRANT: (CHARACTER_TARGETS, Target.SELF),
    Action.TRANSFORM: (CHARACTER_TARGETS | {Target.SELF}, Target.SELF),
    Action.MODIFY: (CHARACTER_TARGETS | DISASTER_TARGETS, Target.SELF),
    Action.DESTROY: (CARD_TARGETS, Target.ITEMS_HERE),
    Action.TAKE: (frozenset({Target.CARRIED_HERE, Target.ITEMS_HERE}), Target.CARRIED_HERE),
    Action.DISCARD_HAND: (frozenset({Target.HAND}), Target.HAND),
    Action.RESHUFFLE_HAND: (frozenset({Target.HAND}), Target.HAND),
    Action.MOVE_TO: (frozenset({Target.SELF}), Target.SELF),
    Action.PULL: (frozenset({Target.DISASTERS}), Target.DISASTERS),
    Action.ATTACK: (CHARACTER_TARGETS, Target.HERE),
    Action.BLOCK: (LOCATION_TARGETS, Target.LOCATION),
    Action.DESTROY_LOCATION: (frozenset({Target.LOCATION}), Target.LOCATION),
    Action.EXTRA_CARDS: (DISASTER_TARGETS, Target.SELF),
    Action.IGNORE_CARDS: (frozenset({Target.SELF}), Target.SELF),
    Action.PREFER: (frozenset({Target.SELF}), Target.SELF),
    Action.SPARE: (frozenset({Target.SELF}), Target.SELF),
    Action.NO_RETREAT: (frozenset({Target.SELF}), Target.SELF),
    Action.DEFEAT: (DISASTER_TARGETS, Target.SELF),
    Action.DISCARD: (DISASTER_TARGETS, Target.SELF),
    Action.SHIELD: (frozenset({Target.SELF}), Target.SELF),
    Action.UNLOCK: (frozenset({Target.LOCATIONS}), Target.LOCATIONS),
    Action.DUEL: (frozenset({Target.SELF}), Target.SELF),
    Action.APART: (frozenset({Target.SELF}), Target.SELF),
    # Character-side additions.
    Action.IMMUNE: (frozenset({Target.SELF, Target.HERE, Target.PLAY}), Target.SELF),
    Action.WAIVE: (frozenset({Target.SELF}), Target.SELF),
    Action.RECYCLE: (frozenset({Target.SELF, Target.DISASTERS, Target.CARDS_IN_PLAY}), Target.SELF),
    Action.FIRST_STRIKE: (frozenset({Target.SELF}), Target.SELF),
    Action.REVIVE: (frozenset({Target.PLAY}), Target.PLAY),
    Action.BAR: (frozenset({Target.LOCATION}), Target.LOCATION),
    Action.EXTRA_EQUIP: (frozenset({Target.SELF}), Target.SELF),
    Action.PRESERVE: (frozenset({Target.CARDS_IN_PLAY}), Target.CARDS_IN_PLAY),
    Action.EQUIP_ANYWHERE: (frozenset({Target.SELF}), Target.SELF),
    Action.ENDURE: (frozenset({Target.SELF, Target.HERE}), Target.HERE),
    Action.BECOME_HAVEN: (frozenset({Target.LOCATION}), Target.LOCATION),
    Action.DEFENDS_ONLY: (frozenset({Target.SELF}), Target.SELF),
    Action.RUN_ALONE: (frozenset({Target.SELF}), Target.SELF),
    Action.STRIKES: (frozenset({Target.SELF}), Target.SELF),
    Action.RECOVER: (frozenset({Target.DISCARD_PILE}), Target.DISCARD_PILE),
    Action.FETCH: (frozenset({Target.DRAW_PILE}), Target.DRAW_PILE),
    Action.DRAW: (frozenset({Target.DRAW_PILE}), Target.DRAW_PILE),
    Action.FREE: (frozenset({Target.PLAY}), Target.PLAY),
    Action.UNBLOCK: (LOCATION_TARGETS, Target.LOCATIONS),
    Action.PUSH: (frozenset({Target.DISASTERS, Target.NEAREST_DISASTER}), Target.NEAREST_DISASTER),
    Action.SURVIVE: (CHARACTER_TARGETS, Target.SELF),
    Action.RELOAD: (frozenset({Target.CARDS_IN_PLAY}), Target.CARDS_IN_PLAY),
    Action.EASE: (frozenset({Target.LOCATIONS}), Target.LOCATIONS),
    Action.RETRIEVE: (frozenset({Target.DISASTERS}), Target.DISASTERS),
    Action.EDGE: (frozenset({Target.SELF}), Target.SELF),
    Action.SWAP: (frozenset({Target.NEAREST_DISASTER}), Target.NEAREST_DISASTER),
    Action.STAY: (frozenset({Target.SELF, Target.HERE, Target.FIELD, Target.PLAY}), Target.HERE),
    Action.CARRY: (frozenset({Target.SELF}), Target.SELF),
    Action.STORE: (frozenset({Target.SELF}), Target.SELF),
    Action.DOUBLE_SKILLS: (frozenset({Target.SELF}), Target.SELF),
    Action.HIDE: (frozenset({Target.FIELD}), Target.FIELD),
    Action.BOOST: (frozenset({Target.SELF, Target.FIELD}), Target.SELF),
    Action.REORDER: (frozenset({Target.DRAW_PILE}), Target.DRAW_PILE),
    Action.SAFEGUARD: (frozenset({Target.SELF, Target.PLAY}), Target.PLAY),
    Action.LEAP: (frozenset({Target.SELF}), Target.SELF),
    Action.FORFEIT: (frozenset({Target.SELF}), Target.SELF),
    Action.WEAR: (frozenset({Target.SELF}), Target.SELF),
    Action.SHARE: (frozenset({Target.SELF, Target.FIELD}), Target.SELF),
}
# A character's next combat without retreat (No Way Out) as well as a disaster's rule.
ACTION_TARGETS[Action.NO_RETREAT] = (CHARACTER_TARGETS, Target.SELF)
# Vehicles and forms (field2 additions).
ACTION_TARGETS[Action.GUARD] = (frozenset({Target.SELF}), Target.SELF)
ACTION_TARGETS[Action.REPLACE] = (frozenset({Target.SELF}), Target.SELF)
# A haven's rule for every character in play (Squad Bay), as well as a character's own.
ACTION_TARGETS[Action.EQUIP_ANYWHERE] = (frozenset({Target.SELF, Target.PLAY}), Target.SELF)
# A character's standing boost to power cards of one kind while it is in play (Shayla-Shayla).
ACTION_TARGETS[Action.AMPLIFY] = (frozenset({Target.SELF}), Target.SELF)

_T = Trigger
# The triggers the interpreter fires for each kind of card (its callers in the rules); an entry
# using another is reported as not simulated rather than silently ignored.
FIRED_FOR: dict[str, frozenset[Trigger]] = {
    "disaster": frozenset(
        {_T.AFFECT, _T.ENTERS, _T.LANDS, _T.PASSES, _T.COMBAT, _T.ROUND, _T.HITS}
        | {_T.DEFEATED, _T.WINS, _T.KNOCKS_OUT, _T.TURN, _T.ALWAYS}
    ),
    "character": frozenset({_T.ALWAYS, _T.COMBAT, _T.ROUND, _T.TURN, _T.HURT, _T.AFFECT}),
    "item": frozenset({_T.ALWAYS, _T.COMBAT, _T.ROUND, _T.HURT, _T.AFFECT}),
    "equipment": frozenset({_T.ALWAYS, _T.COMBAT, _T.ROUND, _T.TURN}),
    "enhancement": frozenset({_T.ALWAYS, _T.COMBAT, _T.ROUND, _T.TURN}),
    "flash_effect": frozenset({_T.PLAYED}),
    "global_effect": frozenset({_T.PLAYED, _T.ALWAYS, _T.COMBAT, _T.ROUND, _T.TURN}),
    "location": frozenset({_T.SCAVENGED, _T.ALWAYS, _T.COMBAT}),
    "haven": frozenset({_T.ALWAYS, _T.TURN}),
    "combat": frozenset({_T.PLAYED}),  # drawn in a combat round or a charm battle
}
# What a combat card's text can do as it is played: change the recipient's or its opponent's
# abilities for the round or the combat, or restore health (interpreter.combat_cards).
COMBAT_CARD_ACTIONS = frozenset({Action.MODIFY, Action.HEAL})
# What an ALWAYS effect can do: a standing modifier, skill or rule, not a one-off event.
STANDING = frozenset(
    {
        Action.MODIFY,
        Action.GRANT,
        Action.PREFER,
        Action.SPARE,
        Action.NO_RETREAT,
        Action.IGNORE_CARDS,
        Action.EXTRA_CARDS,
        Action.BLOCK,
        Action.SHIELD,
        Action.UNLOCK,
        Action.DUEL,
        Action.APART,
        Action.IMMUNE,
        Action.STAY,
        Action.WAIVE,
        Action.RECYCLE,
        Action.FIRST_STRIKE,
        Action.REVIVE,
        Action.BAR,
        Action.EXTRA_EQUIP,
        Action.PRESERVE,
        Action.EQUIP_ANYWHERE,
        Action.ENDURE,
        Action.DEFENDS_ONLY,
        Action.RUN_ALONE,
        Action.STRIKES,
        Action.SURVIVE,
        Action.EASE,
        Action.EDGE,
        Action.CARRY,
        Action.STORE,
        Action.DOUBLE_SKILLS,
        Action.HIDE,
        Action.BOOST,
        Action.SAFEGUARD,
        Action.LEAP,
        Action.FORFEIT,
        Action.WEAR,
    }
)
STANDING |= {Action.GUARD, Action.REPLACE}  # vehicles and forms (field2 additions)
STANDING |= {Action.AMPLIFY}  # element boosters
FIRED_FOR["location"] = FIRED_FOR["location"] | {Trigger.STOPS}  # field2 additions
FIRED_FOR["location"] = FIRED_FOR["location"] | {Trigger.ENTERS}  # a party moves onto it
# Flash additions: effects of a flash effect played in a fight, or held for a charm battle.
ACTION_TARGETS[Action.FRAIL] = (frozenset({Target.OPPONENT}), Target.OPPONENT)
ACTION_TARGETS[Action.CHARGE] = (frozenset({Target.SELF, Target.PLAY}), Target.SELF)
ACTION_TARGETS[Action.REVERSE_CHARM] = (frozenset({Target.SELF}), Target.SELF)
ACTION_TARGETS[Action.REVERSE] = (frozenset({Target.NEAREST_DISASTER}), Target.NEAREST_DISASTER)
ACTION_TARGETS[Action.FREE_CAST] = (frozenset({Target.SELF}), Target.SELF)
FLASH_ONLY = frozenset({Action.FRAIL, Action.CHARGE, Action.REVERSE_CHARM, Action.FREE_CAST})
# Information (field3 additions): an item acts each Maintenance phase too (Reference Books), and
# the cards a party carries act as it stops on a location (Dream Mirror).
FIRED_FOR["item"] = FIRED_FOR["item"] | {Trigger.TURN, Trigger.STOPS}
FIRED_FOR["equipment"] = FIRED_FOR["equipment"] | {Trigger.STOPS}
FIRED_FOR["enhancement"] = FIRED_FOR["enhancement"] | {Trigger.STOPS}
ACTION_TARGETS[Action.CLEAR] = (frozenset({Target.LOCATION}), Target.LOCATION)
ACTION_TARGETS[Action.UNEARTH] = (frozenset({Target.LOCATIONS}), Target.LOCATIONS)
ACTION_TARGETS[Action.BURY] = (frozenset({Target.LOCATIONS}), Target.LOCATIONS)
ACTION_TARGETS[Action.SUPPLY] = (frozenset({Target.PLAY}), Target.PLAY)
ACTION_TARGETS[Action.REMATCH] = (frozenset({Target.PLAY}), Target.PLAY)
# REVEAL: under its own location (the top n), under other locations, or the top of the draw pile.
ACTION_TARGETS[Action.REVEAL] = (
    frozenset({Target.LOCATION, Target.LOCATIONS, Target.DRAW_PILE}),
    Target.LOCATION,
)


def unplayed(kind: str, effects: tuple[Effect, ...]) -> str:
    """Why the engine cannot play these effects of a card of this kind, or "" when it can."""
    fired = FIRED_FOR.get(kind, frozenset())
    for e in effects:
        if e.when not in fired:
            return f"the engine does not fire {e.when} effects of a {kind} yet"
        if e.when is Trigger.ALWAYS and e.do not in STANDING:
            return f"{e.do} cannot be a standing (always) effect"
        if kind == "combat" and (
            e.do not in COMBAT_CARD_ACTIONS
            or e.target not in (Target.SELF, Target.OPPONENT)
            or e.scope not in (None, Scope.ROUND, Scope.COMBAT)
        ):
            return f"a combat card's {e.do} on {e.target} is not played yet"
        if e.do in FLASH_ONLY and kind != "flash_effect":
            return f"{e.do} is played only from a flash effect"
    return ""


# goal: the location the player picks to go to next (Shortcut)
SEND_DESTINATIONS = ("haven", "right", "left", "here", "dimensional", "goal")
MOVE_DESTINATIONS = ("nearest_character", "nearest_disaster")
RECOVER_DESTINATIONS = ("draw", "hand", "haven", "play")  # play: a character to the haven
FETCH_DESTINATIONS = ("hand", "holder")  # holder: played on the character it is played on
DESTROY_DESTINATIONS = ("discard", "draw")  # draw: shuffled into the draw pile (not items)
RETRIEVE_DESTINATIONS = ("party", "location")  # location: under the disaster's location


@dataclass(frozen=True, slots=True)
class Effect:
    """One line of a card's behaviour. Fields a given action does not use stay at defaults;
    the loader rejects fields an action cannot use."""

    when: Trigger
    do: Action
    target: Target
    n: int = 1  # how many cards or characters, points of damage, locations (WITHIN)
    turns: int = 0  # duration in the player's turns; 0 means "while the source lasts"
    every: int = 1  # fires on every n-th occurrence of its trigger
    scope: Scope | None = None  # MODIFY only
    mods: tuple[tuple[Stat, Modifier], ...] = ()
    skill: str = ""  # GRANT; LOCATIONS (requirement mentions it)
    to: str = ""  # SEND / MOVE_TO destination
    filter: Requirement | None = None  # characters must meet it (one character at a time)
    exclude: Requirement | None = None  # characters meeting it are left out
    cards: tuple[str, ...] = ()  # card kinds or categories a card target must match (any)
    when_met: Requirement | None = None  # `if`: the party concerned meets it
    unless_met: Requirement | None = None  # `unless`: the party concerned does not meet it
    if_in_play: tuple[str, ...] = ()  # a card of one of these names is in play
    unless_in_play: tuple[str, ...] = ()
    pay: tuple[str, ...] = ()  # DEFEAT: the party discards one carried card of these kinds
    against: tuple[str, ...] = ()  # in combat: only against a disaster of these names/kinds
    max_times: int = 0  # fires at most this many times a game (0: no limit)
    if_here: tuple[str, ...] = ()  # cards that must all be at the location (held or carried)


@dataclass(frozen=True, slots=True)
class CardEffects:
    """Everything deckkit knows about one card's text."""

    card_id: str
    coverage: Coverage
    note: str  # what differs (approximate) or why not (none)
    effects: tuple[Effect, ...]
    source: str  # the effects file and entry, for error messages and reports
    # False: the printed ability modifiers (cards.csv columns) act only through ``effects``,
    # never as a standing bonus (a global effect whose text gates them: Palace Guard).
    columns: bool = True
