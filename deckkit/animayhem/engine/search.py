"""The search player: weighs its significant choices by playing them out on sampled games.

At each significant decision (where the parties move, whether a party attacks a disaster it
stands with, whether it scavenges; in a combat: who charms the disaster, what a won charm battle
makes a minor disaster do, whether to retreat and where to, which flash effects to play on whom)
it lists a few candidates, the heuristic player's own choice first. A decision is weighed only
when it has more than one sensible candidate, and at most ``MAX_CANDIDATES`` are weighed: a
retreat when the heuristic would retreat or the disaster's next hit would knock a character out,
flash effects only in a round they could decide, charm only with characters who have a fair
chance. For each of ``rollouts`` samples it deals a determinization of the game (``determinize``:
a copy in which every card the player cannot see is reshuffled among the places it could lie,
never read from the true order) and plays every candidate forward on its own copy of that same
sample (common random numbers) with the heuristic player, for ``horizon`` turns after the
current one or to the end of the game; it takes the candidate with the best mean
(:func:`rollout.value`), the heuristic's choice on a tie. This is determinized Monte Carlo
search, as card-game players by simulation do it.

The player reads the game through the read-only queries and its heuristic parent; the only other
engine calls are the two it is handed at construction (``Simulate``: play a copy forward) and
``determinize``, which copies. Its random numbers come from the game's chance without advancing
it (``chance.sampling_seed``), so a game plays the same for any number of worker processes.

A decision kind is a method of the policy, the candidates it weighs, the point its rollouts
resume from (``rollout.RESUME``; a choice made in a combat resumes the combat itself, carried
over to the copy), and a way to force the candidate on the copy (``_Forced``); adding one means
one entry of each.
"""

from __future__ import annotations

import _random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from deckkit.animayhem.construction.cards import CardType, CharmHalf, PowerCard
from deckkit.animayhem.engine.chance import SeededChance, sampling_seed
from deckkit.animayhem.engine.determinize import DealPlan, copy_game, deal
from deckkit.animayhem.engine.policy import HeuristicPolicy, Move, Policy, _combat_modifiers
from deckkit.animayhem.engine.queries import charm_halves, horde_bonus, retreat_options, usable
from deckkit.animayhem.engine.state import CHA, DEF, DMG, ENE, Char, Copy, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition

# play_out(copy, player, resume point, turns) -> value in [0, 1] (rollout.play_out)
Simulate = Callable[[Game, Policy, str, int], float]

DEFAULT_ROLLOUTS = 8
DEFAULT_HORIZON = 3
MAX_CANDIDATES = 3  # the most choices weighed in a combat decision
STAY = -2  # a retreat candidate: fight on
PlanKey = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


def plan_key(plans: Sequence[Move]) -> PlanKey:
    """A plan as uids and routes, so it can be compared and carried to a copy of the game."""
    return tuple((tuple(c.uid for c in party), tuple(route)) for party, route in plans)


