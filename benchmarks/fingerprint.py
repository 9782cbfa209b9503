"""A fingerprint of many games on every solitaire sample deck: engine changes meant to keep
results identical (speed work, restructuring) must leave it unchanged.

Run: ``.venv/bin/python benchmarks/fingerprint.py [--games N] [--search-games M] [--pure]``

For each solitaire deck under decks/ (and the long-game benchmark deck) it plays games 0..N-1 of
seed 5 with the heuristic and random players, and M games with the search player, and hashes
every game's record: outcome, turns, item counts, end reason and every per-card counter. It
prints one hash per deck and player and a total; compare the output of two trees (or of the
compiled and pure builds: ``--pure`` sets DECKKIT_PURE=1 before the engine loads).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--search-games", type=int, default=4)
    parser.add_argument("--pure", action="store_true")
    args = parser.parse_args()
    if args.pure:
        os.environ["DECKKIT_PURE"] = "1"
    sys.path.insert(0, str(REPO))
    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.construction.deck import read_deck
    from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
    from deckkit.animayhem.engine import COMPILED
    from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
    from deckkit.animayhem.engine.players import make_player

    db = load_card_db()
    decks = sorted((REPO / "decks").glob("*-solo*.deck"))
    decks.append(REPO / "benchmarks" / "decks" / "long-solo.deck")
    total = hashlib.sha256()
    print(f"compiled engine: {COMPILED}")
    for path in decks:
        deck = read_deck(path, db)
        setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
        for name, games in (("heuristic", args.games), ("random", args.games),
                            ("search", args.search_games)):  # fmt: skip
            policy = make_player(name)
            h = hashlib.sha256()
            for i in range(games):
                r = play_game(setup, policy, 5, i)
                counters = sorted((k[0], str(k[1]), v) for k, v in r.counters.items())
                h.update(repr((r.outcome, r.turns, r.items_in_play, r.items_retrieved,
                               r.items_lost, r.end_reason, counters)).encode())  # fmt: skip
            total.update(h.digest())
            print(f"{path.name:28} {name:10} {h.hexdigest()[:16]}")
    print(f"total {total.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
