"""The samples every fit of :mod:`simkit.objective` reads: the model's value terms of a
hand's candidate splits (:func:`components`, :func:`values_at`) and their points on common
rollouts against the default (:func:`collect`, :func:`collect_scored`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from simkit.arrange import (
    ExpectedScore,
    Solver,
    WinTables,
    arrange,
    horse_copies,
    split_values,
)
from simkit.deal import as_generator, deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.regret import Z95, banker_seat, front_candidates, points_on_rollouts, rollout_hands
from simkit.variants import Variant

#: Columns of :func:`components`: the three terms of the value the kernel weighs.
B, S, H = 0, 1, 2
#: What :func:`fit_weights` measures by default: hands, rollouts, candidates per hand, seed.
HANDS, ROLLOUTS, TOP, SEED = 4000, 100, 10, 21
#: Held-out hands: half as many, on the stream of ``seed + HELD_OUT_OFFSET``.
HELD_OUT_OFFSET = 1000
BOOTSTRAP = 200
#: The seat :func:`fit_weights` measures by default: every seat as often as it occurs (the
#: strategy is not told its seat, so one weighting serves them all).
TABLE = "table"


def components(cand: np.ndarray, solver: Solver) -> np.ndarray:
    """``float64 (c, 3)`` for arranged splits ``cand (c, 13)``: ``B``, ``S`` and ``H`` (the
    value is ``B + w_S·S + w_H·H``, exactly linear in the two weights)."""
    base, with_scoop, with_home = values_at(
        cand, solver, ((0.0, 0.0, None), (1.0, 0.0, None), (0.0, 1.0, None))
    )
    return np.stack([base, with_scoop - base, with_home - base], axis=1)


def values_at(
    cand: np.ndarray, solver: Solver, weighting: Sequence[tuple[float, float, float | None]]
) -> list[np.ndarray]:
    """The model's values of arranged splits ``cand`` under each ``(w_S, w_H, rate)`` of
    ``weighting`` (``rate`` None: the solver's own ``home_rate``), the solver's own
    parameters restored after."""
    ranks = dun_ranks(cand, solver.variant)
    horse = horse_copies(cand, solver.horse_card) if solver.horse_card >= 0 else None
    p = solver.model.params
    keep = float(p["w_scoop"]), float(p["w_home"]), float(p["home_rate"])
    values = []
    try:
        for w_scoop, w_home, rate in weighting:
            p["w_scoop"], p["w_home"] = w_scoop, w_home
            p["home_rate"] = keep[2] if rate is None else rate
            values.append(split_values(ranks, solver, horse))
    finally:
        p["w_scoop"], p["w_home"], p["home_rate"] = keep
    return values


def check_counts(hands: int, rollouts: int, top: int) -> None:
    """Refuse counts a fit cannot run: at least 4 hands, 2 rollouts and 2 candidates."""
    for what, value, least in (("hands", hands, 4), ("rollouts", rollouts, 2), ("top", top, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise SimkitError(f"{what} must be an integer ≥ {least}, got {value!r}")


def mean_ci(d: np.ndarray) -> tuple[float, tuple[float, float]]:
    """The mean of ``d`` over hands and its 95% CI."""
    se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else math.nan
    m = float(d.mean())
    return m, (m - Z95 * se, m + Z95 * se)


@dataclass(frozen=True)
class Sample:
    """One hand's candidates: their :func:`components` and per-rollout points ``(c, R)``."""

    features: np.ndarray
    points: np.ndarray

    @property
    def means(self) -> np.ndarray:
        """float64 ``(c,)``: each candidate's mean points over the rollouts."""
        return self.points.mean(axis=1)


def collect(
    v: Variant,
    n_players: int,
    seat: str,
    hands: int,
    rollouts: int,
    top: int,
    seed: int,
    *,
    batch: int = 8,
    progress: Callable[[int, int], None] | None = None,
    places: bool = False,
    tables: WinTables | None = None,
) -> list[Sample]:
    """The samples of :func:`fit_weights`: hands the default plays (not declaring), their
    ``top`` splits by the unweighted model, scored on common rollouts against the default
    (``places``: the model and the default price the t-formula's places where the tables
    carry a place model; ``tables``: the fine tables both play, None for ``v``'s own)."""
    strat = ExpectedScore(tables, weights=(1.0, 1.0), places=places)
    solver = strat.solver(v, n_players)

    def pick(cand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        f = components(cand, solver)
        order = np.argsort(-(f[:, B] + f[:, S] + f[:, H]), kind="stable")[:top]
        return cand[order], f[order]

    return collect_scored(v, n_players, seat, hands, rollouts, seed, pick, strat, batch, progress)


def collect_scored(
    v: Variant,
    n_players: int,
    seat: str,
    hands: int,
    rollouts: int,
    seed: int,
    pick: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
    default: ExpectedScore,
    batch: int,
    progress: Callable[[int, int], None] | None,
) -> list[Sample]:
    """Hands dealt on ``seed``'s stream and set by ``default`` (those it declares left out);
    of each, the candidates ``pick`` keeps from its Pareto front (with their features),
    scored on the same ``rollouts`` deals of the other cards to opponents who play
    ``default``."""
    deal_seed, roll_seed = np.random.SeedSequence(seed).spawn(2)
    dealt = deal(hands, n_players, rng=as_generator(deal_seed))[:, 0]
    _own, declared = arrange(dealt, v, default, n_players=n_players, rng=0)
    seeds = roll_seed.spawn(hands)
    banker = banker_seat(v, seat)
    played = np.flatnonzero(declared < 0)
    out: list[Sample] = []
    for lo in range(0, played.size, batch):
        idx = played[lo : lo + batch]
        settings, feats = [], []
        for h in idx:
            cand, f = pick(front_candidates(dealt[h], v))
            settings.append((cand, np.full(len(cand), -1)))
            feats.append(f)
        deals = np.stack(
            [
                rollout_hands(dealt[h], n_players, rollouts, np.random.default_rng(seeds[h]))
                for h in idx
            ]
        )
        points = points_on_rollouts(settings, deals, v, default, n_players, banker)
        out.extend(Sample(f, pts) for f, pts in zip(feats, points, strict=True))
        if progress is not None:
            progress(min(lo + batch, played.size), played.size)
    return out
