"""The numbers of a report, as one JSON-ready document (the sidecar) that the page is drawn from.

Everything here derives from a run's summary, its per-game rows and its metadata, never from
the clock except ``generated``; so the same saved run always gives the same numbers, whether it
was just played or read back with ``deckkit report --from``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from deckkit.analysis.results import RunMetadata, counter_columns
from deckkit.analysis.summary import CI_METHOD_LABEL, Rate, Summary, proportion, rate_json
from deckkit.games import card_runs

if TYPE_CHECKING:  # polars is imported by the functions that use it
    import polars as pl

REPORT_VERSION = 1
# The per-card view needs this many games both with and without the card before it shows a
# difference: with fewer, a win rate of "100.0% in 1" says nothing.
MIN_GAMES = 30
CONVERGENCE_POINTS = 60  # points on the convergence chart, spaced geometrically
TOP = 3  # how many threats and cards the headline names

# What "the card took part" means per card type, and how a deck loses, are the game's
# (deckkit.core.game.CardRuns: took_part, harm_counters).


def active_counters() -> frozenset[str]:
    """The counters whose "was it non-zero" a report's observational view reads."""
    return frozenset(counter for counter, _ in card_runs().took_part.values())


class Verdict(Protocol):
    """The construction rules' verdict on the deck, as the report shows it."""

    @property
    def legal(self) -> bool: ...

    def as_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ReportInput:
    """What a report is made of: a run (maybe none, for an illegal deck not simulated)."""

    metadata: RunMetadata
    legality: Verdict
    not_simulated: list[dict[str, str]]  # id, name, coverage, note
    summary: Summary | None
    rows: pl.DataFrame | None
    impact: dict[str, Any] | None = None
    generated: datetime | None = None
    sensitivity: dict[str, Any] | None = None  # `deckkit sensitivity`'s document
    typical_traces: dict[str, str] | None = None  # outcome -> the game's trace, as text
    deck_stats: dict[str, Any] | None = None  # see deckkit.animayhem.deckstats


def _rate(rate: Rate) -> dict[str, Any]:
    return rate_json(rate)


def _histogram(column: pl.Series) -> list[list[int]]:
    """[value, games] for every value seen, ascending."""

    counts = column.value_counts().sort(column.name)
    return [[int(v), int(n)] for v, n in counts.iter_rows()]


def _survival(rows: pl.DataFrame) -> list[list[float]]:
    """[turn, share of all games won by then, share lost by then] at each turn where a game
    ended: the cumulative share decided by turn t, for wins and for losses."""
    import polars as pl

    n = rows.height
    if n == 0:
        return []
    by_turn = (
        rows.group_by("turns")
        .agg(
            (pl.col("outcome") == "win").sum().alias("won"),
            (pl.col("outcome") == "loss").sum().alias("lost"),
        )
        .sort("turns")
    )
    won = by_turn["won"].cum_sum()
    lost = by_turn["lost"].cum_sum()
    return [
        [int(t), int(w) / n, int(lo) / n]
        for t, w, lo in zip(by_turn["turns"], won, lost, strict=True)
    ]


def _what_beats_it(summary: Summary) -> list[dict[str, Any]]:
    """The deck's disasters ranked by the setbacks they dealt per game (items carried off +
    characters bonked + characters killed)."""
    harm_counters = card_runs().harm_counters
    out: list[dict[str, Any]] = []
    for card in summary.cards:
        if card.type != "disaster":
            continue
        harm = {s: card.per_game.get(s) or 0.0 for s in harm_counters}
        out.append(
            {
                "card": card.key,
                "id": card.id,
                **harm,
                "met": card.per_game.get("met") or 0.0,
                "defeated": card.per_game.get("defeated") or 0.0,
            }
        )
    out.sort(key=lambda d: (-sum(d[s] for s in harm_counters), d["card"].casefold()))
    return out


