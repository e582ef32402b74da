# The two commands of the README: `make run` and `make test`. Everything else is for developers.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# The table's network, so the players' phones reach it; `make run HOST=127.0.0.1` keeps it local.
HOST   ?= 0.0.0.0
PORT   ?= 8000
DB     ?= var/tablebank.sqlite

.PHONY: run test test-sqlite test-postgres coverage check check-console install install-test clean bench fuzz \
	stress pocket bench-pocket

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installed once, and again only when pyproject.toml changes (the install is editable: a change
# of the code needs none), so that `make run` starts in seconds.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,postgres]'
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

run: install
	$(BIN)/tablebank serve --host $(HOST) --port $(PORT) --db $(DB)

# The whole suite, spread over the machine's cores (pytest-xdist): every test once, and the
# tests of what a store can break once on each store of the matrix, SQLite and PostgreSQL (at
# $$TABLEBANK_TEST_POSTGRES, see .ci/run); docs/testing.md says which is which. Prints the wall
# time and the 15 slowest tests. TEST_ARGS passes more, e.g. `make test TEST_ARGS="-k rent"`;
# `make test-sqlite` or `make test-postgres` runs the matrix on one store.
STORES     ?= sqlite,postgres
TEST_CORES ?= auto
TEST_ARGS  ?=
test: install-test
	@start=$$(date +%s); \
	$(BIN)/lint-imports && \
	$(BIN)/python -m pytest --store=$(STORES) -n $(TEST_CORES) --dist worksteal --durations=15 \
		$(TEST_ARGS); \
	status=$$?; echo "make test: $$(( $$(date +%s) - start )) s wall time"; exit $$status

test-sqlite test-postgres: test-%: install-test
	$(BIN)/python -m pytest --store=$* -n $(TEST_CORES) --durations=15 $(TEST_ARGS)

# Line and branch coverage of ledger/, schemas/ and api/ over the whole suite as `make test` runs
# it, measured in the test processes (not in the servers the end-to-end tests start): the total
# and the lines missed per file; `coverage html` reads .coverage further.
coverage: install-test
	$(BIN)/python -m pip install --quiet 'pytest-cov>=6,<8'
	$(BIN)/python -m pytest --store=$(STORES) -n $(TEST_CORES) -q --cov=ledger --cov=schemas \
		--cov=api --cov-branch --cov-report=term-missing:skip-covered $(TEST_ARGS)

# The benchmarks of docs/performance.md on SQLite and PostgreSQL (at $$TABLEBANK_BENCH_POSTGRES,
# else the tests' database): prints the table, writes benchmarks/results/latest.json.
# BENCH_ARGS passes options, e.g. `make bench BENCH_ARGS=--quick` or `BENCH_ARGS="--stores sqlite"`.
bench: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[postgres,bench]'
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

# The long run of every property (hypothesis's `fuzz` profile, tests/profiles.py: ten times the
# examples of `make test`, longer walks of the state machines), with schemathesis sending
# FUZZ_EXAMPLES random requests per operation and its coverage phase (every boundary), on
# FUZZ_STORE (sqlite or postgres). 300 schemathesis examples alone took 4.5 min on SQLite.
FUZZ_EXAMPLES ?= 500
FUZZ_STORE    ?= sqlite
fuzz: install-test
	TABLEBANK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest \
		--store=$(FUZZ_STORE) -n $(TEST_CORES) -m hypothesis --durations=15 $(TEST_ARGS)

# The console's browser tests wider than the cores (STRESS_CORES processes, 4 on this project's
# 2-core machine), STRESS_RUNS times over, stopping at the first run that fails: a race of the
# console shows sooner on a loaded machine. Run it before any change of the console's timing
# (docs/testing.md, "Races").
STRESS_RUNS  ?= 3
STRESS_CORES ?= 4
stress: install-test
	@for run in $$(seq $(STRESS_RUNS)); do \
		echo "make stress: run $$run of $(STRESS_RUNS), $(STRESS_CORES) processes"; \
		$(BIN)/python -m pytest -n $(STRESS_CORES) --dist worksteal -q tests/e2e/test_console*.py \
			$(TEST_ARGS) || exit $$?; \
	done; echo "make stress: $(STRESS_RUNS) runs passed"

# The pocket bundle, dist/pocket/: the bank in the banker's browser (docs/pocket.md). Needs
# Node.js and npm (Pyodide's npm package, pinned in tools/pocket); a build of the same inputs is
# copied from the one kept in ~/.cache/tablebank/pocket.
pocket: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[pocket]'
	$(BIN)/python tools/pocket/build.py

# The pocket bank's benchmark (docs/performance.md, "The pocket bank"): the bundle built, then
# served by a plain static file server and driven in chromium at CPU x1 and x4 (Playwright: the
# test extra); prints the table, writes benchmarks/results/pocket.json. About 10 minutes.
# BENCH_ARGS passes options, e.g. `make bench-pocket BENCH_ARGS=--quick` or "--rates 1".
bench-pocket: install-test pocket
	$(BIN)/python -m benchmarks.pocket $(BENCH_ARGS)

# The dev extra holds the test extras too: `make test` after it installs nothing again.
check: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed-test
	$(BIN)/ruff check ledger schemas api tablebank tests
	$(BIN)/ruff format --check ledger schemas api tablebank tests
	$(BIN)/mypy
	$(MAKE) --no-print-directory check-console

# The console's JavaScript type-checked by TypeScript from its JSDoc (checkJs; no build step for
# the console), none of its functions over 60 lines and each said in its JSDoc (functions.mjs):
# tools/console-check pins TypeScript, installed there by npm ci (from the registry or npm's
# cache) when its lock is newer than what is installed. Needs Node.js and npm.
CONSOLE_CHECK := tools/console-check
check-console:
	@command -v node >/dev/null && command -v npm >/dev/null || { echo "make check-console" \
		"needs Node.js and npm (Debian: apt-get install nodejs npm; .ci/run installs them)" >&2; \
		exit 1; }
	@cd $(CONSOLE_CHECK) && { [ node_modules/.package-lock.json -nt package-lock.json ] || \
		npm ci --ignore-scripts --no-audit --no-fund --silent; }
	node $(CONSOLE_CHECK)/node_modules/typescript/bin/tsc -p $(CONSOLE_CHECK)
	node $(CONSOLE_CHECK)/functions.mjs

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
