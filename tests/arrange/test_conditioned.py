"""Card removal by the hand's own cards counted over a pool (simkit.arrange.conditioned): the
pool's bit sets, the hand's shift against a count spelled out, the kernel's quantities against
the numpy reference to the last bit, the search against the exhaustive scan under each hand's
own objective, and what the conditioning changes."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from simkit.arrange import (
    ExpectedScore,
    arrange,
    exhaustive_ids,
    fine_classes,
    max_ev_ids,
    removal_pool,
)
from simkit.arrange.conditioned import (
    SHRINK_PRIOR,
    _condition,
    _count_below,
    _lowest_bit,
    _popcount,
    card_masks,
    conditioned_ids,
    hand_shift,
    hand_tables,
    make_pool,
)
from simkit.arrange.removal import mid_cdf
from simkit.arrange.strategies import Strategy
from simkit.arrange.value import ev_quantities, favourable_quantities, payout_model
from simkit.cards import format_cards, parse_cards
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.splits import SPLIT_IDS, split_positions
from simkit.variants import resolve_variant

GUANGXI = resolve_variant("guangxi")


@dataclass(frozen=True)
class PoolConditioned(Strategy):
    """Each hand's own tables counted over the pool (:func:`~simkit.arrange.removal_pool`,
    set by expected-score with the places as given): the exact shifts a card-removal model
    is fitted to, played as a strategy here to check the kernel against its reference."""

    places: bool = True
    prior: float = SHRINK_PRIOR
    name: str = field(default="pool-conditioned", init=False, repr=False, compare=False)

    def value(self) -> ExpectedScore:
        return ExpectedScore(places=self.places)

    def solver(self, v, n_players):
        return self.value().solver(v, n_players)

    def pool(self, v, n_players):
        key = (v.name, n_players, self.places)
        if key not in _POOLS:
            _POOLS[key] = removal_pool(self.value(), v, n_players)
        return _POOLS[key]

    def hand_solver(self, row, v, n_players):
        value = self.value()
        tables = value._tables(v, n_players)
        own = hand_tables(tables, np.asarray(row), self.pool(v, n_players), self.prior)
        return value._make(v, n_players, own, value._weights(tables))

    def choose_splits(self, rows, v, *, n_players, rng=None):
        ids, values, _, _ = conditioned_ids(
            rows, self.solver(v, n_players), self.pool(v, n_players), self.prior
        )
        return ids, values


_POOLS: dict = {}


@pytest.fixture(scope="module")
def strategy() -> PoolConditioned:
    """One round's pool set by expected-score with the places on, the shifts counted over it."""
    return PoolConditioned()


@pytest.fixture(scope="module")
def pool(strategy):
    return strategy.pool(GUANGXI, 4)


