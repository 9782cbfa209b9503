"""The rule options of an Anima Tactics game: the readings the Saga I rulebook leaves open, as
one frozen object the duel (:mod:`.duel`) and the party game (:mod:`.skirmish`) read.

Each option, its values, its default and the passage it reads are data:
``deckkit/animatactics/construction/rules.toml`` (docs/interpretations.md, "Anima Tactics").
The defaults here are that file's defaults (a test holds them equal);
:func:`deckkit.animatactics.analysis.readings.rule_set` turns ``NAME=VALUE`` settings into a
:class:`RuleSet`.
"""

from __future__ import annotations

from dataclasses import dataclass

# time_limit: who wins a fight still standing after the last turn.
LEVELS = "levels"  # "the player with the most levels on the table at the end of 10 turns"
DRAW = "draw"  # a draw: half a win each
# initiative: who acts first in each turn's Action Phase.
ONCE = "once"  # the initiative roll's choice holds for every turn
ALTERNATE = "alternate"  # the player who acted second acts first next turn
# board: what a game without a board stands for.
OPEN = "open"  # every enemy within Charge reach from the first turn
APART = "apart"  # the parties deploy out of reach: the first turn closes the distance
RUN_COST = 2  # "Run (2 Actions, Once per Turn)"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One value of every rule option (the defaults: rules.toml's)."""

    time_limit: str = LEVELS
    counter_dodge: bool = False
    opening_charge: bool = True
    initiative: str = ONCE
    board: str = OPEN


DEFAULT_RULES = RuleSet()
