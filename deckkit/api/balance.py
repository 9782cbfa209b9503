"""Balance checks for CI: each check of a balance file (a deck, a win-rate band or a largest
drop from its baseline) played until its sequential test decides or its budget runs out.

:func:`baselines` records the baselines; :func:`balance_check` runs the checks and returns
their verdicts with the exit code the command ends with (0 all pass, 1 any fails, 3 any
inconclusive and none fails); :func:`write_reports` writes each checked deck's HTML report and
the summary page. A card database that does not load is bad input here (exit 2), keeping 3 for
"inconclusive".
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit import games
from deckkit.analysis import matches
from deckkit.analysis.runner import GameFactory, run_games, shared_pool
from deckkit.analysis.summary import Rate, proportion
from deckkit.api.display import Shown, Table, frame, interval, pct, pts
from deckkit.api.options import RunOptions, no_other_keywords, renamed
from deckkit.api.simulation import Notify, _silent
from deckkit.api.solitaire import SolitaireGame, illegal_explanation, resolve
from deckkit.balance.baseline import baseline_record, read_baseline, write_baseline
from deckkit.balance.config import BalanceFile, Check, load_balance_file
from deckkit.balance.snapshot import changed_cards, take_snapshot, write_replay_db
from deckkit.core.carddir import CARD_DB_ENV
from deckkit.errors import CardDataError, DeckFileError, DeckkitError, UsageError
from deckkit.untrusted import read_text

if TYPE_CHECKING:  # numpy, which the sequential tests need, is imported when checks run
    import polars as pl

    from deckkit.balance.checks import CheckResult

EXIT_PASS = 0
EXIT_FAIL = 1
EXIT_INCONCLUSIVE = 3
REPORT_GAMES = 2000  # games behind each report page


@contextmanager
def _bad_data_is_bad_input() -> Iterator[None]:
    """A card database that does not load exits 2 here, keeping 3 for "inconclusive"."""
    try:
        yield
    except CardDataError as err:
        raise UsageError(err.message, path=err.path, line=err.line, hint=err.hint) from None


def _for_check(check: Check, err: DeckkitError) -> DeckkitError:
    """The same error, its message prefixed with the check it concerns (kept whole, so an error
    listing several problems still lists them)."""
    err.message = f"check {check.name!r}: {err.message}"
    return err


@dataclass(frozen=True)
class Prepared:
    check: Check
    game: SolitaireGame
    factory: GameFactory
    deck_text: str


def _prepare(check: Check, db: Any, notify: Notify) -> Prepared:
    """Resolve a check's deck, edition and policy, refusing an illegal deck (bad input)."""
    runs = games.engine_runs()
    try:
        runs.check_policy(check.policy)
        game = resolve(
            check.deck,
            edition=check.edition,
            variant=None,
            layout=None,
            players=check.players,
            layouts=runs.layouts,
            command="balance",
            db=db,
            rules=check.rule_args,
        )
        deck_text = read_text(check.deck, what="deck file", error=DeckFileError)
    except DeckkitError as err:
        raise _for_check(check, err) from err
    if not game.report.legal:
        for line in illegal_explanation(game.report):
            notify(line)
        raise UsageError(
            f"check {check.name!r}: the deck is not legal, so it cannot be balance-checked",
            path=check.deck,
            hint="fix the deck (see `deckkit validate`) or remove the check",
        )
    factory = runs.factory(game.deck, game.edition, game.layout, check.turn_cap, check.policy)
    return Prepared(check, game, factory, deck_text)


@dataclass(frozen=True)
class PreparedMatch:
    """A party's or team's check, through the game interface: its game, the file against its
    opponent as a worker's factory, and both files' text (the baseline keeps them)."""

    check: Check
    game: Any  # deckkit.core.game.Game
    factory: matches.InterfacePlay
    deck_text: str
    vs_text: str


def _interface_of(check: Check) -> Any:
    found = games.find_game(check.game)
    assert found is not None  # the balance file named it
    return games.game_interface(found)


