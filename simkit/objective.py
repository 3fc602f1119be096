"""The weights of expected-score's scoop and home-run terms, fitted to rollouts of the score.

The model's value of a split (:mod:`simkit.arrange.value`) is ``B + S + H``: ``B`` its dun
points, bonuses, majority and 马牌, ``S`` its scoop (打枪) terms and ``H`` its home-run (全垒打)
terms, all priced from the win tables as if the three duns were independent and the duns' points
were paid as they are.  Where the scorer pays the round otherwise (the t-formula pays places
ranked by those points, and multiplies a home run's places, not its duns) the model's scale for
``S`` and ``H`` is off: in guangxi at 4 players it prices a sure home run at 162 points where the
scorer pays 72.  Only the order of one hand's splits matters, so the weights are measured on
that order:

* ``hands`` dealt hands of one seat are set by the default; for each, the ``top`` splits of its
  Pareto front by the model's value are scored on the same ``rollouts`` deals of the other
  cards to opponents who play the default (:func:`simkit.regret.rollout_values`' protocol, every
  rule the scorer applies in force);
* within each hand (its means subtracted) the rollout mean is regressed on ``B``, ``S`` and
  ``H`` by least squares; the weights are ``S``'s and ``H``'s coefficients over ``B``'s (0 at
  least: a negative weight would break the search's bounds), so that
  ``B + w_S·S + w_H·H`` orders a hand's splits as the rollouts do, as nearly as three terms can;
* a bootstrap over hands gives their 95% CIs; on the hands of a second, independent stream the
  split each weighting picks among the candidates is valued on their rollouts, and the paired
  difference (fitted minus unweighted) with its 95% CI is the held-out gain.

The weights ship in the ``meta`` of a fine table file (``"objective_weights"``) only where the
held-out gain is positive beyond its CI (:func:`worth_shipping`); elsewhere the model is
unweighted.  :func:`simkit.arrange.objective_weights` reads them.

Under the t-formula the duns' points are not paid: a hand is paid ``t·Σ_j sign(N_me − N_j)``,
its place among the hands compared normally times the round's biggest worth.
:func:`fit_place_model` measures what the model then prices instead of ``B``
(:class:`~simkit.arrange.value.PlaceModel`): on ``games`` tables set by the default, the place
payment (before t) of every hand against its ``B``, fitted by ``A·tanh((B − c)/s)``, and the
chances of ``T``, the biggest worth among the other hands.  ``ExpectedScore(places=True)`` reads it
from the fine table file's ``meta`` (``"place_model"``) with weights fitted over it
(``fit_weights(places=True)``, ``B`` standing for the placed points); the default does not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from simkit import tables_cache
from simkit.arrange import (
    P_N_OPP,
    P_W_HOME,
    P_W_SCOOP,
    Q_LE,
    Q_LOSE,
    Q_VW,
    Q_WIN,
    ExpectedScore,
    PlaceModel,
    Solver,
    WinTables,
    arrange,
    default_fine_tables,
    fine_classes,
    horse_copies,
    objective_weights,
    plays_t_formula,
    split_values,
)
from simkit.arrange.value import N_T_LEVELS, P_HOME_RATE
from simkit.arrange.wintables import PLACE_KEY, WEIGHTS_KEY
from simkit.deal import as_generator, check_players, deal
from simkit.errors import SimkitError
from simkit.evaluate import category_of, dun_ranks
from simkit.regret import Z95, banker_seat, front_candidates, points_on_rollouts, rollout_hands
from simkit.score import fouled, score
from simkit.variants import Variant, resolve_variant
from simkit.variants.compiled import compile_rules

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
    base, with_scoop, with_home = _values_at(
        cand, solver, ((0.0, 0.0, None), (1.0, 0.0, None), (0.0, 1.0, None))
    )
    return np.stack([base, with_scoop - base, with_home - base], axis=1)


def _values_at(
    cand: np.ndarray, solver: Solver, weighting: Sequence[tuple[float, float, float | None]]
) -> list[np.ndarray]:
    """The model's values of arranged splits ``cand`` under each ``(w_S, w_H, rate)`` of
    ``weighting`` (``rate`` None: the solver's own ``P_HOME_RATE``), the solver's own
    parameters restored after."""
    ranks = dun_ranks(cand, solver.variant)
    horse = horse_copies(cand, solver.horse_card) if solver.horse_card >= 0 else None
    p = solver.model.params
    keep = p[P_W_SCOOP], p[P_W_HOME], p[P_HOME_RATE]
    values = []
    try:
        for w_scoop, w_home, rate in weighting:
            p[P_W_SCOOP], p[P_W_HOME] = w_scoop, w_home
            p[P_HOME_RATE] = keep[2] if rate is None else rate
            values.append(split_values(ranks, solver, horse))
    finally:
        p[P_W_SCOOP], p[P_W_HOME], p[P_HOME_RATE] = keep
    return values


def _check_counts(hands: int, rollouts: int, top: int) -> None:
    """Refuse counts a fit cannot run: at least 4 hands, 2 rollouts and 2 candidates."""
    for what, value, least in (("hands", hands, 4), ("rollouts", rollouts, 2), ("top", top, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise SimkitError(f"{what} must be an integer ≥ {least}, got {value!r}")


def _mean_ci(d: np.ndarray) -> tuple[float, tuple[float, float]]:
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
) -> list[Sample]:
    """The samples of :func:`fit_weights`: hands the default plays (not declaring), their
    ``top`` splits by the unweighted model, scored on common rollouts against the default
    (``places``: the model and the default price the t-formula's places where the tables
    carry a place model)."""
    strat = ExpectedScore(weights=(1.0, 1.0), places=places)
    solver = strat.solver(v, n_players)

    def pick(cand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        f = components(cand, solver)
        order = np.argsort(-(f[:, B] + f[:, S] + f[:, H]), kind="stable")[:top]
        return cand[order], f[order]

    return _collect(v, n_players, seat, hands, rollouts, seed, pick, strat, batch, progress)


def _collect(
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
) -> list[Sample]:
    """:func:`collect` for one seat, or ``"table"``: in a banker variant the banker's and the
    players' hands as often as they sit at a table (1 to p - 1, each on its own stream)."""
    if seat != TABLE:
        return collect(
            v, n_players, seat, hands, rollouts, top, seed, progress=progress, places=places
        )
    if v.scoring.topology != "banker":
        return collect(
            v, n_players, "player", hands, rollouts, top, seed, progress=progress, places=places
        )
    n_banker = max(hands // n_players, 1)
    return collect(v, n_players, "banker", n_banker, rollouts, top, seed, places=places) + collect(
        v, n_players, "player", hands - n_banker, rollouts, top, seed + 1, progress=progress,
        places=places,
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
) -> WeightFit:
    """Fit ``(w_S, w_H)`` for ``variant`` at ``n_players`` by the protocol of this module
    (``places``: over the place model of the t-formula, ``ExpectedScore(places=True)``)."""
    v = resolve_variant(variant)
    check_players(n_players)
    if n_players > 4:
        raise SimkitError(f"rollouts deal one deck (2-4 players), got {n_players}")
    _check_counts(hands, rollouts, top)
    if seat != TABLE:
        banker_seat(v, seat)
    samples = _seat_samples(v, n_players, seat, hands, rollouts, top, seed, progress, places)
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
        v, n_players, seat, hands // 2, rollouts, top, seed + HELD_OUT_OFFSET, None, places
    )
    diff = picked_points(test, weights) - picked_points(test, (1.0, 1.0))
    gain, held_out_ci = _mean_ci(diff)
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
    ``H_AGAINST``: the home-run terms priced at a home rate ``r`` (``P_HOME_RATE``: an
    opponent who scoops me scoops all) are ``H_FOR - r·H_AGAINST``, exactly, since the home run
    against enters the value linearly in ``r``; they are read at r = 1 and r = 1/2."""
    base, scoop, home, at_one, at_half = _values_at(
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
    _check_counts(hands, rollouts, top)
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

    fit = _collect(v, n_players, "player", hands, rollouts, seed, pick, default, 8, progress)
    test = _collect(
        v, n_players, "player", hands, rollouts, seed + HELD_OUT_OFFSET, pick, default, 8, None
    )
    base_fit = _picked_means(fit, shipped, None)
    base_test = _picked_means(test, shipped, None)
    per_rate: list[dict[str, Any]] = []
    fitted: list[tuple[tuple[float, float], np.ndarray]] = []
    for r in rates:
        w_scoop, w_home = weights_of(within_hand_fit(_home_samples(fit, r)))
        weights = (round(w_scoop, 4), round(w_home, 4))  # as they ship
        fit_gain, _ = _mean_ci(_picked_means(fit, weights, r) - base_fit)
        d = _picked_means(test, weights, r) - base_test
        gain, ci = _mean_ci(d)
        fitted.append((weights, d))
        per_rate.append({
            "rate": r, "weights": list(weights), "fit_gain": round(fit_gain, 5),
            "held_out_gain": round(gain, 5), "held_out_ci95": [round(x, 5) for x in ci],
            "picks_differ": round(float((d != 0).mean()), 4),
        })  # fmt: skip
    best = max(range(len(rates)), key=lambda i: (per_rate[i]["fit_gain"], -i))
    rate = float(rates[best])
    weights, d = fitted[best]
    gain, ci = _mean_ci(d)
    return HomeRateFit(
        variant=v.name, n_players=n_players, hands=hands, rollouts=rollouts, top=top, seed=seed,
        shipped_weights=shipped, per_rate=per_rate, rate=rate, weights=weights,
        held_out_hands=len(test), held_out_gain=gain, held_out_ci=ci,
        picks_differ=float((d != 0).mean()),
    )  # fmt: skip


#: What :func:`fit_place_model` measures by default: tables set by the default, seed.
PLACE_GAMES, PLACE_SEED = 40_000, 77
#: Quantile bins of ``B`` in :class:`PlaceFit`'s check of the curve.
PLACE_BINS = 20


def dun_points(cand: np.ndarray, solver: Solver) -> np.ndarray:
    """``float64 (c,)``: the expected dun points over the table of arranged splits
    ``cand (c, 13)``, ``n_opp·Σ_d (W·VW − L·LE)`` from the solver's quantities (``B`` before
    any place model)."""
    cls = fine_classes(dun_ranks(cand, solver.variant)).astype(np.int64)
    q = solver.q.astype(np.float64)
    per_dun = [
        q[d, cls[:, d], Q_WIN] * q[d, cls[:, d], Q_VW]
        - q[d, cls[:, d], Q_LOSE] * q[d, cls[:, d], Q_LE]
        for d in range(3)
    ]
    return np.asarray(solver.model.params[P_N_OPP] * (per_dun[0] + per_dun[1] + per_dun[2]))


def biggest_worths(arranged: np.ndarray, v: Variant, n_players: int) -> np.ndarray:
    """``float64 (..., )``: the biggest ``[scoring.duns]`` worth of each arranged hand
    ``(..., 13)``: the t a hand brings to the t-formula."""
    rules = compile_rules(v, n_players)
    flat = arranged.reshape(-1, 13)
    cat = category_of(dun_ranks(flat, v))
    worth = np.stack([rules.dun_worth[d, cat[:, d]] for d in range(3)], axis=1).max(axis=1)
    return np.asarray(worth, dtype=np.float64).reshape(arranged.shape[:-1])


def _tanh_curve(b: np.ndarray, amplitude: float, centre: float, scale: float) -> np.ndarray:
    return np.asarray(amplitude * np.tanh((b - centre) / scale))


@dataclass(frozen=True)
class PlaceFit:
    """What :func:`fit_place_model` measured: the model, the standard errors of its curve's
    parameters, the hands it was fitted on, and per quantile bin of ``B`` the mean place
    payment beside the curve's (``bins``: rows of mean B, mean place, its SE, the curve)."""

    variant: str
    n_players: int
    games: int
    seed: int
    model: PlaceModel
    curve_se: tuple[float, float, float]
    hands: int
    bins: np.ndarray

    def as_meta(self) -> dict[str, Any]:
        """The ``meta["place_model"]`` entry of a fine table file."""
        return {
            **self.model.as_meta(),
            "curve_se": [round(x, 4) for x in self.curve_se],
            "hands": self.hands,
            "command": (
                f"python -m experiments.pipelines.fit_places "
                f"--rows {self.variant}:{self.n_players} "
                f"--games {self.games} --seed {self.seed} --write"
            ),
        }


