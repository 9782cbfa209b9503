"""Build ``card_db/animatactics/abilities.csv``: each character's abilities as data (and
``advantages.csv``: what an advantage card gives its bearer's stats).

Usage: ``python tools/build_animatactics_abilities.py GST_DIR [--out PATH]``, GST_DIR holding the
BattleScribe files of acebaur/Anima-Tactics- at commit 374a311 (``Anima Tactics.gst`` and the
``.cat`` files). The names, action costs and tags come from ``cards.csv``; the rules text of each
ability (the data's profiles) is read for the numbers deckkit plays (Attack and Damage modifiers,
the target's Armor, range, dice kept, attacks made, area, Critical Mastery, limits, Life Points
sacrificed) and for the clauses it does not play, which are recorded under deckkit's own labels
(``throw``, ``state Seal 2``, ``movement``, ...). No sentence of the source is copied: the file
holds numbers and labels only. What the engine plays of each row is derived when the file is read
(:mod:`deckkit.animatactics.engine.abilities`), never written here.
"""

from __future__ import annotations

import argparse
import csv
import glob
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "card_db" / "animatactics" / "cards.csv"
DEFAULT_OUT = REPO / "card_db" / "animatactics" / "abilities.csv"
DEFAULT_ADVANTAGES_OUT = REPO / "card_db" / "animatactics" / "advantages.csv"
SOURCE = "https://github.com/acebaur/Anima-Tactics-/blob/374a31199a41edf6862ce39fae2146dd202eb5cc/"

COLUMNS = (
    "character", "ability", "kind", "ap", "tags", "action", "attack", "damage", "armor",
    "range", "dice", "roll", "strikes", "follow_up", "area", "critical_mastery",
    "critical_damage", "critical_ignores_armor", "self_damage", "limit", "tokens",
    "token_bonus", "damage_cap", "deter", "requires", "after",
    "reaction", "recoil", "no_damage", "loss", "state", "effect", "target_state", "unplayed",
    "source",
)  # fmt: skip

# What a follow-on special must come right after (the ``after`` column): a Charge, a Charge that
# hit, a hit with a named special of the same character, a hit that throws its target.
AFTER = (
    (r"immediately after (?:making|resolving) a successful charge", "charge hit"),
    (r"immediately after (?:making|resolving) a charge", "charge"),
    (r"following a successful hit with ([a-z' ]+?)\.", "hit:{}"),
    (r"immediately after .*attack which causes its target to be thrown", "throw hit"),
)  # fmt: skip
# When a reactive Attack special may be used (the ``reaction`` column): before an enemy's melee
# attack at it, once it has taken damage from an enemy, when an enemy engaged with it attacks a
# friend of it.
REACTION = (
    (r"enemy unit declares a melee attack against", "before melee"),
    (r"sustains damage from an enemy", "damaged"),
    (r"enemy unit engaged with \w+ makes an attack against a friendly unit", "ally attacked"),
)  # fmt: skip
WORDS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
STATES = (
    "Seal", "Blind", "Doom", "Slow", "Paralyze", "Haste", "Healing", "Berserk", "Protection",
    "Shield",
)  # fmt: skip
# A condition the engine cannot see on a board-free table (the special is then not played).
REQUIRES = (
    (r"if \w+ is hidden|only be used if \w+ is hidden|only use this attack if he is hidden",
     "hidden"),
    (r"must have \d+ or fewer life", "low life"),
    (r"immediately after|may only be executed following|only be used immediately", "follow-on"),
    (r"must be flying", "flying"),
    (r"removed from table", "off the table"),
    (r"paralyzed character", "paralyzed target"),
    (r"can only be used if the agent is a warrior", "warrior agent"),
    (r"only be used when an enemy|used only in the moment|only be used when", "reaction"),
    (r"costs one power token", "power tokens"),
    (r"causes no damage|loses \d+ lp instead", "another effect"),
)  # fmt: skip
# Clauses the engine leaves out, by label.
UNPLAYED = (
    (r"\bthrow", "throw"),
    (r"\bmove|\bplace \w+ anywhere|relocate", "movement"),
    (r"within \d+\"? ?(inches|inch)? ?of the target|within 2\" of the target", "splash"),
    (r"recovers? (lp|life)", "healing"),
    (r"loses \d+ lp instead", "fixed loss"),
    (r"additional action point|additional ap", "extra action points"),
    (r"equal to the lp he sacrifices", "sacrifice for damage"),
    (r"bonus equal to his attack damage bonus", "bonus from a power"),
    (r"prowler", "prowler bonus"),
    (r"retire all positive states", "strips states"),
    (r"secondary value|loses the special abilities", "own stats change"),
    (r"cannot walk or run", "movement"),
    (r"cannot lose life points", "invulnerable"),
    (r"another target|different unit|another enemy|against one enemy unit", "second target"),
    (r"causes no damage", "no damage"),
    (r"power token", "power tokens"),
    (r"difference between .* maximum life", "bonus from lost life"),
    (r"takes damage equal", "self damage"),
    (r"if the target is less than", "close range bonus"),
    (r"hard cover", "cover"),
    (r"line between", "line area"),
    (r"all enemy units within 12 inches", "every enemy in range"),
    (r"lucera or umbra|spirit", "spirits"),
    (r"redirect", "redirect"),
)  # fmt: skip


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def read_profiles(gst_dir: Path) -> tuple[dict[str, dict[str, str]], dict[str, list[str]]]:
    """Per character (BattleScribe entry name): ability name -> rules text; and innate names."""
    texts: dict[str, dict[str, str]] = {}
    innate: dict[str, list[str]] = {}
    files = [gst_dir / "Anima Tactics.gst", *sorted(Path(p) for p in glob.glob(f"{gst_dir}/*.cat"))]
    for fn in files:
        root = ET.parse(fn).getroot()
        ns = root.tag.split("}")[0] + "}"
        for entry in root.iter(ns + "selectionEntry"):
            profiles = list(entry.iter(ns + "profile"))
            if not profiles:
                continue
            name = (entry.get("name") or "").strip()
            own = texts.setdefault(name, {})
            links = entry.find(ns + "infoLinks")
            if links is not None:
                innate.setdefault(name, []).extend(x.get("name") or "" for x in links)
            for p in profiles:
                text = " ".join((c.text or "") for c in p.iter(ns + "characteristic"))
                key = _norm((p.get("name") or "").split("—")[-1].split("(")[0])
                own.setdefault(key, text)
    return texts, innate