def _match_factory(check: Check, deck: Path, vs: Path, notify: Notify) -> matches.InterfacePlay:
    """The check's file against its opponent, both legal, under its player and rule options."""
    from deckkit.api.matchups import read_side

    game = _interface_of(check)
    try:
        sides = [read_side(game, deck), read_side(game, vs)]
        setup = game.prepare(
            [sides[0].entry, sides[1].entry], player=check.policy, rules=dict(check.rules)
        )
    except DeckkitError as err:
        raise _for_check(check, err) from err
    for side in sides:
        if not side.legality.legal:
            for problem in side.legality.problems:
                notify(f"  {problem.rule}: {problem.message}")
            raise UsageError(
                f"check {check.name!r}: {side.path} is not legal, so it cannot be balance-checked",
                path=side.path,
                hint="fix it (see `deckkit validate`) or remove the check",
            )
    return matches.InterfacePlay(game.name, setup)


def _prepare_match(check: Check, notify: Notify) -> PreparedMatch:
    assert check.vs is not None
    factory = _match_factory(check, check.deck, check.vs, notify)
    try:
        texts = [read_text(p, what="file", error=DeckFileError) for p in (check.deck, check.vs)]
    except DeckkitError as err:
        raise _for_check(check, err) from err
    return PreparedMatch(check, _interface_of(check), factory, texts[0], texts[1])


def _match_snapshot(item: PreparedMatch) -> dict[str, Any]:
    """What a party's or team's baseline keeps: both files' text (the card data is the game's
    own; no card rows are kept, so only the files' changes are told)."""
    return {
        "game": item.game.name,
        "deck_file": {"text": item.deck_text, "sha256": _sha(item.deck_text)},
        "vs_file": {"text": item.vs_text, "sha256": _sha(item.vs_text)},
        "cards": {},
    }


@contextmanager
def _replayed_match(
    item: PreparedMatch, record: dict[str, Any], notify: Notify
) -> Iterator[matches.InterfacePlay]:
    """The baseline's files, as they read then, against each other on today's engine: each
    written beside its file under a hidden name (so a file naming others by a relative path
    still finds them) while the check plays, and removed after."""
    check = item.check
    assert check.vs is not None
    snapshot = record["snapshot"]
    texts = [snapshot["deck_file"]["text"], snapshot.get("vs_file", {}).get("text")]
    if not isinstance(texts[1], str):
        raise UsageError(
            f"check {check.name!r}: its baseline keeps no opponent's file",
            hint="re-baseline with `deckkit balance baseline --force`",
        )
    made: list[Path] = []
    try:
        for path, text in zip((check.deck, check.vs), texts, strict=True):
            fd, name = tempfile.mkstemp(
                prefix=f".{path.stem}.baseline-", suffix=path.suffix, dir=path.parent
            )
            made.append(Path(name))
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
        yield _match_factory(check, made[0], made[1], notify)
    finally:
        for path in made:
            path.unlink(missing_ok=True)


def _select(balance: BalanceFile, names: Sequence[str]) -> list[Check]:
    if not names:
        return list(balance.checks)
    known = {c.name: c for c in balance.checks}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(
            f"no check named {', '.join(map(repr, unknown))}",
            path=balance.path,
            hint=f"checks: {', '.join(map(repr, known))}",
        )
    return [known[n] for n in names]


def _names(names: str | Sequence[str]) -> Sequence[str]:
    """Check names: one name alone is a list of one."""
    return (names,) if isinstance(names, str) else names


def _runner(run: RunOptions | None) -> dict[str, Any]:
    """The runner's keywords of ``run`` (only where games run: each check's own seed, policy
    and budget come from the balance file)."""
    run = run or RunOptions()
    if run.workers < 0:
        raise UsageError(f"--workers must be at least 1 (or 0 for all cores), not {run.workers}")
    return run.runner_kwargs()


# --- baseline ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Baseline:
    """A recorded baseline: the check, its win rate over the baseline's games, and the file."""

    check: Check
    rate: Rate
    path: Path


