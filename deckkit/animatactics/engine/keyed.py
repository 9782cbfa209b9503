"""Frozen records that are hashed often: a character's stat line, its kit and its specials are
the keys of the engine's cached odds (``functools.cache`` on :func:`.players._kill_times`,
:func:`.abilities.use_outcome` and the like), asked hundreds of thousands of times a run. A
frozen dataclass hashes every field, nested records included, on each look-up; these keep
their hash after the first."""

from __future__ import annotations

import dataclasses
from typing import Any

_HASH = "_kept_hash"


class KeptHash:
    """Mixin for a frozen dataclass (``@dataclass(frozen=True)``, no slots) that names
    ``__hash__ = KeptHash.__hash__`` in its body (else the dataclass writes its own): its hash
    is the hash of its fields, as the dataclass would compute it, worked out once. A copy or a
    pickle leaves it behind (a string's hash differs between processes)."""

    def __hash__(self) -> int:
        kept: int | None = self.__dict__.get(_HASH)
        if kept is None:
            kept = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))  # type: ignore[arg-type]
            object.__setattr__(self, _HASH, kept)
        return kept

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop(_HASH, None)
        return state