def observational(rows: pl.DataFrame, summary: Summary) -> list[dict[str, Any]]:
    """17lands-style view: win rate in games where the card took part vs games where it did not.
    Correlational only: a card takes part in longer games, and in games going well or badly."""
    import polars as pl

    if rows.height == 0:
        return []
    columns = {key: name for name, key in counter_columns(rows).items()}
    took_part = card_runs().took_part
    wins = rows["outcome"] == "win"
    out: list[dict[str, Any]] = []
    for card in summary.cards:
        stat, when = took_part.get(card.type or "", took_part[""])
        name = columns.get((card.id, stat))
        active = rows[name] != 0 if name is not None else pl.Series([False] * rows.height)
        n_active = int(active.sum())
        n_idle = rows.height - n_active
        won_active = int((wins & active).sum())
        won_idle = int(wins.sum()) - won_active
        with_card = proportion(won_active, n_active)
        without = proportion(won_idle, n_idle)
        diff = (
            with_card.rate - without.rate
            if with_card.rate is not None and without.rate is not None
            else None
        )
        supported = min(n_active, n_idle) >= MIN_GAMES
        out.append(
            {
                "card": card.key,
                "id": card.id,
                "type": card.type,
                "when": when,
                "games_active": n_active,
                "win_rate_active": with_card.rate,
                "win_rate_active_ci": list(with_card.ci) if with_card.ci else None,
                "games_idle": n_idle,
                "win_rate_idle": without.rate,
                "win_rate_idle_ci": list(without.ci) if without.ci else None,
                "difference": diff,
                "difference_ci": difference_interval(with_card, without) if supported else None,
                "supported": supported,
                # The two rates in the shape every deckkit document gives a rate.
                "active": rate_json(with_card),
                "idle": rate_json(without),
            }
        )
    return out


def difference_interval(a: Rate, b: Rate) -> list[float] | None:
    """95% interval of the difference of two independent proportions, ``a - b``: Newcombe's
    hybrid score interval (method 10 of Newcombe 1998), built from each rate's Wilson
    interval, so it stays inside [-1, 1] and behaves at rates near 0 and 1."""
    if a.rate is None or b.rate is None or a.ci is None or b.ci is None:
        return None
    d = a.rate - b.rate
    (l1, u1), (l2, u2) = a.ci, b.ci
    low = d - ((a.rate - l1) ** 2 + (u2 - b.rate) ** 2) ** 0.5
    high = d + ((u1 - a.rate) ** 2 + (b.rate - l2) ** 2) ** 0.5
    return [max(-1.0, low), min(1.0, high)]


def _turns_by_outcome(rows: pl.DataFrame) -> list[list[Any]]:
    """[turns, outcome, games] for every (turns, outcome) seen."""
    counts = rows.group_by("turns", "outcome").len().sort("turns", "outcome")
    return [[int(t), str(o), int(n)] for t, o, n in counts.iter_rows()]


def convergence(rows: pl.DataFrame, points: int = CONVERGENCE_POINTS) -> list[list[float]]:
    """[games, win rate, low, high] after the first n games (in game order) for n spaced
    geometrically up to all of them: the estimate and its interval as the games accumulate."""
    n = rows.height
    if n == 0:
        return []
    wins = (rows.sort("index")["outcome"] == "win").cast(int).cum_sum().to_list()
    marks = sorted({min(n, max(1, round(n ** (i / (points - 1))))) for i in range(points)})
    out: list[list[float]] = []
    for m in marks:
        rate = proportion(int(wins[m - 1]), m)
        assert rate.rate is not None and rate.ci is not None
        out.append([m, rate.rate, rate.ci[0], rate.ci[1]])
    return out


