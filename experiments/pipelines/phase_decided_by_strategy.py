"""What deciding the phases by the strategy in play changed (issue 54.1): before and after.

    python -m experiments.pipelines.phase_decided_by_strategy
        [--before results/phases/before-f09ea0c] [--after results/phases]
        [--out results/phases/decided-by-strategy.md]

Reads the rows of :mod:`experiments.pipelines.phase_value_exchange` and
:mod:`experiments.pipelines.phase_value_settle` (``exchange.json``, ``settle.json``) taken
before (phases decided by max-ev's coarse model, the banker's pass by the largest of six noisy
means; copies of the files at f09ea0c) and after (decided by the strategy in play, the pass by
kind with a cross-fitted value), and writes one table a phase: each seat's mean score with the
phase and the phase's worth (the paired difference against none), before and after, 95% CIs,
and the change with its CI (the runs are independent in what the phases draw: the se of the
change is the root sum of squares).  Where a file has no se of a seat mean (``exchange.json``
before this change kept none), it is the after run's standard deviation over the before run's
games, marked ``≈``.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
Z = 1.959963984540054


def rows_of(folder: Path, name: str) -> tuple[list[dict[str, Any]], str]:
    data = json.loads((folder / name).read_text(encoding="utf-8"))
    rows = data["rows"] if isinstance(data, dict) else data
    command = data["meta"]["command"] if isinstance(data, dict) else rows[0]["command"]
    return rows, command


def key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["phase"], row["variant"], int(row["players"]), row["seat"])


def mean_se(row: dict[str, Any], other: dict[str, Any] | None) -> tuple[float, bool]:
    """The se of the seat's mean with the phase, and whether it is approximated (``≈``)."""
    if "with_se" in row:
        return float(row["with_se"]), False
    if "sd_with" in row:
        return float(row["sd_with"]) / math.sqrt(row["games"]), False
    if other is not None and "with_se" in other:
        return float(other["with_se"]) * math.sqrt(other["games"] / row["games"]), True
    return math.nan, True


def ci(x: float, se: float, approx: bool = False) -> str:
    mark = "≈" if approx else ""
    return f"{x:+.3f} ({mark}{x - Z * se:+.3f} … {x + Z * se:+.3f})"


def table(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    old = {key(r): r for r in before}
    lines = [
        "| phase | variant | players | seat | mean with, before | mean with, after | worth "
        "before | worth after | change of worth |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in after:
        b = old.get(key(r))
        if b is None:
            continue
        se_a, _ = mean_se(r, None)
        se_b, approx = mean_se(b, r)
        change = r["diff"] - b["diff"]
        se_c = math.hypot(r["se"], b["se"])
        lines.append(
            f"| {r['phase']} | {r['variant']} | {r['players']} | {r['seat']} | "
            f"{ci(b['with'], se_b, approx)} | {ci(r['with'], se_a)} | "
            f"{ci(b['diff'], b['se'])} | {ci(r['diff'], r['se'])} | {ci(change, se_c)} |"
        )
    return lines


def decisions(md: Path) -> list[str]:
    """The bullet lines of the "Decisions taken" section of an ``exchange.md``."""
    text = md.read_text(encoding="utf-8").split("Decisions taken", 1)[-1]
    return [line for line in text.splitlines() if line.startswith("- ")][:4]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, default=ROOT / "results/phases/before-f09ea0c")
    parser.add_argument("--after", type=Path, default=ROOT / "results/phases")
    parser.add_argument("--out", type=Path, default=ROOT / "results/phases/decided-by-strategy.md")
    args = parser.parse_args()
    cmd = "python -m experiments.pipelines.phase_decided_by_strategy " + shlex.join(sys.argv[1:])
    lines = [
        "# The phases decided by the strategy in play: before and after",
        "",
        f"`{cmd.strip()}`.  Points per game, 95% CIs.  *Before*: the phases decided by max-ev's "
        "coarse model, the banker's pass by the largest of six means of 4 imagined deals each "
        "against the exact value of no pass (f09ea0c).  *After*: every phase values hands as the "
        "strategy in play (the default, expected-score-rerank) sets them; the banker's pass "
        "values each kind of option once on common imagined deals and passes where the "
        "cross-fitted value of passing beats no pass.  `worth`: the paired mean difference, "
        "with the phase against without, on the same deals.  The hands are set by the default "
        "strategy in both.",
        "",
    ]
    for name, title in (
        ("exchange.json", "The card pass and 换牌"),
        ("settle.json", "谈判, 抛牌, 抢庄"),
    ):
        before, cmd_b = rows_of(args.before, name)
        after, cmd_a = rows_of(args.after, name)
        lines += [f"## {title}", "", f"Before: `{cmd_b}` ({before[0]['games']:,} deals).  "
                  f"After: `{cmd_a}` ({after[0]['games']:,} deals).", ""]  # fmt: skip
        lines += [*table(before, after), ""]
    lines += ["## Decisions taken", ""]
    for label, folder in (("Before", args.before), ("After", args.after)):
        lines += [f"{label} (`{folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder}"
                  "/exchange.md`):", ""]  # fmt: skip
        lines += [*decisions(folder / "exchange.md"), ""]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
