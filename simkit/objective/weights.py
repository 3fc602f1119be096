"""The scoop and home-run weights of expected-score (:func:`fit_weights`): the within-hand
least-squares fit, its bootstrap CIs and its held-out gain."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simkit.arrange import WinTables
from simkit.deal import check_players
from simkit.errors import SimkitError
from simkit.objective.samples import (
    BOOTSTRAP,
    HANDS,
    HELD_OUT_OFFSET,
    ROLLOUTS,
    SEED,
    TABLE,
    TOP,
    B,
    H,
    S,
    Sample,
    check_counts,
    collect,
    mean_ci,
)
from simkit.regret import banker_seat
from simkit.variants import Variant, resolve_variant


def within_hand_fit(samples: Sequence[Sample]) -> np.ndarray:
    """Least-squares coefficients of the rollout means on B, S and H, each hand's means
    subtracted (only the order within a hand is fitted)."""
    xs, ys = [], []
    for s in samples:
        if len(s.features) < 2:
            continue
        xs.append(s.features - s.features.mean(axis=0))
        ys.append(s.means - s.means.mean())
    if not xs:
        raise SimkitError("no hand has two candidates to compare")
    coef, *_ = np.linalg.lstsq(np.concatenate(xs), np.concatenate(ys), rcond=None)
    return coef


def weights_of(coef: np.ndarray) -> tuple[float, float]:
    """``(w_S, w_H)`` from the coefficients of ``B``, ``S``, ``H`` (0 at least)."""
    if not coef[0] > 0:
        raise SimkitError(f"the dun points' coefficient is {coef[0]:.4f}: no weights to fit")
    return float(max(coef[1] / coef[0], 0.0)), float(max(coef[2] / coef[0], 0.0))


def picked_points(samples: Sequence[Sample], weights: tuple[float, float]) -> np.ndarray:
    """Per hand, the rollout mean of the candidate that ``B + w_S·S + w_H·H`` ranks first."""
    w_scoop, w_home = weights
    out = np.empty(len(samples))
    for i, s in enumerate(samples):
        f = s.features
        out[i] = s.means[int(np.argmax(f[:, B] + w_scoop * f[:, S] + w_home * f[:, H]))]
    return out


@dataclass(frozen=True)
class WeightFit:
    """What :func:`fit_weights` measured (points per game; CIs 95%)."""

    variant: str
    n_players: int
    seat: str
    hands: int
    rollouts: int
    top: int
    seed: int
    coefficients: tuple[float, float, float]
    weights: tuple[float, float]
    weights_ci: tuple[tuple[float, float], tuple[float, float]]
    held_out_hands: int
    held_out_gain: float
    held_out_ci: tuple[float, float]
    picks_differ: float
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def trivial(self) -> bool:
        """True where the variant has no scoop or home-run term to weigh."""
        return self.coefficients[1] == 0.0 and self.coefficients[2] == 0.0

    def as_meta(self) -> dict[str, Any]:
        """The ``meta["objective_weights"]`` entry of a fine table file."""
        return {
            "scoop": round(self.weights[0], 4),
            "home_run": round(self.weights[1], 4),
            "scoop_ci95": [round(x, 4) for x in self.weights_ci[0]],
            "home_run_ci95": [round(x, 4) for x in self.weights_ci[1]],
            "held_out_gain": round(self.held_out_gain, 5),
            "held_out_ci95": [round(x, 5) for x in self.held_out_ci],
            "seat": self.seat,
            "command": (
                f"python -m experiments.pipelines.fit_objective "
                f"--rows {self.variant}:{self.n_players} "
                f"--seat {self.seat} --hands {self.hands} --rollouts {self.rollouts} "
                f"--top {self.top} --seed {self.seed} --write"
            ),
        }


def worth_shipping(fit: WeightFit) -> bool:
    """Ship a fit's weights only where its held-out gain is positive beyond its 95% CI."""
    return not fit.trivial and fit.held_out_ci[0] > 0.0


