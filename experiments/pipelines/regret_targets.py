"""The regret rows of ``experiments/pipelines/regret.py`` runs set beside issue 11's targets.

    python -m experiments.pipelines.regret_targets RUN.json [RUN.json ...] \
        --out results/strategy/regret-4p-2000 [--title "..."] [--relabel FROM=TO]

Each input is the ``regret.json`` an ``experiments.pipelines.regret`` run writes (``--out DIR``), or
an ``OUT.json`` this script wrote (its runs, in their order).
Rows are merged in order (a later run's row of the same variant, players and seat replaces an
earlier one) and written as ``OUT.json`` (every run's ``meta`` kept) and ``OUT.md``: per row
the regret, its 95% CI, the target (:func:`target`) and whether the estimate meets it and
whether its whole CI lies below it.

``--relabel FROM=TO`` shows the rows of runs of strategy FROM as TO's, each marked (its
``measured_as`` names FROM): for a strategy that plays another's splits in those rows, as
expected-score-rerank plays expected-score's wherever no card-removal model fits.  Whether it
does is the caller's to show (the same rows to the last digit in a run of both).
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


def merge(
    runs: list[dict[str, Any]], relabel: tuple[str, str] | None = None
) -> list[dict[str, Any]]:
    """The rows of ``runs`` in order, a later row replacing an earlier one of the same key;
    with ``relabel`` ``(FROM, TO)`` a row of strategy FROM shown as TO's, ``measured_as`` FROM."""
    rows: dict[tuple[str, int, str], dict[str, Any]] = {}
    for run in runs:
        for row in run["rows"]:
            if relabel is not None and row.get("strategy") == relabel[0]:
                row = {**row, "strategy": relabel[1], "measured_as": relabel[0]}
            rows[(row["variant"], row["players"], row["seat"])] = row
    return list(rows.values())


def parse_relabel(spec: str | None) -> tuple[str, str] | None:
    """``"FROM=TO"`` as ``(FROM, TO)``; None stays None."""
    if spec is None:
        return None
    old, sep, new = spec.partition("=")
    if not sep or not old or not new or old == new:
        raise SystemExit(f"--relabel takes FROM=TO, two different strategy names, got {spec!r}")
    return old, new


def full_command(command: str) -> str:
    """A run's command as typed: runs recorded before the scripts moved name the script's path
    without ``python``."""
    return command if command.startswith("python") else f"PYTHONPATH=. python {command}"


def render(runs: list[dict[str, Any]], title: str, relabel: tuple[str, str] | None = None) -> str:
    rows = merge(runs, relabel)
    lines = [f"# {title}", ""]
    for run in runs:
        m = run["meta"]
        lines += [
            f"    {full_command(m['command'])} --jobs 2",
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
        *(
            [
                f"Rows marked † were measured as `{relabel[0]}` and are shown as "
                f"`{relabel[1]}`'s, which plays `{relabel[0]}`'s splits in them.",
                "",
            ]
            if relabel is not None and any("measured_as" in r for r in rows)
            else []
        ),
        "| variant | players | seat | regret | 95% CI | target | met by the estimate "
        "| best differs |",
        "|---|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for r in rows:
        goal = target(r["variant"], r["players"])
        lines.append(
            f"| {r['variant']}{' †' if 'measured_as' in r else ''} | {r['players']} | "
            f"{r['seat']} | {r['regret']:.4f} | "
            f"{r['ci_low']:.4f} to {r['ci_high']:.4f} | "
            f"{'' if goal is None else f'≤ {goal:g}'} | {verdict(r)} | {r['share_differs']:.0%} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path, help="regret.json files of regret.py runs")
    ap.add_argument("--out", type=Path, required=True, help="path without suffix")
    ap.add_argument("--title", default="Regret of `expected-score` against issue 11's targets")
    ap.add_argument(
        "--relabel",
        metavar="FROM=TO",
        default=None,
        help="show the rows of strategy FROM's runs as TO's, marked (TO plays FROM's splits there)",
    )
    args = ap.parse_args()
    relabel = parse_relabel(args.relabel)
    runs = []
    for path in args.runs:  # every input is read before anything is written
        try:
            read = json.loads(path.read_text(encoding="utf-8"))
            # a file this script wrote holds its runs: they are merged again, in order
            for run in read["runs"] if "runs" in read else [read]:
                if not isinstance(run["meta"]["command"], str) or not isinstance(run["rows"], list):
                    raise TypeError("no command or no rows")
                runs.append(run)
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise SystemExit(f"{path}: not a regret.json of regret.py ({err})") from None
    md = render(runs, args.title, relabel)
    text = json.dumps({"runs": runs, "rows": merge(runs, relabel)}, indent=1)
    json_path, md_path = args.out.with_suffix(".json"), args.out.with_suffix(".md")
    atomic_write(json_path, lambda tmp: tmp.write_text(text + "\n", encoding="utf-8"))
    atomic_write(md_path, lambda tmp: tmp.write_text(md, encoding="utf-8"))
    print(md)


if __name__ == "__main__":
    main()
