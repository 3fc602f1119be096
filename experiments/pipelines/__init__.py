"""Pipelines: see :mod:`experiments`."""
