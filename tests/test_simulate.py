"""The Monte Carlo runner: determinism, common random numbers, checkpoints, bad input.

Runs are small (a few thousand games, two variants) so the file stays fast; every table value
checked here is also recomputed by a plain reference from the same deals.
"""

from __future__ import annotations

import dataclasses
import importlib
import math

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simkit.arrange import arrange, arrangements
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.score import score
from simkit.simulate import (
    BLOCK_GAMES,
    SimulationConfig,
    load_result,
    make_config,
    play_block,
    simulate,
)
from simkit.specials import best_special, detect_specials
from simkit.statistics import Key, Sum, t_values
from simkit.summary import Summary
from simkit.variants import VariantError, load_variant

# The module, not the function: ``simkit.simulate`` is re-exported as the function.
sim = importlib.import_module("simkit.simulate")
blocks = importlib.import_module("simkit.simulate.blocks")
runner = importlib.import_module("simkit.simulate.runner")

VARIANTS = ["guangxi", "hongkong"]
N_GAMES = 2 * BLOCK_GAMES + 500  # three blocks, the last one partial
SEED = 20240601


@pytest.fixture(scope="module")
def base_run() -> sim.SimulationResult:
    return simulate(VARIANTS, N_GAMES, strategy="max-ev", seed=SEED, n_jobs=1, chunk_size=N_GAMES)


def assert_same_tables(a: sim.SimulationResult, b: sim.SimulationResult) -> None:
    assert a.summary is not None and b.summary is not None
    assert a.summary.equals(b.summary)
    assert a.tables.keys() == b.tables.keys()
    for name in a.tables:
        assert_frame_equal(a.tables[name], b.tables[name], check_exact=True)


def test_same_seed_same_tables_for_any_chunk_size(base_run: sim.SimulationResult) -> None:
    """Blocks, not chunks, carry the randomness: one chunk or one chunk per block agree."""
    per_block = simulate(
        VARIANTS, N_GAMES, strategy="max-ev", seed=SEED, n_jobs=1, chunk_size=BLOCK_GAMES
    )
    assert_same_tables(base_run, per_block)
    odd = simulate(
        VARIANTS, N_GAMES, strategy="max-ev", seed=SEED, n_jobs=1, chunk_size=BLOCK_GAMES + 1
    )
    assert_same_tables(base_run, odd)


def test_same_seed_same_tables_for_two_worker_processes(base_run: sim.SimulationResult) -> None:
    """Two loky worker processes, one block a chunk, give bit-identical tables."""
    parallel = simulate(
        VARIANTS, N_GAMES, strategy="max-ev", seed=SEED, n_jobs=2, chunk_size=BLOCK_GAMES
    )
    assert_same_tables(base_run, parallel)


def test_summary_size_does_not_grow_with_the_number_of_games(
    base_run: sim.SimulationResult,
) -> None:
    """Memory is one summary whatever n_games: the same arrays for one block as for three."""
    small = simulate(VARIANTS, 10, seed=SEED, n_jobs=1)
    assert small.summary is not None and base_run.summary is not None
    for mine, theirs in (
        (small.summary.counts, base_run.summary.counts),
        (small.summary.sums, base_run.summary.sums),
    ):
        assert {k: v.shape for k, v in mine.items()} == {k: v.shape for k, v in theirs.items()}


def test_another_seed_gives_other_numbers(base_run: sim.SimulationResult) -> None:
    other = simulate(VARIANTS, BLOCK_GAMES, seed=SEED + 1, n_jobs=1)
    first = simulate(VARIANTS, BLOCK_GAMES, seed=SEED, n_jobs=1)
    assert not other["scores"].equals(first["scores"])


def test_block_draws_from_its_spawned_seed_sequence() -> None:
    """Block b deals from SeedSequence(seed, spawn_key=(b,)).spawn(2)[0], whatever ran before."""
    config = make_config(["western-2-4"], 3 * BLOCK_GAMES, strategy="max-ev", seed=7)
    deal_seq = np.random.SeedSequence(7, spawn_key=(2,)).spawn(2)[0]
    hands = deal(BLOCK_GAMES, 4, rng=np.random.default_rng(deal_seq))
    arranged, declared = arrange(hands, config.variants[0], "max-ev", n_players=4)
    total = score(arranged, config.variants[0], declared=declared)
    _, sums = play_block(config, 2)
    np.testing.assert_array_equal(sums[Key(Sum.SCORE1, 0)], total.sum(axis=0))
    np.testing.assert_array_equal(sums[Key(Sum.SCORE2, 0)], (total * total).sum(axis=0))


