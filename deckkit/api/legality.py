"""Deck legality: is this deck legal under an edition, a variant and a player count? Header
values in the deck file are defaults that the arguments override."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from deckkit.api.display import Shown, Table, frame
from deckkit.games import deck_checks

if TYPE_CHECKING:
    import polars as pl


class Broken(Protocol):
    """One broken construction rule of a verdict."""

    @property
    def rule(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def fix(self) -> str: ...


class DeckVerdict(Protocol):
    """The game's legality report of a deck (Ani-Mayhem's
    :class:`~deckkit.animayhem.construction.legality.LegalityReport`), as it is shown."""

    @property
    def legal(self) -> bool: ...

    @property
    def edition(self) -> str: ...

    @property
    def variant(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def counts(self) -> Mapping[str, int]: ...

    @property
    def required(self) -> Mapping[str, int | None]: ...

    @property
    def violations(self) -> Sequence[Broken]: ...

    @property
    def notes(self) -> Sequence[str]: ...

    @property
    def formula(self) -> str: ...

    def as_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, repr=False)
class ValidationResult(Shown):
    """The deck's name and the legality report: ``legal``, each violation with its rule,
    arithmetic and fix, and the counts against the edition's requirements. Printed, it is the
    verdict and the counts (a table in a notebook); ``to_frame()`` gives the violations."""

    deck: str
    report: DeckVerdict

    @property
    def legal(self) -> bool:
        return self.report.legal

    def as_dict(self) -> dict[str, Any]:
        """A deck's entry in `deckkit validate --format json` (without its ``file``)."""
        return {"deck": self.deck, **self.report.as_dict()}

    def to_frame(self) -> pl.DataFrame:
        """One row per violation: ``rule``, ``message`` (with its arithmetic) and ``fix``."""
        return frame(self.as_dict()["violations"], empty=("rule", "message", "fix"))

    def _title(self) -> str:
        r = self.report
        verdict = "LEGAL" if r.legal else f"NOT LEGAL ({len(r.violations)} violation(s))"
        plural = "s" if r.players != 1 else ""
        return f"{verdict}: {self.deck} under {r.edition} ({r.variant}, {r.players} player{plural})"

    def _table(self) -> Table:
        r = self.report
        rows = []
        for key, need in r.required.items():  # the counts the edition sets a number for
            count = r.counts.get(key, 0)
            rows.append([key.replace("_", " "), str(count), "-" if need is None else str(need)])
        return ["cards", "in deck", "required"], rows

    def _notes(self) -> list[str]:
        return [f"[{v.rule}] {v.message}" for v in self.report.violations]


def validate(
    deck: str | Path | Any,
    *,
    players: int | None = None,
    edition: str | None = None,
    variant: str | None = None,
) -> ValidationResult:
    """Check a deck's construction (a deck file, ``-`` for standard input, or a deck in memory):
    counts against the edition's formulas, copy limits, quotas. An unreadable deck raises a
    :class:`~deckkit.errors.DeckkitError` naming the file and line; the checks are the game's
    (:class:`~deckkit.core.game.DeckChecks`)."""
    name, report = deck_checks().validate(deck, players=players, edition=edition, variant=variant)
    return ValidationResult(name, report)


def load_deck(path: str | Path) -> Any:
    """A deck file read against the card database in use (``--card-db`` /
    ``DECKKIT_CARD_DB``, else the shipped one); ``-`` reads standard input once."""
    from deckkit.api.deckinput import read_deck_arg

    return read_deck_arg(Path(path))
