"""The exact tables of a variant (:func:`exact_tables`): one deck counted here, the other
decks by :mod:`simkit.exact_decks`."""

from __future__ import annotations

import polars as pl

import simkit.exact_decks as exact_decks
from simkit.exact.categories import (
    five_card_table,
    three_card_table,
)
from simkit.exact.contains import (
    contains_table,
)
from simkit.exact.counts import (
    specials_frame,
    specials_table,
)
from simkit.exact_decks import ONE_DECK, DeckShape
from simkit.specials import (
    VariantLike,
)
from simkit.variants import Ranking, Specials, resolve_variant


def _deck_specials_table(specials: Specials, shape: DeckShape) -> pl.DataFrame:
    return specials_frame(
        exact_decks.special_counts(specials, shape), exact_decks.total_hands(shape)
    )


def _counts_table(counts: dict[str, int], total: int) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "category": list(counts),
            "count": list(counts.values()),
            "probability": [n / total for n in counts.values()],
        },
        schema={"category": pl.String, "count": pl.Int64, "probability": pl.Float64},
    )


def exact_tables(
    variant: VariantLike = None,
    *,
    deck: object = None,
    five_suit_straight: bool | None = None,
) -> dict[str, pl.DataFrame]:
    """Exact tables for a variant over its deck (one 52-card deck unless it names another).

    ``specials``: special (Chinese name), id, definition (with option values), count (13-card
    hands that qualify), best_count (hands for which it is the best special in the variant's
    order), probability, best_probability (both over all C(n_cards, 13) hands, e.g.
    635,013,559,600 for one deck) and one_in.
    ``five_card`` / ``three_card``: category counts over all C(n_cards, 5) / C(n_cards, 3)
    hands.  ``contains``: P(13 cards hold a 5-card hand of exactly each category, a joker at
    its best value in each; 五彩同花顺 counted as a straight there), for every deck.

    ``deck``: a deck (``decks``, ``n_suits`` or ``extra_suit``, ``jokers``) or a
    :class:`~simkit.exact_decks.DeckShape`; by default the variant's ``deck``.
    ``five_suit_straight``: count 五彩同花顺 as a category; by default the ranking's
    ``five_suit_straight`` where it has one, else on for a five-suit deck.  Other decks are
    counted by :mod:`simkit.exact_decks`; one deck by this module, as it always was.
    """
    resolved = None
    if isinstance(variant, Specials):
        specials, ranking = variant, Ranking()
    else:
        resolved = resolve_variant(variant)
        specials, ranking = resolved.specials, resolved.ranking
    shape = DeckShape.of(deck) if deck is not None else exact_decks.deck_of(resolved)
    if five_suit_straight is None:
        played = getattr(ranking, "five_suit_straight", None)  # "off" or where it ranks
        five_suit_straight = shape.n_suits == 5 if played is None else played != "off"
    if shape == ONE_DECK and not five_suit_straight:
        return {
            "specials": specials_table(specials),
            "five_card": five_card_table(ranking),
            "three_card": three_card_table(ranking),
            "contains": contains_table(),
        }
    tables = {
        "specials": _deck_specials_table(specials, shape),
        "five_card": _counts_table(
            exact_decks.five_card_counts(ranking, shape, five_suit_straight),
            exact_decks.total_hands(shape, 5),
        ),
        "three_card": _counts_table(
            exact_decks.three_card_counts(shape), exact_decks.total_hands(shape, 3)
        ),
    }
    # 五彩同花顺 is a straight in the contains table (a five-suit straight is counted apart in
    # the 5-card table only).
    contains = exact_decks.contains_counts(shape, five_suit_straight=False)
    if contains is not None:
        tables["contains"] = _counts_table(contains, exact_decks.total_hands(shape))
    return tables
