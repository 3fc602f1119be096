"""Result tables: mergeable summaries of a run → tidy polars tables with standard errors.

Every estimate carries ``n`` and a standard error (``se``) or a 95% interval
(``ci_low``/``ci_high``, mean ± 1.96 se).  Standard errors treat the *game* as the independent
unit: the hands of one deal share a deck, so per-hand rates use the variance of per-game counts.
The tables receive a run's summary, its variants and its number of players; what each array of
the summary holds is :mod:`simkit.statistics`'s to say.

Tables (:func:`build_tables`):

- ``scores``: expected score and standard deviation per seat and variant (seat ``all`` pools the
  seats; seat 0 is the banker in banker variants).
- ``paired``: differences between variants on the same deals (common random numbers): the mean
  score per seat and the mean square score (volatility), with paired standard errors.
- ``components``: score by rule component (dun base, bonuses, scoops, home runs, specials,
  fouls, t-formula, horse card ...): mean, mean absolute transfer, and the share of the score's
  variance, ``Cov(component, total) / Var(total)`` (shares add up to 1).
- ``dun_categories``: how often each category stands in each dun, among hands played normally.
- ``specials``: how often hands qualify for each special and have it as their best, beside the
  exact per-hand probabilities (one deck) and z-scores.
- ``events``: per-player rates of fouls, scoops, being scooped, home runs and declared specials.
- ``t_distribution``: the distribution of t in t-formula variants.
- ``declare_value``: each special holder's score declaring minus playing the hand normally.
- ``banker_edge``: the banker's (seat 0) expected score in banker variants.
- ``payouts``: each special's payout beside the payout its rarity and its normal-play value
  would justify.
- ``score_distribution``: histogram of scores per seat.
- ``convergence``: key estimates against the number of games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from simkit.evaluate import Category
from simkit.exact import special_probabilities
from simkit.statistics import (
    EVENT_NAMES,
    POSITIONS,
    SCORE_HALF_WIDTH,
    Count,
    Key,
    Sum,
    component_sums,
)
from simkit.summary import Z95, Summary, histogram_bins, moments, rate_se, sd_se
from simkit.variants import Variant, has_banker


def _ci(mean: float, se: float) -> tuple[float, float]:
    return mean - Z95 * se, mean + Z95 * se


def build_tables(
    summary: Summary,
    variants: Sequence[Variant],
    n_players: int,
    trace: list[dict[str, Any]] | None = None,
) -> dict[str, pl.DataFrame]:
    """Every result table of a run (see the module docstring for what each holds).

    ``summary`` holds the run's arrays (laid out by :mod:`simkit.statistics`), ``variants[v]``
    the rules of the variant filed as ``v``; ``trace``: the rows of :func:`convergence_table`.
    """
    tables = {
        "scores": scores_table(summary, variants, n_players),
        "paired": paired_table(summary, variants, n_players),
        "components": components_table(summary, variants, n_players),
        "dun_categories": dun_categories_table(summary, variants),
        "specials": specials_table(summary, variants, n_players),
        "events": events_table(summary, variants, n_players),
        "t_distribution": t_distribution_table(summary, variants),
        "declare_value": declare_value_table(summary, variants),
        "score_distribution": score_distribution_table(summary, variants, n_players),
        "convergence": convergence_table(trace or []),
    }
    tables["banker_edge"] = banker_edge_table(tables["scores"], variants, n_players)
    tables["payouts"] = payouts_table(tables["specials"], tables["declare_value"], n_players)
    return tables


def _frame(rows: list[dict[str, Any]], schema: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


_MEAN_SCHEMA = {
    "n": pl.Int64,
    "mean": pl.Float64,
    "sd": pl.Float64,
    "se": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
}


def _mean_cols(n: int, mean: float, sd: float, se: float) -> dict[str, Any]:
    low, high = _ci(mean, se)
    return {"n": n, "mean": mean, "sd": sd, "se": se, "ci_low": low, "ci_high": high}


def scores_table(summary: Summary, variants: Sequence[Variant], n_players: int) -> pl.DataFrame:
    """Expected score and sd per seat (and all seats pooled) per variant."""
    n = summary.n_games
    p = n_players
    rows = []
    for v, variant in enumerate(variants):
        s1 = summary.sums[Key(Sum.SCORE1, v)]
        s2 = summary.sums[Key(Sum.SCORE2, v)]
        banker = has_banker(variant)
        fourth = summary.sums[Key(Sum.CROSS2)][v, v]  # Σ x⁴ per seat
        for seat in range(p):
            m = moments(n, float(s1[seat]), float(s2[seat]))
            square = moments(n, float(s2[seat]), float(fourth[seat]))
            rows.append(
                {"variant": variant.name, "seat": str(seat), "banker": banker and seat == 0}
                | _mean_cols(n, m.mean, m.sd, m.se)
                | {"sd_se": sd_se(m.sd, square.se)}
            )
        pooled = moments(n * p, float(s1.sum()), float(s2.sum()))
        per_game = moments(n, float(s1.sum()), float(summary.sums[Key(Sum.GAME2, v)][0]))
        square = moments(n, float(s2.sum()), float(summary.sums[Key(Sum.SQUARE_GAME2, v)][0]))
        rows.append(
            {"variant": variant.name, "seat": "all", "banker": False}
            | _mean_cols(n * p, pooled.mean, pooled.sd, per_game.se / p)
            | {"sd_se": sd_se(pooled.sd, square.se / p)}
        )
    schema = {"variant": pl.Utf8, "seat": pl.Utf8, "banker": pl.Boolean} | _MEAN_SCHEMA
    return _frame(rows, schema | {"sd_se": pl.Float64})


_PAIRED_SCHEMA = {
    "variant_a": pl.Utf8,
    "variant_b": pl.Utf8,
    "seat": pl.Utf8,
    "statistic": pl.Utf8,
    "n": pl.Int64,
    "diff": pl.Float64,
    "se": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
}


def paired_table(summary: Summary, variants: Sequence[Variant], n_players: int) -> pl.DataFrame:
    """Paired differences a − b on the same deals: mean score per seat, mean square score."""
    n = summary.n_games
    p = n_players
    cross = summary.sums[Key(Sum.CROSS)]
    cross2 = summary.sums[Key(Sum.CROSS2)]
    game_cross = summary.sums[Key(Sum.SQUARE_GAME_CROSS)]
    rows = []
    for a in range(len(variants)):
        for b in range(a + 1, len(variants)):
            s1a, s1b = summary.sums[Key(Sum.SCORE1, a)], summary.sums[Key(Sum.SCORE1, b)]
            s2a, s2b = summary.sums[Key(Sum.SCORE2, a)], summary.sums[Key(Sum.SCORE2, b)]
            for seat in range(p):
                d1 = float(s1a[seat] - s1b[seat])
                d2 = float(cross[a, a, seat] + cross[b, b, seat] - 2 * cross[a, b, seat])
                sq1 = float(s2a[seat] - s2b[seat])
                sq2 = float(cross2[a, a, seat] + cross2[b, b, seat] - 2 * cross2[a, b, seat])
                for statistic, m in (
                    ("mean score", moments(n, d1, d2)),
                    ("mean square score", moments(n, sq1, sq2)),
                ):
                    rows.append(
                        _paired_row(
                            variants[a].name,
                            variants[b].name,
                            str(seat),
                            statistic,
                            n,
                            m.mean,
                            m.se,
                        )
                    )
            sq1 = float(s2a.sum() - s2b.sum())
            sq2 = float(game_cross[a, a] + game_cross[b, b] - 2 * game_cross[a, b])
            m = moments(n, sq1, sq2)
            rows.append(
                _paired_row(
                    variants[a].name,
                    variants[b].name,
                    "all",
                    "mean square score",
                    n * p,
                    m.mean / p,
                    m.se / p,
                )
            )
    return _frame(rows, _PAIRED_SCHEMA)


def _paired_row(a: str, b: str, seat: str, statistic: str, n: int, diff: float, se: float) -> dict:
    low, high = _ci(diff, se)
    return {
        "variant_a": a,
        "variant_b": b,
        "seat": seat,
        "statistic": statistic,
        "n": n,
        "diff": diff,
        "se": se,
        "ci_low": low,
        "ci_high": high,
    }


def components_table(summary: Summary, variants: Sequence[Variant], n_players: int) -> pl.DataFrame:
    """Score by rule component, pooled over seats: mean, mean |transfer|, share of variance."""
    n = summary.n_games
    p = n_players
    big_n = n * p
    rows = []
    for v, variant in enumerate(variants):
        s1 = float(summary.sums[Key(Sum.SCORE1, v)].sum())
        s2 = float(summary.sums[Key(Sum.SCORE2, v)].sum())
        var_total = (s2 - s1 * s1 / big_n) / (big_n - 1) if big_n > 1 else math.nan
        for component, sums in component_sums(summary, v):
            c1, c2, a1, a2, ct, g2, sh1, sh2 = (float(x) for x in sums)
            mean = moments(n, c1, g2)  # per-game sums → clustered se
            pooled = moments(big_n, c1, c2)
            absolute = moments(big_n, a1, a2)
            cov = (ct - c1 * s1 / big_n) / (big_n - 1) if big_n > 1 else math.nan
            share = cov / var_total if var_total else math.nan
            # Batch means over blocks (weighted by block size) for the share's se.
            block_mean = sh1 / big_n
            block_var = max(sh2 / big_n - block_mean**2, 0.0)
            share_se = math.sqrt(block_var / summary.n_blocks) if summary.n_blocks > 1 else math.nan
            rows.append(
                {
                    "variant": variant.name,
                    "component": component,
                    "n": big_n,
                    "mean": c1 / big_n,
                    "se": mean.se / p,
                    "sd": pooled.sd,
                    "mean_abs": absolute.mean,
                    "mean_abs_se": absolute.se,
                    "var_share": share,
                    "var_share_se": share_se,
                }
            )
    schema = {
        "variant": pl.Utf8,
        "component": pl.Utf8,
        "n": pl.Int64,
        "mean": pl.Float64,
        "se": pl.Float64,
        "sd": pl.Float64,
        "mean_abs": pl.Float64,
        "mean_abs_se": pl.Float64,
        "var_share": pl.Float64,
        "var_share_se": pl.Float64,
    }
    return _frame(rows, schema)


def dun_categories_table(summary: Summary, variants: Sequence[Variant]) -> pl.DataFrame:
    """Category frequency by dun position among hands played normally (not declared)."""
    n = summary.n_games
    rows = []
    for v, variant in enumerate(variants):
        k1, k2 = summary.counts[Key(Count.DUN, v)]  # each (3, 10)
        for pos, position in enumerate(POSITIONS):
            hands = int(k1[pos].sum())
            for cat in Category:
                count = int(k1[pos, cat])
                if position == "front" and count == 0 and cat not in (0, 1, 3):
                    continue  # fronts are only high card, pair or trips
                rate, se = rate_se(n, hands, float(count), float(k2[pos, cat]))
                rows.append(
                    {
                        "variant": variant.name,
                        "position": position,
                        "category": cat.name,
                        "n": hands,
                        "count": count,
                        "freq": rate,
                        "se": se,
                    }
                )
    schema = {
        "variant": pl.Utf8,
        "position": pl.Utf8,
        "category": pl.Utf8,
        "n": pl.Int64,
        "count": pl.Int64,
        "freq": pl.Float64,
        "se": pl.Float64,
    }
    return _frame(rows, schema)


def _exact_specials(variant: Variant, n_players: int) -> dict[str, tuple[float, float]]:
    """Exact per-hand (probability, best probability) by special id.

    Empty when the exact values do not describe the hands played: two decks (5-8 players), or
    a card pass or exchange before arranging (the hands are no longer uniform 13-card hands).
    """
    if n_players > 4 or variant.deal.changes_hands:
        return {}
    return special_probabilities(variant)


def _z(freq: float, exact: float | None, hands: int) -> float | None:
    if exact is None or hands <= 0:
        return None
    if exact <= 0.0 or exact >= 1.0:
        return 0.0 if freq == exact else math.inf
    return (freq - exact) / math.sqrt(exact * (1 - exact) / hands)


def specials_table(summary: Summary, variants: Sequence[Variant], n_players: int) -> pl.DataFrame:
    """Special-hand frequencies per hand beside their exact values, with z-scores.

    ``freq``: the hand qualifies; ``best_freq``: it is the hand's best special (what it would
    declare); ``declared_freq``: the strategy declared it.  ``z`` = (freq − exact) / sqrt(exact
    (1 − exact) / n), the binomial z-score under the exact value.
    """
    n = summary.n_games
    hands = n * n_players
    rows = []
    for v, variant in enumerate(variants):
        exact = _exact_specials(variant, n_players)
        any1, any2 = summary.counts[Key(Count.SPECIAL_ANY, v)]
        best1, best2 = summary.counts[Key(Count.SPECIAL_BEST, v)]
        dec1, dec2 = summary.counts[Key(Count.DECLARED, v)]
        for i, rule in enumerate(variant.specials.rules):
            freq, se = rate_se(n, hands, float(any1[i]), float(any2[i]))
            best_freq, best_se = rate_se(n, hands, float(best1[i]), float(best2[i]))
            dec_freq, dec_se = rate_se(n, hands, float(dec1[i]), float(dec2[i]))
            p_exact, best_exact = exact.get(rule.id, (None, None))
            rows.append(
                {
                    "variant": variant.name,
                    "special": rule.id,
                    "name": rule.name,
                    "rank": i,
                    "payout": rule.payout,
                    "n": hands,
                    "count": int(any1[i]),
                    "freq": freq,
                    "se": se,
                    "exact": p_exact,
                    "z": _z(freq, p_exact, hands),
                    "best_count": int(best1[i]),
                    "best_freq": best_freq,
                    "best_se": best_se,
                    "best_exact": best_exact,
                    "best_z": _z(best_freq, best_exact, hands),
                    "declared_count": int(dec1[i]),
                    "declared_freq": dec_freq,
                    "declared_se": dec_se,
                    "one_in": 1 / best_exact if best_exact else None,
                }
            )
    schema = {
        "variant": pl.Utf8,
        "special": pl.Utf8,
        "name": pl.Utf8,
        "rank": pl.Int64,
        "payout": pl.Float64,
        "n": pl.Int64,
        "count": pl.Int64,
        "freq": pl.Float64,
        "se": pl.Float64,
        "exact": pl.Float64,
        "z": pl.Float64,
        "best_count": pl.Int64,
        "best_freq": pl.Float64,
        "best_se": pl.Float64,
        "best_exact": pl.Float64,
        "best_z": pl.Float64,
        "declared_count": pl.Int64,
        "declared_freq": pl.Float64,
        "declared_se": pl.Float64,
        "one_in": pl.Float64,
    }
    return _frame(rows, schema)


def events_table(summary: Summary, variants: Sequence[Variant], n_players: int) -> pl.DataFrame:
    """Per-player rates of fouls, scoops (made and suffered), home runs and declarations."""
    n = summary.n_games
    units = n * n_players
    rows = []
    for v, variant in enumerate(variants):
        k1, k2 = summary.counts[Key(Count.EVENTS, v)]
        for e, event in enumerate(EVENT_NAMES):
            rate, se = rate_se(n, units, float(k1[e]), float(k2[e]))
            low, high = _ci(rate, se)
            rows.append(
                {
                    "variant": variant.name,
                    "event": event,
                    "n": units,
                    "count": int(k1[e]),
                    "rate": rate,
                    "se": se,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
    schema = {
        "variant": pl.Utf8,
        "event": pl.Utf8,
        "n": pl.Int64,
        "count": pl.Int64,
        "rate": pl.Float64,
        "se": pl.Float64,
        "ci_low": pl.Float64,
        "ci_high": pl.Float64,
    }
    return _frame(rows, schema)


def t_distribution_table(summary: Summary, variants: Sequence[Variant]) -> pl.DataFrame:
    """Distribution of the round's t (waters of the biggest hand) in t-formula variants."""
    n = summary.n_games
    rows = []
    for v, variant in enumerate(variants):
        hist = summary.counts.get(Key(Count.T_HIST, v))
        if hist is None:
            continue
        for t, count in enumerate(hist.tolist()):
            if count == 0:
                continue
            freq = count / n
            rows.append(
                {
                    "variant": variant.name,
                    "t": t,
                    "n": n,
                    "count": int(count),
                    "freq": freq,
                    "se": math.sqrt(freq * (1 - freq) / n),
                }
            )
    schema = {
        "variant": pl.Utf8,
        "t": pl.Int64,
        "n": pl.Int64,
        "count": pl.Int64,
        "freq": pl.Float64,
        "se": pl.Float64,
    }
    return _frame(rows, schema)