def test_scores_table_matches_a_plain_reference() -> None:
    """Seat means, sds and the pooled row equal numpy on the same deals (one block)."""
    variant = load_variant("guangxi")
    result = simulate([variant], 1500, strategy="max-ev", seed=3, n_jobs=1)
    deal_seq = np.random.SeedSequence(3, spawn_key=(0,)).spawn(2)[0]
    hands = deal(1500, 4, rng=np.random.default_rng(deal_seq))
    arranged, declared = arrange(hands, variant, "max-ev", n_players=4)
    total = score(arranged, variant, declared=declared)
    table = result["scores"].filter(pl.col("variant") == "guangxi")
    for seat in range(4):
        row = table.filter(pl.col("seat") == str(seat)).row(0, named=True)
        assert row["n"] == 1500
        assert row["mean"] == pytest.approx(total[:, seat].mean(), abs=1e-12)
        assert row["sd"] == pytest.approx(total[:, seat].std(ddof=1), rel=1e-9)
        assert row["se"] == pytest.approx(total[:, seat].std(ddof=1) / math.sqrt(1500), rel=1e-9)
        assert row["ci_low"] < row["mean"] < row["ci_high"]
    pooled = table.filter(pl.col("seat") == "all").row(0, named=True)
    assert pooled["n"] == 6000
    assert pooled["mean"] == pytest.approx(0.0, abs=1e-12)  # all-pairs scoring is zero-sum
    assert pooled["sd"] == pytest.approx(total.ravel().std(ddof=1), rel=1e-9)
    hist = result["score_distribution"].filter(pl.col("seat") == "0")
    expected = np.unique(np.floor(total[:, 0] + 0.5), return_counts=True)
    assert hist["score"].to_list() == expected[0].tolist()
    assert hist["count"].to_list() == expected[1].tolist()


def test_a_variant_plays_alike_alone_and_beside_others() -> None:
    """Variants that share a ranking are arranged in one pass (common random numbers): each
    variant's tables equal those of a run of that variant alone on the same seed."""
    names = ["hongkong", "taiwan", "philippines"]  # one ranking; philippines passes cards
    together = simulate(names, 700, seed=5, n_jobs=1)
    for name in names:
        alone = simulate([name], 700, seed=5, n_jobs=1)
        for table in ("scores", "components", "events", "dun_categories", "specials"):
            assert_frame_equal(
                together[table].filter(pl.col("variant") == name),
                alone[table],
                check_exact=True,
            )


def test_components_add_up_to_the_score(base_run: sim.SimulationResult) -> None:
    """Component means add up to the mean score, and their variance shares to 1."""
    comps = base_run["components"]
    for name in VARIANTS:
        rows = comps.filter(pl.col("variant") == name)
        assert rows["var_share"].sum() == pytest.approx(1.0, abs=1e-9)
        assert rows["mean"].sum() == pytest.approx(0.0, abs=1e-9)
        assert set(rows["component"]) >= {"duns", "bonuses", "specials", "scoops", "fouls"}
        assert (rows["mean_abs"] >= rows["mean"].abs() - 1e-12).all()


def test_paired_differences_are_tighter_than_unpaired(base_run: sim.SimulationResult) -> None:
    """Common random numbers: the paired se of a difference in mean square score is below the
    se of the difference of two independent runs, sqrt(se_a² + se_b²)."""
    paired = base_run["paired"].filter(
        (pl.col("statistic") == "mean square score") & (pl.col("seat") == "0")
    )
    row = paired.row(0, named=True)
    assert (row["variant_a"], row["variant_b"]) == ("guangxi", "hongkong")
    assert row["n"] == N_GAMES
    assert row["ci_low"] < row["diff"] < row["ci_high"]
    scores = base_run["scores"].filter(pl.col("seat") == "0")
    sd = dict(zip(scores["variant"], scores["sd"], strict=True))
    mean_sq = {v: sd[v] ** 2 for v in VARIANTS}
    # The difference in mean square score is near the difference in variances.
    assert row["diff"] == pytest.approx(mean_sq["guangxi"] - mean_sq["hongkong"], rel=0.1, abs=5.0)
    assert row["se"] > 0


def test_t_values_agree_with_the_t_formula_component() -> None:
    """000/002 §1: places pay (q-1-2k)·t, so each t-formula payment over t is a tie-share of
    ±3, ±1 (four players) and the first place (unless tied) gets exactly 3t."""
    variant = load_variant("guangxi")
    hands = deal(3000, 4, rng=11)
    arranged, declared = arrange(hands, variant, "max-ev", n_players=4)
    _, comps = score(arranged, variant, declared=declared, breakdown=True)
    ranks = dun_ranks(arranged, variant)
    t = t_values(ranks, declared, variant)
    applies = t > 0
    assert applies.mean() > 0.9
    ratio = comps["t_formula"][applies] / t[applies, None]
    allowed = np.array([-3, -2, -1, 0, 1, 2, 3], dtype=float)
    assert np.isin(np.round(ratio, 9), allowed).all()
    top = ratio.max(axis=1)
    assert (top == 3).mean() > 0.5  # a unique winner is the usual case
    assert np.all(comps["t_formula"][~applies] == 0)


