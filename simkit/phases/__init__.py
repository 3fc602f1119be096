"""The decision phases of a game, played around the arrangement: who passes or exchanges which
cards before the hands are set, and the payments made for the banker's seat, for settling instead
of comparing, and for surrendering.

Each phase is a section of the variant file (rules as data); a phase that is off leaves the
game as the plain deal-arrange-score pipeline plays it.  Phases decide with the strategy's own
value of a hand and record what they pay as named score components, so that the scores of a
game still sum to zero and the report can price each phase on the same deals with and without
it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from simkit.arrange.strategies import DEFAULT_STRATEGY
from simkit.errors import SimkitError

if TYPE_CHECKING:
    from simkit.arrange import StrategyLike, WinTables
    from simkit.variants import Variant

#: What a phase pays: score component name → ``float (n_games, n_players)`` points per player,
#: each game's row summing to zero (a payment moves points between players, it makes none).
Payments = Mapping[str, np.ndarray]


def add_payments(
    scored: tuple[np.ndarray, dict[str, np.ndarray]], payments: Payments
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``scored`` (the scorer's ``(total, components)``) with each phase payment added to the
    total and recorded as its own component.

    A payment whose games do not sum to zero is a bug in its phase, caught here rather than
    left to bias every table downstream.
    """
    total, components = scored
    total = total.astype(np.float64, copy=True)
    components = dict(components)
    for name, paid in payments.items():
        paid = np.asarray(paid, dtype=np.float64)
        if paid.shape != total.shape:
            raise SimkitError(
                f"phase payment {name!r} has shape {paid.shape}, the scores {total.shape}"
            )
        if not np.allclose(paid.sum(axis=1), 0.0, atol=1e-9):
            raise SimkitError(f"phase payment {name!r} does not sum to zero in every game")
        if name in components:
            raise SimkitError(f"phase payment {name!r} repeats a score component's name")
        total += paid
        components[name] = paid
    return total, components


def before_setting(
    dealt: np.ndarray,
    variant: Variant,
    tables: WinTables | None,
    rng: np.random.SeedSequence,
    strategy: StrategyLike = DEFAULT_STRATEGY,
) -> tuple[np.ndarray, Payments]:
    """The hands the players set under ``variant`` and what the phases before setting pay: the
    deal after the ``[deal]`` phases (the card pass, :mod:`simkit.phases.passing`; the exchange,
    :mod:`simkit.phases.exchange`).

    The phases decide by the value ``strategy`` (the run's; a name or a strategy) sets the
    hands by, on ``tables`` (``None``: the shipped ones), so that the player who passes or
    exchanges is the one who then sets the hand (:mod:`simkit.phases.hand_value`).  ``rng`` is
    their own stream, read afresh per variant so that variants see common numbers; a strategy
    that draws gets a stream of its own below it (spawn key ``rng.spawn_key + (1,)``).
    """
    from simkit.phases.exchange import play_exchange
    from simkit.phases.hand_value import strategy_value
    from simkit.phases.passing import play_passing

    if not variant.deal.changes_hands:
        return dealt, {}
    gen = np.random.default_rng(rng)
    own = np.random.SeedSequence(rng.entropy, spawn_key=(*rng.spawn_key, 1))
    valuer = strategy_value(
        variant, dealt.shape[1], strategy, tables, rng=np.random.default_rng(own)
    )
    passed = play_passing(dealt, variant, valuer, gen).hands
    exchanged = play_exchange(passed, variant, valuer, gen)
    return exchanged.hands, exchanged.payments
