# The two commands of the README: `make run` and `make test`. Everything else is for developers.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
DB     ?= var/tablebank.sqlite

.PHONY: run test test-sqlite test-postgres check install install-test clean

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

check: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/ruff check ledger schemas api tests
	$(BIN)/ruff format --check ledger schemas api tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
