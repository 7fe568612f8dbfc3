# railbook: `make build` installs into .venv and builds every title; `make test` lints and tests.
# The interpreter .venv is made from: the system's CPython when it is 3.11 or newer and can make virtual
# environments, else `python3` on PATH.  Distributions build their CPython with profile-guided and link-time
# optimisation and link it statically; on a plain source build (pyenv's default) a replay executes 8-9% more
# instructions and takes 10-20% more time (docs/PERFORMANCE.md, "The interpreter").
# Choose another with `make build PY=python3.12`.
SYSTEM_PY := /usr/bin/python3
PY ?= $(shell $(SYSTEM_PY) -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' \
	>/dev/null 2>&1 && echo $(SYSTEM_PY) || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test lint bench bench-replay bench-instructions install compile render schema clean

# The editable install registers the package only (RAILBOOK_PURE_BUILD=1: pip would compile the engine silently, in
# a temporary folder); `make install` then compiles it in place, where it compiles again only what changed.
$(STAMP): pyproject.toml setup.py
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet 'setuptools>=77' wheel
	RAILBOOK_PURE_BUILD=1 $(BIN)/pip install --quiet --no-build-isolation -e '.[dev]'
	touch $(STAMP)

# Byte-compile the package as pip does for a regular install (an editable one leaves it to the first run), so that
# commands start without compiling their modules where PYTHONDONTWRITEBYTECODE is set (many CI and container
# images): `railbook replay` starts in 0.17-0.20 s of CPU with byte code, 0.29-0.33 s without.  Only files changed
# since are compiled again.
PACKAGE_DIRS := railbook compiler engine render routes interop params games schemas

# Then compile the engine's hot modules again where their sources or .pxd files changed (setup.py; one line per
# module compiled; a fresh build compiles them all, in parallel).  Where that cannot be done the engine runs as
# plain Python, and one line says why; an engine module edited since it was compiled makes the engine run as Python,
# and say so, until `make install` (README.md, "The compiled build").
install: $(STAMP)
	$(BIN)/python -m compileall -q -j 0 $(PACKAGE_DIRS)
	$(BIN)/python setup.py -q build_ext --inplace

build: install
	$(BIN)/railbook compile --out output
	$(BIN)/railbook render --out output

compile: install
	$(BIN)/railbook compile --out output

render: install
	$(BIN)/railbook render --out output

schema: install
	$(BIN)/railbook schema

lint: install
	$(BIN)/ruff check railbook compiler engine render routes interop params tests benchmarks setup.py
	$(BIN)/ruff format --check railbook compiler engine render routes interop params tests benchmarks setup.py

test: lint
	$(BIN)/pytest

# BASELINE=/path/to/python: replay figures side by side with that interpreter's installation
bench: install
	RAILBOOK_BENCH_BASELINE=$(BASELINE) $(BIN)/python -m benchmarks

# only the side-by-side replay comparison (CPU us per kept action, per title) with BASELINE; TITLES=1817,1846 to
# time only those titles' records
bench-replay: install
	RAILBOOK_BENCH_BASELINE=$(BASELINE) RAILBOOK_BENCH_ONLY_COMPARE=1 RAILBOOK_BENCH_TITLES=$(TITLES) \
		$(BIN)/python -m benchmarks replay

# machine instructions per kept action (callgrind; minutes), side by side with BASELINE when given: the comparison a
# shared, noisy machine cannot disturb; TITLES=1817,1846 for only those titles
bench-instructions: install
	RAILBOOK_BENCH_BASELINE=$(BASELINE) RAILBOOK_BENCH_TITLES=$(TITLES) $(BIN)/python -m benchmarks instructions

clean:
	rm -rf output build $(VENV) .pytest_cache .ruff_cache
	find engine -name '*.so' -delete
