"""`deckkit cards list|show`: browse the card database, so deck authors can find exact names.

Results go to stdout, errors to stderr; an unknown or ambiguous name is a usage error (exit 2,
see :mod:`deckkit.errors`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Annotated

import typer
from rich.table import Table

from deckkit.animayhem.construction.carddb import CardDB, load_card_db
from deckkit.animayhem.construction.cards import (
    ABILITIES,
    Abilities,
    AnyCard,
    CardType,
    CharacterCard,
    CombatCard,
    Coverage,
    DisasterCard,
    HavenCard,
    ItemCard,
    LocationCard,
    Modifier,
    PowerCard,
)
from deckkit.animayhem.construction.coverage import coverage_table
from deckkit.animayhem.construction.requirements import Requirement
from deckkit.cli import options as opt
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.exits import DeckkitTyper, help_when_bare
from deckkit.cli.jsonout import emit
from deckkit.errors import UsageError
from deckkit.textsafe import cell_safe, shown_inline

OutputFormat = opt.Format


ListFormat = opt.ListFormat


def _abilities(ab: Abilities | None) -> dict[str, int | None] | None:
    if ab is None:
        return None
    return {a: getattr(ab, a) for a in ABILITIES}


def _mod(mod: Modifier | None) -> str | None:
    return None if mod is None else str(mod)


def card_to_dict(card: AnyCard, db: CardDB) -> dict[str, object]:
    """A JSON-ready view of one card (the `cards list --format json` schema)."""
    out: dict[str, object] = {
        "id": card.id,
        "name": card.name,
        "type": card.type.value,
        "set": card.set,
        "rarity": card.rarity,
        "categories": list(card.categories),
        "symbols": sorted(card.symbols),
        "deck_limit": card.deck_limit,
        # One source with `cards coverage`: the effect entry, with what the engine derives.
        "coverage": card.coverage.value,
        "coverage_note": card.coverage_note or None,
    }
    if isinstance(card, CharacterCard):
        other = db.get(card.alternate_form).name if card.alternate_form else None
        out |= {
            "abilities": _abilities(card.abilities),
            "alt": _abilities(card.alt),
            "skills": [str(s) for s in card.skills],
            "gender": card.gender.value,
            "health": card.health,
            "alternate_form": other,
            "alternate_form_id": card.alternate_form,
        }
    elif isinstance(card, DisasterCard):
        out |= {
            "major": card.major,
            "combat": card.combat,
            "abilities": _abilities(card.abilities),
            "alt": _abilities(card.alt),
            "traits": sorted(t.value for t in card.traits),
            "moves_times": card.moves_times,
        }
    elif isinstance(card, LocationCard):
        out |= {
            "requirement": card.requirement_text or None,
            "damage": card.damage,
            "defense": card.defense,
        }
    elif isinstance(card, PowerCard):
        out |= {
            "modifiers": {a: str(m) for a, m in card.modifiers},
            "energy_cost": card.energy_cost,
            "uses": card.uses,
            "requirement": card.requirement_text or None,
            "vehicle": card.vehicle,
            "weapon": card.weapon,
        }
    elif isinstance(card, CombatCard):
        p, c = card.physical, card.charm
        out |= {
            "physical": {
                "name": p.name,
                "damage": _mod(p.damage),
                "defense": _mod(p.defense),
                "opp_damage": _mod(p.opp_damage),
                "opp_defense": _mod(p.opp_defense),
                "extra_draw": p.extra_draw,
            },
            "charm": {"name": c.name, "modifier": _mod(c.modifier), "target": c.target},
        }
    elif isinstance(card, ItemCard):
        out["tally"] = card.tally
    out["errata"] = card.errata or None
    out["source"] = card.source
    return out


def _stat_line(main: Abilities, alt: Abilities | None) -> str:
    parts = []
    for a in ABILITIES:
        v = getattr(main, a)
        text = "-" if v is None else str(v)
        if alt is not None and getattr(alt, a) is not None:
            text += f"/{getattr(alt, a)}"
        parts.append(text)
    return " ".join(parts)


def _stat_columns(main: Abilities, alt: Abilities | None) -> tuple[str, str]:
    """The abilities' names and, under each, its value (``2/3``: printed/alternate form),
    each column as wide as the longer of the two, so every value starts under its label."""
    values = _stat_line(main, alt).split(" ")
    widths = [max(len(a), len(v)) for a, v in zip(ABILITIES, values, strict=True)]
    labels = " ".join(a.ljust(w) for a, w in zip(ABILITIES, widths, strict=True))
    shown = " ".join(v.ljust(w) for v, w in zip(values, widths, strict=True))
    return labels.rstrip(), shown.rstrip()


def _summary(card: AnyCard) -> tuple[str, str]:
    """(stats, details) columns of the text table."""
    if isinstance(card, CharacterCard):
        return _stat_line(card.abilities, card.alt), ", ".join(str(s) for s in card.skills)
    if isinstance(card, DisasterCard):
        kind = ("major" if card.major else "minor") + (" combat" if card.combat else "")
        traits = ", ".join(sorted(t.value for t in card.traits))
        return _stat_line(card.abilities, card.alt), f"{kind}{'; ' + traits if traits else ''}"
    if isinstance(card, LocationCard):
        stats = " ".join(
            f"{k} {v}" for k, v in (("dmg", card.damage), ("def", card.defense)) if v is not None
        )
        return stats, card.requirement_text
    if isinstance(card, PowerCard):
        mods = " ".join(f"{a} {m}" for a, m in card.modifiers)
        cost = f"cost {card.energy_cost}" if card.energy_cost is not None else ""
        return " ".join(x for x in (mods, cost) if x), card.requirement_text
    if isinstance(card, CombatCard):
        p, c = card.physical, card.charm
        phys = " ".join(
            f"{label} {m}"
            for label, m in (
                ("dmg", p.damage),
                ("def", p.defense),
                ("opp dmg", p.opp_damage),
                ("opp def", p.opp_defense),
            )
            if m is not None
        )
        return phys, f"charm {c.modifier or '-'} ({c.target})"
    if isinstance(card, ItemCard) and card.tally != 1:
        return "", f"counts as {card.tally} items"
    return "", ""


LIST_COLUMNS = ("id", "name", "type", "set", "stats", "details", "coverage")


def _write_delimited(rows: Sequence[tuple[str, ...]], delimiter: str) -> None:
    """One labelled header line, then one line per card, for other tools (csv quotes as the
    csv module does, and a cell a spreadsheet would run as a formula is neutralised; tsv
    fields never hold a tab or newline, which are escaped)."""
    # Line by line, as every other command writes: a reader that stops early (`| head -1`)
    # closes the pipe while lines are still coming, and the command ends with exit 141.
    # Written at once, the whole list fits the pipe's buffer, and that went unnoticed (exit 0).
    for row in (LIST_COLUMNS, *rows):
        if delimiter == ",":
            out = io.StringIO()
            csv.writer(out, lineterminator="").writerow(
                row if row is LIST_COLUMNS else [cell_safe(field) for field in row]
            )
            echo(out.getvalue())
        else:
            echo("\t".join(shown_inline(field) for field in row))


def _resolve(db: CardDB, name: str) -> AnyCard:
    found = db.lookup(name)
    if len(found) == 1:
        return found[0]
    if found:
        listing = "; ".join(
            f"{c.name} #{int(c.id[2:])} ({c.id}, {c.type.value}, {c.rarity}"
            + (f", {_summary(c)[0]}" if _summary(c)[0] else "")
            + ")"
            for c in found
        )
        raise UsageError(
            f"{name!r} names {len(found)} cards: {listing}",
            hint=f"write it as '{found[0].name} #{int(found[0].id[2:])}' or use the id",
        )
    close = db.suggest(name)
    raise UsageError(
        f"no card named {name!r}",
        hint=f"did you mean: {', '.join(close)}?" if close else "see `deckkit cards list`",
    )


def _show_text(card: AnyCard, db: CardDB) -> None:
    """Plain lines (no padding), so the output greps and diffs well."""
    d = card_to_dict(card, db)
    echo(f"{card.name}  ({card.id}, {card.type.value}, {card.set}, {card.rarity})")
    rows: list[tuple[str, str]] = []
    if isinstance(card, (CharacterCard, DisasterCard)):
        labels, values = _stat_columns(card.abilities, card.alt)
        rows.append(("abilities", labels))
        rows.append(("", values))
    if isinstance(card, CharacterCard):
        rows.append(("skills", ", ".join(str(s) for s in card.skills)))
        rows.append(("gender", card.gender.value))
        if card.health is not None:
            rows.append(("health", str(card.health)))
        if card.alternate_form:
            other = db.get(card.alternate_form)
            rows.append(("other form", f"{other.name} ({other.id})"))
    elif isinstance(card, DisasterCard):
        rows.append(("disaster", str(_summary(card)[1])))
        if card.moves_times is not None:
            rows.append(("moves", f"{card.moves_times} time(s)"))
    else:
        stats, details = _summary(card)
        if stats:
            rows.append(("stats", stats))
        if details:
            rows.append(("details", details))
    req: Requirement | None = None
    if isinstance(card, (LocationCard, PowerCard)):
        req = card.requirement
    if req is not None and req.alternatives:
        rows.append(("reads as", str(req)))
    if isinstance(card, PowerCard) and card.uses is not None:
        rows.append(("uses", str(card.uses)))
    if isinstance(card, PowerCard) and (card.vehicle or card.weapon):
        rows.append(("equipment", " ".join(k for k in ("vehicle", "weapon") if d[k])))
    for label, key in (("categories", "categories"), ("symbols", "symbols")):
        value = d[key]
        if isinstance(value, list) and value:
            rows.append((label, ", ".join(str(v) for v in value)))
    if card.deck_limit is not None:
        rows.append(("deck limit", str(card.deck_limit)))
    if isinstance(card, HavenCard):
        rows.append(("haven", "a starting place, not a location"))
    if card.errata:
        rows.append(("errata", card.errata))
    note = f": {card.coverage_note}" if card.coverage_note else ""
    rows.append(("coverage", f"{card.coverage.value}{note}"))
    rows.append(("source", card.source))
    for label, value in rows:
        echo(f"  {label:<11} {value}".rstrip())


def register(app: typer.Typer) -> None:
    """Add the `cards` sub-app to the top-level command."""
    cards_app = DeckkitTyper(help="Browse the card database.", invoke_without_command=True)

    @cards_app.callback()
    def cards_main(ctx: typer.Context) -> None:
        """Browse the card database."""
        help_when_bare(ctx)

    @cards_app.command("list")
    def list_cards(
        card_type: Annotated[
            CardType | None,
            typer.Option("--type", "-t", case_sensitive=False, help="Only cards of this type."),
        ] = None,
        fmt: opt.ListFormatOpt = None,
    ) -> None:
        """List cards (all, or one type) with their ids."""
        db = load_card_db()
        cards = db.of_type(card_type) if card_type is not None else list(db.cards)
        fmt = opt.list_format(fmt)
        if fmt is ListFormat.JSON:
            emit({"cards": [card_to_dict(c, db) for c in cards]})
            return
        rows = [(c.id, c.name, c.type.value, c.set, *_summary(c), c.coverage.value) for c in cards]
        if fmt in (ListFormat.CSV, ListFormat.TSV):
            _write_delimited(rows, "," if fmt is ListFormat.CSV else "\t")
            return
        table = Table(title=f"{len(cards)} cards", show_lines=False)
        for col in LIST_COLUMNS:
            table.add_column(col, overflow="fold")
        for row in rows:
            table.add_row(*row)
        stdout_console(min_width=120).print(table)

    @cards_app.command("show")
    def show_card(
        name: list[str] = typer.Argument(..., help="Card name, combat half, id or 'Name #33'."),
        fmt: opt.FormatOpt = opt.Format.TEXT,
    ) -> None:
        """Show one card; an ambiguous or unknown name exits 2 with the candidates."""
        db = load_card_db()
        card = _resolve(db, " ".join(name))
        if fmt is OutputFormat.JSON:
            emit(card_to_dict(card, db))
            return
        _show_text(card, db)

    @cards_app.command("coverage")
    def coverage(
        fmt: opt.FormatOpt = opt.Format.TEXT,
        cards: bool = typer.Option(
            False, "--cards", help="Also list every card not played in full, with its note."
        ),
    ) -> None:
        """How much card text the engine plays: full, approximate and none, by card type."""
        db = load_card_db()
        rows = coverage_table(db)
        partial = [
            (c, c.coverage, c.coverage_note) for c in db.cards if c.coverage is not Coverage.FULL
        ]
        if fmt is OutputFormat.JSON:
            doc: dict[str, object] = {
                "groups": [
                    {
                        "group": r.group,
                        "cards": r.cards,
                        "full": r.full,
                        "approximate": r.approximate,
                        "none": r.none,
                        "covered": round(r.covered, 4),
                        "target": r.target,
                        "meets_target": r.meets_target,
                    }
                    for r in rows
                ],
            }
            if cards:
                doc["cards"] = [
                    {
                        "id": c.id,
                        "name": c.name,
                        "type": c.type.value,
                        "coverage": s.value,
                        "note": n,
                    }
                    for c, s, n in partial
                ]
            emit(doc)
            return
        table = Table(title="card text played by the engine")
        for col in ("group", "cards", "full", "approximate", "none", "covered", "target"):
            table.add_column(col, justify="left" if col == "group" else "right")
        for r in rows:
            target = (
                ""
                if r.target is None
                else f"{r.target:.0%} " + ("ok" if r.meets_target else "not met")
            )
            table.add_row(
                r.group, str(r.cards), str(r.full), str(r.approximate), str(r.none),
                f"{r.covered:.1%}", target,
            )  # fmt: skip
        stdout_console(min_width=100).print(table)
        if cards:
            for c, status, note in partial:
                echo(f"{c.id}  {status.value:<11}  {c.name}: {note}")

    app.add_typer(cards_app, name="cards")