def _text_for(texts: dict[str, dict[str, str]], character: str, ability: str) -> str | None:
    key = _norm(ability.split("(")[0])
    own = texts.get(character, {})
    if key in own:
        return own[key]
    found = {t[key] for t in texts.values() if key in t}
    return next(iter(found)) if len(found) == 1 else None


def parse(text: str, action: str) -> dict[str, str]:
    t = _norm(text.replace("’", "'"))
    row: dict[str, str] = {}
    m = re.search(r"([+-]\d+) ?attack|attack ([+-]\d+)", t)
    if m and "gets +x" not in t:
        row["attack"] = str(int(m.group(1) or m.group(2)))
    m = re.search(r"([+-]\d+) ?(?:to )?damage|damage ([+-]\d+)", t)
    if m and "critical hit, deal" not in t[max(0, m.start() - 40) : m.end()]:
        row["damage"] = str(int(m.group(1) or m.group(2)))
    m = re.search(r"([+-]\d+) (?:to the target's )?armor", t)
    if m:
        row["armor"] = m.group(1)
    if re.search(r"ignores? (the )?(target's |defender's )?armor", t) and "critical" not in t:
        row["armor"] = "ignore"
    if "damage bonus on this attack equal to the target's armor" in t:
        row["armor"] = "ignore"
    m = re.search(r"(?:distance|ranged)[^0-9]{0,12}(\d+)", t)
    if m:
        row["range"] = m.group(1)
    if re.search(r"(two|2) dice and keeps? the highest|keeps the highest|(two|2) dice and keep", t):
        row["dice"] = "2"
    m = re.search(r"rolled an (\d+)", t)
    if m:
        row["roll"] = m.group(1)
    m = re.search(r"(two|three|four|2|3|4) consecutive (ranged )?attacks|executes (four) attacks"
                  r"|up to (two) attacks", t)  # fmt: skip
    if m:
        row["strikes"] = str(WORDS[next(g for g in m.groups() if g and g in WORDS)])
    if re.search(r"if the attack is successful, \w+ is able to make a second free attack", t):
        row["follow_up"] = "hit"  # one more attack when the first hits
    elif re.search(r"after (this|resolving this) charge.*(another|attack for free)", t):
        row["follow_up"] = "always"  # one more attack on the same target
    around = re.search(
        r"all (enemy )?units within \d+ inch(es)? (of|from) (him|her|\w+)\b(?! target)"
        r"|all enemy units within \d+ inches\.|all enemies in contact|all (enemy )?units"
        r" within \d+ inches of (him|her)self|engaged with (him|marchosias)|each enemy unit"
        r" within|every enemy unit within|all enemy units engaged",
        t,
    )
    if around and not re.search(r"within \d+\"? ?(inches|inch)? of the target", t):
        row["area"] = "yes"
    if re.search(r"has critical mastery|obtains critical mastery", t):
        row["critical_mastery"] = "yes"
    m = re.search(r"critical hit, deal ([+-]\d+)", t)
    if m:
        row["critical_damage"] = m.group(1)
    if re.search(r"critical hit.*armor is ignored", t):
        row["critical_ignores_armor"] = "yes"
    m = re.search(r"sacrifice (\d+) (lp|life points)", t)
    if m:
        row["self_damage"] = m.group(1)
    if "once per game" in t:
        row["limit"] = "game"
    elif re.search(r"once per turn|1 per turn", t):
        row["limit"] = "turn"
    requires = [label for pat, label in REQUIRES if re.search(pat, t)]
    m = re.search(r"must have (\d+) or fewer life", t)
    if m:
        requires = [f"low life {m.group(1)}" if x == "low life" else x for x in requires]
    unplayed = [label for pat, label in UNPLAYED if re.search(pat, t)]
    for state in STATES:
        m = re.search(rf"{state.lower()}\w* (?:lv\.? ?)?(\d)|lv\.? ?(\d) {state.lower()}", t)
        if m:
            unplayed.append(f"state {state} {m.group(1) or m.group(2)}")
    if re.search(r"automatically causes a critical hit", t):
        unplayed.append("sure critical")
    for pat, label in AFTER:
        m = re.search(pat, t)
        if m:
            row["after"] = label.format(*m.groups())
            requires = [x for x in requires if x != "follow-on"]
            break
    for pat, label in REACTION:
        if re.search(pat, t):
            row["reaction"] = label
            requires = [x for x in requires if x != "reaction"]
            break
    # What the engine plays of effects: no damage, a fixed loss of Life Points instead of damage
    # (Armor no help), Paralyze on a hit, each resisted against the Effect's difficulty; a
    # special usable only at a Paralyzed target.
    if "causes no damage" in t:
        row["no_damage"] = "yes"
        requires = [x for x in requires if x != "another effect"]
        unplayed = [x for x in unplayed if x != "no damage"]
    m = re.search(r"loses (\d+) lp instead", t)
    if m:
        row["loss"] = m.group(1)
        requires = [x for x in requires if x != "another effect"]
        unplayed = [x for x in unplayed if x != "fixed loss"]
    m = re.search(r"if it hits the target suffers paralyze lv\.? ?(\d)", t)
    if m:
        row["state"] = f"Paralyze {m.group(1)}"
        unplayed = [x for x in unplayed if x != f"state Paralyze {m.group(1)}"]
    m = re.search(r"effect (\d+)", t)
    if m and (row.get("loss") or row.get("state")):
        row["effect"] = m.group(1)
    if "only be used on a paralyzed character" in t:
        row["target_state"] = "Paralyze"
        requires = [x for x in requires if x != "paralyzed target"]
    if re.search(r"successful charge or versus", t):
        unplayed.append("after a Versus")  # Versus is not played: after a Charge only
    if re.search(r"takes damage equal to the amount of life points the target", t):
        row["recoil"] = "yes"  # loses as many Life Points as its target has left
        unplayed = [x for x in unplayed if x != "self damage"]
    # Power tokens: what the special costs in them, and the Attack and Damage one more token
    # buys (its other choices are the labels above: another target, no movement, range).
    if re.search(r"costs? one power token", t):
        row["tokens"] = "1"
        m = re.search(r"additional power token.*?([+-]\d+) attack ?/ ?([+-]\d+) damage", t)
        if m:
            row["token_bonus"] = f"{int(m.group(1))}/{int(m.group(2))}"
            unplayed = [x for x in unplayed if x != "power tokens"]
    if requires:
        row["requires"] = ";".join(dict.fromkeys(requires))
    if unplayed:
        row["unplayed"] = ";".join(dict.fromkeys(unplayed))
    return row


