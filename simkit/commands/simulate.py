"""``simkit simulate``: play many deals under one or more variants and save the tables."""

from __future__ import annotations

import argparse
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from simkit.variants import DEFAULT_VARIANT

DEFAULT_GAMES = 10_000
DEFAULT_SEED = 1


def add_run_options(
    parser: argparse.ArgumentParser, *, games: int, seed: int = DEFAULT_SEED
) -> None:
    """Options shared by the commands that simulate (simulate, compare, report)."""
    parser.add_argument(
        "--games", type=int, default=games, help=f"deals to play (default {games:,})"
    )
    parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    parser.add_argument(
        "--strategy",
        default="max-ev",
        choices=("max-ev", "greedy", "random-legal"),
        help="how hands are set (default max-ev)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=seed,
        help=f"random seed (default {seed}; same seed, same tables)",
    )
    parser.add_argument("--jobs", type=int, default=-1, help="worker processes (-1: every core)")
    parser.add_argument("--chunk-size", type=int, default=None, help="games per task")
    parser.add_argument(
        "--scheduler",
        default=None,
        help="run on the Dask cluster at this address (tcp://host:port) via joblib's dask backend",
    )
    parser.add_argument("--checkpoint", type=Path, default=None, help="checkpoint file (resume)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace results of another run in the output folder (default: refuse)",
    )


def run_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments of :func:`simkit.simulate.simulate` from the shared options."""
    return {
        "n_jobs": args.jobs,
        "chunk_size": args.chunk_size,
        "backend": "dask" if args.scheduler else None,
        "scheduler": args.scheduler,
        "checkpoint": args.checkpoint,
        "progress": False if args.quiet else None,
    }


def claim_out(
    args: argparse.Namespace,
    variants: Any = None,
    win_tables: Any = None,
    provenance: str = "provenance.json",
) -> AbstractContextManager[Any]:
    """Lock ``--out`` for this run and refuse other runs' results there (before any work)."""
    if args.out is None:
        return nullcontext()
    from simkit.locks import claim_output_dir
    from simkit.simulate import make_config, run_identity

    config = make_config(
        args.variants if variants is None else variants,
        args.games,
        args.players,
        args.strategy,
        seed=args.seed,
        win_tables=win_tables,
    )
    return claim_output_dir(
        args.out, run_identity(config), overwrite=args.overwrite, provenance=provenance
    )


def simulate_args(args: argparse.Namespace) -> Any:
    """Check ``--out`` (if given), then run :func:`simkit.simulate.simulate` on the options."""
    from simkit.simulate import check_output_dir, simulate

    if args.out is not None:
        check_output_dir(args.out)
    return simulate(
        args.variants,
        args.games,
        args.players,
        args.strategy,
        seed=args.seed,
        **run_kwargs(args),
    )


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="simulate deals under variants and save the result tables",
        description="Play --games deals, the same deals under every variant given, and save "
        "the result tables (parquet + provenance.json) in --out.",
    )
    parser.add_argument(
        "variants", nargs="*", default=[DEFAULT_VARIANT], help="variant names or paths, or 'all'"
    )
    add_run_options(parser, games=DEFAULT_GAMES)
    parser.add_argument("--out", type=Path, default=None, help="folder for the tables")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    import polars as pl

    with claim_out(args):
        result = simulate_args(args)
        with pl.Config(tbl_rows=50, tbl_cols=12, tbl_width_chars=120):
            print(result["scores"].select("variant", "seat", "n", "mean", "se", "sd", "sd_se"))
        if args.out is not None:
            out = result.save(args.out)
            print(f"tables written to {out}")
    return 0
