"""The Ani-Mayhem solitaire engine: game state, phases, combat, the effect interpreter, policies.

It builds on the construction layer (deckkit.animayhem.construction: cards, card database,
editions, decks, legality) and never imports analysis or presentation code.

The engine's hot modules may also exist compiled with mypyc (the list is tools/build_fast.py's
COMPILED), in one of two places, put first on this package's __path__ when found
(:mod:`deckkit.core.builds` finds them):
- an installed wheel carries them in _compiled/ beside this file, with _compiled/build.json
  saying what its build did (hatch_build.py); a wheel whose compile failed says so once per run;
- a source checkout has them in build/fast/ after `make fast`, used only when every compiled
  module is newer than its source, so an edited module is never shadowed by a stale build.
They are one group with deckkit.core's compiled modules (the seeded chance), so the engine is
compiled only when those are too. DECKKIT_PURE=1 forces the pure-Python modules, the reference
build: both play the same games.
"""

from __future__ import annotations

from pathlib import Path

import deckkit.core
from deckkit.core.builds import compiled_dir, notice


def _compiled_engine() -> Path | None:
    found = compiled_dir(Path(__file__).resolve().parent)
    if found is not None and not deckkit.core.COMPILED:
        # The compiled engine calls the compiled chance (deckkit.core.chance) directly: it
        # cannot run beside the pure one.
        notice("the compiled engine lacks deckkit.core's compiled modules; using the "
               "pure-Python engine (run `make fast` to rebuild)")  # fmt: skip
        return None
    return found


_fast = _compiled_engine()
if _fast is not None:
    __path__.insert(0, str(_fast))  # compiled modules first
COMPILED = _fast is not None
# Where the compiled engine modules are (None: pure Python); subpackages put their folder in it
# first on their own __path__ (engine/interpreter/__init__.py).
COMPILED_DIR = _fast
