"""Fit expected-score-hand's card-removal model and ship it beside the fine tables.

    python -m experiments.pipelines.fit_removal_model --rows guangxi:4 guangxi-regional:4 \
        [--pool-hands 524288] [--hands 20000] [--seed 777] [--write]

For each row, a pool of ``--pool-hands`` hands is dealt from
:data:`~simkit.arrange.conditioned.POOL_SEED` and set as expected-score-hand's first round sets
its own (:func:`~simkit.arrange.removal_pool`: expected-score with the places, on the
shipped tables); ``--hands`` hands dealt from ``--seed`` get their exact shifts from it (the
compatible pool hands' mid-CDF minus the pool's, no shrinkage), and
:func:`~simkit.arrange.conditioned.fit_removal_model` fits the linear model of those shifts on
the hands' card features.  ``--write`` stores it as
``simkit/data/<variant>-<p>p-fine-removal-model.npz`` (its ``meta`` says how it was made and
which tables and pool setter it fits: a model fitted on other tables is not read); without
it the fit's figures are printed.  About a minute a row on one core.

The pool is four times the one expected-score-hand counts a hand's shift over when it has no
model: a regression averages the sampling noise out over the hands, so no shrinkage.
"""

from __future__ import annotations

import argparse
import sys
import time

from experiments.support import parse_row
from simkit.arrange import ExpectedScore, removal_pool
from simkit.arrange.conditioned import (
    FIT_HANDS,
    FIT_RIDGE,
    FIT_SEED,
    POOL_SEED,
    fit_removal_model,
)
from simkit.arrange.removal import RemovalModel, model_key, removal_model_path
from simkit.variants import resolve_variant

#: The rows that ship a model: guangxi's, where the default misses the regret target.
SHIPPED_ROWS = ("guangxi:4", "guangxi-regional:4")
#: The pool the shipped models were fitted on.
FIT_POOL_HANDS = 524288


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rows", nargs="+", default=list(SHIPPED_ROWS), help="variant:players")
    ap.add_argument("--pool-hands", type=int, default=FIT_POOL_HANDS)
    ap.add_argument("--hands", type=int, default=FIT_HANDS)
    ap.add_argument("--seed", type=int, default=FIT_SEED)
    ap.add_argument("--write", action="store_true", help="store the models beside the tables")
    args = ap.parse_args(argv)
    rows = [parse_row(r) for r in args.rows]
    for name, players in rows:
        started = time.perf_counter()
        v = resolve_variant(name)
        strategy = ExpectedScore(places=True)
        pool = removal_pool(strategy, v, players, args.pool_hands)
        if pool is None:
            raise SystemExit(f"{name} at {players} players has no pool (not one plain deck?)")
        model, figures = fit_removal_model(pool, n_hands=args.hands, seed=args.seed)
        seconds = time.perf_counter() - started
        print(
            f"{name} {players}p: exact shifts rms {figures['rms_exact']:.5f}, off the model "
            f"{figures['rms_residual']:.5f} ({seconds:.0f} s)",
            flush=True,
        )
        if args.write:
            meta = {
                "fitted_on": model_key(strategy._tables(v, players), strategy.setter_name()),
                "pool_hands": int(pool.masks.shape[0]),
                "pool_dealt": args.pool_hands,
                "pool_seed": POOL_SEED,
                "hands": args.hands,
                "seed": args.seed,
                "ridge": FIT_RIDGE,
                **figures,
                "command": "python -m experiments.pipelines.fit_removal_model --rows "
                f"{name}:{players} --pool-hands {args.pool_hands} --hands {args.hands} "
                f"--seed {args.seed} --write",
            }
            model = RemovalModel(model.weights, meta)
            path = removal_model_path(v.name, players)
            model.save(path)
            print(f"  → {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
