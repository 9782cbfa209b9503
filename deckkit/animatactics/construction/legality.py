"""Is a party legal? The rules of "Organizing your party" (anima-tactics-rulebook.txt,
PREPARING FOR THE GAME) and "ADVANTAGE CARDS", and under the ``later`` edition the separate
advantage-point budget the card data's costs follow. Each violation shows its arithmetic and a
fix, as Ani-Mayhem's do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from deckkit.animatactics.construction.cards import Faction
from deckkit.animatactics.construction.editions import Edition
from deckkit.animatactics.construction.party import Member, Party


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: ``message`` shows the arithmetic, ``fix`` says what to change."""

    rule: str
    message: str
    fix: str
    source: str


@dataclass(frozen=True, slots=True)
class LegalityReport:
    legal: bool
    edition: str
    levels: int
    counts: dict[str, int]
    budget: dict[str, int | None]
    violations: tuple[Violation, ...] = ()
    notes: tuple[str, ...] = ()
    # A legal party whose legality rests on costs the card data lacks: what must hold.
    condition: str | None = None

    @property
    def verdict(self) -> str:
        """``legal``, ``legal_if`` (legal when :attr:`condition` holds) or ``illegal``."""
        if not self.legal:
            return "illegal"
        return "legal_if" if self.condition else "legal"

    def as_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "verdict": self.verdict,
            "condition": self.condition,
            "edition": self.edition,
            "levels": self.levels,
            "counts": dict(self.counts),
            "budget": dict(self.budget),
            "violations": [
                {"rule": v.rule, "message": v.message, "fix": v.fix, "source": v.source}
                for v in self.violations
            ],
            "notes": list(self.notes),
        }


ORGANIZING = "rulebook, Organizing your party"
ADVANTAGES = "rulebook, ADVANTAGE CARDS"


def member_cost(m: Member) -> int:
    """A character's level cost plus its pilot's (a Gear's pilot adds its cost to the Gear)."""
    return (m.character.level_cost or 0) + (m.pilot.level_cost or 0 if m.pilot else 0)


def _sum_text(items: list[tuple[str, int]]) -> str:
    return " + ".join(f"{n} {c}" for n, c in items) if items else "nothing"


