"""What a run records about its games, and how the result tables read it back.

This module owns the summary's schema, so that the runner (:mod:`simkit.simulate`), which
writes it, and the tables (:mod:`simkit.tables`), which read it, never spell it themselves:

- :class:`Arranged`: one block's hands as a variant's players set them, with what scoring and
  statistics read from the arrangement (dun ranks, declared and qualifying specials), computed
  once per block and variant and then passed on;
- :class:`Key`: where each array of a :class:`~simkit.summary.Summary` is filed, a field of
  :class:`Count` (integer arrays, merged exactly) or :class:`Sum` (float arrays, folded block by
  block), the variant's index in the run and, for score components, the component's name;
- the names and sizes that give the arrays their meaning: :data:`EVENTS` and
  :data:`EVENT_NAMES`, :data:`POSITIONS`, :data:`COMPONENT_FIELDS`, :data:`SCORE_HALF_WIDTH`,
  :data:`T_MAX`;
- :func:`record_block` turns one block's play into counts and sums; :func:`component_sums` and
  :func:`convergence_rows` read a summary back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

import numpy as np

from simkit.evaluate import CATEGORY_SHIFT, Category, dun_ranks
from simkit.score import fouled_ranks, score
from simkit.specials import best_special, detect_specials
from simkit.summary import Summary, event_sums, histogram, moments, sd_se
from simkit.variants import Variant

#: Version of the layout below; a checkpoint written under another layout cannot be resumed.
SCHEMA_VERSION = 2
#: Scores are histogrammed on the integers -SCORE_HALF_WIDTH..SCORE_HALF_WIDTH (plus two tails).
SCORE_HALF_WIDTH = 512
#: Distinct values of t kept in the t-formula histogram (larger t go to the last bin).
T_MAX = 128
#: Dun positions, in the order of the dun axis of :attr:`Count.DUN`.
POSITIONS = ("front", "middle", "back")
#: The sums kept for each score component (:attr:`Sum.COMPONENT`), in this order.
COMPONENT_FIELDS = ("s1", "s2", "abs1", "abs2", "cross_total", "game2", "share1", "share2")


class Event(NamedTuple):
    """A per-player event read from a score component: it happens where the sign matches."""

    name: str
    component: str
    sign: int


#: Events counted from the score components (:attr:`Count.EVENTS`, before "declared").
EVENTS: tuple[Event, ...] = (
    Event("foul", "fouls", -1),
    Event("scoop", "scoops", 1),
    Event("scooped", "scoops", -1),
    Event("home_run", "home_run", 1),
)
#: Every event of :attr:`Count.EVENTS`, in order: the component events, then declaring a special.
EVENT_NAMES: tuple[str, ...] = (*(event.name for event in EVENTS), "declared")


class Count(StrEnum):
    """Integer arrays of one variant (``int64``), merged by exact addition.

    ``k1, k2`` pairs are Σk and Σk² over games of per-game counts (:func:`event_sums`); S is
    the number of the variant's specials, P the number of players.
    """

    #: ``(P, 2 * SCORE_HALF_WIDTH + 3)``: each seat's score histogram (:func:`histogram`).
    HIST = "hist"
    #: ``(2, 3, len(Category))``: k1, k2 of each dun's category, hands played normally.
    DUN = "dun"
    #: ``(2, S)``: k1, k2 of hands qualifying for each special.
    SPECIAL_ANY = "special_any"
    #: ``(2, S)``: k1, k2 of hands whose best special is each one.
    SPECIAL_BEST = "special_best"
    #: ``(2, S)``: k1, k2 of hands declaring each special.
    DECLARED = "declared"
    #: ``(2, len(EVENT_NAMES))``: k1, k2 of each event of :data:`EVENT_NAMES`.
    EVENTS = "events"
    #: ``(T_MAX + 1,)``: games by the round's t, in t-formula variants only.
    T_HIST = "t_hist"
    #: ``(S,)``: special holders by their best special (the counts of :attr:`Sum.DECLARE`).
    DECLARE_N = "declare_n"


class Sum(StrEnum):
    """Float arrays (``float64``), folded block by block in block order.

    Per variant unless marked *run*: those hold every pair of variants (V of them).
    """

    #: ``(P,)``: Σ score per seat.
    SCORE1 = "score1"
    #: ``(P,)``: Σ score² per seat.
    SCORE2 = "score2"
    #: ``(1,)``: Σ over games of (Σ over seats of the score)².
    GAME2 = "game2"
    #: ``(1,)``: Σ over games of (Σ over seats of score²)².
    SQUARE_GAME2 = "square_game2"
    #: ``(len(COMPONENT_FIELDS),)``: one score component's sums; its key names the component.
    COMPONENT = "comp"
    #: ``(S, 6)``: Σgain, Σgain², Σdeclared, Σdeclared², Σplayed, Σplayed² of special holders.
    DECLARE = "declare"
    #: run, ``(V, V, P)``: Σ score_a · score_b per seat.
    CROSS = "cross"
    #: run, ``(V, V, P)``: Σ score_a² · score_b² per seat.
    CROSS2 = "cross2"
    #: run, ``(V, V)``: Σ over games of (Σ seats score_a²) · (Σ seats score_b²).
    SQUARE_GAME_CROSS = "square_game_cross"


#: The variant of a key that holds every pair of variants of the run.
RUN = -1


class Key(NamedTuple):
    """Where one array of a summary is filed."""

    field: Count | Sum
    #: The variant's index in the run, or :data:`RUN` for arrays over all variants.
    variant: int = RUN
    #: The score component (:data:`simkit.score.COMPONENTS`) of a :attr:`Sum.COMPONENT` array.
    component: str = ""


# --------------------------------------------------------------------------- one block's play


@dataclass(frozen=True, eq=False)
class Arranged:
    """One block's hands as set under one variant, with what is read from the arrangement.

    Built once per block and variant (:meth:`of`) and handed to the scorer and to
    :func:`record_block`, which take the ranks and specials from it.  Arrays are indexed by
    game, then seat.
    """

    #: ``int8 (n, P, 13)``: each hand as [front 3 | middle 5 | back 5].
    cards: np.ndarray
    #: ``int8 (n, P)``: the index of the special each hand declares, -1 for none.
    declared: np.ndarray
    #: ``int32 (n, P, 3)``: the duns' ranks (:func:`simkit.evaluate.dun_ranks`).
    ranks: np.ndarray
    #: ``uint32 (n, P)``: bit i is set when the hand qualifies for special i.
    special_masks: np.ndarray
    #: ``int8 (n, P)``: the hand's best special (its lowest set bit), -1 for none.
    best: np.ndarray

    @classmethod
    def of(
        cls, cards: np.ndarray, declared: np.ndarray, variant: Variant, *, decks: int
    ) -> Arranged:
        """Rank the duns and detect the specials of ``cards`` set under ``variant``."""
        # Whether a hand qualifies for a special depends on its cards alone, not on how it is set.
        masks = detect_specials(cards, variant, decks=decks)
        return cls(
            cards=cards,
            declared=np.asarray(declared).astype(np.int8),
            ranks=dun_ranks(cards, variant),
            special_masks=masks,
            best=best_special(masks).astype(np.int8),
        )

    def rescore(
        self, variant: Variant, declared: np.ndarray, rows: Any = slice(None)
    ) -> np.ndarray:
        """``float64 (rows, P)``: games ``rows`` scored again, with other declarations."""
        return np.asarray(
            score(
                self.cards[rows],
                variant,
                declared=declared,
                ranks=self.ranks[rows],
                special_masks=self.special_masks[rows],
            ),
            np.float64,
        )


Scored = tuple[np.ndarray, dict[str, np.ndarray]]


def record_block(
    variants: Sequence[Variant], plays: Sequence[Arranged], scored: Sequence[Scored]
) -> tuple[dict[Key, np.ndarray], dict[Key, np.ndarray]]:
    """One block's ``(counts, sums)`` for a :class:`~simkit.summary.Summary`.

    ``plays[v]`` is the block under ``variants[v]`` and ``scored[v]`` its ``(total,
    components)`` from :func:`simkit.score.score` with ``breakdown=True``.
    """
    counts: dict[Key, np.ndarray] = {}
    sums: dict[Key, np.ndarray] = {}
    for v, (variant, play, (total, components)) in enumerate(
        zip(variants, plays, scored, strict=True)
    ):
        _record_variant(counts, sums, v, variant, play, total, components)
    stacked = np.stack([total for total, _ in scored])  # (V, n, P)
    sums[Key(Sum.CROSS)] = np.einsum("vgs,wgs->vws", stacked, stacked)
    sq = stacked * stacked
    sums[Key(Sum.CROSS2)] = np.einsum("vgs,wgs->vws", sq, sq)
    sq_game = sq.sum(axis=2)
    sums[Key(Sum.SQUARE_GAME_CROSS)] = np.einsum("vg,wg->vw", sq_game, sq_game)
    return counts, sums


def _record_variant(
    counts: dict[Key, np.ndarray],
    sums: dict[Key, np.ndarray],
    v: int,
    variant: Variant,
    play: Arranged,
    total: np.ndarray,
    components: dict[str, np.ndarray],
) -> None:
    p = total.shape[1]
    declared = play.declared
    sums[Key(Sum.SCORE1, v)] = total.sum(axis=0)
    sums[Key(Sum.SCORE2, v)] = (total * total).sum(axis=0)
    per_game = total.sum(axis=1)
    sums[Key(Sum.GAME2, v)] = np.array([(per_game * per_game).sum()])
    sums[Key(Sum.SQUARE_GAME2, v)] = np.array([((total * total).sum(axis=1) ** 2).sum()])
    for name, comp in components.items():
        sums[Key(Sum.COMPONENT, v, name)] = _component_block_sums(comp, total)
    counts[Key(Count.HIST, v)] = np.stack(
        [histogram(total[:, s], SCORE_HALF_WIDTH) for s in range(p)]
    )
    counts[Key(Count.DUN, v)] = np.stack(event_sums(dun_categories(play.ranks, declared)))
    n_special = len(variant.specials)
    bits = np.arange(n_special, dtype=np.uint32)
    qualifies = ((play.special_masks[..., None] >> bits) & np.uint32(1)).astype(bool)
    for field, events in (
        (Count.SPECIAL_ANY, qualifies),
        (Count.SPECIAL_BEST, play.best[..., None] == np.arange(n_special)),
        (Count.DECLARED, declared[..., None] == np.arange(n_special)),
    ):
        counts[Key(field, v)] = np.stack(event_sums(events))
    counts[Key(Count.EVENTS, v)] = np.stack(event_sums(player_events(components, declared)))
    if "t-formula" in variant.scoring.transforms:
        t = t_values(play.ranks, declared, variant)
        counts[Key(Count.T_HIST, v)] = np.bincount(t[t >= 0], minlength=T_MAX + 1)[: T_MAX + 1]
    gain_n, gain_sums = declare_value(play, variant)
    counts[Key(Count.DECLARE_N, v)] = gain_n
    sums[Key(Sum.DECLARE, v)] = gain_sums


def _component_block_sums(comp: np.ndarray, total: np.ndarray) -> np.ndarray:
    """Sums over one block of a score component (see COMPONENT_FIELDS), pooled over seats."""
    per_game = comp.sum(axis=1)
    absolute = np.abs(comp)
    n = comp.size
    # The block's own share of variance, Cov(component, total) / Var(total); their average
    # over blocks gives a batch-means standard error for the share.
    var_t = total.var()
    share = float(((comp - comp.mean()) * (total - total.mean())).mean() / var_t) if var_t else 0.0
    return np.array(
        [
            comp.sum(),
            (comp * comp).sum(),
            absolute.sum(),
            (absolute * absolute).sum(),
            (comp * total).sum(),
            (per_game * per_game).sum(),
            share * n,
            share * share * n,
        ]
    )


def dun_categories(ranks: np.ndarray, declared: np.ndarray) -> np.ndarray:
    """Boolean ``(n, P, 3, len(Category))``: each dun's category, for hands played normally."""
    out = (ranks >> CATEGORY_SHIFT)[..., None] == np.arange(len(Category))
    out &= (declared < 0)[..., None, None]
    return out


