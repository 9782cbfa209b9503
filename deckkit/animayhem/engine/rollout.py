"""Playing a copied game forward from where a decision is taken: the search player's simulator.

The search player (``search.py``) reads the game only through the read-only queries; to weigh a
choice it hands a determinized copy (``determinize.py``) and a player to this module, which plays
the copy on from the point in the turn where the choice was asked for and says how well it went.
The real game is never touched here.

Where a rollout resumes (the phase functions of ``phases.py``):

* ``move``: the Move phase from its start (the player's plan is the phase's first decision),
  then the Scavenge phase;
* ``attack``: the end of the Move phase, where parties may attack the disasters they stand with,
  then the Scavenge phase;
* ``scavenge``: the Scavenge phase from its start (a location already scavenged this turn is not
  scavenged again: ``game.done_scavenging``);
* ``combat``: the combat being fought (the game's ``fighting``: the charm battles, a won charm
  battle's action, the start of a round or its flash effects), carried over to the copy and
  fought on from the step where the choice was asked for, then the phases after the current
  one. The rest of the current phase (other parties' moves, the scavenging that called the
  combat) is not played: the same for every candidate, so it does not favour one.

Then whole turns, up to the horizon or the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from deckkit.animayhem.engine.combat import Combat, GameOver, _Side, go_on
from deckkit.animayhem.engine.endgame import check_end
from deckkit.animayhem.engine.hooks import EngineHooks
from deckkit.animayhem.engine.interpreter.common import Sides
from deckkit.animayhem.engine.phases import (
    PHASES,
    move_phase,
    party_attacks,
    scavenge_phase,
    turn,
)
from deckkit.animayhem.engine.state import Char, Game

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.engine.policy import Policy

Resume = Callable[[Game, "Edition", "Policy"], None]


def _rest_of_move(game: Game, edition: Edition, policy: Policy) -> None:
    move_phase(game, edition, policy)
    check_end(game, edition)
    scavenge_phase(game, edition, policy)
    check_end(game, edition)


def _rest_of_attacks(game: Game, edition: Edition, policy: Policy) -> None:
    party_attacks(game, edition, policy)
    check_end(game, edition)
    scavenge_phase(game, edition, policy)
    check_end(game, edition)


def _rest_of_scavenge(game: Game, edition: Edition, policy: Policy) -> None:
    scavenge_phase(game, edition, policy)
    check_end(game, edition)


# The phase functions by the name each gives ``game.phase``, in turn order.
PHASE_NAMES = ("discard", "reload", "maintenance", "equip", "move", "scavenge")


def _rest_of_combat(game: Game, edition: Edition, policy: Policy) -> None:
    if not game.fighting:
        raise RuntimeError("a combat rollout needs the combat being fought")
    go_on(game, edition, policy, carried(game.fighting[-1], game))
    check_end(game, edition)
    if game.phase in PHASE_NAMES:
        for phase in PHASES[PHASE_NAMES.index(game.phase) + 1 :]:
            phase(game, edition, policy)
            check_end(game, edition)


RESUME: dict[str, Resume] = {
    "move": _rest_of_move,
    "attack": _rest_of_attacks,
    "scavenge": _rest_of_scavenge,
    "combat": _rest_of_combat,
}


def carried(f: Combat, game: Game) -> Combat:
    """Combat ``f`` carried over to ``game``, a copy of the game it is fought in: the same step
    and round, its characters and disaster found again by uid, nothing mutable shared."""
    chars = {c.uid: c for c in game.chars}
    d = next(x for x in game.disasters if x.uid == f.d.uid)

    def each(cs: list[Char]) -> list[Char]:
        return [chars[c.uid] for c in cs]

    g = Combat(d, f.slot, f.initiator, each(f.chars))
    g.stage = f.stage
    g.charmer = None if f.charmer is None else chars[f.charmer.uid]
    g.incapacitated, g.effects, g.extra, g.cap = f.incapacitated, f.effects, f.extra, f.cap
    g.bonus_dmg, g.bonus_def = f.bonus_dmg, f.bonus_def
    g.ally_damage, g.ally_defense = f.ally_damage, f.ally_defense
    g.warded, g.charmed, g.energised = set(f.warded), set(f.charmed), set(f.energised)
    g.start_health = dict(f.start_health)
    g.char_mods = {u: list(m) for u, m in f.char_mods.items()}
    g.rnd = f.rnd
    g.lasting, g.blocked, g.choose_card = f.lasting, f.blocked, f.choose_card
    fx = f.fx_sides
    if fx is not None:
        s = Sides(d, [])
        s.chars = set(fx.chars)
        s.round_chars = {u: list(m) for u, m in fx.round_chars.items()}
        s.combat_chars = {u: list(m) for u, m in fx.combat_chars.items()}
        s.dis_round, s.combat_dis = list(fx.dis_round), list(fx.combat_dis)
        s.first, s.lone, s.loss_times = fx.first, fx.lone, fx.loss_times
        g.fx_sides = s
    if f.target is not None:
        g.target = chars[f.target.uid]
        g.fighters, g.alive, g.spent = each(f.fighters), each(f.alive), each(f.spent)
        g.drawn = None if f.drawn is None else list(f.drawn)
        was, t = f.fsides, f.tside
        assert t is not None
        g.fsides = [_Side(c, was[i].damage, was[i].defense) for i, c in enumerate(g.fighters)]
        # The target's side: a fighter's when it fights (the same side), else its own.
        g.tside = _Side(g.target, t.damage, t.defense)
        for i in range(len(was)):
            if was[i] is t:
                g.tside = g.fsides[i]
        if f.dside is not None:
            g.dside = _Side(d, f.dside.damage, f.dside.defense)
            g.shielded = g.dside if f.shielded is f.dside else None
    return g


def value(game: Game) -> float:
    """How well a game stands for the player, in [0, 1]: 1 won, 0 lost, 0.5 ended neither way
    (a stall, or an undecided majority: final, so its item lead no longer counts); a game still
    in play by the share of the items in play each side holds (more than half wins), and a
    little by how many characters the player still has in play."""
    if game.outcome == "win":
        return 1.0
    if game.outcome == "loss":
        return 0.0
    if game.outcome is not None:
        return 0.5
    n = max(1, game.tally_in_play())
    lead = (game.items_player(tally=True) - game.items_disasters(tally=True)) / n
    standing = sum(1 for c in game.chars if c.zone in ("field", "haven"))
    return 0.5 + 0.4 * lead + 0.05 * min(1.0, standing / 4)


def play_out(game: Game, policy: Policy, resume: str, turns: int) -> float:
    """Play ``game`` (a copy: it is changed, and is done with afterwards) from ``resume`` with
    ``policy``, then up to ``turns`` whole turns; the :func:`value` where it stops."""
    hooks = game.hooks
    assert isinstance(hooks, EngineHooks)
    edition = hooks.edition
    game.hooks = EngineHooks(edition, policy)
    try:
        RESUME[resume](game, edition, policy)
        for _ in range(turns):
            if turn(game, edition, policy):  # the turn's end checks return, not raise
                break
    except GameOver:  # an end within a phase
        pass
    worth = value(game)
    # The copy is done with: break its cycles (its disasters point back at it, and so does the
    # player, through the hooks, once it has read the copy's charm odds), so that reference
    # counting frees it at once. Left cyclic, thousands of copies a game were garbage only the
    # cyclic collector could free, and its runs walked every young copy still alive.
    game.hooks = hooks
    for d in game.disasters_dealt:
        d.game = None
    return worth