def off_table_action(text: str, tags: str) -> str:
    """An ``other`` special that takes its user off the table (a Movement special: "remove X
    from the table"): ``leave``; one that puts it back with no attack, usable only off the table
    ("place X anywhere on the table", "only ... if X is removed from table"): ``land``; else
    ``other``."""
    t = _norm(text)
    if "Movement" in tags and re.search(r"^remove \w+ from the table", t):
        return "leave"
    if re.search(r"place \w+ anywhere on the table", t) and "removed from table" in t:
        return "land"
    return "other"


def parse_power(text: str) -> dict[str, str]:
    """What the engine plays of a power: every attack of the character ignoring Armor
    (``armor`` ignore), a most Life Points one attack can take from it (``damage_cap``)."""
    t = _norm(text.replace("’", "'"))
    row: dict[str, str] = {}
    if re.search(r"^all of [\w ]+'s attacks ignore the target's armor\.?$", t):
        row["armor"] = "ignore"
    m = re.search(r"^[\w ]+ can only ever take (\d+) damage maximum from one attack\.", t)
    if m:
        row["damage_cap"] = m.group(1)
    m = re.search(
        r"^a unit that declares an attack or charge on [\w ]+ must make a resistance roll "
        r"against effect (\d+)\. if they fail the attack automatically misses",
        t,
    )
    if m:
        row["deter"] = m.group(1)
    return row


