"""`deckkit cards list|show --game anima-tactics`: browse the Anima Tactics card database."""

from __future__ import annotations

import csv
import sys
from dataclasses import asdict
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.table import Table

from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.cards import Advantage, Character, Pilot
from deckkit.cli import options as opt
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.exits import DeckkitTyper, help_when_bare
from deckkit.cli.jsonout import emit
from deckkit.errors import DeckFileError
from deckkit.textsafe import cell_safe

AnyCard = Character | Advantage | Pilot


class Kind(StrEnum):
    CHARACTER = "character"
    ADVANTAGE = "advantage"
    PILOT = "pilot"


ListFormat = opt.ListFormat


def _kind(card: AnyCard) -> Kind:
    if isinstance(card, Character):
        return Kind.CHARACTER
    return Kind.ADVANTAGE if isinstance(card, Advantage) else Kind.PILOT


def card_dict(card: AnyCard) -> dict[str, Any]:
    d = asdict(card)
    d["type"] = _kind(card).value
    if isinstance(card, Character):
        d["faction"] = card.faction.value
        d["affiliations"] = list(card.affiliations)
        d["abilities"] = list(card.abilities)
        d["gear"] = card.is_gear
    return d


def _summary(card: AnyCard) -> tuple[str, str]:
    if isinstance(card, Character):
        if not card.complete:
            return "", "stats unknown in the source"
        stats = (
            f"At {card.attack} Dm {card.damage} Df {card.defense} Ar {card.armor} "
            f"LP {card.life} AP {card.actions_max}/"
            f"{card.recovery if card.recovery is not None else 'pilot'}"
        )
        return str(card.level_cost), f"{stats}  {card.faction.value} {'/'.join(card.affiliations)}"
    if isinstance(card, Advantage):
        cost = f"{card.advantage_points} AP" if card.advantage_points is not None else ""
        if card.level_cost:
            cost = f"{card.level_cost} lv " + cost
        return cost, f"{card.subtype} {card.restriction}".strip()
    return str(card.level_cost or ""), f"Gear pilot, recovery {card.recovery}"


cards_app = DeckkitTyper(
    help="Browse the Anima Tactics card database.", invoke_without_command=True
)


@cards_app.callback()
def cards_main(ctx: typer.Context) -> None:
    """Browse the Anima Tactics card database."""
    help_when_bare(ctx)


@cards_app.command("list")
def list_cards(
    kind: Annotated[
        Kind | None,
        typer.Option("--type", "-t", case_sensitive=False, help="Only cards of this type."),
    ] = None,
    fmt: opt.ListFormatOpt = None,
) -> None:
    """List Anima Tactics characters, advantage cards and Gear pilots with their ids."""
    db = load_card_db()
    cards: list[AnyCard] = [*db.characters, *db.advantages, *db.pilots]
    if kind is not None:
        cards = [c for c in cards if _kind(c) is kind]
    fmt = opt.list_format(fmt)
    if fmt is ListFormat.JSON:
        cards_doc = {"game": "anima-tactics", "cards": [card_dict(c) for c in cards]}
        emit(cards_doc, game="anima-tactics")
        return
    rows = [(c.id, c.name, _kind(c).value, *_summary(c)) for c in cards]
    if fmt in (ListFormat.CSV, ListFormat.TSV):
        writer = csv.writer(sys.stdout, delimiter="," if fmt is ListFormat.CSV else "\t")
        writer.writerow(("id", "name", "type", "cost", "summary"))
        writer.writerows([cell_safe(field) for field in row] for row in rows)
        return
    table = Table(title=f"{len(cards)} Anima Tactics cards")
    for col in ("id", "name", "type", "cost", "summary"):
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(*row)
    stdout_console(min_width=120).print(table)


def _find(wanted: str) -> AnyCard:
    db = load_card_db()
    card: AnyCard | None = db.character(wanted) or db.advantage(wanted) or db.pilot(wanted)
    if card is None:
        near = db.suggest(wanted)
        raise DeckFileError(
            f"no Anima Tactics card named {wanted!r}",
            hint=f"did you mean {' or '.join(repr(n) for n in near)}?" if near else None,
        )
    return card


