"""What a deck's games depend on, frozen so a later check can replay the old cards.

A snapshot holds the deck file's text and, for every card the deck lists, its row of
``cards.csv`` and its entry in ``effects/*.toml`` (the entry's own text, so the replay reads it
exactly as it was), each with a SHA-256 hash. Hashes are of the content, not the formatting: a
row's non-empty fields and an entry's parsed TOML, as canonical JSON, so adding an empty column
or reflowing a comment changes nothing.

To replay, :func:`write_replay_db` copies today's database into a scratch directory with the
snapshot's rows and entries put back in place of today's, and the deck is parsed from the
snapshot's text against that database: every other card stays as it is today, so the vocabulary
and cross-checks of the loader still hold.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckkit.core.carddir import EFFECTS_DIR
from deckkit.errors import CardDataError
from deckkit.untrusted import read_text

SNAPSHOT_EFFECTS_FILE = "zz-baseline-snapshot.toml"  # sorts last; the name says where it came from
_HEADER = re.compile(r"^\[", re.MULTILINE)
_HEADER_ID = re.compile(r"^\[\[?\s*[\"']?(am\d{3})\b")


def sha256_of(value: object) -> str:
    """SHA-256 of ``value`` as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One card as the database holds it: its CSV row and its effects entry's text, if any."""

    id: str
    name: str
    row: dict[str, str]
    effects: str | None

    @property
    def row_sha256(self) -> str:
        return sha256_of({k: v for k, v in self.row.items() if v})

    @property
    def effects_sha256(self) -> str | None:
        if self.effects is None:
            return None
        return sha256_of(tomllib.loads(self.effects))

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "row": self.row,
            "row_sha256": self.row_sha256,
            "effects": self.effects,
            "effects_sha256": self.effects_sha256,
        }


def effect_blocks(text: str) -> list[tuple[str | None, str]]:
    """An effects file cut at its table headers: (card id or None, text) in file order. The
    text before the first header (comments) has no id; concatenating every block gives the file
    back."""
    starts = [m.start() for m in _HEADER.finditer(text)]
    bounds = [0, *starts, len(text)]
    out: list[tuple[str | None, str]] = []
    for begin, end in itertools.pairwise(bounds):
        if begin == end:
            continue
        chunk = text[begin:end]
        m = _HEADER_ID.match(chunk)
        out.append((m[1] if m else None, chunk))
    return out


def read_effect_entries(directory: Path) -> dict[str, str]:
    """Card id -> the text of its effects entry, over every ``*.toml`` in ``directory``."""
    entries: dict[str, str] = {}
    if not directory.is_dir():
        return entries
    for path in sorted(directory.glob("*.toml")):
        text = read_text(path, what="effects file", error=CardDataError)
        for cid, chunk in effect_blocks(text):
            if cid is not None:
                entries[cid] = entries.get(cid, "") + chunk
    for cid, chunk in entries.items():  # the cut must give back exactly the entry
        try:
            parsed = tomllib.loads(chunk)
        except tomllib.TOMLDecodeError as err:
            raise CardDataError(
                f"cannot cut the effects of {cid} out of their file: {err}", path=directory
            ) from None
        if set(parsed) != {cid}:
            raise CardDataError(
                f"the effects entry of {cid} is not written as [{cid}] tables", path=directory
            )
    return entries


def read_rows(csv_path: Path) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The header of ``cards.csv`` and its rows by card id."""
    text = read_text(csv_path, what="card database", error=CardDataError)
    with io.StringIO(text, newline="") as fh:
        reader = csv.DictReader(fh)
        rows = {(r.get("id") or "").strip(): {k: v or "" for k, v in r.items()} for r in reader}
        return list(reader.fieldnames or []), rows


def card_entries(csv_path: Path, ids: list[str]) -> dict[str, CardEntry]:
    """The database's current entries of the given cards (missing cards are left out)."""
    _, rows = read_rows(csv_path)
    effects = read_effect_entries(csv_path.parent / EFFECTS_DIR)
    return {
        cid: CardEntry(cid, rows[cid].get("name", ""), rows[cid], effects.get(cid))
        for cid in ids
        if cid in rows
    }


