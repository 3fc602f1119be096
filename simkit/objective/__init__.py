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

The package, by job: :mod:`~simkit.objective.samples` (a hand's candidates, their value terms
and their points on common rollouts), :mod:`~simkit.objective.weights` (:func:`fit_weights`),
:mod:`~simkit.objective.home_rate` (:func:`fit_home_rate`) and
:mod:`~simkit.objective.places` (:func:`fit_place_model`); every name is re-exported here.
"""

from __future__ import annotations

# built registers the fitters of built tables' extras with simkit.tables_cache.
from simkit.objective import built as built
from simkit.objective.home_rate import (
    H_AGAINST,
    H_FOR,
    H_SCOOP_RATE,
    HB,
    HOME_HANDS,
    HOME_RATES,
    HOME_ROLLOUTS,
    HOME_SEED,
    HOME_TOP,
    HS,
    HomeRateFit,
    check_home_rate_row,
    fit_home_rate,
    home_components,
    home_term,
    home_value,
)
from simkit.objective.places import (
    PLACE_BINS,
    PLACE_GAMES,
    PLACE_SEED,
    PlaceFit,
    biggest_worths,
    dun_points,
    fit_place_model,
)
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
    collect_scored,
    components,
    mean_ci,
    values_at,
)
from simkit.objective.weights import (
    WeightFit,
    fit_weights,
    picked_points,
    weights_of,
    within_hand_fit,
    worth_shipping,
)

__all__ = [
    "BOOTSTRAP",
    "HANDS",
    "HB",
    "HELD_OUT_OFFSET",
    "HOME_HANDS",
    "HOME_RATES",
    "HOME_ROLLOUTS",
    "HOME_SEED",
    "HOME_TOP",
    "HS",
    "H_AGAINST",
    "H_FOR",
    "H_SCOOP_RATE",
    "PLACE_BINS",
    "PLACE_GAMES",
    "PLACE_SEED",
    "ROLLOUTS",
    "SEED",
    "TABLE",
    "TOP",
    "B",
    "H",
    "HomeRateFit",
    "PlaceFit",
    "S",
    "Sample",
    "WeightFit",
    "biggest_worths",
    "check_counts",
    "check_home_rate_row",
    "collect",
    "collect_scored",
    "components",
    "dun_points",
    "fit_home_rate",
    "fit_place_model",
    "fit_weights",
    "home_components",
    "home_term",
    "home_value",
    "mean_ci",
    "picked_points",
    "values_at",
    "weights_of",
    "within_hand_fit",
    "worth_shipping",
]