def baselines(
    file: str | Path,
    *,
    run: RunOptions | None = None,
    card_db: Path | None = None,
    force: bool = False,
    check: Sequence[str] = (),
    notify: Notify = _silent,
    warn: Notify = _silent,
    **former: Any,
) -> Iterator[Baseline]:
    """Record a baseline for each selected check (``check``: their names, as ``--check``; all
    by default), yielding each as it is written. Existing baselines are replaced only with
    ``force``; every check is validated before the first game (``warn`` hears why a deck is not
    legal, ``notify`` of each check as it starts)."""
    only = _names(renamed(former, "only", "check", check, ()))
    no_other_keywords(former, "baselines")
    runner = _runner(run)
    with _bad_data_is_bad_input():
        balance = load_balance_file(Path(file))
        checks = _select(balance, only)
        existing = [balance.baseline_path(c) for c in checks if balance.baseline_path(c).exists()]
        if existing and not force:
            raise UsageError(
                "refusing to replace existing baseline(s): " + ", ".join(str(p) for p in existing),
                hint="pass --force to re-baseline them, or --check NAME for only some",
            )
        checks_of = games.deck_checks()
        db, csv_path = checks_of.card_db(card_db), checks_of.card_db_file(card_db)
        prepared = [
            _prepare(c, db, warn) if c.vs is None else _prepare_match(c, warn) for c in checks
        ]
        for item in prepared:
            if isinstance(item, PreparedMatch):
                yield _match_baseline(balance, item, runner, notify)
                continue
            chosen = item.check
            notify(f"baseline {chosen.name!r}: {chosen.baseline_games:,} games")
            result = run_games(
                item.factory, games=chosen.baseline_games, seed=chosen.seed, **runner
            )
            if result.interrupted:
                raise KeyboardInterrupt
            record = baseline_record(
                chosen,
                wins=result.tally.wins,
                games=result.tally.games,
                edition=item.game.edition.name,
                variant=item.game.variant,
                layout=item.game.layout,
                rules=item.game.rules,
                snapshot=take_snapshot(
                    (card.id for card, _ in games.deck_swaps().entries(item.game.deck)),
                    item.deck_text,
                    chosen.deck_as_written,
                    csv_path,
                ),
            )
            path = balance.baseline_path(chosen)
            write_baseline(path, record)
            yield Baseline(chosen, proportion(result.tally.wins, result.tally.games), path)


def _match_baseline(
    balance: BalanceFile, item: PreparedMatch, runner: dict[str, Any], notify: Notify
) -> Baseline:
    chosen = item.check
    notify(f"baseline {chosen.name!r}: {chosen.baseline_games:,} games")
    played = matches.run(
        item.factory.game,
        item.factory.setup,
        games=chosen.baseline_games,
        seed=chosen.seed,
        workers=runner["workers"],
    )
    if played.interrupted:
        raise KeyboardInterrupt
    wins = played.tally.outcomes.get("win", 0)
    record = baseline_record(
        chosen,
        wins=wins,
        games=played.tally.games,
        edition="",
        variant="",
        layout="",
        rules=dict(chosen.rules),
        snapshot=_match_snapshot(item),
    )
    record["game"] = chosen.game
    record["vs"] = chosen.vs_as_written
    path = balance.baseline_path(chosen)
    write_baseline(path, record)
    return Baseline(chosen, proportion(wins, played.tally.games), path)


# --- check -------------------------------------------------------------------------------------


def _replay_factory(item: Prepared, record: dict[str, Any], csv_path: Path) -> GameFactory:
    """The baseline's deck with the baseline's cards, on today's engine and options."""
    snapshot = record["snapshot"]
    with tempfile.TemporaryDirectory(prefix="deckkit-baseline-") as tmp:
        try:
            replay_csv = write_replay_db(snapshot, csv_path, Path(tmp) / "animayhem")
            checks_of = games.deck_checks()
            old_db = checks_of.card_db(replay_csv)
            old_deck = checks_of.parse_deck_text(
                str(snapshot["deck_file"]["text"]), item.check.deck, old_db
            )
        except DeckkitError as err:
            raise UsageError(
                f"check {item.check.name!r}: the baseline's cards no longer load: {err.message}",
                path=err.path,
                line=err.line,
                hint="the card format changed since the baseline; re-baseline with "
                "`deckkit balance baseline --force`",
            ) from None
    return games.engine_runs().factory(
        old_deck, item.game.edition, item.game.layout, item.check.turn_cap, item.check.policy
    )