class _Forced(HeuristicPolicy):
    """The heuristic player, except that the first decision of ``kind`` about ``about`` is
    answered with ``choice`` (on a copy of the game: characters are found again by uid).

    Given the player it plays for (``of``), it shares that player's memo tables (charm odds by
    combat-pile make-up and charms, the make-ups by the pile's cards, the starting characters
    by deck; a flash card's combat bonuses, and what the flash weighing reads of it, by card
    and text): each entry is a function of its key alone, the same for every copy of a game,
    so a rollout reads them instead of working them out again; what a table keeps about one
    game (the game whose make-up was read last) stays its own. Given the
    copy it plays (``game``) with the make-up of the game copied (``makeup``: the halves and
    their number in the shared table), it takes that as the copy's: a copy holds the same
    combat cards, and every combat card lies in the combat pile or its discards whenever the
    charm odds are asked (a card drawn is discarded before the rules move on), so reading the
    copy's piles again would find the same."""

    def __init__(
        self,
        kind: str,
        about: int,
        choice: Any,
        of: HeuristicPolicy | None = None,
        game: Game | None = None,
        makeup: tuple[tuple[tuple[CharmHalf, int], ...], int] | None = None,
    ) -> None:
        if of is None:
            super().__init__()
        else:
            # The heuristic's state (HeuristicPolicy.__init__), its tables by deck, card and
            # make-up taken from ``of`` rather than built only to be replaced; a rollout is a
            # player a few thousand times a game (tests/test_search.py checks that none is
            # forgotten).
            self._starters = of._starters
            self._charm_game = None
            self._halves = ()
            self._makeup = 0
            self._makeups = of._makeups
            self._charm_odds = of._charm_odds
            self._piles = of._piles
            self._bonus = of._bonus
            self._last_pile = None
            self._flash = of._flash
            self._limits_of = None
            self._max_on_field = 0
            self._max_party = 0
        self.kind = kind
        self.about = about
        self.choice = choice
        if game is not None and makeup is not None:
            self._charm_game = game
            self._halves, self._makeup = makeup

    def _take(self, kind: str, about: int) -> bool:
        if self.kind == kind and self.about == about:
            self.kind = ""
            return True
        return False

    def moves(self, game: Game, edition: Edition) -> list[Move]:
        if not self._take("moves", 0):
            return super().moves(game, edition)
        by_uid = {c.uid: c for c in game.chars}
        return [([by_uid[u] for u in party], list(route)) for party, route in self.choice]

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        if self._take("attack", d.uid):
            return bool(self.choice)
        return super().attack(game, d, chars)

    def scavenge(self, game: Game, party: list[Char], slot: int) -> bool:
        if self._take("scavenge", slot):
            return bool(self.choice)
        return super().scavenge(game, party, slot)

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        if self._take("charm", d.uid):
            return [c for u in self.choice for c in options if c.uid == u]
        return super().charmers(game, d, options, automatic)

    def charm_action(self, game: Game, d: Dis, c: Char, options: list[str]) -> str:
        if self._take("charm_action", d.uid) and self.choice in options:
            return str(self.choice)
        return super().charm_action(game, d, c, options)

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        if self._take("retreat", d.uid):
            if self.choice == STAY:
                return False
            self.kind, self.about = "retreat_to", d.uid  # where to: asked next
            return True
        return super().retreat(game, d, chars, rnd)

    def retreat_to(self, game: Game, chars: list[Char], slot: int) -> int:
        if self.kind == "retreat_to":
            self.kind = ""
            return int(self.choice)
        return super().retreat_to(game, chars, slot)

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        if self._take("flash", target.uid):
            cards = {x.uid: x for x in game.hand if isinstance(x, Copy)}
            chars = {c.uid: c for c in game.chars}
            return [(cards[x], chars[c]) for x, c in self.choice if x in cards]
        return super().combat_flash(game, fighters, target, short_damage, short_defense)


