# Deckwright: `make run` sets everything up (with the demo set; `make run DEMO=0` without) and
# serves http://127.0.0.1:8000; `make test` runs the suite.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: install migrate data run test lint typecheck format clean api-fuzz browser proxy worker \
	coverage coverage-install coverage-report

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		(echo "Deckwright needs Python 3.11 or newer as $(PYTHON)"; exit 1)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The engines and agents compiled with mypyc from their own source where a C compiler is (a few
# minutes, once per change of the engines' source); otherwise, or if the build fails, they run as
# pure Python and the step says so (rules/compiled.py; DECKWRIGHT_ENGINES=python skips it).
install: $(STAMP)
	@$(BIN)/python -W ignore::RuntimeWarning -c 'from rules.compiled import build; build()'

migrate: install
	$(BIN)/python manage.py migrate --noinput

# The demo set (sample decks of every game, an example event) loads unless DEMO=0 is given
# (`make run DEMO=0`) or DECKWRIGHT_DEMO=0 is in the environment.
DEMO ?= $(or $(DECKWRIGHT_DEMO),1)

data: migrate
	$(BIN)/python manage.py load_game_data
	DECKWRIGHT_DEMO=$(DEMO) $(BIN)/python manage.py load_demo

run: data
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# The production setup on this machine (docs/deploy.md): DEBUG=0, collected static files, gunicorn
# on $(HOST):$(PORT) over plain HTTP (DECKWRIGHT_HTTPS=0). Without SECRET_KEY in the environment,
# one is generated once into $(SERVE_DIR)/secret_key and reused. `make serve-proxy` puts nginx in
# front (required where clients are not trusted: it buffers slow ones), gunicorn on $(UPSTREAM_PORT).
SERVE_DIR := $(or $(DECKWRIGHT_DATA_DIR),var)
UPSTREAM_PORT ?= 8001
define SERVE_PREPARE
	mkdir -p $(SERVE_DIR); \
	if [ -z "$$SECRET_KEY" ]; then \
		if [ ! -s $(SERVE_DIR)/secret_key ]; then \
			(umask 077; $(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))' > $(SERVE_DIR)/secret_key); \
			echo "SECRET_KEY was unset: generated one into $(SERVE_DIR)/secret_key (kept for next time)"; \
		else echo "SECRET_KEY is unset: using the one in $(SERVE_DIR)/secret_key"; fi; \
		SECRET_KEY=$$(cat $(SERVE_DIR)/secret_key); export SECRET_KEY; \
	fi; \
	export DEBUG=0 DECKWRIGHT_HTTPS=$${DECKWRIGHT_HTTPS:-0}; \
	$(BIN)/python manage.py migrate --noinput && \
	$(BIN)/python manage.py load_game_data && \
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
endef

.PHONY: serve serve-proxy
# Live tables' WebSockets go to daphne on $(WS_PORT) (gunicorn's threads keep serving HTTP):
# the pages open them there (DECKWRIGHT_WEBSOCKET_URL); behind nginx, /ws/ is passed to it.
WS_PORT ?= 8002
serve: install
	@$(SERVE_PREPARE) && \
	echo "Serving http://$(HOST):$(PORT)/ with gunicorn (DEBUG=0), WebSockets with daphne on $(WS_PORT); Ctrl-C stops them" && \
	{ $(BIN)/daphne -b $(HOST) -p $(WS_PORT) deckwright.asgi:application & daphne=$$!; \
	trap 'kill $$daphne 2>/dev/null' EXIT INT TERM; \
	DECKWRIGHT_WEBSOCKET_URL=$${DECKWRIGHT_WEBSOCKET_URL:-ws://$(HOST):$(WS_PORT)} \
	$(BIN)/gunicorn -c deckwright/gunicorn.conf.py --bind $(HOST):$(PORT); }

serve-proxy: install
	@$(SERVE_PREPARE) && \
	exec $(BIN)/python manage.py serve_proxy --listen $(HOST):$(PORT) --upstream 127.0.0.1:$(UPSTREAM_PORT) --websocket-upstream 127.0.0.1:$(WS_PORT)

# A Celery worker for simulation jobs (matchups included); it needs CELERY_BROKER_URL (and so does
# `make run`, to use it).
worker: migrate
	@test -n "$$CELERY_BROKER_URL" || { echo "Set CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0) first"; exit 1; }
	$(BIN)/celery -A deckwright worker --loglevel=INFO --concurrency=$${WORKER_CONCURRENCY:-1}

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Static types of the whole tree, with Django's and DRF's mypy plugins (the files and settings:
# [tool.mypy] in pyproject.toml); .mypy_cache keeps a second run quick.
typecheck: install
	$(BIN)/mypy

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Browser tests (tests/web, marker `browser`) drive Debian's chromium through Playwright.
CHROMIUM ?= /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { \
		echo "Installing Debian's chromium for the browser tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The reverse proxy's tests (tests/test_proxy.py) run a private nginx: Debian's nginx-light.
NGINX ?= $(or $(shell command -v nginx 2>/dev/null),/usr/sbin/nginx)
proxy:
	@test -x $(NGINX) || { \
		echo "Installing Debian's nginx-light for the reverse proxy and its tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; }

# The suite runs in a process per core (pytest-xdist), each test file whole in one process
# (--dist loadfile: its module fixtures are built once, its Redis database is its own, and a
# transactional test's flush is mended before the next database test: tests/conftest.py).
# TEST_WORKERS=0 runs it in this one process, as CI's SQLite pass does beside the PostgreSQL
# pass on the other core (.ci/run); any number sets the processes.
TEST_WORKERS ?= auto
test: lint typecheck browser proxy
	$(BIN)/python manage.py makemigrations --check --dry-run >/dev/null || \
		(echo "Models changed without a migration: run manage.py makemigrations"; exit 1)
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile

# Lines of the project's packages the suite runs (coverage.py; settings in [tool.coverage.*] of
# pyproject.toml), on pure-Python engines (compiled modules cannot be traced) and SQLite unless
# DATABASE_URL says otherwise (CI's PostgreSQL pass is this target); PYTEST_ARGS narrows the run
# (`make coverage PYTEST_ARGS=tests/rules`). It runs on Python 3.12 or newer where one is found,
# in its own environment $(COVERAGE_VENV), with coverage.py on sys.monitoring
# (COVERAGE_CORE=sysmon: a line is reported once, then no longer costs anything; 0-5% on the
# suite). Without one it runs in $(VENV) on $(PYTHON) with coverage.py's C tracer, which calls
# back on every line run: about 70% more CPU on the engines' playouts (docs/testing.md).
PYTEST_ARGS ?=
# The first interpreter that runs and is 3.12 or newer: python3.12, python3.13 on the PATH, then
# pyenv's installed versions (its shims answer only for the selected version). Empty if none.
ifndef COVERAGE_PYTHON
COVERAGE_PYTHON := $(shell for p in python3.12 python3.13 \
	$$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[2-9]*/bin/python3 2>/dev/null); do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && \
	$$p -c 'import sys; print(sys.executable)' && break; done)
endif
COVERAGE_VENV := $(if $(COVERAGE_PYTHON),.venv-coverage,$(VENV))
COVERAGE_BIN := $(COVERAGE_VENV)/bin
COVERAGE_CORE_SETTING := $(if $(COVERAGE_PYTHON),COVERAGE_CORE=sysmon,)

.venv-coverage/.installed-stamp: pyproject.toml
	test -x .venv-coverage/bin/python || $(COVERAGE_PYTHON) -m venv .venv-coverage
	.venv-coverage/bin/python -m pip install --quiet --upgrade pip
	.venv-coverage/bin/python -m pip install --quiet -e ".[dev]"
	touch $@

coverage-install: $(COVERAGE_VENV)/.installed-stamp

coverage: coverage-install browser proxy
	@echo "== coverage: $$($(COVERAGE_BIN)/python -c 'import sys; print(sys.version.split()[0])') \
	in $(COVERAGE_VENV), $(or $(COVERAGE_CORE_SETTING),C tracer (no Python 3.12 or newer found)) =="
	DECKWRIGHT_ENGINES=python $(COVERAGE_CORE_SETTING) $(COVERAGE_BIN)/coverage run \
		-m pytest -p no:cacheprovider $(PYTEST_ARGS)
	@$(MAKE) --no-print-directory coverage-report

# The floor (docs/testing.md, *Coverage*): the engines (rules/engines: the core and the five games)
# and the services (the apps' services and selectors, deck validation and the simulation lab,
# which rules/lab/__init__.py names service code) at least COVERAGE_FLOOR% of their lines, each
# set as a whole; the whole tree's figure is printed beside them. It reads the .coverage file
# the last `coverage run` wrote, and fails when either set is below the floor.
COVERAGE_FLOOR ?= 90
COVERAGE_ENGINES := rules/engines/*
COVERAGE_SERVICES := */services.py,*/selectors.py,decks/validation/*,rules/lab/*
coverage-report:
	@echo "== coverage: whole tree (lines) =="
	@$(COVERAGE_BIN)/coverage report | grep '^TOTAL'
	@status=0; \
	echo "== coverage: engines ($(COVERAGE_ENGINES)), at least $(COVERAGE_FLOOR)% =="; \
	$(COVERAGE_BIN)/coverage report --include='$(COVERAGE_ENGINES)' --skip-covered --sort=cover \
		--fail-under=$(COVERAGE_FLOOR) || status=1; \
	echo "== coverage: services ($(COVERAGE_SERVICES)), at least $(COVERAGE_FLOOR)% =="; \
	$(COVERAGE_BIN)/coverage report --include='$(COVERAGE_SERVICES)' --skip-covered --sort=cover \
		--fail-under=$(COVERAGE_FLOOR) || status=1; \
	exit $$status

# Schemathesis against the live OpenAPI schema, 100 generated requests per operation (~3 min).
api-fuzz: install
	SCHEMATHESIS_EXAMPLES=$${SCHEMATHESIS_EXAMPLES:-100} $(BIN)/pytest -p no:cacheprovider tests/api/test_schemathesis.py

clean:
	rm -rf $(VENV) .venv-coverage var .pytest_cache .hypothesis .coverage htmlcov