def test_an_arrangement_is_read_once_and_scored_from_what_it_holds() -> None:
    """An Arrangement holds the set hands' dun ranks and specials (those of the dealt hands: a
    special depends on the cards alone); scoring with them given equals scoring from the cards,
    also where qualifying specials stack onto the declared one."""
    base = load_variant("wiki-points")
    specials = dataclasses.replace(base.scoring.specials, stack=True)
    stacking = dataclasses.replace(
        base, scoring=dataclasses.replace(base.scoring, specials=specials)
    )
    hands = deal(3000, 4, rng=13)
    for variant in (base, stacking):
        (play,) = arrangements([hands], [variant], "greedy")
        cards, declared = play.cards, play.declared
        np.testing.assert_array_equal(cards, arrange(hands, variant, "greedy")[0])
        masks = detect_specials(hands, variant)
        np.testing.assert_array_equal(play.ranks, dun_ranks(cards, variant))
        np.testing.assert_array_equal(play.special_masks, masks)
        np.testing.assert_array_equal(play.best, best_special(masks))
        assert (play.declared >= 0).any()
        plain = score(cards, variant, declared=declared)
        given = score(
            cards,
            variant,
            declared=play.declared,
            ranks=play.ranks,
            special_masks=play.special_masks,
        )
        np.testing.assert_array_equal(given, plain)


def test_specials_table_sits_beside_exact_values(base_run: sim.SimulationResult) -> None:
    table = base_run["specials"].filter(pl.col("variant") == "guangxi")
    assert table.height == len(load_variant("guangxi").specials)
    six = table.filter(pl.col("special") == "six-pairs").row(0, named=True)
    assert six["exact"] == pytest.approx(0.003959, rel=1e-3)
    assert abs(six["z"]) < 5
    assert (table["n"] == 4 * N_GAMES).all()
    assert (table["best_count"] <= table["count"]).all()


def test_progress_in_ci_is_plain_lines_not_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    config = make_config(["western-2-4"], 10, seed=1)
    monkeypatch.setenv("CI", "true")
    lines = sim.progress_bar(config, 0, None)
    assert isinstance(lines, sim.ProgressLines)
    lines.close()
    assert sim.progress_bar(config, 0, False) is None
    bar = sim.progress_bar(config, 0, True)
    assert bar is not None
    bar.close()


# --------------------------------------------------------------------------- checkpoints


class Killed(Exception):
    pass


def test_killed_run_resumes_to_identical_tables(
    tmp_path, monkeypatch: pytest.MonkeyPatch, base_run: sim.SimulationResult
) -> None:
    ckpt = tmp_path / "run.ckpt"
    monkeypatch.setattr(runner, "CHECKPOINT_INTERVAL_S", 0.0)
    real_chunk = blocks.play_chunk
    calls = {"n": 0}

    def dying_chunk(config: SimulationConfig, first: int, n: int):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 3:
            raise Killed
        return real_chunk(config, first, n)

    monkeypatch.setattr(blocks, "play_chunk", dying_chunk)
    with pytest.raises(Killed):
        simulate(
            VARIANTS,
            N_GAMES,
            strategy="max-ev",
            seed=SEED,
            n_jobs=1,
            chunk_size=BLOCK_GAMES,
            checkpoint=ckpt,
        )
    assert ckpt.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["run.ckpt"]  # no temporary files left
    monkeypatch.setattr(blocks, "play_chunk", real_chunk)
    resumed = simulate(
        VARIANTS,
        N_GAMES,
        strategy="max-ev",
        seed=SEED,
        n_jobs=1,
        chunk_size=BLOCK_GAMES,
        checkpoint=ckpt,
    )
    assert_same_tables(base_run, resumed)
    # Calling again with the finished checkpoint plays nothing and gives the same tables.
    monkeypatch.setattr(blocks, "play_chunk", dying_chunk)
    calls["n"] = 2
    again = simulate(VARIANTS, N_GAMES, strategy="max-ev", seed=SEED, n_jobs=1, checkpoint=ckpt)
    assert_same_tables(base_run, again)


