"""What a deck is before any game is played: its composition, the exact chance of having drawn a
card (or a kind of card) by a given turn under the edition's draw rules, and sample opening
hands, as deck builders for other card games show first.

The draw, as the engine deals it (set0 rulebook, Part II "Game Setup" and "Reload Phase"; 1996
rules "Setup": "Take the rest of your Characters and all of your Power cards ... Shuffle them.
Draw 7"; see :mod:`deckkit.animayhem.engine.setup`):

- the player puts up to ``starting_characters`` characters in the haven, and one haven in play;
- the opening hand is ``hand_limit`` cards dealt from the *pool*: the power cards, plus the other
  characters when the edition deals them into the hand (``hand_from_characters``);
- two disasters are laid under each location, drawn at random from all the disasters;
- the *draw pile* is shuffled from what is left: the rest of the pool, the spare havens, the
  other characters (when not in the pool) and the disasters not under a location;
- each turn's Reload phase draws from the top of the draw pile.

How many cards a Reload phase draws depends on the cards played (it refills the hand to the
limit and stops at a disaster), so the chance "by turn N" counts ``draws_per_turn`` cards a turn
(one by default: a hand that played one card). Given that count every chance is exact: the
hypergeometric probabilities of the deal, in rational arithmetic, never a simulation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from deckkit.animayhem.construction.cards import (
    POWER_TYPES,
    CardType,
    CharacterCard,
    DisasterCard,
    LocationCard,
)
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.requirements import AnySkillTerm, SkillTerm
from deckkit.core.draws import hypergeom_pmf, none_drawn

STARTING_DISASTERS_PER_LOCATION = 2  # set0 rulebook, "Place two disaster cards ... underneath"
DEFAULT_TURNS = (0, 1, 2, 3, 5, 8)  # 0: the opening hand
KIND_LABELS: dict[CardType, str] = {
    CardType.EQUIPMENT: "equipment",
    CardType.ENHANCEMENT: "enhancement",
    CardType.FLASH_EFFECT: "flash effect",
    CardType.GLOBAL_EFFECT: "global effect",
}


@dataclass(frozen=True)
class DrawModel:
    """The sizes of the deal for one deck under one edition (see the module's docstring)."""

    pool: int  # cards the opening hand is dealt from
    hand: int  # cards in the opening hand
    draw_pile: int  # cards in the draw pile after the deal
    disasters: int  # all the deck's disasters
    disasters_in_pile: int  # those not laid under a location
    characters_in_pool: int  # characters dealt with the power cards (0 unless the edition does)
    characters_in_pile: int  # characters beyond the starting ones, when not in the pool
    havens_in_pile: int

    @classmethod
    def of(cls, deck: Deck, edition: Edition) -> DrawModel:
        play = edition.play
        chars = deck.count(CardType.CHARACTER)
        rest = max(0, chars - play.starting_characters)
        power = deck.count(*POWER_TYPES)
        in_pool = rest if play.hand_from_characters else 0
        pool = power + in_pool
        hand = min(play.hand_limit, pool)
        havens = max(0, deck.count(CardType.HAVEN) - 1)
        disasters = deck.count(CardType.DISASTER)
        under = min(disasters, STARTING_DISASTERS_PER_LOCATION * deck.count(CardType.LOCATION))
        in_pile = rest - in_pool
        return cls(
            pool=pool,
            hand=hand,
            draw_pile=pool - hand + in_pile + havens + disasters - under,
            disasters=disasters,
            disasters_in_pile=disasters - under,
            characters_in_pool=in_pool,
            characters_in_pile=in_pile,
            havens_in_pile=havens,
        )

    def pool_card(self, copies: int, draws: int) -> Fraction:
        """P(at least one of ``copies`` cards dealt from the pool is in the opening hand or
        among the first ``draws`` cards of the draw pile)."""
        return 1 - none_drawn(self.pool, copies, self.hand) * none_drawn(
            self.draw_pile, copies, draws
        )

    def pile_card(self, copies: int, draws: int) -> Fraction:
        """The same for cards that start in the draw pile (spare havens)."""
        return 1 - none_drawn(self.draw_pile, copies, draws)

    def disaster(self, copies: int, draws: int) -> Fraction:
        """The same for disasters: a random ``disasters_in_pile`` of them reach the draw pile
        (the others lie under the locations), then the draw pile is shuffled."""
        missed = Fraction(0)
        for j in range(copies + 1):
            reach = hypergeom_pmf(self.disasters, copies, self.disasters_in_pile, j)
            if reach:
                missed += reach * none_drawn(self.draw_pile, j, draws)
        return 1 - missed


def composition(deck: Deck) -> list[dict[str, Any]]:
    """Cards by type and kind, in the deck's construction order."""
    rows: list[dict[str, Any]] = []

    def add(key: str, label: str, count: int, level: int = 0) -> None:
        rows.append({"key": key, "label": label, "count": count, "level": level})

    add("characters", "characters", deck.count(CardType.CHARACTER))
    add("havens", "havens", deck.count(CardType.HAVEN))
    add("locations", "locations", deck.count(CardType.LOCATION))
    add("items", "items", deck.count(CardType.ITEM))
    add("power", "power cards", deck.count(*POWER_TYPES))
    for kind, label in KIND_LABELS.items():
        add(f"power_{kind.value}", label, deck.count(kind), 1)
    disasters = [c for c in deck.cards() if isinstance(c, DisasterCard)]
    add("disasters", "disasters", len(disasters))
    add("combat_disasters", "combat disasters", sum(c.combat for c in disasters), 1)
    add("major_disasters", "major disasters", sum(c.major for c in disasters), 1)
    add("combat_cards", "combat cards", deck.count(CardType.COMBAT))
    return rows


def skills(deck: Deck) -> dict[str, Any]:
    """The skills the characters bring against those the locations ask for: each location's
    skill terms, and the locations none of whose alternatives the whole party's skills cover
    (other terms, such as a minimum ability, are left to the game)."""
    brought: Counter[str] = Counter()
    for card in deck.cards():
        if isinstance(card, CharacterCard):
            for skill in card.skills:
                brought[skill.name] += skill.count
    asked: set[str] = set()
    uncovered: list[str] = []
    for card in deck.cards():
        if not isinstance(card, LocationCard):
            continue
        covered = False
        for alt in card.requirement.alternatives:
            ok = True
            for term in alt:
                if isinstance(term, SkillTerm):
                    asked.add(term.skill)
                    ok = ok and brought[term.skill] >= term.count
                elif isinstance(term, AnySkillTerm):
                    asked.add(f"Any {term.family}")
                    ok = ok and any(
                        n > 0 and name.endswith(term.family) for name, n in brought.items()
                    )
            covered = covered or ok
        if not covered:
            uncovered.append(card.name)
    have = sorted((s for s, n in brought.items() if n > 0), key=str.casefold)
    wanted = sorted(asked, key=str.casefold)
    return {
        "brought": have,
        "asked": wanted,
        "missing": [s for s in wanted if not s.startswith("Any ") and brought[s] <= 0],
        "locations_not_covered": sorted(uncovered, key=str.casefold),
    }


def draw_chances(
    deck: Deck, edition: Edition, turns: tuple[int, ...] = DEFAULT_TURNS, draws_per_turn: int = 1
) -> list[dict[str, Any]]:
    """The chance of having drawn each card or kind by each turn (turn 0: the opening hand),
    as exact fractions turned to floats."""
    model = DrawModel.of(deck, edition)
    draws = [t * draws_per_turn for t in turns]
    rows: list[dict[str, Any]] = []

    def add(key: str, label: str, copies: int, chance: Any) -> None:
        if copies > 0:
            rows.append(
                {
                    "key": key,
                    "label": label,
                    "copies": copies,
                    "chances": [float(chance(copies, d)) for d in draws],
                }
            )

    power = Counter(c.name for c in deck.cards() if c.type in POWER_TYPES)
    add("power", "any power card", sum(power.values()), model.pool_card)
    for kind, label in KIND_LABELS.items():
        add(f"power_{kind.value}", f"any {label}", deck.count(kind), model.pool_card)
    for name, n in sorted(power.items(), key=lambda kv: (-kv[1], kv[0].casefold())):
        add(f"card:{name}", name, n, model.pool_card)
    add("character", "a character (hand pool)", model.characters_in_pool, model.pool_card)
    disasters = [c for c in deck.cards() if isinstance(c, DisasterCard)]
    add("disaster", "any disaster", len(disasters), model.disaster)
    add("combat_disaster", "a combat disaster", sum(c.combat for c in disasters), model.disaster)
    add("major_disaster", "a major disaster", sum(c.major for c in disasters), model.disaster)
    add("haven", "a spare haven", model.havens_in_pile, model.pile_card)
    return rows


def sample_hands(deck: Deck, edition: Edition, seed: int, count: int) -> list[list[str]] | None:
    """Opening hands as the engine deals games 0 .. count-1 of seed ``seed`` with the
    heuristic player (the same as `deckkit play --seed S --game I` starts with). None for a
    deck without locations: no game can be set up without a field to lay out ("Field
    Layouts", every edition's rulebook), so there is no opening hand to show."""
    if not deck.count(CardType.LOCATION):
        return None
    from deckkit.animayhem.engine.play import prepare_game, start_game
    from deckkit.animayhem.engine.policy import make_policy

    setup = prepare_game(deck, edition)
    policy = make_policy("heuristic")
    return [
        sorted((x.card.name for x in start_game(setup, policy, seed, i).hand), key=str.casefold)
        for i in range(count)
    ]


def deck_stats(
    deck: Deck,
    edition: Edition,
    *,
    turns: tuple[int, ...] = DEFAULT_TURNS,
    draws_per_turn: int = 1,
    hands: int = 3,
    seed: int = 0,
) -> dict[str, Any]:
    """The whole document (for `deckkit stats --format json` and the report's section)."""
    model = DrawModel.of(deck, edition)
    hands_dealt = sample_hands(deck, edition, seed, hands) if hands else []
    no_game = (
        " No sample opening hands: the deck has no locations, so no game can be set up."
        if hands_dealt is None
        else ""
    )
    return {
        "deck": deck.name,
        "edition": edition.name,
        "composition": composition(deck),
        "skills": skills(deck),
        "draw": {
            "pool": model.pool,
            "hand": model.hand,
            "draw_pile": model.draw_pile,
            "disasters_in_pile": model.disasters_in_pile,
            "draws_per_turn": draws_per_turn,
        },
        "turns": list(turns),
        "draw_chances": draw_chances(deck, edition, turns, draws_per_turn),
        "sample_hands": hands_dealt or [],
        "note": (
            f"Opening hand: {model.hand} cards dealt from {model.pool} (the power cards"
            f"{' and the characters not starting in the haven' if model.characters_in_pool else ''}"
            f"); then {draws_per_turn} card{'s' if draws_per_turn != 1 else ''} a turn from a "
            f"draw pile of {model.draw_pile}. Exact hypergeometric chances under "
            f"{edition.name}; a Reload phase draws more when more cards were played.{no_game}"
        ),
    }


class AniMayhemDeckStats:
    """:class:`deckkit.core.game.DeckStats` for Ani-Mayhem: ``deckkit stats`` of a deck under
    the edition named (else the deck's own, else the default edition)."""

    default_turns: tuple[int, ...] = DEFAULT_TURNS

    def stats(
        self,
        deck: Deck,
        edition: str | None = None,
        *,
        turns: tuple[int, ...] = DEFAULT_TURNS,
        draws_per_turn: int = 1,
        hands: int = 3,
        seed: int = 0,
    ) -> dict[str, Any]:
        from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition

        ed = load_edition(edition or deck.edition or DEFAULT_EDITION)
        return deck_stats(
            deck, ed, turns=turns, draws_per_turn=draws_per_turn, hands=hands, seed=seed
        )

    def under(self, deck: Deck, edition: Edition, *, seed: int = 0) -> dict[str, Any]:
        return deck_stats(deck, edition, seed=seed)


DECK_STATS = AniMayhemDeckStats()
