"""Two-sided games through the game interface (:mod:`deckkit.core.game`): parties (Anima
Tactics) and teams (Animus) against an opponent, compared on paired games.

Every arm plays the same opponent on the same seed and game indices, so game ``i`` of every arm
draws from the same random stream (common random numbers) and the win-rate differences come
from the paired outcomes (:mod:`deckkit.analysis.paired`), as Ani-Mayhem's ``compare`` does for
decks. The document has Ani-Mayhem's shape: ``arms`` with each outcome's rate
(:func:`deckkit.core.estimates.rate_json`), ``differences`` with the paired interval and
McNemar's p-value. This module imports no game: each is reached by its registered name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit.analysis import matches
from deckkit.analysis.paired import (
    METHOD,
    PairedDifference,
    independent_difference,
    paired_difference,
)
from deckkit.api.display import Shown, Table, interval, pct
from deckkit.api.options import RunOptions
from deckkit.core.estimates import CI_METHOD, CONFIDENCE, Rate
from deckkit.core.game import Game, Legality, NamedStandIns, StandIn
from deckkit.core.workers import ProgressFn
from deckkit.errors import UsageError

if TYPE_CHECKING:
    import polars as pl

DEFAULT_GAMES = 2_000
StepFn = Callable[[str], AbstractContextManager[ProgressFn | None]]


@dataclass(frozen=True)
class Side:
    """One file of the game as read: its path, the game's own entry and its legality."""

    path: Path
    entry: Any
    legality: Legality


@dataclass(frozen=True)
class Arm:
    """One configuration: a file against the opponent, under a player."""

    label: str
    side: Side
    player: str
    setup: Any


def read_side(game: Game, path: Path) -> Side:
    entry = game.read(path)
    return Side(path, entry, game.legality(entry))


def _labels(game: Game, sides: Sequence[Side], players: Sequence[str]) -> list[str]:
    labels = [game.entry_name(s.entry) for s in sides]
    if len(set(players)) > 1:  # the players differ: each arm names its own
        labels = [f"{lab}, policy {p}" for lab, p in zip(labels, players, strict=True)]
    if len(set(labels)) < len(labels):  # same names: the files tell them apart
        labels = [f"{lab} ({s.path})" for lab, s in zip(labels, sides, strict=True)]
    if len(set(labels)) < len(labels):  # the same file twice: numbered
        labels = [f"{lab} #{i}" for i, lab in enumerate(labels, start=1)]
    return labels


def check_rules(game: Game, rules: Sequence[str]) -> dict[str, str]:
    """``--rule NAME=VALUE`` settings, each checked by the game."""
    return dict(game.parse_rule(r) for r in rules)


def build_arms(
    game: Game,
    files: Sequence[Path],
    vs: Side,
    *,
    player: str | None = None,
    rules: Mapping[str, str] | None = None,
    player_b: str | None = None,
) -> list[Arm]:
    """Each file against ``vs``, under ``player`` (the game's default when None) and the rule
    options; every arm after the first under ``player_b`` when given, and then one file is
    compared with itself under the two players (as Ani-Mayhem's ``--policy-b``)."""
    files = list(files)
    if len(files) == 1 and player_b is not None:
        files = [files[0], files[0]]
    if len(files) < 2:
        raise UsageError(
            f"compare needs two or more {game.title} files, or one with --policy-b, each "
            "against --vs",
            hint="deckkit compare a.party b.party --vs c.party  or  "
            "deckkit compare a.party --policy-b random --vs c.party",
        )
    chosen = player or game.players()[0]
    for name in (chosen, player_b):
        if name is not None and name not in game.players():
            raise UsageError(
                f"unknown player {name!r} for {game.title}",
                hint=f"players: {', '.join(game.players())}",
            )
    players = [chosen] + [player_b or chosen] * (len(files) - 1)
    sides = [read_side(game, Path(f)) for f in files]
    return [
        # the opponent keeps the first arm's player: only the compared side's player changes
        Arm(label, side, p, game.prepare([side.entry, vs.entry], player=(p, chosen), rules=rules))
        for label, side, p in zip(_labels(game, sides, players), sides, players, strict=True)
    ]