def player_events(components: dict[str, np.ndarray], declared: np.ndarray) -> np.ndarray:
    """Boolean ``(n, P, len(EVENT_NAMES))``: each player's events, in :data:`EVENT_NAMES` order."""
    columns = [np.sign(components[event.component]) == event.sign for event in EVENTS]
    columns.append(declared >= 0)
    return np.stack(columns, axis=-1)


def t_values(ranks: np.ndarray, declared: np.ndarray, variant: Variant) -> np.ndarray:
    """The round's t under the t-formula (000/002 §1), -1 where the formula does not apply.

    t is the largest dun worth (the ``[scoring.duns]`` table) among hands compared normally
    (not declared, not fouled), at least 1; the formula applies when at least
    ``t_formula.min_players`` hands are compared normally.
    """
    scoring = variant.scoring
    worth = np.array(scoring.duns.values(), dtype=np.float64)  # (3, 10)
    cats = ranks >> CATEGORY_SHIFT
    dun_worth = worth[np.arange(3), cats]  # (n, P, 3)
    normal = (declared < 0) & ~fouled_ranks(ranks, variant)
    t = np.where(normal[..., None], dun_worth, 1.0).max(axis=(1, 2))
    t = np.maximum(t, 1.0)
    applies = normal.sum(axis=1) >= scoring.t_formula.min_players
    return np.where(applies, np.minimum(np.rint(t), T_MAX), -1).astype(np.int64)


