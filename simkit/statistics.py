"""What a run records about its games, and how the result tables read it back.

This module owns the summary's schema, so that the runner (:mod:`simkit.simulate`), which
writes it, and the tables (:mod:`simkit.tables`), which read it, never spell it themselves:

- what it reads of a block is the :class:`~simkit.arrange.Arrangement` record the strategy
  made (dun ranks, declared and qualifying specials, computed once per block and variant);
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
from enum import StrEnum
from typing import Any, NamedTuple

import numba as nb
import numpy as np

from simkit.arrange import Arrangement
from simkit.errors import SimkitError
from simkit.evaluate import CATEGORY_SHIFT, Category
from simkit.score import fouled_ranks, score
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


def rescore(
    play: Arrangement, variant: Variant, declared: np.ndarray, rows: Any = slice(None)
) -> np.ndarray:
    """``float64 (rows, P)``: games ``rows`` of ``play`` scored again with other declarations,
    from the ranks and specials the arrangement already holds."""
    return np.asarray(
        score(
            play.cards[rows],
            variant,
            declared=declared,
            ranks=play.ranks[rows],
            special_masks=play.special_masks[rows],
        ),
        np.float64,
    )


Scored = tuple[np.ndarray, dict[str, np.ndarray]]
Recorded = tuple[dict[Key, np.ndarray], dict[Key, np.ndarray]]


def record_block(
    variants: Sequence[Variant], plays: Sequence[Arrangement], scored: Sequence[Scored]
) -> Recorded:
    """One block's ``(counts, sums)`` for a :class:`~simkit.summary.Summary`.

    ``plays[v]`` is the block under ``variants[v]`` and ``scored[v]`` its ``(total,
    components)`` from :func:`simkit.score.score` with ``breakdown=True``.  Equal, array for
    array and bit for bit, to :func:`record_block_reference`.
    """
    n = int(np.asarray(scored[0][0]).shape[0])
    return record_blocks(variants, plays, scored, [n])[0]


def record_blocks(
    variants: Sequence[Variant],
    plays: Sequence[Arrangement],
    scored: Sequence[Scored],
    sizes: Sequence[int],
) -> list[Recorded]:
    """Each block's ``(counts, sums)`` of a batch of consecutive blocks, in block order.

    The arrays of ``plays`` and ``scored`` (as in :func:`record_block`) hold the blocks one
    after the other, ``sizes[b]`` games for block ``b``.  One pass over the games in numba
    (:func:`_block_counts`, :func:`_block_float_sums`) replaces the per-event arrays of the
    reference; each block's result equals :func:`record_block_reference` of its rows alone, bit
    for bit: counts are integers, and a block's float sums are taken in numba only where every
    score is a whole number small enough that each partial sum is an exact float64 integer
    (:func:`_exact_bound`), so that their order cannot change them; other blocks, and each
    block's variance shares, are summed by the reference's own numpy expressions.
    """
    starts = np.concatenate([[0], np.cumsum(np.asarray(sizes, dtype=np.int64))])
    totals = [np.ascontiguousarray(total, dtype=np.float64) for total, _ in scored]
    if any(t.shape[0] != starts[-1] for t in totals):
        raise SimkitError(f"the blocks' sizes add up to {starts[-1]}, the scores hold other counts")
    out: list[Recorded] = [({}, {}) for _ in sizes]
    exact = np.ones(len(sizes), dtype=np.bool_)
    for v, (variant, play, (total, components)) in enumerate(
        zip(variants, plays, scored, strict=True)
    ):
        exact &= _record_variant_blocks(out, starts, v, variant, play, total, components)
    cross, cross2, square_cross = _block_cross(starts, tuple(totals))
    for b, (_, sums) in enumerate(out):
        if exact[b]:
            sums[Key(Sum.CROSS)] = cross[b]
            sums[Key(Sum.CROSS2)] = cross2[b]
            sums[Key(Sum.SQUARE_GAME_CROSS)] = square_cross[b]
        else:
            sums.update(_cross_sums(np.stack([t[starts[b] : starts[b + 1]] for t in totals])))
    return out


def _record_variant_blocks(
    out: list[Recorded],
    starts: np.ndarray,
    v: int,
    variant: Variant,
    play: Arrangement,
    total: np.ndarray,
    components: dict[str, np.ndarray],
) -> np.ndarray:
    """File variant ``v``'s arrays of every block into ``out``; returns per block whether its
    float sums were exact (so that the run's cross sums may be taken in numba too)."""
    names = list(components)
    comps = tuple(np.ascontiguousarray(components[k], dtype=np.float64) for k in names)
    flat_total = np.ascontiguousarray(total, dtype=np.float64)
    declared = np.ascontiguousarray(play.declared, dtype=np.int8)
    event_comps = tuple(
        np.ascontiguousarray(components[e.component], dtype=np.float64) for e in EVENTS
    )
    t = np.zeros(0, dtype=np.int64)
    if "t-formula" in variant.scoring.transforms:
        t = t_values(play.ranks, declared, variant)
    n_special = len(variant.specials)
    hist, dun, any_, best, decl, events, t_hist = _block_counts(
        starts,
        flat_total,
        event_comps,
        np.array([e.sign for e in EVENTS], dtype=np.int64),
        np.ascontiguousarray(play.ranks, dtype=np.int32),
        declared,
        np.ascontiguousarray(play.special_masks, dtype=np.uint32),
        np.ascontiguousarray(play.best, dtype=np.int8),
        t,
        SCORE_HALF_WIDTH,
        n_special,
        len(Category),
        CATEGORY_SHIFT,
        T_MAX,
    )
    score1, score2, game2, square2, comp6, whole, largest = _block_float_sums(
        starts, flat_total, comps
    )
    exact = whole & _exact_bound(np.diff(starts), total.shape[1], largest)
    holders = _declare_rows(play, variant)
    for b, (counts, sums) in enumerate(out):
        rows = slice(starts[b], starts[b + 1])
        if exact[b]:
            sums[Key(Sum.SCORE1, v)] = score1[b]
            sums[Key(Sum.SCORE2, v)] = score2[b]
            sums[Key(Sum.GAME2, v)] = game2[b : b + 1]
            sums[Key(Sum.SQUARE_GAME2, v)] = square2[b : b + 1]
            block_total = total[rows]
            var_t = block_total.var()
            # exact sums: their means are numpy's .mean() to the bit (an exact sum / the count)
            centred = block_total - float(score1[b].sum()) / block_total.size
            for k, name in enumerate(names):
                comp = components[name][rows]
                share = _share(comp, comp6[b, k, 0] / comp.size, centred, var_t)
                sums[Key(Sum.COMPONENT, v, name)] = np.concatenate(
                    [comp6[b, k], [share * comp.size, share * share * comp.size]]
                )
        else:
            parts = {name: comp[rows] for name, comp in components.items()}
            sums.update(_score_sums(v, total[rows], parts))
        counts[Key(Count.HIST, v)] = hist[b]
        counts[Key(Count.DUN, v)] = dun[b]
        counts[Key(Count.SPECIAL_ANY, v)] = any_[b]
        counts[Key(Count.SPECIAL_BEST, v)] = best[b]
        counts[Key(Count.DECLARED, v)] = decl[b]
        counts[Key(Count.EVENTS, v)] = events[b]
        if t.size:
            counts[Key(Count.T_HIST, v)] = t_hist[b]
        gain_n, gain_sums = _declare_block(holders, n_special, starts[b], starts[b + 1])
        counts[Key(Count.DECLARE_N, v)] = gain_n
        sums[Key(Sum.DECLARE, v)] = gain_sums
    return exact


def _share(comp: np.ndarray, mean: float, centred_total: np.ndarray, var_t: float) -> float:
    """A block's Cov(component, total) / Var(total), by the reference's own expression, given
    the component's mean."""
    return float(((comp - mean) * centred_total).mean() / var_t) if var_t else 0.0


#: Largest magnitude a float64 holds every integer up to.
EXACT_LIMIT = 2.0**53


def _exact_bound(sizes: np.ndarray, n_players: int, largest: np.ndarray) -> np.ndarray:
    """Per block: whether scores of magnitude at most ``largest`` (whole numbers) keep each sum
    of :func:`_block_float_sums` and :func:`_block_cross` below 2⁵³, where every partial sum is
    an exact float64 integer.  The largest are Σ over games of (Σ over seats of score²)²: at
    most ``n · P² · M⁴``."""
    m = np.asarray(largest, dtype=np.float64)
    return (sizes * n_players**2 * (m**4 + 1.0) < EXACT_LIMIT) & (m < 2.0**20)


def _declare_rows(
    play: Arrangement, variant: Variant
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Per seat, over the whole batch: the rows where the seat holds a special, its best
    special, and its score declaring, playing normally, and the gain (as
    :func:`declare_value`: every other holder declares)."""
    n_special = len(variant.specials)
    best = play.best
    if n_special == 0:
        return []
    holders = best >= 0
    any_rows = np.flatnonzero(holders.any(axis=1))
    if any_rows.size == 0:
        return []
    forced = np.where(holders, best, play.declared).astype(np.int8)
    # every holder declaring is one table for all seats; playing normally differs per seat
    all_declare = np.zeros(best.shape, dtype=np.float64)
    all_declare[any_rows] = rescore(play, variant, forced[any_rows], any_rows)
    out = []
    for seat in range(best.shape[1]):
        rows = np.flatnonzero(holders[:, seat])
        if rows.size == 0:
            out.append((rows, rows, np.zeros(0), np.zeros(0), np.zeros(0)))
            continue
        with_special = all_declare[rows, seat]
        played = forced[rows].copy()
        played[:, seat] = -1
        without = rescore(play, variant, played, rows)[:, seat]
        idx = best[rows, seat].astype(np.int64)
        out.append((rows, idx, with_special - without, with_special, without))
    return out


def _declare_block(
    holders: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    n_special: int,
    start: int,
    stop: int,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`declare_value`'s ``(count, sums)`` of rows ``start .. stop - 1``, from
    :func:`_declare_rows`, summed in the reference's order (seat by seat, row by row)."""
    count = np.zeros(n_special, dtype=np.int64)
    sums = np.zeros((n_special, 6))
    for rows, idx, gain, with_special, without in holders:
        lo, hi = np.searchsorted(rows, [start, stop])
        if lo == hi:
            continue
        part = idx[lo:hi]
        count += np.bincount(part, minlength=n_special)
        for col, values in enumerate((gain[lo:hi], with_special[lo:hi], without[lo:hi])):
            sums[:, 2 * col] += np.bincount(part, weights=values, minlength=n_special)
            sums[:, 2 * col + 1] += np.bincount(part, weights=values**2, minlength=n_special)
    return count, sums


@nb.njit(cache=True)
def _block_counts(
    starts,
    total,
    event_comps,
    signs,
    ranks,
    declared,
    masks,
    best,
    t,
    half_width,
    n_special,
    n_cat,
    shift,
    t_max,
):  # pragma: no cover - numba
    """Per block, the integer arrays of :class:`Count` (but DECLARE_N) in one pass: ``(hist,
    dun, special_any, special_best, declared, events, t_hist)``, each with a leading block
    axis.  ``event_comps``: per event of :data:`EVENTS`, the component ``(n, P)`` it reads, each
    event where its value's sign is ``signs[e]``; ``ranks >> shift``: a dun's category; ``t``:
    the round's t per game (:func:`t_values`), or empty where the variant has no t-formula."""
    n_blocks = len(starts) - 1
    p = total.shape[1]
    n_events = len(event_comps) + 1
    width = 2 * half_width + 3
    hist = np.zeros((n_blocks, p, width), dtype=np.int64)
    dun = np.zeros((n_blocks, 2, 3, n_cat), dtype=np.int64)
    sp = np.zeros((3, n_blocks, 2, n_special), dtype=np.int64)
    events = np.zeros((n_blocks, 2, n_events), dtype=np.int64)
    t_hist = np.zeros((n_blocks, t_max + 1), dtype=np.int64)
    g_dun = np.zeros((3, n_cat), dtype=np.int64)
    g_sp = np.zeros((3, n_special), dtype=np.int64)
    g_ev = np.zeros(n_events, dtype=np.int64)
    for b in range(n_blocks):
        for g in range(starts[b], starts[b + 1]):
            g_dun[:] = 0
            g_sp[:] = 0
            g_ev[:] = 0
            for s in range(p):
                x = np.floor(total[g, s] + 0.5)
                if x < -half_width:
                    hist[b, s, 0] += 1
                elif x > half_width:
                    hist[b, s, width - 1] += 1
                else:
                    hist[b, s, int(x) + half_width + 1] += 1
                d = declared[g, s]
                if d < 0:
                    for j in range(3):
                        c = ranks[g, s, j] >> shift
                        if 0 <= c < n_cat:
                            g_dun[j, c] += 1
                else:
                    g_ev[n_events - 1] += 1
                    if d < n_special:
                        g_sp[2, d] += 1
                m = masks[g, s]
                for k in range(n_special):
                    if (m >> k) & 1:
                        g_sp[0, k] += 1
                bs = best[g, s]
                if 0 <= bs < n_special:
                    g_sp[1, bs] += 1
                for e in range(n_events - 1):
                    x = event_comps[e][g, s]
                    if (signs[e] > 0 and x > 0) or (signs[e] < 0 and x < 0):
                        g_ev[e] += 1
            for j in range(3):
                for c in range(n_cat):
                    k1 = g_dun[j, c]
                    dun[b, 0, j, c] += k1
                    dun[b, 1, j, c] += k1 * k1
            for f in range(3):
                for k in range(n_special):
                    k1 = g_sp[f, k]
                    sp[f, b, 0, k] += k1
                    sp[f, b, 1, k] += k1 * k1
            for e in range(n_events):
                events[b, 0, e] += g_ev[e]
                events[b, 1, e] += g_ev[e] * g_ev[e]
            if t.size > 0 and t[g] >= 0:
                t_hist[b, t[g]] += 1
    return hist, dun, sp[0], sp[1], sp[2], events, t_hist


@nb.njit(cache=True)
def _block_float_sums(starts, total, comps):  # pragma: no cover - numba
    """Per block, in one pass: ``(score1, score2, game2, square_game2, comp6, whole,
    largest)``: the :attr:`Sum.SCORE1` .. :attr:`Sum.SQUARE_GAME2` arrays, the first six fields
    of :data:`COMPONENT_FIELDS` per component (``comps``: a tuple of ``(n, P)`` arrays), whether
    every value was a whole number, and the largest magnitude of any."""
    n_blocks = len(starts) - 1
    n_comp = len(comps)
    p = total.shape[1]
    score1 = np.zeros((n_blocks, p))
    score2 = np.zeros((n_blocks, p))
    game2 = np.zeros(n_blocks)
    square2 = np.zeros(n_blocks)
    comp6 = np.zeros((n_blocks, n_comp, 6))
    whole = np.ones(n_blocks, dtype=np.bool_)
    largest = np.zeros(n_blocks)
    for b in range(n_blocks):
        lo, hi = starts[b], starts[b + 1]
        big = 0.0
        is_whole = True
        for g in range(lo, hi):
            game = 0.0
            sq = 0.0
            for s in range(p):
                x = total[g, s]
                is_whole &= x == np.floor(x)
                big = max(big, abs(x))
                score1[b, s] += x
                score2[b, s] += x * x
                game += x
                sq += x * x
            game2[b] += game * game
            square2[b] += sq * sq
        for k in range(n_comp):
            arr = comps[k]
            s0 = s1 = s2 = s3 = s4 = s5 = 0.0
            for g in range(lo, hi):
                per_game = 0.0
                for s in range(p):
                    c = arr[g, s]
                    is_whole &= c == np.floor(c)
                    a = abs(c)
                    big = max(big, a)
                    s0 += c
                    s1 += c * c
                    s2 += a
                    s3 += a * a
                    s4 += c * total[g, s]
                    per_game += c
                s5 += per_game * per_game
            comp6[b, k, 0] = s0
            comp6[b, k, 1] = s1
            comp6[b, k, 2] = s2
            comp6[b, k, 3] = s3
            comp6[b, k, 4] = s4
            comp6[b, k, 5] = s5
        whole[b] = is_whole
        largest[b] = big
    return score1, score2, game2, square2, comp6, whole, largest


@nb.njit(cache=True)
def _block_cross(starts, stacked):  # pragma: no cover - numba
    """Per block, :attr:`Sum.CROSS`, :attr:`Sum.CROSS2` and :attr:`Sum.SQUARE_GAME_CROSS` of
    ``stacked``, a tuple of each variant's scores ``(n, P)``, in one pass."""
    n_var = len(stacked)
    p = stacked[0].shape[1]
    n_blocks = len(starts) - 1
    cross = np.zeros((n_blocks, n_var, n_var, p))
    cross2 = np.zeros((n_blocks, n_var, n_var, p))
    square_cross = np.zeros((n_blocks, n_var, n_var))
    sq_game = np.zeros(n_var)
    for b in range(n_blocks):
        for g in range(starts[b], starts[b + 1]):
            for v in range(n_var):
                acc = 0.0
                for s in range(p):
                    acc += stacked[v][g, s] * stacked[v][g, s]
                sq_game[v] = acc
            for v in range(n_var):
                for w in range(n_var):
                    for s in range(p):
                        a = stacked[v][g, s]
                        c = stacked[w][g, s]
                        cross[b, v, w, s] += a * c
                        cross2[b, v, w, s] += a * a * c * c
                    square_cross[b, v, w] += sq_game[v] * sq_game[w]
    return cross, cross2, square_cross


# ------------------------------------------------------------------- the reference (numpy)


def record_block_reference(
    variants: Sequence[Variant], plays: Sequence[Arrangement], scored: Sequence[Scored]
) -> Recorded:
    """:func:`record_block` by plain numpy expressions over one block (the slow reference the
    fast path is tested against, and the path for blocks whose sums are not exact)."""
    counts: dict[Key, np.ndarray] = {}
    sums: dict[Key, np.ndarray] = {}
    for v, (variant, play, (total, components)) in enumerate(
        zip(variants, plays, scored, strict=True)
    ):
        _record_variant(counts, sums, v, variant, play, total, components)
    sums.update(_cross_sums(np.stack([total for total, _ in scored])))
    return counts, sums


def _cross_sums(stacked: np.ndarray) -> dict[Key, np.ndarray]:
    """The run's cross sums of one block's scores ``stacked`` ``(V, n, P)``."""
    sums = {Key(Sum.CROSS): np.einsum("vgs,wgs->vws", stacked, stacked)}
    sq = stacked * stacked
    sums[Key(Sum.CROSS2)] = np.einsum("vgs,wgs->vws", sq, sq)
    sq_game = sq.sum(axis=2)
    sums[Key(Sum.SQUARE_GAME_CROSS)] = np.einsum("vg,wg->vw", sq_game, sq_game)
    return sums


def _score_sums(
    v: int, total: np.ndarray, components: dict[str, np.ndarray]
) -> dict[Key, np.ndarray]:
    """Variant ``v``'s float sums of one block's scores (but the declare values)."""
    sums = {
        Key(Sum.SCORE1, v): total.sum(axis=0),
        Key(Sum.SCORE2, v): (total * total).sum(axis=0),
    }
    per_game = total.sum(axis=1)
    sums[Key(Sum.GAME2, v)] = np.array([(per_game * per_game).sum()])
    sums[Key(Sum.SQUARE_GAME2, v)] = np.array([((total * total).sum(axis=1) ** 2).sum()])
    for name, comp in components.items():
        sums[Key(Sum.COMPONENT, v, name)] = _component_block_sums(comp, total)
    return sums


def _record_variant(
    counts: dict[Key, np.ndarray],
    sums: dict[Key, np.ndarray],
    v: int,
    variant: Variant,
    play: Arrangement,
    total: np.ndarray,
    components: dict[str, np.ndarray],
) -> None:
    p = total.shape[1]
    declared = play.declared
    sums.update(_score_sums(v, total, components))
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
        t = t_values_reference(play.ranks, declared, variant)
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
    ``t_formula.min_players`` hands are compared normally.  ``int64 (n,)`` for ``ranks``
    ``(n, P, 3)`` and ``declared`` ``(n, P)``; equal to :func:`t_values_reference`.
    """
    scoring = variant.scoring
    worth = np.array(scoring.duns.values(), dtype=np.float64)  # (3, 10)
    r = np.ascontiguousarray(ranks, dtype=np.int32)
    normal = np.ascontiguousarray((declared < 0) & ~fouled_ranks(r, variant))
    return _t_kernel(r, normal, worth, CATEGORY_SHIFT, scoring.t_formula.min_players, T_MAX)


@nb.njit(cache=True)
def _t_kernel(ranks, normal, worth, shift, min_players, t_max):  # pragma: no cover - numba
    n, p = normal.shape
    out = np.empty(n, dtype=np.int64)
    for g in range(n):
        t = 1.0
        compared = 0
        for s in range(p):
            if normal[g, s]:
                compared += 1
                for j in range(3):
                    t = max(t, worth[j, ranks[g, s, j] >> shift])
        out[g] = int(min(np.rint(t), t_max)) if compared >= min_players else -1
    return out


def t_values_reference(ranks: np.ndarray, declared: np.ndarray, variant: Variant) -> np.ndarray:
    """:func:`t_values` by numpy expressions (the reference it is tested against)."""
    scoring = variant.scoring
    worth = np.array(scoring.duns.values(), dtype=np.float64)  # (3, 10)
    cats = ranks >> CATEGORY_SHIFT
    dun_worth = worth[np.arange(3), cats]  # (n, P, 3)
    normal = (declared < 0) & ~fouled_ranks(ranks, variant)
    t = np.where(normal[..., None], dun_worth, 1.0).max(axis=(1, 2))
    t = np.maximum(t, 1.0)
    applies = normal.sum(axis=1) >= scoring.t_formula.min_players
    return np.where(applies, np.minimum(np.rint(t), T_MAX), -1).astype(np.int64)


def declare_value(play: Arrangement, variant: Variant) -> tuple[np.ndarray, np.ndarray]:
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
    all_declare = rescore(play, variant, forced)
    for seat in range(best.shape[1]):
        rows = np.flatnonzero(holders[:, seat])
        if rows.size == 0:
            continue
        with_special = all_declare[rows]
        played = forced[rows].copy()
        played[:, seat] = -1
        without = rescore(play, variant, played, rows)
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
