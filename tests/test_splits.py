"""The constant split tables: every way to set 13 cards, each once."""

from itertools import combinations
from math import comb

import numpy as np

from simkit.splits import (
    BACK_REST,
    DISTINCT_IDS,
    FIVE_SUBSETS,
    N_DISTINCT,
    N_SPLITS,
    SPLIT_IDS,
    THREE_SUBSETS,
    split_positions,
)


def test_counts_are_the_combinatorial_ones():
    """C(13,3)·C(10,5) = 72,072 ordered splits; the two 5-card duns unordered: 36,036."""
    assert N_SPLITS == comb(13, 3) * comb(10, 5) == 72072
    assert N_DISTINCT == N_SPLITS // 2 == 36036
    assert SPLIT_IDS.shape == (72072, 3) and DISTINCT_IDS.shape == (36036, 3)
    assert FIVE_SUBSETS.shape == (1287, 5) and THREE_SUBSETS.shape == (286, 3)
    assert BACK_REST.shape == (1287, 56, 2)


def test_subsets_are_combinations_in_order():
    assert FIVE_SUBSETS.tolist() == [list(c) for c in combinations(range(13), 5)]
    assert THREE_SUBSETS.tolist() == [list(c) for c in combinations(range(13), 3)]


def test_every_split_is_a_partition_and_all_are_distinct():
    pos = split_positions(SPLIT_IDS)
    assert (np.sort(pos, axis=1) == np.arange(13)).all()
    assert len({tuple(r) for r in pos.tolist()}) == N_SPLITS


def test_distinct_splits_are_the_ordered_ones_up_to_swapping_the_five_card_duns():
    ordered = {(int(f), min(int(m), int(b)), max(int(m), int(b))) for f, m, b in SPLIT_IDS}
    distinct = {(int(f), min(int(a), int(b)), max(int(a), int(b))) for f, a, b in DISTINCT_IDS}
    assert len(distinct) == N_DISTINCT
    assert ordered == distinct


def test_back_rest_lists_the_splits_of_each_back():
    rows = {(int(f), int(m), b) for b in range(1287) for m, f in BACK_REST[b].tolist()}
    assert rows == {tuple(int(x) for x in r) for r in SPLIT_IDS}


def test_tables_are_read_only():
    assert not SPLIT_IDS.flags.writeable and not FIVE_SUBSETS.flags.writeable