def take_snapshot(
    card_ids: Iterable[str], deck_text: str, deck_path: str, csv_path: Path
) -> dict[str, Any]:
    """The JSON-ready snapshot of a deck (its file's text, and ``deck_path`` as the balance file
    names it) and the database entries of its cards (``card_ids``, the ids the deck lists)."""
    cards = card_entries(csv_path, sorted(set(card_ids)))
    deck_sha = hashlib.sha256(deck_text.encode()).hexdigest()
    digest = sha256_of(
        {
            "deck": deck_sha,
            "cards": {cid: [e.row_sha256, e.effects_sha256] for cid, e in cards.items()},
        }
    )
    return {
        "deck_file": {
            "path": deck_path,
            "text": deck_text,
            "sha256": deck_sha,
        },
        "cards": {cid: entry.as_dict() for cid, entry in sorted(cards.items())},
        "sha256": digest,
    }


def snapshot_problem(snapshot: object) -> str | None:
    """What is wrong with a stored snapshot (read from a file a person may have edited), or
    None: every value the replay reads must be there with its type, and every effects entry must
    parse, so that no later step meets a missing key."""
    if not isinstance(snapshot, dict):
        return "snapshot must be an object"
    deck_file = snapshot.get("deck_file")
    if not isinstance(deck_file, dict):
        return "snapshot.deck_file must be an object"
    for key in ("text", "sha256"):
        if not isinstance(deck_file.get(key), str):
            return f"snapshot.deck_file.{key} must be text"
    cards = snapshot.get("cards")
    if not isinstance(cards, dict):
        return "snapshot.cards must be an object"
    for cid, data in cards.items():
        where = f"snapshot.cards.{cid}"
        if not isinstance(data, dict):
            return f"{where} must be an object"
        if not isinstance(data.get("name"), str):
            return f"{where}.name must be text"
        row = data.get("row")
        if not isinstance(row, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in row.items()
        ):
            return f"{where}.row must be an object of text fields"
        effects = data.get("effects")
        if effects is not None:
            if not isinstance(effects, str):
                return f"{where}.effects must be text or null"
            try:
                tomllib.loads(effects)
            except (tomllib.TOMLDecodeError, RecursionError) as err:
                return f"{where}.effects is not TOML ({err})"
    return None


def snapshot_cards(snapshot: dict[str, Any]) -> dict[str, CardEntry]:
    """The card entries a stored snapshot holds."""
    return {
        cid: CardEntry(cid, data["name"], dict(data["row"]), data.get("effects"))
        for cid, data in snapshot["cards"].items()
    }


def changed_cards(snapshot: dict[str, Any], csv_path: Path) -> list[str]:
    """Names of the snapshot's cards whose row or effects differ in the database today (or that
    are gone from it), sorted."""
    old = snapshot_cards(snapshot)
    now = card_entries(csv_path, sorted(old))
    changed = []
    for cid, entry in old.items():
        current = now.get(cid)
        if (
            current is None
            or current.row_sha256 != entry.row_sha256
            or current.effects_sha256 != entry.effects_sha256
        ):
            changed.append(f"{entry.name} ({cid})")
    return sorted(changed, key=str.casefold)


def write_replay_db(snapshot: dict[str, Any], csv_path: Path, directory: Path) -> Path:
    """Write today's database with the snapshot's cards put back into ``directory``; returns the
    new ``cards.csv``."""
    old = snapshot_cards(snapshot)
    header, rows = read_rows(csv_path)
    for entry in old.values():
        for column in entry.row:
            if column not in header:
                header.append(column)
        rows[entry.id] = entry.row
    out_csv = directory / csv_path.name
    directory.mkdir(parents=True, exist_ok=True)
    with out_csv.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=header, restval="")
        writer.writeheader()
        for row in rows.values():
            writer.writerow(row)
    effects_out = directory / EFFECTS_DIR
    effects_out.mkdir(exist_ok=True)
    source = csv_path.parent / EFFECTS_DIR
    if source.is_dir():
        for path in sorted(source.glob("*.toml")):
            kept = [
                chunk
                for cid, chunk in effect_blocks(
                    read_text(path, what="effects file", error=CardDataError)
                )
                if cid not in old
            ]
            (effects_out / path.name).write_text("".join(kept), encoding="utf-8")
    restored = [e.effects for _, e in sorted(old.items()) if e.effects is not None]
    (effects_out / SNAPSHOT_EFFECTS_FILE).write_text(
        "\n".join(chunk.rstrip("\n") + "\n" for chunk in restored), encoding="utf-8"
    )
    return out_csv
