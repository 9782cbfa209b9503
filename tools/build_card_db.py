"""Build ``card_db/animayhem/cards.csv`` from the raw card data and the Lackey set files.

Usage: ``python tools/build_card_db.py [SOURCE_DIR] [--out PATH]`` (SOURCE_DIR defaults to
``../shared/card-data`` relative to the repository root).

The Lackey ``Instructions`` column is the publisher's card text: it is read here only to derive
keyword traits and flags (card_db/animayhem/README.md, "Derived fields"); no sentence of it is
written out. Corrections (June 1998 errata, categories the rulebook prints) come from
``tools/card_corrections.toml``, so the data stays out of the code.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from deckkit.animayhem.construction.carddb import REQUIRED_COLUMNS
from deckkit.animayhem.construction.cards import ABILITIES
from deckkit.animayhem.construction.effectdb import EFFECTS_DIR

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = REPO.parent / "shared" / "card-data"
DEFAULT_OUT = REPO / "card_db" / "animayhem" / "cards.csv"
CORRECTIONS = Path(__file__).resolve().parent / "card_corrections.toml"

# The loader's columns, with the global card number after the id (the loader ignores extras).
COLUMNS = [REQUIRED_COLUMNS[0], "card_no", *REQUIRED_COLUMNS[1:]]
_TEXT = "_text_beyond_columns"  # a working key of a row, never written

TYPE_MAP = {
    "major_disaster": "disaster",
    "minor_disaster": "disaster",
}
POWER = {"equipment", "enhancement", "flash_effect", "global_effect"}

# --- regexes over the Instructions text (read, never copied) -------------------------------
# Trait keywords: set0 rulebook, "Advanced Character and Disaster Traits" and Lexicon.
RE_ALLY = re.compile(r"\ball(?:y|ies)\s+with\b", re.I)
RE_FRENZY = re.compile(
    r"attacks?\s+affects?\s+all\s+characters|\battacks?\s+all\s+characters\b", re.I
)
RE_STEALS_ITEM = re.compile(r"\bsteals?\s+(?:1|one|an|a)?\s*items?\b", re.I)
RE_STEALS_EQUIP = re.compile(r"\bsteals?\s+(?:1|one|an|a)?\s*equipment\b", re.I)
RE_MAGNET = re.compile(r"\ball\s+disasters\s+(?:\w+\s+)?move\s+to\s+this\s+location", re.I)
RE_OFF_FIELD = re.compile(r"\bplay\s+off\s+(?:the\s+)?field\b", re.I)
RE_MOVES = re.compile(r"\bmoves\s+(once|twice|(\d+)\s+times)\b", re.I)
RE_HEALTH = re.compile(r"^\s*health\s*(?:=|is)?\s*(\d+)\b", re.I)
RE_TALLY = re.compile(r"counts?\s+as\s+(\d+|two|three)\s+items?\s+for\s+(?:the\s+)?final", re.I)
RE_LIMIT = re.compile(r"^(\d+)\s+per\s+(deck|player)$")
RE_RELOAD = re.compile(r"\breload\b", re.I)
RE_CARRIES = re.compile(r"\bcarr(?:y|ies)\b[^.]*\bcharacters?\b", re.I)
RE_INT = re.compile(r"-?\d+")

# Phrases that a trait or modifier already encodes; text left after removing them means the
# card does more than deckkit simulates.
_ABIL = r"(?:attack|damage|defense|movement|move|charm|energy)"
RE_KEYWORD_TEXT = [
    RE_OFF_FIELD,
    RE_MOVES,
    re.compile(r"attacks?\s+affects?\s+all\s+characters\s+at\s+(?:this\s+)?location", re.I),
    re.compile(r"\bsteals?\s+(?:1|one|an|a)?\s*(?:item|equipment)s?\s+and\s+runs\b", re.I),
    re.compile(
        rf"(?:add\s+)?[+-]?\d+\s+(?:to\s+)?(?:your\s+)?{_ABIL}(?:\s*(?:,|and|&)\s*{_ABIL})*", re.I
    ),
    re.compile(r"\b(?:discard\s+or\s+reload|reload\s+or\s+discard)\b", re.I),
]
RE_RESTATED_PHYS = re.compile(
    r"^(?:opponent\s+)?(?:[+-]\d+(?:\s+(?:Atk|Def))?\s*)+$"
    r"|^opponent (?:Atk|Def) [+-]\d+$|^(?:Atk doubled|opponent Def halved|own Def becomes 0)$"
)
RE_ERRATA_NOTE = re.compile(r"\s*\([^)]*1998 errata[^)]*\)")
RE_RESTATED_CHARM = re.compile(r"^(?:opponent\s+Charm\s+[+-]\d+|Charm (?:doubled|halved))$")


def fail(msg: str) -> None:
    print(f"build_card_db: {msg}", file=sys.stderr)
    raise SystemExit(1)


def read_lackey(lackey_dir: Path) -> dict[int, dict[str, str]]:
    """Lackey rows keyed by global card number (ImageFile ``card033,purple`` -> 33)."""
    rows: dict[int, dict[str, str]] = {}
    for path in sorted(lackey_dir.glob("*.txt")):
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                m = re.match(r"card(\d+)", row.get("ImageFile") or "")
                if not m:
                    continue
                rows[int(m.group(1))] = {k: (v or "").strip() for k, v in row.items() if k}
    return rows


def split_list(text: str, sep: str = ",") -> list[str]:
    return [p.strip() for p in text.split(sep) if p.strip()]


def clean_mod(raw: str) -> tuple[str, bool]:
    """A power-card modifier in deckkit's notation, and whether the printed value was starred
    (conditional: "see card text"). Starred values are dropped rather than guessed."""
    v = raw.strip().replace("×", "x")
    if not v:
        return "", False
    if "*" in v:
        return "", True
    m = re.fullmatch(r"(\d+)x", v)
    if m:
        return f"x{m.group(1)}", False
    if re.fullmatch(r"[+-]?\d+|x\d+|/\d+|=\d+", v):
        return v, False
    fail(f"unreadable modifier {raw!r}")
    return "", True


def base_int(raw: str) -> tuple[str, bool]:
    """A printed base value; ``4*`` keeps 4 (the text modifies it), ``+2`` (a bonus on a value
    the text defines) is dropped. Returns (value, text_matters)."""
    v = raw.strip()
    if not v:
        return "", False
    if re.fullmatch(r"-?\d+", v):
        return v, False
    m = re.fullmatch(r"(\d+)\s*(?:\*|\(.*\))", v)
    if m:
        return m.group(1), True
    return "", True


def residual_text(text: str) -> str:
    """The instructions with the encoded keyword phrases removed (used only for a flag)."""
    for rx in RE_KEYWORD_TEXT:
        text = rx.sub(" ", text)
    return re.sub(r"[^A-Za-z]+", " ", text).strip()


def skills_field(parsed: str) -> str:
    out: list[str] = []
    for pair in split_list(parsed, ";"):
        name, _, count = pair.rpartition("=")
        n = int(count)
        if n < 0:
            out.append(f"{name} {n}")
        elif n == 1:
            out.append(name)
        else:
            out.append(f"{name} x{n}")
    return "; ".join(out)


def combat_fields(src: dict[str, str], row: dict[str, Any]) -> bool:
    """Fill the phys_* / charm_* columns; returns True when the card does more than that."""
    more = False
    row["phys_name"] = src["phys_name"]
    row["charm_name"] = src["charm_name"]
    for col, own, opp in (
        ("phys_attack_mod", "phys_damage", "phys_opp_damage"),
        ("phys_defense_mod", "phys_defense", "phys_opp_defense"),
    ):
        v = src[col].strip()
        if not v:
            continue
        if v == "*":
            more = True
            continue
        target = own
        if v.startswith("opp "):
            target, v = opp, v[4:].strip()
        mod, starred = clean_mod(v)
        row[target] = mod
        more |= starred
    effect = src["phys_effect"]
    row["phys_extra_draw"] = "true" if "draw extra combat card" in effect else "false"
    effect_rest = re.sub(r";?\s*draw extra combat card", "", effect)
    effect_rest = RE_ERRATA_NOTE.sub("", effect_rest).strip()
    if effect_rest and not RE_RESTATED_PHYS.match(effect_rest):
        more = True
    if src["phys_energy_cost"]:
        more = True
    row["charm_modifier"] = clean_mod(src["charm_mod_default"])[0]
    row["charm_target"] = src["charm_target"]
    if src["charm_target"] == "special":
        more = True
    ce = src["charm_effect"].strip()
    if ce and not RE_RESTATED_CHARM.match(ce):
        more = True
    return more


def derive_traits(src: dict[str, str], text: str, categories: list[str]) -> list[str]:
    traits: list[str] = []
    tags = src["effect_tags"].lower()
    if "Horde" in categories:
        traits.append("horde")
    if RE_ALLY.search(text):
        traits.append("ally")
    if RE_FRENZY.search(text):
        traits.append("frenzy")
    if RE_STEALS_ITEM.search(text):
        traits.append("steals_item")
    if RE_STEALS_EQUIP.search(text) or "steals equipment" in tags:
        traits.append("steals_equipment")
    if RE_MAGNET.search(text):
        traits.append("magnet")
    if RE_OFF_FIELD.search(text):
        traits.append("off_field")
    return traits


def moves_times(text: str) -> str:
    m = RE_MOVES.search(text)
    if not m:
        return ""
    word = m.group(1).lower()
    if word == "once":
        return "1"
    if word == "twice":
        return "2"
    return m.group(2)


def build_row(src: dict[str, str], lk: dict[str, str], corr: dict[str, Any]) -> dict[str, Any]:
    card_no = int(src["card_no"])
    cid = f"am{card_no:03d}"
    raw_type = src["card_type"]
    ctype = TYPE_MAP.get(raw_type, raw_type)
    text = lk.get("Instructions", "")
    row: dict[str, Any] = dict.fromkeys(COLUMNS, "")
    row.update(
        id=cid, card_no=card_no, name=src["name"], type=ctype, set=src["set"],
        rarity=src["rarity"],
    )  # fmt: skip
    not_sim = False
    categories = split_list(src["categories"].replace(";", ","))
    sources = [src["source_url"]]
    if src["extra_source"]:
        sources.extend(split_list(src["extra_source"], ";"))

    cat_fix = corr.get("category", {}).get(cid)
    if cat_fix:
        added = [c for c in cat_fix["add"] if c not in categories]
        if added:
            categories.extend(added)
            sources.append(f"categories {', '.join(added)}: {cat_fix['source']}")
        else:
            print(f"  note: {cid} already has categories {cat_fix['add']}")

    row["categories"] = "; ".join(categories)
    row["symbols"] = "; ".join(split_list(src["special_symbol"].replace(";", ",")))
    row["requirement"] = src["skill_requirement"]
    m = RE_LIMIT.match(src["deck_limit_on_card"])
    if src["deck_limit_on_card"] and not m:
        fail(f"{cid}: unreadable deck limit {src['deck_limit_on_card']!r}")
    row["deck_limit"] = m.group(1) if m else ""
    if src["uses"]:
        um = re.match(r"(\d+)", src["uses"])
        if not um:
            fail(f"{cid}: unreadable uses {src['uses']!r}")
        assert um is not None
        row["uses"] = um.group(1)
        not_sim |= "special" in src["uses"]

    if ctype in ("character", "disaster", "location"):
        for a in ABILITIES:
            for col in (a, f"{a}_alt"):
                v, starred = base_int(src[col])
                row[col] = v
                not_sim |= starred
    if ctype == "character":
        row["skills"] = skills_field(src["skills_parsed"])
        row["gender"] = src["gender"]
        hm = RE_HEALTH.match(text)
        row["health"] = hm.group(1) if hm else ""
        not_sim |= bool(text) or "*" in src["skills"]
    elif ctype == "disaster":
        hm = RE_HEALTH.match(text)  # "Health = 14" (Recoom), "Health is 4" (Tank Special)
        row["health"] = hm.group(1) if hm else ""
        row["major"] = "true" if raw_type == "major_disaster" else "false"
        row["combat"] = "true" if src["is_combat"] == "yes" else "false"
        row["traits"] = "; ".join(derive_traits(src, text, categories))
        row["moves_times"] = moves_times(text)
        not_sim |= bool(residual_text(text))
    elif ctype == "location":
        not_sim |= bool(text) or not src["skill_requirement"]
    elif ctype in POWER:
        for a in ABILITIES[:4]:
            mod, starred = clean_mod(src[a])
            row[a] = mod
            not_sim |= starred
        e = src["energy"].strip()
        if e.startswith(("+", "-")) and "*" not in e:
            row["energy"] = e
        elif re.fullmatch(r"\d+", e):
            row["energy_cost"] = e
        elif e:
            not_sim = True
        if ctype == "equipment":
            cats = " ".join(categories)
            row["vehicle"] = str(
                bool(re.search(r"\bVehicle\b", cats)) or bool(RE_CARRIES.search(text))
            ).lower()
            row["weapon"] = str(
                bool(re.search(r"\bWeapon\b", cats)) or bool(RE_RELOAD.search(text))
            ).lower()
        not_sim |= bool(residual_text(text))
    elif ctype == "combat":
        not_sim |= combat_fields(src, row)
    elif ctype == "item":
        tm = RE_TALLY.search(text)
        if tm:
            word = tm.group(1).lower()
            row["tally"] = {"two": "2", "three": "3"}.get(word, word)
        else:
            row["tally"] = "1"
        not_sim |= bool(text)
    elif ctype == "haven":
        not_sim |= bool(text)

    err = corr.get("errata", {}).get(cid)
    if src["errata_1998"]:
        if not err:
            fail(f"{cid} ({src['name']}) has 1998 errata but no [errata.{cid}] entry")
        row["errata"] = err["note"]
        for k, v in err.get("set", {}).items():
            if k not in row:
                fail(f"[errata.{cid}] sets unknown column {k!r}")
            row[k] = v
        not_sim |= bool(err.get("text_beyond_columns", False))
    plus = corr.get("plus_characters", {}).get(cid)
    if plus:
        # Printed "+N" values that the card text puts on top of the number of characters at the
        # location: keep the printed bonus, checked against the printed value.
        for part in split_list(plus["plus_characters"], ";"):
            ability, _, bonus = part.partition(" ")
            if ability not in ABILITIES or src[ability].strip() != bonus:
                fail(f"[plus_characters.{cid}] {part!r} does not match the printed {ability}")
        row["plus_characters"] = plus["plus_characters"]
        for k, v in plus.get("set", {}).items():
            if k not in row:
                fail(f"[plus_characters.{cid}] sets unknown column {k!r}")
            row[k] = v
        sources.append(f"plus_characters: {plus['note']}")
    req = corr.get("requirement", {}).get(cid)
    if req:
        # A requirement the card states only in its text (read, paraphrased in the note).
        if row["requirement"]:
            fail(f"[requirement.{cid}] but the data already has {row['requirement']!r}")
        row["requirement"] = req["requirement"]
        sources.append(f"requirement from the card text: {req['note']}")
    stats = corr.get("text_stats", {}).get(cid)
    if stats:
        # Modifier columns a power card's text states otherwise (read, paraphrased in the note);
        # an emptied column leaves the modifier to the card's effect entry, which gates it.
        if ctype not in ("equipment", "enhancement", "flash_effect", "global_effect"):
            fail(f"[text_stats.{cid}] is for power cards, not a {ctype}")
        for k, v in stats["set"].items():
            if k not in ABILITIES and k != "energy_cost":
                fail(f"[text_stats.{cid}] sets {k!r}, which is no ability or cost column")
            row[k] = v
        sources.append(f"modifiers from the card text: {stats['note']}")
    uses = corr.get("uses", {}).get(cid)
    if uses:
        # A usage limit the card states only in its text (read, paraphrased in the note).
        if row.get("uses"):
            fail(f"[uses.{cid}] but the data already has uses {row['uses']!r}")
        if not re.fullmatch(r"\d+", str(uses["uses"])):
            fail(f"[uses.{cid}] uses must be a whole number, not {uses['uses']!r}")
        row["uses"] = str(uses["uses"])
        sources.append(f"uses from the card text: {uses['note']}")
    row[_TEXT] = not_sim  # not written: main() checks such a card has an effect entry
    row["source"] = "; ".join(sources)
    return row


def pair_forms(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Two characters are the two forms of one when both print full "a/b" stat lines and one's
    (primary, alt) equals the other's (alt, primary) on all five abilities (1998 guidelines 2.5)."""

    def line(r: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        prim = tuple(str(r[a]) for a in ABILITIES)
        alt = tuple(str(r[f"{a}_alt"]) for a in ABILITIES)
        if not all(prim) or not all(alt):
            return None
        return prim, alt

    chars = [(r, line(r)) for r in rows if r["type"] == "character"]
    pairs: list[tuple[str, str]] = []
    for i, (a, la) in enumerate(chars):
        for b, lb in chars[i + 1 :]:
            if la and lb and la[0] == lb[1] and la[1] == lb[0]:
                pairs.append((a["id"], b["id"]))
    return pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", nargs="?", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    src_dir: Path = args.source

    with (src_dir / "animayhem_cards.csv").open(encoding="utf-8", newline="") as fh:
        raw = list(csv.DictReader(fh))
    lackey = read_lackey(src_dir / "lackey")
    corr = tomllib.loads(CORRECTIONS.read_text(encoding="utf-8"))
    if len(raw) != 787:
        fail(f"expected 787 cards, found {len(raw)}")
    missing = [r["card_no"] for r in raw if int(r["card_no"]) not in lackey]
    if missing:
        fail(f"cards missing from the Lackey files: {missing}")
    for r in raw:
        lk_name = lackey[int(r["card_no"])]["Name"]
        if lk_name.lower().replace(" ", "") != r["name"].lower().replace(" ", ""):
            print(f"  note: #{r['card_no']} named {r['name']!r} here, {lk_name!r} in Lackey")

    rows = [build_row(r, lackey[int(r["card_no"])], corr) for r in raw]
    rows.sort(key=lambda r: r["id"])
    by_id = {r["id"]: r for r in rows}
    for section in ("errata", "category", "plus_characters", "requirement", "uses", "text_stats"):
        for cid in corr.get(section, {}):
            if cid not in by_id:
                fail(f"[{section}.{cid}] names no card")

    print("transforming pairs:")
    for a, b in pair_forms(rows):
        by_id[a]["alternate_form"] = b
        by_id[b]["alternate_form"] = a
        print(f"  {a} {by_id[a]['name']}  <->  {b} {by_id[b]['name']}")

    print("disaster traits:")
    trait_count: Counter[str] = Counter()
    for r in rows:
        for t in filter(None, str(r["traits"]).split("; ")):
            trait_count[t] += 1
            print(f"  {t:17} {r['id']} {r['name']}")
    print("  totals:", dict(trait_count))
    print("moves_times:", {r["name"]: r["moves_times"] for r in rows if r["moves_times"]})
    print("health:", {r["name"]: r["health"] for r in rows if r["health"]})
    print("tally>1:", {r["name"]: r["tally"] for r in rows if r["tally"] not in ("", "1")})
    plus = {r["name"]: r["plus_characters"] for r in rows if r["plus_characters"]}
    print("plus_characters:", plus)
    print("requirements from card text:")
    for r in rows:
        if r["id"] in corr.get("requirement", {}):
            print(f"  {r['id']} {r['name']}: {r['requirement']}")
    print("vehicles:", [r["name"] for r in rows if r["vehicle"] == "true"])
    print("weapons:", [r["name"] for r in rows if r["weapon"] == "true"])
    print("errata:", {r["name"]: r["errata"] for r in rows if r["errata"]})
    ns = Counter(r["type"] for r in rows if r[_TEXT])
    print("cards whose text does more than their columns, by type:", dict(ns))
    # How much of such a card the engine plays is its effect entry (`deckkit cards coverage`);
    # the build says which have none yet, so the card database never claims a card it cannot
    # play (a card without an entry is played as its columns: in full).
    effects_dir = args.out.parent / EFFECTS_DIR
    entered: set[str] = set()
    for path in sorted(effects_dir.glob("*.toml")):
        entered |= set(tomllib.loads(path.read_text(encoding="utf-8")))
    unentered = [f"{r['id']} {r['name']}" for r in rows if r[_TEXT] and r["id"] not in entered]
    if unentered:
        print(f"WARNING: {len(unentered)} card(s) with text need an entry in {effects_dir}:")
        for line in unentered:
            print(f"  {line}")
    for r in rows:
        del r[_TEXT]
    print("types:", dict(Counter(r["type"] for r in rows)))

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {len(rows)} cards to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