@dataclass(frozen=True, repr=False)
class BalanceResult(Shown):
    """Every selected check's verdict, and the exit code: 0 all pass, 1 any fails, 3 any
    inconclusive and none fails. Printed, it is a short summary (a table in a notebook);
    ``to_frame()`` gives one row per check."""

    file: Path
    results: list[CheckResult]

    @property
    def exit_code(self) -> int:
        return exit_code(self.results)

    def as_dict(self) -> dict[str, Any]:
        """The document of `deckkit balance check --format json`."""
        from deckkit.balance.checks import VERDICTS

        return {
            "file": str(self.file),
            "exit_code": self.exit_code,
            "counts": {v: sum(r.verdict == v for r in self.results) for v in VERDICTS},
            "checks": [r.as_dict() for r in self.results],
        }

    def to_frame(self) -> pl.DataFrame:
        """One row per check, as in the JSON document: ``verdict``, the games played, the
        ``estimate`` with ``ci_low``/``ci_high``, the band or largest drop, and the reason."""
        return frame(r.as_dict() for r in self.results)

    def _title(self) -> str:
        counts = self.as_dict()["counts"]
        told = ", ".join(f"{n} {verdict}" for verdict, n in counts.items() if n)
        return f"{self.file}: {told or 'no checks'} (exit code {self.exit_code})"

    def _table(self) -> Table:
        rows = []
        for r in self.results:
            c = r.check
            drift = c.kind == "drift"
            rows.append(
                [
                    c.name,
                    r.verdict,
                    f"{r.games:,}",
                    (pts if drift else pct)(r.estimate),
                    interval(r.ci, signed=drift),
                ]
            )
        return ["check", "verdict", "games", "estimate", "95% CI"], rows


def balance_check(
    file: str | Path,
    *,
    run: RunOptions | None = None,
    card_db: Path | None = None,
    check: Sequence[str] = (),
    notify: Notify = _silent,
    warn: Notify = _silent,
    **former: Any,
) -> BalanceResult:
    """Play each selected check of the balance ``file`` (``check``: their names, as
    ``--check``; all by default) until its sequential test decides. Everything (decks,
    baselines, the baselines' cards) is validated before the first game; ``warn`` hears of a
    deck or card changed since its baseline, ``notify`` of each check as it starts."""
    only = _names(renamed(former, "only", "check", check, ()))
    no_other_keywords(former, "balance_check")
    runner = _runner(run)
    path = Path(file)
    with _bad_data_is_bad_input():
        balance = load_balance_file(path)
        checks = _select(balance, only)
        checks_of = games.deck_checks()
        db, csv_path = checks_of.card_db(card_db), checks_of.card_db_file(card_db)
        plan: list[tuple[Prepared | PreparedMatch, dict[str, Any] | None, Any]] = []
        replays = ExitStack()
        for c in checks:  # everything is validated before the first game
            item: Prepared | PreparedMatch = (
                _prepare(c, db, warn) if c.vs is None else _prepare_match(c, warn)
            )
            baseline_path = balance.baseline_path(c)
            record = read_baseline(baseline_path, c)
            if record is None and c.max_drop is not None:
                raise UsageError(
                    f"check {c.name!r}: a drift check needs a baseline, and there is none",
                    path=baseline_path,
                    hint=f"record one with `deckkit balance baseline {file} --check '{c.name}'`",
                )
            old: Any = None
            if record is not None and c.max_drop is not None:
                if isinstance(item, PreparedMatch):
                    old = replays.enter_context(_replayed_match(item, record, warn))
                else:
                    old = _replay_factory(item, record, csv_path)
            plan.append((item, record, old))

        results: list[CheckResult] = []
        # One pool of workers for every batch of every check: each batch is a few hundred
        # games, and starting worker processes per batch cost more than its games.
        with replays, shared_pool(runner["workers"]):
            _run_plan(plan, runner, csv_path, results, notify, warn)
    return BalanceResult(path, results)


