"""Reading back what a generated report page shows: its numbers (each tagged with the path of
the value in the JSON sidecar) and its sections, with the standard library's HTML parser."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

# The page's number formats, written out again here so the tests do not trust deckkit's own.
FORMATS = {
    "pct": lambda x: "–" if x is None else f"{100 * x:.1f}%",
    "signed_pct": lambda x: "–" if x is None else f"{100 * x:+.1f} pts",
    "int": lambda x: "–" if x is None else f"{int(x):,}",
    "num": lambda x: "–" if x is None else f"{x:.2f}",
    "num1": lambda x: "–" if x is None else f"{x:.1f}",
}


class PageReader(HTMLParser):
    """Collects (json path, format, shown text) of every number, section ids in order, the
    text of the page, and the script elements."""

    def __init__(self) -> None:
        super().__init__()
        self.numbers: list[tuple[str, str, str]] = []
        self.sections: list[str] = []
        self.scripts = 0
        self.text: list[str] = []
        self._number: tuple[str, str] | None = None
        self._buffer: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section" and a.get("id"):
            self.sections.append(str(a["id"]))
        if tag == "script":
            self.scripts += 1
        if tag == "span" and a.get("data-json") is not None:
            self._number = (str(a["data-json"]), str(a["data-fmt"]))
            self._buffer = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._number is not None:
            self.numbers.append((*self._number, "".join(self._buffer)))
            self._number = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._number is not None:
            self._buffer.append(data)


def read_page(html: str) -> PageReader:
    reader = PageReader()
    reader.feed(html)
    return reader


def lookup(doc: Any, path: str) -> Any:
    for part in path.split("."):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def mismatches(html: str, doc: dict[str, Any]) -> list[str]:
    """Every number on the page that does not show its sidecar value."""
    bad = []
    for path, kind, shown in read_page(html).numbers:
        expected = FORMATS[kind](lookup(doc, path))
        if shown != expected:
            bad.append(f"{path}: page {shown!r}, sidecar {expected!r}")
    return bad