def declare_value_table(summary: Summary, variants: Sequence[Variant]) -> pl.DataFrame:
    """A special holder's score declaring it, playing it normally, and the difference."""
    rows = []
    for v, variant in enumerate(variants):
        counts = summary.counts[Key(Count.DECLARE_N, v)]
        sums = summary.sums[Key(Sum.DECLARE, v)]
        for i, rule in enumerate(variant.specials.rules):
            k = int(counts[i])
            gain = moments(k, float(sums[i, 0]), float(sums[i, 1]))
            declared = moments(k, float(sums[i, 2]), float(sums[i, 3]))
            played = moments(k, float(sums[i, 4]), float(sums[i, 5]))
            rows.append(
                {
                    "variant": variant.name,
                    "special": rule.id,
                    "name": rule.name,
                    "payout": rule.payout,
                    "n": k,
                    "gain_mean": gain.mean,
                    "gain_se": gain.se,
                    "declared_mean": declared.mean,
                    "declared_se": declared.se,
                    "played_mean": played.mean,
                    "played_se": played.se,
                }
            )
    schema = {
        "variant": pl.Utf8,
        "special": pl.Utf8,
        "name": pl.Utf8,
        "payout": pl.Float64,
        "n": pl.Int64,
        "gain_mean": pl.Float64,
        "gain_se": pl.Float64,
        "declared_mean": pl.Float64,
        "declared_se": pl.Float64,
        "played_mean": pl.Float64,
        "played_se": pl.Float64,
    }
    return _frame(rows, schema)


