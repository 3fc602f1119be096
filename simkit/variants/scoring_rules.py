"""The ``[scoring]`` section of a variant file: how compared duns turn into points.

Filled in by the scoring engine; until then a variant's scoring is the plain default.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """How a variant pays: placeholder until the scoring section is defined."""

    source: str = ""
