"""Measuring strength: :func:`duplicate_match`, two strategies on the same deals, every
seat in turn."""

from __future__ import annotations

import numpy as np

from simkit.arrange import (
    StrategyLike,
    WinTables,
    arrange,
)
from simkit.deal import RngLike, as_generator, check_players, deal
from simkit.variants import Variant, resolve_variant


def duplicate_match(
    strategy_a: StrategyLike,
    strategy_b: StrategyLike,
    variant: str | Variant | None,
    *,
    n_players: int = 2,
    n_games: int = 20_000,
    rng: RngLike = 0,
    tables_a: WinTables | None = None,
    tables_b: WinTables | None = None,
) -> dict[str, float]:
    """Points per hand that A wins against B, duplicate format, with a 95% confidence interval.

    Every deal is played ``n_players`` times: A takes each seat in turn and B every other seat
    (heads-up: the same deal with seats swapped), so the luck of the cards cancels.  The
    per-deal mean of A's score over the rotations is the unit; the interval is
    mean ± 1.96·sd/√n_games.  A strategy is a :class:`~simkit.arrange.Strategy` or its name;
    ``tables_a``, ``tables_b`` are short for ``MaxEV(tables)``.
    """
    from simkit.score import score

    v = resolve_variant(variant)
    check_players(n_players)
    gen = as_generator(rng)
    hands = deal(n_games, n_players, rng=gen)
    arr_a, dec_a = arrange(hands, v, strategy_a, n_players=n_players, rng=gen, tables=tables_a)
    arr_b, dec_b = arrange(hands, v, strategy_b, n_players=n_players, rng=gen, tables=tables_b)
    per_deal = np.zeros(n_games)
    for seat in range(n_players):
        arranged = arr_b.copy()
        declared = dec_b.copy()
        arranged[:, seat] = arr_a[:, seat]
        declared[:, seat] = dec_a[:, seat]
        points = np.asarray(score(arranged, v, declared=declared))
        per_deal += points[:, seat] / n_players
    mean = float(per_deal.mean())
    se = float(per_deal.std(ddof=1) / np.sqrt(n_games)) if n_games > 1 else float("nan")
    return {
        "mean": mean,
        "se": se,
        "ci_low": mean - 1.96 * se,
        "ci_high": mean + 1.96 * se,
        "n_games": float(n_games),
        "n_players": float(n_players),
    }
