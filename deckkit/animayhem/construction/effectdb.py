"""Load and check the effect entries of ``card_db/animayhem/effects/*.toml``.

Every entry is checked when the database loads (Forge and Fireplace keep thousands of cards as
data and trust a small interpreter; deckkit adds a strict reader so a typo stops the load with
the file, the card's line and what to change, instead of silently playing a card wrong):
known card id, matching name, known trigger, action and target, a target the action accepts,
only the fields the action uses, modifiers and conditions that parse, and a note wherever the
encoding is not exact.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from deckkit.animayhem.construction.cards import STATS, AnyCard, Coverage, Modifier, Stat
from deckkit.animayhem.construction.requirements import (
    Requirement,
    SpecialTerm,
    Vocabulary,
    parse_requirement,
)
from deckkit.animayhem.construction.vocabulary import (
    ACTION_TARGETS,
    CHARACTER_TARGETS,
    DESTROY_DESTINATIONS,
    DISASTER_TARGETS,
    FETCH_DESTINATIONS,
    FLASH_ONLY,
    MOVE_DESTINATIONS,
    RECOVER_DESTINATIONS,
    RETRIEVE_DESTINATIONS,
    SEND_DESTINATIONS,
    Action,
    CardEffects,
    Effect,
    Scope,
    Target,
    Trigger,
    unplayed,
)
from deckkit.core.carddir import EFFECTS_DIR as EFFECTS_DIR
from deckkit.errors import CardDataError
from deckkit.untrusted import parse_toml, read_text

_ENTRY_KEYS = frozenset({"name", "coverage", "note", "effects", "columns"})
_COMMON = frozenset({"when", "do", "target", "if", "unless", "if_in_play", "unless_in_play"})
_COMMON |= {"every", "filter", "exclude", "n", "against", "max_times", "if_here"}
# The fields each action may carry beyond the common ones.
_ACTION_FIELDS: dict[Action, frozenset[str]] = {
    Action.DISABLE: frozenset({"turns"}),
    Action.HOLD: frozenset({"turns"}),
    Action.CAPTURE: frozenset({"turns"}),
    Action.SEND: frozenset({"to"}),
    Action.DROP: frozenset({"cards"}),
    Action.GRANT: frozenset({"skill", "turns"}),
    Action.MODIFY: frozenset({"mods", "scope", "turns", "cards"}),
    Action.DESTROY: frozenset({"cards", "to"}),
    Action.TAKE: frozenset({"cards"}),
    Action.MOVE_TO: frozenset({"to"}),
    Action.PULL: frozenset({"cards"}),
    Action.BLOCK: frozenset({"turns", "skill", "cards"}),
    Action.EXTRA_CARDS: frozenset({"cards"}),
    Action.PREFER: frozenset(),
    Action.SPARE: frozenset(),
    Action.DEFEAT: frozenset({"pay", "cards"}),
    Action.DISCARD: frozenset({"cards"}),
    Action.UNLOCK: frozenset({"cards"}),
    # Character-side additions: a carried card given up to heal or change a character
    # (pay = ["self"]), protections, requirement waivers, disaster-side rules.
    Action.HEAL: frozenset({"pay"}),
    Action.FIRST_STRIKE: frozenset({"pay"}),
    Action.WAIVE: frozenset({"cards"}),
    Action.RECYCLE: frozenset({"cards"}),
    Action.PRESERVE: frozenset({"cards"}),
    Action.RECOVER: frozenset({"cards", "to"}),
    Action.FETCH: frozenset({"cards", "to"}),
    Action.PUSH: frozenset({"cards"}),
    Action.RELOAD: frozenset({"cards"}),
    Action.EASE: frozenset({"cards"}),
    Action.RETRIEVE: frozenset({"cards", "to"}),
    Action.SURVIVE: frozenset({"pay"}),
    Action.SWAP: frozenset({"cards"}),
    Action.CARRY: frozenset({"cards"}),
    Action.REVERSE: frozenset({"cards"}),
    Action.SAFEGUARD: frozenset({"cards"}),
    Action.FORFEIT: frozenset({"skill"}),
    Action.SHARE: frozenset({"turns"}),
    Action.REVEAL: frozenset({"cards", "skill"}),
    Action.CLEAR: frozenset({"pay"}),
    Action.UNEARTH: frozenset({"cards"}),
    Action.BURY: frozenset({"cards"}),
    Action.SUPPLY: frozenset({"cards"}),
    Action.REMATCH: frozenset({"mods", "cards"}),
}
# Where RECOVER and FETCH put the cards (`to`), and the default.
_PILE_DESTINATIONS: dict[Action, tuple[tuple[str, ...], str]] = {
    Action.RECOVER: (RECOVER_DESTINATIONS, "draw"),
    Action.FETCH: (FETCH_DESTINATIONS, "hand"),
    Action.DESTROY: (DESTROY_DESTINATIONS, "discard"),
    Action.RETRIEVE: (RETRIEVE_DESTINATIONS, "party"),
}
_ACTION_FIELDS[Action.MODIFY] = _ACTION_FIELDS[Action.MODIFY] | {"pay"}
_ACTION_FIELDS[Action.REPLACE] = frozenset({"turns"})  # vehicles and forms (field2 additions)
_ACTION_FIELDS[Action.EQUIP_ANYWHERE] = frozenset({"cards"})  # a haven's: which equipment
_ACTION_FIELDS[Action.AMPLIFY] = frozenset({"cards"})  # the power cards it strengthens
_ACTION_FIELDS[Action.LEAP] = frozenset({"mods"})  # the holder's movement changed (Speed: x2)
# What an action needs beyond its target, and the hint the loader gives when it is missing.
_NEEDS: dict[Action, tuple[str, str]] = {
    Action.IMMUNE: ("against", 'against = ["Money"]: the disasters it keeps away'),
    Action.WAIVE: ("cards", 'cards = ["Science"]: the power cards used without requirements'),
    Action.PRESERVE: ("cards", 'cards = ["vehicle"]: the cards it keeps from destruction'),
    Action.SAFEGUARD: ("cards", 'cards = ["Gift", "Clothing"]: the items kept from theft'),
    Action.AMPLIFY: ("cards", 'cards = ["Fire"]: the power cards it strengthens'),
}
DISASTER_ONLY = DISASTER_TARGETS - CHARACTER_TARGETS
_LINE = re.compile(r"^\s*\[\[?\s*(am\d{3})\b", re.MULTILINE)


class _Where:
    """Names the file and the line of the entry being read, for errors."""

    def __init__(self, path: Path, lines: dict[str, int]) -> None:
        self.path = path
        self.lines = lines

    def fail(self, card_id: str, message: str, hint: str | None = None) -> CardDataError:
        return CardDataError(
            f"effects of {card_id}: {message}",
            path=self.path,
            line=self.lines.get(card_id),
            hint=hint,
        )


def _choice(where: _Where, cid: str, key: str, value: object, kind: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise where.fail(
            cid, f"{key} {value!r} is unknown", hint=f"use one of: {allowed}"
        ) from None


def _int(where: _Where, cid: str, key: str, value: object, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise where.fail(cid, f"{key} must be an integer of at least {minimum}, not {value!r}")
    return value


CARD_WORDS = frozenset(
    {"item", "equipment", "enhancement", "vehicle", "weapon", "power", "flash_effect", "self"}
    | {"global_effect", "combat", "major", "minor", "disaster", "character"}
    | {"non-combat", "dimensional"}
)
# Categories a card's text names though no card in the database prints them: an effect may
# name them (Breather Mask guards against Vapor cards), and in this card pool they match nothing.
TEXT_ONLY_CATEGORIES = frozenset({"vapor"})


def card_words(cards: Mapping[str, AnyCard]) -> frozenset[str]:
    """What a ``cards`` word may be: a card kind, any category printed in the database or a
    card's name (Disguise Revealed names the disguises it discards), compared
    case-insensitively."""
    cats = {c.casefold() for card in cards.values() for c in card.categories}
    cats |= {card.name.casefold() for card in cards.values()}
    return (
        CARD_WORDS
        | TEXT_ONLY_CATEGORIES
        | frozenset(cats)
        | {s.casefold() for card in cards.values() for s in card.symbols}
    )


def _names(where: _Where, cid: str, key: str, value: object) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(x, str) and x.strip() for x in items):
        raise where.fail(cid, f"{key} must be a name or a list of names")
    return tuple(x.strip() for x in cast(list[str], items))


def _condition(where: _Where, cid: str, key: str, value: object, vocab: Vocabulary) -> Requirement:
    if not isinstance(value, str) or not value.strip():
        raise where.fail(cid, f'{key} must be a skill listing such as "Strength x2 or Medic"')
    req = parse_requirement(value, vocab)
    special = [str(t) for alt in req.alternatives for t in alt if isinstance(t, SpecialTerm)]
    if special or not req.alternatives:
        raise where.fail(
            cid,
            f"{key} {value!r}: {', '.join(special) or 'nothing'} is no skill, category, gender, "
            "ability test or character name",
            hint="write it in the skill-listing grammar, or mark the card approximate",
        )
    return req


def _mods(where: _Where, cid: str, value: object) -> tuple[tuple[Stat, Modifier], ...]:
    if not isinstance(value, Mapping) or not value:
        raise where.fail(cid, 'mods must be a table such as { damage = "+2" }')
    out: list[tuple[Stat, Modifier]] = []
    for ability, text in value.items():
        if ability not in STATS:
            raise where.fail(cid, f"mods: {ability!r} is no ability ({', '.join(STATS)})")
        try:
            mod = Modifier.parse(str(text))
        except ValueError:
            raise where.fail(cid, f"mods: {text!r} is no modifier (+2, -1, x2, /2, =1)") from None
        if mod.op == "/" and mod.value == 0:
            raise where.fail(cid, "mods: division by zero")
        out.append((cast(Stat, ability), mod))
    return tuple(out)


def _effect(
    where: _Where, cid: str, raw: object, vocab: Vocabulary, words: frozenset[str]
) -> Effect:
    if not isinstance(raw, Mapping):
        raise where.fail(cid, "each effect must be a table")
    for key in ("when", "do"):
        if key not in raw:
            raise where.fail(cid, f"an effect lacks {key!r}")
    when = cast(Trigger, _choice(where, cid, "when", raw["when"], Trigger))
    do = cast(Action, _choice(where, cid, "do", raw["do"], Action))
    allowed_targets, default = ACTION_TARGETS[do]
    target = cast(Target, _choice(where, cid, "target", raw.get("target", default), Target))
    if target not in allowed_targets:
        names = ", ".join(sorted(t.value for t in allowed_targets))
        raise where.fail(cid, f"{do} cannot target {target}", hint=f"use one of: {names}")
    fields = _COMMON | _ACTION_FIELDS.get(do, frozenset())
    extra = sorted(set(raw) - fields)
    if extra:
        raise where.fail(
            cid,
            f"{do} does not use {', '.join(extra)}",
            hint=f"allowed: {', '.join(sorted(fields))}",
        )
    kwargs: dict[str, Any] = {"when": when, "do": do, "target": target}
    if do is Action.DESTROY and "n" not in raw:
        kwargs["n"] = 0  # destroy: every matching card unless a count is given
    if "n" in raw:
        kwargs["n"] = _int(where, cid, "n", raw["n"], -9 if do is Action.EXTRA_CARDS else 0)
    if "turns" in raw:
        kwargs["turns"] = _int(where, cid, "turns", raw["turns"], 0)
    if "max_times" in raw:
        kwargs["max_times"] = _int(where, cid, "max_times", raw["max_times"], 0)
    if "every" in raw:
        kwargs["every"] = _int(where, cid, "every", raw["every"], 1)
    if do is Action.MODIFY:
        kwargs["mods"] = _mods(where, cid, raw.get("mods"))
        default_scope = Scope.WHILE if when is Trigger.ALWAYS else None
        scope = raw.get("scope", default_scope)
        if scope is None:
            raise where.fail(
                cid, "modify needs a scope", hint="round, combat, next_combat, turns, game"
            )
        kwargs["scope"] = _choice(where, cid, "scope", scope, Scope)
        if kwargs["scope"] is Scope.TURNS and not kwargs.get("turns"):
            raise where.fail(cid, "scope turns needs turns = N")
        if kwargs["scope"] is Scope.RETREAT and (
            when is not Trigger.PLAYED or target is not Target.OPPONENT
        ):
            raise where.fail(
                cid,
                "scope retreat is for a played effect on the opponent",
                hint='when = "played", target = "opponent"',
            )
    if do is Action.LEAP and "mods" in raw:
        kwargs["mods"] = _mods(where, cid, raw["mods"])
        if any(stat != "movement" for stat, _ in kwargs["mods"]):
            raise where.fail(cid, "leap changes movement only", hint='mods = { movement = "x2" }')
    if do is Action.REMATCH:
        # The reward for beating the disaster: modifiers for the rest of the game.
        kwargs["mods"] = _mods(where, cid, raw.get("mods"))
        kwargs["scope"] = Scope.GAME
    if "skill" in raw:
        if not isinstance(raw["skill"], str) or not raw["skill"].strip():
            raise where.fail(cid, "skill must be a skill name")
        kwargs["skill"] = raw["skill"].strip()
    if do in (Action.GRANT, Action.FORFEIT) and not kwargs.get("skill"):
        raise where.fail(cid, f"{do} needs skill = NAME")
    if do is Action.SHARE and (when is Trigger.ALWAYS or kwargs.get("turns", 0) < 1):
        raise where.fail(
            cid,
            "share is an event lasting turns >= 1",
            hint='when = "turn", turns = 1: a skill passed at each Maintenance for the turn',
        )
    if do is Action.WEAR and kwargs.get("n", 0) < 1:
        raise where.fail(cid, "wear needs n >= 1: the health its wearer loses before it goes")
    if do in (Action.SEND, Action.MOVE_TO):
        allowed = SEND_DESTINATIONS if do is Action.SEND else MOVE_DESTINATIONS
        to = raw.get("to")
        if to not in allowed:
            raise where.fail(cid, f"{do} needs to = one of {', '.join(allowed)}, not {to!r}")
        kwargs["to"] = to
    if do in _PILE_DESTINATIONS:
        dests, default_to = _PILE_DESTINATIONS[do]
        to = raw.get("to", default_to)
        if to not in dests:
            raise where.fail(cid, f"{do} needs to = one of {', '.join(dests)}, not {to!r}")
        kwargs["to"] = to
    for key, name in (("filter", "filter"), ("exclude", "exclude")):
        if key in raw:
            kwargs[name] = _condition(where, cid, key, raw[key], vocab)
    if "if" in raw:
        kwargs["when_met"] = _condition(where, cid, "if", raw["if"], vocab)
    if "unless" in raw:
        kwargs["unless_met"] = _condition(where, cid, "unless", raw["unless"], vocab)
    for key in ("cards", "if_in_play", "unless_in_play", "pay", "against", "if_here"):
        if key in raw:
            kwargs[key] = _names(where, cid, key, raw[key])
    for key in ("cards", "pay", "against", "if_here"):
        unknown = [
            w
            for w in kwargs.get(key, ())
            if w.casefold() not in words
            and not (key == "pay" and do is Action.DEFEAT and w == "holder")  # a life: flash
        ]
        if unknown:
            raise where.fail(
                cid,
                f"{key}: {', '.join(map(repr, unknown))} is no card kind or category",
                hint="use item, equipment, enhancement, vehicle, weapon, power, combat, major, "
                "or a category printed on some card",
            )
    _check_additions(where, cid, do, kwargs)
    _check_flash(where, cid, do, when, raw, kwargs)
    _check_carry(where, cid, do, when, raw, kwargs)
    if do is Action.SURVIVE and kwargs.get("pay", ("self",)) != ("self",):
        raise where.fail(cid, "survive can only pay with the card itself", hint='pay = ["self"]')
    return Effect(**kwargs)


def _check_additions(where: _Where, cid: str, do: Action, kwargs: dict[str, Any]) -> None:
    """Rules of the character-side additions: what they need, and who pays."""
    need = _NEEDS.get(do)
    if need is not None and not kwargs.get(need[0]):
        raise where.fail(cid, f"{do} needs {need[0]}", hint=need[1])
    if do is Action.DEFENDS_ONLY and kwargs.get("filter") is None:
        raise where.fail(cid, "defends_only needs filter", hint='filter = "Adult Gohan"')
    if do is Action.BAR and kwargs.get("filter") is None and kwargs.get("exclude") is None:
        raise where.fail(
            cid,
            "bar needs filter or exclude: who may not scavenge the location",
            hint='filter = "Kozo Karino", or exclude = "Survival or Phase"',
        )
    if do is Action.RECYCLE and (kwargs["target"] is Target.CARDS_IN_PLAY) != bool(
        kwargs.get("cards")
    ):
        raise where.fail(
            cid,
            "recycle names cards exactly when its target is cards_in_play",
            hint='target = "cards_in_play", cards = ["equipment"]; or self / disasters alone',
        )
    pay = kwargs.get("pay", ())
    if do is Action.CLEAR and "self" in (p.casefold() for p in pay):
        raise where.fail(
            cid,
            "clear pays with a character at the location, not the card itself",
            hint='pay = ["Julian \\"Pluto\\" Moore"]',
        )
    if pay and do not in (Action.DEFEAT, Action.CLEAR) and tuple(pay) != ("self",):
        raise where.fail(
            cid, f"{do} can only be paid for by giving up the card itself", hint='pay = ["self"]'
        )
    mods = kwargs.get("mods", ())
    if any(a == "health" for a, _ in mods) and kwargs["target"] in DISASTER_ONLY:
        raise where.fail(cid, "only characters have a health to modify", hint="target a character")
    _check_field2(where, cid, do, kwargs)


def _check_field2(where: _Where, cid: str, do: Action, kwargs: dict[str, Any]) -> None:
    """Rules of the vehicle and form additions (guard, replace, a haven's equip_anywhere)."""
    if do is Action.EQUIP_ANYWHERE and kwargs["target"] is Target.PLAY and not kwargs.get("cards"):
        raise where.fail(
            cid,
            "equip_anywhere names cards exactly when its target is play (a haven's rule)",
            hint='target = "play", cards = ["vehicle"]; or self alone on a character',
        )
    if do is Action.GUARD and kwargs["when"] is not Trigger.ALWAYS:
        raise where.fail(cid, "guard is a standing rule of a character", hint='when = "always"')
    if do is Action.GUARD and kwargs.get("n", 1) < 1:
        raise where.fail(cid, "guard needs n >= 1: how many characters ride aboard", hint="n = 4")
    if do is Action.REPLACE:
        kwargs.setdefault("n", 0)  # bonks the replaced character must have survived
        if kwargs["when"] is not Trigger.ALWAYS:
            raise where.fail(
                cid, "replace is a standing rule of a character", hint='when = "always"'
            )
        if kwargs.get("filter") is None:
            raise where.fail(
                cid, "replace needs filter: the character it replaces", hint='filter = "Goku"'
            )
        if kwargs.get("turns", 0) < 1:
            raise where.fail(
                cid, "replace needs turns >= 1: how long the form lasts", hint="turns = 1"
            )


def read_effects_file(
    path: Path,
    cards: Mapping[str, AnyCard],
    vocab: Vocabulary,
    parsed: tuple[str, dict[str, Any]] | None = None,
) -> dict[str, CardEffects]:
    """Read one effects file (``parsed``: its text and data, when already read); every problem
    is a :class:`CardDataError` naming file and line."""
    if parsed is None:
        text = read_text(path, what="effects file", error=CardDataError)
        data = parse_toml(text, path, what="effects file", error=CardDataError)
    else:
        text, data = parsed
    lines: dict[str, int] = {}
    for m in _LINE.finditer(text):
        lines.setdefault(m[1], text.count("\n", 0, m.start()) + 1)
    where = _Where(path, lines)
    words = card_words(cards)
    out: dict[str, CardEffects] = {}
    for cid, entry in data.items():
        card = cards.get(cid)
        if card is None:
            raise where.fail(
                cid, "no card has this id", hint="ids are am + the card number (am576)"
            )
        if not isinstance(entry, Mapping):
            raise where.fail(cid, "an entry must be a table")
        extra = sorted(set(entry) - _ENTRY_KEYS)
        if extra:
            raise where.fail(
                cid,
                f"unknown key(s) {', '.join(extra)}",
                hint="name, coverage, note, effects, columns",
            )
        if entry.get("name") != card.name:
            raise where.fail(
                cid,
                f"name {entry.get('name')!r} is not the card's name {card.name!r}",
                hint="the name guards against a wrong id; copy it from cards.csv",
            )
        coverage = cast(Coverage, _choice(where, cid, "coverage", entry.get("coverage"), Coverage))
        note = entry.get("note", "")
        if not isinstance(note, str):
            raise where.fail(cid, "note must be text")
        if coverage is not Coverage.FULL and not note.strip():
            raise where.fail(cid, f"a {coverage} card needs a note saying what differs or why")
        raw_effects = entry.get("effects", [])
        if not isinstance(raw_effects, list):
            raise where.fail(cid, "effects must be a list of tables")
        effects = tuple(_effect(where, cid, e, vocab, words) for e in raw_effects)
        if coverage is not Coverage.NONE and not effects and not note.strip():
            raise where.fail(
                cid,
                f"a {coverage} card needs at least one effect",
                hint="or a note saying why its columns in cards.csv already play it",
            )
        columns = _columns(where, cid, card, entry.get("columns", True), effects, coverage)
        if card.type.value != "equipment" and any(
            e.do is Action.EQUIP_ANYWHERE and e.target is Target.SELF and e.cards for e in effects
        ):
            raise where.fail(
                cid,
                "equip_anywhere names cards exactly when its target is play (a haven's rule) "
                "or it is on equipment (what its carrier may take on the field)",
                hint='target = "play", cards = ["vehicle"]; or self alone on a character',
            )
        why = unplayed(card.type.value, effects)
        if why and coverage is not Coverage.NONE:
            # Honest coverage: an entry the interpreter cannot play yet counts as not simulated.
            note = f"{why} (encoded as {coverage}: {note.strip() or 'exact'})"
            coverage = Coverage.NONE
        out[cid] = CardEffects(
            cid, coverage, note.strip(), effects, f"{path.name}:{lines.get(cid, 0)}", columns
        )
    return out


def _columns(
    where: _Where,
    cid: str,
    card: AnyCard,
    value: object,
    effects: tuple[Effect, ...],
    coverage: Coverage,
) -> bool:
    """``columns = false``: a card's printed modifiers act only through its effects. A global
    effect's text gates its bonus (a modify effect plays it); an equipment card's column may
    read a number of its text that is no bonus (Goz' Flying Machine's "two Locations" in the
    movement column), and its effects play that text instead; an enhancement's column may be
    a bonus its effects spend a use at a time (Speed's movement x2, 3 uses: LEAP). There must
    be modifiers to turn off and effects to play, unless the card is not played at all
    (coverage none: Robot Guard's columns are a guard's own stats, no bonus to its character)."""
    if not isinstance(value, bool):
        raise where.fail(cid, f"columns must be true or false, not {value!r}")
    if value:
        return True
    kind = card.type.value
    if kind not in ("global_effect", "equipment", "enhancement") or not getattr(
        card, "modifiers", ()
    ):
        raise where.fail(
            cid,
            "columns = false is for a global effect, equipment or enhancement with printed "
            "ability modifiers",
            hint="remove it: this card has no column bonus to turn off",
        )
    if kind in ("equipment", "enhancement") and not effects and coverage is not Coverage.NONE:
        raise where.fail(
            cid,
            "columns = false needs effects that play the card's text instead",
            hint="add the effects, or mark the card none and keep its columns",
        )
    if kind == "global_effect" and not any(e.do is Action.MODIFY for e in effects):
        raise where.fail(
            cid,
            "columns = false needs a modify effect that plays the bonus instead",
            hint='add { when = "round", do = "modify", ... } with the gated bonus',
        )
    return False


def read_effects(
    directory: Path,
    cards: Mapping[str, AnyCard],
    vocab: Vocabulary,
    parsed: Mapping[Path, tuple[str, dict[str, Any]]] | None = None,
) -> dict[str, CardEffects]:
    """Every ``*.toml`` in ``directory`` (none is fine); a card in two files is an error.
    ``parsed`` holds the text and data of files already read (the card database reads them
    once for its vocabulary too); the others are read here."""
    out: dict[str, CardEffects] = {}
    if not directory.is_dir():
        return out
    for path in sorted(directory.glob("*.toml")):
        known = parsed.get(path) if parsed is not None else None
        for cid, entry in read_effects_file(path, cards, vocab, known).items():
            if cid in out:
                raise CardDataError(
                    f"effects of {cid} appear twice (also in {out[cid].source})", path=path
                )
            out[cid] = entry
    return out


def _check_carry(
    where: _Where, cid: str, do: Action, when: Trigger, raw: Mapping[str, Any], kw: dict[str, Any]
) -> None:
    """Standing-only rules; a carrying limit counts seats, and only vehicles may ride besides."""
    standing_only: tuple[Action, ...] = (Action.STORE, Action.DOUBLE_SKILLS, Action.CARRY)
    standing_only += (Action.HIDE, Action.BOOST, Action.SAFEGUARD, Action.LEAP)
    standing_only += (Action.FORFEIT, Action.WEAR, Action.AMPLIFY)
    if do in standing_only and when is not Trigger.ALWAYS:
        raise where.fail(cid, f"{do} is a standing rule", hint='when = "always"')
    if do is not Action.CARRY:
        return
    if "n" not in raw or kw["n"] < 1:
        raise where.fail(
            cid, "carry needs n: the characters it carries (its holder included)", hint="n = 4"
        )
    if any(w.casefold() != "vehicle" for w in kw.get("cards", ())):
        raise where.fail(
            cid, "carry names only the vehicle it lets ride", hint='cards = ["vehicle"]'
        )


def _check_flash(
    where: _Where, cid: str, do: Action, when: Trigger, raw: Mapping[str, Any], kw: dict[str, Any]
) -> None:
    """The flash additions act as their card is played, and a multiplier of 1 changes nothing."""
    if do in FLASH_ONLY and when is not Trigger.PLAYED:
        raise where.fail(cid, f"{do} acts as a flash effect is played", hint='when = "played"')
    if do is Action.FRAIL and ("n" not in raw or kw["n"] == 1):
        raise where.fail(
            cid,
            "frail needs n: what the disaster's health loss is multiplied by",
            hint="n = 2 (double damage), or n = 0 (any loss defeats it)",
        )
    if "holder" in kw.get("pay", ()) and tuple(kw["pay"]) != ("holder",):
        raise where.fail(cid, "a life pays alone", hint='pay = ["holder"]')
    if do is Action.CHARGE and kw.get("n", 1) < 1:
        raise where.fail(cid, "charge needs n >= 1: how many times the energy", hint="n = 1")
