# Two commands for a fresh machine with Python 3.11+ and make:
#   make run   — install into .venv, migrate, load the demo federation, serve http://127.0.0.1:8000
#   make test  — install into .venv and run the whole test suite
# With DATABASE_URL / CELERY_BROKER_URL unset the site uses SQLite and runs tasks in-process.
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

run: install
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py demo_federation
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py runserver 127.0.0.1:8000

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

# The whole project, as configured in pyproject.toml [tool.mypy] (tests/test_lint.py runs it too).
typecheck: install
	$(BIN)/mypy

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .hypothesis
