"""Shared command line of the experiment scripts: each regenerates one table or figure.

    .venv/bin/python experiments/<script>.py [--games N] [--seed S] [--jobs J] [--out DIR]

Each script simulates (the same deals under every variant it needs), keeps one table, writes it
as ``<name>.parquet`` and ``<name>.md`` (and its figure as PNG and SVG when it has one) under
``--out`` (default ``results/experiments``), with the run's ``provenance.json``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

from simkit.files import check_output_dir
from simkit.plots import save_figure
from simkit.report import DEFAULT_SEED, report_variants
from simkit.simulate import SimulationResult, simulate

ROOT = Path(__file__).resolve().parents[1]


def parse(description: str, games: int) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=games, help=f"deals (default {games:,})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--variants", nargs="+", default=None, help="default: every variant")
    parser.add_argument("--strategy", default="max-ev")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "experiments")
    return parser.parse_args()


def run(args: argparse.Namespace, *, banker_toggle: bool = False) -> SimulationResult:
    check_output_dir(args.out)
    variants, tables = report_variants(args.variants, banker_toggle=banker_toggle)
    return simulate(
        variants,
        args.games,
        strategy=args.strategy,
        seed=args.seed,
        n_jobs=args.jobs,
        win_tables=tables,
    )


def write(
    result: SimulationResult,
    args: argparse.Namespace,
    name: str,
    table: pl.DataFrame,
    figure: Callable[[pl.DataFrame], Any] | None = None,
    figure_table: pl.DataFrame | None = None,
) -> None:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    table.write_parquet(out / f"{name}.parquet")
    with pl.Config(
        tbl_formatting="MARKDOWN",
        tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True,
        tbl_rows=-1,
        tbl_cols=-1,
        tbl_width_chars=1000,
        fmt_str_lengths=60,
    ):
        (out / f"{name}.md").write_text(str(table) + "\n", encoding="utf-8")
    (out / f"{name}.provenance.json").write_text(
        json.dumps(result.provenance, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    if figure is not None:
        save_figure(figure(table if figure_table is None else figure_table), out, name)
    print(f"{name}: {table.height} rows → {out}")
