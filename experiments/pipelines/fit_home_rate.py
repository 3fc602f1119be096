"""Fit expected-score-home's home rate and weights to rollouts (simkit.objective.fit_home_rate).

    python -m experiments.pipelines.fit_home_rate [--rows guangxi:4 guangxi-regional:4] \
        [--hands 16000] [--rollouts 100] [--top 10] [--seed 21] [--jobs 2] [--write]

expected-score prices an opponent's home run against a hand (全垒打) at the chance that it
scoops the hand times the table's scoop rate for each other player; expected-score-home prices
it at that chance times a rate fitted here (the chance that a hand which scoops one player
scoops them all), with the scoop and home-run weights fitted at that rate.  For each row, the
rates of :data:`simkit.objective.HOME_RATES` are tried on one set of hands and the best
measured on an independent one (the held-out gain of its picks over expected-score's, 95% CI).
The table goes to ``results/strategy/home-rate-fit.md`` and ``.json``.  ``--write`` stores the
rate and weights in the ``meta`` of the row's shipped fine table file where the held-out gain
is positive beyond its CI (``"home_rate"``), and removes them where not.  About 7 minutes a row
on one core.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from experiments.support import set_meta
from simkit.arrange import shipped_table_path
from simkit.arrange.wintables import HOME_RATE_KEY
from simkit.errors import SimkitError
from simkit.objective import (
    HOME_HANDS,
    HOME_RATES,
    HOME_ROLLOUTS,
    HOME_SEED,
    HOME_TOP,
    HomeRateFit,
    check_home_rate_row,
    fit_home_rate,
)
from simkit.parallel import run_ordered
from simkit.variants import load_variant

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "strategy"
ROWS = ("guangxi:4", "guangxi-regional:4")


def write_rate(fit: HomeRateFit) -> str:
    """Store (or remove) the fit's rate and weights in its shipped fine file: what was done."""
    path = shipped_table_path(fit.variant, fit.n_players, fine=True)
    entry = fit.as_meta() if fit.worth_shipping else None
    return set_meta(path, {HOME_RATE_KEY: entry})


def _ci(lo_hi: list[float] | tuple[float, float]) -> str:
    return f"{lo_hi[0]:+.4f} to {lo_hi[1]:+.4f}"


