"""Card removal by hand bucket: expected-score with the opponents' dun distribution shifted by
what the hand holds, and its regret paired with the shipped default's.

The fine tables count every dun against opponents dealt independently of the hand that played
it (``simkit.train.FINE_OTHER_DEALS``): card removal is not in them.  This prototype puts a
first-order part of it back without touching the search.  Each hand falls in a bucket by the
cards it holds (``--bucket``: ``hcp``, five bands of high-card points A4 K3 Q2 J1; ``ak``, the
count of aces and of kings (0-3+), 20 buckets; ``akq``, aces, kings and queens, 80 buckets).
From ``--games`` self-play games of the default, the opponents' fine dun classes are counted
per bucket of the hand they sit against (their own game: removal in); the shift of their
mid-CDF from the pooled one is added to the tables' win chance of every class and taken from
the lose chance.  The strategy sets each bucket's hands with its shifted tables (the same
search, so the same answers as the exhaustive scan under that bucket's objective).

Both strategies are measured by ``simkit.regret`` (each in every seat, the same hands and
rollout seeds) and the per-hand difference gives a paired 95% CI:

    PYTHONPATH=. python experiments/removal_buckets.py --variant fujian --players 4 \
        --bucket akq --hands 1000 --rollouts 300 300 --seed 11     # about 5 min

``--bucketed-only --hands 2000 --rollouts 1000 1000 --seed 3`` measures the bucketed strategy
alone on issue 11's protocol, the hands and rollouts of ``experiments/regret.py``'s rows with
the same seed (``results/strategy/regret-4p-2000.md``; 20 min a row on one core).
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from simkit.arrange import ExpectedScore, WinTables, arrange
from simkit.arrange.classes import fine_classes, n_fine_classes
from simkit.arrange.search import max_ev_ids
from simkit.arrange.strategies import Strategy
from simkit.arrange.wintables import default_fine_tables
from simkit.cards import rank_of
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.regret import regret
from simkit.variants import Variant, resolve_variant

HCP_EDGES = (6, 9, 12, 15)
BUCKETS = {"hcp": len(HCP_EDGES) + 1, "ak": 20, "akq": 80}


def buckets_of(rows: np.ndarray, kind: str) -> np.ndarray:
    """The bucket of each hand, ``rows`` card ints ``(..., 13)`` (one plain deck)."""
    rank = rank_of(rows)
    aces, kings = (rank == 12).sum(axis=-1), np.minimum((rank == 11).sum(axis=-1), 3)
    if kind == "ak":
        return aces * 4 + kings
    if kind == "akq":
        return (aces * 4 + kings) * 4 + np.minimum((rank == 10).sum(axis=-1), 3)
    hcp = np.where(rank >= 9, rank - 8, 0).sum(axis=-1)
    return np.digitize(hcp, HCP_EDGES)


def _mid_cdf(counts: np.ndarray) -> np.ndarray:
    share = counts / max(float(counts.sum()), 1.0)
    return np.cumsum(share) - 0.5 * share


def removal_shifts(v: Variant, n_players: int, kind: str, n_games: int, seed: int) -> np.ndarray:
    """``(buckets, 3, N_FINE)``: the opponents' mid-CDF by fine class, per bucket of the hand
    they face, minus the pooled one (self-play of the shipped default)."""
    gen = np.random.default_rng(seed)
    hands = deal(n_games, n_players, rng=gen, deck=v.deck_for(n_players))
    arranged, declared = arrange(hands, v, ExpectedScore(), n_players=n_players, rng=gen)
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
    pooled = [_mid_cdf(seen[:, d].sum(axis=0)) for d in range(3)]
    return np.array(
        [[_mid_cdf(seen[b, d]) - pooled[d] for d in range(3)] for b in range(n_buckets)]
    )


def shifted_tables(base: WinTables, shift: np.ndarray) -> WinTables:
    """``base`` with the win chance raised and the lose chance lowered by ``shift``."""
    win = np.clip(base.win + shift, 0.0, 1.0)
    lose = np.minimum(np.clip(1.0 - base.win - base.tie - shift, 0.0, 1.0), 1.0 - win)
    return replace(base, win=win, tie=1.0 - win - lose)


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
    ap.add_argument("--bucket", choices=sorted(BUCKETS), default="akq")
    ap.add_argument("--games", type=int, default=240_000, help="self-play games for the shifts")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--rollouts", type=int, nargs=2, default=(300, 300))
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--bucketed-only",
        action="store_true",
        help="measure only the bucketed strategy (the shipped one's row on the same hands and "
        "seed is experiments/regret.py's)",
    )
    args = ap.parse_args()
    v = resolve_variant(args.variant)
    if args.players > 4 or not v.deck_for(args.players).is_one_deck:
        raise SystemExit("removal_buckets: one plain deck only (2-4 players)")
    started = time.perf_counter()
    shift = removal_shifts(v, args.players, args.bucket, args.games, seed=5)
    base = default_fine_tables(v, args.players)
    removal = BucketRemoval(tuple(shifted_tables(base, s) for s in shift), args.bucket)
    print(f"shifts from {args.games:,} games: {time.perf_counter() - started:.0f} s", flush=True)
    per_hand = {}
    measured = [(args.bucket, removal)]
    if not args.bucketed_only:
        measured.insert(0, ("shipped", ExpectedScore()))
    for label, strategy in measured:
        r = regret(
            strategy, v, args.players, seat=args.seat, hands=args.hands,
            rollouts=tuple(args.rollouts), seed=args.seed,
        )  # fmt: skip
        per_hand[label] = r.per_hand
        print(label, r, flush=True)
    if args.bucketed_only:
        return
    diff = per_hand[args.bucket] - per_hand["shipped"]
    half = 1.96 * diff.std(ddof=1) / math.sqrt(diff.size)
    print(f"paired ({args.bucket} - shipped): {diff.mean():+.4f} ± {half:.4f}")


if __name__ == "__main__":
    main()
