"""Arrangement strategies: exact search, no fouls, a slow reference, declaring specials."""

from functools import lru_cache
from itertools import combinations

import numba as nb
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.arrange import (
    DEFAULT_STRATEGY,
    N_CLASSES,
    STRATEGIES,
    Greedy,
    MaxEV,
    Objective,
    RandomLegal,
    arrange,
    arrange_variants,
    as_strategy,
    dun_classes,
    exhaustive_ids,
    expected_points,
    fine_classes,
    legal_splits,
    make_solver,
    max_ev_ids,
    max_ev_ids_many,
    pareto_front,
    payout_model,
    rank_tables_of,
    split_values,
    strategy_from_name,
    uniform_tables,
)
from simkit.arrange.classes import fine_codes
from simkit.arrange.joint import joint_cdfs, joint_of_population
from simkit.arrange.search import (
    CAP_CLASS_SLOTS,
    INDEPENDENT_JOINT,
    _cap_classes,
    back_caps,
    long_suits,
    walk_scratch,
)
from simkit.arrange.subsets import rank_subsets
from simkit.cards import parse_cards
from simkit.deal import deal
from simkit.evaluate import dun_ranks, rank3, rank5, ranking_tables
from simkit.score import pair_points
from simkit.specials import best_special, detect_specials
from simkit.splits import BACK_FRONT, BACK_MIDDLE, FIVE_SUBSETS, SPLIT_IDS, THREE_SUBSETS
from simkit.variants import load_variant, variant_names


def assert_no_foul(hands, arranged, variant):
    """Cards are the hand's, and front ≤ middle ≤ back (front < middle where strict)."""
    v = load_variant(variant)
    assert (np.sort(arranged, axis=-1) == np.sort(hands, axis=-1)).all()
    r = dun_ranks(arranged, v)
    assert (r[..., 1] <= r[..., 2]).all()
    if v.scoring.foul.front_middle == "<":
        assert (r[..., 0] < r[..., 1]).all()
    else:
        assert (r[..., 0] <= r[..., 1]).all()


