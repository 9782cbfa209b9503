"""A JSON Schema (draft 2020-12) validator for the keywords docs/schemas/ uses, and no more.

The ``jsonschema`` package is not among deckkit's dependencies (nor installable here without a
network), so the schema test checks with this: ``type`` (one name or a list; an integer is a
number, a bool is neither), ``enum``, ``const``, ``required``, ``properties``,
``additionalProperties`` (false or a schema), ``items``, ``minItems``, ``maxItems``,
``minimum``, ``maximum``, ``allOf``, ``anyOf``, ``oneOf``, ``$defs`` and ``$ref`` (``#/...``
within the schema, or ``OTHER.json#/...`` beside it). A schema using any other keyword is refused
(:data:`KNOWN`), so a schema never seems to check what this validator skips.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

KNOWN = {
    "$schema", "$id", "$defs", "$ref", "$comment", "title", "description",
    "type", "enum", "const", "required", "properties", "additionalProperties",
    "items", "minItems", "maxItems", "minimum", "maximum", "allOf", "anyOf", "oneOf",
}  # fmt: skip

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
}


class SchemaError(ValueError):
    """The schema itself uses a keyword or a reference this validator does not know."""


class Validator:
    """Validates documents against the schema files of one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._loaded: dict[str, Any] = {}

    def load(self, name: str) -> Any:
        if name not in self._loaded:
            self._loaded[name] = json.loads((self.folder / name).read_text(encoding="utf-8"))
        return self._loaded[name]

    def errors(self, doc: Any, schema_file: str) -> list[str]:
        """Every place ``doc`` breaks the schema in ``schema_file``, as "path: what"."""
        return list(self._check(doc, self.load(schema_file), schema_file, "$"))

    def problems_in(self, schema_file: str) -> list[str]:
        """What is wrong with a schema file itself: keywords this validator does not check and
        references that do not resolve, anywhere in it."""
        problems: list[str] = []

        def walk(node: Any, where: str) -> None:
            if isinstance(node, bool):
                return
            if not isinstance(node, dict):
                problems.append(f"{where}: not a schema")
                return
            problems.extend(f"{where}: unknown keyword {k!r}" for k in sorted(set(node) - KNOWN))
            if "$ref" in node:
                try:
                    self._resolve(node["$ref"], schema_file)
                except (SchemaError, OSError) as err:
                    problems.append(f"{where}: {err}")
            for key in ("properties", "$defs"):
                for name, sub in node.get(key, {}).items():
                    walk(sub, f"{where}/{key}/{name}")
            for key in ("items", "additionalProperties"):
                if key in node:
                    walk(node[key], f"{where}/{key}")
            for key in ("allOf", "anyOf", "oneOf"):
                for i, sub in enumerate(node.get(key, ())):
                    walk(sub, f"{where}/{key}/{i}")

        walk(self.load(schema_file), schema_file)
        return problems

    def _resolve(self, ref: str, current: str) -> tuple[Any, str]:
        file, _, pointer = ref.partition("#")
        file = file or current
        node = self.load(file)
        for part in [p for p in pointer.split("/") if p]:
            if not isinstance(node, dict) or part not in node:
                raise SchemaError(f"{current}: unresolvable $ref {ref!r}")
            node = node[part]
        return node, file

    def _check(self, v: Any, s: Any, file: str, at: str) -> Iterator[str]:
        if s is True:
            return
        if s is False:
            yield f"{at}: no value is allowed here"
            return
        if not isinstance(s, dict):
            raise SchemaError(f"{file}: a schema must be an object or a boolean, not {s!r}")
        unknown = set(s) - KNOWN
        if unknown:
            raise SchemaError(f"{file}: keywords this validator does not check: {sorted(unknown)}")
        if "$ref" in s:
            target, target_file = self._resolve(s["$ref"], file)
            yield from self._check(v, target, target_file, at)
        if "type" in s:
            names = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(_TYPES[n](v) for n in names):
                yield f"{at}: {type(v).__name__} {_short(v)} is not {' or '.join(names)}"
                return
        if "enum" in s and not any(_same(v, e) for e in s["enum"]):
            yield f"{at}: {_short(v)} is not one of {s['enum']}"
        if "const" in s and not _same(v, s["const"]):
            yield f"{at}: {_short(v)} is not {s['const']!r}"
        number = _TYPES["number"](v)
        if number and "minimum" in s and v < s["minimum"]:
            yield f"{at}: {v} is below {s['minimum']}"
        if number and "maximum" in s and v > s["maximum"]:
            yield f"{at}: {v} is above {s['maximum']}"
        if isinstance(v, dict):
            for key in s.get("required", ()):
                if key not in v:
                    yield f"{at}: missing {key!r}"
            props = s.get("properties", {})
            for key, value in v.items():
                if key in props:
                    yield from self._check(value, props[key], file, f"{at}.{key}")
                elif "additionalProperties" in s:
                    yield from self._check(value, s["additionalProperties"], file, f"{at}.{key}")
        if isinstance(v, list):
            if "minItems" in s and len(v) < s["minItems"]:
                yield f"{at}: {len(v)} items, fewer than {s['minItems']}"
            if "maxItems" in s and len(v) > s["maxItems"]:
                yield f"{at}: {len(v)} items, more than {s['maxItems']}"
            if "items" in s:
                for i, item in enumerate(v):
                    yield from self._check(item, s["items"], file, f"{at}[{i}]")
        for sub in s.get("allOf", ()):
            yield from self._check(v, sub, file, at)
        if "anyOf" in s:
            found = [list(self._check(v, sub, file, at)) for sub in s["anyOf"]]
            if all(found):
                best = min(found, key=len)
                yield f"{at}: matches none of anyOf (nearest: {'; '.join(best[:3])})"
        if "oneOf" in s:
            found = [list(self._check(v, sub, file, at)) for sub in s["oneOf"]]
            matched = sum(1 for f in found if not f)
            if matched != 1:
                yield f"{at}: matches {matched} of oneOf's schemas, not exactly one"


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, false is not 0 (Python's == says they are)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _short(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."
