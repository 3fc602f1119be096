"""Fit expected-score's scoop and home-run weights to rollouts (:mod:`simkit.objective`).

    python -m experiments.pipelines.fit_objective [--rows guangxi:4 fujian:4 ...] \
        [--seat table] [--hands 4000] [--rollouts 100] [--top 10] [--seed 21] [--write]

    python -m experiments.pipelines.fit_objective --regret 1000 [--rows guangxi:4 ...] [--jobs 2]

Every row (default: every shipped variant at 2, 3 and 4 players whose model has a scoop or a
home run) is fitted by :func:`simkit.objective.fit_weights`; the table goes to
``results/strategy/objective-weights.md`` and ``.json``.  ``--write`` stores the weights in
the ``meta`` of the row's shipped fine table file (``simkit/data/<variant>-<p>p-fine.npz``,
arrays unchanged, checked after writing) where :func:`simkit.objective.worth_shipping`, and
removes them where not, so the file says what was measured either way.  A variant without a
scoop or home run has nothing to weigh and is left out.  Each row takes 2-4 minutes on one
core.

``--regret N`` instead measures, for every row whose shipped file carries weights, the regret
(:func:`simkit.regret.regret`, N hands, 300 + 300 rollouts, seed 1, each strategy in every
seat) of the unweighted model and of the shipped weights on the same hands and rollout seeds,
with the paired difference: ``results/strategy/objective-weights-regret.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from experiments.support import set_meta
from simkit.arrange import (
    ExpectedScore,
    default_fine_tables,
    objective_weights,
    payout_model,
    shipped_table_path,
)
from simkit.arrange.wintables import WEIGHTS_KEY
from simkit.objective import (
    HANDS,
    ROLLOUTS,
    SEED,
    TABLE,
    TOP,
    WeightFit,
    fit_weights,
    worth_shipping,
)
from simkit.parallel import run_ordered
from simkit.regret import Z95, regret
from simkit.variants import load_variant, variant_names

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "strategy"


def has_terms(variant: str, n_players: int) -> bool:
    """Whether the model of ``variant`` at ``n_players`` has a scoop or home-run term."""
    p = payout_model(load_variant(variant), n_players).params
    return bool(p["scoop_add"] != 0 or p["scoop_double"] != 0 or p["home"] != 0)


def default_rows() -> list[tuple[str, int]]:
    return [(v, k) for v in variant_names() for k in (2, 3, 4) if has_terms(v, k)]


def write_weights(fit: WeightFit) -> str:
    """Store (or remove) the fit's weights in its shipped fine file: what was done."""
    path = shipped_table_path(fit.variant, fit.n_players, fine=True)
    ship = worth_shipping(fit)
    done = set_meta(path, {WEIGHTS_KEY: fit.as_meta() if ship else None})
    return {"written": "weights written", "removed": "weights removed"}.get(done, "unweighted")


def _ci(lo_hi: tuple[float, float] | list[float], digits: int = 3) -> str:
    return f"{lo_hi[0]:.{digits}f} to {lo_hi[1]:.{digits}f}"


