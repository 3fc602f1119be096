"""Result tables: standard errors against numpy, exact values against simulation (with a
negative control), payouts and banker tables."""

from __future__ import annotations

import ast
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simkit.tables as tables
from simkit.exact import special_probabilities
from simkit.simulate import SimulationResult, simulate
from simkit.statistics import EVENT_NAMES, EVENTS
from simkit.summary import Summary, event_sums, histogram, moments, rate_se
from simkit.tables import _z

PACKAGE = Path(tables.__file__).resolve().parent


@pytest.fixture(scope="module")
def run() -> SimulationResult:
    return simulate(["western-2-4", "hongkong"], 4096, seed=99, n_jobs=1)


@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=2, max_size=60))
def test_moments_match_numpy(xs: list[float]) -> None:
    x = np.array(xs)
    m = moments(len(x), float(x.sum()), float((x * x).sum()))
    assert m.mean == pytest.approx(x.mean(), abs=1e-9)
    # One-pass sums lose ~1e-16 of Σx² to rounding: negligible for scores centred near 0.
    scale = 1e-12 * max(1.0, float((x * x).mean()))
    assert m.sd**2 == pytest.approx(x.var(ddof=1), rel=1e-6, abs=scale)
    assert m.se == pytest.approx(m.sd / math.sqrt(len(x)), rel=1e-12, abs=1e-12)


@given(
    st.lists(st.lists(st.integers(0, 5), min_size=3, max_size=3), min_size=1, max_size=20),
    st.lists(st.lists(st.integers(0, 5), min_size=3, max_size=3), min_size=1, max_size=20),
)
def test_counts_merge_in_any_order(a: list[list[int]], b: list[list[int]]) -> None:
    one, two = Summary(), Summary()
    for rows in (a, b):
        one.add_counts({"k": np.array(rows).sum(axis=0)})
    for rows in (b, a):
        two.add_counts({"k": np.array(rows).sum(axis=0)})
    assert one.equals(two)


def test_rate_se_treats_games_as_clusters() -> None:
    """Events of 4 hands per game: the se is that of per-game counts, scaled to hands."""
    rng = np.random.default_rng(0)
    events = rng.random((5000, 4, 1)) < 0.1
    k1, k2 = event_sums(events)
    rate, se = rate_se(5000, 20000, float(k1[0]), float(k2[0]))
    per_game = events[:, :, 0].sum(axis=1)
    assert rate == pytest.approx(events.mean())
    assert se == pytest.approx(per_game.std(ddof=1) / math.sqrt(5000) / 4)
    # Independent hands: close to the binomial se.
    assert se == pytest.approx(math.sqrt(0.1 * 0.9 / 20000), rel=0.1)


def test_histogram_bins_round_to_nearest_and_keep_tails() -> None:
    h = histogram(np.array([-10.0, -2.6, -2.4, 0.0, 0.49, 0.5, 2.0, 99.0]), 2)
    # bins: below, -2, -1, 0, 1, 2, above
    assert h.tolist() == [2, 1, 0, 2, 1, 1, 1]


def test_specials_agree_with_exact_and_a_wrong_value_is_caught(run: SimulationResult) -> None:
    """z-scores of the simulated best-special rates against exact probabilities stay small;
    against probabilities doubled (a negative control) the common specials stand out."""
    table = run["specials"].filter(pl.col("variant") == "hongkong")
    assert table.height > 0
    z = table["best_z"].drop_nulls()
    assert z.abs().max() < 4.5  # type: ignore[operator]
    exact = special_probabilities("hongkong")
    common = table.filter(pl.col("best_exact") > 1e-3)
    assert common.height >= 2
    wrong = [
        _z(r["best_freq"], 2 * exact[r["special"]][1], r["n"]) for r in common.iter_rows(named=True)
    ]
    assert max(abs(w) for w in wrong if w is not None) > 5


