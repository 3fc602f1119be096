"""Calibrated win tables of ``expected-score``: the shipped fine tables' outcomes counted again.

The shipped fine tables come out of fictitious play, whose counts blend every iteration's
games, the greedy start's included, so their win chances lag the strategy that plays them (a
7-6-5 front is credited with 7.8% wins where the default's own games give it under 1%).  For
each variant and table size with shipped fine tables this deals ``CALIBRATION_HANDS //
players`` games (seeded), lets ``expected-score`` with the shipped tables set every hand,
counts the outcomes per fine dun class (:func:`simkit.train.tabulate`, the 马牌's extra
included) and turns the counts into tables as training does
(:meth:`simkit.train.OutcomeCounts.tables`: the same prior and monotone fit), unblended.
Writes ``<out>/<variant>-<players>p-cal.npz``, played as ``ExpectedScore(tables)`` by naming
the file as a strategy (``experiments/objective_ab.py --b <file>``).  A research tool: the
default does not read these (``results/strategy/objective.md``: they beat the default's
choices against the default's opponents, but their own regret is not lower).

    PYTHONPATH=. python experiments/calibrate_tables.py --out /tmp/cal [--variants guangxi ...]
        [--players 2 3 4] [--seed 0]

Same arguments and shipped tables → the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from simkit.arrange import P_SCOOP_TIES, ExpectedScore, arrange, payout_model
from simkit.arrange.search import horse_copies
from simkit.arrange.value import horse_model
from simkit.arrange.wintables import WinTables, _load_shipped, default_fine_tables
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.train import OutcomeCounts, tabulate
from simkit.variants import Variant, resolve_variant, variant_names

#: Dealt hands per calibration (``n_games = CALIBRATION_HANDS // players``).
CALIBRATION_HANDS = 240_000


def tables_digest(tables: WinTables) -> str:
    """A short digest of the win chances of ``tables`` (what a calibration was fitted from)."""
    h = hashlib.sha256()
    for a in (tables.win, tables.tie, tables.lose_pay):
        h.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
    return h.hexdigest()[:16]


def calibrate(v: Variant, n_players: int, out: Path, seed: int = 0) -> Path:
    """Fit and write the calibration of ``v`` at ``n_players`` (module docstring)."""
    start = time.perf_counter()
    base = default_fine_tables(v, n_players)
    model = payout_model(v, n_players)
    horse_card, multiplier = horse_model(v, n_players)
    n_games = CALIBRATION_HANDS // n_players
    gen = np.random.default_rng(np.random.SeedSequence([seed, n_players]))
    hands = deal(n_games, n_players, rng=gen, deck=v.deck_for(n_players))
    arranged, declared = arrange(hands, v, ExpectedScore(base), n_players=n_players, rng=gen)
    ranks = dun_ranks(arranged, v)
    extra = None
    if horse_card >= 0:
        extra = multiplier ** horse_copies(arranged, horse_card) - 1.0
    count, wins, ties, paid, scoops, pairs = tabulate(
        ranks,
        declared < 0,
        model.win_points,
        bool(model.params[P_SCOOP_TIES] > 0),
        fine=True,
        horse_extra=extra,
    )
    tables = OutcomeCounts(count, wins, ties, paid, scoops, float(pairs)).tables()
    path = out / f"{v.name}-{n_players}p-cal.npz"
    meta = {
        "variant": v.name,
        "variant_key": v.key,
        "n_players": n_players,
        "seed": seed,
        "n_games": n_games,
        "made": "expected-score's own games with the shipped tables, counted unblended",
        "base_tables": base.meta.get("file", ""),
        "base_tables_digest": tables_digest(base),
        "seconds": round(time.perf_counter() - start, 1),
        "command": f"PYTHONPATH=. python experiments/calibrate_tables.py --out {out} "
        f"--variants {v.name} --players {n_players} --seed {seed}",
    }
    replace(tables, meta=meta).save(path)
    print(f"{path}: {n_games} games, {meta['seconds']} s", flush=True)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", nargs="+", default=None, help="default: every variant")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True, help="folder for the .npz files")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.variants or variant_names():
        v = resolve_variant(name)
        for p in args.players:
            if _load_shipped(v.name, p, True) is None:
                print(f"{v.name} {p}p: no shipped fine tables, skipped")
                continue
            calibrate(v, p, args.out, args.seed)


if __name__ == "__main__":
    main()
