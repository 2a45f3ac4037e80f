# Haven: `make run` serves the API on http://127.0.0.1:8000, `make test` runs the tests.
# Both create .venv and install the project on first use; SQLite, an in-memory cache and
# in-process Celery unless DATABASE_URL / REDIS_URL say otherwise (README.md).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.haven-installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Local mode (config/secret_settings.py, docs/secrets-and-names.md): SECRET_KEY and
# DAILY_SECRET not in the environment are made at random on the first start and kept in
# local-secrets.json (mode 0600). Production sets both and leaves HAVEN_LOCAL unset.
export HAVEN_LOCAL ?= 1

.PHONY: run dev test lint format install native migrate daily worker beat schema docs clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall when the dependency list changes.
$(STAMP): pyproject.toml | $(PY)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[test]'
	@touch $(STAMP)

# The gettext catalogues (config/locale: the error catalogue; games/locale: the presets;
# */LC_MESSAGES/django.po → .mo) are compiled in pure Python (Babel), so no GNU gettext is
# needed; only stale ones are rewritten.
install: $(STAMP) native
	@$(PY) manage.py compile_translations

# The native prover (native/, Rust, no crates to download): built when cargo is here,
# else skipped, and the solver goes on without it (games/solver/native.py).
CARGO ?= $(shell command -v cargo 2>/dev/null || ls $(HOME)/.cargo/bin/cargo 2>/dev/null)
native:
ifneq ($(strip $(CARGO)),)
	@$(CARGO) build --quiet --release --manifest-path native/Cargo.toml
else
	@echo "cargo not found: the native prover is not built (optional; see README)"
endif

# Then the published winnability results (data/winnability.csv, shown by /api/v1/presets),
# once: a database that has them already is left alone.
migrate: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py winnability --import data/winnability.csv --if-empty --no-progress

# Today's daily deals, if the prepare_daily command is installed.
daily: migrate
	@if $(PY) manage.py help prepare_daily >/dev/null 2>&1; then \
		$(PY) manage.py prepare_daily --days 1; \
	else \
		echo "prepare_daily not available: skipping the daily deals"; \
	fi

# gunicorn with the repository's gunicorn.conf.py, as docker-compose runs it (on SQLite one
# process of 8 threads: docs/embedded-mode.md); `make dev` is Django's reloading runserver.
run: daily
	@echo "The web client: http://$(HOST):$(PORT)/play/"
	GUNICORN_BIND=$(HOST):$(PORT) $(VENV)/bin/gunicorn -c gunicorn.conf.py config.wsgi:application

dev: daily
	$(PY) manage.py runserver $(HOST):$(PORT)

# The fault tests (tests/faults) start, kill and hang servers of their own; run alone after
# the rest, so what they break never reaches another test's clients (in one process the
# winnability worker tests and the edge test met a killed Redis or database there).
test: install
ifeq ($(strip $(PYTEST_ARGS)),)
	$(PY) -m pytest --ignore=tests/faults
	$(PY) -m pytest tests/faults
else
	$(PY) -m pytest $(PYTEST_ARGS)
endif

# Ruff, mypy --strict on the game library ([tool.mypy] in pyproject.toml), the import
# contract ([tool.importlinter], its "no import circle" contract in tools/import_cycles.py;
# ARCHITECTURE.md) and the same bar for the native prover's modules (tests/lint).
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -q -p no:cacheprovider tests/lint

format: install
	$(VENV)/bin/ruff format .

# The documentation site: docs/ as configured in mkdocs.yml, built strictly (a broken link,
# anchor or nav entry fails) into site/ (git-ignored). Needs no network once installed: no
# fonts, no CDN, no privacy or social plugin. `make run` does not build it.
DOCS_STAMP := $(VENV)/.haven-docs-installed
$(DOCS_STAMP): pyproject.toml | $(PY)
	$(PIP) install -q -e '.[docs]'
	@touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

worker: install
	$(VENV)/bin/celery -A config worker --loglevel=INFO

beat: install
	$(VENV)/bin/celery -A config beat --loglevel=INFO

schema: install
	$(PY) manage.py spectacular --validate --file schema.yaml

clean:
	rm -rf $(VENV) site .pytest_cache .ruff_cache .hypothesis .mypy_cache .import_linter_cache