def fit_place_model(
    variant: str | Variant | None,
    n_players: int = 4,
    *,
    games: int = PLACE_GAMES,
    seed: int = PLACE_SEED,
    strategy: ExpectedScore | None = None,
) -> PlaceFit:
    """Fit the :class:`~simkit.arrange.value.PlaceModel` of ``variant`` at ``n_players``.

    ``games`` tables are dealt and set by ``strategy`` (None: the default as shipped); in
    those where every hand is compared normally (nobody declares or fouls), each hand's place
    payment before t (the t-formula's component over t) is fitted by least squares on its
    ``B`` (:func:`dun_points` of its split, the pooled tables'), and ``T`` (the biggest worth
    of the other hands) is counted.
    """
    from scipy.optimize import curve_fit

    v = resolve_variant(variant)
    check_players(n_players)
    if not plays_t_formula(v, n_players):
        raise SimkitError(f"{v.name} does not play the t-formula at {n_players} players")
    if isinstance(games, bool) or not isinstance(games, int) or games < 100:
        raise SimkitError(f"games must be an integer ≥ 100, got {games!r}")
    strat = strategy if strategy is not None else ExpectedScore()
    dealt = deal(games, n_players, rng=as_generator(np.random.SeedSequence(seed)))
    cards, declared = arrange(dealt.reshape(-1, 13), v, strat, n_players=n_players, rng=0)
    cards = cards.reshape(games, n_players, 13)
    declared = declared.reshape(games, n_players)
    _total, parts = score(cards, v, declared=declared, breakdown=True)
    normal = (declared < 0) & ~fouled(cards.reshape(-1, 13), v).reshape(games, n_players)
    played = normal.all(axis=1)
    worth = biggest_worths(cards, v, n_players)[played]
    t = worth.max(axis=1)
    place = (parts["t_formula"][played] / t[:, None]).ravel()
    b = dun_points(cards[played].reshape(-1, 13), strat.solver(v, n_players))
    others = np.stack(
        [np.delete(worth, i, axis=1).max(axis=1) for i in range(n_players)], axis=1
    ).ravel()
    levels, counts = np.unique(others, return_counts=True)
    if levels.size > N_T_LEVELS:
        raise SimkitError(f"T takes {levels.size} values; the model holds {N_T_LEVELS}")
    chances = counts / counts.sum()
    top = float(n_players - 1)
    (amplitude, centre, scale), cov = curve_fit(
        _tanh_curve, b, place, p0=(top, 0.0, 4.0),
        bounds=((1e-3, -50.0, 1e-2), (top, 50.0, 100.0)),
    )  # fmt: skip
    model = PlaceModel(
        float(amplitude), float(centre), float(scale),
        tuple(float(x) for x in levels), tuple(float(x) for x in chances),
    )  # fmt: skip
    edges = np.quantile(b, np.linspace(0.0, 1.0, PLACE_BINS + 1))
    which = np.clip(np.searchsorted(edges, b, side="right") - 1, 0, PLACE_BINS - 1)
    rows = []
    for k in range(PLACE_BINS):
        sel = which == k
        mean_b = float(b[sel].mean())
        se = float(place[sel].std(ddof=1) / math.sqrt(sel.sum()))
        rows.append(
            (
                mean_b,
                float(place[sel].mean()),
                se,
                float(_tanh_curve(np.array([mean_b]), amplitude, centre, scale)[0]),
            )
        )
    return PlaceFit(
        variant=v.name, n_players=n_players, games=games, seed=seed, model=model,
        curve_se=tuple(float(x) for x in np.sqrt(np.diag(cov))),  # type: ignore[arg-type]
        hands=int(b.size), bins=np.array(rows),
    )  # fmt: skip


