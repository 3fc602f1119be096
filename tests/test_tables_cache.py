"""Win tables found by the rules' key, and built and cached for rules that ship none
(simkit.arrange.wintables, simkit.tables_cache; issue 51 item 1)."""

import dataclasses
import warnings

import numpy as np
import polars as pl
import pytest

import simkit.tables_cache as tables_cache
from simkit.arrange import ExpectedScore, arrange
from simkit.arrange.classes import N_CLASSES
from simkit.arrange.wintables import (
    PENDING_KEY,
    TABLES_ENV,
    cached_table_path,
    default_fine_tables,
    default_tables,
    load_cached_tables,
    rules_digest,
    shipped_name_for,
    shipped_table_path,
    tables_digest,
)
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.simulate import simulate
from simkit.variants import Phases, load_variant
from simkit.variants.transforms import with_compare


def _same_rules_file(tmp_path, base="guangxi", name="mine"):
    path = tmp_path / f"{name}.toml"
    path.write_text(f'[variant]\nname = "{name}"\nextends = "{base}"\n', encoding="utf-8")
    return path


@pytest.fixture
def small_builds(monkeypatch, tmp_path):
    """Building on: a short schedule and a cache of this test's own, builds counted from 0."""
    monkeypatch.setenv(TABLES_ENV, "build")
    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(tables_cache, "AUTO_HANDS", 600)
    monkeypatch.setattr(tables_cache, "AUTO_ITERATIONS", 1)
    monkeypatch.setattr(tables_cache, "AUTO_REMOVAL_GAMES", 400)
    monkeypatch.setattr(tables_cache, "AUTO_WEIGHT_HANDS", 8)
    monkeypatch.setattr(tables_cache, "AUTO_WEIGHT_ROLLOUTS", 4)
    monkeypatch.setattr(tables_cache, "AUTO_PLACE_GAMES", 200)
    monkeypatch.setattr(tables_cache, "AUTO_COARSE_HANDS", 600)
    monkeypatch.setattr(tables_cache, "AUTO_COARSE_ITERATIONS", 1)
    monkeypatch.setattr(tables_cache, "builds", 0)
    return tmp_path


def test_a_file_with_shipped_rules_finds_the_shipped_tables_by_key(tmp_path):
    mine = load_variant(_same_rules_file(tmp_path))
    guangxi = load_variant("guangxi")
    assert mine.name == "mine" and mine.key != guangxi.key  # the key names the file...
    assert rules_digest(mine.key) == rules_digest(guangxi.key)  # ...the digest the rules
    for players in (2, 4, 7):
        assert shipped_name_for(mine, players, fine=True) == "guangxi"
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no fallback warning: these are its own rules' tables
            fine = default_fine_tables(mine, players)
            coarse = default_tables(mine, players)
        assert fine is default_fine_tables(guangxi, players)
        assert coarse is default_tables(guangxi, players)


def test_every_shipped_table_file_is_found_by_its_rules():
    for name in ("guangxi", "fujian", "qiantang", "taiwan"):
        v = load_variant(name)
        for players in (2, 4, 6):
            assert shipped_name_for(v, players, fine=True) == name
            assert shipped_table_path(name, players, fine=True).exists()


def test_a_file_with_a_shipped_name_but_other_rules_does_not_read_its_tables(tmp_path):
    path = tmp_path / "guangxi.toml"  # the name of a shipped variant, other rules
    path.write_text(
        '[variant]\nname = "guangxi"\nextends = "guangxi"\n[scoring]\ncompare = "top-card"\n',
        encoding="utf-8",
    )
    other = load_variant(path)
    assert rules_digest(other.key) != rules_digest(load_variant("guangxi").key)
    assert shipped_name_for(other, 4, fine=True) is None


def test_the_unchanged_file_plays_exactly_as_guangxi(tmp_path):
    """`compare` of guangxi and a file that extends it and changes nothing: no difference in
    any table (the same deals, the same tables found by the rules, the same play)."""
    path = _same_rules_file(tmp_path)
    result = simulate(["guangxi", str(path)], 400, 4, seed=3, n_jobs=1, progress=False)
    compared = 0
    for name, table in result.tables.items():
        if "variant" not in table.columns:
            continue
        ours = table.filter(pl.col("variant") == "guangxi").drop("variant")
        theirs = table.filter(pl.col("variant") == "mine").drop("variant")
        key_cols = [c for c in ("variant_key",) if c in ours.columns]
        ours, theirs = ours.drop(key_cols), theirs.drop(key_cols)
        assert ours.height == theirs.height, name
        if ours.height == 0:  # a table of banker variants only
            continue
        assert ours.equals(theirs), name
        compared += 1
    assert compared >= 8
    paired = result.tables["paired"]  # what `simkit compare` prints: every difference is zero
    assert paired.height > 0 and (paired["diff"] == 0).all() and (paired["se"] == 0).all()


