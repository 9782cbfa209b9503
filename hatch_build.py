"""The wheel's build hook: compile the engine with mypyc (tools/build_fast.py) into the wheel.

The compiled modules go to deckkit/animayhem/engine/_compiled/ and deckkit/core/_compiled/ (each
package puts its directory first on its __path__, as it does with a checkout's build/fast/:
deckkit/core/builds.py), their shared library to the top of site-packages, and the wheel becomes
platform-specific. When mypyc or the C compiler fails, the wheel is built pure (py3-none-any)
and records why in the engine's _compiled/build.json, so the installed deckkit says once per run
that it plays the pure-Python engine. DECKKIT_PURE=1 at
build time builds a pure wheel on purpose, which says nothing. Editable installs (`make`) are
never compiled here: `make fast` builds the checkout's build/fast/.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MANIFEST = "deckkit/animayhem/engine/_compiled/build.json"
# deckkit.core's compiled modules (the chance the engine calls), with their own manifest.
CORE_MANIFEST = "deckkit/core/_compiled/build.json"


def load_build_fast(root: Path) -> ModuleType:
    """tools/build_fast.py, the one list of compiled modules that `make fast` uses too."""
    path = root / "tools" / "build_fast.py"
    spec = importlib.util.spec_from_file_location("deckkit_build_fast", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def engine_build(
    root: Path, work: Path
) -> tuple[dict[str, Any], dict[str, str], dict[str, Any] | None]:
    """Compile the engine under `work`: the engine's manifest, the built files mapped to their
    paths in the wheel (empty when the build fell back to pure Python), and deckkit.core's
    manifest (None then)."""
    if os.environ.get("DECKKIT_PURE"):
        return {"engine": "pure", "expected": False, "reason": "DECKKIT_PURE was set"}, {}, None
    build_fast = load_build_fast(root)
    lib = work / "lib"
    try:
        done = build_fast.compile_engine(root, lib, work / "tmp", work / "mypy-cache")
    except build_fast.BuildError as err:
        reason = " ".join(str(err).split())[:200] or "mypyc failed"
        print(f"deckkit: compiled engine not built ({reason}); the wheel is pure Python",
              file=sys.stderr)  # fmt: skip
        return {"engine": "pure", "expected": True, "reason": reason}, {}, None
    # Guided by the sdist's tools/engine-profile.tar.xz as `make fast` is (pip -v shows it).
    print(f"deckkit: compiled engine built, {done.status} ({done.timings})", file=sys.stderr)
    built = done.files
    files: dict[str, str] = {}
    modules: dict[Path, list[str]] = {Path(build_fast.ENGINE): [], Path(build_fast.CORE): []}
    for rel in built:
        package = next((p for p in modules if rel.is_relative_to(p)), None)
        if package is not None:  # a module: into its package's overlay directory
            inside = rel.relative_to(package).as_posix()
            files[str(lib / rel)] = f"{package.as_posix()}/_compiled/{inside}"
            modules[package].append(inside)
        else:  # the group's shared library, imported by its top-level name
            files[str(lib / rel)] = rel.as_posix()
    manifest = {"engine": "compiled", "library": build_fast.LIBRARY,
                "modules": modules[Path(build_fast.ENGINE)]}  # fmt: skip
    core = {"engine": "compiled", "library": build_fast.LIBRARY,
            "modules": modules[Path(build_fast.CORE)]}  # fmt: skip
    return manifest, files, core


class CompiledEngineHook(BuildHookInterface):
    """Adds the compiled engine (or the record of why there is none) to a standard wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._work = Path(tempfile.mkdtemp(prefix="deckkit-engine-"))
        manifest, files, core = engine_build(Path(self.root), self._work)
        if files:
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
        for name, doc, where in (("build.json", manifest, MANIFEST),
                                 ("core-build.json", core, CORE_MANIFEST)):  # fmt: skip
            if doc is not None:
                manifest_file = self._work / name
                manifest_file.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
                files[str(manifest_file)] = where
        build_data["force_include"].update(files)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
