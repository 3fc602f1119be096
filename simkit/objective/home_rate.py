"""The home rate of the retired expected-score-home (:func:`fit_home_rate`): the chance that
an opponent who scoops a hand scoops every other player too, fitted with the weights."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.arrange import (
    ExpectedScore,
    Solver,
    default_fine_tables,
    objective_weights,
)
from simkit.deal import check_players
from simkit.errors import SimkitError
from simkit.objective.samples import (
    HELD_OUT_OFFSET,
    Sample,
    check_counts,
    collect_scored,
    mean_ci,
    values_at,
)
from simkit.objective.weights import weights_of, within_hand_fit
from simkit.variants import Variant, resolve_variant
from simkit.variants.compiled import compile_rules

#: Columns of :func:`home_components`: the dun points, the scoop terms, the home-run terms as
#: expected-score prices them (the table's scoop rate), and the home-run terms at the rate r
#: as ``H_FOR - r·K`` (my home run, less the opponents' against me at r = 1).
HB, HS, H_SCOOP_RATE, H_FOR, H_AGAINST = range(5)
#: The rates :func:`fit_home_rate` tries: the chance that an opponent who scoops a hand scoops
#: every other player too (the table's scoop rate for each of three opponents is some 0.013).
HOME_RATES = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
#: What :func:`fit_home_rate` measures by default: hands (and as many held out), rollouts,
#: candidates per hand and ordering, seed.
HOME_HANDS, HOME_ROLLOUTS, HOME_TOP, HOME_SEED = 16_000, 100, 10, 21
#: The rates of the orderings whose best ``top`` splits :func:`fit_home_rate` scores (beside
#: the unweighted model's and expected-score's): the candidates of a pick at any rate tried.
_CANDIDATE_RATES = (0.25, 0.5)


def home_components(cand: np.ndarray, solver: Solver) -> np.ndarray:
    """``float64 (c, 5)`` for arranged splits ``cand (c, 13)``: ``HB``, ``HS`` (as
    :func:`components`' ``B`` and ``S``), ``H_SCOOP_RATE`` (its ``H``) and ``H_FOR``,
    ``H_AGAINST``: the home-run terms priced at a home rate ``r`` (the payout record's
    ``home_rate``: an opponent who scoops me scoops all) are ``H_FOR - r·H_AGAINST``, exactly,
    since the home run against enters the value linearly in ``r``; they are read at r = 1 and
    r = 1/2."""
    base, scoop, home, at_one, at_half = values_at(
        cand, solver, ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 1.0, 1.0),
                       (0.0, 1.0, 0.5)),
    )  # fmt: skip
    against = 2.0 * (at_half - at_one)
    return np.stack([base, scoop - base, home - base, at_one - base + against, against], axis=1)


def home_term(f: np.ndarray, rate: float | None) -> np.ndarray:
    """The home-run terms ``H`` from :func:`home_components` ``f``, the home run against at
    ``rate`` (None: at the table's scoop rate, as expected-score prices it)."""
    return f[:, H_SCOOP_RATE] if rate is None else f[:, H_FOR] - rate * f[:, H_AGAINST]


def home_value(f: np.ndarray, weights: tuple[float, float], rate: float | None) -> np.ndarray:
    """The model's value from :func:`home_components` ``f``: ``B + w_S·S + w_H·H`` with ``H``
    at ``rate`` (:func:`home_term`)."""
    return f[:, HB] + weights[0] * f[:, HS] + weights[1] * home_term(f, rate)


@dataclass(frozen=True)
class HomeRateFit:
    """What :func:`fit_home_rate` measured (points per game; CIs 95%): per rate tried, the
    weights fitted with it and the gain of its pick over expected-score's on the fitting
    hands and on the held-out ones; the rate whose fitting-hands gain is largest, its weights
    and held-out gain."""

    variant: str
    n_players: int
    hands: int
    rollouts: int
    top: int
    seed: int
    shipped_weights: tuple[float, float]
    per_rate: list[dict[str, Any]]
    rate: float
    weights: tuple[float, float]
    held_out_hands: int
    held_out_gain: float
    held_out_ci: tuple[float, float]
    picks_differ: float

    def as_meta(self) -> dict[str, Any]:
        """The ``meta["home_rate"]`` entry of a fine table file."""
        return {
            "rate": self.rate,
            "scoop": round(self.weights[0], 4),
            "home_run": round(self.weights[1], 4),
            "held_out_gain": round(self.held_out_gain, 5),
            "held_out_ci95": [round(x, 5) for x in self.held_out_ci],
            "command": (
                f"python -m experiments.pipelines.fit_home_rate "
                f"--rows {self.variant}:{self.n_players} "
                f"--hands {self.hands} --rollouts {self.rollouts} --top {self.top} "
                f"--seed {self.seed} --write"
            ),
        }

    @property
    def worth_shipping(self) -> bool:
        """Ship only where the held-out gain is positive beyond its 95% CI."""
        return self.held_out_ci[0] > 0.0


def _home_samples(samples: Sequence[Sample], rate: float) -> list[Sample]:
    """``samples`` of :func:`home_components` as :func:`within_hand_fit` reads them: ``B``,
    ``S`` and the home-run terms at ``rate``."""
    return [
        Sample(
            np.stack([s.features[:, HB], s.features[:, HS], home_term(s.features, rate)], 1),
            s.points,
        )
        for s in samples
    ]


def _picked_means(
    samples: Sequence[Sample], weights: tuple[float, float], rate: float | None
) -> np.ndarray:
    """Per hand, the rollout mean of the candidate the model at ``weights``, ``rate`` ranks
    first (the first of equal values)."""
    return np.array(
        [s.means[int(np.argmax(home_value(s.features, weights, rate)))] for s in samples]
    )


def check_home_rate_row(v: Variant, n_players: int) -> None:
    """Refuse a row :func:`fit_home_rate` cannot fit: more players than one deck deals, a
    banker (the fit measures one seat, every seat alike), or no home run to price."""
    check_players(n_players)
    if n_players > 4:
        raise SimkitError(f"rollouts deal one deck (2-4 players), got {n_players}")
    if v.scoring.topology == "banker":
        raise SimkitError(f"{v.name} has a banker: the home rate is fitted where seats are alike")
    if not compile_rules(v, n_players).home_run:
        raise SimkitError(f"{v.name} pays no home run at {n_players} players: no rate to fit")


def fit_home_rate(
    variant: str | Variant | None,
    n_players: int = 4,
    *,
    hands: int = HOME_HANDS,
    rollouts: int = HOME_ROLLOUTS,
    top: int = HOME_TOP,
    seed: int = HOME_SEED,
    rates: Sequence[float] = HOME_RATES,
    progress: Callable[[int, int], None] | None = None,
) -> HomeRateFit:
    """The home rate of the retired expected-score-home for ``variant`` at
    ``n_players``, and the weights fitted with it.

    ``hands`` hands (every seat: the variant must have no banker) are set by expected-score;
    of each, the best ``top`` splits of its Pareto front by four orderings (the unweighted
    model, expected-score, and expected-score's weights at home rates 0.25 and 0.5) are scored
    on the same ``rollouts`` deals of the other cards to opponents who play expected-score.
    For each rate of ``rates``, the weights are fitted at that rate as :func:`fit_weights`
    fits them (:func:`within_hand_fit`), and the pick of the model so weighted is valued on the
    rollouts against expected-score's; the rate whose gain on these hands is largest is
    chosen, and its gain measured again on ``hands`` held-out hands (the stream of
    ``seed + HELD_OUT_OFFSET``)."""
    v = resolve_variant(variant)
    check_home_rate_row(v, n_players)
    check_counts(hands, rollouts, top)
    if not rates or any(not 0.0 < r <= 1.0 for r in rates):
        raise SimkitError(f"rates must be chances in (0, 1], got {list(rates)}")
    default = ExpectedScore()
    unweighted = ExpectedScore(weights=(1.0, 1.0)).solver(v, n_players)
    shipped = objective_weights(default_fine_tables(v, n_players))  # the default's

    def pick(cand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        f = home_components(cand, unweighted)
        orders = [home_value(f, (1.0, 1.0), None), home_value(f, shipped, None)]
        orders += [home_value(f, shipped, r) for r in _CANDIDATE_RATES]
        kept = np.unique(np.concatenate([np.argsort(-o, kind="stable")[:top] for o in orders]))
        return cand[kept], f[kept]

    fit = collect_scored(v, n_players, "player", hands, rollouts, seed, pick, default, 8, progress)
    test = collect_scored(
        v, n_players, "player", hands, rollouts, seed + HELD_OUT_OFFSET, pick, default, 8, None
    )
    base_fit = _picked_means(fit, shipped, None)
    base_test = _picked_means(test, shipped, None)
    per_rate: list[dict[str, Any]] = []
    fitted: list[tuple[tuple[float, float], np.ndarray]] = []
    for r in rates:
        w_scoop, w_home = weights_of(within_hand_fit(_home_samples(fit, r)))
        weights = (round(w_scoop, 4), round(w_home, 4))  # as they ship
        fit_gain, _ = mean_ci(_picked_means(fit, weights, r) - base_fit)
        d = _picked_means(test, weights, r) - base_test
        gain, ci = mean_ci(d)
        fitted.append((weights, d))
        per_rate.append({
            "rate": r, "weights": list(weights), "fit_gain": round(fit_gain, 5),
            "held_out_gain": round(gain, 5), "held_out_ci95": [round(x, 5) for x in ci],
            "picks_differ": round(float((d != 0).mean()), 4),
        })  # fmt: skip
    best = max(range(len(rates)), key=lambda i: (per_rate[i]["fit_gain"], -i))
    rate = float(rates[best])
    weights, d = fitted[best]
    gain, ci = mean_ci(d)
    return HomeRateFit(
        variant=v.name, n_players=n_players, hands=hands, rollouts=rollouts, top=top, seed=seed,
        shipped_weights=shipped, per_rate=per_rate, rate=rate, weights=weights,
        held_out_hands=len(test), held_out_gain=gain, held_out_ci=ci,
        picks_differ=float((d != 0).mean()),
    )  # fmt: skip
