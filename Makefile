# railbook: `make build` installs into .venv and builds every title; `make test` lints and tests.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test lint bench install compile render schema clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

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
	$(BIN)/ruff check railbook compiler engine render routes interop tests benchmarks
	$(BIN)/ruff format --check railbook compiler engine render routes interop tests benchmarks

test: lint
	$(BIN)/pytest

bench: install
	$(BIN)/python -m benchmarks

clean:
	rm -rf output $(VENV) .pytest_cache .ruff_cache
