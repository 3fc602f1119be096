"""experiments/removal_buckets.py: the exploration's buckets and shifts (the shipped buckets and
shifted tables are simkit.arrange.removal's, tested in test_removal.py)."""

import numpy as np
from conftest import experiment

from simkit.arrange.wintables import default_fine_tables
from simkit.cards import parse_cards
from simkit.deal import deal
from simkit.variants import resolve_variant

rb = experiment("removal_buckets")


def test_buckets_count_aces_kings_queens():
    hand = np.sort(parse_cards("As Ah Ad Ks Kh Kd Kc Qs 2c 3c 4c 5c 6c"))
    # 3 aces, kings capped at 3, one queen
    assert rb.buckets_of(hand, "akq") == (3 * 4 + 3) * 4 + 1
    assert rb.buckets_of(hand, "ak") == 3 * 4 + 3
    hands = deal(500, 4, rng=0).reshape(-1, 13)
    assert (rb.buckets_of(hands, "akq") // 4 == rb.buckets_of(hands, "ak")).all()
    for kind, n in rb.BUCKETS.items():
        b = rb.buckets_of(hands, kind)
        assert b.min() >= 0 and b.max() < n


def test_shape_buckets_count_pairs_suits_and_high_cards():
    def expected(hand):
        ranks = [c // 4 for c in hand]  # cards are rank-major: 4 suits a rank
        pairs = sum(ranks.count(r) >= 2 for r in set(ranks))
        longest = max([c % 4 for c in hand].count(s) for s in range(4))
        high = sum(r >= 9 for r in ranks)
        p = min(max(pairs - 2, 0), 3)
        s = min(max(longest - 4, 0), 2)
        h = 0 if high < 4 else 1 if high < 6 else 2
        return (p * 3 + s) * 3 + h

    # 2 pairs (A, K), six spades, 7 of A-K-Q-J
    hand = np.sort(parse_cards("As Ah Kd Kc Ks Qs Js 9s 7h 5h 4d 3c 2s"))
    assert rb.buckets_of(hand, "shape") == (0 * 3 + 2) * 3 + 2
    hands = deal(300, 4, rng=3).reshape(-1, 13)
    got = rb.buckets_of(hands, "shape")
    assert list(got) == [expected(list(h)) for h in hands]
    assert len(set(got)) > 20  # most of the 36 buckets occur in 1,200 hands


def test_shifts_follow_the_high_cards_and_tables_stay_chances():
    v = resolve_variant("fujian")
    shift = rb.removal_shifts(v, 4, "hcp", n_games=1500, seed=1)
    assert shift.shape[0] == rb.BUCKETS["hcp"]
    # a hand poor in high cards faces stronger fronts: its front chances fall on average
    assert shift[0, 0].mean() < 0 < shift[-1, 0].mean()
    assert shift.shape[1:] == default_fine_tables(v, 4).win.shape
