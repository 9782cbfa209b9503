"""The envelope of every JSON document deckkit writes, on stdout or in a file.

Tools that read it check ``schema_version`` (bumped when a key changes meaning or goes away;
new keys may appear within a version), see which ``deckkit`` made it, and which build of the
game engine played: ``engine`` is "compiled" or "pure" (see :func:`engine`).
"""

from __future__ import annotations

from collections.abc import Mapping

from deckkit import __version__

SCHEMA_VERSION = 1
ANI_MAYHEM = "ani-mayhem"


def engine(game: str = ANI_MAYHEM) -> str:
    """The build of `game`'s engine this process plays: "compiled" when Ani-Mayhem's engine
    runs its mypyc build (tools/build_fast.py: a wheel's or a checkout's fresh build/fast/),
    "pure" for the Python modules (DECKKIT_PURE=1, no C compiler at install, a stale build,
    and always Animus and Anima Tactics, which have no compiled build). Both play the same
    games; only the speed differs."""
    if game != ANI_MAYHEM:
        return "pure"
    # The package's __init__ only finds the build; no engine module loads here.
    from deckkit.animayhem.engine import COMPILED

    return "compiled" if COMPILED else "pure"


def document(body: Mapping[str, object], game: str = ANI_MAYHEM) -> dict[str, object]:
    """``body`` under the envelope's keys; `game` names the game whose engine made it."""
    return {
        "schema_version": SCHEMA_VERSION,
        "deckkit": __version__,
        "engine": engine(game),
        **body,
    }
