"""Exact probabilities by combinatorics over one 52-card deck, never by sampling.

Other decks (two decks, a fifth suit, jokers) are counted by :mod:`simkit.exact_decks`;
:func:`exact_tables` reads the variant's deck and sends them there.

:func:`exact_tables` gives, for a variant, the exact number of 13-card hands that qualify for
each special and for which it is the best one, the 5-card and 3-card category counts, and the
probability that 13 cards contain a 5-card hand of each category.  Monte Carlo estimates are
checked against these (:func:`special_probabilities`).

How the special counts are exact (C(52,13) = 635,013,559,600 hands are far too many to list):

Each kind's method is its registry entry's :class:`~simkit.variants.special_kinds.ExactMethod`;
a kind whose method has no counter here is an error (:func:`check_countable`), never a count of 0.

1. ``rank-counts``: the rank-count vector ``c`` (``c[r]`` cards of rank ``r``, each 0..4,
   summing to 13; there are 3,598,180 of them) decides the special (一条龙, 十二皇族, 三分天下,
   全大, 全小, 三冲加弹, 四套三条, 五对三条, 六对半, 三顺子).  Each vector is classified once by
   :func:`~simkit.specials.detect_specials` on a representative hand with those ranks.
2. ``suit-counts``: the suits decide 凑一色 and 三同花 only through the suit-count vector.
   The number of suit assignments of a rank-count vector that give each suit-count vector
   depends only on the vector's profile (how many ranks hold 1, 2, 3, 4 cards), so a small
   dynamic programme per profile (adding one rank at a time, choosing which suits it takes)
   gives the joint counts.
3. ``card-list``: 至尊清龙 and 三同花顺 depend on the exact cards; their hands are few (a few
   thousand), so they are listed explicitly (every union of a front and two 5-card straight
   flushes, deduplicated), classified with :func:`~simkit.specials.detect_specials`, and moved
   from the mask the first two steps gave them to their full mask.

The result is the number of hands with each exact mask of specials; the masks sum to C(52,13)
(checked), and a special's count and best count are sums over masks.

The package, by job: :mod:`~simkit.exact.vectors` (rank-count vectors and suit-count
distributions), :mod:`~simkit.exact.card_list` (the card-exact specials),
:mod:`~simkit.exact.counts` (counts of the specials), :mod:`~simkit.exact.categories`
(dun categories), :mod:`~simkit.exact.contains` (what 13 cards contain) and
:mod:`~simkit.exact.tables` (:func:`exact_tables`, any deck); every name is re-exported here.
"""

from __future__ import annotations

from simkit.exact.card_list import (
    CARD_LISTS,
    check_countable,
    clean_dragon_hands,
    straight_flush_split_hands,
)
from simkit.exact.categories import (
    all_combinations,
    five_card_table,
    three_card_table,
)
from simkit.exact.contains import (
    WINDOW_MASKS,
    contains_counts,
    contains_table,
    has_plain_flush,
    has_straight_window,
)
from simkit.exact.counts import (
    compare_with_exact,
    mask_counts,
    special_counts,
    special_probabilities,
    specials_frame,
    specials_table,
)
from simkit.exact.tables import (
    exact_tables,
)
from simkit.exact.vectors import (
    HANDS_3,
    HANDS_5,
    HANDS_13,
    N_RANK_VECTORS,
    SUIT_TESTS,
    profile_indices,
    rank_count_vectors,
    rank_vector_data,
    representative_hands,
    suit_classes,
    suit_count_distribution,
)
from simkit.exact_decks import DeckShape

__all__ = [
    "CARD_LISTS",
    "HANDS_3",
    "HANDS_5",
    "HANDS_13",
    "N_RANK_VECTORS",
    "SUIT_TESTS",
    "WINDOW_MASKS",
    "DeckShape",
    "all_combinations",
    "check_countable",
    "clean_dragon_hands",
    "compare_with_exact",
    "contains_counts",
    "contains_table",
    "exact_tables",
    "five_card_table",
    "has_plain_flush",
    "has_straight_window",
    "mask_counts",
    "profile_indices",
    "rank_count_vectors",
    "rank_vector_data",
    "representative_hands",
    "special_counts",
    "special_probabilities",
    "specials_frame",
    "specials_table",
    "straight_flush_split_hands",
    "suit_classes",
    "suit_count_distribution",
    "three_card_table",
]