def declare_value(play: Arranged, variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """Each special holder's score when declaring minus when playing the hand normally.

    Other players keep the strategy's choices, except that every other special holder declares
    (so the comparison is "declare" against "play" with the table otherwise fixed).  Returns
    counts ``(n_special,)`` and sums ``(n_special, 6)`` (see :attr:`Sum.DECLARE`).
    """
    n_special = len(variant.specials)
    best = play.best
    count = np.zeros(n_special, dtype=np.int64)
    sums = np.zeros((n_special, 6))
    holders = best >= 0
    if n_special == 0 or not holders.any():
        return count, sums
    forced = np.where(holders, best, play.declared).astype(np.int8)
    # every holder declaring is one table for all seats; playing normally differs per seat
    all_declare = play.rescore(variant, forced)
    for seat in range(best.shape[1]):
        rows = np.flatnonzero(holders[:, seat])
        if rows.size == 0:
            continue
        with_special = all_declare[rows]
        played = forced[rows].copy()
        played[:, seat] = -1
        without = play.rescore(variant, played, rows)
        gain = with_special[:, seat] - without[:, seat]
        idx = best[rows, seat].astype(np.int64)
        count += np.bincount(idx, minlength=n_special)
        for col, values in enumerate((gain, with_special[:, seat], without[:, seat])):
            sums[:, 2 * col] += np.bincount(idx, weights=values, minlength=n_special)
            sums[:, 2 * col + 1] += np.bincount(idx, weights=values**2, minlength=n_special)
    return count, sums


# --------------------------------------------------------------------------- reading back


def component_sums(summary: Summary, v: int) -> list[tuple[str, np.ndarray]]:
    """Variant ``v``'s :attr:`Sum.COMPONENT` arrays as ``(component, sums)``, by name."""
    found = [
        (key.component, sums)
        for key, sums in summary.sums.items()
        if key.field is Sum.COMPONENT and key.variant == v
    ]
    return sorted(found, key=lambda item: item[0])


def convergence_rows(
    summary: Summary, variants: Sequence[Variant], n_players: int
) -> list[dict[str, Any]]:
    """Key estimates of a summary so far, one row per variant and statistic (the trace)."""
    rows = []
    n = summary.n_games
    for v, variant in enumerate(variants):
        s1 = summary.sums[Key(Sum.SCORE1, v)]
        s2 = summary.sums[Key(Sum.SCORE2, v)]
        seat0 = moments(n, float(s1[0]), float(s2[0]))
        # Mean square score per player-game (the variance, since scores average 0 over seats).
        sq = moments(n, float(s2.sum()), float(summary.sums[Key(Sum.SQUARE_GAME2, v)][0]))
        sd = math.sqrt(max(sq.mean / n_players, 0.0))
        for statistic, est, se in (
            ("seat 0 mean score", seat0.mean, seat0.se),
            ("score sd", sd, sd_se(sd, sq.se / n_players)),
        ):
            rows.append(
                {
                    "variant": variant.name,
                    "statistic": statistic,
                    "games": n,
                    "estimate": est,
                    "se": se,
                }
            )
    return rows