def _hands(n: int, seed: int) -> np.ndarray:
    return np.sort(deal(n // 4 + 1, 4, rng=seed).reshape(-1, 13)[:n], axis=1)


def test_lowest_bit_of_every_position():
    import numba as nb

    @nb.njit
    def lowest(x):
        return _lowest_bit(x)

    for i in range(64):
        one = np.uint64(1) << np.uint64(i)
        assert lowest(one) == i
        assert lowest(one | (np.uint64(1) << np.uint64(63))) == i  # a higher bit changes nothing


def _bit(bits: np.ndarray, j: int) -> int:
    return int((bits[j // 64] >> np.uint64(j % 64)) & np.uint64(1))


def test_each_duns_card_bits_say_which_pool_hands_hold_each_card_in_class_order(pool):
    n = pool.masks.shape[0]
    for d in range(3):
        order = np.argsort(pool.classes[:, d], kind="stable")
        for card in (0, 17, 51):
            bits = pool.dun_bits[d, card]
            holds = np.array([_bit(bits, j) for j in range(n)], dtype=np.uint64)
            assert (holds == ((pool.masks[order] >> np.uint64(card)) & np.uint64(1))).all()
        # every pool hand holds 13 cards: 13 bits set across the 52 rows
        total = sum(int(np.unpackbits(row.view(np.uint8)).sum()) for row in pool.dun_bits[d])
        assert total == 13 * n


def test_each_class_starts_where_the_weaker_classes_end(pool):
    """dun_starts[d, c]: the pool hands whose dun d is below class c, counted."""
    n_fine = pool.pooled.shape[1]
    for d in range(3):
        starts = pool.dun_starts[d]
        assert starts[0] == 0 and starts[-1] == pool.masks.shape[0]
        for c in (0, 1, 57, 455, 2000, n_fine - 1):
            assert starts[c] == (pool.classes[:, d] < c).sum()
            assert starts[c + 1] - starts[c] == (pool.classes[:, d] == c).sum()


def test_popcount_and_the_count_below_a_position():
    import numba as nb

    @nb.njit
    def pop(x):
        return _popcount(x)

    @nb.njit
    def count(free, below, position):
        return _count_below(free, below, position)

    rng = np.random.default_rng(4)
    words = rng.integers(0, 2**63, size=5, dtype=np.uint64) * np.uint64(2) + rng.integers(
        0, 2, size=5, dtype=np.uint64
    )
    words[2] = np.uint64(0xFFFFFFFFFFFFFFFF)
    words[3] = np.uint64(0)
    for x in words:
        assert pop(x) == bin(int(x)).count("1")
    below = np.concatenate([[0], np.cumsum([bin(int(x)).count("1") for x in words])])
    for position in (0, 1, 63, 64, 65, 127, 128, 200, 319, 320):
        want = sum(_bit(words, j) for j in range(position))
        assert count(words, below, position) == want


def test_card_masks_refuse_cards_of_other_decks():
    with pytest.raises(ValueError, match="one plain deck"):
        card_masks(np.array([[52, *list(range(12))]]))


def test_the_shift_is_the_compatible_hands_mid_cdf_minus_the_pools_spelled_out(pool):
    """hand_shift against a count by hand: the pool hands sharing no card with the hand, the
    share of their fronts below a class plus half the share at it, minus the whole pool's,
    times k / (k + prior)."""
    row = _hands(1, 5)[0]
    held = {int(c) for c in row}
    ok = (pool.masks & card_masks(row[None])[0]) == 0
    k = int(ok.sum())
    assert 0.005 < k / len(pool.masks) < 0.03  # C(39,13)/C(52,13) = 1.3% of random hands
    for j in range(0, len(pool.masks), 97):  # the bits spelled out for a sample of the pool
        cards = {c for c in range(52) if (int(pool.masks[j]) >> c) & 1}
        assert len(cards) == 13
        assert bool(ok[j]) == (not held & cards)
    shift = hand_shift(row, pool)
    for d in range(3):
        for c in np.quantile(pool.classes[:, d], [0.1, 0.5, 0.9]).astype(int):
            mine = pool.classes[ok, d]
            alls = pool.classes[:, d]
            cond = ((mine < c).sum() + 0.5 * (mine == c).sum()) / k
            whole = ((alls < c).sum() + 0.5 * (alls == c).sum()) / len(alls)
            assert shift[d, c] == pytest.approx((cond - whole) * k / (k + SHRINK_PRIOR), abs=1e-12)


def test_a_hand_holding_the_aces_and_kings_faces_weaker_fronts(strategy, pool):
    """The module's example: a hand holding A-A-A-A and K-K-K leaves its opponents no pair of
    either, so every pair front of theirs sits lower: its own K-K front wins more often than
    the tables say."""
    row = np.sort(parse_cards("Kc Kd Kh 5h 6h 9h Th Ah 7d 7s Ac Ad As"))
    base = strategy.value()._tables(GUANGXI, 4)
    own = hand_tables(base, row, pool)
    kk7 = dun_ranks(parse_cards("7s Kc Kd 2c 3c 4c 5d 6d 8d 9h Jh Qh Qs"), GUANGXI)[0]
    c = int(fine_classes(np.array([kk7]))[0])
    assert own.win[0, c] > base.win[0, c] + 0.05
    assert (own.win >= 0).all() and (own.win <= 1).all() and (own.tie >= -1e-12).all()
    np.testing.assert_allclose(own.win + own.tie + (1 - own.win - own.tie), 1.0)


def test_the_issue_hand_moves_its_kings_out_of_the_front(strategy):
    """Guangxi's regret protocol found this hand giving away 10 points a hand with K-K-K in front
    (rollouts prefer K-K-7 there and the four aces as quads in the back, worth 4 and a bigger
    t): conditioned on its own cards, the search finds it."""
    hand = parse_cards("Kc Kd Kh 5h 6h 9h Th Ah 7d 7s Ac Ad As")
    plain, _ = arrange(hand, GUANGXI, ExpectedScore(), n_players=4)
    own, _ = arrange(hand, GUANGXI, strategy, n_players=4)
    assert format_cards(plain[:3]) == "K♣ K♦ K♥"
    assert format_cards(own[:3]) == "7♠ K♣ K♦"
    assert format_cards(own[8:]) == "7♦ A♣ A♦ A♥ A♠"


def test_kernel_quantities_equal_the_reference_to_the_last_bit(strategy, pool):
    """_condition's q and sep are make_solver's on hand_tables, bit for bit, at every class
    the search reads; its fav is the reference's running best taken over those classes (over
    every class when every class is asked for: make_solver's fav, bit for bit); the classes
    the search does not read are left as they were."""
    solver = strategy.solver(GUANGXI, 4)
    win = np.ascontiguousarray(solver.tables.win)
    tie = np.ascontiguousarray(solver.tables.tie)
    n_fine = win.shape[1]
    model = payout_model(GUANGXI, 4, horse=True)
    every = np.arange(n_fine, dtype=np.int32)
    for row in _hands(12, 7):
        ref = strategy.hand_solver(row, GUANGXI, 4)
        q64 = ev_quantities(hand_tables(solver.tables, row, pool), model)
        assert np.array_equal(favourable_quantities(q64).astype(np.float32), ref.fav)
        # every class, then the hand's own (every 3-card subset is the front of some split,
        # every 5-card one the back of some)
        classes = fine_classes(dun_ranks(row[split_positions(SPLIT_IDS)], GUANGXI))
        fronts = np.unique(classes[:, 0]).astype(np.int32)
        fives = np.unique(classes[:, 1:]).astype(np.int32)
        for asked_fronts, asked_fives in ((every, every), (fronts, fives)):
            q = solver.q.copy()[None]
            fav = solver.fav.copy()[None]
            sep = np.full((1, 3, n_fine), np.nan)
            free = np.empty(pool.dun_bits.shape[2], dtype=np.uint64)
            below = np.empty(pool.dun_bits.shape[2] + 1, dtype=np.int64)
            wanted = np.zeros((3, (n_fine + 63) // 64), dtype=np.uint64)
            k = _condition(
                row, pool.dun_bits, pool.dun_starts, pool.masks.shape[0], pool.pooled, win,
                tie, SHRINK_PRIOR, asked_fronts, asked_fives, q, fav, sep, free, below, wanted,
                np.empty(n_fine, dtype=np.int64),
            )  # fmt: skip
            assert k == int(((pool.masks & card_masks(row[None])[0]) == 0).sum())
            assert not wanted.any()  # left zero for the next hand
            top_front = asked_fronts.max()
            read = (np.union1d(asked_fronts, asked_fives[asked_fives <= top_front]), asked_fives)
            for d in range(3):
                at = read[min(d, 1)]
                assert np.array_equal(q[0, d, at], ref.q[d, at])
                assert np.array_equal(sep[0, d, at], ref.sep[d, at])
                over_read = favourable_quantities(q64[d : d + 1, at])[0].astype(np.float32)
                assert np.array_equal(fav[0, d, at, :2], over_read[:, :2])
                assert np.array_equal(fav[0, d, :, 2:], solver.fav[d, :, 2:])  # not shifted
                left = np.setdiff1d(every, at)
                assert np.isnan(sep[0, d, left]).all()
                assert np.array_equal(q[0, d, left], solver.q[d, left])
                assert np.array_equal(fav[0, d, left], solver.fav[d, left])
            if asked_fronts is every:
                assert np.array_equal(fav[0], ref.fav)


@pytest.mark.parametrize(
    ("variant", "places", "conditioning"),
    [
        ("guangxi", False, "pool"),
        ("fujian", False, "pool"),
        ("guangxi-regional", True, "pool"),
        ("guangxi", True, "model"),
        ("guangxi-regional", True, "model"),
    ],
)
def test_search_equals_the_exhaustive_scan_under_each_hands_own_objective(
    variant, places, conditioning
):
    """Every hand's split and value are those of scoring all 72,072 splits under its own
    conditioned tables (the solver hand_solver builds), and of the plain search on them; with
    ``places`` the objective prices the t-formula's places (its tables carry a place model);
    ``conditioning``: the shift counted over the pool or read from the card-removal model."""
    v = resolve_variant(variant)
    strategy = (
        ExpectedScore(places=places, conditioning="model")
        if conditioning == "model"
        else PoolConditioned(places=places)
    )
    assert (strategy.solver(v, 4).model.params["place"] > 0) == places
    hands = _hands(60, 11)
    ids, values = strategy.choose_splits(hands, v, n_players=4)
    for h in range(len(hands)):
        own = strategy.hand_solver(hands[h], v, 4)
        want_ids, want_values = exhaustive_ids(hands[h : h + 1], own)
        assert values[h] == want_values[0]
        assert (ids[h] == want_ids[0]).all()
        assert (max_ev_ids(hands[h : h + 1], own)[0][0] == ids[h]).all()


def test_choices_depend_on_the_hand_alone(strategy):
    """A pure function of the hand: the same splits in any order and any batch."""
    hands = _hands(200, 13)
    ids, values = strategy.choose_splits(hands, GUANGXI, n_players=4)
    back, back_values = strategy.choose_splits(hands[::-1].copy(), GUANGXI, n_players=4)
    assert (back[::-1] == ids).all() and (back_values[::-1] == values).all()
    one, _ = strategy.choose_splits(hands[57:58], GUANGXI, n_players=4)
    assert (one[0] == ids[57]).all()


def test_conditioning_changes_some_choices_and_a_huge_prior_none(pool):
    hands = _hands(400, 17)
    plain, _ = ExpectedScore().choose_splits(hands, GUANGXI, n_players=4)
    own, _ = PoolConditioned().choose_splits(hands, GUANGXI, n_players=4)
    assert 0.02 < (plain != own).any(axis=1).mean() < 0.5
    solver = ExpectedScore().solver(GUANGXI, 4)
    none, _, _, compatible = conditioned_ids(hands, solver, pool, prior=1e300)
    assert (none == plain).all()
    assert compatible.min() > 0


def test_with_places_and_no_shift_it_is_expected_score_with_the_places():
    """The places condition expected-score's objective with them: with a prior that zeroes
    every shift the choices are ``expected-score:places=true``'s own, and the hands' own
    tables change some of them."""
    hands = _hands(300, 19)
    want, _ = ExpectedScore(places=True).choose_splits(hands, GUANGXI, n_players=4)
    assert (want != ExpectedScore().choose_splits(hands, GUANGXI, n_players=4)[0]).any()
    unshifted, _ = PoolConditioned(prior=1e300).choose_splits(hands, GUANGXI, n_players=4)
    assert (unshifted == want).all()
    own, _ = PoolConditioned().choose_splits(hands, GUANGXI, n_players=4)
    assert 0.02 < (own != want).any(axis=1).mean() < 0.5


def test_two_decks_play_as_expected_score():
    """Six players deal two decks: no bit says which copy of a card a hand holds, so the
    hand's own card removal is not read: it plays as expected-score."""
    strategy = ExpectedScore(places=True, conditioning="auto")
    assert strategy.removal_model(GUANGXI, 6) is None
    hands = np.sort(deal(20, 6, rng=3, deck=GUANGXI.deck_for(6)).reshape(-1, 13), axis=1)
    a, _ = strategy.choose_splits(hands, GUANGXI, n_players=6)
    b, _ = ExpectedScore().choose_splits(hands, GUANGXI, n_players=6)
    assert (a == b).all()


def test_a_pool_needs_cards_and_ranks_of_one_shape():
    with pytest.raises(ValueError, match="a pool needs"):
        make_pool(np.zeros((3, 12), dtype=np.int8), np.zeros((3, 3), dtype=np.int32))


def test_mid_cdf_is_the_share_below_plus_half_the_share_at():
    np.testing.assert_allclose(mid_cdf(np.array([1.0, 2.0, 1.0])), [0.125, 0.5, 0.875])
