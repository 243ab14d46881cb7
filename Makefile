PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup run test migrate bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

migrate: setup
	$(BIN)/cardroom migrate

run: migrate
	$(BIN)/cardroom serve

# Outside CI the long runs (marker "slow") are left out; CI=true runs everything.
SLOW := $(if $(filter true 1 yes,$(CI)),,-m "not slow")

test: setup
	$(BIN)/python -m pytest $(SLOW)

lint: setup
	$(BIN)/ruff check app tests bench
	$(BIN)/mypy

bench: setup
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
