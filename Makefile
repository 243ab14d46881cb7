PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup run test flaky migrate bench lint clean

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

.PHONY: browser
# Chromium for the browser tests (tests/browser), from Debian, when it is missing; in CI a missing
# Chromium fails the run (outside CI the browser tests are skipped with a notice). The Noto fonts
# draw the Bengali and Devanagari pages and the chat's reaction faces (Debian's Chromium brings none).
browser:
	@test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium) || \
	  { test -z "$(filter true 1 yes,$(CI))" && echo "NOTICE: Chromium could not be installed; the browser tests will be skipped"; }
	@fc-list :lang=bn | grep -q . && fc-list :lang=hi | grep -q . && fc-list | grep -q NotoColorEmoji || \
	  (apt-get update && apt-get install -y fonts-noto-core fonts-noto-color-emoji) || \
	  { test -z "$(filter true 1 yes,$(CI))" && echo "NOTICE: the Noto fonts could not be installed; Bengali, Hindi and emoji will show boxes"; }

.PHONY: nginx
# nginx for the tests of deploy/nginx (tests/ops/test_nginx.py), from Debian, when it is missing; in CI
# a missing nginx fails the run (outside CI those tests are skipped with a notice).
nginx:
	@test -x /usr/sbin/nginx || (apt-get update && apt-get install -y nginx) || \
	  { test -z "$(filter true 1 yes,$(CI))" && echo "NOTICE: nginx could not be installed; the nginx tests will be skipped"; }

# Outside CI the long runs (marker "slow") are left out; CI=true runs everything.
SLOW := $(if $(filter true 1 yes,$(CI)),,-m "not slow")
# Test files run in parallel, one pytest-xdist worker per core, each file whole on one worker
# (a module's live server and browser are shared by its tests).
JOBS ?= auto
PARALLEL := -n $(JOBS) --dist loadfile

test: setup browser nginx
	$(BIN)/python -m pytest $(PARALLEL) --durations=30 $(SLOW)

# The protocol and browser tests, three times in random orders; reports any test that did not
# pass every time.
RUNS ?= 3
flaky: setup browser nginx
	$(BIN)/python scripts/flaky.py --runs $(RUNS) --jobs $(JOBS) $(SLOW)

lint: setup
	$(BIN)/ruff check app tests bench
	$(BIN)/mypy

bench: setup
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
