"""The training loop: :func:`fictitious_play` and :func:`train`, its schedules and the
strategies whose tables it makes."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from simkit.arrange import (
    DEFAULT_STRATEGY,
    PRESETS,
    ExpectedScore,
    Greedy,
    MaxEV,
    WinTables,
    arrange,
    payout_model,
    table_name,
)
from simkit.arrange.joint import joint_of_population
from simkit.arrange.search import horse_copies
from simkit.arrange.value import horse_model
from simkit.deal import as_generator, check_players, deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.train.counts import OutcomeCounts, tabulate
from simkit.variants import Variant, resolve_variant

#: The training sizes of the shipped tables (``simkit train`` defaults).
DEFAULT_GAMES = 30_000  # hands per iteration: n_games × players
DEFAULT_ITERATIONS = 5
DEFAULT_BLEND = 0.5
#: The fine-class (expected-score) tables' schedule: 20 iterations of 60,000 hands, linearly
#: averaged.  Blending half of every iteration (max-ev's schedule) keeps the greedy start's
#: counts in the classes the strategy rarely plays (a junk front) and leaves the tables one
#: step behind the play; averaging over 20 iterations lowers the regret of the 4-player
#: tables (``results/strategy/training.md`` has the figures).
FINE_GAMES = 60_000
FINE_ITERATIONS = 20
LINEAR = "linear"
FINE_BLEND = LINEAR
#: The fine tables count each hand against the hands of the next 3 games, not its own game's
#: (:func:`tabulate`'s ``other_deals``).  Counted within its own game, a class's chances carry
#: the card removal of the hands that happen to play it (a junk front is played by hands that
#: hold the high cards elsewhere), which misprices the same class in a hand that would not
#: play it; counted against independent deals they are the dun's own, and the regret is lower
#: (``results/strategy/other-deals.md`` has the figures).
FINE_OTHER_DEALS = 3
#: The strategies whose tables :func:`train` makes: max-ev's coarse tables, and the fine
#: tables every expected-score preset plays (trained by expected-score's self-play).
TRAINED_STRATEGIES = ("max-ev", *PRESETS)


def _fine(strategy: str) -> bool:
    """Whether ``strategy``'s tables are fine-class ones (an expected-score preset's)."""
    return strategy in PRESETS


#: ``play(hands, tables, rng) -> (arranged, declared)``: one iteration's games set by the
#: strategy being trained (``tables`` None before the first fit).
Play = Callable[[np.ndarray, WinTables | None, np.random.Generator], tuple[np.ndarray, np.ndarray]]


def fictitious_play(
    variant: Variant,
    n_players: int,
    play: Play,
    seeds: Sequence[np.random.SeedSequence],
    *,
    n_games: int,
    blend: float | str = DEFAULT_BLEND,
    counts: OutcomeCounts | None = None,
    tables: WinTables | None = None,
    seats: tuple[int, ...] | None = None,
    scoop_rate: float | None = None,
    fine: bool = False,
    other_deals: int = 0,
    progress: Callable[[str], None] | None = None,
) -> tuple[WinTables, list[float]]:
    """The training loop (module docstring): one iteration per seed; the last tables and
    the change of the win chances per iteration after the first fit.

    Each iteration deals ``n_games`` games from its seed, lets ``play`` set them with the
    current ``tables``, counts outcomes (:func:`tabulate`; ``seats``: only the hands there),
    blends them into ``counts`` (old counts times ``1 - blend``; the first iteration's counts
    replace none) and fits new tables.  ``blend="linear"``: the counts of the first iteration
    played with tables replace those before it (the greedy start's), and from then on the
    ``k``-th such iteration keeps ``1 - 1/k`` of the running counts, so that iteration ``j``
    weighs ``j``: the later, closer-to-converged play counts more, every iteration counts.
    ``scoop_rate``: a fixed rate for the tables (None: the counts' own).  ``fine``: tables by
    fine class, a loss to a winning dun that holds the 马牌 paying its extra
    (expected-score's), and with the copula of the duns of every hand that played
    (:mod:`simkit.arrange.joint`), blended as the counts are; else by coarse class (max-ev's).
    """
    model = payout_model(variant, n_players)
    scoop_ties = bool(model.params["scoop_ties"] > 0)
    horse_card, multiplier = horse_model(variant, n_players) if fine else (-1, 1.0)
    changes: list[float] = []
    linear = blend == LINEAR
    played = 0  # iterations set with tables (the linear schedule's k)
    joint: np.ndarray | None = None  # the copula's running counts (fine tables)
    for it, seed in enumerate(seeds):
        gen = as_generator(seed)
        with_tables = tables is not None
        # the variant's own pack (two decks, a fifth suit, jokers); plain decks deal as before
        hands = deal(n_games, n_players, rng=gen, deck=variant.deck_for(n_players))
        arranged, declared = play(hands, tables, gen)
        ranks = dun_ranks(arranged, variant)
        extra = None
        if horse_card >= 0:
            extra = multiplier ** horse_copies(arranged, horse_card) - 1.0
        new = tabulate(
            ranks,
            declared < 0,
            model.win_points,
            scoop_ties,
            seats,
            fine=fine,
            horse_extra=extra,
            other_deals=other_deals,
        )
        new_joint = None
        if fine and (declared < 0).any():  # the population's copula, from the same deal
            new_joint = joint_of_population(ranks[declared < 0], gen)
        played += with_tables
        if counts is None or (linear and played == 1):  # the linear schedule drops greedy's
            counts = OutcomeCounts(*new[:4], scoops=new[4], pairs=float(new[5]))
            joint = new_joint
        else:
            keep = 1.0 - (1.0 / max(played, 1) if linear else float(blend))
            counts = counts.blend(new, keep)
            if new_joint is not None:
                joint = new_joint if joint is None else keep * joint + new_joint
        fresh = counts.tables(scoop_rate)
        if joint is not None:
            fresh = replace(fresh, copula=joint)
        if tables is not None:
            w = counts.count / counts.count.sum()
            change = float((np.abs(fresh.win - tables.win) * w).sum())
            changes.append(change)
            if progress:
                progress(f"iteration {it}: mean |Δ win| = {change:.5f}")
        tables = fresh
    if tables is None:
        raise SimkitError("fictitious_play needs at least one seed")
    return tables, changes


def other_deals_of(strategy: str = DEFAULT_STRATEGY) -> int:
    """The :func:`tabulate` ``other_deals`` that :func:`train` uses by default for
    ``strategy``'s tables: ``FINE_OTHER_DEALS`` for expected-score's, 0 (own game) for
    max-ev's."""
    return FINE_OTHER_DEALS if _fine(strategy) else 0


def schedule(strategy: str = DEFAULT_STRATEGY) -> tuple[int, int, float | str]:
    """``(hands per iteration, iterations, blend)`` that :func:`train` uses by default for
    ``strategy``'s tables (the shipped files were made with them and seed 0)."""
    if _fine(strategy):
        return FINE_GAMES, FINE_ITERATIONS, FINE_BLEND
    return DEFAULT_GAMES, DEFAULT_ITERATIONS, DEFAULT_BLEND


def _check_schedule(
    n_games: object, iterations: object, blend: object, other_deals: object
) -> None:
    """Refuse a schedule :func:`train` cannot run, naming the bad value: ``n_games`` and
    ``iterations`` integers >= 1, ``blend`` in (0, 1] or ``"linear"``, ``other_deals`` an
    integer >= 0 (raises :class:`~simkit.errors.SimkitError`)."""
    if isinstance(other_deals, bool) or not isinstance(other_deals, int | np.integer):
        raise SimkitError(f"other_deals must be an integer >= 0, got {other_deals!r}")
    if other_deals < 0:
        raise SimkitError(f"other_deals must be an integer >= 0, got {other_deals!r}")
    if isinstance(n_games, bool) or not isinstance(n_games, int | np.integer) or n_games < 1:
        raise SimkitError(f"n_games must be an integer >= 1, got {n_games!r}")
    if blend != LINEAR and (
        isinstance(blend, bool | str) or not isinstance(blend, int | float) or not 0 < blend <= 1
    ):
        raise SimkitError(f"blend must be in (0, 1] or {LINEAR!r}, got {blend!r}")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise SimkitError(f"iterations must be an integer >= 1, got {iterations!r}")


def train(
    variant: str | Variant | None,
    n_players: int,
    *,
    seed: int = 0,
    n_games: int | None = None,
    iterations: int | None = None,
    blend: float | str | None = None,
    strategy: str = DEFAULT_STRATEGY,
    other_deals: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> WinTables:
    """Win tables for ``variant`` at ``n_players`` by fictitious play (module docstring).

    ``strategy``: ``"max-ev"`` (coarse classes) or an expected-score preset (fine classes,
    expected-score playing its own tables: the tables :data:`DEFAULT_STRATEGY` reads).  The
    defaults are each strategy's schedule (see :func:`schedule`): max-ev
    ``DEFAULT_ITERATIONS`` iterations of ``DEFAULT_GAMES`` hands blended by ``DEFAULT_BLEND``;
    expected-score ``FINE_ITERATIONS`` of ``FINE_GAMES`` hands, linearly averaged.
    ``n_games`` is games per iteration (default: the hands // n_players, the same number of
    hands at every table size); ``blend`` a share in (0, 1] or ``"linear"``; ``other_deals``
    what each hand is counted against (:func:`tabulate`;
    default :func:`other_deals_of` the strategy).  Same arguments → the same tables.
    """
    if strategy not in TRAINED_STRATEGIES:
        raise SimkitError(
            f"train: strategy must be one of {', '.join(TRAINED_STRATEGIES)}, got {strategy!r}"
        )
    fine = _fine(strategy)
    v = resolve_variant(variant)
    check_players(n_players)
    hands_per_iteration, default_iterations, default_blend = schedule(strategy)
    n_games = hands_per_iteration // n_players if n_games is None else n_games
    iterations = default_iterations if iterations is None else iterations
    blend = default_blend if blend is None else blend
    other_deals = other_deals_of(strategy) if other_deals is None else other_deals
    _check_schedule(n_games, iterations, blend, other_deals)

    def play(
        hands: np.ndarray, tables: WinTables | None, gen: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        # greedy until the first tables exist, then the strategy with the latest ones
        player = Greedy() if tables is None else (ExpectedScore if fine else MaxEV)(tables)
        return arrange(hands, v, player, n_players=n_players, rng=gen)

    started = time.perf_counter()
    seeds = np.random.SeedSequence(seed).spawn(iterations + 1)
    tables, changes = fictitious_play(
        v,
        n_players,
        play,
        seeds,
        n_games=n_games,
        blend=blend,
        fine=fine,
        other_deals=int(other_deals),
        progress=progress,
    )
    meta = {
        "variant": v.name,
        "variant_key": v.key,
        "n_players": n_players,
        "seed": seed,
        "n_games_per_iteration": n_games,
        "iterations": iterations,
        "blend": blend,
        "other_deals": int(other_deals),
        "games_total": n_games * (iterations + 1),
        "strategy": strategy,
        "change_per_iteration": changes,
        "seconds": round(time.perf_counter() - started, 1),
        "command": f"simkit train --variant {v.name} --players {n_players} --seed {seed} "
        f"--games {n_games} --iterations {iterations} --blend {blend}"
        + (f" --other-deals {other_deals}" if other_deals else "")
        + (f" --strategy {strategy}" if fine else ""),
        "file": table_name(v.name, n_players, fine=fine),
    }
    return replace(tables, meta=meta)
