"""``simkit simulate``: play many deals under one or more variants and save the tables."""

from __future__ import annotations

import argparse
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from simkit.commands._options import (
    add_jobs_option,
    add_out_option,
    add_players_option,
    add_seed_option,
    add_strategy_option,
    add_variant_arguments,
    add_variant_option,
    chosen_variants,
    count,
)

DEFAULT_GAMES = 10_000


def add_run_options(parser: argparse.ArgumentParser, *, games: int | None) -> None:
    """Options shared by the commands that simulate (simulate, compare, report); ``games`` None
    leaves ``--games`` to the library's default, which the command's help names."""
    if games is not None:
        parser.add_argument("--games", type=count, default=games, help="deals to play")
    add_players_option(parser)
    add_strategy_option(parser)
    add_seed_option(parser)
    add_jobs_option(parser)
    parser.add_argument(
        "--chunk-size",
        type=count,
        default=None,
        help="games per task (default: sized to the workers)",
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        help="run on the Dask cluster at this address (tcp://host:port) (default: local processes)",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        metavar="FILE",
        help="save progress here; the same command again resumes (default: none)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress (default: a bar on a terminal, a line every 5 s elsewhere)",
    )
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
    n_games: int | None = None,
) -> AbstractContextManager[Any]:
    """Lock ``--out`` for this run and refuse other runs' results there (before any work)."""
    if args.out is None:
        return nullcontext()
    from simkit.locks import claim_output_dir
    from simkit.simulate import make_config, run_identity

    config = make_config(
        chosen_variants(args) if variants is None else variants,
        args.games if n_games is None else n_games,
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
    from simkit.errors import SimkitError
    from simkit.files import check_output_dir
    from simkit.kept import KEPT_DIR
    from simkit.simulate import simulate

    keep = getattr(args, "keep_games", False)
    if keep and args.out is None:
        raise SimkitError("--keep-games needs --out: the games are kept in OUT/kept")
    if args.out is not None:
        check_output_dir(args.out)
    return simulate(
        chosen_variants(args),
        args.games,
        args.players,
        args.strategy,
        seed=args.seed,
        keep_games=Path(args.out) / KEPT_DIR if keep else None,
        **run_kwargs(args),
    )


def register(subparsers: Any) -> None:
    """Add ``simkit simulate`` to ``subparsers``: the variants (``--variant`` or
    positional), the run options of :func:`add_run_options` with ``--games``, ``--out`` and
    ``--keep-games``; :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "simulate",
        help="simulate deals under variants and save the result tables",
        description="Play --games deals, the same deals under every variant given, and save "
        "the result tables (parquet + provenance.json) in --out.",
    )
    add_variant_option(parser, many=True)
    add_variant_arguments(parser)
    add_run_options(parser, games=DEFAULT_GAMES)
    add_out_option(parser, "folder for the tables (default: print only)")
    parser.add_argument(
        "--keep-games",
        action="store_true",
        help="keep each game's set hands in OUT/kept, for `simkit rescore` and `simkit par` "
        "(about 57 bytes a game at 4 players; default: keep none)",
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Claim ``--out`` (if given), simulate (:func:`simulate_args`), print the
    scores and save the tables; returns exit status 0.  Raises
    :class:`~simkit.errors.SimkitError` for ``--keep-games`` without ``--out`` or another
    run's results in ``--out`` (without ``--overwrite``)."""
    import polars as pl

    with claim_out(args):
        result = simulate_args(args)
        with pl.Config(tbl_rows=50, tbl_cols=12, tbl_width_chars=120):
            print(result["scores"].select("variant", "seat", "n", "mean", "se", "sd", "sd_se"))
        if args.out is not None:
            out = result.save(args.out)
            print(f"tables written to {out}")
    return 0
