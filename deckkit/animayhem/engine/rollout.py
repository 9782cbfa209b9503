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
  scavenged again: ``game.done_scavenging``).

Then whole turns, up to the horizon or the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from deckkit.animayhem.engine.combat import GameOver
from deckkit.animayhem.engine.endgame import check_end
from deckkit.animayhem.engine.hooks import EngineHooks
from deckkit.animayhem.engine.phases import move_phase, party_attacks, play_turn, scavenge_phase
from deckkit.animayhem.engine.state import Game

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


RESUME: dict[str, Resume] = {
    "move": _rest_of_move,
    "attack": _rest_of_attacks,
    "scavenge": _rest_of_scavenge,
}


def value(game: Game) -> float:
    """How well a game stands for the player, in [0, 1]: 1 won, 0 lost; otherwise by the share
    of the items in play each side holds (more than half wins), and a little by how many
    characters the player still has in play."""
    if game.outcome == "win":
        return 1.0
    if game.outcome == "loss":
        return 0.0
    n = max(1, game.tally_in_play())
    lead = (game.items_player(tally=True) - game.items_disasters(tally=True)) / n
    standing = sum(1 for c in game.chars if c.zone in ("field", "haven"))
    return 0.5 + 0.4 * lead + 0.05 * min(1.0, standing / 4)


def play_out(game: Game, policy: Policy, resume: str, turns: int) -> float:
    """Play ``game`` (a copy: it is changed) from ``resume`` with ``policy``, then up to
    ``turns`` whole turns; the :func:`value` where it stops."""
    hooks = game.hooks
    assert isinstance(hooks, EngineHooks)
    edition = hooks.edition
    game.hooks = EngineHooks(edition, policy)
    try:
        RESUME[resume](game, edition, policy)
        for _ in range(turns):
            play_turn(game, edition, policy)
    except GameOver:
        pass
    return value(game)
