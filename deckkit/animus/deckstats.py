"""What an Animus team is before any battle: its composition, the exact chance of having drawn
a character (or a kind of character) by a given turn, and sample opening hands, as
`deckkit stats` gives them for an Ani-Mayhem deck (deckkit.animayhem.deckstats).

The draw, as the engine deals it (animus-rules-v3.5.txt, "Setup" and "Turn Sequence";
:func:`deckkit.animus.engine.play.setup`, :func:`deckkit.animus.engine.phases.reset_phase`):

- "each player shuffles their 9 cards to form a deck and draws 3 cards" (the opening hand);
- "Reset Phase - You may choose a single card in your hand and place it on the bottom of your
  deck. Then you must draw up to your hand size of 3", at the end of each of your turns; an
  Entity's ``hand(N)`` raises the hand size (its first Reset Phase tops the hand up to it).

So by the end of your turn N the cards drawn are the hand size plus one for each card that left
the hand in each turn: ``draws_per_turn``, one by default (one card played a turn: "You may play
one card from your hand"). A card put on the bottom comes back only after the rest of the deck,
and a ``draw(N)`` ability draws more; given the count, every chance is exact: the
hypergeometric probabilities of the shuffle, in rational arithmetic, never a simulation.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from deckkit.animus.construction.rules import rule_numbers
from deckkit.animus.construction.team import Team
from deckkit.core.draws import none_drawn

DEFAULT_TURNS = (0, 1, 2, 3, 4, 6)  # 0: the opening hand; a 9-card deck is drawn out by turn 6


def hand_size(team: Team) -> int:
    """ "draw up to your hand size of 3", plus the Entity's ``hand(N)``."""
    return rule_numbers().hand_size + (team.entity.extra_hand if team.entity else 0)


def drawn_by(team: Team, turn: int, draws_per_turn: int) -> int:
    """Cards drawn by the end of your turn ``turn`` (0: the opening hand), at most the deck."""
    deck = len(team.cards)
    if turn == 0:
        return min(rule_numbers().opening_hand, deck)
    return min(hand_size(team) + turn * draws_per_turn, deck)


def composition(team: Team) -> list[dict[str, Any]]:
    """The team by type and by level (a row per kind, then its members indented)."""
    rows: list[dict[str, Any]] = [
        {"key": "characters", "label": "characters", "count": len(team.cards), "level": 0}
    ]
    types = Counter(c.type for c in team.cards)
    for name in sorted(types, key=str.casefold):
        rows.append({"key": f"type:{name}", "label": name, "count": types[name], "level": 1})
    levels = Counter(c.level for c in team.cards)
    rows.append(
        {"key": "levels", "label": "levels", "count": sum(c.level for c in team.cards), "level": 0}
    )
    for lv in sorted(levels):
        rows.append({"key": f"level:{lv}", "label": f"level {lv}", "count": levels[lv], "level": 1})
    with_play = sum(1 for c in team.cards if any(str(a.keyword) == "Play" for a in c.abilities))
    rows.append(
        {"key": "play_ability", "label": "with a Play ability", "count": with_play, "level": 0}
    )
    if team.entity is not None:
        rows.append(
            {"key": "entity", "label": f"Entity: {team.entity.name}", "count": 1, "level": 0}
        )
    return rows


def draw_chances(
    team: Team, turns: tuple[int, ...] = DEFAULT_TURNS, draws_per_turn: int = 1
) -> list[dict[str, Any]]:
    """The chance of having drawn at least one card of each kind, and each character, by each
    turn (exact fractions turned to floats)."""
    deck = len(team.cards)
    draws = [drawn_by(team, t, draws_per_turn) for t in turns]
    rows: list[dict[str, Any]] = []

    def add(key: str, label: str, copies: int) -> None:
        if copies > 0:
            chances = [float(1 - none_drawn(deck, copies, d)) for d in draws]
            rows.append({"key": key, "label": label, "copies": copies, "chances": chances})

    types = Counter(c.type for c in team.cards)
    for name in sorted(types, key=str.casefold):
        add(f"type:{name}", f"any {name}", types[name])
    levels = Counter(c.level for c in team.cards)
    for lv in sorted(levels):
        add(f"level:{lv}", f"any level {lv}", levels[lv])
    for card in sorted(team.cards, key=lambda c: (-c.level, c.name.casefold())):
        add(f"card:{card.name}", card.name, 1)
    return rows


def sample_hands(team: Team, seed: int, count: int) -> list[list[str]]:
    """Opening hands as the engine deals battles 0 .. count-1 of seed ``seed`` (the team as the
    first side, shuffled first: the same as `deckkit play TEAM --vs OTHER --seed S --game I`
    starts with, whatever OTHER is)."""
    from deckkit.animus.engine.play import Lineup, setup
    from deckkit.core.chance import SeededChance

    lineup = Lineup(team.cards, team.entity)
    hands = []
    for i in range(count):
        battle = setup((lineup, lineup), team.options, SeededChance.for_game(seed, i))
        hands.append(sorted((c.name for c in battle.sides[0].hand), key=str.casefold))
    return hands


def team_stats(
    team: Team,
    *,
    turns: tuple[int, ...] = DEFAULT_TURNS,
    draws_per_turn: int = 1,
    hands: int = 3,
    seed: int = 0,
) -> dict[str, Any]:
    """The whole document (for `deckkit stats TEAM --format json`)."""
    numbers = rule_numbers()
    size = hand_size(team)
    return {
        "game": "animus",
        "deck": team.name,
        "team_path": str(team.path),
        "composition": composition(team),
        "draw": {
            "deck": len(team.cards),
            "opening_hand": numbers.opening_hand,
            "hand_size": size,
            "draws_per_turn": draws_per_turn,
        },
        "turns": list(turns),
        "drawn": [drawn_by(team, t, draws_per_turn) for t in turns],
        "draw_chances": draw_chances(team, turns, draws_per_turn),
        "sample_hands": sample_hands(team, seed, hands) if hands else [],
        "note": (
            f"Opening hand: {numbers.opening_hand} of the {len(team.cards)} shuffled cards; "
            f"by the end of your turn N (its Reset Phase) the hand is drawn up to {size}"
            + (" (the Entity's hand size)" if size != numbers.hand_size else "")
            + f" after {draws_per_turn} card{'s' if draws_per_turn != 1 else ''} left it a "
            "turn. Exact hypergeometric chances; a draw() ability draws more, and a card put "
            "on the bottom in the Reset Phase comes back only after the rest of the deck."
        ),
    }
