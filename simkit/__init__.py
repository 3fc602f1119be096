"""simkit: Monte Carlo simulation and rule-balance research for 十三水 (Thirteen Water).

The pipeline, one module a stage:
``cards → variants → deal → evaluate → specials → arrange → score → statistics → tables/plots``,
run by ``simulate`` and written up by ``report`` (docs/architecture.md).

>>> import simkit
>>> hands = simkit.deal(1000, 4, rng=1)
>>> arranged, declared = simkit.arrange(hands, "guangxi", "greedy")
>>> bool((simkit.score(arranged, "guangxi", declared=declared).sum(axis=1) == 0).all())
True

``import simkit`` itself imports none of numba, polars or matplotlib: each name below loads its
module on first use (PEP 562), so the command line starts at once.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

# Every public name → the module that defines it.
_EXPORTS = {
    "WinTables": "simkit.arrange",
    "arrange": "simkit.arrange",
    "arrange_variants": "simkit.arrange",
    "default_tables": "simkit.arrange",
    "legal_splits": "simkit.arrange",
    "pareto_front": "simkit.arrange",
    "format_cards": "simkit.cards",
    "parse_cards": "simkit.cards",
    "deal": "simkit.deal",
    "BestSplits": "simkit.describe",
    "best_splits": "simkit.describe",
    "describe_splits": "simkit.describe",
    "SimkitError": "simkit.errors",
    "Category": "simkit.evaluate",
    "category_of": "simkit.evaluate",
    "rank3": "simkit.evaluate",
    "rank5": "simkit.evaluate",
    "compare_with_exact": "simkit.exact",
    "exact_tables": "simkit.exact",
    "special_probabilities": "simkit.exact",
    "regret": "simkit.regret",
    "rollout_values": "simkit.regret",
    "RegretResult": "simkit.regret",
    "build_report": "simkit.report",
    "COMPONENTS": "simkit.score",
    "fouled": "simkit.score",
    "pair_points": "simkit.score",
    "score": "simkit.score",
    "SimulationResult": "simkit.simulate",
    "load_result": "simkit.simulate",
    "simulate": "simkit.simulate",
    "SettingScores": "simkit.setting_scores",
    "expected_scores": "simkit.setting_scores",
    "best_special": "simkit.specials",
    "detect_specials": "simkit.specials",
    "special_names": "simkit.specials",
    "duplicate_match": "simkit.train",
    "train": "simkit.train",
    "Variant": "simkit.variants",
    "VariantError": "simkit.variants",
    "load_variant": "simkit.variants",
    "variant_names": "simkit.variants",
}

__all__ = ["__version__", *sorted(_EXPORTS, key=str.lower)]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("simkit")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":  # read on first use: importlib.metadata is slow to import
        globals()[name] = _version()
        return globals()[name]
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'simkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    """The public API (``__all__``) and the submodules imported so far: not this file's own
    imports (``Any``, ``TYPE_CHECKING``, ``annotations``, ``importlib``, ...)."""
    loaded = {
        name
        for name, value in globals().items()
        if isinstance(value, types.ModuleType) and value.__name__ == f"{__name__}.{name}"
    }
    return sorted(set(__all__) | loaded)


class _Package(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        # Importing a submodule binds it on the package; where the package exports a function
        # of the same name (simkit.arrange, simkit.deal, simkit.regret, simkit.score,
        # simkit.simulate, simkit.train) the function keeps the name, whichever was imported first.
        if isinstance(value, types.ModuleType) and value.__name__ == f"{__name__}.{name}":
            if name in _EXPORTS:
                return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

# numba's cache of every kernel keyed by the simkit modules it imports, not its own file alone
# (installed when numba's caching loads: importing simkit imports no numba).
from simkit.kernel_source import install_when_numba_loads  # noqa: E402

install_when_numba_loads()


if TYPE_CHECKING:  # the same names, eagerly, for type checkers and editors
    __version__: str
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
    from simkit.describe import BestSplits, best_splits, describe_splits
    from simkit.errors import SimkitError
    from simkit.evaluate import Category, category_of, rank3, rank5
    from simkit.exact import compare_with_exact, exact_tables, special_probabilities
    from simkit.regret import RegretResult, regret, rollout_values
    from simkit.report import build_report
    from simkit.score import COMPONENTS, fouled, pair_points, score
    from simkit.setting_scores import SettingScores, expected_scores
    from simkit.simulate import SimulationResult, load_result, simulate
    from simkit.specials import best_special, detect_specials, special_names
    from simkit.train import duplicate_match, train
    from simkit.variants import Variant, VariantError, load_variant, variant_names
