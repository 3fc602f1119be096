"""Benchmark: a change to the search walks against the revision before it (written for the
walk's cached cap classes, its group linking in a function of its own and its unsigned class
indices; ``--before`` and ``--title`` name another), the same hands in turns in one process,
with a control.

Three packages time each strategy's ``choose_splits`` on the same hands (rates are hands per
CPU second on one core, numba compiled before timing, the best of ``--repeats`` rounds, every
package in turn each round, each round starting at another): the revision before
(``--before``, bf0fba9 unless told), this revision's simkit imported beside itself as a
second copy (``--control``, HEAD unless told: the same kernels compiled apart, so its ratio
shows how far the same code's rate moves when it is compiled and placed anew; on this
machine that has read several percent), and the working tree.  Every package must choose
the same splits with the same values, to the last bit.

    .venv/bin/python experiments/bench_walk.py [--hands 8000] [--repeats 9] [--before REV]
        [--control REV] [--title TEXT] [--out DIR]

Writes walk.json and walk.md under ``--out`` (results/bench unless told).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from _revision import simkit_at  # experiments/ is on sys.path as a script
from _timing import check_hands_args, hands_parser, run_meta
from bench_borrowed import ROWS, SEED, bench, table

import simkit

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "bf0fba9"
CONTROL = "HEAD"


TITLE = (
    "The search walk's cached cap classes, linking and unsigned indices against the revision before"
)


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
    args = ap.parse_args()
    check_hands_args(args)
    packages = {"before": simkit_at(args.before), "control": simkit_at(args.control), "now": simkit}
    command = (
        f"python experiments/bench_walk.py --hands {args.hands} --repeats {args.repeats}"
        + (f" --before {args.before}" if args.before != BEFORE else "")
        + (f" --control {args.control}" if args.control != CONTROL else "")
        + (f' --title "{args.title}"' if args.title != TITLE else "")
    )
    rows = []
    for variant, players, name in ROWS:
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