def render(fits: list[dict], args: argparse.Namespace, command: str) -> str:
    lines = [
        "# expected-score-home: the home run against a hand priced by a fitted rate",
        "",
        "From `simkit.objective.fit_home_rate` (its docstring has the protocol): per row, "
        f"{args.hands:,} hands set by expected-score, the best {args.top} splits of each "
        "hand's Pareto front by four orderings (the unweighted model, expected-score, "
        "expected-score's weights at home rates 0.25 and 0.5) scored on the same "
        f"{args.rollouts} deals of the other cards to opponents who play expected-score; at "
        "each rate the scoop and home-run weights are fitted as `fit_weights` fits them, and "
        "the pick of the model so weighted is valued on the rollouts against expected-score's "
        "(a gain, points per hand).  The rate chosen is the one whose gain on the fitting "
        f"hands is largest; its gain is measured again on {args.hands:,} held-out hands of an "
        "independent stream (95% CI).  The rate ships (the fine table file's "
        '`meta["home_rate"]`, read by `expected-score-home`) where that gain is positive '
        "beyond its CI.  The home rate is the chance that an opponent who scoops the hand "
        "scoops every other player too; expected-score prices it at the table's scoop rate "
        "for each of them, about 0.013 at 4 players.",
        "",
        f"    {command}",
        "",
        "| variant | players | rate | weights (scoop, home run), expected-score's | "
        "weights at the rate | gain on the fitting hands | held-out gain (95% CI) | "
        "picks differ | shipped |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for f in fits:
        lines.append(
            f"| {f['variant']} | {f['n_players']} | {f['rate']} | "
            f"{f['shipped_weights'][0]:.3f}, {f['shipped_weights'][1]:.3f} | "
            f"{f['weights'][0]:.3f}, {f['weights'][1]:.3f} | "
            f"{max(r['fit_gain'] for r in f['per_rate']):+.4f} | "
            f"**{f['held_out_gain']:+.4f}** ({_ci(f['held_out_ci'])}) | "
            f"{f['picks_differ']:.1%} | {'yes' if f['shipped'] else 'no'} |"
        )
    lines += ["", "Every rate tried (the held-out column is read for the record only; the rate "
              "is chosen on the fitting hands):", ""]  # fmt: skip
    for f in fits:
        lines += [
            f"{f['variant']}, {f['n_players']} players:",
            "",
            "| rate | weights (scoop, home run) | gain on the fitting hands | held-out gain "
            "(95% CI) | picks differ |",
            "|---|---|---|---|---|",
        ]
        for r in f["per_rate"]:
            lines.append(
                f"| {r['rate']} | {r['weights'][0]:.3f}, {r['weights'][1]:.3f} | "
                f"{r['fit_gain']:+.4f} | {r['held_out_gain']:+.4f} "
                f"({_ci(r['held_out_ci95'])}) | {r['picks_differ']:.1%} |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", nargs="+", default=list(ROWS), help="VARIANT:PLAYERS")
    ap.add_argument("--hands", type=int, default=HOME_HANDS)
    ap.add_argument("--rollouts", type=int, default=HOME_ROLLOUTS)
    ap.add_argument("--top", type=int, default=HOME_TOP)
    ap.add_argument("--seed", type=int, default=HOME_SEED)
    ap.add_argument("--jobs", type=int, default=1, help="rows at once (processes)")
    ap.add_argument("--write", action="store_true", help="store the rates in simkit/data")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rows = []
    for spec in args.rows:
        name, _, players = spec.partition(":")
        v = load_variant(name)  # a clear error for a misspelt variant, before any work
        if not players.isdigit() or not 2 <= int(players) <= 4:
            raise SystemExit(f"--rows: {spec!r} is not VARIANT:PLAYERS with 2-4 players")
        try:
            check_home_rate_row(v, int(players))
        except SimkitError as e:
            raise SystemExit(f"--rows: {spec}: {e}") from None
        rows.append((name, int(players)))
    if args.jobs < 1:
        raise SystemExit(f"--jobs must be at least 1, got {args.jobs}")
    args.out.mkdir(parents=True, exist_ok=True)

    def fit_row(name: str, players: int) -> tuple[HomeRateFit, float]:
        start = time.perf_counter()
        fit = fit_home_rate(
            name, players, hands=args.hands, rollouts=args.rollouts, top=args.top,
            seed=args.seed, rates=HOME_RATES,
        )  # fmt: skip
        return fit, time.perf_counter() - start

    # each row is its own seeded fit: the same figures in any number of processes
    fits = []
    for fit, seconds in run_ordered(fit_row, rows, n_jobs=args.jobs):
        done = write_rate(fit) if args.write else "not written"  # files written here only
        print(
            f"{fit.variant} {fit.n_players}p: rate {fit.rate}, weights {fit.weights}; held-out "
            f"gain {fit.held_out_gain:+.4f} ({_ci(fit.held_out_ci)}); {done}; {seconds:.0f} s",
            flush=True,
        )
        fits.append({**fit.__dict__, "shipped": fit.worth_shipping})
    command = "python -m experiments.pipelines.fit_home_rate " + " ".join(
        ["--rows", *args.rows, "--hands", str(args.hands), "--rollouts", str(args.rollouts),
         "--top", str(args.top), "--seed", str(args.seed), *(["--write"] if args.write else [])]
    )  # fmt: skip
    (args.out / "home-rate-fit.json").write_text(json.dumps(fits, indent=1) + "\n")
    (args.out / "home-rate-fit.md").write_text(render(fits, args, command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
