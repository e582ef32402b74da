# The two commands of the README: `make run` and `make test`. Everything else is for developers.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# The table's network, so the players' phones reach it; `make run HOST=127.0.0.1` keeps it local.
HOST   ?= 0.0.0.0
PORT   ?= 8000
DB     ?= var/tablebank.sqlite

.PHONY: run test test-sqlite test-postgres check install install-test clean bench fuzz

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,postgres]'

run: install
	$(BIN)/tablebank serve --host $(HOST) --port $(PORT) --db $(DB)

# The whole suite on each real store, both runs at once (the PostgreSQL run mostly waits on the
# database), each run's output shown whole when it ends. PostgreSQL at $$TABLEBANK_TEST_POSTGRES
# (see .ci/run); `make test-sqlite` or `make test-postgres` runs one.
test: install-test
	$(BIN)/lint-imports
	$(MAKE) --no-print-directory --output-sync=target -j2 test-sqlite test-postgres

test-sqlite test-postgres: test-%: $(BIN)/python
	$(BIN)/python -m pytest --store=$*

# The benchmarks of docs/performance.md on SQLite and PostgreSQL (at $$TABLEBANK_BENCH_POSTGRES,
# else the tests' database): prints the table, writes benchmarks/results/latest.json.
# BENCH_ARGS passes options, e.g. `make bench BENCH_ARGS=--quick` or `BENCH_ARGS="--stores sqlite"`.
bench: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[postgres,bench]'
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

# Schemathesis over every operation of the OpenAPI document, far longer than `make test` runs it:
# FUZZ_EXAMPLES random requests per operation and the coverage phase (every boundary), on
# FUZZ_STORE (sqlite or postgres). 300 examples took 4.5 min on SQLite, 9 min on PostgreSQL.
FUZZ_EXAMPLES ?= 500
FUZZ_STORE    ?= sqlite
fuzz: install-test
	TABLEBANK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest --store=$(FUZZ_STORE) \
		tests/api/test_schemathesis.py

check: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/ruff check ledger schemas api tests
	$(BIN)/ruff format --check ledger schemas api tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
