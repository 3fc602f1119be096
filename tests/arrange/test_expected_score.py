"""The expected-score strategy: fine dun classes, the 马牌 of a winning dun, the stronger-front
tie-break, and its search against an exhaustive scan under the same objective."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from simkit.arrange import (
    N_CLASSES,
    ExpectedScore,
    MaxEV,
    WinTables,
    arrange,
    dun_classes,
    exhaustive_ids,
    fine_classes,
    horse_copies,
    horse_model,
    make_solver,
    max_ev_ids,
    n_fine_classes,
    split_values,
    strategy_from_name,
)
from simkit.arrange.classes import coarse_of_fine, ranked_code_list
from simkit.cards import parse_cards
from simkit.deal import deal
from simkit.evaluate import dun_ranks, rank3, rank5
from simkit.variants import load_variant

# one variant of each scoring family: plain duns and majority; bonuses, an added scoop and the
# home run; a doubling scoop and the horse card; a banker table
FAMILIES = [("western-2-4", 2), ("guangxi", 4), ("qiantang", 4), ("taiwan", 4)]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), FAMILIES)
def test_search_equals_the_exhaustive_scan_on_10000_hands(variant, players):
    """The pruned search returns the split and value of scoring all 72,072 splits."""
    solver = ExpectedScore().solver(variant, players)
    hands = deal(10_000 // players + 1, players, rng=2026).reshape(-1, 13)[:10_000]
    ids, values, _ = max_ev_ids(hands, solver)
    want_ids, want_values = exhaustive_ids(hands, solver)
    assert (values == want_values).all()
    assert (ids == want_ids).all()


def test_every_front_rank_is_its_own_fine_class():
    """The front has 455 distinct ranks (286 high cards, 156 pairs, 13 trips): 455 classes."""
    fronts = np.array(list(combinations(range(0, 52, 4), 3)))  # one suit: all rank triples
    pairs = np.array([[4 * a, 4 * a + 1, 4 * b] for a in range(13) for b in range(13) if a != b])
    trips = np.array([[4 * a, 4 * a + 1, 4 * a + 2] for a in range(13)])
    ranks = rank3(np.concatenate([fronts, pairs, trips]), load_variant("western-2-4"))
    assert np.unique(ranks).size == 455
    assert np.unique(fine_classes(ranks)).size == 455


def test_fine_classes_refine_the_coarse_ones_in_rank_order():
    v = load_variant("guangxi")
    hands = deal(3000, 4, rng=3).reshape(-1, 13)
    ranks = np.sort(rank5(hands[:, :5], v))
    fine = fine_classes(ranks)
    assert (np.diff(fine.astype(np.int64)) >= 0).all()
    assert fine.max() < n_fine_classes()
    assert (coarse_of_fine()[fine] == dun_classes(ranks)).all()
    # two pairs, trips, full houses and straights keep every rank: one class per rank there
    assert np.unique(fine).size > 2 * np.unique(dun_classes(ranks)).size


def test_max_ev_plays_its_coarse_tables_unchanged_on_fine_classes():
    """Coarse tables read through the fine classes give every split its coarse value."""
    solver = make_solver("taiwan", 4)
    assert solver.tables.win.shape[1] == N_CLASSES
    hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s")
    ranks = dun_ranks(arrange(hand, "taiwan", "greedy")[0], "taiwan")[None]
    q = solver.q[:, :, 0]  # win chance by dun and fine class
    coarse = dun_classes(ranks)[0]
    for d in range(3):
        fine = fine_classes(ranks)[0, d]
        assert q[d, fine] == np.float64(np.clip(solver.tables.win[d, coarse[d]], 0, 1))


def test_the_horse_card_counts_twice_in_the_dun_that_wins_with_it():
    """qiantang 004 马牌: 'a winning dun that holds it counts twice against the opponent it
    beats' — a split holding ♥A is worth (2 - 1) × P(win) × worth more per opponent."""
    v = load_variant("qiantang")
    card, multiplier = horse_model(v, 4)
    assert card == int(parse_cards("Ah")[0]) and multiplier == 2.0
    assert horse_model(load_variant("guangxi"), 4) == (-1, 1.0)
    solver = ExpectedScore().solver(v, 4)
    hand = parse_cards("Ah Kh Qh Jh 9h 9d 9c 2h 3s 4d 5c 7s 8d")
    arranged = arrange(hand, v, "greedy")[0]
    ranks = dun_ranks(arranged, v)
    copies = horse_copies(arranged, card)
    assert copies.tolist() == [0, 0, 1]
    with_horse = split_values(ranks, solver, copies)
    without = split_values(ranks, solver)
    fine = fine_classes(ranks)
    q = solver.q.astype(np.float64)
    extra = 3 * (multiplier - 1) * q[2, fine[2], 0] * q[2, fine[2], 2]
    np.testing.assert_allclose(with_horse - without, extra, rtol=1e-12)