def banker_edge_table(
    scores: pl.DataFrame, variants: Sequence[Variant], n_players: int
) -> pl.DataFrame:
    """The banker's (seat 0) expected score per game in banker variants.

    ``compare`` is ``top-card`` when the variant plays 食夹棍 (only the top card of each dun
    counts, the banker winning ties), ``full`` otherwise.
    """
    compare = {v.name: v.scoring.compare for v in variants}
    return (
        scores.filter(pl.col("banker"))
        .with_columns(
            pl.col("variant").replace_strict(compare, return_dtype=pl.Utf8).alias("compare"),
            pl.lit(n_players, dtype=pl.Int64).alias("players"),
        )
        .select("variant", "compare", "players", "n", "mean", "sd", "se", "ci_low", "ci_high")
    )


def payouts_table(
    specials: pl.DataFrame, declare_value: pl.DataFrame, n_players: int
) -> pl.DataFrame:
    """Each special's payout beside what its rarity and its normal-play value would justify.

    - ``rarity_payout``: the payout the variants' own payout curve gives a hand this rare: a
      least-squares line of log(payout) on log(1/p) over every special of every variant in the
      run (p: exact best-special probability, else the observed one).
    - ``normal_play_value``: what the hand wins per opponent when played as a normal hand (the
      mean of ``played_mean`` / (players − 1)); a payout below it makes declaring a loss.
    - ``justified_payout``: the larger of the two.
    """
    joined = specials.join(
        declare_value.select(
            "variant",
            "special",
            "played_mean",
            "played_se",
            "gain_mean",
            "gain_se",
            pl.col("n").alias("holders"),
        ),
        on=["variant", "special"],
        how="left",
    ).with_columns(pl.coalesce(pl.col("best_exact"), pl.col("best_freq")).alias("probability"))
    fit = joined.filter((pl.col("probability") > 0) & (pl.col("payout") > 0))
    slope, intercept = math.nan, math.nan
    if fit.height >= 2:
        x = np.log(1 / fit["probability"].to_numpy())
        y = np.log(fit["payout"].to_numpy())
        if np.ptp(x) > 0:
            slope, intercept = (float(c) for c in np.polyfit(x, y, 1))
    opponents = n_players - 1
    out = joined.with_columns(
        (1 / pl.col("probability")).alias("one_in"),
        pl.when(pl.col("probability") > 0)
        .then((intercept + slope * (1 / pl.col("probability")).log()).exp())
        .otherwise(None)
        .alias("rarity_payout"),
        (pl.col("played_mean") / opponents).alias("normal_play_value"),
        (pl.col("played_se") / opponents).alias("normal_play_value_se"),
    ).with_columns(
        pl.max_horizontal("rarity_payout", "normal_play_value").alias("justified_payout"),
        pl.lit(slope).alias("fit_slope"),
    )
    return out.select(
        "variant",
        "special",
        "name",
        "payout",
        "probability",
        "one_in",
        "holders",
        "rarity_payout",
        "normal_play_value",
        "normal_play_value_se",
        "justified_payout",
        "gain_mean",
        "gain_se",
        "fit_slope",
    )


