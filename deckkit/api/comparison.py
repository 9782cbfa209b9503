"""Compare decks (or one deck under two policies or editions) on the same games: every arm is
played on the same seed and game indices, so game ``i`` of every arm draws from the same random
stream, and the win-rate differences come from the paired outcomes (McNemar-style, see
:mod:`deckkit.analysis.paired`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit.analysis.paired import METHOD, independent_difference, paired_difference
from deckkit.analysis.runner import run_games
from deckkit.analysis.summary import card_catalog, summarize
from deckkit.api.card_impact import StepFn
from deckkit.api.display import Shown, Table, frame, interval, pct, pts
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of
from deckkit.api.solitaire import DeckSource, IllegalDeck, SolitaireGame, prepare_with
from deckkit.core.estimates import rate_json
from deckkit.errors import UsageError
from deckkit.games import card_runs

if TYPE_CHECKING:
    import polars as pl

DEFAULT_GAMES = 2_000


@dataclass(frozen=True)
class Arm:
    """One configuration: a deck under a policy and an edition."""

    label: str
    deck: DeckSource
    options: RunOptions
    game: SolitaireGame


def _label(options: RunOptions, game: SolitaireGame, differs: set[str]) -> str:
    parts = [game.deck.name]
    if "policy" in differs:
        parts.append(f"policy {options.policy}")
    if "edition" in differs:
        parts.append(f"edition {game.edition.name}")
    return ", ".join(parts)


def build_arms(
    decks: Sequence[DeckSource],
    base: RunOptions,
    policy_b: str | None = None,
    edition_b: str | None = None,
    hooks: EngineHooks = ENGINE,
) -> list[Arm]:
    """The first deck under ``base``; every other arm under ``policy_b``/``edition_b`` when
    given. One deck with ``policy_b`` or ``edition_b`` compares it with itself."""
    decks = list(decks)
    if not decks:  # the CLI's DECKS argument is required: the API refuses the same way
        raise UsageError(
            "compare needs two decks, or one deck with --policy-b or --edition-b; none given",
            hint="deckkit.compare([a, b])  or  deckkit.compare([a], policy_b='random')",
        )
    if len(decks) == 1:
        if policy_b is None and edition_b is None:
            raise UsageError(
                "compare needs two decks, or one deck with --policy-b or --edition-b",
                hint="deckkit compare a.deck b.deck  or  deckkit compare a.deck --policy-b random",
            )
        decks = [decks[0], decks[0]]
    option_list = [base] + [
        base.but(policy=policy_b or base.policy, edition=edition_b or base.edition)
        for _ in decks[1:]
    ]
    games = [
        prepare_with(hooks, d, o, command="compare")
        for d, o in zip(decks, option_list, strict=True)
    ]
    differs = set()
    if len({o.policy for o in option_list}) > 1:
        differs.add("policy")
    if len({g.edition.name for g in games}) > 1:
        differs.add("edition")
    labels = [_label(o, g, differs) for o, g in zip(option_list, games, strict=True)]
    if len(set(labels)) < len(labels):  # same deck names: fall back to the file names
        labels = [
            f"{_shown(d) or f'deck {i}'} ({lab})"
            for i, (d, lab) in enumerate(zip(decks, labels, strict=True), start=1)
        ]
    return [
        Arm(lab, d, o, g) for lab, d, o, g in zip(labels, decks, option_list, games, strict=True)
    ]


def _shown(deck: DeckSource) -> str | None:
    """The deck file as given (None for a deck built in memory)."""
    return str(deck) if isinstance(deck, str | Path) else None


def cards_that_differ(a: SolitaireGame, b: SolitaireGame) -> list[dict[str, Any]]:
    """Card name -> copies in A and in B, where they differ."""
    count_a = Counter(c.name for c in a.deck.cards())
    count_b = Counter(c.name for c in b.deck.cards())
    names = sorted(set(count_a) | set(count_b), key=str.casefold)
    return [
        {"card": n, "a": count_a[n], "b": count_b[n]} for n in names if count_a[n] != count_b[n]
    ]


def compare_arms(
    arms: list[Arm],
    options: RunOptions,
    *,
    hooks: EngineHooks = ENGINE,
    step: StepFn | None = None,
) -> dict[str, Any]:
    """Play every arm on the same ``options.games`` games of ``options.seed`` and compare each
    with the first; the document `deckkit compare --format json` prints (its ``command`` is the
    caller's to fill)."""
    won: list[list[bool]] = []
    docs: list[dict[str, Any]] = []
    runner = options.runner_kwargs()
    for arm in arms:
        factory = hooks.factory(
            arm.game.deck,
            arm.game.edition,
            arm.game.layout,
            arm.options.turn_cap,
            arm.options.policy,
        )
        with step(arm.label) if step is not None else nullcontext() as progress:
            result = run_games(
                factory,
                games=options.games,
                seed=options.seed,
                keep_rows=True,
                progress=progress,
                **runner,
            )
        if result.interrupted or result.rows is None:
            raise KeyboardInterrupt
        won.append([o == "win" for o in result.rows["outcome"].to_list()])
        summary = summarize(result.tally, card_catalog(arm.game.deck))
        docs.append(
            {
                "label": arm.label,
                "deck": arm.game.deck.name,
                "deck_path": _shown(arm.deck),
                "policy": arm.options.policy,
                "edition": arm.game.edition.name,
                "rules": arm.game.rules,
                "variant": arm.game.variant,
                "legal": arm.game.report.legal,
                "games": summary.games,
                "outcomes": {
                    name: rate_json(r)
                    for name, r in (
                        ("win", summary.wins),
                        ("loss", summary.losses),
                        ("stall", summary.stalls),
                        ("undecided", summary.undecided),
                    )
                },
                "mean_turns": summary.turns.mean,
                "not_simulated": sorted(set(hooks.not_simulated(arm.game.deck)), key=str.casefold),
                "player_gap": card_runs().player_gap(
                    arm.options.policy, arm.game.players, summary.wins.rate, _shown(arm.deck)
                ),
            }
        )
    differences = []
    for arm, arm_won in zip(arms[1:], won[1:], strict=True):
        paired = paired_difference(won[0], arm_won)
        _, independent = independent_difference(paired.wins_a, paired.n, paired.wins_b, paired.n)
        differences.append(
            {
                "arm": arm.label,
                "against": arms[0].label,
                **paired.as_dict(),
                "independent_ci": list(independent),
                "cards_that_differ": cards_that_differ(arms[0].game, arm.game),
            }
        )
    return {
        "method": METHOD,
        "seed": options.seed,
        "games": options.games,
        "arms": docs,
        "differences": differences,
        "command": None,
    }


@dataclass(frozen=True, repr=False)
class CompareResult(Shown):
    """The arms as played and the document `deckkit compare --format json` prints
    (``as_dict()``; its ``command`` is None: no command line played it). Printed, it is a short
    summary (a table in a notebook); ``to_frame()`` gives one row per arm."""

    arms: list[Arm]
    document: dict[str, Any]

    @property
    def differences(self) -> list[dict[str, Any]]:
        """For every arm after the first: its win rate minus the first's (``difference``), the
        paired 95% interval (``ci``), McNemar's ``p_value`` and the cards that differ."""
        return list(self.document["differences"])

    def as_dict(self) -> dict[str, Any]:
        return self.document

    def to_frame(self) -> pl.DataFrame:
        """One row per arm: its outcomes' rates with their intervals and mean turns, and for
        every arm after the first its paired difference from the first (``difference``,
        ``ci_low``, ``ci_high``, ``p_value``; null on the first arm)."""
        against = {d["arm"]: d for d in self.document["differences"]}
        records = []
        for arm in self.document["arms"]:
            record: dict[str, Any] = {
                k: arm[k] for k in ("label", "deck", "deck_path", "policy", "edition", "games")
            }
            for name, rate in arm["outcomes"].items():
                record[f"{name}s"] = rate["count"]
                record[f"{name}_rate"] = rate["rate"]
                record[f"{name}_ci"] = rate["ci"]
            record["mean_turns"] = arm["mean_turns"]
            paired = against.get(arm["label"], {})
            record["difference"] = paired.get("difference")
            record["ci"] = paired.get("ci")
            record["p_value"] = paired.get("p_value")
            records.append(record)
        return frame(records)

    def _title(self) -> str:
        doc = self.document
        return f"{len(doc['arms'])} arms on the same {doc['games']:,} games, seed {doc['seed']}"

    def _table(self) -> Table:
        against = {d["arm"]: d for d in self.document["differences"]}
        rows = []
        for arm in self.document["arms"]:
            win = arm["outcomes"]["win"]
            paired = against.get(arm["label"])
            rows.append(
                [
                    arm["label"],
                    pct(win["rate"]),
                    interval(win["ci"]),
                    pts(paired["difference"]) if paired else "",
                    interval(paired["ci"], signed=True) if paired else "",
                ]
            )
        return ["arm", "win rate", "95% CI", "vs first", "paired 95% CI"], rows

    def _notes(self) -> list[str]:
        return [".to_frame(): one row per arm; .differences: the paired comparisons"]


def compare(
    decks: Sequence[DeckSource],
    options: RunOptions | None = None,
    *,
    policy_b: str | None = None,
    edition_b: str | None = None,
    allow_illegal: bool = False,
    **changes: Any,
) -> CompareResult:
    """Compare ``decks`` (or one deck under ``policy_b`` or ``edition_b``) on the same games:
    each arm's outcomes and, for every arm after the first, its win-rate difference from the
    first with a paired 95% interval (``differences``), as `deckkit compare --format json`.
    Default here 2,000 games per arm, as the command."""
    if options is None:
        changes.setdefault("games", DEFAULT_GAMES)
    opts = options_of(options, changes)
    arms = build_arms(decks, opts, policy_b, edition_b)
    for arm in arms:
        if not arm.game.report.legal and not allow_illegal:
            raise IllegalDeck(arm.game.report, "compare")
    return CompareResult(arms, compare_arms(arms, opts))
