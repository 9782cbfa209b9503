"""Which of the search player's decisions carry its lead over the heuristic player.

Run: ``.venv/bin/python benchmarks/search_ablation.py DECK [--games N] [--seed S] [--workers W]
[--kinds moves,retreat,...]``

(A kind may join several with ``+``, e.g. ``moves+scavenge``: the search weighs those together;
``all`` is every kind; ``@A-B`` after a kind limits it to turns A to B, e.g. ``all@1-2`` or
``moves@6-150``: which part of a game carries the lead.)

For each decision kind (``moves``: where the parties go; ``attack``; ``scavenge``; ``charm``:
who charms and what a won charm battle does; ``retreat``: whether and where to; ``flash``: combat
flash effects) it plays games ``0..N-1`` of the seed with a search player that weighs only that
kind and answers every other decision as the heuristic player does, and prints its win rate and
the paired difference from the heuristic player on the same games (95% normal interval on the
per-game differences). The kinds whose difference is near the whole search player's gap are
where the heuristic player loses games; the others it already plays as well as the search.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from deckkit.animayhem.construction.carddb import load_card_db  # noqa: E402
from deckkit.animayhem.construction.deck import read_deck  # noqa: E402
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition  # noqa: E402
from deckkit.animayhem.engine.play import GameOptions, GameSetup, play_game, prepare_game  # noqa: E402
from deckkit.animayhem.engine.policy import HeuristicPolicy, Policy  # noqa: E402
from deckkit.animayhem.engine.rollout import play_out  # noqa: E402
from deckkit.animayhem.engine.search import SearchPolicy  # noqa: E402

# Each kind and the player's methods that answer it.
KINDS: dict[str, tuple[str, ...]] = {
    "moves": ("moves",),
    "attack": ("attack",),
    "scavenge": ("scavenge",),
    "charm": ("charmers", "charm_action"),
    "retreat": ("retreat", "retreat_to"),
    "flash": ("combat_flash",),
}


class _Ablated(HeuristicPolicy):
    """The heuristic player, but for the methods of one decision kind, which a search player
    answers: a delegate (the compiled search player admits no subclass written in Python), its
    forwarding methods made per kind by :func:`player`."""

    def __init__(self) -> None:
        super().__init__()
        self.search = SearchPolicy(play_out)


def _forward(method: str, first: int, last: int) -> Callable[..., Any]:
    """The search player's answer in turns ``first`` to ``last`` (each method's first argument
    is the game), the heuristic's otherwise."""
    own = getattr(HeuristicPolicy, method)

    def call(self: _Ablated, game: Any, *args: Any) -> Any:
        if first <= game.turn <= last:
            return getattr(self.search, method)(game, *args)
        return own(self, game, *args)

    return call


def _parse(kind: str) -> tuple[list[str], int, int]:
    """A kind's names and its turn window (every turn when it names none)."""
    names, _, window = kind.partition("@")
    first, last = (int(x) for x in window.split("-")) if window else (0, 10**9)
    parts = list(KINDS) if names == "all" else names.split("+")
    return parts, first, last


def player(kind: str) -> Policy:
    """The heuristic player ("heuristic"), or the search player weighing only ``kind``."""
    if kind == "heuristic":
        return HeuristicPolicy()
    parts, first, last = _parse(kind)
    methods = [m for k in parts for m in KINDS[k]]
    name = "".join(ch if ch.isalnum() else "_" for ch in kind)
    forwards = {m: _forward(m, first, last) for m in methods}
    cls = type(f"Search_{name}", (_Ablated,), forwards)
    return cls()  # type: ignore[no-any-return]


_SETUP: GameSetup | None = None


def _init(deck: str) -> None:
    global _SETUP
    cards = read_deck(Path(deck), load_card_db())
    _SETUP = prepare_game(cards, load_edition(cards.edition or DEFAULT_EDITION), GameOptions())


def _won(job: tuple[str, int, int]) -> tuple[str, int, bool]:
    kind, seed, index = job
    assert _SETUP is not None
    return kind, index, play_game(_SETUP, player(kind), seed, index).outcome == "win"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    kinds = ["heuristic", *args.kinds.split(",")]
    unknown = [k for x in kinds[1:] for k in _parse(x)[0] if k not in KINDS]
    if unknown:
        parser.error(f"unknown kind {unknown[0]!r}; choose from {', '.join(KINDS)}")
    won: dict[str, dict[int, bool]] = {k: {} for k in kinds}
    jobs = [(k, args.seed, i) for i in range(args.games) for k in kinds]
    with ProcessPoolExecutor(args.workers, initializer=_init, initargs=(args.deck,)) as pool:
        for kind, index, w in pool.map(_won, jobs, chunksize=2):
            won[kind][index] = w
    n = args.games
    base = won["heuristic"]
    rate = sum(base.values()) / n
    print(f"{Path(args.deck).stem}: {n} games, seed {args.seed}; heuristic {rate:.1%}")
    for kind in kinds[1:]:
        diffs = [int(won[kind][i]) - int(base[i]) for i in range(n)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        half = 1.96 * math.sqrt(var / n)
        low, high = (mean - half) * 100, (mean + half) * 100
        print(
            f"  search on {kind:8s} only: {sum(won[kind].values()) / n:.1%}, "
            f"{mean * 100:+.1f} pts (95% CI {low:+.1f} to {high:+.1f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
