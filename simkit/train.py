"""Training the win tables of ``max-ev`` and ``expected-score`` by fictitious play.

Each iteration deals ``n_games`` games, sets every hand with the current strategy (greedy for
the first), ranks the duns, and counts for every dun class how often it wins, ties and loses
against the same dun of every other player in the same game (max-ev's tables: card removal is
counted) or of the other players of the next games (expected-score's, ``other_deals``: the
dun's own chances, free of the rest of the hand that played it), and what it pays when it
loses.  The counts are blended into the running counts (old counts are
multiplied by ``1 - blend`` first; or, the fine tables' schedule ``blend="linear"``, the greedy
start's counts are dropped and iteration ``j`` of the strategy's own play weighs ``j``), turned
into rates (a rarely seen class pulled toward the chance that a random opponent's dun ranks
below it), made monotone in the class order (a stronger dun cannot win less often: weighted
isotonic regression), and the next iteration plays the strategy (``max-ev`` or
``expected-score``) with the new tables.  The change per iteration (count-weighted mean absolute
change of the win chance) is recorded in the tables' ``meta``.  That loop is
:func:`fictitious_play`; :func:`train` runs it from a greedy start, and a best response (one
seat learning against frozen tables, ``experiments/studies/best_response.py``) from frozen counts.

>>> from simkit.train import train
>>> t = train("western-2-4", 2, seed=1, n_games=2000, iterations=1, strategy="max-ev")
>>> t.win.shape
(3, 1960)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy.optimize import isotonic_regression

from simkit.arrange import (
    DEFAULT_STRATEGY,
    N_CLASSES,
    N_DUNS,
    P_SCOOP_TIES,
    PRESETS,
    ExpectedScore,
    Greedy,
    MaxEV,
    StrategyLike,
    WinTables,
    arrange,
    dun_classes,
    payout_model,
    table_name,
)
from simkit.arrange.classes import fine_classes, n_fine_classes
from simkit.arrange.joint import joint_of_population
from simkit.arrange.removal import N_REMOVAL_BUCKETS, mid_cdf, removal_buckets
from simkit.arrange.search import horse_copies
from simkit.arrange.value import horse_model
from simkit.deal import RngLike, as_generator, check_players, deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.variants import Variant, resolve_variant

#: The training sizes of the shipped tables (``simkit train`` defaults).
DEFAULT_GAMES = 30_000  # hands per iteration: n_games × players
DEFAULT_ITERATIONS = 5
DEFAULT_BLEND = 0.5
PRIOR_WEIGHT = 20.0  # pseudo-comparisons pulling a rarely seen class toward the prior
#: The fine-class (expected-score) tables' schedule: 20 iterations of 60,000 hands, linearly
#: averaged.  Blending half of every iteration (max-ev's schedule) keeps the greedy start's
#: counts in the classes the strategy rarely plays (a junk front) and leaves the tables one
#: step behind the play; averaged over 20 iterations the regret of the 4-player tables falls
#: by about half (``results/strategy/training.md``).
FINE_GAMES = 60_000
FINE_ITERATIONS = 20
LINEAR = "linear"
FINE_BLEND = LINEAR
#: The fine tables count each hand against the hands of the next 3 games, not its own game's
#: (:func:`tabulate`'s ``other_deals``).  Counted within its own game, a class's chances carry
#: the card removal of the hands that happen to play it (a junk front is played by hands that
#: hold the high cards elsewhere), which misprices the same class in a hand that would not
#: play it; counted against independent deals they are the dun's own.  The regret falls by
#: 0.006-0.009 a hand at 4 players (``results/strategy/other-deals.md``).
FINE_OTHER_DEALS = 3
#: The strategies whose tables :func:`train` makes: max-ev's coarse tables, and the fine
#: tables every expected-score preset plays (trained by expected-score's self-play).
TRAINED_STRATEGIES = ("max-ev", *PRESETS)


def _fine(strategy: str) -> bool:
    """Whether ``strategy``'s tables are fine-class ones (an expected-score preset's)."""
    return strategy in PRESETS


def tabulate(
    ranks: np.ndarray,
    normal: np.ndarray,
    win_points: np.ndarray,
    scoop_ties: bool,
    seats: tuple[int, ...] | None = None,
    *,
    fine: bool = False,
    horse_extra: np.ndarray | None = None,
    other_deals: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float, int]:
    """Count outcomes per dun class over every ordered pair of normal hands in each game.

    ``ranks``: ``int32 (n_games, n_players, 3)``; ``normal``: bool ``(n_games, n_players)``,
    False for hands that declared a special (they compare no duns); ``win_points``: what each
    dun collects when it wins, ``(3, N_FINE)`` by fine class (the payout model's) or
    ``(3, N_CLASSES)`` by coarse class.  Returns per-dun-class sums
    ``(count, wins, ties, paid)`` each ``float64 (3, N_CLASSES)`` (``fine``: ``(3, N_FINE)``,
    by fine class), the number of ordered pairs where the first scooped the second, and the
    number of ordered pairs.  ``seats``: count only pairs whose first hand sits there (a best
    response learns its own duns only).  ``horse_extra``: ``(n_games, n_players, 3)``, the
    extra count of each dun that wins (the 马牌's multiplier**copies - 1): a loss to it pays
    that much more.

    ``other_deals``: 0 counts each hand against the other hands of its own game (card removal
    in the counts); ``k > 0`` counts it instead against the hands of the next ``k`` games
    (game ``g`` against ``g + 1 … g + k``, cyclically), so that a class's chances are those
    of its dun against opponents dealt independently of the rest of the hand that played it.
    The scoops (the home run's scoop rate) are counted within the games either way.
    """
    n_players = ranks.shape[1]
    coarse = dun_classes(ranks).astype(np.int64)
    bins = fine_classes(ranks).astype(np.int64) if fine else coarse
    # what a winning dun collects, read by the classes ``win_points`` is indexed by
    classes = coarse if win_points.shape[1] == N_CLASSES else fine_classes(ranks).astype(np.int64)
    n_bins = n_fine_classes() if fine else N_CLASSES
    count = np.zeros((N_DUNS, n_bins))
    wins = np.zeros((N_DUNS, n_bins))
    ties = np.zeros((N_DUNS, n_bins))
    paid = np.zeros((N_DUNS, n_bins))
    scoops = 0.0
    pairs = 0
    # the game each hand's opponents come from: its own, or each of the next other_deals games
    games = np.arange(ranks.shape[0])
    shifts = range(1, other_deals + 1) if other_deals else (0,)
    opponent_games = [np.roll(games, -shift) for shift in shifts]
    for i in range(n_players) if seats is None else seats:
        for j in range(n_players):
            if i == j:
                continue
            both = normal[:, i] & normal[:, j]
            for rolled in opponent_games:
                mask = normal[:, i] & normal[rolled, j]
                opp = rolled[mask]  # the game of each counted hand's opponent
                ri, rj = ranks[mask, i], ranks[opp, j]
                ci, cj = bins[mask, i], classes[opp, j]
                won, lost, tied = ri > rj, ri < rj, ri == rj
                for d in range(N_DUNS):
                    c = ci[:, d]
                    count[d] += np.bincount(c, minlength=n_bins)
                    wins[d] += np.bincount(c, weights=won[:, d], minlength=n_bins)
                    ties[d] += np.bincount(c, weights=tied[:, d], minlength=n_bins)
                    worth = win_points[d, cj[:, d]]
                    if horse_extra is not None:
                        worth = worth * (1.0 + horse_extra[opp, j, d])
                    pay = np.where(lost[:, d], worth, 0.0)
                    paid[d] += np.bincount(c, weights=pay, minlength=n_bins)
            # the scoops (the home run's scoop rate) within the game, whatever was counted
            ri, rj = ranks[both, i], ranks[both, j]
            won, lost = ri > rj, ri < rj
            if scoop_ties:
                scooped = (~lost).all(axis=1) & won.any(axis=1)
            else:
                scooped = won.all(axis=1)
            scoops += float(scooped.sum())
            pairs += int(both.sum())
    return count, wins, ties, paid, scoops, pairs


def isotonic_increasing(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted least-squares non-decreasing fit (pool adjacent violators, scipy's)."""
    return np.asarray(isotonic_regression(values, weights=weights).x)


def _monotone(rate: np.ndarray, weight: np.ndarray, increasing: bool, empty: float) -> np.ndarray:
    """Isotonic fit over observed classes; unobserved ones take the last observed value below."""
    out = np.empty_like(rate)
    n_classes = rate.shape[1]
    for d in range(N_DUNS):
        seen = weight[d] > 0
        values = np.full(n_classes, empty)
        if seen.any():
            fit = isotonic_regression(rate[d, seen], weights=weight[d, seen], increasing=increasing)
            values[seen] = fit.x
            # forward fill: a class never seen sits with the class below it
            idx = np.where(seen, np.arange(n_classes), -1)
            idx = np.maximum.accumulate(idx)
            values = np.where(idx >= 0, values[np.maximum(idx, 0)], empty)
        out[d] = values
    return out


def tables_from_counts(
    count: np.ndarray,
    wins: np.ndarray,
    ties: np.ndarray,
    paid: np.ndarray,
    scoop_rate: float,
    meta: dict,
) -> WinTables:
    """Monotone win tables from outcome counts (see the module docstring).

    A class seen rarely is pulled toward a prior: ``PRIOR_WEIGHT`` pseudo-comparisons at the
    chance that a random opponent's same dun ranks below it (the cumulative class
    distribution of the same counts, half of its own class counted as won; no card removal),
    so rare strong hands (a low full house in the back) are not averaged down by a handful of
    unlucky deals before the monotone fit.
    """
    total = count.sum(axis=1, keepdims=True)
    share = count / np.maximum(total, 1.0)
    prior_win = np.cumsum(share, axis=1) - 0.5 * share
    with np.errstate(invalid="ignore", divide="ignore"):
        losses = count - wins - ties
        weight = count + PRIOR_WEIGHT
        win_rate = (wins + PRIOR_WEIGHT * prior_win) / weight
        lose_rate = (losses + PRIOR_WEIGHT * (1.0 - prior_win)) / weight
        # one pseudo-loss worth 1 keeps a class that rarely loses from a noisy average
        pay_rate = (paid + 1.0) / (losses + 1.0)
    count_seen = weight
    win = _monotone(win_rate, count_seen, increasing=True, empty=0.0)
    lose = _monotone(lose_rate, count_seen, increasing=False, empty=1.0)
    lose = np.minimum(lose, 1.0 - win)
    tie = 1.0 - win - lose
    return WinTables(
        win=win,
        tie=tie,
        lose_pay=pay_rate,
        count=np.rint(count).astype(np.int64),
        scoop_rate=scoop_rate,
        meta=meta,
    )


@dataclass(frozen=True)
class OutcomeCounts:
    """Outcome sums per dun class, blended over the iterations of fictitious play.

    ``count``, ``wins``, ``ties``, ``paid``: ``float64 (3, N_CLASSES)`` (:func:`tabulate`);
    ``scoops`` of ``pairs`` ordered pairs.
    """

    count: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    paid: np.ndarray
    scoops: float = 0.0
    pairs: float = 0.0

    def blend(self, new: tuple, keep: float) -> OutcomeCounts:
        """These counts times ``keep`` plus the :func:`tabulate` output ``new``."""
        count, wins, ties, paid, scoops, pairs = new
        return OutcomeCounts(
            keep * self.count + count,
            keep * self.wins + wins,
            keep * self.ties + ties,
            keep * self.paid + paid,
            keep * self.scoops + scoops,
            keep * self.pairs + pairs,
        )

    def tables(self, scoop_rate: float | None = None) -> WinTables:
        """:func:`tables_from_counts` of these counts; ``scoop_rate`` defaults to theirs."""
        if scoop_rate is None:
            scoop_rate = self.scoops / max(self.pairs, 1.0)
        return tables_from_counts(
            self.count, self.wins, self.ties, self.paid, scoop_rate=scoop_rate, meta={}
        )


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
    scoop_ties = bool(model.params[P_SCOOP_TIES] > 0)
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


# --------------------------------------------------------------------------------------------
# Measuring strength: duplicate matches


#: Self-play games and seed of the removal shifts the shipped fine tables carry
#: (:func:`removal_shifts`; ``experiments/pipelines/fit_removal.py``).
REMOVAL_GAMES = 240_000
REMOVAL_SEED = 5
#: Opponent duns seen in a bucket at which its measured shift gets half weight.
REMOVAL_PRIOR = 1000.0
#: Games per block of :func:`removal_shifts` (each its own seed, so memory stays bounded).
REMOVAL_BLOCK = 20_000


def removal_shifts(
    variant: str | Variant,
    n_players: int,
    tables: WinTables | None = None,
    *,
    n_games: int = REMOVAL_GAMES,
    seed: int = REMOVAL_SEED,
) -> np.ndarray:
    """The removal shifts of ``tables`` (the shipped fine ones if None):
    ``float64 (N_REMOVAL_BUCKETS, 3, N_FINE)`` (:mod:`simkit.arrange.removal`).

    ``n_games`` games are dealt and set by expected-score on the pooled tables (no shifts:
    the result does not depend on shifts the tables already carry).  For every ordered pair
    of hands in a game that both play their duns, the opponent's fine dun classes are counted
    by the removal bucket of the hand it sits against, so the counts carry the card removal
    the fine tables leave out.  A bucket's shift for a class is the opponents' mid-CDF at that
    class (the share of their duns below it plus half the share equal to it) in that bucket,
    minus the pooled mid-CDF: how much more often than the tables say a dun of that class
    beats an opponent of a hand of that bucket; a bucket seen rarely is shrunk toward no
    shift (:data:`REMOVAL_PRIOR`).  The games are dealt in blocks of
    :data:`REMOVAL_BLOCK`, block ``i`` from the ``i``-th child of ``seed``.  One plain deck
    only (2-4 players).
    """
    v = resolve_variant(variant)
    check_players(n_players)
    if not v.deck_for(n_players).is_one_deck:
        raise SimkitError(
            f"removal shifts need one plain deck; {v.name} at {n_players} players deals "
            f"{v.deck_for(n_players)}"
        )
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise SimkitError(f"n_games must be an integer ≥ 1, got {n_games!r}")
    pooled_play = ExpectedScore(tables, removal=False)
    n_fine = n_fine_classes()
    seen = np.zeros((N_REMOVAL_BUCKETS, N_DUNS, n_fine))
    starts = range(0, n_games, REMOVAL_BLOCK)
    for lo, block_seed in zip(starts, np.random.SeedSequence(seed).spawn(len(starts)), strict=True):
        gen = np.random.default_rng(block_seed)
        size = min(REMOVAL_BLOCK, n_games - lo)
        hands = deal(size, n_players, rng=gen, deck=v.deck_for(n_players))
        arranged, declared = arrange(hands, v, pooled_play, n_players=n_players, rng=gen)
        classes = fine_classes(dun_ranks(arranged, v)).astype(np.int64)
        normal = declared < 0
        bucket = removal_buckets(hands)
        for i in range(n_players):
            for j in range(n_players):
                if i == j:
                    continue
                both = normal[:, i] & normal[:, j]
                for d in range(N_DUNS):
                    key = bucket[both, i] * n_fine + classes[both, j, d]
                    seen[:, d] += np.bincount(key, minlength=N_REMOVAL_BUCKETS * n_fine).reshape(
                        N_REMOVAL_BUCKETS, n_fine
                    )
    shifts = mid_cdf(seen) - mid_cdf(seen.sum(axis=0))  # each bucket's minus the pooled
    # a rare bucket's shift is noise, an empty one's would be minus the pooled CDF: shrink
    # each toward none by the opponent duns it saw (half weight at REMOVAL_PRIOR of them)
    seen_per_bucket = seen[:, 0].sum(axis=1)
    return shifts * (seen_per_bucket / (seen_per_bucket + REMOVAL_PRIOR))[:, None, None]


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
