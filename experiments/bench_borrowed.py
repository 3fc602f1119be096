"""Benchmark: the search kernels with borrowed arrays (:mod:`simkit.borrow`) against an earlier
revision's, the same hands in turns in one process.

The earlier revision (``--before``, 102eff8 unless told: the last before the kernels borrowed
their arrays) is imported beside the working tree's by ``_revision.simkit_at``, its kernels
verbatim.  Each row times a strategy's ``choose_splits`` under both on the same hands (rates
are hands per CPU second on one core, numba compiled before timing, the best of
``--repeats`` rounds, the two in turns each round) and checks that both choose the same
splits with the same values, to the last bit.

    .venv/bin/python experiments/bench_borrowed.py [--hands 8000] [--repeats 9] [--before REV]

Writes results/bench/borrowed.json and results/bench/borrowed.md.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from _revision import simkit_at  # experiments/ is on sys.path as a script
from _timing import check_hands_args, hands_parser, rotated_turns, run_meta

import simkit
from simkit.deal import deal

ROOT = Path(__file__).resolve().parents[1]
#: (variant, players, strategy): the default in three families, max-ev (the same kernel), and
#: the re-ranking search where it re-ranks
ROWS = (
    ("western-2-4", 2, "expected-score"),
    ("guangxi", 4, "expected-score"),
    ("taiwan", 4, "expected-score"),
    ("guangxi", 4, "max-ev"),
    ("guangxi", 4, "expected-score-rerank"),
    ("guangxi-regional", 4, "expected-score-rerank"),
)
BEFORE = "102eff8"
SEED = 2026


def bench(
    packages: dict[str, Any], variant: str, players: int, name: str, n_hands: int, repeats: int
) -> dict:
    """Strategy ``name``'s ``choose_splits`` under each of ``packages`` (a label → a simkit
    package: this one, or an earlier revision's by ``_revision.simkit_at``) on the same hands,
    timed in turns, each round starting at another: rates by label, each label's rate over
    the first's, and whether every package chose the first's splits with its values, to the
    last bit."""
    hands = np.sort(deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13), axis=1)
    hands = np.ascontiguousarray(hands[:n_hands])
    runs = {}
    answers = {}
    for which, package in packages.items():
        # a package's ``arrange`` attribute is its function: the module by its path
        strategies = importlib.import_module(f"{package.__name__}.arrange.strategies")
        variants = importlib.import_module(f"{package.__name__}.variants")
        strategy, v = strategies.strategy_from_name(name), variants.resolve_variant(variant)
        answers[which] = strategy.choose_splits(hands, v, n_players=players)  # compiles too
        runs[which] = lambda s=strategy, v=v: s.choose_splits(hands, v, n_players=players)
    rounds = rotated_turns(runs, repeats, 1)
    best = {which: min(r[which] for r in rounds) for which in runs}
    first, (ids0, values0) = next(iter(answers.items()))
    rates = {which: round(n_hands / seconds) for which, seconds in best.items()}
    return {
        "variant": variant, "players": players, "strategy": name, "hands": n_hands,
        "hands_per_s": rates,
        "ratio": {which: round(rate / rates[first], 3) for which, rate in rates.items()},
        "same_answers": all(
            np.array_equal(ids, ids0) and np.array_equal(values, values0)
            for ids, values in answers.values()
        ),
    }  # fmt: skip


def table(rows: list[dict], names: dict[str, str]) -> list[str]:
    """The rows of :func:`bench` as a markdown table: the rate of each package (``names``: its
    label → its name in the header, the first the one the others are compared with), each
    other package's rate over the first's, and whether all chose the same splits."""
    first, *others = names
    header = ["variant", "players", "strategy"]
    header += [f"{names[k]} hands/s" for k in names]
    header += [f"{names[k]} / {names[first]}" for k in others] + ["same splits and values"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        cells = [r["variant"], str(r["players"]), r["strategy"]]
        cells += [f"{r['hands_per_s'][k]:,}" for k in names]
        cells += [f"{r['ratio'][k]:.2f}×" for k in others]
        cells.append("yes" if r["same_answers"] else "NO")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render(rows: list[dict], meta: dict, before: str) -> str:
    lines = [
        "# The search kernels with borrowed arrays against the revision before",
        "",
        f"`{meta['command']}` — seed {meta['seed']}, one core, CPU time (the best of each "
        f"search's rounds, the two in turns on the same hands in one process; the earlier one "
        f"is revision {before}'s simkit, imported beside this one), numba {meta['numba']}, "
        f"{meta['when']}, load average at the end {meta['load_average']} (the machine is "
        "shared, so rates are lower bounds; compare the ratio).",
        "",
        *table(rows, {"before": before, "now": "now"}),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = hands_parser(__doc__.split("\n")[0], 8000, None, 9, ROOT / "results" / "bench")
    ap.add_argument("--before", default=BEFORE, help=f"the revision to compare (default {BEFORE})")
    args = ap.parse_args()
    check_hands_args(args)
    old = simkit_at(args.before)
    command = (
        f"python experiments/bench_borrowed.py --hands {args.hands} --repeats {args.repeats}"
        + (f" --before {args.before}" if args.before != BEFORE else "")
    )
    rows = []
    for variant, players, name in ROWS:
        packages = {"before": old, "now": simkit}
        rows.append(bench(packages, variant, players, name, args.hands, args.repeats))
        print(rows[-1], flush=True)
    meta = run_meta(command, SEED)
    (args.out / "borrowed.json").write_text(
        json.dumps({"meta": meta, "before": args.before, "rows": rows}, indent=1) + "\n"
    )
    (args.out / "borrowed.md").write_text(render(rows, meta, args.before))
    print(render(rows, meta, args.before))
    if not all(r["same_answers"] for r in rows):
        sys.exit("the kernels' answers differ from the revision before")


if __name__ == "__main__":
    main()
