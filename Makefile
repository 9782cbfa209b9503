# The two commands a newcomer needs: `make demo` and `make test`.
# Each creates the project's virtual environment when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/deckkit validate decks/demo-solo.deck
	$(BIN)/deckkit simulate decks/demo-solo.deck --games 2000 --seed 1 --workers 2

test: $(STAMP)
	$(BIN)/ruff check deckkit tests tools benchmarks
	$(BIN)/mypy
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check deckkit tests tools benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_simulate.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
