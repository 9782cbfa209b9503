"""One seeded party game: the skirmish rules (:mod:`.skirmish`) played by the players
(:mod:`.players`). Here, above both, so the players may read the rules' state without the rules
importing the players."""

from __future__ import annotations

import random

from deckkit.animatactics.engine.duel import TURNS
from deckkit.animatactics.engine.options import DEFAULT_RULES, LEVELS, RuleSet
from deckkit.animatactics.engine.players import make_policy
from deckkit.animatactics.engine.skirmish import (
    GameResult,
    GameState,
    Side,
    Trace,
    advance,
    canonical,
)


def initiative_roll(dice: random.Random, bonus_a: int, bonus_b: int) -> bool:
    """Whether the first side wins the roll for the first action: "each player rolls a die, with
    the high roller deciding who will act first" (rulebook, "Place the Action counters and decide
    who takes the first action"), each adding +1 per character with Initiative (the data's rule:
    "a party with several characters with Initiative add +1 for each"); ties roll again. The
    winner acts first."""
    while True:
        a = dice.randint(1, 10) + bonus_a
        b = dice.randint(1, 10) + bonus_b
        if a != b:
            return a > b


def play_game(
    sides: tuple[Side, Side],
    seed: int,
    game: int,
    turns: int = TURNS,
    rules: RuleSet = DEFAULT_RULES,
    trace: Trace | None = None,
) -> GameResult:
    """One game under the rule options ``rules``; its dice come from (seed, game) alone, the
    players' choices from their own stream of the same pair. With ``trace`` the game's events
    are kept there in words (the very same game is played)."""
    dice = random.Random(f"anima-tactics:{seed}:{game}")
    prng = random.Random(f"anima-tactics-players:{seed}:{game}")
    bonus = (
        sum(1 for f in sides[0].fighters if f.kit.initiative),
        sum(1 for f in sides[1].fighters if f.kit.initiative),
    )
    # "each player rolls a die, with the high roller deciding"; with no Initiative on either
    # side, one draw of the dice (the roll's outcome alone matters)
    a_first = dice.random() < 0.5 if bonus == (0, 0) else initiative_roll(dice, bonus[0], bonus[1])
    (s0, order0), (s1, order1) = canonical(sides[0]), canonical(sides[1])
    g = GameState((s0, s1), 0 if a_first else 1, turns, rules)
    if trace is not None:
        trace.start((s0, s1))
        first = trace.parties[0 if a_first else 1]
        why = f" (Initiative: +{bonus[0]} and +{bonus[1]} to the rolls)" if bonus != (0, 0) else ""
        trace.add(f"turn 1: {first} wins the roll for the first action{why}")
        g.log = trace
    pols = (make_policy(s0.policy), make_policy(s1.policy))
    advance(g, pols, dice, prng, turns)
    lives: list[tuple[int, ...]] = []
    for team, order in zip(g.teams, (order0, order1), strict=True):
        back = [0] * len(order)
        for pos, original in enumerate(order):
            back[original] = team[pos].life
        lives.append(tuple(back))
    standing = (g.standing(0), g.standing(1))
    winner: int | None = None
    # "Winning": "the player with the most levels on the table at the end of 10 turns is the
    # winner" (time_limit=levels); time_limit=draw: a game still standing is a draw.
    if standing[0] != standing[1] and (g.by_ko or rules.time_limit == LEVELS):
        winner = 0 if standing[0] > standing[1] else 1
    return GameResult(
        winner, g.by_ko, g.turn + 1 if g.by_ko else g.turn, (lives[0], lives[1]), a_first,
        g.charges, g.attacks,
    )  # fmt: skip