def members_that_differ(game: Game, a: Any, b: Any) -> list[dict[str, Any]]:
    """Card or character name -> copies in A and in B, where they differ."""
    count_a = Counter(game.members(a))
    count_b = Counter(game.members(b))
    names = sorted(set(count_a) | set(count_b), key=str.casefold)
    return [
        {"card": n, "a": count_a[n], "b": count_b[n]} for n in names if count_a[n] != count_b[n]
    ]


def compare_arms(
    game: Game,
    arms: Sequence[Arm],
    vs: Side,
    *,
    games: int,
    seed: int,
    workers: int = 1,
    step: StepFn | None = None,
) -> dict[str, Any]:
    """Play every arm on the same ``games`` games of ``seed`` against ``vs`` and compare each
    with the first: the document `deckkit compare --format json` prints (its ``command`` is the
    caller's to fill)."""
    won: list[list[bool]] = []
    docs: list[dict[str, Any]] = []
    for arm in arms:
        with step(arm.label) if step is not None else nullcontext() as progress:
            result = matches.run(
                game.name,
                arm.setup,
                games=games,
                seed=seed,
                workers=workers,
                keep_rows=True,
                progress=progress,
            )
        if result.interrupted:
            raise KeyboardInterrupt
        won.append(result.won())
        docs.append(
            {
                "label": arm.label,
                "name": game.entry_name(arm.side.entry),
                "path": str(arm.side.path),
                "policy": arm.player,
                "legal": arm.side.legality.legal,
                "games": result.tally.games,
                "outcomes": matches.outcomes_json(result.tally, game.outcomes),
                "mean_turns": matches.mean_turns(result.tally),
                "end_reasons": matches.end_reasons_json(result.tally, game.end_reasons),
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
                "cards_that_differ": members_that_differ(game, arms[0].side.entry, arm.side.entry),
            }
        )
    return {
        "game": game.name,
        "method": METHOD,
        "ci_method": CI_METHOD,
        "confidence": CONFIDENCE,
        "seed": seed,
        "games": games,
        "vs": {
            "name": game.entry_name(vs.entry),
            "path": str(vs.path),
            "legal": vs.legality.legal,
            "policy": arms[0].player,
        },
        "arms": docs,
        "differences": differences,
        "command": None,
    }


IMPACT_METHOD = (
    "Change in win rate against the opponent when one copy of the character is taken out of "
    "the file, replaced by each legal stand-in the game's rules give (the median stand-in's "
    "change, with every stand-in's) or removed where the rules let the file shrink, with a 95% "
    f"interval: {METHOD}. Negative: the file wins less without it."
)
NAMED_METHOD = (
    "Change in win rate against the opponent when one copy of the character is replaced, in "
    "its place, by the one character named with --replace-with (the changed file checked "
    f"against the game's rules first), with a 95% interval: {METHOD}. Negative: the file wins "
    "less with the named character in its place."
)


REMOVED = "removed"  # a StandIn's ``how`` when the member is taken out and nothing replaces it


def members_to_measure(game: Game, entry: Any, names: Sequence[str]) -> list[str]:
    """The named members (each checked to be in the file), else every member once, in order."""
    held = list(dict.fromkeys(game.members(entry)))
    if not names:
        return held
    by_key = {m.casefold(): m for m in held}
    out = []
    for name in names:
        found = by_key.get(name.strip().casefold())
        if found is None:
            raise UsageError(
                f"{name!r} is not in {game.entry_name(entry)!r}",
                hint=f"it holds: {', '.join(held)}",
            )
        out.append(found)
    return list(dict.fromkeys(out))


# Games added per step under a target error: Ani-Mayhem's impact batch
# (deckkit.analysis.impact.DEFAULT_BATCH).
BATCH = 500


def check_target_error(value: float | None, flag: str = "--target-error") -> None:
    """A half-width to stop at: a number strictly between 0 and 1 (``nan`` is not one)."""
    if value is not None and not 0 < value < 1:  # false for nan too
        raise UsageError(f"{flag} must be between 0 and 1, not {value}", hint=f"e.g. {flag} 0.02")