@pytest.mark.parametrize("copies", [0, 1, 2])
def test_the_horse_counts_of_every_subset_are_the_multiplier_to_its_copies(copies):
    """Each 5- and 3-card subset's extra count is multiplier**(copies it holds) - 1, whether
    the hand holds the 马牌 once (the subsets that hold it marked alone) or twice (two decks)."""
    from simkit.arrange.search import horse_counts
    from simkit.splits import FIVE_SUBSETS, THREE_SUBSETS

    rng = np.random.default_rng(copies)
    card = 50
    for _ in range(20):
        others = rng.choice(np.setdiff1d(np.arange(52), [card]), 13 - copies, replace=False)
        hand = rng.permutation(np.concatenate([others, np.full(copies, card)]))
        x5 = np.full(len(FIVE_SUBSETS), np.nan)  # stale values of an earlier hand
        x3 = np.full(len(THREE_SUBSETS), np.nan)
        got = horse_counts(hand, card, 2.0, FIVE_SUBSETS, THREE_SUBSETS, x5, x3)
        assert got == copies
        if copies:
            held = hand == card
            np.testing.assert_array_equal(x5, 2.0 ** held[FIVE_SUBSETS].sum(axis=1) - 1.0)
            np.testing.assert_array_equal(x3, 2.0 ** held[THREE_SUBSETS].sum(axis=1) - 1.0)


def test_the_search_memo_keys_hold_every_fine_class():
    """The search memoizes a split's value under one int64 key: three 13-bit classes and the
    hand's generation above them, so every fine class must fit in 13 bits."""
    from simkit.arrange.search import MEMO_SLOTS

    assert n_fine_classes() <= 1 << 13
    assert MEMO_SLOTS & (MEMO_SLOTS - 1) == 0  # slots are picked by a mask