def typical_games(rows: pl.DataFrame) -> dict[str, dict[str, Any]]:
    """For a win and for a loss: the game whose length is the median of its outcome's (the
    lowest game index among equals), to replay with `deckkit play --game I`."""
    out: dict[str, dict[str, Any]] = {}
    for outcome in ("win", "loss"):
        games = rows.filter(rows["outcome"] == outcome).sort("index")
        if games.height == 0:
            continue
        turns = sorted(games["turns"].to_list())
        median = turns[(len(turns) - 1) // 2]
        pick = games.filter(games["turns"] == median).row(0, named=True)
        out[outcome] = {
            "game": int(pick["index"]),
            "turns": int(pick["turns"]),
            "end_reason": str(pick.get("end_reason", "")),
            "games_like_it": games.height,
        }
    return out


def play_command(meta: RunMetadata, game: int, *, legal: bool) -> str:
    """The command that replays game ``game`` of this run (the game's ``deckkit play``)."""
    return card_runs().replay_command(meta.as_dict(), game, legal=legal)


def _mean_turns_to_win(rows: pl.DataFrame | None) -> float | None:
    if rows is None:
        return None
    won = rows.filter(rows["outcome"] == "win")["turns"]
    return float(won.mean()) if won.len() else None  # type: ignore[arg-type]


def _loss_reason(rows: pl.DataFrame | None) -> dict[str, Any] | None:
    """The commonest way the deck loses, with its share of the losses."""
    if rows is None or "end_reason" not in rows.columns:
        return None
    lost = rows.filter(rows["outcome"] == "loss")
    if lost.height == 0:
        return None
    counts = lost.group_by("end_reason").len().sort(["len", "end_reason"], descending=[True, False])
    reason, n = counts.row(0)
    return {"reason": str(reason), "games": int(n), "share": int(n) / lost.height}


def _cards_that_matter(
    impact: dict[str, Any] | None, observed: list[dict[str, Any]]
) -> dict[str, Any]:
    """The headline's cards: by measured impact when there is one (cards whose value is
    supported: interval excluding zero and, against stand-ins, every stand-in agreeing in sign;
    largest change first), else by the correlational view (supported rows whose interval
    excludes zero). Says how many cards were measured, of how many, against which level."""

    def clear(ci: list[float] | None) -> bool:
        return bool(ci) and (ci[0] > 0 or ci[1] < 0)  # type: ignore[index]

    if impact and impact.get("cards"):
        cards = [
            {
                "card": c["card"],
                "difference": c["difference"],
                "ci": c["ci"],
                "spread": c.get("spread"),
            }
            for c in impact["cards"]
            if c.get("difference") is not None and c.get("supported", clear(c.get("ci")))
        ]
        cards.sort(key=lambda c: (-abs(c["difference"]), c["card"].casefold()))
        return {
            "source": "impact",
            "cards": cards[:TOP],
            "measured": len(impact["cards"]),
            "in_deck": impact.get("cards_in_deck"),
            "replacement_level": impact.get("replacement_level"),
            "stand_ins": impact.get("stand_ins_per_card"),
        }
    cards = [
        {"card": o["card"], "difference": o["difference"], "ci": o["difference_ci"]}
        for o in observed
        if o.get("supported") and clear(o.get("difference_ci"))
    ]
    cards.sort(key=lambda c: (-abs(c["difference"]), c["card"].casefold()))
    return {"source": "observational", "cards": cards[:TOP], "measured": len(observed)}


def headline(doc: dict[str, Any], rows: pl.DataFrame | None) -> dict[str, Any]:
    """What the page says first: the win rate with its interval, the games, how long a win
    takes, the top threats and the cards that matter most."""
    approximate = {c.get("name") for c in doc.get("not_simulated", [])}
    harm_counters = card_runs().harm_counters
    threats = [
        {
            "card": d["card"],
            "setbacks": sum(d[s] for s in harm_counters),
            "items_carried_off": d["items_carried_off"],
            "approximate": d["card"] in approximate,
        }
        for d in doc["what_beats_it"]
    ]
    threats = [t for t in threats if t["setbacks"] > 0][:TOP]
    return {
        "win": doc["outcomes"]["win"],
        "games": doc["games"],
        "mean_turns_to_win": _mean_turns_to_win(rows),
        "threats": threats,
        "loss_reason": _loss_reason(rows),
        "cards": _cards_that_matter(doc.get("impact"), doc.get("observational", [])),
    }


def _cards(summary: Summary) -> list[dict[str, Any]]:
    return [
        {
            "card": c.key,
            "id": c.id,
            "type": c.type,
            "per_game": dict(c.per_game),
            "totals": dict(c.totals),
            "games_with": dict(c.games_with),
        }
        for c in summary.cards
    ]


TABLE_TITLES: tuple[tuple[str, str], ...] = (
    ("character", "Characters"),
    ("location", "Locations"),
    ("disaster", "Disasters"),
)


def _card_tables(summary: Summary) -> list[dict[str, Any]]:
    """One table per card type: its cards (indices into ``cards``) and the counters any of them
    has, in first-seen order; cards of other types that counted something go last."""
    groups: dict[str, dict[str, Any]] = {
        t: {"type": t, "title": title, "stats": [], "rows": []} for t, title in TABLE_TITLES
    }
    for i, card in enumerate(summary.cards):
        group = groups.get(card.type or "")
        if group is None:
            group = groups.setdefault(
                "other", {"type": "other", "title": "Other cards", "stats": [], "rows": []}
            )
        group["rows"].append(i)
        for stat in card.per_game:
            if stat not in group["stats"]:
                group["stats"].append(stat)
    return [g for g in groups.values() if g["rows"]]


def build(inp: ReportInput) -> dict[str, Any]:
    """The report document (JSON sidecar); the page shows these numbers and no others."""
    meta = inp.metadata
    generated = inp.generated or datetime.now(UTC)
    doc: dict[str, Any] = {
        "report_version": REPORT_VERSION,
        "deck": meta.deck_name,
        "run": meta.as_dict(),
        "command": meta.command(),
        "generated": generated.strftime("%Y-%m-%d %H:%M UTC"),
        "legality": inp.legality.as_dict(),
        "not_simulated": list(inp.not_simulated),
        "simulated": inp.summary is not None,
        "impact": inp.impact,
        "sensitivity": inp.sensitivity,
        "min_games": MIN_GAMES,
    }
    if inp.deck_stats is not None:
        doc["deck_stats"] = inp.deck_stats
    summary, rows = inp.summary, inp.rows
    if summary is None:
        doc["games"] = 0
        return doc
    doc.update(
        {
            "games": summary.games,
            "player_gap": card_runs().player_gap(
                meta.policy, meta.players, summary.wins.rate, meta.deck_path
            ),
            "outcomes": {
                "win": _rate(summary.wins),
                "loss": _rate(summary.losses),
                "stall": _rate(summary.stalls),
                "undecided": _rate(summary.undecided),
            },
            "ci_method": CI_METHOD_LABEL,
            "confidence": summary.confidence,
            "turns": {
                "mean": summary.turns.mean,
                "std": summary.turns.std,
                "ci": list(summary.turns.ci) if summary.turns.ci is not None else None,
                "min": summary.turns.min,
                "max": summary.turns.max,
            },
            "items": {
                "in_play": summary.mean_items_in_play,
                "retrieved": summary.mean_items_retrieved,
                "lost": summary.mean_items_lost,
            },
            "end_reasons": [
                {"reason": reason, "games": n, "share": n / summary.games if summary.games else 0}
                for reason, n in summary.end_reasons.items()
            ],
            "what_beats_it": _what_beats_it(summary),
            "cards": _cards(summary),
            "card_tables": _card_tables(summary),
        }
    )
    if rows is not None:
        doc["distributions"] = {
            "turns": _histogram(rows["turns"]),
            "items_retrieved": _histogram(rows["items_retrieved"]),
            "items_lost": _histogram(rows["items_lost"]),
        }
        doc["distributions"]["turns_by_outcome"] = _turns_by_outcome(rows)
        doc["survival"] = _survival(rows)
        doc["convergence"] = convergence(rows)
        doc["observational"] = observational(rows, summary)
        typical = typical_games(rows)
        for outcome, game in typical.items():
            game["command"] = play_command(meta, game["game"], legal=inp.legality.legal)
            traces = inp.typical_traces or {}
            game["trace"] = traces.get(outcome)
        doc["typical_games"] = typical
    doc["headline"] = headline(doc, rows)
    return doc
