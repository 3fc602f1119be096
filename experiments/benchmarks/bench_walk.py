"""A/B benchmark: the search kernels of the working tree against an earlier revision's (the
revision before a change: ``--before``, with ``--title`` naming the change), the same hands in
turns in one process, with a control.

Three packages time each strategy's ``choose_splits`` on the same hands (rates are hands per
CPU second on one core, numba compiled before timing, the best of ``--repeats`` rounds, every
package in turn each round, each round starting at another): the revision before
(``--before``, bf0fba9 unless told), this revision's simkit imported beside itself as a
second copy (``--control``, HEAD unless told: the same kernels compiled apart, so its ratio
shows how far the same code's rate moves when it is compiled and placed anew; on this
machine that has read several percent), and the working tree.  Every package must choose
the same splits with the same values, to the last bit.

    python -m experiments.benchmarks.bench_walk [--hands 8000] [--repeats 9] [--before REV]
        [--control REV] [--title TEXT] [--row VARIANT:PLAYERS:STRATEGY ...] [--out DIR]

The earlier revisions are imported by ``experiments.support.simkit_at`` (extracted once into
``.bench-revisions/``, compiled there on their first run).

Writes walk.json and walk.md under ``--out`` (results/bench unless told).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

import simkit
from experiments.support import (
    check_hands_args,
    hands_parser,
    rotated_turns,
    run_meta,
    simkit_at,
)
from simkit.deal import deal

ROOT = Path(__file__).resolve().parents[2]
BEFORE = "bf0fba9"
CONTROL = "HEAD"


TITLE = (
    "The search walk's cached cap classes, linking and unsigned indices against the revision before"
)


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
SEED = 2026


def parse_bench_row(text: str) -> tuple[str, int, str]:
    """``VARIANT:PLAYERS:STRATEGY`` → a row of :data:`ROWS`'s form."""
    variant, _, rest = text.partition(":")
    players, _, strategy = rest.partition(":")
    if not (variant and players.isdigit() and strategy):
        raise SystemExit(f"a row is VARIANT:PLAYERS:STRATEGY (e.g. guangxi:4:max-ev), got {text!r}")
    return variant, int(players), strategy


def bench(
    packages: dict[str, Any], variant: str, players: int, name: str, n_hands: int, repeats: int
) -> dict:
    """Strategy ``name``'s ``choose_splits`` under each of ``packages`` (a label → a simkit
    package: this one, or an earlier revision's by ``support.simkit_at``) on the same hands,
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


def render(rows: list[dict], meta: dict, before: str, control: str, title: str = TITLE) -> str:
    lines = [
        f"# {title}",
        "",
        f"`{meta['command']}` — seed {meta['seed']}, one core, CPU time (the best of each "
        "package's rounds, the three in turns on the same hands in one process, each round "
        "starting at another), numba "
        f"{meta['numba']}, {meta['when']}, load average at the end {meta['load_average']} (the "
        "machine is shared, so rates are lower bounds; compare the ratios).  *before*: "
        f"revision {before}'s simkit; *control*: revision {control}'s (the kernels timed as "
        "*now*, compiled apart: how far the same code's rate moves when it lies elsewhere).",
        "",
        *table(rows, {"before": before, "control": "control", "now": "now"}),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = hands_parser(__doc__.split("\n")[0], 8000, None, 9, ROOT / "results" / "bench")
    ap.add_argument("--before", default=BEFORE, help=f"the revision before (default {BEFORE})")
    ap.add_argument(
        "--control", default=CONTROL, help=f"the control's revision (default {CONTROL})"
    )
    ap.add_argument("--title", default=TITLE, help="the table's title (the change it measures)")
    ap.add_argument(
        "--row", dest="rows", action="append", type=parse_bench_row, default=None,
        help="VARIANT:PLAYERS:STRATEGY to time, repeatable (default: the six of ROWS)",
    )  # fmt: skip
    args = ap.parse_args()
    rows_asked = list(args.rows or ROWS)
    check_hands_args(args)
    packages = {"before": simkit_at(args.before), "control": simkit_at(args.control), "now": simkit}
    command = (
        f"python -m experiments.benchmarks.bench_walk --hands {args.hands} --repeats {args.repeats}"
        + (f" --before {args.before}" if args.before != BEFORE else "")
        + (f" --control {args.control}" if args.control != CONTROL else "")
        + (f' --title "{args.title}"' if args.title != TITLE else "")
        + "".join(f" --row {v}:{p}:{n}" for v, p, n in args.rows or ())
    )
    rows = []
    for variant, players, name in rows_asked:
        rows.append(bench(packages, variant, players, name, args.hands, args.repeats))
        print(rows[-1], flush=True)
    meta = run_meta(command, SEED)
    # the revisions by their hashes (a name such as HEAD moves on)
    before, control = (packages[k].__name__.removeprefix("simkit_") for k in ("before", "control"))
    record = {"meta": meta, "before": before, "control": control, "rows": rows}
    (args.out / "walk.json").write_text(json.dumps(record, indent=1) + "\n")
    text = render(rows, meta, before, control, args.title)
    (args.out / "walk.md").write_text(text)
    print(text)
    if not all(r["same_answers"] for r in rows):
        sys.exit("the kernels' answers differ between the packages")


if __name__ == "__main__":
    main()