# --------------------------------------------------------------------------------------------
# Fitted for tables built on first use (simkit.tables_cache)


def _weights_fitter(variant: Variant, n_players: int, tables: WinTables) -> WinTables:
    """The objective weights of built ``tables`` (the default reads them from the cache while
    they are fitted) on the cheaper schedule of :mod:`simkit.tables_cache`, kept only where
    :func:`worth_shipping`; the fit is recorded either way."""
    fit = fit_weights(
        variant,
        n_players,
        hands=tables_cache.AUTO_WEIGHT_HANDS,
        rollouts=tables_cache.AUTO_WEIGHT_ROLLOUTS,
    )
    key = WEIGHTS_KEY if worth_shipping(fit) else f"{WEIGHTS_KEY}_not_kept"
    return replace(tables, meta=dict(tables.meta, **{key: fit.as_meta() | {"auto_built": True}}))


def _place_fitter(variant: Variant, n_players: int, tables: WinTables) -> WinTables:
    """The place model of built ``tables`` on :data:`simkit.tables_cache.AUTO_PLACE_GAMES`
    games set by expected-score on them (no weights fitted over it)."""
    place = fit_place_model(
        variant, n_players, games=tables_cache.AUTO_PLACE_GAMES, strategy=ExpectedScore(tables)
    )
    meta = dict(tables.meta, **{PLACE_KEY: place.as_meta() | {"auto_built": True}})
    return replace(tables, meta=meta)


tables_cache.register_extra_fitter(WEIGHTS_KEY, _weights_fitter)
tables_cache.register_extra_fitter(PLACE_KEY, _place_fitter)
