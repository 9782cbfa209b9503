"""Is this Animus team legal, and was its draft played by the rules?

Team: 9 distinct characters ("Setup", Draft Characters: "a team of 9 character cards"; "Each
card in the game is a unique character"), an Entity card if one is named. Draft, when the team
file records it: the pyramid's 18 cards, and the picks in order, each face up with nothing on
top, taken in the order 1, 2, then alternating single picks (animus-rules-v3.5.txt, "Setup").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from deckkit.animus.construction.cards import Card, Kind
from deckkit.animus.construction.pyramid import Pyramid, Shape, picker_order
from deckkit.animus.construction.rules import rule_numbers
from deckkit.animus.construction.team import Team


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    message: str
    fix: str
    cite: str

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.message, "fix": self.fix, "cite": self.cite}


@dataclass(slots=True)
class TeamReport:
    team: str
    legal: bool = True
    violations: list[Violation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    draft_checked: bool = False

    def add(self, rule: str, message: str, fix: str, cite: str) -> None:
        self.legal = False
        self.violations.append(Violation(rule, message, fix, cite))

    def as_dict(self) -> dict[str, object]:
        return {
            "game": "animus",
            "team": self.team,
            "legal": self.legal,
            "violations": [v.as_dict() for v in self.violations],
            "warnings": list(self.warnings),
            "counts": dict(self.counts),
            "draft_checked": self.draft_checked,
        }


SETUP = "animus-rules-v3.5.txt, Setup (Draft Characters)"
OBJECTIVE = "animus-rules-v3.5.txt, Game Objective; Winning The Game"


def check_team(team: Team) -> TeamReport:
    """Every construction rule at once, and the draft when the file records one."""
    numbers = rule_numbers()
    report = TeamReport(team.name)
    if team.draft_policy is not None:
        available = len(team.card_set.characters)
        report.counts = {
            "characters in the card set": available,
            "drafted from": numbers.pyramid_size,
        }
        if available < numbers.pyramid_size:
            report.add(
                "draft seat",
                f"the card set holds {available} characters; "
                f"a draft lays out {numbers.pyramid_size}",
                "use a card file with at least 18 characters",
                SETUP,
            )
        return report
    characters = [c for c in team.cards if c.kind is Kind.CHARACTER]
    report.counts = {
        "cards": len(team.cards),
        "required": numbers.team_size,
        "levels": sum(c.level for c in characters),
        **{
            f"type {t}": sum(1 for c in characters if c.type == t)
            for t in team.card_set.types.types
        },
    }
    for card in team.cards:
        if card.kind is Kind.ENTITY:
            report.add(
                "characters only",
                f"{card.name} is an Entity: the team is drafted from character cards",
                "name the Entity with 'entity:' instead",
                SETUP,
            )
    if len(team.cards) != numbers.team_size:
        report.add(
            "team size",
            f"{len(team.cards)} cards; a team is {numbers.team_size}",
            f"list exactly {numbers.team_size} characters under [team]",
            SETUP,
        )
    for name, n in Counter(c.name for c in team.cards).items():
        if n > 1:
            report.add(
                "unique cards",
                f"{name} appears {n} times",
                "each character is a single card: keep one",
                "animus-rules-v3.5.txt, Character Cards (D: each card is a unique character)",
            )
    if report.counts["levels"] < numbers.levels_to_win:
        report.warnings.append(
            f"the team's levels add up to {report.counts['levels']}, below "
            f"{numbers.levels_to_win}: even with every card eliminated it never loses on levels "
            f"({OBJECTIVE})"
        )
    if team.pyramid or team.picks:
        check_draft(team, report)
    return report


def check_draft(team: Team, report: TeamReport) -> None:
    """Replay the recorded draft on the pyramid, pick by pick."""
    numbers = rule_numbers()
    report.draft_checked = True
    fix = "record the pyramid (back row first) and every pick in the order it was made"
    if len(team.pyramid) != numbers.pyramid_size or len(set(team.pyramid)) != len(team.pyramid):
        report.add(
            "pyramid",
            f"the pyramid lists {len(team.pyramid)} cards ({len(set(team.pyramid))} distinct); "
            f"the draft lays out {numbers.pyramid_size} different cards",
            fix,
            SETUP,
        )
        return
    if any(c.kind is not Kind.CHARACTER for c in team.pyramid):
        report.add("pyramid", "the pyramid holds an Entity", "draft characters only", SETUP)
        return
    if team.drafted is None:
        report.add(
            "drafted",
            "the file does not say whether this team drafted first or second",
            "add 'drafted: first' or 'drafted: second'",
            SETUP,
        )
        return
    layout = numbers.layouts[team.options.pyramid]
    pyramid = Pyramid(Shape.of(layout), [c.name for c in team.pyramid])
    order = picker_order(numbers.opening_picks, numbers.pyramid_size)
    slot_of = {c.name: i for i, c in enumerate(team.pyramid)}
    mine: list[Card] = []
    for i, card in enumerate(team.picks):
        slot = slot_of.get(card.name)
        who = "this team" if order[i] == team.drafted else "the opponent"
        if slot is None:
            report.add("pick", f"pick {i + 1} ({card.name}) is not in the pyramid", fix, SETUP)
            return
        if slot not in pyramid.available():
            why = "already taken" if pyramid.taken[slot] else "covered by another card"
            report.add(
                "pick",
                f"pick {i + 1} by {who}, {card.name}, was {why}",
                "only a face-up card with nothing on top may be taken",
                SETUP,
            )
            return
        pyramid.take(slot)
        if order[i] == team.drafted:
            mine.append(card)
    if len(team.picks) != numbers.pyramid_size:
        report.add(
            "picks",
            f"{len(team.picks)} picks recorded; the draft goes on until all "
            f"{numbers.pyramid_size} cards are taken",
            fix,
            SETUP,
        )
        return
    if sorted(c.name for c in mine) != sorted(c.name for c in team.cards):
        report.add(
            "drafted team",
            "the [team] list is not the cards this team picked in the draft",
            "list under [team] the 9 cards of this team's picks",
            SETUP,
        )
