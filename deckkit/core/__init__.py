"""What every game shares, below the games.

Each game package (Ani-Mayhem, Anima Tactics, Animus) builds on these and on the top-level
support modules (:mod:`deckkit.errors`, :mod:`deckkit.untrusted`, :mod:`deckkit.stopping`,
:mod:`deckkit.textsafe`); none of them imports a game package, and no game package imports
another game (tests/test_layers.py holds both rules):

- :mod:`deckkit.core.chance`: the seeded chance every game draws its dice and shuffles from;
- :mod:`deckkit.core.carddir`: where the shipped card data lives;
- :mod:`deckkit.core.game`: the one shape every game gives itself to the tools above it;
- :mod:`deckkit.core.workers`: seeded games over worker processes (the core cap, lazy chunks,
  stop signals, workers that end with their parent), or over a cluster's (a chunk backend).
"""

from pathlib import Path as _Path

from deckkit.core.builds import compiled_dir as _compiled_dir

# The compiled copies of this package's hot modules (tools/build_fast.py's CORE_COMPILED: the
# seeded chance), put first on its __path__ when fresh (deckkit.core.builds); None: pure Python.
COMPILED_DIR = _compiled_dir(_Path(__file__).resolve().parent)
if COMPILED_DIR is not None:
    __path__.insert(0, str(COMPILED_DIR))  # compiled modules first
COMPILED = COMPILED_DIR is not None
