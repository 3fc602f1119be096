"""The card-removal model (simkit.arrange.removal.RemovalModel) expected-score's
``conditioning`` reads: the hand's features against a count spelled out, the fit against a
known linear model, the kernel's quantities against the numpy reference to the last bit,
which strategies read the shipped models, and that a model reads close to the exact shifts
it was fitted to."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from simkit.arrange import (
    ExpectedScore,
    arrangements,
    fine_classes,
    removal_pool,
    strategy_from_name,
)
from simkit.arrange.conditioned import (
    SHRINK_PRIOR,
    _model_condition,
    conditioned_ids,
    fit_linear_shifts,
    hand_shift,
    model_ids,
    model_tables,
)
from simkit.arrange.removal import (
    MAX_HAND_FEATURES,
    N_CARD_FEATURES,
    RemovalModel,
    card_features,
    hand_features,
    model_key,
    removal_model_path,
    shipped_removal_model,
    tables_fingerprint,
)
from simkit.arrange.value import ev_quantities, favourable_quantities, payout_model
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.splits import SPLIT_IDS, split_positions
from simkit.variants import resolve_variant

GUANGXI = resolve_variant("guangxi")
SHIPPED = ("guangxi", "guangxi-regional")
MODEL = ExpectedScore(places=True, conditioning="model")


def _hands(n: int, seed: int) -> np.ndarray:
    return np.sort(deal(n // 4 + 1, 4, rng=seed).reshape(-1, 13)[:n], axis=1)


def test_features_count_each_ranks_cards_and_each_suit_length_spelled_out():
    hands = _hands(400, 3)
    x = card_features(hands)
    for row, got in zip(hands, x, strict=True):
        want = np.zeros(N_CARD_FEATURES)
        want[0] = 1.0
        for rank, count in Counter(int(c) // 4 for c in row).items():
            want[1 + (count - 1) * 13 + rank] = 1.0
        for suit in range(4):
            length = sum(1 for c in row if int(c) % 4 == suit)
            want[1 + 52 + min(length, 8)] += 1.0
        assert np.array_equal(got, want)
        active = np.empty(MAX_HAND_FEATURES, dtype=np.int64)
        n = hand_features(row.astype(np.int64), active)
        assert np.array_equal(np.bincount(active[:n], minlength=N_CARD_FEATURES), want)
        ranks = list((active[1 : n - 4] - 1) % 13)
        assert ranks == sorted(set(ranks))  # each rank held once, upward


def _known_model(seed: int, n_fine: int = 40) -> RemovalModel:
    rng = np.random.default_rng(seed)
    weights = rng.normal(scale=0.01, size=(3, n_fine, N_CARD_FEATURES)).astype(np.float16)
    return RemovalModel(np.ascontiguousarray(weights, dtype=np.float32))


def test_the_fit_recovers_a_known_linear_model_and_not_what_is_not_linear():
    """Shifts made by a linear model of the features are fitted back to within the float16
    the file keeps; shifts with a product of two features in them leave a residual."""
    truth = _known_model(1)
    hands = _hands(3000, 5)
    model, figures = fit_linear_shifts(hands, truth.shift, ridge=1e-9)
    assert figures["rms_residual"] < 2e-3 * figures["rms_exact"]
    for row in hands[:50]:
        np.testing.assert_allclose(model.shift(row), truth.shift(row), atol=1e-4)
    x = card_features(hands)
    # one ace and one king: a product of two features, no sum of them
    both = {tuple(r): 0.05 * a * b for r, a, b in zip(hands, x[:, 13], x[:, 12], strict=True)}

    def bent(row: np.ndarray) -> np.ndarray:
        return truth.shift(row) + both[tuple(row)]

    _, bent_figures = fit_linear_shifts(hands, bent, ridge=1e-9)
    assert bent_figures["rms_residual"] > 0.05 * bent_figures["rms_exact"]
    with pytest.raises(ValueError, match="at least 62 hands"):
        fit_linear_shifts(hands[:10], truth.shift)


def test_a_model_checks_its_weights_and_keeps_them_through_a_file(tmp_path):
    model = RemovalModel(_known_model(2).weights, {"note": "x"})
    model.save(tmp_path / "m.npz")
    back = RemovalModel.load(tmp_path / "m.npz")
    assert np.array_equal(model.weights, back.weights) and back.meta == {"note": "x"}
    w = model.weights
    for bad in (w[..., :10], w[:2], w.astype(np.float64), np.asfortranarray(w), w * np.nan):
        with pytest.raises(ValueError, match="removal model"):
            RemovalModel(bad)


def test_kernel_quantities_equal_the_reference_to_the_last_bit():
    """_model_condition's q and sep are make_solver's on model_tables, bit for bit, at every
    class the search reads, its fav the reference's running best over those classes, and
    the classes it does not read are left as they were."""
    strategy = MODEL
    model = strategy.removal_model(GUANGXI, 4)
    assert model is not None
    solver = strategy.solver(GUANGXI, 4)
    win = np.ascontiguousarray(solver.tables.win)
    tie = np.ascontiguousarray(solver.tables.tie)
    n_fine = win.shape[1]
    payout = payout_model(GUANGXI, 4, horse=True)
    for row in _hands(8, 7):
        ref = strategy.hand_solver(row, GUANGXI, 4)
        q64 = ev_quantities(model_tables(solver.tables, row, model), payout)
        classes = fine_classes(dun_ranks(row[split_positions(SPLIT_IDS)], GUANGXI))
        fronts = np.unique(classes[:, 0]).astype(np.int32)
        fives = np.unique(classes[:, 1:]).astype(np.int32)
        q = solver.q.copy()[None]
        fav = solver.fav.copy()[None]
        sep = np.full((1, 3, n_fine), np.nan)
        wanted = np.zeros((3, (n_fine + 63) // 64), dtype=np.uint64)
        active = np.empty(MAX_HAND_FEATURES, dtype=np.int64)
        classes = np.empty(n_fine, dtype=np.int64)
        _model_condition(
            row, model.weights, win, tie, fronts, fives, q, fav, sep, wanted, active, classes
        )
        assert not wanted.any()  # left zero for the next hand
        read = (np.union1d(fronts, fives[fives <= fronts.max()]), fives)
        for d in range(3):
            at = read[min(d, 1)]
            assert np.array_equal(q[0, d, at], ref.q[d, at])
            assert np.array_equal(sep[0, d, at], ref.sep[d, at])
            over_read = favourable_quantities(q64[d : d + 1, at])[0].astype(np.float32)
            assert np.array_equal(fav[0, d, at, :2], over_read[:, :2])
            left = np.setdiff1d(np.arange(n_fine), at)
            assert np.isnan(sep[0, d, left]).all()
            assert np.array_equal(q[0, d, left], solver.q[d, left])


@pytest.mark.parametrize("variant", SHIPPED)
def test_the_shipped_models_fit_the_shipped_tables_and_read_close_to_the_exact_shifts(variant):
    """Each shipped model names the tables and pool setter it was fitted for, which are the
    shipped ones; on hands it was not fitted on it reads a third or less of the exact
    shifts' spread away from the shifts the (smaller, shipped) pool counts."""
    v = resolve_variant(variant)
    strategy = ExpectedScore(places=True)
    model = shipped_removal_model(variant, 4)
    assert model is not None and removal_model_path(variant, 4).exists()
    tables = strategy._tables(v, 4)
    assert model.meta["fitted_on"] == model_key(tables, strategy.setter_name())
    assert model.meta["fitted_on"]["tables"] == tables_fingerprint(tables)
    pool = removal_pool(strategy, v, 4)
    exact = np.stack([hand_shift(row, pool, 0.0) for row in _hands(200, 23)])
    read = np.stack([model.shift(row) for row in _hands(200, 23)])
    assert np.sqrt(((exact - read) ** 2).mean()) < 0.7 * np.sqrt((exact**2).mean())


