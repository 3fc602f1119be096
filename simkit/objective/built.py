"""The fitted extras of tables built on first use (:mod:`simkit.tables_cache`).

A variant without shipped tables gets its win tables built by fictitious play; the default
strategy also reads the objective weights and the place model its shipped base carries.  The
two fitters here compute them for built tables on the cheaper schedule of
:mod:`simkit.tables_cache` and are registered with it when :mod:`simkit.objective` is imported.
"""

from __future__ import annotations

from dataclasses import replace

from simkit import tables_cache
from simkit.arrange import ExpectedScore, WinTables
from simkit.arrange.wintables import PLACE_KEY, WEIGHTS_KEY
from simkit.objective.places import fit_place_model
from simkit.objective.weights import fit_weights, worth_shipping
from simkit.variants import Variant


def weights_fitter(variant: Variant, n_players: int, tables: WinTables) -> WinTables:
    """``tables`` with the objective weights fitted for ``variant`` at ``n_players``.

    Fitted on :data:`simkit.tables_cache.AUTO_WEIGHT_HANDS` hands ×
    :data:`~simkit.tables_cache.AUTO_WEIGHT_ROLLOUTS` rollouts; stored under the key the
    default reads only where :func:`~simkit.objective.weights.worth_shipping`, and under
    ``<key>_not_kept`` otherwise, so the fit is recorded either way.  The fit plays
    ``tables`` themselves, so tables built for the rules of a shipped variant are fitted on
    their own play, not on the shipped tables'.
    """
    fit = fit_weights(
        variant,
        n_players,
        hands=tables_cache.AUTO_WEIGHT_HANDS,
        rollouts=tables_cache.AUTO_WEIGHT_ROLLOUTS,
        tables=tables,
    )
    key = WEIGHTS_KEY if worth_shipping(fit) else f"{WEIGHTS_KEY}_not_kept"
    return replace(tables, meta=dict(tables.meta, **{key: fit.as_meta() | {"auto_built": True}}))


def place_fitter(variant: Variant, n_players: int, tables: WinTables) -> WinTables:
    """``tables`` with a place model fitted on :data:`simkit.tables_cache.AUTO_PLACE_GAMES`
    games set by expected-score on them (no weights fitted over it)."""
    place = fit_place_model(
        variant, n_players, games=tables_cache.AUTO_PLACE_GAMES, strategy=ExpectedScore(tables)
    )
    meta = dict(tables.meta, **{PLACE_KEY: place.as_meta() | {"auto_built": True}})
    return replace(tables, meta=meta)


tables_cache.register_extra_fitter(WEIGHTS_KEY, weights_fitter)
tables_cache.register_extra_fitter(PLACE_KEY, place_fitter)