def test_missing_tables_are_built_once_and_then_read_from_the_cache(small_builds):
    mine = with_compare(load_variant("guangxi"), "top-card")  # rules no shipped file has
    assert shipped_name_for(mine, 4, fine=True) is None
    lines = []
    first = tables_cache.build_fine_tables(mine, 4, progress=lines.append)
    assert tables_cache.builds == 1 and any("building" in line for line in lines)
    assert cached_table_path(mine, 4).exists()
    assert first.meta["auto_built"] and rules_digest(first.meta["variant_key"]) == rules_digest(
        mine.key
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # neither a fallback nor a rebuild
        again = default_fine_tables(mine, 4)
    assert tables_cache.builds == 1  # a cache hit: no training
    np.testing.assert_array_equal(again.win, first.win.astype(np.float32).astype(np.float64))
    # the default plays them: arranging through the default builds nothing more
    arrange(deal(20, 4, rng=1), mine, ExpectedScore(), n_players=4, rng=1)
    assert tables_cache.builds == 1


def test_the_default_builds_through_the_registered_builder(small_builds):
    mine = with_compare(load_variant("taiwan"), "top-card")
    tables = default_fine_tables(mine, 3)
    assert tables_cache.builds == 1 and tables.meta["n_players"] == 3
    assert default_fine_tables(mine, 3).meta["variant_key"] == tables.meta["variant_key"]
    assert tables_cache.builds == 1


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other rules"])
def test_a_damaged_cache_file_is_removed_and_rebuilt(small_builds, damage):
    mine = with_compare(load_variant("guangxi"), "top-card")
    path = cached_table_path(mine, 4)
    path.parent.mkdir(parents=True, exist_ok=True)
    if damage == "garbage":
        path.write_bytes(b"not a table")
    elif damage == "truncated":
        data = shipped_table_path("guangxi", 4, fine=True).read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:  # a readable file of guangxi's tables under this rules' name
        path.write_bytes(shipped_table_path("guangxi", 4, fine=True).read_bytes())
    with pytest.warns(UserWarning, match="damaged"):
        tables = default_fine_tables(mine, 4)
    assert tables_cache.builds == 1
    assert rules_digest(tables.meta["variant_key"]) == rules_digest(mine.key)


def test_building_off_is_an_error_or_a_labelled_fallback(monkeypatch, tmp_path):
    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(tmp_path / "cache"))
    mine = with_compare(load_variant("guangxi"), "top-card")
    monkeypatch.setenv(TABLES_ENV, "error")
    with pytest.raises(SimkitError, match=r"no trained win tables.*simkit train"):
        default_fine_tables(mine, 4)
    monkeypatch.setenv(TABLES_ENV, "fallback")
    with pytest.warns(UserWarning, match="FALLBACK: using guangxi's"):
        tables = default_fine_tables(mine, 4)
    assert tables.meta["variant"] == "guangxi"
    monkeypatch.setenv(TABLES_ENV, "sometimes")
    with pytest.raises(SimkitError, match="must be one of build, fallback, error"):
        default_fine_tables(mine, 4)


def test_rules_that_differ_only_in_the_phases_after_the_deal_share_the_tables():
    """Training plays no 抢庄 bid, negotiation or surrender: a variant without qiantang's bid
    (what the settle calibration plays) reads qiantang's tables, its key differing."""
    qiantang = load_variant("qiantang")
    no_phases = dataclasses.replace(qiantang, phases=Phases())
    assert rules_digest(no_phases.key) != rules_digest(qiantang.key)
    assert tables_digest(no_phases) == tables_digest(qiantang)
    for players in (3, 5):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert default_fine_tables(no_phases, players) is default_fine_tables(qiantang, players)
            assert default_tables(no_phases, players) is default_tables(qiantang, players)
    # a change the tables model (the comparison of duns) has tables of its own
    assert tables_digest(with_compare(qiantang, "top-card")) != tables_digest(qiantang)


# -- the fitted extras of the base's shipped tables, and the coarse tables -----------------------


