"""Card removal by hand bucket: expected-score with the opponents' dun distribution shifted by
what the hand holds, and its regret paired with the default's on the pooled tables.

The fine tables count every dun against opponents dealt independently of the hand that played
it (``simkit.train.FINE_OTHER_DEALS``): card removal is not in them.  The shipped strategy
puts a first-order part of it back by bucket (:mod:`simkit.arrange.removal`: aces × kings ×
queens, 80 buckets, ``--bucket shipped``, the default: the shifts the shipped fine file
carries against ``ExpectedScore(removal=False)``).  The exploration that chose it is kept:
``--bucket hcp`` (five bands of high-card points A4 K3 Q2 J1), ``ak`` (aces and kings 0-3+,
20 buckets), ``shape`` (pairs held × longest suit × high cards, 36 buckets: where
``rerank-probe.md`` finds the rollouts and an unconditioned population disagree) and
``akq`` (the shipped buckets, shifts measured here from ``--games`` self-play games in one
deal and not shrunk: the prototype before shipping).  From those
games the opponents' fine dun classes are counted per bucket of the hand they sit against
(their own game: removal in); the shift of their mid-CDF from the pooled one is added to the
tables' win chance of every class and taken from the lose chance
(:func:`simkit.arrange.shifted_tables`).  Each bucket's hands are set with their bucket's
tables (the same search, so the same answers as the exhaustive scan under that bucket's
objective).

Both strategies are measured by ``simkit.regret`` (each in every seat, the same hands and
rollout seeds) and the per-hand difference gives a paired 95% CI:

    PYTHONPATH=. python experiments/removal_buckets.py --variant fujian --players 4 \
        --hands 1000 --rollouts 300 300 --seed 11     # about 5 min

``--bucketed-only --hands 2000 --rollouts 1000 1000 --seed 3`` measures the bucketed strategy
alone on issue 11's protocol, the hands and rollouts of ``experiments/regret.py``'s rows with
the same seed (``results/strategy/regret-4p-2000.md``; 20 min a row on one core).
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simkit.arrange import ExpectedScore, WinTables, arrange, removal_buckets, shifted_tables
from simkit.arrange.classes import fine_classes, n_fine_classes
from simkit.arrange.removal import mid_cdf
from simkit.arrange.search import max_ev_ids
from simkit.arrange.strategies import Strategy
from simkit.arrange.wintables import default_fine_tables
from simkit.cards import rank_of, suit_of
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.regret import regret
from simkit.variants import Variant, resolve_variant

HCP_EDGES = (6, 9, 12, 15)
BUCKETS = {"hcp": len(HCP_EDGES) + 1, "ak": 20, "akq": 80, "shape": 36}


def hand_shape(rows: np.ndarray) -> dict[str, np.ndarray]:
    """What hands ``rows`` (card ints ``(..., 13)``, one plain deck) hold: ``high cards`` (aces,
    kings, queens and jacks), ``pairs`` (ranks held twice or more) and ``longest suit`` (the
    cards of the longest suit), each ``int64 (...)``."""
    rank = rank_of(rows)
    counts = (rank[..., None] == np.arange(13)).sum(axis=-2)
    suits = (suit_of(rows)[..., None] == np.arange(4)).sum(axis=-2)
    return {
        "high cards": counts[..., 9:].sum(axis=-1),
        "pairs": (counts >= 2).sum(axis=-1),
        "longest suit": suits.max(axis=-1),
    }


def buckets_of(rows: np.ndarray, kind: str) -> np.ndarray:
    """The bucket of each hand, ``rows`` card ints ``(..., 13)`` (one plain deck)."""
    if kind == "akq":
        return removal_buckets(rows)
    if kind == "shape":
        # what rerank-probe.md finds the order of the splits turns on: pairs held (0-2, 3, 4,
        # 5+), the longest suit (4 or less, 5, 6+) and high cards A-K-Q-J (0-3, 4-5, 6+)
        shape = hand_shape(rows)
        pairs = np.clip(shape["pairs"] - 2, 0, 3)
        longest = np.clip(shape["longest suit"] - 4, 0, 2)
        return (pairs * 3 + longest) * 3 + np.digitize(shape["high cards"], (4, 6))
    rank = rank_of(rows)
    aces, kings = (rank == 12).sum(axis=-1), np.minimum((rank == 11).sum(axis=-1), 3)
    if kind == "ak":
        return aces * 4 + kings
    hcp = np.where(rank >= 9, rank - 8, 0).sum(axis=-1)
    return np.digitize(hcp, HCP_EDGES)


def removal_shifts(v: Variant, n_players: int, kind: str, n_games: int, seed: int) -> np.ndarray:
    """``(buckets, 3, N_FINE)``: the opponents' mid-CDF by fine class, per bucket of the hand
    they face, minus the pooled one (self-play of the default on the pooled tables)."""
    gen = np.random.default_rng(seed)
    hands = deal(n_games, n_players, rng=gen, deck=v.deck_for(n_players))
    pooled_play = ExpectedScore(removal=False)
    arranged, declared = arrange(hands, v, pooled_play, n_players=n_players, rng=gen)
    classes = fine_classes(dun_ranks(arranged, v)).astype(np.int64)
    normal = declared < 0
    n_fine, n_buckets = n_fine_classes(), BUCKETS[kind]
    bucket = buckets_of(hands, kind)
    seen = np.zeros((n_buckets, 3, n_fine))
    for i in range(n_players):
        for j in range(n_players):
            if i == j:
                continue
            both = normal[:, i] & normal[:, j]
            for d in range(3):
                key = bucket[both, i] * n_fine + classes[both, j, d]
                seen[:, d] += np.bincount(key, minlength=n_buckets * n_fine).reshape(
                    n_buckets, n_fine
                )
    return mid_cdf(seen) - mid_cdf(seen.sum(axis=0))  # each bucket's minus the pooled


@dataclass(frozen=True, eq=False)
class BucketRemoval(Strategy):
    """expected-score with each bucket's hands set by that bucket's shifted tables."""

    tables: tuple[WinTables, ...]
    kind: str
    name: ClassVar[str] = "removal-buckets"

    def choose_splits(self, rows, variant, *, n_players, rng=None):  # type: ignore[no-untyped-def]
        bucket = buckets_of(rows, self.kind)
        ids = np.empty((rows.shape[0], 3), dtype=np.int64)
        values = np.empty(rows.shape[0])
        for b in np.unique(bucket):
            mine = bucket == b
            solver = ExpectedScore(self.tables[b]).solver(variant, n_players)
            ids[mine], values[mine], _ = max_ev_ids(np.ascontiguousarray(rows[mine]), solver)
        return ids, values


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--variant", default="fujian")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seat", default="player")
    ap.add_argument("--bucket", choices=["shipped", *sorted(BUCKETS)], default="shipped")
    ap.add_argument("--games", type=int, default=240_000, help="self-play games for the shifts")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--rollouts", type=int, nargs=2, default=(300, 300))
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--bucketed-only",
        action="store_true",
        help="measure only the bucketed strategy (the pooled one's row on the same hands and "
        "seed is the previous default's in experiments/regret.py's results)",
    )
    args = ap.parse_args()
    v = resolve_variant(args.variant)
    if args.players > 4 or not v.deck_for(args.players).is_one_deck:
        raise SystemExit("removal_buckets: one plain deck only (2-4 players)")
    if args.bucket == "shipped":
        removal: Strategy = ExpectedScore()
        if len(removal.solvers(v, args.players)) == 1:  # type: ignore[attr-defined]
            raise SystemExit(f"{v.name} at {args.players} players ships no removal shifts")
    else:
        started = time.perf_counter()
        shift = removal_shifts(v, args.players, args.bucket, args.games, seed=5)
        base = default_fine_tables(v, args.players)
        removal = BucketRemoval(tuple(shifted_tables(base, s) for s in shift), args.bucket)
        print(f"shifts from {args.games:,} games: {time.perf_counter() - started:.0f} s")
    per_hand = {}
    measured = [(args.bucket, removal)]
    if not args.bucketed_only:
        measured.insert(0, ("pooled", ExpectedScore(removal=False)))
    for label, strategy in measured:
        r = regret(
            strategy, v, args.players, seat=args.seat, hands=args.hands,
            rollouts=tuple(args.rollouts), seed=args.seed,
        )  # fmt: skip
        per_hand[label] = r.per_hand
        print(label, r, flush=True)
    if args.bucketed_only:
        return
    diff = per_hand[args.bucket] - per_hand["pooled"]
    half = 1.96 * diff.std(ddof=1) / math.sqrt(diff.size)
    print(f"paired ({args.bucket} - pooled): {diff.mean():+.4f} ± {half:.4f}", flush=True)


if __name__ == "__main__":
    main()
