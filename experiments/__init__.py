"""Scripts that reproduce simkit's committed results; not part of the installed package.

Every script runs from the repository root as ``python -m experiments.<role>.<name> --help``:

* ``benchmarks``: standing speed benchmarks (``results/bench``; ``make bench``);
* ``pipelines``: what regenerates shipped data (``simkit/data``) and committed results
  (``results/``);
* ``studies``: one question each, with its results file (``docs/studies.md``).

What they share lives in :mod:`experiments.support`; no script imports another.
"""
