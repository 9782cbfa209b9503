"""Ani-Mayhem's terms for the tools that tally, summarize and save its runs card by card
(:class:`deckkit.core.game.CardRuns`, reached through :func:`deckkit.games.card_runs`): which
counters each card type reports, the order of the types in a report, the end reasons' codes,
the card database's files and the names a saved run's settings may take."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from deckkit.animayhem.construction.cards import CardType
from deckkit.animayhem.construction.deck import MAX_DECK_BYTES, Deck
from deckkit.animayhem.engine.record import CardStat
from deckkit.core.game import CardInfo
from deckkit.textsafe import clipped, shown_inline

# The counters each card type reports (zero-filled, so a disaster never met still shows up).
STATS_BY_TYPE: dict[CardType, tuple[CardStat, ...]] = {
    CardType.DISASTER: (
        CardStat.MET,
        CardStat.DEFEATED,
        CardStat.ITEMS_CARRIED_OFF,
        CardStat.BONKED,
        CardStat.KILLED,
    ),
    CardType.CHARACTER: (
        CardStat.COMBATS,
        CardStat.WAS_BONKED,
        CardStat.WAS_KILLED,
        CardStat.ITEMS_RETRIEVED,
    ),
    CardType.LOCATION: (CardStat.SCAVENGE_ATTEMPTS, CardStat.SCAVENGE_SUCCESSES),
}
# Order of card types in reports: the ones with counters first, as the rulebook lists them.
TYPE_ORDER: tuple[CardType, ...] = (CardType.CHARACTER, CardType.LOCATION, CardType.DISASTER)
# What "the card took part" means per card type in a report's observational view, and the
# words for it; "" is every other type (a card whose encoded text acted).
TOOK_PART: dict[str, tuple[str, str]] = {
    CardType.CHARACTER.value: (CardStat.COMBATS.value, "fought"),
    CardType.LOCATION.value: (CardStat.SCAVENGE_ATTEMPTS.value, "was scavenged"),
    CardType.DISASTER.value: (CardStat.MET.value, "was met"),
    "": (CardStat.EFFECTS.value, "its text acted"),
}
# The disaster counters that say how a deck loses, in the order "what beats it" ranks them;
# their sum per game is a disaster's "setbacks".
HARM_COUNTERS: tuple[str, ...] = (
    CardStat.ITEMS_CARRIED_OFF.value,
    CardStat.BONKED.value,
    CardStat.KILLED.value,
)


def card_info(card_id: str, name: str, kind: CardType) -> CardInfo:
    """What a report shows of one card: its type's counters and its type's place."""
    rank = TYPE_ORDER.index(kind) if kind in TYPE_ORDER else len(TYPE_ORDER)
    return CardInfo(card_id, name, str(kind), tuple(STATS_BY_TYPE.get(kind, ())), rank)


def card_catalog(deck: Deck) -> dict[str, CardInfo]:
    """Card id -> name, type and counters for every card in the deck (counters are keyed by
    id)."""
    out: dict[str, CardInfo] = {}
    for entry in deck.entries:
        card = entry.card
        if card.id not in out:
            out[card.id] = card_info(card.id, card.name, card.type)
    return out


def not_simulated(deck: Deck) -> list[dict[str, str]]:
    """The deck's cards whose text is not played in full, by id, with name, coverage and note."""
    seen: dict[str, dict[str, str]] = {}
    for card in deck.cards():
        if card.coverage.value != "full" and card.id not in seen:
            seen[card.id] = {
                "id": card.id,
                "name": card.name,
                "coverage": card.coverage.value,
                "note": card.coverage_note,
            }
    return sorted(seen.values(), key=lambda c: c["name"].casefold())


def card_db_files(path: Path | None = None) -> list[Path]:
    """The card database's cards.csv and its effect files, in a fixed order."""
    from deckkit.animayhem.construction.carddb import card_db_csv
    from deckkit.animayhem.construction.effectdb import EFFECTS_DIR

    csv_path = card_db_csv(path)
    effects = csv_path.parent / EFFECTS_DIR
    return [csv_path, *(sorted(effects.glob("*.toml")) if effects.is_dir() else [])]


