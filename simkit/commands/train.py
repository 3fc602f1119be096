"""``simkit train``: win tables of the max-ev strategy by fictitious play."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simkit.train import DEFAULT_BLEND, DEFAULT_GAMES, DEFAULT_ITERATIONS


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train max-ev win tables by fictitious play",
        description="Deal, arrange with the current strategy, count how often each dun class "
        "wins, blend, repeat; prints the change per iteration and saves an .npz table. "
        "The shipped tables in simkit/data/ were made with the defaults and --seed 0.",
    )
    parser.add_argument("--variant", required=True, help="variant name or path")
    parser.add_argument("--players", type=int, default=4, help="players at the table (2-8)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help=f"games per iteration (default {DEFAULT_GAMES} hands / players)",
    )
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--blend", type=float, default=DEFAULT_BLEND)
    parser.add_argument(
        "--out", type=Path, default=None, help="output .npz file (default <variant>-<players>p.npz)"
    )
    parser.add_argument("--overwrite", action="store_true", help="replace an existing output file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    import os
    import sys

    from tqdm import tqdm

    from simkit.arrange import table_name
    from simkit.files import check_output_file
    from simkit.kernel_cache import notice_if_cold
    from simkit.train import train
    from simkit.variants import resolve_variant

    variant = resolve_variant(args.variant)
    if args.games is not None and args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    out = args.out if args.out is not None else Path(table_name(variant.name, args.players))
    check_output_file(out, suffix=".npz", overwrite=args.overwrite)  # before training
    notice_if_cold()
    shown = not args.quiet and sys.stderr.isatty() and not os.environ.get("CI")
    with tqdm(total=args.iterations, desc="train", unit="iteration", disable=not shown) as bar:

        def progress(message: str) -> None:
            bar.update()
            if shown:
                bar.write(message)
            else:
                print(message)

        tables = train(
            variant,
            args.players,
            seed=args.seed,
            n_games=args.games,
            iterations=args.iterations,
            blend=args.blend,
            progress=progress,
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tables.save(out)
    meta = tables.meta
    print(
        f"{out}: {meta['games_total']} games ({meta['n_games_per_iteration']} per iteration, "
        f"{meta['iterations']} iterations after a greedy start), {meta['seconds']} s"
    )
    return 0