# Listed among a character's innate abilities in cards.csv, but party-building categories of the
# data (what a party may field), with no rule in play.
CATEGORIES = frozenset({"Equipment", "Agent", "Technomagical Powered Armor"})

# Where the numbers read above are not the special's own (optional or conditional clauses).
OVERRIDES: dict[tuple[str, str], dict[str, str]] = {
    ("October", "Liberation"): {"attack": "", "damage": ""},  # bonuses bought with tokens
    ("Nimrod", "Murderer of Shadows"): {"damage": ""},  # +3 against Prowlers only
    ("Nimrod", "Haunting Claws"): {"armor": "", "unplayed": "second attack ignores armor"},
    ("The Bearer of Calamities", "Charged Beam"): {"range": "20"},  # printed 50 cm / 20 in
    ("Grimorium Verum", "Exodia Cannon"): {"damage": ""},  # per extra action point
    ("Gear Mk. Trithemius", "Canyon Legate"): {"attack": "", "damage": ""},  # per 2 extra AP
    ("Goethia", "Calamity Rain"): {"strikes": ""},  # each attack at a different unit
    ("Grimorium Verum", "Magus Burst"): {"follow_up": ""},  # the others in reach, not the target
    ("Kairos", "Final Burst"): {"attack": ""},  # +2 for an extra action point
    ("Valentine", "Perfect Shot"): {"damage": ""},  # +4 at close range only
}

ACTIONS = (("Ranged Attack", "ranged"), ("ranged", "ranged"), ("Counterattack", "counter"),
           ("Charge", "charge"), ("Attack", "attack"), ("attack", "attack"))  # fmt: skip