def render(fits: list[dict], args: argparse.Namespace) -> str:
    lines = [
        "# expected-score's scoop and home-run weights, fitted to rollouts",
        "",
        "From `simkit.objective.fit_weights` (its docstring has the protocol): per row, "
        f"{args.hands:,} hands of every seat as often as it occurs, the top {args.top} splits "
        f"of each hand's Pareto front by the unweighted model scored on the same {args.rollouts} "
        "rollouts against the default; within-hand least squares of the rollout means on the "
        "model's dun points B, scoop terms S and home-run terms H; weights = S's and H's "
        "coefficients over B's, 95% CIs by a bootstrap over hands.  Held-out gain: on "
        f"{args.hands // 2:,} hands of an independent stream, the rollout mean of the split the "
        "fitted weighting picks minus the unweighted model's pick, per hand, 95% CI.  The "
        "weights ship (in the fine table file's `meta`) where that gain is positive beyond its "
        "CI.",
        "",
        "    python -m experiments.pipelines.fit_objective --write"
        + ("" if args.rows is None else " --rows " + " ".join(args.rows)),
        "",
        "| variant | players | coefficients B, S, H | scoop weight | home-run weight "
        "| held-out gain | picks differ | shipped |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in fits:
        c = ", ".join(f"{x:.3f}" for x in f["coefficients"])
        lines.append(
            f"| {f['variant']} | {f['n_players']} | {c} "
            f"| {f['weights'][0]:.3f} ({_ci(f['weights_ci'][0])}) "
            f"| {f['weights'][1]:.3f} ({_ci(f['weights_ci'][1])}) "
            f"| {f['held_out_gain']:+.4f} ({_ci(f['held_out_ci'], 4)}) "
            f"| {f['picks_differ']:.0%} | {'yes' if f['shipped'] else 'no'} |"
        )
    return "\n".join(lines) + "\n"


def paired_regret(variant: str, players: int, seat: str, hands: int, seed: int) -> dict:
    """Regret of the unweighted model and of the shipped weights, paired on the same hands."""
    v = load_variant(variant)
    weights = objective_weights(default_fine_tables(v, players))
    plain = regret(
        ExpectedScore(weights=(1.0, 1.0)), v, players, seat=seat, hands=hands,
        rollouts=(300, 300), seed=seed,
    )  # fmt: skip
    fitted = regret(
        ExpectedScore(), v, players, seat=seat, hands=hands, rollouts=(300, 300), seed=seed
    )
    d = fitted.per_hand - plain.per_hand
    return {
        "variant": variant, "players": players, "seat": seat, "hands": hands, "seed": seed,
        "weights": list(weights), "unweighted": plain.mean, "unweighted_ci": Z95 * plain.se,
        "weighted": fitted.mean, "weighted_ci": Z95 * fitted.se, "diff": float(d.mean()),
        "diff_ci": float(Z95 * d.std(ddof=1) / math.sqrt(d.size)),
        "differs": [plain.share_differs, fitted.share_differs],
        "seconds": plain.seconds + fitted.seconds,
    }  # fmt: skip


def render_regret(rows: list[dict]) -> str:
    lines = [
        "# Regret of expected-score with and without its fitted weights",
        "",
        "`simkit.regret` (the protocol of `results/strategy/regret.md`), each strategy in every "
        "seat, on the same hands and rollout seeds: the unweighted model (`ExpectedScore("
        "weights=(1, 1))`) against the shipped weights (`results/strategy/objective-weights.md`)"
        "; points per hand, 95% CI; the paired difference is per hand.",
        "",
        "    python -m experiments.pipelines.fit_objective --regret "
        + (str(rows[0]["hands"]) if rows else "N"),
        "",
        "| variant | players | seat | hands | weights (scoop, home run) | unweighted | weighted "
        "| paired difference |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['seat']} | {r['hands']:,} "
            f"| {r['weights'][0]:.3f}, {r['weights'][1]:.3f} "
            f"| {r['unweighted']:.4f} ± {r['unweighted_ci']:.4f} "
            f"| {r['weighted']:.4f} ± {r['weighted_ci']:.4f} "
            f"| {r['diff']:+.4f} ± {r['diff_ci']:.4f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", nargs="+", default=None, help="VARIANT:PLAYERS (default: all)")
    ap.add_argument("--seat", default=TABLE, help="banker, player or table (default)")
    ap.add_argument("--hands", type=int, default=HANDS)
    ap.add_argument("--rollouts", type=int, default=ROLLOUTS)
    ap.add_argument("--top", type=int, default=TOP)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--write", action="store_true", help="store the weights in simkit/data")
    ap.add_argument("--jobs", type=int, default=1, help="rows at once (processes)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--regret",
        type=int,
        default=None,
        metavar="HANDS",
        help="measure the shipped weights' paired regret instead",
    )
    args = ap.parse_args(argv)
    rows = default_rows()
    if args.rows is not None:
        rows = []
        for spec in args.rows:
            name, _, players = spec.partition(":")
            load_variant(name)  # a clear error for a misspelt variant, before any work
            if not players.isdigit() or not 2 <= int(players) <= 4:
                raise SystemExit(f"--rows: {spec!r} is not VARIANT:PLAYERS with 2-4 players")
            rows.append((name, int(players)))
    if args.jobs < 1:
        raise SystemExit(f"--jobs must be at least 1, got {args.jobs}")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.regret is not None:
        weighted = []
        for name, players in rows:
            tables = default_fine_tables(load_variant(name), players)
            if WEIGHTS_KEY in tables.meta:
                seat = "banker" if load_variant(name).scoring.topology == "banker" else "player"
                weighted.append((name, players, seat))
        # each row seeded on its own: the same figures in any number of processes
        measured = []
        tasks = [(name, players, seat, args.regret, 1) for name, players, seat in weighted]
        for r in run_ordered(paired_regret, tasks, n_jobs=args.jobs):
            print(json.dumps(r), flush=True)
            measured.append(r)
        (args.out / "objective-weights-regret.json").write_text(
            json.dumps(measured, indent=1) + "\n"
        )
        (args.out / "objective-weights-regret.md").write_text(render_regret(measured))
        return 0
    weighed = []
    for name, players in rows:
        if not has_terms(name, players):
            print(f"{name} {players}p: no scoop or home run to weigh; skipped")
        else:
            weighed.append((name, players))

    def fit_row(name: str, players: int) -> tuple[WeightFit, float]:
        start = time.perf_counter()
        fit = fit_weights(
            name, players, seat=args.seat, hands=args.hands, rollouts=args.rollouts,
            top=args.top, seed=args.seed,
        )  # fmt: skip
        return fit, time.perf_counter() - start

    # each row is its own seeded fit: the same figures in any number of processes
    results = run_ordered(fit_row, weighed, n_jobs=args.jobs)
    fits = []
    for fit, seconds in results:
        done = write_weights(fit) if args.write else "not written"  # files written here only
        print(
            f"{fit.variant} {fit.n_players}p: weights scoop {fit.weights[0]:.3f}, home run "
            f"{fit.weights[1]:.3f}; held-out gain {fit.held_out_gain:+.4f} "
            f"({_ci(fit.held_out_ci, 4)}); {done}; {seconds:.0f} s",
            flush=True,
        )
        fits.append({**fit.__dict__, "shipped": worth_shipping(fit)})
    (args.out / "objective-weights.json").write_text(json.dumps(fits, indent=1) + "\n")
    (args.out / "objective-weights.md").write_text(render(fits, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
