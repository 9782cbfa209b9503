"""Where the compiled (mypyc) copies of deckkit's hot modules are, if they are to be used.

tools/build_fast.py compiles one group of modules into one shared library: Ani-Mayhem's engine
and the core modules every game's play runs through (:mod:`deckkit.core.chance`). Each package
with compiled modules (``deckkit.core``, ``deckkit.animayhem.engine``) asks here, in its
``__init__``, for the directory of its compiled modules and puts it first on its ``__path__``:

- an installed wheel carries them in ``_compiled/`` beside the package's modules, with
  ``_compiled/build.json`` saying what the build did (hatch_build.py);
- a source checkout has them under build/fast/ after `make fast`, used only when every compiled
  module of the package is newer than its source, so an edited module is never shadowed by a
  stale build.

DECKKIT_PURE=1 forces the pure-Python modules, the reference build: both play the same games.
A compiled engine module calls the compiled core modules directly, so the engine is compiled
only when the core is (deckkit/animayhem/engine/__init__.py checks it).

This module itself is never compiled: it runs before any compiled module can load.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

NOTED = "DECKKIT_STALE_NOTED"  # set once a notice is given, so worker processes stay quiet
PURE = "DECKKIT_PURE"
# A checkout's `make fast` build: the tree of compiled modules and the group's shared library.
CHECKOUT_BUILD = Path(__file__).resolve().parents[2] / "build" / "fast"


def notice(text: str) -> None:
    """Say ``text`` on stderr, once per run (worker processes inherit the mark)."""
    if not os.environ.get(NOTED):
        os.environ[NOTED] = "1"
        print(f"deckkit: {text}", file=sys.stderr)


def pure_asked() -> bool:
    return bool(os.environ.get(PURE))


def installed(compiled: Path) -> Path | None:
    """A wheel's compiled modules in ``compiled`` (a package's ``_compiled/``), or None, with a
    notice when they were meant to be there."""
    try:
        manifest = json.loads((compiled / "build.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        notice(f"cannot read {compiled / 'build.json'} ({err}); using the pure-Python engine")
        return None
    if manifest.get("engine") != "compiled":
        if manifest.get("expected"):
            notice(f"the compiled engine was not built at install ({manifest.get('reason')}); "
                   "using the pure-Python engine (same results, slower)")  # fmt: skip
        return None
    missing = [m for m in manifest.get("modules", []) if not (compiled / m).is_file()]
    library = str(manifest.get("library", ""))
    if not library or importlib.util.find_spec(library) is None:
        missing.append(library or "its library")
    if missing:
        notice(f"the compiled engine is incomplete (missing {', '.join(missing)}); "
               "using the pure-Python engine (same results, slower)")  # fmt: skip
        return None
    return compiled


def checkout(package: Path, root: Path = CHECKOUT_BUILD) -> Path | None:
    """The checkout build's compiled modules of ``package`` (a directory under deckkit/) when
    there are some and every one is fresh, else None (with a notice when one is stale). The
    build's root goes on sys.path: the group's shared library is a top-level module."""
    built = root / package.relative_to(CHECKOUT_BUILD.parent.parent)
    libs = sorted(built.rglob("*.so")) if built.is_dir() else []
    if not libs:
        return None
    for lib in libs:
        rel = lib.relative_to(built)
        source = package / rel.parent / f"{rel.name.split('.')[0]}.py"
        if not source.exists() or source.stat().st_mtime > lib.stat().st_mtime:
            notice(f"build/fast is older than {source.name}; using the pure-Python engine "
                   "(run `make fast` to rebuild)")  # fmt: skip
            return None
    if str(root) not in sys.path:
        sys.path.append(str(root))
    return built


def compiled_dir(package: Path) -> Path | None:
    """Where the compiled modules of ``package`` (its directory) are, or None: pure Python."""
    if pure_asked():
        return None
    if (package / "_compiled").is_dir():
        return installed(package / "_compiled")
    return checkout(package)