def build(gst_dir: Path, out: Path) -> int:
    texts, _innate = read_profiles(gst_dir)
    with CARDS.open(newline="", encoding="utf-8") as f:
        chars = [
            r for r in csv.DictReader(f)
            if r["card_type"] == "character" and r["stats_complete"] == "yes"
        ]  # fmt: skip
    rows: list[dict[str, str]] = []
    for c in chars:
        name = c["name"]
        src = c["source_url"]
        for inn in filter(None, (x.strip() for x in c["innate_abilities"].split(";"))):
            kind = "category" if inn in CATEGORIES else "innate"
            rows.append({"character": name, "ability": inn, "kind": kind, "source": src})
        for spec in filter(None, (x.strip() for x in c["special_abilities"].split("|"))):
            m = re.match(r"(.*?)\[(.*)\]$", spec)
            ability = m.group(1).strip() if m else spec
            ap, tags = "", ""
            if m:
                head, _, tags = m.group(2).partition(";")
                ap = head.replace("AP", "").replace("+", "")
            action = next((a for key, a in ACTIONS if key in tags), "other" if m else "group")
            row = {"character": name, "ability": ability, "kind": "special", "ap": ap,
                   "tags": tags.replace(",", "+"), "action": action, "source": src}  # fmt: skip
            text = _text_for(texts, name.strip(), ability)
            if text is None:
                text = _text_for(texts, name.strip() + " ", ability)
            if text is None:
                if action in ("attack", "ranged") and "ranged 16" in tags:
                    row["range"] = "16"
                row["unplayed"] = "rules text not in the source"
            elif action in ("attack", "ranged", "charge", "counter"):
                row.update(parse(text, action))
                row.update(OVERRIDES.get((name.strip(), ability), {}))
            elif action == "other":
                row["action"] = off_table_action(text, tags)
            if "+AP" in (m.group(2) if m else ""):
                labels = [x for x in row.get("unplayed", "").split(";") if x]
                row["unplayed"] = ";".join(dict.fromkeys([*labels, "extra action points"]))
            rows.append(row)
        for power in filter(None, (x.strip() for x in c["powers"].split("|"))):
            row = {"character": name, "ability": power, "kind": "power", "source": src}
            text = _text_for(texts, name.strip(), power)
            if text and re.search(r"spend any (amount|number) of ap to get an equal number of "
                                  r"power tokens", _norm(text)):  # fmt: skip
                row["tokens"] = "actions"  # tokens bought with actions in the Maintenance Phase
            row.update(parse_power(text or ""))
            rows.append(row)
    return write_rows(out, COLUMNS, rows)


def write_rows(out: Path, columns: Sequence[str], rows: list[dict[str, str]]) -> int:
    """Write ``rows`` to the CSV file ``out`` under ``columns`` (a missing cell empty); their
    number."""
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in columns})
    return len(rows)


ADVANTAGE_COLUMNS = ("advantage", "subtype", "attack", "damage", "defense", "armor", "unplayed",
                     "source")  # fmt: skip
STATS = ("attack", "damage", "defense", "armor")
# An Equipment card's own bonus to its bearer, with no condition: "the character carrying this
# card (or who has this card) gets +N Stat [and +N Stat]", then the sentence ends or goes on to
# a clause the engine leaves out.
BEARER_BONUS = re.compile(
    r"^the character (?:carrying this card|who has this card) gets ([+-]\d+ \w+(?: and [+-]\d+ "
    r"\w+)?)(?:\.|$| and their (speed) is halved)"
)


def parse_advantage(text: str) -> dict[str, str]:
    """An advantage card's bonus to its bearer's stats, as numbers and labels."""
    m = BEARER_BONUS.search(_norm(text))
    if not m:
        return {}
    row: dict[str, str] = {}
    for value, stat in re.findall(r"([+-]\d+) (\w+)", m.group(1)):
        if stat not in STATS:
            return {}
        row[stat] = str(int(value))
    if m.group(2):
        row["unplayed"] = "speed halved"
    return row


def build_advantages(gst_dir: Path, out: Path) -> int:
    """``advantages.csv``: each advantage card of cards.csv, with the unconditional bonus it
    gives its bearer's Attack, Damage, Defense or Armor (empty: none the engine plays)."""
    texts, _innate = read_profiles(gst_dir)
    with CARDS.open(newline="", encoding="utf-8") as f:
        cards = [r for r in csv.DictReader(f) if r["card_type"] == "advantage"]
    rows = []
    for c in cards:
        name = c["name"].strip()
        row = {"advantage": name, "subtype": c["advantage_subtype"], "source": c["source_url"]}
        text = _text_for(texts, name, name)
        if text is not None:
            row.update(parse_advantage(text))
        rows.append(row)
    return write_rows(out, ADVANTAGE_COLUMNS, rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gst_dir", type=Path)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--advantages-out", type=Path, default=DEFAULT_ADVANTAGES_OUT)
    args = ap.parse_args()
    print(f"{build(args.gst_dir, args.out)} rows -> {args.out}")
    n = build_advantages(args.gst_dir, args.advantages_out)
    print(f"{n} rows -> {args.advantages_out}")


if __name__ == "__main__":
    main()
