"""The envelope of every JSON document deckkit writes, on stdout or in a file.

Tools that read it check ``schema_version`` (bumped when a key changes meaning or goes away;
new keys may appear within a version) and see which ``deckkit`` made it.
"""

from __future__ import annotations

from collections.abc import Mapping

from deckkit import __version__

SCHEMA_VERSION = 1


def document(body: Mapping[str, object]) -> dict[str, object]:
    """``body`` under the envelope's two keys."""
    return {"schema_version": SCHEMA_VERSION, "deckkit": __version__, **body}
