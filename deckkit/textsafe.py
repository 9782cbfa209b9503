"""Text from files, made safe to show on a terminal.

A deck name, a section header or a card row can carry control characters: an escape sequence
that recolours or clears the terminal, a carriage return that overwrites a line, a bidirectional
override that reverses what follows. Every text output shows them escaped (``\\x1b``,
``\\u202e``) instead of passing them to the terminal; newlines and tabs, which the outputs use
themselves, pass.
"""

from __future__ import annotations

import re

_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_UNSAFE = (*(c for c in range(0x20) if chr(c) not in "\n\t"), *range(0x7F, 0xA0), *_BIDI)
_TABLE = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _UNSAFE}
_ONE_LINE_TABLE = {**_TABLE, ord("\n"): "\\n", ord("\t"): "\\t"}
# What XML 1.0 cannot hold at all (lone surrogates, U+FFFE, U+FFFF), on top of the controls.
_XML_TABLE = {
    **_ONE_LINE_TABLE,
    **{c: f"\\u{c:04x}" for c in (*range(0xD800, 0xE000), 0xFFFE, 0xFFFF)},
}


def shown(text: str) -> str:
    """``text`` with terminal control characters escaped (newlines and tabs kept)."""
    return text.translate(_TABLE)


def shown_inline(text: str) -> str:
    """``text`` on one line: control characters, newlines and tabs all escaped."""
    return text.translate(_ONE_LINE_TABLE)


def clipped(text: str, limit: int = 200) -> str:
    """``text`` cut to about ``limit`` characters, its start and end kept: a message names a
    120 KB path or a 5,000-digit value without repeating all of it."""
    if len(text) <= limit:
        return text
    tail = limit // 4
    return f"{text[: limit - tail]}…{text[-tail:]} ({len(text):,} characters)"


def xml_safe(text: str) -> str:
    """``text`` as :func:`shown_inline` shows it, and with no character XML cannot hold: for
    text on its way to a chart renderer, which draws SVG (an XML document) and aborts the
    whole process on a control character."""
    return text.translate(_XML_TABLE)


_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_DASHES = re.compile(r"-[-\d .]*")  # a stat line such as "- - 5 - -": no formula in it


def cell_safe(text: str) -> str:
    """A CSV cell a spreadsheet opens as text: one starting with ``=``, ``+``, ``-`` or ``@``
    (or a tab or carriage return before one) would be run as a formula, so it gets a leading
    ``'``, the usual neutraliser (OWASP, "CSV Injection"). A plain number such as ``-2``, or
    dashes and digits alone (a card's stat line ``- - 5 - -``), is left as it is."""
    if text and text[0] in "=+-@\t\r" and not (_NUMBER.fullmatch(text) or _DASHES.fullmatch(text)):
        return "'" + text
    return text


_LONG_WORD = re.compile(r"\S{241,}")


def clipped_words(text: str) -> str:
    """``text`` with every run of more than 240 characters without a space (a huge path or
    value quoted in a message) cut by :func:`clipped`: an error names what it refuses without
    repeating all of it."""
    return _LONG_WORD.sub(lambda m: clipped(m.group(), 160), text)
