# tdsystem: `make run` starts everything on embedded defaults; `make test` runs the suite.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
# make run listens on every address (0.0.0.0:8000, or WEB_BIND); ADDR=127.0.0.1:8000 make run
# keeps it to this machine.
ADDR ?=
ADDR_ARG := $(if $(ADDR),--addr $(ADDR))

.PHONY: install install-run run dev worker beat web test lint format bench ci clean messages translations

# Everything, tests and tools included (make test, make dev, make lint).
install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $(VENV)/.installed-run $@

# What the running system needs, and no more: make run on a venue laptop does not wait for
# the browser-test and lint tools.
install-run: $(VENV)/.installed-run

$(VENV)/.installed-run: requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $@

run: install-run
	$(PY) manage.py migrate --noinput
	$(PY) manage.py loaddemo
	$(PY) manage.py runsystem --stop-with-parent $(ADDR_ARG)

# For developers: the autoreloading development server (DEBUG on) with the worker and beat.
dev: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py loaddemo
	$(PY) manage.py runsystem --dev --stop-with-parent $(ADDR_ARG)

web: install
	$(PY) manage.py runserver $(or $(ADDR),127.0.0.1:8000)

worker: install-run
	$(PY) -m celery -A tdsystem.celery worker --pool=threads --loglevel=INFO

beat: install-run
	$(PY) -m celery -A tdsystem.celery beat --loglevel=INFO --schedule=var/celerybeat-schedule

# The suite runs in TEST_PROCESSES processes at once (pytest-xdist), each with its own test
# database and broker (settings.py); TEST_PROCESSES=0 runs it in this one process. A
# process out of tests takes half of another's (worksteal), so the run does not end on
# one process's queue. Three processes on two cores fill the cores' waits on browsers,
# servers and workers (the runs and their figures: docs/load-and-faults.md).
TEST_PROCESSES ?= 3

# Tests marked `slow` (whole-system runs of minutes each: make run's process ownership,
# the venue-network run, the laptop swap; the festival's browser journey, an import into a
# fresh installation) are left out unless SLOW=1; the crash test and
# the fault tests of the clock, the database and the broker always run. The fifteen
# slowest are listed at the end, to keep an eye on the run's length.
SLOW ?=
test: install
	$(PY) -m pytest -n $(TEST_PROCESSES) --dist worksteal $(if $(SLOW),,-m "not slow") --durations=15 $(PYTEST_ARGS)

# Kept clean by mypy (django-stubs): the engine (strictly), the services, core, the API and
# the players' pages' push process.
MYPY_FILES := tdsystem/engine $(wildcard tdsystem/*/services.py tdsystem/*/services/) \
	$(wildcard tdsystem/core/*.py) tdsystem/api tdsystem/players/push.py

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy $(MYPY_FILES)
	$(VENV)/bin/lint-imports --no-cache
	$(PY) manage.py makemigrations --check --dry-run

# The catalogues of ar, ja and vi updated from the code and compiled (needs GNU gettext).
messages: install
	PY=$(PY) bash .ci/messages

# CI's check: every message translated, none fuzzy, none new, the .mo files compiled.
translations: install
	PY=$(PY) bash .ci/check-translations

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# SOAK=1: the festival-day soak instead (benchmarks/soak.py), MINUTES long (15), with
# SOAK_ARGS passed on (e.g. SOAK_ARGS="--scale 0.1"); docs/load-and-faults.md.
MINUTES ?= 15
bench: install
	$(PY) benchmarks/run.py $(if $(SOAK),--soak --minutes $(MINUTES) $(SOAK_ARGS))

ci:
	bash .ci/run

clean:
	rm -rf var/test-*.sqlite3* var/screenshots var/screenshots.tar.gz .pytest_cache