def score_distribution_table(
    summary: Summary, variants: Sequence[Variant], n_players: int
) -> pl.DataFrame:
    """Histogram of each seat's score (integers; ``below``/``above`` tails), and all seats."""
    values = histogram_bins(SCORE_HALF_WIDTH)
    tail = float(SCORE_HALF_WIDTH + 1)
    label_arr = np.array([-tail, *values.astype(float).tolist(), tail])
    frames = []
    for v, variant in enumerate(variants):
        hist = summary.counts[Key(Count.HIST, v)]  # (P, bins)
        seats = [(str(s), hist[s]) for s in range(n_players)]
        seats.append(("all", hist.sum(axis=0)))
        for seat, counts in seats:
            keep = counts > 0
            n = int(counts.sum())
            frames.append(
                pl.DataFrame(
                    {
                        "variant": variant.name,
                        "seat": seat,
                        "score": label_arr[keep],
                        "count": counts[keep].astype(np.int64),
                        "freq": counts[keep] / n,
                        "n": n,
                    }
                )
            )
    schema = {
        "variant": pl.Utf8,
        "seat": pl.Utf8,
        "score": pl.Float64,
        "count": pl.Int64,
        "freq": pl.Float64,
        "n": pl.Int64,
    }
    if not frames:
        return pl.DataFrame(schema=schema)
    return pl.concat([f.cast(schema) for f in frames])  # type: ignore[arg-type]


def convergence_table(trace: list[dict[str, Any]]) -> pl.DataFrame:
    """Key estimates recorded as the run grew (after 1, 2, 4, ... blocks and at the end)."""
    schema = {
        "variant": pl.Utf8,
        "statistic": pl.Utf8,
        "games": pl.Int64,
        "estimate": pl.Float64,
        "se": pl.Float64,
    }
    frame = _frame(trace, schema)
    return frame.with_columns(
        (pl.col("estimate") - Z95 * pl.col("se")).alias("ci_low"),
        (pl.col("estimate") + Z95 * pl.col("se")).alias("ci_high"),
    )
