# The README's two commands, `make report` and `make test`, are the whole set-up:
# each bootstraps .venv (once, and again when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Compiled kernels go to numba's default cache (__pycache__ beside the sources), the one a plain
# `simkit` call uses too: no second compile after `make`.

.PHONY: test lint report bench clean docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

lint: $(STAMP)
	$(PY) -m ruff check simkit tests experiments
	$(PY) -m mypy

test: lint
	$(PY) -m pytest -q -n 2 --dist loadfile

report: $(STAMP)
	$(PY) -m simkit report --out results/report --overwrite

bench: $(STAMP)
	$(PY) -m experiments.benchmarks.bench_rank
	$(PY) -m experiments.benchmarks.bench_specials
	$(PY) -m experiments.benchmarks.bench_score
	$(PY) -m experiments.benchmarks.bench_arrange
	$(PY) -m experiments.benchmarks.bench_simulate

docs: $(STAMP)
	$(PY) -m simkit variants docs --out docs/variants.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
