"""The report's tables and figures one at a time: each simulated with the report's default
strategy (``simkit.arrange.DEFAULT_STRATEGY``), seed and variants, written under ``--out``.

    python -m experiments.pipelines.report_tables --table variant_scores [--table ...]
        [--games N] [--seed S] [--jobs J] [--variants V ...] [--strategy S] [--out DIR]

Each table is written as ``<name>.parquet`` and ``<name>.md`` (its figure as PNG and SVG where
it has one) with the run's ``<name>.provenance.json``, under ``--out``
(``results/experiments`` unless told; not committed: ``simkit report`` makes them all at once).
The tables:

* ``variant_scores``: expected score and volatility per variant (figure);
* ``component_breakdown``: score and variance by rule component per variant (figure);
* ``convergence``: key estimates against the number of games (figure);
* ``special_frequencies``: special-hand frequencies beside their exact values, with z-scores;
* ``special_payouts``: special payouts against rarity and normal-play value (figure);
* ``banker_edge``: the banker's edge in banker variants, with and without 食夹棍.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

from simkit.arrange import DEFAULT_STRATEGY
from simkit.files import check_output_dir
from simkit.plots import (
    plot_components,
    plot_convergence,
    plot_payouts,
    plot_scores,
    save_figure,
)
from simkit.report import DEFAULT_SEED, report_variants
from simkit.simulate import SimulationResult, simulate
from simkit.variants import has_banker, load_variant, variant_names

ROOT = Path(__file__).resolve().parents[2]
#: name → (the simulation's table, its figure or None, the games by default)
TABLES: dict[str, tuple[str, Callable[[pl.DataFrame], Any] | None, int]] = {
    "variant_scores": ("scores", plot_scores, 20_000),
    "component_breakdown": ("components", plot_components, 20_000),
    "convergence": ("convergence", plot_convergence, 50_000),
    "special_frequencies": ("specials", None, 20_000),
    "special_payouts": ("payouts", plot_payouts, 20_000),
    "banker_edge": ("banker_edge", None, 20_000),
}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--table", dest="tables", action="append", choices=list(TABLES), required=True,
        help="the table to make, repeatable",
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=None, help="deals (default: the table's)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--variants", nargs="+", default=None, help="default: every variant")
    parser.add_argument("--strategy", default=DEFAULT_STRATEGY)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "experiments")
    return parser.parse_args(argv)


def run(args: argparse.Namespace, name: str) -> SimulationResult:
    games = args.games if args.games is not None else TABLES[name][2]
    variants = args.variants
    if name == "banker_edge" and variants is None:  # every variant whose scoring has a banker
        variants = [v for v in variant_names() if has_banker(load_variant(v))]
    chosen, tables = report_variants(variants, banker_toggle=name == "banker_edge")
    return simulate(
        chosen, games, strategy=args.strategy, seed=args.seed, n_jobs=args.jobs,
        win_tables=tables,
    )  # fmt: skip


def write(result: SimulationResult, out: Path, name: str) -> None:
    key, figure, _ = TABLES[name]
    full = result[key]
    # the scores table shows seat 0 and all seats; its figure reads every seat
    table = full.filter(pl.col("seat").is_in(["0", "all"])) if name == "variant_scores" else full
    out.mkdir(parents=True, exist_ok=True)
    table.write_parquet(out / f"{name}.parquet")
    with pl.Config(
        tbl_formatting="MARKDOWN", tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True, tbl_rows=-1, tbl_cols=-1, tbl_width_chars=1000,
        fmt_str_lengths=60,
    ):  # fmt: skip
        (out / f"{name}.md").write_text(str(table) + "\n", encoding="utf-8")
    (out / f"{name}.provenance.json").write_text(
        json.dumps(result.provenance, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    if figure is not None:
        save_figure(figure(full), out, name)
    print(f"{name}: {table.height} rows → {out}")


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    check_output_dir(args.out)
    for name in dict.fromkeys(args.tables):
        write(run(args, name), args.out, name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
