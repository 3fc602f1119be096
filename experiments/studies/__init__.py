"""Studies: see :mod:`experiments`."""
