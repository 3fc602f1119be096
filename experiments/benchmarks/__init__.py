"""Benchmarks: see :mod:`experiments`."""
