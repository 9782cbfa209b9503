"""The sample decks and the balance checks, written where a user can run the README's tour on
them (an installed deckkit carries them inside the package). Nothing is overwritten: a file
that already exists is kept and named as kept."""

from __future__ import annotations

from pathlib import Path

from deckkit.analysis.output import write_bytes
from deckkit.errors import UsageError

# What a tour needs, by its path relative to DIR (the same layout as a source checkout).
SAMPLE_GLOBS = (
    "decks/*.deck",
    "decks/*.party",
    "decks/*.team",
    "reports/balance.toml",
    "reports/baselines/*.json",
)
OUTPUTS = "out"  # where the tour writes its files (a checkout's .gitignore covers it)


def samples_root() -> Path:
    """Inside the installed package (the wheel force-includes them as ``deckkit/samples/``),
    else the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "samples", package.parent):
        if any((candidate / "decks").glob("*.deck")):
            return candidate
    raise UsageError("the sample decks are not installed", hint="reinstall deckkit")


def write_samples(target: Path) -> tuple[list[Path], list[Path]]:
    """Copy the samples under ``target``; returns (written, kept)."""
    root = samples_root()
    written: list[Path] = []
    kept: list[Path] = []
    for pattern in SAMPLE_GLOBS:
        for source in sorted(root.glob(pattern)):
            destination = target / source.relative_to(root)
            if destination.exists() or destination.is_symlink():
                kept.append(destination)
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            # Whole or not at all, through a temporary file of a name nobody can guess (a
            # fixed name could be a planted link), and never over a file that appeared.
            try:
                write_bytes(source.read_bytes(), destination, force=False)
            except UsageError:  # it appeared meanwhile: the user's, kept
                kept.append(destination)
                continue
            written.append(destination)
    (target / OUTPUTS).mkdir(parents=True, exist_ok=True)
    return written, kept