class SearchPolicy(HeuristicPolicy):
    """Determinized Monte Carlo search over the heuristic player (see the module's docstring)."""

    name = "search"

    def __init__(
        self,
        simulate: Simulate,
        rollouts: int = DEFAULT_ROLLOUTS,
        horizon: int = DEFAULT_HORIZON,
        goals: int = 2,
    ) -> None:
        super().__init__()
        if rollouts < 1 or horizon < 0:
            raise ValueError("the search needs at least one rollout and a horizon of 0 or more")
        self.simulate = simulate
        self.rollouts = rollouts
        self.horizon = horizon
        self.goals = goals  # goals weighed besides the heuristic's own
        self.decisions = 0  # decisions weighed by rollouts (for the cost figures)
        self.weighed: dict[str, int] = {}  # those decisions by kind
        self.changed: dict[str, int] = {}  # and those where the heuristic's choice lost
        self._retreat_to: tuple[int, int, int] | None = None  # (turn, disaster, where) chosen
        # The combat pile's make-up of the game being played, read at its first weighed
        # decision and handed to every rollout's player (_Forced): the same in every copy.
        self._makeup_game: Game | None = None
        self._game_makeup: tuple[tuple[tuple[CharmHalf, int], ...], int] = ((), 0)

    def best(self, game: Game, kind: str, about: int, resume: str, choices: list[Any]) -> int:
        """The index of the choice with the best mean value over the rollouts. In a combat
        (``resume`` "combat") another choice replaces the heuristic's (the first) only when its
        mean lead over it, sample by sample, exceeds the lead's standard error: those choices
        are many and often close, and a lead within the noise of a few samples is no reason to
        leave the heuristic."""
        if len(choices) < 2:
            return 0
        self.decisions += 1
        self.weighed[kind] = self.weighed.get(kind, 0) + 1
        salt = game.turn * 1009 + about + _SALT.get(kind, 0)
        # (The C generators under ``random.Random``, seeded as it seeds them, with no
        # Python-level ``__init__``: the dealer draws as ``random.Random`` would.)
        rng = _random.Random(sampling_seed(game.chance, salt))
        if self._makeup_game is not game:
            halves = charm_halves(game)
            self._makeup_game = game
            self._game_makeup = (halves, self._makeup_number(halves))
        makeup = self._game_makeup
        plan = DealPlan(game)  # where each sample's hidden cards lie, found once
        values: list[list[float]] = [[] for _ in choices]
        last = len(choices) - 1
        for _ in range(self.rollouts):
            # One sample, dealt once: every choice plays on its own copy of it (common random
            # numbers), each with a chance of the same seed, the last on the sample itself.
            # The sample's chance is not drawn from until then, so each copy's is a copy of
            # it (SeededChance: the same state as seeding it again).
            dealer = _random.Random(rng.getrandbits(64))
            seed = dealer.getrandbits(64)
            sample = deal(game, seed, dealer, plan)
            fresh = sample.chance
            assert isinstance(fresh, SeededChance)
            for i, choice in enumerate(choices):
                copy = sample if i == last else copy_game(sample, SeededChance(seed, fresh))
                forced = _Forced(kind, about, choice, self, copy, makeup)
                values[i].append(self.simulate(copy, forced, resume, self.horizon))
        totals = [sum(v) for v in values]
        best = 0
        for i, total in enumerate(totals):
            if total > totals[best] + 1e-9:
                best = i
        if best and resume == "combat" and not _clear_lead(values[best], values[0]):
            best = 0
        if best:
            self.changed[kind] = self.changed.get(kind, 0) + 1
        return best

    def moves(self, game: Game, edition: Edition) -> list[Move]:
        """Where the parties go: the heuristic's plan, staying put, or heading for one of the
        next nearest goals instead."""
        mine = super().moves(game, edition)
        options: dict[PlanKey, list[Move]] = {plan_key(mine): mine}
        options.setdefault((), [])
        anchors = [c.slot for c in game.on_field()] or [game.field.haven_slot]
        here = max(set(anchors), key=anchors.count)
        party = game.on_field() or game.in_haven()
        goals = sorted(self._targets(game, party), key=lambda s: (game.dist[here][s], s))
        for slot in goals[: self.goals + 1]:
            plan = self.plan_moves(game, edition, slot)
            options.setdefault(plan_key(plan), plan)
        keys = list(options)
        return options[keys[self.best(game, "moves", 0, "move", keys)]]

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        mine = super().attack(game, d, chars)
        return [mine, not mine][self.best(game, "attack", d.uid, "attack", [mine, not mine])]

    def scavenge(self, game: Game, party: list[Char], slot: int) -> bool:
        mine = super().scavenge(game, party, slot)
        return [mine, not mine][self.best(game, "scavenge", slot, "scavenge", [mine, not mine])]

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        """Who charms: the heuristic's choice; the least useful fighter instead of the likeliest
        charmer for a battle the rules start anyway (a loser may not attack); no declared
        charm battle beyond that one; or every character with a fair chance to win."""
        mine = super().charmers(game, d, options, automatic)
        if not options:
            return mine
        odds = {c.uid: self._odds(game, c.cur[CHA], d.charm)[0] for c in options}
        ranked = sorted(options, key=lambda c: (-odds[c.uid], c.uid))
        fair = [c for c in ranked if odds[c.uid] >= FAIR_CHARM]
        weakest = min(options, key=lambda c: (c.cur[DMG], c.cur[DEF], c.uid))
        first = mine[:automatic] or ranked[:automatic]
        lists = [
            mine,
            first,
            [weakest] if automatic else [],
            first + [c for c in fair if c not in first],
        ]
        if not automatic:
            lists.append(fair[:1])
        if automatic and not d.major:
            lists = [x[:1] for x in lists]  # only the automatic one is waged
        keys: list[tuple[int, ...]] = []
        for x in lists:
            key = tuple(c.uid for c in x)
            if key not in keys and len(keys) < MAX_CANDIDATES:
                keys.append(key)
        if len(keys) < 2:
            return mine
        by_uid = {c.uid: c for c in options}
        return [by_uid[u] for u in keys[self.best(game, "charm", d.uid, "combat", keys)]]

    def charm_action(self, game: Game, d: Dis, c: Char, options: list[str]) -> str:
        """Take the item it carries or incapacitate it, as the rollouts show better."""
        mine = super().charm_action(game, d, c, options)
        others = [mine] + [o for o in options if o != mine]
        return others[self.best(game, "charm_action", d.uid, "combat", others)]

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        """Fight on, or retreat to one of the heuristic's two likeliest places, weighed when
        the heuristic would retreat and whenever the disaster's next hit would knock one out."""
        mine = super().retreat(game, d, chars, rnd)
        self._retreat_to = None
        hit = d.damage + horde_bonus(game, d)
        if not chars or not (mine or any(hit - c.cur[DEF] >= c.health for c in chars)):
            return mine
        slot = chars[0].slot
        where = retreat_options(game, chars, slot)
        if not where:
            return mine
        h = super().retreat_to(game, chars, slot)
        by_distance = sorted(where, key=lambda s: (s != h, s))
        goes = by_distance[: MAX_CANDIDATES - 1]
        keys = [h, STAY, *goes[1:]] if mine else [STAY, *goes]
        pick = keys[self.best(game, "retreat", d.uid, "combat", keys)]
        if pick == STAY:
            return False
        self._retreat_to = (game.turn, slot, pick)
        return True

    def retreat_to(self, game: Game, chars: list[Char], slot: int) -> int:
        chosen, self._retreat_to = self._retreat_to, None
        if chosen is not None and chosen[:2] == (game.turn, slot):
            return chosen[2]
        return super().retreat_to(game, chars, slot)

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        """The heuristic's flash effects, none, or the strongest single one that could decide
        the round (defense on the attacked character, damage on a fighter who can pay),
        weighed only in a round they could decide."""
        mine = super().combat_flash(game, fighters, target, short_damage, short_defense)
        if short_damage <= 0 and short_defense <= 0:
            return mine
        singles: list[tuple[int, Copy, Char]] = []
        for x in game.hand:
            card = x.card
            if not (isinstance(x, Copy) and isinstance(card, PowerCard)):
                continue
            if card.type is not CardType.FLASH_EFFECT:
                continue
            mods = _combat_modifiers(card, game)
            cost = card.energy_cost or 0
            guard = short_defense > 0 and mods.get("defense", 0) > 0
            if guard and usable(target, card) and target.cur[ENE] >= cost:
                singles.append((mods["defense"], x, target))
            if short_damage > 0 and mods.get("damage", 0) > 0:
                payer = next((c for c in fighters if usable(c, card) and c.cur[ENE] >= cost), None)
                if payer is not None:
                    singles.append((mods["damage"], x, payer))
        if not singles:
            return mine
        singles.sort(key=lambda t: (-t[0], t[1].uid, t[2].uid))
        keys: list[tuple[tuple[int, int], ...]] = []
        for plays in (
            [(x.uid, c.uid) for x, c in mine],
            [],
            *[[(x.uid, c.uid)] for _, x, c in singles],
        ):
            key = tuple(plays)
            if key not in keys and len(keys) < MAX_CANDIDATES:
                keys.append(key)
        if len(keys) < 2:
            return mine
        pick = keys[self.best(game, "flash", target.uid, "combat", keys)]
        cards = {x.uid: x for x in game.hand if isinstance(x, Copy)}
        chars = {c.uid: c for c in (*fighters, target)}
        return [(cards[x], chars[c]) for x, c in pick]


def _clear_lead(mine: list[float], theirs: list[float]) -> bool:
    """The paired mean lead of ``mine`` over ``theirs`` exceeds its standard error."""
    n = len(mine)
    leads = [a - b for a, b in zip(mine, theirs, strict=True)]
    mean = sum(leads) / n
    if n < 2:
        return mean > 0
    var = sum((x - mean) ** 2 for x in leads) / (n - 1)
    return mean > 0 and mean * mean * n > var


FAIR_CHARM = 0.3  # a charmer's chance to win worth weighing
# Kept apart, the samples of decisions about the same card in the same turn.
_SALT = {"charm": 1 << 20, "charm_action": 2 << 20, "retreat": 3 << 20, "flash": 4 << 20}
