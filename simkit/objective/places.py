"""The place model of the t-formula (:func:`fit_place_model`): what a hand's dun points
bring in places, fitted by a tanh curve on tables set by the default."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.arrange import (
    Q_LE,
    Q_LOSE,
    Q_VW,
    Q_WIN,
    ExpectedScore,
    PlaceModel,
    Solver,
    arrange,
    fine_classes,
    plays_t_formula,
)
from simkit.arrange.value import N_T_LEVELS
from simkit.deal import as_generator, check_players, deal
from simkit.errors import SimkitError
from simkit.evaluate import category_of, dun_ranks
from simkit.score import fouled, score
from simkit.variants import Variant, resolve_variant
from simkit.variants.compiled import compile_rules

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
    return np.asarray(solver.model.params["n_opp"] * (per_dun[0] + per_dun[1] + per_dun[2]))


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
