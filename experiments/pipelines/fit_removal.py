"""Measure expected-score's card-removal shifts and store them with the shipped fine tables.

    python -m experiments.pipelines.fit_removal --rows fujian:4 wiki-points:4 qiantang:4 \
        [--games 240000] [--seed 5] [--write | --remove]

For each row, :func:`simkit.train.removal_shifts` plays ``--games`` self-play games of the
default on the pooled tables and measures, per removal bucket of the hand
(:mod:`simkit.arrange.removal`), how the opponents' dun classes sit against the pooled ones.
``--write`` stores the shifts in the row's shipped file (``simkit/data/<variant>-<p>p-fine.npz``,
array ``removal``, float16; ``meta["removal"]`` says how they were made; the other arrays
unchanged, checked after writing); ``--remove`` takes them out.  Without either it prints the
size of the largest shift per dun.  About a minute a row on one core.

Shifts ship only where they lower the regret measured on 2,000 hands at 1,000 + 1,000
rollouts (``results/strategy/removal-buckets.md``): the rows of :data:`SHIPPED_ROWS`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from experiments.support import parse_row, write_meta
from simkit.arrange import shipped_table_path
from simkit.train import REMOVAL_GAMES, REMOVAL_SEED, removal_shifts

#: The rows whose shipped fine tables carry removal shifts.
SHIPPED_ROWS = ("fujian:4", "wiki-points:4", "qiantang:4")
#: The key of a fine table file's ``meta`` that says how its removal shifts were made.
REMOVAL_KEY = "removal"


def store(name: str, players: int, shifts: np.ndarray | None, made: dict) -> Path:
    """Write (``shifts``) or remove (None) the removal shifts of a shipped fine file."""
    path = shipped_table_path(name, players, fine=True)
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    arrays.pop("removal", None)
    meta.pop(REMOVAL_KEY, None)
    if shifts is not None:
        arrays["removal"] = shifts.astype(np.float16)  # as WinTables.save stores them
        meta[REMOVAL_KEY] = made
    write_meta(path, arrays, meta)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rows", nargs="+", default=list(SHIPPED_ROWS), help="variant:players")
    ap.add_argument("--games", type=int, default=REMOVAL_GAMES)
    ap.add_argument("--seed", type=int, default=REMOVAL_SEED)
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="store the shifts in the files")
    what.add_argument("--remove", action="store_true", help="remove the files' shifts")
    args = ap.parse_args(argv)
    rows = [parse_row(r) for r in args.rows]
    for name, players in rows:
        if args.remove:
            print(f"{store(name, players, None, {}).name}: removal shifts removed")
            continue
        started = time.perf_counter()
        shifts = removal_shifts(name, players, n_games=args.games, seed=args.seed)
        seconds = time.perf_counter() - started
        largest = np.abs(shifts).max(axis=(0, 2))
        print(
            f"{name} {players}p: largest shift front {largest[0]:.3f}, middle {largest[1]:.3f}, "
            f"back {largest[2]:.3f} ({seconds:.0f} s)",
            flush=True,
        )
        if args.write:
            made = {
                "games": args.games,
                "seed": args.seed,
                "command": "python -m experiments.pipelines.fit_removal --rows "
                f"{name}:{players} --games {args.games} --seed {args.seed} --write",
            }
            print(f"  → {store(name, players, shifts, made)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
