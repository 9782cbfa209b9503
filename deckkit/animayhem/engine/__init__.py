"""The Ani-Mayhem solitaire engine: game state, phases, combat, the effect interpreter, policies.

It builds on the construction layer (deckkit.animayhem.construction: cards, card database,
editions, decks, legality) and never imports analysis or presentation code.

The engine's hot modules may also exist compiled with mypyc (the list is tools/build_fast.py's
COMPILED), in one of two places, put first on this package's __path__ when found:
- an installed wheel carries them in _compiled/ beside this file, with _compiled/build.json
  saying what its build did (hatch_build.py); a wheel whose compile failed says so once per run;
- a source checkout has them in build/fast/ after `make fast`, used only when every compiled
  module is newer than its source, so an edited module is never shadowed by a stale build.
DECKKIT_PURE=1 forces the pure-Python modules, the reference build: both play the same games.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

_NOTED = "DECKKIT_STALE_NOTED"  # set once a notice is given, so worker processes stay quiet


def _notice(text: str) -> None:
    if not os.environ.get(_NOTED):
        os.environ[_NOTED] = "1"
        print(f"deckkit: {text}", file=sys.stderr)


def _installed_engine(compiled: Path) -> Path | None:
    """The wheel's compiled modules, or None (with a notice when they were meant to be there)."""
    try:
        manifest = json.loads((compiled / "build.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        _notice(f"cannot read {compiled / 'build.json'} ({err}); using the pure-Python engine")
        return None
    if manifest.get("engine") != "compiled":
        if manifest.get("expected"):
            _notice(f"the compiled engine was not built at install ({manifest.get('reason')}); "
                    "using the pure-Python engine (same results, slower)")  # fmt: skip
        return None
    missing = [m for m in manifest.get("modules", []) if not (compiled / m).is_file()]
    library = str(manifest.get("library", ""))
    if not library or importlib.util.find_spec(library) is None:
        missing.append(library or "its library")
    if missing:
        _notice(f"the compiled engine is incomplete (missing {', '.join(missing)}); "
                "using the pure-Python engine (same results, slower)")  # fmt: skip
        return None
    return compiled


def _checkout_engine(here: Path) -> Path | None:
    """A checkout's build/fast/ modules when every one is fresh (the library goes on sys.path)."""
    root = here.parents[2] / "build" / "fast"
    built = root / "deckkit" / "animayhem" / "engine"
    libs = sorted(built.rglob("*.so")) if built.is_dir() else []
    if not libs:
        return None
    for lib in libs:
        rel = lib.relative_to(built)
        source = here / rel.parent / f"{rel.name.split('.')[0]}.py"
        if not source.exists() or source.stat().st_mtime > lib.stat().st_mtime:
            _notice(f"build/fast is older than {source.name}; using the pure-Python engine "
                    "(run `make fast` to rebuild)")  # fmt: skip
            return None
    sys.path.append(str(root))  # the shared runtime library of the compiled group
    return built


def _compiled_engine() -> Path | None:
    if os.environ.get("DECKKIT_PURE"):
        return None
    here = Path(__file__).resolve().parent
    if (here / "_compiled").is_dir():
        return _installed_engine(here / "_compiled")
    return _checkout_engine(here)


_fast = _compiled_engine()
if _fast is not None:
    __path__.insert(0, str(_fast))  # compiled modules first
COMPILED = _fast is not None
# Where the compiled engine modules are (None: pure Python); subpackages put their folder in it
# first on their own __path__ (engine/interpreter/__init__.py).
COMPILED_DIR = _fast