def named_stand_in(game: Game, entry: Any, member: str, name: str) -> StandIn:
    """``member`` of ``entry`` replaced by the card or character ``name``
    (``impact --replace-with``); a usage error where the game names none."""
    if not isinstance(game, NamedStandIns):
        raise UsageError(f"--replace-with is not served for {game.title}")
    return game.replaced(entry, member, name)


class _Wins:
    """One setup's games by index, played on demand from game 0: whether the first side won
    each (game ``i`` is the same game however the run is cut into batches)."""

    def __init__(self, game: str, setup: Any, seed: int, workers: int) -> None:
        self.game, self.setup, self.seed, self.workers = game, setup, seed, workers
        self.won: list[bool] = []

    def first(self, n: int) -> list[bool]:
        if n > len(self.won):
            result = matches.run(
                self.game,
                self.setup,
                games=n - len(self.won),
                seed=self.seed,
                workers=self.workers,
                keep_rows=True,
                first=len(self.won),
            )
            if result.interrupted:
                raise KeyboardInterrupt
            self.won.extend(result.won())
        return self.won[:n]


def _estimate(
    base: _Wins, changed: _Wins, games: int, target_error: float | None
) -> PairedDifference:
    """The changed file's paired difference from the file itself over ``games`` games, or
    fewer once the interval's half-width is at most ``target_error``."""
    if target_error is None:
        return paired_difference(base.first(games), changed.first(games))
    n = 0
    while True:
        n = min(games, n + BATCH)
        result = paired_difference(base.first(n), changed.first(n))
        half = result.half_width
        if n >= games or (half is not None and half <= target_error):
            return result


def _difference_json(d: Any) -> dict[str, Any]:
    return {
        "games": d.n,
        "difference": d.difference,
        "ci": list(d.ci) if d.ci is not None else None,
    }