def _extends(tmp_path, base, name, text=""):
    path = tmp_path / f"{name}.toml"
    path.write_text(f'[variant]\nname = "{name}"\nextends = "{base}"\n{text}', encoding="utf-8")
    return path


def test_a_build_copies_the_extras_its_nearest_shipped_base_carries(tmp_path):
    up = "[specials.six-pairs]\npayout = 12\n"
    fj = load_variant(_extends(tmp_path, "fujian", "fj", up))
    two = load_variant(_extends(tmp_path, "fj.toml", "fj2"))  # a file extending a file
    gx = load_variant(_extends(tmp_path, "guangxi", "gx", up))
    hk = load_variant(_extends(tmp_path, "hongkong", "hk", up))
    scratch = tmp_path / "scratch.toml"
    scratch.write_text(
        (tmp_path / "fj.toml").read_text().replace('extends = "fujian"\n', ""), encoding="utf-8"
    )
    assert tables_cache.model_base(fj) == tables_cache.model_base(two) == "fujian"
    assert tables_cache.model_base(gx) == "guangxi" and tables_cache.model_base(hk) == "hongkong"
    assert tables_cache.model_base(with_compare(load_variant("qiantang"), "top-card")) == "qiantang"
    # fujian's shipped 4-player fine tables carry removal shifts, its 3-player ones nothing;
    # guangxi's carry objective weights at 3 and 4 players and a place model at 4
    assert tables_cache.extras_to_build(fj, 4) == ("removal",)
    assert tables_cache.extras_to_build(fj, 3) == ()
    assert tables_cache.extras_to_build(gx, 4) == ("objective_weights", "place_model")
    assert tables_cache.extras_to_build(gx, 3) == ("objective_weights",)
    assert tables_cache.extras_to_build(hk, 4) == ()
    for players in (3, 4):
        shipped = default_fine_tables(load_variant("fujian"), players)
        assert (shipped.removal is not None) == (players == 4)


@pytest.mark.slow
def test_a_file_on_fujian_gets_removal_shifts_built_and_cached(small_builds):
    fj = load_variant(_extends(small_builds, "fujian", "fj", "[specials.six-pairs]\npayout = 12\n"))
    lines = []
    built = tables_cache.build_fine_tables(fj, 4, progress=lines.append)
    assert built.removal is not None and built.removal.shape[1:] == built.win.shape
    assert built.meta["removal"]["auto_built"] and PENDING_KEY not in built.meta
    assert any("fitting the built tables' removal" in line for line in lines)
    again = default_fine_tables(fj, 4)
    assert tables_cache.builds == 1 and again.removal is not None
    assert len(ExpectedScore().solvers(fj, 4)) > 1  # the default plays one search per bucket


@pytest.mark.slow
def test_extras_left_pending_by_a_stopped_build_are_finished(small_builds):
    fj = load_variant(_extends(small_builds, "fujian", "fj", "[specials.six-pairs]\npayout = 12\n"))
    tables = tables_cache.build_fine_tables(fj, 4, progress=None)
    path = cached_table_path(fj, 4)
    stopped = dataclasses.replace(
        tables, removal=None, meta={**tables.meta, PENDING_KEY: ["removal"]}
    )
    stopped.save(path)
    finished = default_fine_tables(fj, 4)  # the cache holds it with removal pending
    assert finished.removal is not None and PENDING_KEY not in finished.meta
    assert PENDING_KEY not in load_cached_tables(fj, 4).meta


@pytest.mark.slow
def test_a_file_on_guangxi_gets_weights_fitted_and_a_place_model(small_builds):
    gx = load_variant(
        _extends(small_builds, "guangxi", "gx", "[specials.six-pairs]\npayout = 12\n")
    )
    built = tables_cache.build_fine_tables(gx, 4, progress=None)
    # the weights ship only where their held-out gain shows; the fit is recorded either way
    assert ("objective_weights" in built.meta) != ("objective_weights_not_kept" in built.meta)
    assert built.meta["place_model"]["auto_built"]
    assert PENDING_KEY not in built.meta


def test_max_evs_coarse_tables_are_built_and_cached_too(small_builds):
    mine = with_compare(load_variant("taiwan"), "top-card")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning: built for these rules
        coarse = default_tables(mine, 3)
    assert coarse.meta["auto_built"] and coarse.win.shape == (3, N_CLASSES)
    assert cached_table_path(mine, 3, fine=False).exists()
    assert default_tables(mine, 3).meta["variant_key"] == coarse.meta["variant_key"]
    assert tables_cache.builds == 1