# --------------------------------------------------------------------------------------------
# The pruned search equals the exhaustive one


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "players", "n_hands"),
    [("western-2-4", 2, 10_000), ("guangxi", 4, 3_000), ("taiwan", 4, 2_000),
     ("qiantang", 3, 2_000)],
)  # fmt: skip
def test_max_ev_pruned_search_equals_all_72072_splits(variant, players, n_hands):
    """Same value and the same split (deterministic tie-break) as scoring every split."""
    solver = make_solver(variant, players)
    hands = deal(n_hands // players + 1, players, rng=11).reshape(-1, 13)[:n_hands]
    ids, values, n_scored = max_ev_ids(hands, solver)
    ids_all, values_all = exhaustive_ids(hands, solver)
    assert (values == values_all).all()
    assert (ids == ids_all).all()
    assert n_scored.mean() < 72072 / 8  # pruning does most of the work


def test_one_pass_over_several_solvers_equals_one_search_each():
    """Solvers sharing a ranking searched together give each solver's own answer."""
    names = ["hongkong", "taiwan", "qiantang", "western-2-4"]
    solvers = [make_solver(name, 4) for name in names]
    hands = deal(400, 4, rng=21).reshape(-1, 13)
    together = max_ev_ids_many(hands, solvers)
    for solver, (ids, values, n_scored) in zip(solvers, together, strict=True):
        ids_alone, values_alone, n_scored_alone = max_ev_ids(hands, solver)
        assert (ids == ids_alone).all()
        assert (values == values_alone).all()
        assert (n_scored == n_scored_alone).all()
    with pytest.raises(ValueError, match="ranks duns differently"):
        max_ev_ids_many(hands, [make_solver("guangxi", 4), make_solver("hongkong", 4)])


def test_variants_that_order_duns_alike_share_their_tables():
    """Rank tables depend on the ordering rules, not on the note citing their source."""
    wheel_lowest = [load_variant(n) for n in ("hongkong", "taiwan", "qiantang", "western-2-4")]
    assert len({v.ranking for v in wheel_lowest}) > 1  # different source notes
    assert len({id(rank_tables_of(v)) for v in wheel_lowest}) == 1
    assert rank_tables_of(load_variant("guangxi")) is not rank_tables_of(wheel_lowest[0])


def test_arrange_variants_equals_arrange_per_variant():
    """Every shipped variant, with passed cards for one of them and tables borrowed by another:
    the grouped search arranges and declares exactly as one ``arrange`` call per variant."""
    names = variant_names()
    dealt = deal(300, 4, rng=22)
    passed = dealt[:, ::-1].copy()  # other cards per seat: a group of its own
    hands = [passed if i % 3 == 0 else dealt for i in range(len(names))]
    borrowed = make_solver("fujian", 4).tables
    tables = [borrowed if name == "guangxi-regional" else None for name in names]
    found = arrange_variants(hands, names, "max-ev", n_players=4, tables=tables)
    for name, h, t, (arranged, declared) in zip(names, hands, tables, found, strict=True):
        want_arranged, want_declared = arrange(h, name, "max-ev", n_players=4, tables=t)
        assert (arranged == want_arranged).all(), name
        assert (declared == want_declared).all(), name
    with pytest.raises(ValueError, match="2 hand arrays for 1 variants"):
        arrange_variants([dealt, dealt], ["guangxi"])


@nb.njit(cache=True)
def _lexicographic_max(r5, r3, split_ids, strict_front, out):  # type: ignore[no-untyped-def]
    """Greedy's objective over all 72,072 splits: max (back, middle, front) among legal."""
    for h in range(r5.shape[0]):
        best = (-1, -1, -1)
        for s in range(split_ids.shape[0]):
            rf, rm, rb = r3[h, split_ids[s, 0]], r5[h, split_ids[s, 1]], r5[h, split_ids[s, 2]]
            if rm > rb or rf > rm or (strict_front and rf == rm):
                continue
            if (rb, rm, rf) > best:
                best = (rb, rm, rf)
        out[h, 0], out[h, 1], out[h, 2] = best[2], best[1], best[0]


@pytest.mark.parametrize(("variant", "n_games"), [("guangxi", 2500), ("taiwan", 500)])
def test_greedy_equals_the_lexicographic_best_of_all_splits(variant, n_games):
    """Strongest back, then strongest middle, front = rest: checked on 10,000 hands."""
    v = load_variant(variant)
    hands = deal(n_games, 4, rng=12).reshape(-1, 13)
    arranged, _ = arrange(hands, v, "greedy", declare="never")
    r5 = rank5(hands[:, FIVE_SUBSETS], v)
    r3 = rank3(hands[:, THREE_SUBSETS], v)
    want = np.empty((len(hands), 3), dtype=np.int64)
    _lexicographic_max(r5, r3, SPLIT_IDS, v.scoring.foul.front_middle == "<", want)
    assert (dun_ranks(arranged, v) == want).all()


def _suited_hands(n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` sorted hands holding 7 to 13 cards of one suit (many flushes among their
    subsets, and suited 5-sets beside non-suited ones of the same ranks)."""
    rows = []
    for _ in range(n):
        suit, k = rng.integers(4), rng.integers(7, 14)
        suited = rng.choice(np.arange(suit, 52, 4), k, replace=False)
        others = rng.choice(
            np.setdiff1d(np.arange(52), np.arange(suit, 52, 4)), 13 - k, replace=False
        )
        rows.append(np.sort(np.concatenate([suited, others])))
    return np.array(rows)


def _distinct_rankings() -> list[str]:
    """One shipped variant per distinct ranking table set (``rank_tables_of``)."""
    seen: dict[int, str] = {}
    for name in variant_names():
        seen.setdefault(id(rank_tables_of(load_variant(name))), name)
    return sorted(seen.values())


@pytest.mark.parametrize("variant", _distinct_rankings())
def test_the_subsets_ranking_equals_the_evaluator_on_every_subset(variant):
    """The ranking every search starts from (``subsets.rank_subsets``: the rank-multiset
    tables, a flush path, unsigned indices) against the evaluator on each of a hand's 1,287
    5-card and 286 3-card subsets, ranks and fine classes alike: 300 dealt hands and 200 built
    with 7 to 13 cards of one suit, for every ranking a shipped variant uses."""
    v = load_variant(variant)
    rt = rank_tables_of(v)
    hands = np.concatenate([
        np.sort(deal(75, 4, rng=21).reshape(-1, 13), axis=1),
        _suited_hands(200, np.random.default_rng(22)),
    ])  # fmt: skip
    want5 = rank5(hands[:, FIVE_SUBSETS], v)
    want3 = rank3(hands[:, THREE_SUBSETS], v)
    r5, k5 = np.empty(1287, np.int32), np.empty(1287, np.int32)
    r3, k3 = np.empty(286, np.int32), np.empty(286, np.int32)
    flushes = 0
    for h, row in enumerate(hands):
        rank_subsets(row, rt, r5, r3, k5, k3)
        assert (r5 == want5[h]).all() and (r3 == want3[h]).all(), row
        assert (k5 == fine_classes(want5[h])).all() and (k3 == fine_classes(want3[h])).all(), row
        suits = row[FIVE_SUBSETS] & 3
        flushes += int((suits == suits[:, :1]).all(axis=1).sum())
    assert flushes > 50_000  # the flush path is exercised


def test_user_objective_equals_all_splits():
    """A callable objective gets every legal split: its best equals a scan of all 72,072."""
    v = load_variant("guangxi")

    def objective(ranks):  # prefer a strong front, then middle (not monotone in the back)
        return ranks[:, 0] * 1e-3 + ranks[:, 1] * 1e-9 - ranks[:, 2] * 1e-12

    hands = deal(40, 2, rng=13).reshape(-1, 13)
    arranged, _ = arrange(hands, v, objective, declare="never")
    got = objective(dun_ranks(arranged, v).astype(np.float64))
    for h, hand in enumerate(hands):
        f = rank3(hand[THREE_SUBSETS[SPLIT_IDS[:, 0]]], v)
        m = rank5(hand[FIVE_SUBSETS[SPLIT_IDS[:, 1]]], v)
        b = rank5(hand[FIVE_SUBSETS[SPLIT_IDS[:, 2]]], v)
        legal = (f <= m) & (m <= b)
        scores = objective(np.stack([f, m, b], axis=1)[legal].astype(np.float64))
        assert got[h] == scores.max()


# --------------------------------------------------------------------------------------------
# A slow, obviously correct reference


def _reference_value(w, l, v, e, p):
    """The expected-score model of simkit.arrange, written out again in plain numpy."""
    fields = (
        "n_opp", "scoop_add", "scoop_double", "scoop_ties", "majority", "majority_two", "home",
        "home_add", "home_factor", "scoop_rate", "home_base",
    )  # fmt: skip
    n_opp, add, double, ties, maj, maj_two, home, home_add, home_factor, rate, home_base = (
        float(p[f]) for f in fields
    )
    t = 1 - w - l
    base = (w * v - l * e).sum(-1)
    if ties:
        s_for = (1 - l).prod(-1) - t.prod(-1)
        s_against = (1 - w).prod(-1) - t.prod(-1)
    else:
        s_for, s_against = w.prod(-1), l.prod(-1)
    won, paid = v.sum(-1), e.sum(-1)
    pair = base
    if maj:
        outcomes = np.zeros((*w.shape[:-1], 2))
        for o in np.ndindex(3, 3, 3):  # 0 win, 1 tie, 2 lose, per dun
            prob = np.ones(w.shape[:-1])
            for d, k in enumerate(o):
                prob = prob * (w, t, l)[k][..., d]
            n_w, n_l = o.count(0), o.count(2)
            win_match = n_w >= 2 if maj_two else n_w > n_l
            lose_match = n_l >= 2 if maj_two else n_l > n_w
            outcomes[..., 0] += prob * win_match
            outcomes[..., 1] += prob * lose_match
        pair = pair + maj * (outcomes[..., 0] - outcomes[..., 1])
        won, paid = won + maj, paid + maj
    if double == 1:
        pair = pair + s_for * won - s_against * paid
        won, paid = 2 * won, 2 * paid
    elif double == 2:
        pair = pair + 3 * (s_for - s_against)
        won, paid = won + 3, paid + 3
    pair = pair + add * (s_for - s_against)
    won, paid = won + add, paid + add
    total = n_opp * pair
    if home:
        h_for = s_for**n_opp
        h_against = s_against * rate ** (n_opp - 1)
        total = total + n_opp * home_add * (h_for - h_against)
        if home_base:  # a base-only home run multiplies the (doubled) dun count alone
            total = total + (home_factor - 1) * home_base * (n_opp * h_for - h_against)
        else:
            total = total + (home_factor - 1) * (
                n_opp * h_for * (won + home_add) - h_against * (paid + home_add)
            )
    return total


@lru_cache(maxsize=1)
def _all_splits():
    """Every split as 13 hand positions [front | middle | back], listed with itertools."""
    splits = []
    for back in combinations(range(13), 5):
        rest = [i for i in range(13) if i not in back]
        for middle in combinations(rest, 5):
            front = [i for i in rest if i not in middle]
            splits.append((*front, *middle, *back))
    return np.array(splits)


def _reference_best(hand, v, solver):
    """Best expected score over all splits (no simkit split tables or search kernels)."""
    from simkit.arrange.classes import coarse_of_fine

    # the solver reads max-ev's coarse tables on fine classes: back to one row per coarse class
    fine_of_coarse = np.searchsorted(coarse_of_fine(), np.arange(N_CLASSES))
    q = solver.q[:, np.minimum(fine_of_coarse, solver.q.shape[1] - 1)]
    p = solver.model.params
    r = dun_ranks(hand[_all_splits()], v).astype(np.int64)
    legal = r[:, 1] <= r[:, 2]
    legal &= r[:, 0] < r[:, 1] if v.scoring.foul.front_middle == "<" else r[:, 0] <= r[:, 1]
    r = r[legal]
    kicker = r & 0xFFFFF
    d1, rest = kicker // 14**4, kicker % 14**4
    d2 = np.where((rest // 14**3 == 0) & (rest > 0), 13, rest // 14**3)  # the second wheel
    cls = (r >> 20) * 196 + d1 * 14 + d2
    duns = np.arange(3)
    w, l, vw, e = (q[duns, cls, k] for k in range(4))
    return _reference_value(w, l, vw, e, p).max()


@pytest.mark.parametrize(
    ("variant", "players", "n_hands"),
    [("western-2-4", 2, 20), ("guangxi", 4, 150), ("taiwan", 3, 80), ("qiantang", 4, 30)],
)
def test_max_ev_agrees_with_a_slow_reference(variant, players, n_hands):
    v = load_variant(variant)
    solver = make_solver(v, players)
    hands = deal(n_hands, players, rng=14)[:, 0]
    _, values, _ = max_ev_ids(hands, solver)
    want = np.array([_reference_best(h, v, solver) for h in hands])
    np.testing.assert_allclose(values, want, rtol=1e-9, atol=1e-9)


def test_dun_class_is_category_and_top_two_digits_in_rank_order():
    from simkit.evaluate import encode

    ranks = np.array([encode(0, (12, 11, 9, 3, 2)), encode(1, (12, 0, 5, 3)), encode(4, (3,))])
    assert dun_classes(ranks).tolist() == [13 * 14 + 12, 196 + 13 * 14 + 1, 4 * 196 + 4 * 14]
    hands = deal(500, 4, rng=15).reshape(-1, 13)
    r = np.sort(rank5(hands[:, FIVE_SUBSETS], "guangxi").ravel())
    c = dun_classes(r)
    assert (np.diff(c) >= 0).all() and c.max() < N_CLASSES


# --------------------------------------------------------------------------------------------
# The payout model is the scorer's pairwise rule


def _dependent_joint() -> np.ndarray:
    rng = np.random.default_rng(8)
    ranks = rng.standard_normal((20000, 1)) + 0.5 * rng.standard_normal((20000, 3))
    return joint_cdfs(joint_of_population(ranks, rng))


DEPENDENT_JOINT = _dependent_joint()


@nb.njit(cache=True)
def _model_points(ra, rb, ca, cb, win_points, p, cop, out):  # type: ignore[no-untyped-def]
    for i in range(ra.shape[0]):
        w = np.zeros(3)
        lo = np.zeros(3)
        for d in range(3):
            w[d] = 1.0 if ra[i, d] > rb[i, d] else 0.0
            lo[d] = 1.0 if ra[i, d] < rb[i, d] else 0.0
        out[i] = expected_points(
            w[0], w[1], w[2], lo[0], lo[1], lo[2],
            win_points[0, ca[i, 0]], win_points[1, ca[i, 1]], win_points[2, ca[i, 2]],
            win_points[0, cb[i, 0]], win_points[1, cb[i, 1]], win_points[2, cb[i, 2]],
            p, cop,
        )  # fmt: skip


@pytest.mark.parametrize("variant", variant_names())
def test_model_with_certain_outcomes_is_pair_points(variant):
    """With win/lose chances 0 or 1 the model pays exactly what simkit.score.pair_points does
    (dun worths, bonuses, majority, scoop) — so the model reads the scoring rules correctly;
    so does the model with a copula of the duns (simkit.arrange.joint), which certain
    outcomes cannot move."""
    v = load_variant(variant)
    hands = deal(1500, 2, rng=16)
    r = dun_ranks(arrange(hands, v, "random-legal", rng=1, declare="never")[0], v)
    ra, rb = r[:, 0].astype(np.int32), r[:, 1].copy().astype(np.int32)
    same = np.random.default_rng(2).random(rb.shape) < 0.25  # ties, and more scoops
    rb = np.where(same, ra, rb)
    for players in (2, 3, 4):
        model = payout_model(v, players)
        p = model.params.copy()[()]
        p["n_opp"], p["home"] = 1.0, 0.0  # one opponent, no home run (a table-wide rule)
        out = np.empty(len(ra))
        # the payout model's worths are by fine class (what the kernels read)
        ca, cb = fine_classes(ra).astype(np.int64), fine_classes(rb).astype(np.int64)
        _model_points(ra, rb, ca, cb, model.win_points, p, INDEPENDENT_JOINT, out)
        np.testing.assert_allclose(out, pair_points(ra, rb, v, players))
        p["joint"] = 1.0
        _model_points(ra, rb, ca, cb, model.win_points, p, DEPENDENT_JOINT, out)
        np.testing.assert_allclose(out, pair_points(ra, rb, v, players))


# --------------------------------------------------------------------------------------------
# No strategy ever fouls


@pytest.mark.parametrize(
    "strategy", ["max-ev", "greedy", "random-legal", "expected-score", DEFAULT_STRATEGY]
)
@pytest.mark.parametrize("variant", ["guangxi", "taiwan", "western-2-4"])
def test_no_strategy_fouls(strategy, variant):
    hands = deal(1000, 4, rng=17)
    arranged, declared = arrange(hands, variant, strategy, rng=3)
    assert arranged.shape == hands.shape and arranged.dtype == np.int8
    assert declared.shape == (1000, 4) and declared.dtype == np.int8
    assert_no_foul(hands, arranged, variant)


@given(st.permutations(list(range(52))))
def test_any_hand_is_set_without_fouling(deck):
    hand = np.array(deck[:13], dtype=np.int8)
    for strategy in ("max-ev", "greedy", "random-legal"):
        arranged, _ = arrange(hand, "hongkong", strategy, rng=0)
        assert_no_foul(hand, arranged, "hongkong")


def test_two_deck_hands_are_arranged():
    hands = deal(50, 6, rng=18)
    arranged, _ = arrange(hands, "guangxi", "max-ev", n_players=6)  # its own 6-player tables
    assert_no_foul(hands, arranged, "guangxi")


def test_random_legal_is_uniform_over_legal_splits():
    """Back categories drawn match their exact share of the legal ordered splits (chi-square),
    and greedy (a negative control) does not."""
    from scipy.stats import chisquare

    v = load_variant("western-2-4")
    hand = parse_cards("As Ad Kh Kc 9s 9h 7d 6d 5d 4c 3s 2h 2d")
    f = rank3(hand[THREE_SUBSETS[SPLIT_IDS[:, 0]]], v)
    m = rank5(hand[FIVE_SUBSETS[SPLIT_IDS[:, 1]]], v)
    b = rank5(hand[FIVE_SUBSETS[SPLIT_IDS[:, 2]]], v)
    legal = (f <= m) & (m <= b)
    exact = np.bincount(b[legal] >> 20, minlength=10) / legal.sum()
    n = 20_000
    for strategy, should_pass in (("random-legal", True), ("greedy", False)):
        arranged, _ = arrange(np.tile(hand, (n, 1)), v, strategy, rng=4)
        drawn = np.bincount(rank5(arranged[:, 8:], v) >> 20, minlength=10)
        keep = exact > 0
        p = chisquare(drawn[keep], exact[keep] * n).pvalue
        assert (p > 1e-3) == should_pass


def test_same_seed_same_random_arrangement():
    hands = deal(200, 4, rng=19)
    a1, _ = arrange(hands, "guangxi", "random-legal", rng=5)
    a2, _ = arrange(hands, "guangxi", "random-legal", rng=5)
    a3, _ = arrange(hands, "guangxi", "random-legal", rng=6)
    assert (a1 == a2).all() and not (a1 == a3).all()


# --------------------------------------------------------------------------------------------
# Declaring specials


def test_declared_exactly_when_the_payout_beats_the_normal_expected_score():
    """auto: declare the best special iff payout × opponents > best normal expected score."""
    v = load_variant("guangxi")
    hands = deal(2_000, 4, rng=20).reshape(-1, 13)
    best = best_special(detect_specials(hands, v))
    qualify = best >= 0
    assert qualify.sum() > 20
    _, values, _ = max_ev_ids(hands, make_solver(v, 4))
    payout = np.array([r.payout for r in v.specials.rules])[np.maximum(best, 0)]
    want = np.where(qualify & (payout * 3 > values), best, -1)
    _, declared = arrange(hands, v, "max-ev", n_players=4)
    assert (declared == want).all()
    _, always = arrange(hands, v, "greedy", declare="always")
    _, never = arrange(hands, v, "max-ev", declare="never")
    assert (always == best).all() and (never == -1).all()


def test_a_dragon_is_always_declared():
    """一条龙 pays 36 a player (002): no normal setting of 2..A expects that much."""
    hand = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    v = load_variant("guangxi")
    _, declared = arrange(hand, v)
    assert v.specials.rules[int(declared)].id == "dragon"


def test_no_specials_no_declaring():
    hands = deal(100, 4, rng=21)
    _, declared = arrange(hands, "western-2-4", declare="always")
    assert (declared == -1).all()


# --------------------------------------------------------------------------------------------
# Helpers, errors


def test_legal_splits_and_pareto_front():
    hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s")
    ids, ranks = legal_splits(hand, "guangxi")
    assert len(ids) == len({tuple(r) for r in ids.tolist()})
    front = pareto_front(ranks)
    kept = ranks[front]
    for r in ranks[~front][:100]:
        assert ((kept >= r).all(axis=1)).any()
    # the best max-ev split is on the front (the value only grows with each dun)
    values = split_values(ranks, make_solver("guangxi", 4))
    assert values[front].max() == values.max()


def test_bad_input_is_rejected_before_work():
    with pytest.raises(ValueError, match="13 cards"):
        arrange(np.zeros((2, 12), dtype=np.int8), "guangxi")
    with pytest.raises(ValueError, match="unknown strategy"):
        arrange(deal(1, 2, rng=0), "guangxi", "best")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="declare"):
        arrange(deal(1, 2, rng=0), "guangxi", declare="sometimes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        arrange(np.zeros(13, dtype=float), "guangxi")


def test_western_heads_up_tables_match_published_figures():
    """Hankin's heads-up tables: an ace-high straight in the middle wins about 91%, a pair of
    aces in front 92-99% (by kicker)."""
    solver = make_solver("western-2-4", 2)
    win = solver.tables.win
    straight = dun_classes(rank5(parse_cards("As Kd Qh Jc Th")))
    assert abs(win[1, straight] - 0.91) < 0.03
    for kicker in "23456789TJQK":
        aces = dun_classes(rank3(parse_cards(f"Ah Ad {kicker}c")))
        assert 0.90 <= win[0, aces] <= 1.0


# --------------------------------------------------------------------------------------------
# Strategies as objects


def test_strategy_objects_set_hands_as_their_names_do():
    hands = deal(40, 4, rng=8)
    for name, strategy in (
        ("max-ev", MaxEV()),
        ("greedy", Greedy()),
        ("random-legal", RandomLegal()),
    ):
        want = arrange(hands, "guangxi", name, rng=5)
        got = arrange(hands, "guangxi", strategy, rng=5)
        assert (got[0] == want[0]).all() and (got[1] == want[1]).all(), name
        assert strategy.name == name
    tables = uniform_tables()
    want = arrange(hands, "guangxi", "max-ev", tables=tables)
    got = arrange(hands, "guangxi", MaxEV(tables))
    assert (got[0] == want[0]).all() and (got[1] == want[1]).all()

    def objective(ranks):
        return ranks[:, 1] * 1.0

    want = arrange(hands, "guangxi", objective)
    got = arrange(hands, "guangxi", Objective(objective))
    assert (got[0] == want[0]).all() and (got[1] == want[1]).all()


def test_strategies_are_registered_by_name():
    assert STRATEGIES == (
        "max-ev",
        "greedy",
        "random-legal",
        "expected-score",
        "expected-score-rerank",
    )
    for name in STRATEGIES:
        strategy = strategy_from_name(name)
        assert strategy.name == name and as_strategy(name).name == name
        assert repr(strategy_from_name(name)) == repr(as_strategy(name))
    greedy = Greedy()
    assert as_strategy(greedy) is greedy
    with pytest.raises(ValueError, match="unknown strategy 'best'"):
        strategy_from_name("best")
    with pytest.raises(ValueError, match="no such table file"):
        strategy_from_name("missing.npz")


def test_win_tables_given_twice_are_rejected():
    with pytest.raises(ValueError, match="given twice"):
        arrange(deal(1, 2, rng=0), "guangxi", MaxEV(uniform_tables()), tables=uniform_tables())


# --------------------------------------------------------------------------------------------
# A hand holds each card only as often as the decks do


def test_a_hand_holding_a_card_twice_is_rejected_naming_the_card():
    hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s")
    twice = hand.copy()
    twice[12] = twice[0]  # a second A♠
    for strategy in STRATEGIES:
        with pytest.raises(ValueError, match="arrange: hand holds A♠ 2 times; 1 deck"):
            arrange(twice, "guangxi", strategy)
    hands = deal(3, 4, rng=1)
    hands[1, 2, 5] = hands[1, 2, 0]
    with pytest.raises(ValueError, match=r"hand \(1, 2\) holds"):
        arrange(hands, "guangxi", "greedy")
    with pytest.raises(ValueError, match=r"hand \(1, 2\) holds"):
        arrange_variants([hands], ["guangxi"])


def test_two_decks_allow_a_card_twice_but_not_three_times():
    hand = parse_cards("As As Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s", decks=2)
    arranged, _ = arrange(hand, "guangxi", "greedy", n_players=6)
    assert (np.sort(arranged) == np.sort(hand)).all()
    hand[2] = hand[0]
    with pytest.raises(ValueError, match="A♠ 3 times; 2 deck"):
        arrange(hand, "guangxi", "greedy", n_players=6)


def test_cap_classes_cache_gives_each_rank_its_own_class():
    """The search reads the classes of a back's caps through a cache keyed by the rank's low
    bits (``simkit.arrange.search._cap_classes``): every dun rank of a shipped ranking, fed so
    that ranks sharing a slot follow one another (a stale slot would answer another rank's
    class) and then in a shuffled order, gets ``class_of_code[fine_code(rank)]``."""
    variant = load_variant("guangxi")
    class_of_code = rank_tables_of(variant)[6]
    ranks = np.unique(np.concatenate([t[t >= 0] for t in ranking_tables(variant.ranking)]))
    want = class_of_code[fine_codes(ranks)].astype(np.int64)
    by_slot = np.lexsort((ranks, ranks & (CAP_CLASS_SLOTS - 1)))
    assert (np.diff(ranks[by_slot] & (CAP_CLASS_SLOTS - 1)) == 0).sum() > 1000  # slots shared
    shuffled = np.random.default_rng(0).permutation(len(ranks))
    cap_rank, cap_class = walk_scratch(4)[16:18]
    for order in (by_slot, shuffled):
        # the middle's rank and a front's (another rank) in one call, as the walk asks
        fronts = np.roll(order, 1)
        for i, j in zip(order, fronts, strict=True):
            got = _cap_classes(
                np.int32(ranks[i]), np.int32(ranks[j]), class_of_code, cap_rank, cap_class
            )
            assert got == (want[i], want[j])
    assert _cap_classes(np.int32(-1), np.int32(-1), class_of_code, cap_rank, cap_class) == (-1, -1)


def _scanned_caps(row, variant):
    """Each back's rank and caps by a plain scan of its 56 splits: the strongest middle and
    front ranks over its legal splits (front ≤ middle ≤ back; -1: none)."""
    r3, r5 = rank3(row[THREE_SUBSETS], variant), rank5(row[FIVE_SUBSETS], variant)
    rm, rf = r5[BACK_MIDDLE.astype(np.int64)], r3[BACK_FRONT.astype(np.int64)]
    legal = (rm <= r5[:, None]) & (rf <= rm)
    return r5, np.where(legal, rm, -1).max(axis=1), np.where(legal, rf, -1).max(axis=1)


def _rest_holds_no_flush(row):
    """For each back, whether the hand's other 8 cards hold fewer than five of every suit."""
    rest = np.ones((len(FIVE_SUBSETS), 13), dtype=bool)
    rest[np.arange(len(FIVE_SUBSETS))[:, None], FIVE_SUBSETS] = False
    suits = np.where(rest, row[None, :] & 3, 4)
    return np.stack([(suits == s).sum(axis=1) for s in range(4)]).max(axis=0) < 5


def test_backs_of_one_rank_share_their_caps_where_the_other_cards_hold_no_flush():
    """The walks keep a back's caps (the strongest legal middle and front its other 8 cards
    allow) by the back's rank where those 8 can hold no flush (``search.back_caps``).  On
    dealt hands of one deck and two, and hands built with a suit of 6 to 9 cards:
    ``long_suits`` gives the masks of the suits of five cards or more; every back fed to
    ``back_caps`` in a shuffled order (so that a rank's caps are first computed at any of
    its backs) gets the classes of its own scan's caps; and the premise holds, every two
    backs of one rank whose other 8 cards hold no flush scanning to the same caps.  Where
    they can hold one, backs of one rank do differ: the condition is needed."""
    v = load_variant("guangxi")
    rt = rank_tables_of(v)
    class_of = rt[6]
    built = [
        parse_cards("A♠ K♠ Q♠ 9♠ 7♠ 5♠ 2♠ A♥ K♦ Q♣ 9♥ 7♦ 5♣"),
        parse_cards("A♠ K♠ Q♠ J♠ 9♠ 8♠ A♥ A♦ K♥ K♣ 9♦ 8♣ 3♥"),
        parse_cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ T♣ 2♥ 3♦ 4♠ 5♥"),
    ]
    rows = np.concatenate([
        np.array(built),
        deal(40, 4, rng=5).reshape(-1, 13),
        deal(20, 6, rng=6, deck=v.deck_for(6)).reshape(-1, 13),
    ])  # fmt: skip
    rows = np.sort(rows, axis=1)
    r5k, c5k = np.empty(1287, np.int32), np.empty(1287, np.int32)
    r3k, c3k = np.empty(286, np.int32), np.empty(286, np.int32)
    work = walk_scratch(4)
    cap_m, cap_f, cap_hand = work[9:12]
    cap_rank, cap_class, rank_key, rank_hand, rank_caps = work[16:21]
    rng = np.random.default_rng(0)
    differ = 0
    for h, row in enumerate(rows):
        masks = [sum(1 << i for i in range(13) if row[i] & 3 == s) for s in range(4)]
        long = [m for m in masks if bin(m).count("1") >= 5] + [0, 0]
        assert long_suits(row) == (long[0], long[1]), row
        rb, want_m, want_f = _scanned_caps(row, v)
        plain = _rest_holds_no_flush(row)
        for rank in np.unique(rb):
            same = rb == rank
            shared = same & plain
            assert len(set(zip(want_m[shared], want_f[shared], strict=True))) <= 1  # the premise
            differ += len(set(zip(want_m[same], want_f[same], strict=True))) > 1
        rank_subsets(row, rt, r5k, r3k, c5k, c3k)
        assert (r5k == rb).all()
        la, lb = long_suits(row)
        for b in rng.permutation(1287):
            back_caps(
                b, h, r5k, r3k, BACK_MIDDLE, BACK_FRONT, la, lb, class_of, cap_m, cap_f,
                cap_hand, cap_rank, cap_class, rank_key, rank_hand, rank_caps, row, rt,
            )  # fmt: skip
        want = [np.where(c >= 0, fine_classes(np.maximum(c, 0)), -1) for c in (want_m, want_f)]
        assert (cap_m == want[0]).all() and (cap_f == want[1]).all(), row
    assert differ > 0  # the flush condition matters
