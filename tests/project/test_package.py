"""The package's edges: ``import simkit`` is light, every public name is where it was, simkit's
own error class, and results that print as summaries."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest

import simkit
from simkit.errors import SimkitError

HEAVY = ("numba", "polars", "matplotlib")

# The names ``simkit`` exported before its imports became lazy: each must stay importable.
EXPORTED = [
    "COMPONENTS", "Category", "SimulationResult", "Variant", "VariantError", "WinTables",
    "__version__", "arrange", "arrange_variants", "best_special", "build_report", "category_of",
    "compare_with_exact", "deal", "default_tables", "detect_specials", "duplicate_match",
    "exact_tables", "format_cards", "fouled", "legal_splits", "load_result", "load_variant",
    "pair_points", "pareto_front", "parse_cards", "rank3", "rank5", "score", "simulate",
    "special_names", "special_probabilities", "train", "variant_names",
]  # fmt: skip


def imported_after(code: str) -> set[str]:
    """The top-level modules a fresh interpreter has imported after running ``code``."""
    script = (
        f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_import_simkit_imports_no_numerical_library():
    assert imported_after("import simkit").isdisjoint(HEAVY)
    # listing the names loads nothing either
    assert imported_after("import simkit\nassert '__version__' in dir(simkit)").isdisjoint(HEAVY)


def test_every_exported_name_is_importable_and_listed():
    assert set(EXPORTED) <= set(simkit.__all__)
    assert set(simkit.__all__) <= set(dir(simkit))
    for name in simkit.__all__:
        assert getattr(simkit, name) is not None
    namespace: dict[str, object] = {}
    exec(f"from simkit import {', '.join(EXPORTED)}", namespace)
    assert namespace["arrange"] is simkit.arrange


@pytest.mark.parametrize("name", ["arrange", "deal", "score", "simulate", "train"])
def test_a_function_keeps_its_name_over_its_module(name):
    """``simkit.deal`` is the function even after ``import simkit.deal`` loaded the module."""
    __import__(f"simkit.{name}")
    assert callable(getattr(simkit, name))
    assert not isinstance(getattr(simkit, name), types.ModuleType)


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        simkit.nonsense  # noqa: B018


def test_version_comes_from_the_installed_metadata():
    from importlib.metadata import version

    assert simkit.__version__ == version("simkit")


def test_simkit_error_is_a_value_error():
    """Callers that catch ValueError for bad input keep working."""
    assert issubclass(SimkitError, ValueError)
    with pytest.raises(SimkitError, match="malformed card '7x'"):
        simkit.parse_cards("As 7x")
    with pytest.raises(SimkitError, match="2 to 8 players"):
        simkit.deal(1, 9)


def test_describe_splits_takes_text_or_card_integers():
    text = "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"
    lines = simkit.describe_splits(text, "guangxi", top=2, max_deals=4000)
    assert lines == simkit.describe_splits(
        simkit.parse_cards(text), "guangxi", top=2, max_deals=4000
    )
    assert sum(line.startswith((" 1. score", " 2. score")) for line in lines) == 2
    with pytest.raises(SimkitError, match="13 cards"):
        simkit.describe_splits("As Ks")
    with pytest.raises(SimkitError, match="top must be at least 1"):
        simkit.describe_splits(text, top=0)


def test_simulation_result_prints_a_summary():
    result = simkit.simulate("western-2-4", 64, strategy="max-ev", seed=1, n_jobs=1, progress=False)
    text = repr(result)
    assert len(text) < 400
    assert text.startswith("SimulationResult(western-2-4; 64 games of 4 players, max-ev, seed 1;")
    assert "scores" in text
