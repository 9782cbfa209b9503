"""The Ani-Mayhem solitaire engine: game state, phases, combat, the effect interpreter, policies.

It builds on the construction layer (deckkit.animayhem.construction: cards, card database,
editions, decks, legality) and never imports analysis or presentation code.

In a source checkout, `make fast` compiles the engine's hot modules with mypyc into build/fast/.
They are used only when every compiled module is newer than its source, so an edited module is
never shadowed by a stale build; DECKKIT_PURE=1 forces the pure-Python modules.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _compiled_engine() -> Path | None:
    if os.environ.get("DECKKIT_PURE"):
        return None
    here = Path(__file__).resolve().parent
    root = here.parents[2] / "build" / "fast"
    built = root / "deckkit" / "animayhem" / "engine"
    libs = list(built.rglob("*.so")) if built.is_dir() else []  # the interpreter's too
    if not libs:
        return None
    for lib in libs:
        source = here / lib.parent.relative_to(built) / f"{lib.name.split('.')[0]}.py"
        if not source.exists() or source.stat().st_mtime > lib.stat().st_mtime:
            if not os.environ.get("DECKKIT_STALE_NOTED"):  # once, not again in each worker
                os.environ["DECKKIT_STALE_NOTED"] = "1"
                print(
                    f"deckkit: build/fast is older than {source.name}; using the pure-Python "
                    "engine (run `make fast` to rebuild)",
                    file=sys.stderr,
                )
            return None
    return root


_fast = _compiled_engine()
if _fast is not None:
    sys.path.append(str(_fast))  # the shared runtime library of the compiled group
    __path__.insert(0, str(_fast / "deckkit" / "animayhem" / "engine"))  # compiled modules first
COMPILED = _fast is not None
# Where the compiled engine modules are (None: pure Python); subpackages put their folder in it
# first on their own __path__ (engine/interpreter/__init__.py).
COMPILED_DIR = _fast / "deckkit" / "animayhem" / "engine" if _fast is not None else None