def unknown_setting(raw: Mapping[str, Any]) -> str | None:
    """A policy, layout, edition or variant this deckkit does not know (a file from a newer
    version, or edited by hand): said here, naming the setting, rather than by the engine."""
    from deckkit.animayhem.construction.editions import EDITIONS, VARIANTS
    from deckkit.animayhem.engine.field import LAYOUTS
    from deckkit.animayhem.engine.players import PLAYERS, is_player

    known: list[tuple[str, bool, tuple[str, ...]]] = [
        ("policy", is_player(raw["policy"]), (*PLAYERS, "search:N")),
        ("layout", raw["layout"] in LAYOUTS, LAYOUTS),
        ("edition", raw["edition"] in EDITIONS, EDITIONS),
        ("variant", raw["variant"] in VARIANTS, VARIANTS),
    ]
    for name, ok, choices in known:
        if not ok:
            value = shown_inline(clipped(raw[name], 60))
            return f"unknown {name} {value!r}; deckkit knows {', '.join(choices)}"
    return None


def replay_command(settings: Mapping[str, Any], game: int, *, legal: bool) -> str:
    """The ``deckkit play`` command that replays game ``game`` of a saved run (its settings:
    deck_path, seed, policy, edition, variant, layout, turn_cap, rules), naming only what
    differs from the command's defaults."""
    import shlex

    from deckkit.animayhem.construction.editions import DEFAULT_VARIANT, load_edition
    from deckkit.animayhem.construction.readings import effective
    from deckkit.animayhem.engine.play import DEFAULT_TURN_CAP

    parts = ["deckkit", "play", shlex.quote(settings["deck_path"]), "--seed", str(settings["seed"])]
    parts += ["--game", str(game)]
    if settings["policy"] != "heuristic":
        parts += ["--policy", settings["policy"]]
    parts += ["--edition", settings["edition"]]
    if settings["variant"] != DEFAULT_VARIANT:
        parts += ["--variant", settings["variant"]]
    default_layout = "straight-line" if settings["variant"] == "straight-line" else "compact"
    if settings["layout"] != default_layout:
        parts += ["--layout", settings["layout"]]
    if settings["turn_cap"] != DEFAULT_TURN_CAP:
        parts += ["--turn-cap", str(settings["turn_cap"])]
    defaults = effective(load_edition(settings["edition"]))
    rules: Mapping[str, str] = settings.get("rules") or {}
    for name in sorted(rules):  # the readings the run changed from its edition's own
        if defaults.get(name) != rules[name]:
            parts += ["--rule", shlex.quote(f"{name}={rules[name]}")]
    if not legal:
        parts.append("--allow-illegal")
    return " ".join(parts)


class AniMayhemCardRuns:
    """:class:`deckkit.core.game.CardRuns` for Ani-Mayhem (the module's functions)."""

    counters: frozenset[str] = frozenset(s.value for s in CardStat)
    max_file_bytes: int = MAX_DECK_BYTES
    took_part: Mapping[str, tuple[str, str]] = TOOK_PART
    harm_counters: tuple[str, ...] = HARM_COUNTERS

    def card_catalog(self, entry: Deck) -> dict[str, CardInfo]:
        return card_catalog(entry)

    def end_reason_code(self, reason: str) -> str:
        from deckkit.animayhem.engine.endgame import end_reason_code

        return end_reason_code(reason)

    def not_simulated(self, entry: Deck) -> list[dict[str, str]]:
        return not_simulated(entry)

    def player_gap(
        self, policy: str, players: int, win_rate: float | None, deck_path: str | None = None
    ) -> dict[str, Any] | None:
        from deckkit.animayhem.player_gap import player_gap

        return player_gap(policy, players, win_rate, deck_path)

    def card_db_files(self, path: Path | None = None) -> list[Path]:
        return card_db_files(path)

    def unknown_setting(self, settings: Mapping[str, Any]) -> str | None:
        return unknown_setting(settings)

    def replay_command(self, settings: Mapping[str, Any], game: int, *, legal: bool) -> str:
        return replay_command(settings, game, legal=legal)


CARD_RUNS = AniMayhemCardRuns()
