"""Payouts designed backwards from targets (simkit.design, `simkit design`; issue 51 item 5):
the request checked before any work, candidate files, metrics on kept games against the par
sheet, the named constraints, the search, and a whole design (feasible and infeasible)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simkit.arrange.wintables import tables_digest
from simkit.cli import main
from simkit.design import (
    MAX_GRID,
    Free,
    Step,
    Target,
    candidate_toml,
    declare_gains,
    design,
    loss,
    metrics,
    miss,
    numeric_keys,
    open_run,
    parse_free,
    parse_target,
    rarity_violations,
    search,
    write_candidate,
)
from simkit.errors import SimkitError
from simkit.exact import special_probabilities
from simkit.par import par_sheet
from simkit.simulate import simulate
from simkit.variants import load_variant, resolve_variant

GAMES = 1500


@pytest.fixture(scope="module")
def hk_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("hk")
    simulate("hongkong", GAMES, 4, "greedy", seed=5, n_jobs=1, progress=False,
             keep_games=out / "kept")  # fmt: skip
    return out


@pytest.fixture(scope="module")
def gx_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("gx")
    simulate("guangxi", GAMES, 4, "greedy", seed=6, n_jobs=1, progress=False,
             keep_games=out / "kept")  # fmt: skip
    return out


# -- the request ------------------------------------------------------------------------------


def test_a_free_key_is_checked_against_the_files_numeric_fields():
    hk = resolve_variant("hongkong")
    keys = numeric_keys(hk)
    assert keys["specials.six-pairs.payout"] == 3.0
    assert keys["scoring.duns.middle.full-house"] == 2.0
    assert keys["scoring.home_run.factor"] == 1.0
    assert "scoring.topology" not in keys and "scoring.majority.enabled" not in keys  # not numbers
    with pytest.raises(SimkitError, match=r"close keys: scoring\.duns\.front\.trips"):
        parse_free("scoring.duns.front.trip=1:3", hk)
    with pytest.raises(SimkitError, match="not a numeric field"):
        parse_free("scoring.topology=1:3", hk)
    with pytest.raises(SimkitError, match="expected KEY=LO:HI"):
        parse_free("specials.six-pairs.payout=3", hk)
    with pytest.raises(SimkitError, match="above HI"):
        parse_free("specials.six-pairs.payout=5:3", hk)
    with pytest.raises(SimkitError, match="STEP must be positive"):
        parse_free("specials.six-pairs.payout=1:5:0", hk)


def test_payouts_the_file_writes_whole_stay_whole():
    hk = resolve_variant("hongkong")
    free = parse_free("specials.six-pairs.payout=1:6", hk)  # the file writes `payout = 3`
    assert free.whole and free.step == 1.0 and free.current == 3.0
    assert free.values().tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    with pytest.raises(SimkitError, match="whole number in the file"):
        parse_free("specials.six-pairs.payout=1:6:0.5", hk)
    # a field no file of the chain writes takes the schema's type, a float: fractions allowed
    horse = parse_free("scoring.horse.multiplier=1:3:0.5", resolve_variant("guangxi"))
    assert not horse.whole and horse.values().tolist() == [1.0, 1.5, 2.0, 2.5, 3.0]


def test_a_metric_must_be_a_role_column_of_the_variant_or_a_constraint():
    hk, gx = resolve_variant("hongkong"), resolve_variant("guangxi")
    assert parse_target("player.sd=3.5:0.1", hk, 4) == Target("player.sd", 3.5, 0.1)
    assert parse_target("banker.edge=0", hk, 4) == Target("banker.edge", 0.0, 0.0)
    assert parse_target("declare-worthwhile", gx, 4) == Target("declare-worthwhile")
    with pytest.raises(SimkitError, match="has roles seat"):  # all-pairs: no banker
        parse_target("banker.edge=0", gx, 4)
    with pytest.raises(SimkitError, match=r"close: player\.sd"):
        parse_target("player.sdd=3", hk, 4)
    with pytest.raises(SimkitError, match="is a constraint"):
        parse_target("rarity-monotone=1", hk, 4)
    with pytest.raises(SimkitError, match="TOL must be at least 0"):
        parse_target("player.sd=3:-1", hk, 4)


def test_a_design_without_a_target_or_with_a_change_kept_games_cannot_express_is_refused(
    tmp_path,
):
    with pytest.raises(SimkitError, match="at least one --target"):
        design("hongkong", ["specials.six-pairs.payout=1:6"], [], out=tmp_path)
    with pytest.raises(SimkitError, match="freed twice"):
        design(
            "hongkong",
            ["specials.six-pairs.payout=1:6", "specials.six-pairs.payout=2:3"],
            ["player.sd=3"],
            out=tmp_path,
        )
    assert not any(tmp_path.iterdir())  # refused before any work


def test_the_cli_names_the_close_keys_before_any_work(tmp_path, capsys):
    code = main(
        ["design", "--variant", "hongkong", "--free", "scoring.duns.front.trip=1:3",
         "--target", "player.sd=3.5", "--out", str(tmp_path / "d")]
    )  # fmt: skip
    assert code == 2
    assert "close keys: scoring.duns.front.trips" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


# -- candidate files --------------------------------------------------------------------------


def test_a_candidate_file_extends_the_base_and_sets_the_free_fields(tmp_path):
    hk = resolve_variant("hongkong")
    trips = parse_free("scoring.duns.front.trips=1:9", hk)
    pairs = parse_free("specials.six-pairs.payout=1:9", hk)
    text = candidate_toml(hk, "mine", {trips: 5.0, pairs: 7.0}, tmp_path, ["a note"])
    assert 'extends = "hongkong"' in text and "trips = 5\n" in text and "payout = 7\n" in text
    mine = write_candidate(hk, "mine", {trips: 5.0, pairs: 7.0}, tmp_path, ["a note"])
    assert mine.name == "mine" and mine.notes == ("a note",)
    assert mine.scoring.duns.front["trips"] == 5.0
    assert mine.specials.get("six-pairs").payout == 7.0
    assert mine.scoring.topology == hk.scoring.topology  # everything else is the base's
    same = write_candidate(hk, "same", {trips: 3.0, pairs: 3.0}, tmp_path)
    assert tables_digest(same) == tables_digest(hk)  # the base's values: the base's rules


def test_a_candidate_of_a_file_of_ones_own_extends_it_by_path(tmp_path):
    base = tmp_path / "base.toml"
    base.write_text('[variant]\nname = "base"\nextends = "hongkong"\n', encoding="utf-8")
    v = load_variant(base)
    free = parse_free("specials.dragon.payout=10:20", v)
    out = tmp_path / "out"
    out.mkdir()
    mine = write_candidate(v, "mine", {free: 15.0}, out)
    assert "extends = " in (out / "mine.toml").read_text()
    assert mine.specials.get("dragon").payout == 15.0


# -- metrics on kept games --------------------------------------------------------------------


def test_metrics_under_the_runs_own_variant_are_its_par_sheet(hk_run):
    kept = open_run(hk_run)
    m = metrics(kept, kept.variant, ["declare-worthwhile", "rarity-monotone"])
    par = par_sheet(hk_run).tables["par"]
    for row in par.iter_rows(named=True):
        for col in ("edge", "edge_se", "sd", "p_win", "p_tie", "p_loss"):
            assert m[f"{row['role']}.{col}"] == pytest.approx(row[col], rel=1e-12, abs=1e-12)
        assert 0 < m[f"{row['role']}.sd_se"] < row["sd"] / 10


def test_the_sd_se_agrees_with_a_bootstrap_over_games(hk_run):
    kept = open_run(hk_run)
    m = metrics(kept, kept.variant, [])
    from simkit.rescore import game_scores

    _, scores = game_scores(hk_run)
    players = scores[:, 1:]
    rng = np.random.default_rng(0)
    boots = [players[rng.integers(0, len(players), len(players))].std(ddof=1) for _ in range(200)]
    assert m["player.sd_se"] == pytest.approx(np.std(boots), rel=0.25)


def test_raising_a_payout_moves_the_fixed_play_metrics_as_scoring_the_kept_hands_does(
    hk_run, tmp_path
):
    kept = open_run(hk_run)
    hk = kept.variant
    free = parse_free("scoring.duns.front.trips=1:30", hk)
    low = metrics(kept, write_candidate(hk, "low", {free: 1.0}, tmp_path), [])
    high = metrics(kept, write_candidate(hk, "high", {free: 30.0}, tmp_path), [])
    assert high["player.sd"] > low["player.sd"]  # a bigger bonus spreads the scores
    # banker game: what the players win the banker loses, game by game
    for m in (low, high):
        assert m["banker.edge"] == pytest.approx(-3 * m["player.edge"], abs=1e-9)


def test_declaring_is_worth_more_the_more_a_special_pays(gx_run, tmp_path):
    kept = open_run(gx_run)
    gx = kept.variant
    assert kept.declared.shape[0] > 0  # some game declared a special
    base = declare_gains(kept, gx)
    assert base  # measured for the specials declared
    top = max(base, key=lambda s: base[s][2])  # the most declared special
    free = parse_free(f"specials.{top}.payout=0:200", gx)
    up = declare_gains(kept, write_candidate(gx, "up", {free: free.current + 10}, tmp_path))
    down = declare_gains(kept, write_candidate(gx, "down", {free: 0.0}, tmp_path))
    assert down[top][0] < base[top][0] < up[top][0]
    # at 4 players all-pairs a declared special is paid by each of the 3 others: +10 → +30
    # for every game where no other seat declared; never less than +10
    assert up[top][0] - base[top][0] >= 10 - 1e-9
    for mean, se, n in base.values():
        assert n >= 1 and (n == 1 or se >= 0) and math.isfinite(mean)


def test_rarity_monotone_counts_the_pairs_a_rarer_special_pays_less(tmp_path):
    hk = resolve_variant("hongkong")
    chance = special_probabilities(hk)
    rules = {r.id: r.payout for r in hk.specials.rules}
    expected = sorted(
        (a, b) for a in rules for b in rules
        if chance[a][0] < chance[b][0] and rules[a] < rules[b]
    )  # fmt: skip
    assert sorted(rarity_violations(hk)) == expected
    dragon = parse_free("specials.dragon.payout=1:20", hk)
    bad = write_candidate(hk, "bad", {dragon: 1.0}, tmp_path)  # the dragon below 3-point ones
    assert {("dragon", "six-pairs"), ("dragon", "three-flushes")} <= set(rarity_violations(bad))


def test_a_target_is_met_within_its_tolerance_or_without_one_within_1_96_se():
    t = Target("player.sd", 3.5, 0.1)
    assert miss(t, {"player.sd": 3.58, "player.sd_se": 0.0}) == 0.0
    assert miss(t, {"player.sd": 3.7, "player.sd_se": 0.0}) == pytest.approx(1.0)
    assert miss(t, {"player.sd": 3.7, "player.sd_se": 0.11}) == pytest.approx(1.0)  # TOL rules
    even = Target("banker.edge", 0.0)
    assert miss(even, {"banker.edge": 0.05, "banker.edge_se": 0.03}) == 0.0
    assert miss(even, {"banker.edge": 0.5, "banker.edge_se": 0.1}) == pytest.approx(
        0.5 - 1.959964 * 0.1
    )
    assert loss([t, even], {"player.sd": 3.7, "player.sd_se": 0.0, "banker.edge": 0.0,
                            "banker.edge_se": 0.01}) == pytest.approx(1.0 + 4e-3)  # fmt: skip
    # inside the tolerance the more central candidate ranks first
    assert 0 < loss([t], {"player.sd": 3.52}) < loss([t], {"player.sd": 3.45}) < 1e-2
    assert miss(Target("rarity-monotone"), {"rarity-monotone": 2.0}) == 2.0
    assert miss(Target("declare-worthwhile"), {"declare-worthwhile": -1.0,
                                              "declare-worthwhile.se": 0.1}) > 0  # fmt: skip


# -- the search -------------------------------------------------------------------------------


def _bowl(frees, centre):
    def evaluate(values):
        m = {"x": sum((values[f.key] - c) ** 2 for f, c in zip(frees, centre, strict=True))}
        return Step(values, m, m["x"])

    return evaluate


def test_a_small_grid_is_searched_whole():
    frees = [Free("a", 0, 4, 1, True, 0), Free("b", 0, 2, 0.5, False, 0)]
    path = search(frees, _bowl(frees, (3, 1.5)))
    assert len(path) == 5 * 5
    best = min(path, key=lambda s: s.loss)
    assert best.values == {"a": 3.0, "b": 1.5}


def test_a_large_grid_is_searched_coordinate_wise_and_finds_a_separable_minimum():
    frees = [Free(k, 0, 30, 1, True, 10) for k in "abc"]
    assert 31**3 > MAX_GRID
    path = search(frees, _bowl(frees, (4, 27, 13)))
    assert len(path) < 31 * 3 * 4  # far fewer than the grid
    best = min(path, key=lambda s: s.loss)
    assert best.values == {"a": 4.0, "b": 27.0, "c": 13.0}
    assert path[0].phase == "start" and path[0].values == {"a": 10.0, "b": 10.0, "c": 10.0}


# -- a whole design ---------------------------------------------------------------------------


@pytest.mark.slow
def test_a_design_is_verified_afresh_and_written(tmp_path):
    out = tmp_path / "d"
    # player SD target inside the reach of the front trips bonus; greedy play keeps it fast
    d = design(
        "hongkong", ["scoring.duns.front.trips=1:40:13"], ["player.sd=2.6:0.6"],
        games=GAMES, seed=3, out=out, name="mine", verify=2, n_jobs=1, strategy="greedy",
        progress=None, regret_hands=3, regret_rollouts=(6, 6),
    )  # fmt: skip
    assert d.feasible and d.chosen.meets
    # the play under the chosen table: the regret of each seat role, in design.md
    assert [r.seat for r in d.regret] == ["banker", "player"]
    assert all(r.hands == 3 and r.variant == d.chosen.variant.name for r in d.regret)
    mine = load_variant(out / "mine.toml")
    assert mine.specials.ids == resolve_variant("hongkong").specials.ids
    assert numeric_keys(mine)["scoring.duns.front.trips"] == d.chosen_values[0]
    assert "player.sd=2.6:0.6" in " ".join(mine.notes)
    text = (out / "design.md").read_text()
    assert "**Feasible.**" in text and "re-derived" in text and "fixed" in text
    assert "## The play under the designed table" in text and "| banker | " in text
    assert (out / "par.md").exists() and (out / "par.parquet").exists()
    assert len(d.path) == 4  # 1, 14, 27, 40


def test_a_regret_request_the_rollouts_cannot_measure_is_refused_before_any_work(tmp_path):
    for bad in ({"regret_hands": -1}, {"regret_hands": 10, "n_players": 6}):
        with pytest.raises(SimkitError, match="regret"):
            design(
                "hongkong", ["scoring.duns.front.trips=1:40:13"], ["player.sd=2.6:0.6"],
                out=tmp_path / "d", progress=None, **bad,
            )  # fmt: skip
    assert not (tmp_path / "d").exists()


@pytest.mark.slow
def test_an_infeasible_target_is_answered_with_the_closest_table(tmp_path):
    out = tmp_path / "d"
    d = design(
        "hongkong", ["specials.six-pairs.payout=1:4"], ["player.sd=40:0.1"],
        games=GAMES, seed=3, out=out, name="far", verify=1, n_jobs=1, strategy="greedy",
        progress=None,
    )  # fmt: skip
    assert not d.feasible and not d.chosen.meets
    assert d.chosen_values == [4.0]  # the largest payout is the closest to a huge SD
    text = (out / "design.md").read_text()
    assert "**Infeasible within the freed ranges.**" in text
    assert load_variant(out / "far.toml").specials.get("six-pairs").payout == 4.0
