"""How the API's results show themselves: a short summary where a terminal prints them
(``repr``: a title and a small table, never the whole result), the same table in a notebook
(``_repr_html_``), and their rows as a polars DataFrame (``to_frame()``).

A result class inherits :class:`Shown` and says what its summary is (:meth:`Shown._title`,
:meth:`Shown._table`); the text and the HTML are drawn from that one table. The rows of
``to_frame()`` are the result's own (one per game, arm, card, reading, check...), each interval
split into ``_low`` and ``_high`` columns. polars is imported only when a frame is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl

MAX_SHOWN_ROWS = 12  # rows of a summary table; the rest are counted, and in to_frame()
Table = tuple[list[str], list[list[str]]]  # the header and the rows, as text


def pct(x: float | None) -> str:
    """A rate: ``35.0%`` (``-`` when there is none)."""
    return "-" if x is None else f"{100 * x:.1f}%"


def pts(x: float | None) -> str:
    """A difference of two rates, in percentage points as every command writes it: ``+1.2 pts``."""
    return "-" if x is None else f"{100 * x:+.1f} pts"


def interval(ci: Sequence[float] | None, signed: bool = False) -> str:
    """A 95% interval, ``33.0% – 37.1%`` (or ``-1.0 – +3.3 pts`` for a difference)."""
    if ci is None:
        return "-"
    low, high = ci
    if signed:
        return f"{100 * low:+.1f} – {100 * high:+.1f} pts"
    return f"{pct(low)} – {pct(high)}"


class Shown:
    """A result that prints as a short summary and shows as a table in a notebook."""

    def _title(self) -> str:
        """One line: what the result is about."""
        raise NotImplementedError

    def _table(self) -> Table:
        """The summary as a table of text (header, rows)."""
        raise NotImplementedError

    def _notes(self) -> list[str]:
        """Lines after the table (where the rest of the result is)."""
        return []

    def __repr__(self) -> str:
        header, rows = self._table()
        shown, more = rows[:MAX_SHOWN_ROWS], len(rows) - MAX_SHOWN_ROWS
        widths = [max(len(cell) for cell in column) for column in zip(header, *shown, strict=True)]
        lines = [f"{type(self).__name__}: {self._title()}"]
        labels = any(header)  # a table of names and values has no header to show
        for row in [header, *shown] if labels else shown:
            cells = [
                cell.rjust(width) if i and labels else cell.ljust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append(("  " + "  ".join(cells)).rstrip())
        if more > 0:
            lines.append(f"  ... {more} more")
        lines += [f"  {note}" for note in self._notes()]
        return "\n".join(lines)

    def __str__(self) -> str:
        return repr(self)

    def _repr_html_(self) -> str:
        """The summary as an HTML table (Jupyter and other notebooks show this)."""
        from html import escape  # here: `deckkit validate` starts without it

        header, rows = self._table()
        shown, more = rows[:MAX_SHOWN_ROWS], len(rows) - MAX_SHOWN_ROWS
        head = "".join(f"<th>{escape(cell)}</th>" for cell in header) if any(header) else ""
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in shown
        )
        notes = [f"... {more} more", *self._notes()] if more > 0 else self._notes()
        foot = "".join(f"<p><small>{escape(note)}</small></p>" for note in notes)
        return (
            f"<div><p><strong>{escape(type(self).__name__)}</strong>: {escape(self._title())}"
            f"</p><table>{f'<thead><tr>{head}</tr></thead>' if head else ''}"
            f"<tbody>{body}</tbody></table>{foot}</div>"
        )


def _is_interval(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def flat_records(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Records made flat for a DataFrame: an interval (a pair of numbers, or None where there
    is none) becomes ``KEY_low`` and ``KEY_high``; nested mappings and lists of records are
    left out (each has its own place in the result)."""
    records = list(records)
    pairs = {k for r in records for k, v in r.items() if _is_interval(v)}
    flat: list[dict[str, Any]] = []
    for record in records:
        row: dict[str, Any] = {}
        for key, value in record.items():
            if key in pairs:
                low, high = value if value is not None else (None, None)
                row[f"{key}_low"], row[f"{key}_high"] = low, high
            elif isinstance(value, Mapping) or (
                isinstance(value, list) and any(isinstance(v, Mapping) for v in value)
            ):
                continue
            else:
                row[key] = value
        flat.append(row)
    return flat


def frame(records: Iterable[Mapping[str, Any]], empty: Sequence[str] = ()) -> pl.DataFrame:
    """A DataFrame of records (flattened by :func:`flat_records`); ``empty``: the columns
    (of text) of the frame when there are no records."""
    import polars as pl

    rows = flat_records(records)
    if not rows:
        return pl.DataFrame(schema=dict.fromkeys(empty, pl.String))
    return pl.DataFrame(rows, infer_schema_length=None)


@dataclass(frozen=True, repr=False)
class ReportResult(Shown):
    """What a report wrote: the page and its JSON sidecar (None when an interrupted run left
    an existing page as it was), the per-game rows when asked, and the exit code the command
    ends with (0 done, 1 an illegal deck, 130 interrupted)."""

    page: Path
    sidecar: Path | None
    results: Path | None = None
    exit_code: int = 0
    document: dict[str, Any] = field(default_factory=dict, repr=False)

    def _title(self) -> str:
        return f"{self.page} (exit code {self.exit_code})"

    def _table(self) -> Table:
        rows = [["page", str(self.page)]]
        if self.sidecar is not None:
            rows.append(["numbers (JSON)", str(self.sidecar)])
        if self.results is not None:
            rows.append(["per-game rows", str(self.results)])
        return ["", ""], rows