def test_the_walk_steps_to_the_next_present_group_below():
    """The search walks the back groups a hand holds through a bit set: from every group,
    the next one below that is present (or none), across and inside 64-bit words."""
    from simkit.arrange.search import present_below

    rng = np.random.default_rng(5)
    n_groups = int(coarse_of_fine()[-1]) + 1
    for density in (0.0, 0.002, 0.02, 0.3, 1.0):
        held = rng.random(n_groups) < density
        bits = np.zeros((n_groups + 63) // 64, dtype=np.uint64)
        for g in np.flatnonzero(held):
            bits[g >> 6] |= np.uint64(1) << np.uint64(g & 63)
        for g in range(n_groups + 1):
            below = np.flatnonzero(held[:g])
            assert present_below(bits, g) == (below[-1] if below.size else -1)


def test_a_backs_horse_bound_holds_every_split_with_that_back():
    """The search bounds the 马牌's points of a back's splits knowing whether the back holds
    it (qiantang's one marked card): every legal split's horse points lie under the bound at
    its back's caps, whether the card sits in the back, the middle or the front."""
    from simkit.arrange import legal_splits
    from simkit.arrange.search import horse_counts
    from simkit.arrange.value import horse_bound_back, horse_points
    from simkit.splits import FIVE_SUBSETS, THREE_SUBSETS

    v = load_variant("qiantang")
    solver = ExpectedScore(removal=False).solver(v, 4)
    card = solver.horse_card
    assert card >= 0
    q, fav = solver.q, solver.fav
    multiplier = float(solver.model.params["horse"])
    rng = np.random.default_rng(11)
    where = {"back": 0, "middle": 0, "front": 0}
    for _ in range(12):
        others = rng.choice(np.setdiff1d(np.arange(52), [card]), 12, replace=False)
        hand = np.sort(np.concatenate([others, [card]])).astype(np.int8)
        x5 = np.zeros(len(FIVE_SUBSETS))
        x3 = np.zeros(len(THREE_SUBSETS))
        assert horse_counts(hand, card, multiplier, FIVE_SUBSETS, THREE_SUBSETS, x5, x3) == 1
        ids, ranks = legal_splits(hand, v)
        classes = fine_classes(ranks).astype(np.int64)
        for b in np.unique(ids[:, 2]):
            rows = ids[:, 2] == b
            cf_cap, cm_cap = classes[rows, 0].max(), classes[rows, 1].max()
            cb = classes[rows, 2][0]
            bound = horse_bound_back(fav, cf_cap, cm_cap, cb, multiplier - 1.0, 1, x5[b])
            for (f, m, _), (cf, cm, _) in zip(ids[rows], classes[rows], strict=True):
                points = horse_points(q, cf, cm, cb, x3[f], x5[m], x5[b])
                assert points <= bound * (1 + 1e-12)
                held = "back" if x5[b] else "middle" if x5[m] else "front" if x3[f] else None
                if held:
                    where[held] += 1
    assert min(where.values()) > 0  # the card was met in every dun


def test_expected_score_is_registered_and_reads_fine_table_files(tmp_path):
    assert strategy_from_name("expected-score").name == "expected-score"
    assert isinstance(strategy_from_name("max-ev"), MaxEV)
    n = n_fine_classes()
    fine = WinTables(
        win=np.full((3, n), 0.5),
        tie=np.zeros((3, n)),
        lose_pay=np.ones((3, n)),
        count=np.zeros((3, n), dtype=np.int64),
    )
    path = tmp_path / "fine.npz"
    fine.save(path)
    assert isinstance(strategy_from_name(str(path)), ExpectedScore)


def test_train_makes_fine_tables_for_expected_score():
    from simkit.train import train

    t = train("western-2-4", 2, seed=1, n_games=2000, iterations=1, strategy="expected-score")
    assert t.win.shape == (3, n_fine_classes())
    assert t.meta["file"] == "western-2-4-2p-fine.npz"
    assert "--strategy expected-score" in t.meta["command"]
    ids, _ = ExpectedScore(t).choose_splits(
        deal(50, 2, rng=1)[:, 0], load_variant("western-2-4"), n_players=2
    )
    assert ids.shape == (50, 3)


def test_shipped_fine_tables_are_current_and_converged():
    """Every shipped ``<variant>-<players>p-fine.npz`` (shipped variants at 2 to 8 players,
    deck options at the sizes their packs serve) was trained under today's rules by its
    recorded command, and its last iteration moved the win chances by under 0.02."""
    from simkit.arrange import shipped_table_path
    from simkit.variants import deck_option_names, variant_names

    served = [(name, p) for name in variant_names() for p in range(2, 9)] + [
        (name, p) for name in deck_option_names() for p in load_variant(name).deck.players
    ]
    found = 0
    for variant, players in served:
        path = shipped_table_path(variant, players, fine=True)
        if not path.exists():
            continue  # expected-score then plays the coarse tables on fine classes
        found += 1
        tables = WinTables.load(path)
        meta = tables.meta
        # fine classes, or the first fine tables' ranked codes (read through fine_of_ranked)
        assert tables.win.shape[1] in (n_fine_classes(), ranked_code_list().shape[0])
        assert meta["variant"] == variant and meta["n_players"] == players
        assert meta["variant_key"] == load_variant(variant).key, f"{path.name} is stale"
        assert meta["command"].startswith(f"simkit train --variant {variant} --players")
        assert meta["command"].endswith("--strategy expected-score")
        assert (np.diff(tables.win, axis=1) >= -1e-6).all()
        changes = meta["change_per_iteration"]
        assert changes[-1] < 0.02 and changes[-1] < changes[0]
    assert found == len(served)  # no fallback to max-ev's coarse tables anywhere


def test_the_payout_parameters_are_one_record_read_by_field_name():
    """The value model's parameters are a record of named fields (``PAYOUT_PARAMS``), not a
    vector read by index: a payout model holds a 0-d array of them, its ``record`` (what the
    kernels take) is a view, and a field's change reaches the kernels' value."""
    from simkit.arrange import PAYOUT_PARAMS, new_params
    from simkit.arrange.search import INDEPENDENT_JOINT
    from simkit.arrange.value import expected_points, payout_model

    assert new_params().shape == () and new_params().dtype == PAYOUT_PARAMS
    assert not new_params().tobytes().strip(b"\0")  # every field zero
    model = payout_model(load_variant("guangxi"), 4)
    assert model.params.dtype == PAYOUT_PARAMS and model.params.shape == ()
    assert (model.record["n_opp"], model.record["home"], model.record["scoop_add"]) == (3, 1, 3)
    record = model.record
    chances = (0.5, 0.5, 0.5, 0.3, 0.3, 0.3, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    before = expected_points(*chances, record, INDEPENDENT_JOINT)
    model.params["w_scoop"] = 0.0  # the view sees it, and the value drops the scoop terms
    assert record["w_scoop"] == 0.0
    assert expected_points(*chances, record, INDEPENDENT_JOINT) != before
    with pytest.raises(ValueError, match="no field"):
        model.params["w_scop"] = 1.0