def attack_table(attacker: Character, defender: Character) -> dict[str, Any]:
    """The exact odds of one attack of ``attacker`` on ``defender``, each way it can be made
    and met, with the expected number of such attacks to defeat the defender."""
    from deckkit.animatactics.engine.combat import (
        CHARGE_BONUS,
        COUNTER_PENALTY,
        Fighter,
        attack_odds,
        expected_attacks_to_defeat,
    )

    if not (attacker.complete and defender.complete):
        raise DeckFileError("the card data gives no stats for one of these characters")
    a = Fighter(attacker.attack, attacker.damage, attacker.defense, attacker.armor)
    b = Fighter(defender.attack, defender.damage, defender.defense, defender.armor)
    rows: dict[str, Any] = {}
    for label, mod in (
        ("attack", 0),
        ("charge", CHARGE_BONUS),
        ("counterattack's attack", COUNTER_PENALTY),
    ):
        for defends in (False, True):
            odds = attack_odds(a, b, defends=defends, mod=mod)
            n = expected_attacks_to_defeat(odds, defender.life)
            key = f"{label}, {'Dodge or Counterattack' if defends else 'no defence'}"
            rows[key] = {**odds.as_dict(), "expected_attacks_to_defeat": float(n) if n else None}
    return {"attacker": attacker.name, "defender": defender.name, "odds": rows}


@cards_app.command("show")
def show_card(
    name: list[str] = typer.Argument(..., help="Card name or id."),
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="NAME",
            help="Also the exact odds of one attack of this character on NAME.",
        ),
    ] = None,
    fmt: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """Show one Anima Tactics card; an unknown name exits 2 with the nearest names."""
    card = _find(" ".join(name))
    d = card_dict(card)
    if against is not None:
        other = _find(against)
        if not isinstance(card, Character) or not isinstance(other, Character):
            raise DeckFileError("--against needs two characters")
        d["against"] = attack_table(card, other)
    if fmt is opt.Format.JSON:
        emit(d, game="anima-tactics")
        return
    echo(f"{card.name}  ({card.id}, {d['type']})")
    for key, value in d.items():
        if key in ("name", "id", "type", "against") or value in ("", None, [], {}):
            continue
        echo(f"  {key:<16} {value}")
    if "against" in d:
        t = d["against"]
        echo(f"one attack of {t['attacker']} on {t['defender']} (exact):")
        for how, o in t["odds"].items():
            n = o["expected_attacks_to_defeat"]
            dist = ", ".join(f"{k}: {100 * p:.1f}%" for k, p in o["damage"].items())
            echo(
                f"  {how}: hit {100 * o['p_hit']:.1f}%, mean damage {o['expected_damage']:.2f}, "
                f"attacks to defeat {'never' if n is None else f'{n:.2f}'}; LP lost {dist}"
            )


@cards_app.command("coverage")
def coverage_cmd(
    fmt: opt.FormatOpt = opt.Format.TEXT,
    abilities: bool = typer.Option(
        False, "--cards", help="Also list every ability not played in full, with its note."
    ),
) -> None:
    """How much of each character's abilities the engine plays: full, approximate and none, by
    kind of ability and per character (derived from abilities.csv and what the engine plays)."""
    from deckkit.animatactics.analysis.coverage import report

    doc = report(with_abilities=True)
    if fmt is opt.Format.JSON:
        if not abilities:
            doc.pop("abilities")
        emit(doc, game="anima-tactics")
        return
    table = Table(title="Anima Tactics abilities played by the engine")
    for col in ("group", "abilities", "full", "approximate", "none", "covered", "target"):
        table.add_column(col, justify="left" if col == "group" else "right")
    for g in doc["groups"]:
        target = (
            ""
            if g["target"] is None
            else f"{g['target']:.0%} " + ("ok" if g["meets_target"] else "not met")
        )
        table.add_row(
            g["group"], str(g["abilities"]), str(g["full"]), str(g["approximate"]),
            str(g["none"]), f"{g['covered']:.1%}", target,
        )  # fmt: skip
    stdout_console(min_width=100).print(table)
    counts = {"full": 0, "approximate": 0, "none": 0}
    for c in doc["characters"]:
        counts[c["coverage"]] += 1
    echo(
        f"characters: {counts['full']} full, {counts['approximate']} approximate, "
        f"{counts['none']} none (full: every ability played in full)"
    )
    if abilities:
        for a in doc["abilities"]:
            if a["coverage"] != "full":
                echo(f"{a['coverage']:<11}  {a['character']}: {a['ability']} ({a['group']}): "
                     f"{a['note']}")  # fmt: skip