def impact_members(
    game: Game,
    side: Side,
    vs: Side,
    members: Sequence[str],
    *,
    games: int,
    seed: int,
    workers: int = 1,
    player: str | None = None,
    rules: Mapping[str, str] | None = None,
    step: StepFn | None = None,
    removal_only: bool = False,
    target_error: float | None = None,
    replace_with: str | None = None,
) -> dict[str, Any]:
    """What each member is worth to ``side`` against ``vs``: for each, its stand-ins
    (:meth:`~deckkit.core.game.Game.stand_ins`) played on the same games as the file itself,
    the median stand-in's paired change (the lower middle one for an even number) with every
    stand-in's and their spread; *supported* when its interval excludes zero and every
    stand-in's change has the same sign. Most valuable (largest drop) first. With
    ``removal_only`` only the member's removal is played (``--remove``); with ``replace_with``
    only the member replaced by that card or character (``--replace-with``, a game that is a
    :class:`~deckkit.core.game.NamedStandIns`; legal or not, the caller decides). With
    ``target_error`` each stand-in stops, :data:`BATCH` games at a time, once its interval's
    half-width is at most that (``games`` then the most), as Ani-Mayhem's impact does."""
    check_target_error(target_error)
    chosen = player or game.players()[0]

    def wins(entry: Any) -> _Wins:
        setup = game.prepare([entry, vs.entry], player=chosen, rules=rules)
        return _Wins(game.name, setup, seed, workers)

    base = wins(side.entry)
    measured: list[dict[str, Any]] = []
    unmeasured: list[dict[str, str]] = []
    for member in members:
        stands: tuple[StandIn, ...]
        if replace_with is not None:
            stands = (named_stand_in(game, side.entry, member, replace_with),)
        else:
            stands = game.stand_ins(side.entry, member)
        if removal_only:
            stands = tuple(s for s in stands if s.how == REMOVED)
        if not stands:
            unmeasured.append(
                {"card": member, "why": "no stand-in the game's rules allow in its place"}
            )
            continue
        with step(member) if step is not None else nullcontext():
            results = [(s, _estimate(base, wins(s.entry), games, target_error)) for s in stands]
        order = sorted(range(len(results)), key=lambda i: (results[i][1].difference or 0.0, i))
        median_stand, r = results[order[(len(order) - 1) // 2]]
        values = [d.difference for _, d in results if d.difference is not None]
        same_sign = all(v > 0 for v in values) or all(v < 0 for v in values)
        supported = r.ci is not None and (r.ci[0] > 0 or r.ci[1] < 0) and same_sign
        measured.append(
            {
                "card": member,
                "change": median_stand.how
                if len(results) == 1
                else f"median of {len(results)} stand-ins: {median_stand.how}",
                "kind": "named"
                if replace_with is not None
                else "removed"
                if median_stand.how == REMOVED
                else "median stand-in",
                "stand_ins": [{"change": s.how, **_difference_json(d)} for s, d in results],
                "spread": [min(values), max(values)] if values else None,
                "supported": supported,
                "games": r.n,
                "win_rate_with": r.wins_a / r.n if r.n else None,
                "win_rate_without": r.wins_b / r.n if r.n else None,
                "difference": r.difference,
                "ci": list(r.ci) if r.ci is not None else None,
                "p_value": r.p_value,
                "only_with_won": r.only_a,
                "only_without_won": r.only_b,
            }
        )
    measured.sort(key=lambda m: (m["difference"] or 0.0, m["card"].casefold()))
    return {
        "game": game.name,
        "ci_method": CI_METHOD,
        "confidence": CONFIDENCE,
        "file": {
            "name": game.entry_name(side.entry),
            "path": str(side.path),
            "legal": side.legality.legal,
        },
        "vs": {"name": game.entry_name(vs.entry), "path": str(vs.path), "legal": vs.legality.legal},
        "seed": seed,
        "games": games,
        "policy": chosen,
        "rules": dict(rules or {}),
        "target_error": target_error,
        "replace_with": replace_with,
        "impact": {
            "method": IMPACT_METHOD if replace_with is None else NAMED_METHOD,
            "cards_measured": len(measured),
            "cards": measured,
            "not_measured": unmeasured,
        },
        "command": None,
    }


def save_run(
    game: Game,
    setup: Any,
    path: Path,
    *,
    games: int,
    seed: int,
    workers: int = 1,
    force: bool = False,
    files: Sequence[Path],
    about: Mapping[str, object] | None = None,
) -> int:
    """Games ``0..games-1`` of ``seed`` on ``setup`` (a setup of the game's own simulate, or
    one :meth:`~deckkit.core.game.Game.prepare` made), one row per game written to ``path``
    (Parquet or CSV, whole or not at all): :data:`deckkit.analysis.matches.ROW_COLUMNS` and a
    column per counter. A Parquet file carries the run's metadata under
    :data:`~deckkit.analysis.matches.RUN_METADATA_KEY`: the game, deckkit's version, the seed,
    the games asked for, each file with its SHA-256 and text (what plays the run again), and
    ``about`` (players, rule options). Returns the games written."""
    import hashlib
    import json

    from deckkit import __version__
    from deckkit.analysis.output import out_format, write_frame
    from deckkit.untrusted import read_bytes

    result = matches.run(game.name, setup, games=games, seed=seed, workers=workers, keep_rows=True)
    if result.interrupted or result.rows is None:
        raise KeyboardInterrupt
    texts = [read_bytes(f, what=f"{game.title} file", error=UsageError) for f in files]
    meta = {
        "game": game.name,
        "deckkit_version": __version__,
        "seed": seed,
        "games_requested": games,
        "files": [
            {
                "path": str(f),
                "sha256": hashlib.sha256(data).hexdigest(),
                "text": data.decode("utf-8", errors="replace"),
            }
            for f, data in zip(files, texts, strict=True)
        ],
        **dict(about or {}),
    }
    metadata = (
        {matches.RUN_METADATA_KEY: json.dumps(meta, sort_keys=True)}
        if out_format(path) == "parquet"
        else None
    )
    write_frame(matches.rows_frame(result.rows), path, force=force, metadata=metadata)
    return len(result.rows)


@dataclass(frozen=True, repr=False)
class MatchResult(Shown):
    """A party's or team's run against its opponent through the game interface: each outcome's
    rate with its Wilson 95% interval (``win``, ``outcomes``), how the games ended, and one row
    per game (``to_frame()``). Printed, a short summary (a table in a notebook)."""

    game: str
    document: dict[str, Any]
    rows: list[Any]

    @property
    def win(self) -> Rate:
        """The first file's wins, with their interval."""
        w = self.document["outcomes"]["win"]
        ci = tuple(w["ci"]) if w["ci"] is not None else None
        return Rate(w["count"], w["n"], w["rate"], ci)

    def as_dict(self) -> dict[str, Any]:
        return self.document

    def to_frame(self) -> pl.DataFrame:
        """One row per game: its index, outcome (the first file's view), end reason code,
        turns, and a column per (side:character, counter) the games counted."""
        frame: pl.DataFrame = matches.rows_frame(self.rows)
        return frame

    def _title(self) -> str:
        d = self.document
        return (
            f"{d['file']['name']} vs {d['vs']['name']} ({d['game']}): {d['games']:,} games, "
            f"seed {d['seed']}"
        )

    def _table(self) -> Table:
        rows = [
            [name, f"{r['count']:,}", pct(r["rate"]), interval(r["ci"])]
            for name, r in self.document["outcomes"].items()
        ]
        return ["outcome", "games", "rate", "95% CI"], rows

    def _notes(self) -> list[str]:
        return [".to_frame(): one row per game; .as_dict(): the whole summary"]


def simulate_match(
    file: str | Path,
    vs: str | Path | None,
    options: RunOptions,
    *,
    allow_illegal: bool = False,
    progress: ProgressFn | None = None,
) -> MatchResult:
    """``options.games`` seeded games of the party or team ``file`` against ``vs`` (both of
    the file's game), through the game interface: ``options.policy`` plays both sides (the
    game's default player for "heuristic" where the game has none of that name) under
    ``options.rules``. An illegal file raises a :class:`~deckkit.errors.UsageError` unless
    ``allow_illegal``."""
    from deckkit import games as registry

    path = Path(file)
    found = registry.game_of_file(path)
    game = registry.game_interface(found)
    if vs is None:
        raise UsageError(
            f"a {found.title} run plays an opponent: give vs=",
            hint=f"deckkit.simulate({str(path)!r}, vs='OPPONENT')",
        )
    vs_path = Path(vs)
    other = registry.game_of_file(vs_path)
    if other != found:
        raise UsageError(f"{vs_path} is a {other.title} file, {path} a {found.title} file")
    options.check_numbers()
    rules = check_rules(game, options.rules)
    side, opponent = read_side(game, path), read_side(game, vs_path)
    for s in (side, opponent):
        if not s.legality.legal and not allow_illegal:
            problems = "; ".join(p.message for p in s.legality.problems)
            raise UsageError(
                f"{s.path} is not legal: {problems}", hint="pass allow_illegal=True to play it"
            )
    player = options.policy if options.policy in game.players() else game.players()[0]
    setup = game.prepare([side.entry, opponent.entry], player=player, rules=rules)
    result = matches.run(
        game.name,
        setup,
        games=options.games,
        seed=options.seed,
        keep_rows=True,
        progress=progress,
        **options.runner_kwargs(),
    )
    if result.interrupted or result.rows is None:
        raise KeyboardInterrupt
    doc = {
        "game": game.name,
        "ci_method": CI_METHOD,
        "confidence": CONFIDENCE,
        "file": {
            "name": game.entry_name(side.entry),
            "path": str(path),
            "legal": side.legality.legal,
        },
        "vs": {
            "name": game.entry_name(opponent.entry),
            "path": str(vs_path),
            "legal": opponent.legality.legal,
        },
        "seed": options.seed,
        "games": result.tally.games,
        "policy": player,
        "rules": rules,
        "outcomes": matches.outcomes_json(result.tally, game.outcomes),
        "mean_turns": matches.mean_turns(result.tally),
        "end_reasons": matches.end_reasons_json(result.tally, game.end_reasons),
    }
    return MatchResult(game.name, doc, result.rows)
