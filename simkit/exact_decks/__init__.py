"""Exact counts for every deck: two decks, a fifth suit, jokers, by combinatorics, never by
sampling.

:mod:`simkit.exact` counts one 52-card deck; this module counts the 13-card hands, the 5- and
3-card duns and what 13 cards contain over the physical cards of any :class:`DeckShape`: ``decks``
copies (1 or 2) of a deck of ``n_suits`` suits (4, or 5 with the added suit) of 13 ranks, and
``jokers`` wild cards (0 to 2).  Two copies of a card are different physical cards, so a hand
is one of C(n_cards, 13) equally likely sets.

Readings taken (the engine that ranks and deals these decks states them in its variant files):

- A joker stands for any card, rank and suit, even one the hand already holds (five of a kind
  with one deck and a joker needs a fifth card of a rank, 000: "王能够带任意牌").  A hand
  qualifies for a special when some value of its jokers makes it qualify, each special on its
  own; a dun's category is the best one over the values of its jokers.  These counts are of
  hands and duns on their own, so they do not depend on the holder naming a joker with the
  setting to keep it legal (:func:`simkit.evaluate.name_duns`), which changes only the duns of
  a set hand whose strongest values break the foul order.
- The fifth suit belongs to neither colour: 凑一色 (all red or all black) is never made with a
  card of it.
- 五彩同花顺 (optional) is a straight whose five cards are of five different suits; it ranks
  above the plain straight.  Where it ranks among the stronger categories changes no count
  here: no set of cards, jokers included, can make it and anything stronger than a straight.

How the special counts are exact (the method of :mod:`simkit.exact`, one step wider):

1. The hand's natural (non-joker) cards have a rank-count vector ``c`` (each ``c[r]`` at most
   ``decks * n_suits``, summing to ``13 - j`` with ``j`` jokers).  The rank-count specials of a
   hand with jokers are the union over the ranks the jokers may take of the specials of the
   completed vector: adding one joker at a time, the masks of the 12-card vectors are unions of
   masks of 13-card vectors, and so on.  13-card vectors are classified once by
   :func:`~simkit.specials.detect_specials` on a representative hand (a rank of ``k`` cards
   takes suits 0, 1, 2, 3, 0, 1, ... ; ranks only are read); where a rank may hold more than
   eight cards (two decks with jokers, two decks of five suits: up to twelve), which no hand
   of 52-card types holds, by the same tests read on the counts
   (:func:`~simkit.specials.rank_count_masks`, equal to the detector on every vector of at
   most eight a rank: tested).
2. The suits decide 凑一色 and 三同花 through the suit-count vector of the natural cards (the
   jokers join whichever suit helps).  The number of ways to choose the physical cards of a
   rank-count vector that give each suit-count vector depends only on the vector's profile
   (how many ranks hold 1, 2, ... cards): a dynamic programme per profile adds one rank at a
   time, choosing how many of its cards each suit holds (``prod C(decks, e_s)`` ways).
3. 至尊清龙 and 三同花顺 depend on the exact cards.  Every completed hand of them is listed
   (card multiplicities up to 3: a joker may repeat a card), each is reduced to the natural
   card sets it can come from (remove ``j`` cards, at most ``decks`` copies of a card left), and
   those are moved from the mask steps 1-2 gave them to their full mask.

The mask counts sum to C(n_cards, 13) (checked).

Covered: the specials, the 5- and 3-card categories and what 13 cards contain, for every pack
``[deck]`` accepts (one or two decks, with or without the fifth suit, with 0, 1 or 2 jokers).
What 13 cards contain counts 五彩同花顺 as a straight (:func:`contains_counts`,
:func:`contains_with_jokers`).

The package, by job: :mod:`~simkit.exact_decks.shapes` (:class:`DeckShape`, the packs),
:mod:`~simkit.exact_decks.vectors` (rank-count vectors), :mod:`~simkit.exact_decks.suits`
(suit-count distributions), :mod:`~simkit.exact_decks.card_list` (the card-exact specials),
:mod:`~simkit.exact_decks.counts` (the specials' counts), :mod:`~simkit.exact_decks.categories`
(dun categories), :mod:`~simkit.exact_decks.contains`
(what 13 cards contain, jokers included) and :mod:`~simkit.exact_decks.reference`
(dealing at random and a slow reference, for the Monte Carlo check); every name is
re-exported here.
"""

from __future__ import annotations

from simkit.exact_decks.card_list import (
    CARD_COMPLETIONS,
    check_countable,
    clean_dragon_completions,
    completion_counts,
    natural_counts,
    straight_flush_completions,
    unique_rows,
)
from simkit.exact_decks.categories import (
    FIVE_SUIT_STRAIGHT,
    category_names,
    five_card_counts,
    three_card_counts,
)
from simkit.exact_decks.contains import (
    WINDOWS,
    contains_counts,
    contains_with_jokers,
)
from simkit.exact_decks.counts import (
    mask_counts,
    special_counts,
    total_hands,
)
from simkit.exact_decks.reference import (
    engine_cards,
    reference_categories,
    reference_contains,
    reference_covers,
    reference_masks,
    sample_hands,
)
from simkit.exact_decks.shapes import (
    ALL_RANKS,
    DECK_SHAPES,
    HAND,
    MAX_REPRESENTED,
    ONE_DECK,
    SUIT_COLOURS,
    DeckShape,
    deck_of,
)
from simkit.exact_decks.suits import (
    SUIT_TESTS,
    suit_classes,
    suit_count_distribution,
    suit_outcomes,
)
from simkit.exact_decks.vectors import (
    count_vectors,
    natural_rank_masks,
    packed_keys,
    rank_bits,
    rank_vectors,
    representatives,
)

__all__ = [
    "ALL_RANKS",
    "CARD_COMPLETIONS",
    "DECK_SHAPES",
    "FIVE_SUIT_STRAIGHT",
    "HAND",
    "MAX_REPRESENTED",
    "ONE_DECK",
    "SUIT_COLOURS",
    "SUIT_TESTS",
    "WINDOWS",
    "DeckShape",
    "category_names",
    "check_countable",
    "clean_dragon_completions",
    "completion_counts",
    "contains_counts",
    "contains_with_jokers",
    "count_vectors",
    "deck_of",
    "engine_cards",
    "five_card_counts",
    "mask_counts",
    "natural_counts",
    "natural_rank_masks",
    "packed_keys",
    "rank_bits",
    "rank_vectors",
    "reference_categories",
    "reference_contains",
    "reference_covers",
    "reference_masks",
    "representatives",
    "sample_hands",
    "special_counts",
    "straight_flush_completions",
    "suit_classes",
    "suit_count_distribution",
    "suit_outcomes",
    "three_card_counts",
    "total_hands",
    "unique_rows",
]
