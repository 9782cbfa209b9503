"""What the published package promises, read from pyproject.toml: typer bounded to the minor
release whose private parts the CLI uses, classifiers, and the development tools kept in a
dependency group rather than published as an extra. (tests/test_wheel.py checks the built
wheel itself: py.typed, the classifiers and no `dev` extra in its metadata.)"""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _requirement(name: str) -> Requirement:
    found = [Requirement(r) for r in PROJECT["project"]["dependencies"]]
    return next(r for r in found if r.name == name)


def test_typer_is_bounded_to_the_tested_minor_release() -> None:
    """deckkit.cli uses typer's vendored click (``typer._click``) and shadows private display
    methods of its parameters (deckkit.cli.helpfmt.tidy): the requirement must stop below the
    next minor release, and the installed typer must satisfy it and still have those names."""
    spec = _requirement("typer").specifier
    uppers = [s for s in spec if s.operator in ("<", "<=")]
    assert uppers, f"typer{spec} has no upper bound"
    installed = Version(version("typer"))
    assert installed in spec, f"typer {installed} is outside {spec}"
    upper = Version(uppers[0].version)
    assert upper <= Version(f"{installed.major}.{installed.minor + 1}"), spec

    from typer import _click
    from typer.core import TyperArgument

    assert hasattr(_click, "Command") and hasattr(_click.exceptions, "UsageError")
    for name in ("_usage_display_name", "_rich_display_name", "display_type_rich"):
        assert callable(getattr(TyperArgument, name, None)), name


def test_classifiers_and_no_dev_extra() -> None:
    project = PROJECT["project"]
    classifiers = project.get("classifiers", [])
    assert "Typing :: Typed" in classifiers
    assert any(c.startswith("Programming Language :: Python :: 3.") for c in classifiers)
    assert "dev" not in project.get("optional-dependencies", {}), "dev is published as an extra"
    dev = PROJECT["dependency-groups"]["dev"]
    assert any(Requirement(r).name == "pytest" for r in dev)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--group dev" in makefile and "[dev" not in makefile


def test_the_package_says_it_is_typed() -> None:
    """PEP 561: without deckkit/py.typed a user's type checker ignores deckkit's annotations."""
    assert (ROOT / "deckkit" / "py.typed").is_file()