def test_checkpoint_of_another_configuration_is_refused(tmp_path) -> None:
    ckpt = tmp_path / "run.ckpt"
    simulate(["western-2-4"], 100, seed=1, n_jobs=1, checkpoint=ckpt)
    with pytest.raises(ValueError, match=r"different run.*seed"):
        simulate(["western-2-4"], 100, seed=2, n_jobs=1, checkpoint=ckpt)
    with pytest.raises(ValueError, match="n_games"):
        simulate(["western-2-4"], 200, seed=1, n_jobs=1, checkpoint=ckpt)
    (tmp_path / "junk.ckpt").write_bytes(b"not a pickle")
    with pytest.raises(ValueError, match="cannot be read"):
        simulate(["western-2-4"], 100, seed=1, n_jobs=1, checkpoint=tmp_path / "junk.ckpt")


# --------------------------------------------------------------------------- saving


def test_save_and_load_round_trip(tmp_path, base_run: sim.SimulationResult) -> None:
    out = base_run.save(tmp_path / "out")
    loaded = load_result(out)
    assert loaded.tables.keys() == base_run.tables.keys()
    for name, table in base_run.tables.items():
        assert_frame_equal(loaded[name], table)
    prov = loaded.provenance
    assert prov["seed"] == SEED and prov["n_games"] == N_GAMES and prov["strategy"] == "max-ev"
    assert [v["name"] for v in prov["variants"]] == VARIANTS
    assert all(len(v["sha256"]) == 64 and "@" in v["key"] for v in prov["variants"])
    assert prov["block_games"] == BLOCK_GAMES
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []


def test_failed_save_leaves_no_partial_files(
    tmp_path, monkeypatch: pytest.MonkeyPatch, base_run: sim.SimulationResult
) -> None:
    calls = {"n": 0}
    real = pl.DataFrame.write_parquet

    def failing(self, path, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk full")
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", failing)
    out = tmp_path / "out"
    with pytest.raises(OSError, match="disk full"):
        base_run.save(out)
    assert list(out.iterdir()) == []


# --------------------------------------------------------------------------- bad input


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("work started before the input was checked")

    monkeypatch.setattr(blocks, "play_chunk", refuse)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"variants": ["atlantis"]}, VariantError, "unknown variant 'atlantis'"),
        ({"variants": ["no/such/file.toml"]}, VariantError, "not found"),
        ({"n_games": 0}, ValueError, "n_games must be an integer >= 1"),
        ({"n_games": -5}, ValueError, "n_games"),
        ({"n_games": 2.5}, ValueError, "n_games"),
        ({"n_players": 9}, ValueError, "2 to 8 players"),
        ({"n_players": 1}, ValueError, "2 to 8 players"),
        ({"strategy": "telepathy"}, ValueError, "unknown strategy"),
        ({"strategy": "expected-score:pool=3"}, ValueError, "no option 'pool'"),
        ({"strategy": "expected-score-rerank:top=0"}, ValueError, "top must lie"),
        ({"strategy": "trained.npz"}, ValueError, "win_tables"),
        ({"strategy": None}, ValueError, "must be a name"),
        ({"seed": -1}, ValueError, "seed"),
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"chunk_size": 0}, ValueError, "chunk_size"),
        ({"backend": "mpi"}, ValueError, "unknown backend"),
        ({"backend": "dask", "scheduler": "localhost"}, ValueError, "tcp://"),
        ({"variants": ["guangxi", "guangxi"]}, ValueError, "given twice"),
    ],
)
def test_bad_input_is_refused_before_work(no_work, kwargs, error, match) -> None:  # type: ignore[no-untyped-def]
    args = {"variants": ["guangxi"], "n_games": 100, "seed": 1, "n_jobs": 1} | kwargs
    with pytest.raises(error, match=match):
        simulate(**args)


def test_unwritable_checkpoint_folder_is_refused(no_work) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="not writable"):
        simulate(["guangxi"], 100, seed=1, n_jobs=1, checkpoint="/proc/simkit-run.ckpt")


def test_unwritable_output_folder_is_refused(tmp_path, base_run: sim.SimulationResult) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="not a folder"):
        base_run.save(blocker / "out")
    with pytest.raises(ValueError, match="not writable"):
        base_run.save("/proc/simkit-out")


def test_summary_merge_is_exact_for_counts_and_ordered_for_sums() -> None:
    a, b = Summary(), Summary()
    a.add_counts({"k": np.array([1, 2])})
    a.add_counts({"k": np.array([3, 4])})
    b.add_counts({"k": np.array([3, 4])})
    b.add_counts({"k": np.array([1, 2])})
    assert a.equals(b)
    a.fold_sums({"s": np.array([0.1])})
    a.fold_sums({"s": np.array([0.2])})
    assert a.sums["s"][0] == 0.1 + 0.2
    with pytest.raises(ValueError, match="shapes"):
        a.add_counts({"k": np.array([1, 2, 3])})
