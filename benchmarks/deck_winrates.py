"""Win rates of the sample decks, as the README's table shows them.

Run: ``.venv/bin/python benchmarks/deck_winrates.py [--games N] [--seed S]``

Plays each sample deck of ``decks/`` (one player) with the heuristic and the random policy on
the real engine, and prints a Markdown table of win rates with 95% Wilson intervals. The README
quotes this table; ``tests/test_readme_figures.py`` replays fewer games of the same seed and
checks that the README's figures still hold.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from deckkit.analysis.summary import proportion  # noqa: E402
from deckkit.animayhem.construction.carddb import load_card_db  # noqa: E402
from deckkit.animayhem.construction.deck import read_deck  # noqa: E402
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition  # noqa: E402
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game  # noqa: E402
from deckkit.animayhem.engine.policy import make_policy  # noqa: E402

DECKS = (
    "demo-solo", "easy-solo", "medium-solo", "strike-solo", "tricky-solo", "tough-solo",
    "rough-solo", "hard-solo", "grim-solo", "dire-solo", "brutal-solo",
)  # fmt: skip


def win_count(deck: str, policy: str, games: int, seed: int) -> int:
    """Games won of ``games`` (game i seeded by (seed, i), as `deckkit simulate` plays it)."""
    cards = read_deck(REPO / "decks" / f"{deck}.deck", load_card_db())
    setup = prepare_game(cards, load_edition(cards.edition or DEFAULT_EDITION), GameOptions())
    pol = make_policy(policy)
    return sum(play_game(setup, pol, seed, i).outcome == "win" for i in range(games))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| deck | heuristic player (95% CI) | random player (95% CI) |")
    print("|---|---|---|")
    for deck in DECKS:
        cells = []
        for policy in ("heuristic", "random"):
            wins = win_count(deck, policy, args.games, args.seed)
            rate = proportion(wins, args.games)
            assert rate.ci is not None
            lo, hi = rate.ci
            cells.append(f"{wins / args.games:.1%} ({lo:.1%}–{hi:.1%})")
        print(f"| `decks/{deck}.deck` | {cells[0]} | {cells[1]} |")
    print(f"\n{args.games:,} games per deck and policy, seed {args.seed}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