def _run_plan(
    plan: list[tuple[Prepared | PreparedMatch, dict[str, Any] | None, Any]],
    runner: dict[str, Any],
    csv_path: Path,
    results: list[CheckResult],
    notify: Notify,
    warn: Notify,
) -> None:
    from deckkit.balance.checks import run_band, run_drift

    for item, record, old in plan:
        c = item.check
        changed: tuple[str, ...] = ()
        if record is not None and isinstance(item, PreparedMatch):
            snapshot = record["snapshot"]
            changed = tuple(
                what
                for what, key, text in (
                    ("the file", "deck_file", item.deck_text),
                    ("the opponent's file", "vs_file", item.vs_text),
                )
                if snapshot.get(key, {}).get("sha256") != _sha(text)
            )
        elif record is not None:
            changed = tuple(changed_cards(record["snapshot"], csv_path))
            if record["snapshot"]["deck_file"]["sha256"] != _sha(item.deck_text):
                changed = ("the deck file", *changed)
            if changed:
                warn(f"warning: check {c.name!r}: changed since the baseline: {', '.join(changed)}")
        notify(f"checking {c.name!r} ({c.kind}, budget {c.budget:,})")
        if old is None:
            result = run_band(c, item.factory, **runner)
        else:
            result = run_drift(c, old, item.factory, **runner)
        results.append(replace(result, changed_cards=changed))


def write_reports(
    checks: Sequence[Check],
    directory: Path,
    games: int = REPORT_GAMES,
    *,
    run: RunOptions | None = None,
    card_db: Path | None = None,
    notify: Notify = _silent,
) -> dict[str, str]:
    """Each checked deck's HTML report (as :func:`deckkit.api.pages.write_report`), played with the
    check's settings, as ``DIR/<check>.report.html``; one per deck and policy, however many
    checks share them. Returns check slug -> its page, relative to the directory."""
    from deckkit.api.pages import write_report

    workers = _runner(run)["workers"]
    if card_db is not None:  # the report reads the same database as the checks
        os.environ[CARD_DB_ENV] = str(card_db.resolve())
    done: dict[tuple[Path, str, str | None, tuple[tuple[str, str], ...]], str] = {}
    pages: dict[str, str] = {}
    for c in checks:
        if c.vs is not None:  # a party's or team's page is `deckkit report FILE --vs OPPONENT`
            continue
        key = (c.deck, c.policy, c.edition, c.rules)
        if key in done:
            pages[c.slug] = done[key]
            continue
        done[key] = pages[c.slug] = f"{c.slug}.report.html"
        options = (run or RunOptions()).but(
            games=games,
            seed=c.seed,
            workers=workers,
            policy=c.policy,
            edition=c.edition,
            players=c.players,
            turn_cap=c.turn_cap,
            rules=c.rule_args,
        )
        written = write_report(
            c.deck,
            options,
            directory / f"{c.slug}.report.html",
            allow_illegal=True,
            force=True,
            notify=notify,
        )
        if written.sidecar is not None:
            notify(f"report: {written.page}")
            notify(f"numbers: {written.sidecar}")
    return pages


def write_summary_page(outcome: BalanceResult, directory: Path, pages: dict[str, str]) -> Path:
    """The balance summary page in ``directory``, linking each check's report page."""
    from deckkit.report.balance_page import write_summary

    return write_summary(
        outcome.results,
        directory,
        source=str(outcome.file),
        exit_code=outcome.exit_code,
        pages=pages,
    )


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def exit_code(results: Sequence[CheckResult]) -> int:
    """0 all pass, 1 any fails, 3 any inconclusive and none fails."""
    if any(r.verdict == "fail" for r in results):
        return EXIT_FAIL
    if any(r.verdict == "inconclusive" for r in results):
        return EXIT_INCONCLUSIVE
    return EXIT_PASS
