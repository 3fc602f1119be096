"""simkit: Monte Carlo simulation and rule-balance research for 十三水 (Thirteen Water).

The pipeline, one module a stage:
``cards → variants → deal → evaluate → specials → arrange → score → simulate → tables/plots``.

>>> import simkit
>>> hands = simkit.deal(1000, 4, rng=1)
>>> arranged, declared = simkit.arrange(hands, "guangxi", "greedy")
>>> bool((simkit.score(arranged, "guangxi", declared=declared).sum(axis=1) == 0).all())
True
"""

from simkit.arrange import (
    WinTables,
    arrange,
    arrange_variants,
    default_tables,
    legal_splits,
    pareto_front,
)
from simkit.cards import format_cards, parse_cards
from simkit.deal import deal
from simkit.evaluate import Category, category_of, rank3, rank5
from simkit.exact import compare_with_exact, exact_tables, special_probabilities
from simkit.report import build_report
from simkit.score import COMPONENTS, fouled, pair_points, score
from simkit.simulate import SimulationResult, load_result, simulate
from simkit.specials import best_special, detect_specials, special_names
from simkit.train import duplicate_match, train
from simkit.variants import Variant, VariantError, load_variant, variant_names

__version__ = "0.1.0"

__all__ = [
    "COMPONENTS",
    "Category",
    "SimulationResult",
    "Variant",
    "VariantError",
    "WinTables",
    "__version__",
    "arrange",
    "arrange_variants",
    "best_special",
    "build_report",
    "category_of",
    "compare_with_exact",
    "deal",
    "default_tables",
    "detect_specials",
    "duplicate_match",
    "exact_tables",
    "format_cards",
    "fouled",
    "legal_splits",
    "load_result",
    "load_variant",
    "pair_points",
    "pareto_front",
    "parse_cards",
    "rank3",
    "rank5",
    "score",
    "simulate",
    "special_names",
    "special_probabilities",
    "train",
    "variant_names",
]
