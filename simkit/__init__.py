"""simkit: Monte Carlo simulation and rule-balance research for 十三水 (Thirteen Water).

The pipeline, one module a stage:
``cards → variants → deal → evaluate → specials → arrange → score → simulate → tables/plots``.
"""

from simkit.cards import format_cards, parse_cards
from simkit.deal import deal
from simkit.evaluate import Category, category_of, rank3, rank5
from simkit.variants import Variant, VariantError, load_variant, variant_names

__version__ = "0.1.0"

__all__ = [
    "Category",
    "Variant",
    "VariantError",
    "__version__",
    "category_of",
    "deal",
    "format_cards",
    "load_variant",
    "parse_cards",
    "rank3",
    "rank5",
    "variant_names",
]
