"""The regret rows of ``experiments/regret.py`` runs set beside issue 11's targets.

    PYTHONPATH=. python experiments/regret_targets.py RUN.json [RUN.json ...] \
        --out results/strategy/regret-4p-2000 [--title "..."]

Each input is the ``regret.json`` an ``experiments/regret.py`` run writes (``--out DIR``).
Rows are merged in order (a later run's row of the same variant, players and seat replaces an
earlier one) and written as ``OUT.json`` (every run's ``meta`` kept) and ``OUT.md``: per row
the regret, its 95% CI, the target (:func:`target`) and whether the estimate meets it and
whether its whole CI lies below it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from simkit.files import atomic_write

#: Issue 11's targets: western-2-4 heads-up at or below Hankin's 0.0068 rounded to 0.007;
#: every variant at 4 players 0.02, qiantang 0.03.  Other rows have none.
HEADS_UP, FOUR_PLAYERS, QIANTANG = 0.007, 0.02, 0.03


def target(variant: str, players: int) -> float | None:
    """Issue 11's regret target of a row, None where the issue sets none."""
    if players == 4:
        return QIANTANG if variant == "qiantang" else FOUR_PLAYERS
    if players == 2 and variant == "western-2-4":
        return HEADS_UP
    return None


def verdict(row: dict[str, Any]) -> str:
    """ "yes, CI below it", "yes", "no (+excess)" or "" where the row has no target."""
    goal = target(row["variant"], row["players"])
    if goal is None:
        return ""
    if row["regret"] > goal:
        return f"no (+{row['regret'] - goal:.4f})"
    return "yes, CI below it" if row["ci_high"] <= goal else "yes"


def merge(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of ``runs`` in order, a later row replacing an earlier one of the same key."""
    rows: dict[tuple[str, int, str], dict[str, Any]] = {}
    for run in runs:
        for row in run["rows"]:
            rows[(row["variant"], row["players"], row["seat"])] = row
    return list(rows.values())


def render(runs: list[dict[str, Any]], title: str) -> str:
    rows = merge(runs)
    lines = [f"# {title}", ""]
    for run in runs:
        m = run["meta"]
        lines += [
            f"    PYTHONPATH=. python {m['command']} --jobs 2",
            f"    ({m['hands']} hands a row, {m['rollouts'][0]} + {m['rollouts'][1]} rollouts, "
            f"seed {m['seed']}; {m['seconds'] / 60:.0f} min; `--jobs` changes no figure)",
            "",
        ]
    lines += [
        "For each hand every setting of its Pareto front, the strategy's own and declaring "
        "(where the hand qualifies) are scored on the same random deals of the other cards to "
        "opponents who play the strategy; the best is picked on the selection deals and valued "
        "against the strategy's own on the independent evaluation deals.  Points per hand, 95% "
        "CI over hands.  Targets: issue 11's (4 players 0.02, qiantang 0.03; western-2-4 "
        "heads-up 0.007).",
        "",
        "| variant | players | seat | regret | 95% CI | target | met by the estimate "
        "| best differs |",
        "|---|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for r in rows:
        goal = target(r["variant"], r["players"])
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['seat']} | {r['regret']:.4f} | "
            f"{r['ci_low']:.4f} to {r['ci_high']:.4f} | "
            f"{'' if goal is None else f'≤ {goal:g}'} | {verdict(r)} | {r['share_differs']:.0%} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path, help="regret.json files of regret.py runs")
    ap.add_argument("--out", type=Path, required=True, help="path without suffix")
    ap.add_argument("--title", default="Regret of `expected-score` against issue 11's targets")
    args = ap.parse_args()
    runs = []
    for path in args.runs:  # every input is read before anything is written
        try:
            run = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(run["meta"]["command"], str) or not isinstance(run["rows"], list):
                raise TypeError("no command or no rows")
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise SystemExit(f"{path}: not a regret.json of regret.py ({err})") from None
        runs.append(run)
    md, text = render(runs, args.title), json.dumps({"runs": runs, "rows": merge(runs)}, indent=1)
    json_path, md_path = args.out.with_suffix(".json"), args.out.with_suffix(".md")
    atomic_write(json_path, lambda tmp: tmp.write_text(text + "\n", encoding="utf-8"))
    atomic_write(md_path, lambda tmp: tmp.write_text(md, encoding="utf-8"))
    print(md)


if __name__ == "__main__":
    main()