def test_which_strategies_read_a_model():
    """Asked for the model (or ``auto``), expected-score reads the shipped one where it fits
    (guangxi and guangxi-regional at 4 players, the places on); none elsewhere, with other
    tables or options; asked for a model where none fits, it says so before any work."""
    auto = ExpectedScore(places=True, conditioning="auto")
    assert auto.removal_model(GUANGXI, 4) is MODEL.removal_model(GUANGXI, 4) is not None
    assert ExpectedScore(places=True).removal_model(GUANGXI, 4) is None  # none by default
    fujian = resolve_variant("fujian")
    assert auto.removal_model(fujian, 4) is None
    assert auto.removal_model(GUANGXI, 3) is None
    for other in ({"places": False}, {"joint": False}):
        made = ExpectedScore(**{"places": True, "conditioning": "auto", **other})
        assert made.removal_model(GUANGXI, 4) is None, other
    tables = auto._tables(GUANGXI, 4)
    moved = replace(tables, win=tables.win * 0.99)
    assert ExpectedScore(moved, places=True, conditioning="auto").removal_model(GUANGXI, 4) is None
    with pytest.raises(SimkitError, match="no card-removal model fits fujian at 4"):
        MODEL.removal_model(fujian, 4)
    with pytest.raises(SimkitError, match="no card-removal model fits guangxi at 4"):
        ExpectedScore(conditioning="model", places=False).choose_splits(
            _hands(4, 1), GUANGXI, n_players=4
        )
    for bad, match in (
        ({"conditioning": "guess"}, "conditioning must be one of none, auto, model"),
        ({"conditioning": "none", "search": "rerank"}, "conditioning is auto or model"),
    ):
        with pytest.raises(SimkitError, match=match):
            ExpectedScore(**bad)


def test_the_model_and_the_pool_mostly_agree_and_both_move_off_expected_score():
    """On 400 hands the model's splits equal the pool's on most, both differ from
    expected-score's on some, and the model's search gives the strategy's answers."""
    hands = _hands(400, 29)
    model, _ = MODEL.choose_splits(hands, GUANGXI, n_players=4)
    exact = removal_pool(MODEL, GUANGXI, 4)
    pool, _, _, _ = conditioned_ids(hands, MODEL.solver(GUANGXI, 4), exact, SHRINK_PRIOR)
    plain, _ = ExpectedScore().choose_splits(hands, GUANGXI, n_players=4)
    assert (model == pool).all(axis=1).mean() > 0.8
    assert 0.05 < (model != plain).any(axis=1).mean() < 0.5
    found = model_ids(hands, MODEL.solver(GUANGXI, 4), MODEL.removal_model(GUANGXI, 4))
    assert (found[0] == model).all()
    # by name with the option, through what simulations and the regret protocol call
    with pytest.raises(ValueError, match="one plain deck"):
        model_ids(hands[:1] + 52, MODEL.solver(GUANGXI, 4), MODEL.removal_model(GUANGXI, 4))
    named = strategy_from_name("expected-score:places=true,conditioning=model")
    (played,) = arrangements([hands], [GUANGXI], named, n_players=4)
    assert (played.split_ids == model).all()