def _seat_samples(
    v: Variant,
    n_players: int,
    seat: str,
    hands: int,
    rollouts: int,
    top: int,
    seed: int,
    progress: Callable[[int, int], None] | None,
    places: bool = False,
    tables: WinTables | None = None,
) -> list[Sample]:
    """:func:`collect` for one seat, or ``"table"``: in a banker variant the banker's and the
    players' hands as often as they sit at a table (1 to p - 1, each on its own stream)."""
    if seat != TABLE:
        return collect(
            v, n_players, seat, hands, rollouts, top, seed, progress=progress, places=places,
            tables=tables,
        )  # fmt: skip
    if v.scoring.topology != "banker":
        return collect(
            v, n_players, "player", hands, rollouts, top, seed, progress=progress, places=places,
            tables=tables,
        )  # fmt: skip
    n_banker = max(hands // n_players, 1)
    return collect(
        v, n_players, "banker", n_banker, rollouts, top, seed, places=places, tables=tables
    ) + collect(
        v, n_players, "player", hands - n_banker, rollouts, top, seed + 1, progress=progress,
        places=places, tables=tables,
    )  # fmt: skip


def fit_weights(
    variant: str | Variant | None,
    n_players: int = 4,
    *,
    seat: str = TABLE,
    hands: int = HANDS,
    rollouts: int = ROLLOUTS,
    top: int = TOP,
    seed: int = SEED,
    progress: Callable[[int, int], None] | None = None,
    places: bool = False,
    tables: WinTables | None = None,
) -> WeightFit:
    """Fit ``(w_S, w_H)`` for ``variant`` at ``n_players`` by the protocol of this module
    (``places``: over the place model of the t-formula, ``ExpectedScore(places=True)``;
    ``tables``: the fine tables played, None for the variant's own, shipped or built)."""
    v = resolve_variant(variant)
    check_players(n_players)
    if n_players > 4:
        raise SimkitError(f"rollouts deal one deck (2-4 players), got {n_players}")
    check_counts(hands, rollouts, top)
    if seat != TABLE:
        banker_seat(v, seat)
    samples = _seat_samples(
        v, n_players, seat, hands, rollouts, top, seed, progress, places, tables
    )
    coef = within_hand_fit(samples)
    if coef[S] == 0.0 and coef[H] == 0.0:  # nothing to weigh: no scoop, no home run
        weights, ci = (1.0, 1.0), ((1.0, 1.0), (1.0, 1.0))
    else:
        weights = weights_of(coef)
        gen = np.random.default_rng(seed)
        boots = np.full((BOOTSTRAP, 2), np.nan)
        for k in range(BOOTSTRAP):
            pick = gen.integers(0, len(samples), len(samples))
            c = within_hand_fit([samples[i] for i in pick])
            if c[B] > 0:  # a resample of a few hands may order none by its dun points
                boots[k] = weights_of(c)
        lo, hi = np.nanpercentile(boots, [2.5, 97.5], axis=0)
        ci = ((float(lo[0]), float(hi[0])), (float(lo[1]), float(hi[1])))
    test = _seat_samples(
        v, n_players, seat, hands // 2, rollouts, top, seed + HELD_OUT_OFFSET, None, places,
        tables,
    )  # fmt: skip
    diff = picked_points(test, weights) - picked_points(test, (1.0, 1.0))
    gain, held_out_ci = mean_ci(diff)
    return WeightFit(
        variant=v.name,
        n_players=n_players,
        seat=seat,
        hands=hands,
        rollouts=rollouts,
        top=top,
        seed=seed,
        coefficients=(float(coef[B]), float(coef[S]), float(coef[H])),
        weights=weights,
        weights_ci=ci,
        held_out_hands=len(test),
        held_out_gain=gain,
        held_out_ci=held_out_ci,
        picks_differ=float((diff != 0).mean()),
    )
