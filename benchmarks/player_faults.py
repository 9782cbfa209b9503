"""Costly decisions of an automatic player, counted from game traces.

Run: ``.venv/bin/python benchmarks/player_faults.py DECK [--games N] [--seed S] [--policy P]``

Plays games ``0..N-1`` of the seed (as `deckkit simulate` numbers them) with a trace and counts:

* flash: combat flash effects played, and how many went to a character who was still bonked or
  killed in the same combat round (the card bought nothing for that character);
* walked into: a moving party reached a face-up non-combat disaster, which then acted on it;
* alone: after a Move phase, characters standing alone at a location while others of the
  player's stood elsewhere on the field; and how many of those were bonked or killed before the
  next Move phase.

Also the win rate, so a change to the player shows what it cost or gained.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from deckkit.animayhem.construction.carddb import load_card_db  # noqa: E402
from deckkit.animayhem.construction.deck import read_deck  # noqa: E402
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition  # noqa: E402
from deckkit.animayhem.engine.play import (  # noqa: E402
    GameOptions,
    finish,
    prepare_game,
    start_game,
)
from deckkit.animayhem.engine.players import make_player  # noqa: E402
from deckkit.animayhem.engine.state import Game, Trace  # noqa: E402

KO = ("bonked", "killed")


def flash_faults(events: list[dict[str, Any]]) -> tuple[int, int]:
    """(flash effects played in combat, of which the recipient was knocked out that round)."""
    played = wasted = 0
    for i, e in enumerate(events):
        if e["kind"] != "flash" or e.get("phase") == "discard":
            continue
        played += 1
        who = e.get("target", {}).get("name")
        j = i + 1
        while j < len(events) and events[j]["kind"] != "round":
            j += 1
        j += 1
        while j < len(events) and events[j]["kind"] in (*KO, "effect"):
            if events[j]["kind"] in KO and events[j].get("target", {}).get("name") == who:
                wasted += 1
                break
            j += 1
    return played, wasted


def walked_into(events: list[dict[str, Any]]) -> tuple[int, int]:
    """Non-combat disasters that reached a party as it moved: all, and those whose text the
    engine plays (the others do nothing in a simulation)."""
    hits = [e for e in events if e["kind"] == "affect" and e.get("phase") == "move"
            and "affects the party" in e["text"]]  # fmt: skip
    return len(hits), sum(1 for e in hits if "not simulated" not in e["text"])


class Watch:
    """After each Move phase: who stands alone on the field while others stand elsewhere."""

    def __init__(self) -> None:
        self.alone = 0
        self.alone_knocked = 0
        self._watch: list[Any] = []

    def __call__(self, game: Game) -> None:
        if game.phase == "discard" or game.phase == "move":
            for c in self._watch:
                if c.zone in KO or c.zone == "discard":
                    self.alone_knocked += 1
            self._watch = []
        if game.phase != "move":
            return
        field = game.on_field()
        slots: dict[int, list[Any]] = {}
        for c in field:
            slots.setdefault(c.slot, []).append(c)
        if len(slots) > 1:
            lone = [cs[0] for cs in slots.values() if len(cs) == 1]
            self.alone += len(lone)
            self._watch = lone


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck", type=Path)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="heuristic")
    args = parser.parse_args()
    cards = read_deck(args.deck, load_card_db())
    setup = prepare_game(cards, load_edition(cards.edition or DEFAULT_EDITION), GameOptions())
    policy = make_player(args.policy)
    wins = played = wasted = walked = acted = 0
    watch = Watch()
    for i in range(args.games):
        trace = Trace()
        game = start_game(setup, policy, args.seed, i, trace)
        rec = finish(game, setup, policy, watch)
        wins += rec.outcome == "win"
        p, w = flash_faults(trace.events)
        played += p
        wasted += w
        w, a = walked_into(trace.events)
        walked += w
        acted += a
    print(
        f"{args.deck.stem} {args.policy} games={args.games} seed={args.seed} "
        f"wins={wins} ({wins / args.games:.1%}) flash={played} flash_to_knocked_out={wasted} "
        f"walked_into_noncombat={walked} (played {acted}) alone_after_move={watch.alone} "
        f"alone_knocked_out={watch.alone_knocked}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
