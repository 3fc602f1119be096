# The README's two commands, `make report` and `make test`, are the whole set-up:
# each bootstraps .venv (once, and again when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.installed-docs
PYTEST := $(PY) -m pytest -q -n 2 --dist loadfile
# Compiled kernels go to numba's default cache (__pycache__ beside the sources), the one a plain
# `simkit` call uses too: no second compile after `make`.

.PHONY: test test-slow test-all lint warm report bench clean docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

$(DOCS_STAMP): $(STAMP)
	$(PY) -m pip install -q -e ".[dev,docs]"
	touch $(DOCS_STAMP)

lint: $(STAMP)
	$(PY) -m ruff check simkit tests experiments docs/hooks.py docs/griffe_doctests.py
	$(PY) -m mypy

# Compile every kernel once, families side by side in two processes, before pytest starts its
# two workers: each worker would otherwise compile the kernels the other is compiling.  Where
# the kernels are compiled already it only loads them (seconds).
warm: $(STAMP)
	$(PY) -m simkit.kernel_cache --jobs 2

# The fast tier: every test not marked slow (tests/conftest.py has the hypothesis profiles).
test: lint warm
	$(PYTEST) -m "not slow"

# The slow tier alone: exhaustive scans, statistical tests, notebooks, the tutorials.
test-slow: warm
	$(PYTEST) -m slow

test-all: test test-slow

report: $(STAMP)
	$(PY) -m simkit report --out results/report --overwrite

bench: $(STAMP)
	$(PY) -m experiments.benchmarks.bench_rank
	$(PY) -m experiments.benchmarks.bench_specials
	$(PY) -m experiments.benchmarks.bench_score
	$(PY) -m experiments.benchmarks.bench_arrange
	$(PY) -m experiments.benchmarks.bench_simulate

# The site in site/, warnings as errors; docs/hooks.py regenerates docs/variants.md first.
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site .cache