def test_dun_categories_are_frequencies_per_position(run: SimulationResult) -> None:
    dun = run["dun_categories"]
    sums = dun.group_by("variant", "position").agg(pl.col("freq").sum())
    assert np.allclose(sums["freq"].to_numpy(), 1.0)
    front = dun.filter(pl.col("position") == "front")
    assert set(front["category"]) <= {"HIGH_CARD", "PAIR", "TRIPS"}
    assert (dun["se"] >= 0).all()


def test_banker_edge_lists_banker_variants_only(run: SimulationResult) -> None:
    edge = run["banker_edge"]
    assert edge["variant"].to_list() == ["hongkong"]
    assert edge["compare"].to_list() == ["full"]
    seat0 = run["scores"].filter((pl.col("variant") == "hongkong") & (pl.col("seat") == "0"))
    assert edge["mean"][0] == seat0["mean"][0]
    # The banker plays three opponents: seat 0 wins what the three others lose.
    others = run["scores"].filter(
        (pl.col("variant") == "hongkong") & pl.col("seat").is_in(["1", "2", "3"])
    )
    assert edge["mean"][0] == pytest.approx(-others["mean"].sum(), abs=1e-9)


def test_payouts_fit_and_normal_play_value(run: SimulationResult) -> None:
    pay = run["payouts"]
    assert set(pay.columns) >= {"payout", "probability", "rarity_payout", "normal_play_value"}
    rows = pay.filter(pl.col("rarity_payout").is_not_null())
    assert rows.height > 0
    # Rarer hands get a larger fitted payout when the slope is positive.
    slope = rows["fit_slope"][0]
    ordered = rows.sort("one_in")
    if slope > 0:
        assert (ordered["rarity_payout"].diff().drop_nulls() >= -1e-9).all()
    held = pay.filter(pl.col("holders") > 0)
    assert (held["justified_payout"] >= held["normal_play_value"] - 1e-12).all()


def test_events_and_declared_rates_are_consistent(run: SimulationResult) -> None:
    events = run["events"]
    declared = events.filter(pl.col("event") == "declared")
    specials = run["specials"].group_by("variant").agg(pl.col("declared_count").sum())
    for r in declared.iter_rows(named=True):
        total = specials.filter(pl.col("variant") == r["variant"])["declared_count"].sum()
        assert r["count"] == total
    assert (events["rate"] <= 1).all()
    western = events.filter((pl.col("variant") == "western-2-4") & (pl.col("event") == "declared"))
    assert western["count"][0] == 0  # the western game has no naturals


def test_tables_are_built_without_the_runner() -> None:
    """The pipeline runs one way: the tables read a summary through simkit.statistics and never
    load the runner.  (The package's ``__init__`` is bypassed: it imports every stage.)"""
    code = (
        "import sys, types\n"
        f"package = types.ModuleType('simkit'); package.__path__ = [{str(PACKAGE)!r}]\n"
        "sys.modules['simkit'] = package\n"
        "import simkit.tables\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('simkit'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert {"simkit.tables", "simkit.statistics"} <= loaded
    assert "simkit.simulate" not in loaded


def _spells_event_names(path: Path) -> bool:
    """Whether ``path`` spells the events: a literal tuple or list holding two event names, or
    an event name that is nothing else (not also a component's or a rule's name)."""
    names = set(EVENT_NAMES)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Tuple | ast.List):
            if len(names & {e.value for e in node.elts if isinstance(e, ast.Constant)}) > 1:
                return True
        elif isinstance(node, ast.Constant) and node.value == "scooped":
            return True
    return False


def test_event_names_are_spelled_once(run: SimulationResult) -> None:
    """Event names are written once (simkit.statistics); the events table reads them there."""
    spelled = [
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if _spells_event_names(path)
    ]
    assert spelled == ["statistics.py"]
    assert tables.EVENT_NAMES is EVENT_NAMES
    assert EVENT_NAMES[: len(EVENTS)] == tuple(event.name for event in EVENTS)
    for variant in ("western-2-4", "hongkong"):
        events = run["events"].filter(pl.col("variant") == variant)
        assert events["event"].to_list() == list(EVENT_NAMES)