def check_party(party: Party, edition: Edition, levels: int) -> LegalityReport:
    v: list[Violation] = []
    notes: list[str] = []
    members = party.members
    names = [m.character.name for m in members]

    # The game's size is what the players agree: "Players can spend levels on Characters and
    # advantage cards up to the agreed-upon level total for the game" (Organizing your party).
    # The sizes the rulebook (or the later force table) suggests draw a note, never a violation.
    low, high = edition.levels_suggested_min, edition.levels_suggested_max
    if low is not None and levels < low:
        notes.append(
            f"a {levels}-level game is smaller than {edition.title} suggests (from {low} levels)"
            + (": no force size of the later rules fits it" if edition.points_budget else "")
        )
    if high is not None and levels > high:
        notes.append(
            f"a {levels}-level game is larger than {edition.title}'s largest force size "
            f"({high}); its budgets are those of {high}"
        )

    # Characters the source gives no stats or cost for cannot be fielded.
    for m in members:
        if not m.character.complete:
            v.append(
                Violation(
                    "unknown character",
                    f"{m.character.name} (line {m.line}) has no level cost or stats in the card "
                    f"data ({m.character.notes or 'incomplete row'})",
                    f"remove {m.character.name}",
                    "card_db/animatactics/cards.csv",
                )
            )
        if m.character.is_gear and m.pilot is None:
            v.append(
                Violation(
                    "gear without pilot",
                    f"{m.character.name} (line {m.line}) is a Gear: its recovery and part of its "
                    "cost come from its pilot",
                    f"write '{m.character.name} with PILOT' (see `deckkit cards list --game "
                    f"anima-tactics`)",
                    "card data: gear_pilot rows",
                )
            )
        if m.pilot is not None and not m.character.is_gear:
            v.append(
                Violation(
                    "pilot without gear",
                    f"{m.character.name} (line {m.line}) is not a Gear and takes no pilot",
                    f"write {m.character.name} alone",
                    "card data: gear_pilot rows",
                )
            )

    # Uniqueness: "you can't choose the same character twice".
    agent_cap = edition.agents_allowed(levels)
    for name, n in Counter(names).items():
        member = next(m for m in members if m.character.name == name)
        if n > 1 and not (member.character.agent and agent_cap is not None):
            v.append(
                Violation(
                    "unique characters",
                    f"{name} is in the party {n} times; every character is a unique individual",
                    f"keep one {name}",
                    ORGANIZING,
                )
            )
    if agent_cap is not None:
        agents = [m.character.name for m in members if m.character.agent]
        if len(agents) > agent_cap:
            v.append(
                Violation(
                    "agents",
                    f"{len(agents)} agents ({', '.join(agents)}) > {agent_cap} allowed in a "
                    f"{levels}-level game",
                    f"remove {len(agents) - agent_cap} agent(s)",
                    edition.source,
                )
            )

    # The later rules' Leader and Wanderer caps per force size (editions.toml, from the card
    # data's force entries).
    for what, allowed, capped in (
        ("leaders", edition.leaders_allowed(levels), [m for m in members if m.character.leader]),
        (
            "wanderers",
            edition.wanderers_allowed(levels),
            [m for m in members if "Wanderer" in m.character.affiliations],
        ),
    ):
        if allowed is not None and len(capped) > allowed:
            v.append(
                Violation(
                    what,
                    f"{len(capped)} {what} ({', '.join(m.character.name for m in capped)}) > "
                    f"{allowed} allowed in a {levels}-level game",
                    f"remove {len(capped) - allowed} of them, or play a larger game",
                    edition.source,
                )
            )

    # Light and Darkness: "it is not possible to combine miniatures from those factions in the
    # same party", unless "all your characters belong to the same organization".
    light = list(
        dict.fromkeys(m.character.name for m in members if m.character.faction is Faction.LIGHT)
    )
    dark = list(
        dict.fromkeys(m.character.name for m in members if m.character.faction is Faction.DARKNESS)
    )
    shared = (
        set.intersection(*(set(m.character.affiliations) for m in members)) if members else set()
    )
    shared.discard("Wanderer")  # not an organization: characters "without a fixed affiliation"
    if light and dark and not shared:
        fewer = light if len(light) <= len(dark) else dark
        v.append(
            Violation(
                "Light and Darkness",
                f"Light ({', '.join(light)}) with Darkness ({', '.join(dark)}), and the "
                "characters share no organization",
                f"remove {', '.join(fewer)}, or field characters of one organization only",
                ORGANIZING,
            )
        )
    elif light and dark:
        notes.append(f"Light with Darkness allowed: every character belongs to {sorted(shared)[0]}")
    for m in members:
        if m.character.complete and m.character.faction is Faction.UNKNOWN:
            notes.append(f"{m.character.name}: the card data gives no faction (counted neutral)")

    # Advantage cards: "never be greater than the total number of your starting characters".
    picks = party.advantages
    if len(picks) > len(members):
        v.append(
            Violation(
                "advantage cards",
                f"{len(picks)} advantage cards > {len(members)} characters",
                f"remove {len(picks) - len(members)} advantage card(s)",
                ORGANIZING,
            )
        )
    bearers = Counter(p.bearer.casefold() for p in picks if p.bearer)
    shown_name = {p.bearer.casefold(): p.bearer for p in picks if p.bearer}
    shown_name.update({x.casefold(): x for x in names})
    for key, n in bearers.items():
        bearer = shown_name[key]
        if key not in {x.casefold() for x in names}:
            v.append(
                Violation(
                    "advantage bearer",
                    f"an advantage card is placed on {bearer!r}, who is not in the party",
                    "place it on a character of the party",
                    ADVANTAGES,
                )
            )
        elif n > 1:
            v.append(
                Violation(
                    "one card per character",
                    f"{n} Equipment/Power cards on {bearer}; at most one per character",
                    f"move or remove {n - 1} of them",
                    ADVANTAGES,
                )
            )
    for name, n in Counter(p.advantage.name for p in picks).items():
        pick = next(p for p in picks if p.advantage.name == name)
        if n > 1 and pick.advantage.per_party_once:
            v.append(
                Violation(
                    "one copy",
                    f"{name} is in the party {n} times; the card data allows one per party",
                    f"keep one {name}",
                    "card data: limit",
                )
            )
    for p in picks:
        r = p.advantage.restriction
        if r.endswith("organization parties"):
            org = r.split()[0]
            outsiders = [m.character.name for m in members if org not in m.character.affiliations]
            if outsiders:
                v.append(
                    Violation(
                        "organization advantage",
                        f"{p.advantage.name} (line {p.line}) is for {org} parties; "
                        f"{', '.join(outsiders)} not {org}",
                        f"field only {org} characters or remove {p.advantage.name}",
                        "card data: restriction",
                    )
                )
        elif r.endswith(" Only"):
            who = r[: -len(" Only")]
            if who.casefold() not in {n.casefold() for n in names}:
                v.append(
                    Violation(
                        "character advantage",
                        f"{p.advantage.name} (line {p.line}) is for {who} only, not in the party",
                        f"add {who} or remove {p.advantage.name}",
                        "card data: restriction",
                    )
                )

    # The budgets.
    character_costs = [(m.character.name, member_cost(m)) for m in members]
    level_items = list(character_costs)
    points_items: list[tuple[str, int]] = []
    unknown: list[str] = []
    for p in picks:
        a = p.advantage
        if edition.points_budget:
            if a.level_cost:
                level_items.append((a.name, a.level_cost))
            if a.advantage_points is not None:
                points_items.append((a.name, a.advantage_points))
            elif not a.level_cost:
                unknown.append(a.name)
        elif a.level_cost is not None:
            level_items.append((a.name, a.level_cost))
        else:
            unknown.append(a.name)
    spent = sum(c for _, c in level_items) + party.converted_levels
    condition: str | None = None
    if unknown:
        notes.append(
            f"no {'level' if not edition.points_budget else 'advantage-point'} cost in the card "
            f"data for {', '.join(unknown)}: counted as 0 (the data follows the later rules; "
            "check with --edition later)"
        )
        if not edition.points_budget:
            # "Add each chosen Advantage card's level cost to your force, just as you would a
            # Character" (Organizing your party): an unknown cost leaves the budget open, so the
            # verdict states the bound instead of a plain LEGAL.
            left = max(levels - spent, 0)
            cards = " and ".join(unknown) if len(unknown) <= 2 else ", ".join(unknown)
            cost = "cost" if len(unknown) > 1 else "costs"
            condition = (
                f"{cards} {cost} no levels (the characters spend all {levels})"
                if left == 0
                else f"{cards} {cost} at most {left} level{'s' if left > 1 else ''}"
                + (" together" if len(unknown) > 1 else "")
            )
    if party.converted_levels:
        level_items.append(("converted to advantage points", party.converted_levels))
    if spent > levels:
        over = spent - levels
        dearest = max(character_costs, key=lambda x: x[1], default=("", 0))
        v.append(
            Violation(
                "level budget",
                f"{_sum_text(level_items)} = {spent} levels > {levels} (over by {over})",
                # The party file's header, which every command reads (not all take --levels).
                f"remove {over} levels (e.g. {dearest[0]}, {dearest[1]}) or play a "
                f"{spent}-level game (`levels: {spent}` in the party file's header, or "
                f"--levels {spent} on validate, simulate, report, tune and build)",
                ORGANIZING,
            )
        )
    points_budget: int | None = None
    points = sum(c for _, c in points_items)
    if edition.points_budget:
        step = edition.advantage_points_for(levels)
        points_budget = (step[1] if step else 0) + party.converted_levels
        if points > points_budget:
            v.append(
                Violation(
                    "advantage-point budget",
                    f"{_sum_text(points_items)} = {points} advantage points > {points_budget} "
                    f"({step[1] if step else 0} for a {step[0] if step else levels}-level force"
                    + (
                        f" + {party.converted_levels} converted levels"
                        if party.converted_levels
                        else ""
                    )
                    + ")",
                    f"remove {points - points_budget} advantage points of cards, or convert "
                    f"unspent levels 1:1 ('converted-levels: N' in the header; "
                    f"{max(levels - spent, 0)} unspent)",
                    edition.source,
                )
            )
    counts = {
        "characters": len(members),
        "advantage_cards": len(picks),
        "levels_spent": spent,
        "advantage_points_spent": points,
    }
    budget = {"levels": levels, "advantage_points": points_budget, "advantage_cards": len(members)}
    return LegalityReport(
        legal=not v,
        edition=edition.name,
        levels=levels,
        counts=counts,
        budget=budget,
        violations=tuple(v),
        notes=tuple(notes),
        condition=condition if not v else None,
    )
