"""``simkit train``: win tables of the max-ev or expected-score strategy by fictitious play."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simkit.commands._options import (
    add_out_option,
    add_players_option,
    add_seed_option,
    add_variant_option,
    chosen_variant,
    count,
)
from simkit.errors import SimkitError


def register(subparsers: Any) -> None:
    """Add ``simkit train`` to ``subparsers``: ``--variant``, ``--players``,
    ``--seed``, ``--games``, ``--iterations``, ``--blend``, ``--other-deals``,
    ``--strategy``, ``--out``, ``--overwrite`` and ``--quiet``; :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "train",
        help="train win tables (max-ev's or expected-score's) by fictitious play",
        description="Deal, arrange with the current strategy, count how often each dun class "
        "wins, blend, repeat; prints the change per iteration and saves an .npz table. "
        "The shipped tables in simkit/data/ were made with the defaults and --seed 0.",
    )
    add_variant_option(parser)
    add_players_option(parser)
    add_seed_option(parser)
    parser.add_argument(
        "--games",
        type=count,
        default=None,
        help="games per iteration (default: {simkit.train.DEFAULT_GAMES:,} hands / players; "
        "expected-score {simkit.train.FINE_GAMES:,})",
    )
    parser.add_argument(
        "--iterations",
        type=count,
        default=None,
        help="fictitious-play iterations after the greedy start "
        "(default: {simkit.train.DEFAULT_ITERATIONS}; expected-score "
        "{simkit.train.FINE_ITERATIONS})",
    )
    parser.add_argument(
        "--blend",
        type=_blend,
        default=None,
        help="share of the running counts each iteration replaces: old × (1 - blend) + new; "
        "or 'linear': the greedy start's counts dropped, iteration j weighing j "
        "(default: {simkit.train.DEFAULT_BLEND}; expected-score '{simkit.train.FINE_BLEND}')",
    )
    parser.add_argument(
        "--other-deals",
        type=int,
        default=None,
        help="count each hand against the hands of the next K games instead of its own "
        "game's (0: its own game, card removal in the counts; default: expected-score "
        "{simkit.train.FINE_OTHER_DEALS}, max-ev 0)",
    )
    parser.add_argument(
        "--strategy",
        choices=("max-ev", "expected-score"),
        default="max-ev",
        help="whose tables: max-ev's (coarse classes) or expected-score's (fine classes, "
        "file <variant>-<players>p-fine.npz) (default: max-ev)",
    )
    add_out_option(parser, "output .npz table (default: <variant>-<players>p.npz)", file=True)
    parser.add_argument("--overwrite", action="store_true", help="replace an existing table file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=handle)


def _blend(text: str) -> float | str:
    """``--blend``: a share, or the word ``linear``."""
    if text == "linear":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a share in (0, 1] or 'linear', got {text!r}") from None


def handle(args: argparse.Namespace) -> int:
    """Train the win tables by fictitious play (:func:`~simkit.train.train`) and
    save them as ``--out`` (default ``<variant>-<players>p[-fine].npz``); returns exit
    status 0.  Raises :class:`~simkit.errors.SimkitError` for ``--games`` below 1 or
    ``--other-deals`` below 0, and refuses an existing file without ``--overwrite``, both
    before training."""
    import os
    import sys

    from tqdm import tqdm

    from simkit.arrange import table_name
    from simkit.files import check_output_file
    from simkit.kernel_cache import notice_if_cold
    from simkit.train import schedule, train
    from simkit.variants import resolve_variant

    variant = resolve_variant(chosen_variant(args))
    if args.games is not None and args.games < 1:
        raise SimkitError(f"--games must be at least 1, got {args.games}")
    if args.other_deals is not None and args.other_deals < 0:
        raise SimkitError(f"--other-deals must be at least 0, got {args.other_deals}")
    fine = args.strategy == "expected-score"
    default_out = Path(table_name(variant.name, args.players, fine=fine))
    out = args.out if args.out is not None else default_out
    check_output_file(out, suffix=".npz", overwrite=args.overwrite)  # before training
    notice_if_cold()
    shown = not args.quiet and sys.stderr.isatty() and not os.environ.get("CI")
    # options not given leave the library's defaults in place
    given = {"iterations": args.iterations, "blend": args.blend, "other_deals": args.other_deals}
    iterations = schedule(args.strategy)[1] if args.iterations is None else args.iterations
    with tqdm(total=iterations, desc="train", unit="iteration", disable=not shown) as bar:

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
            strategy=args.strategy,
            progress=progress,
            **{name: value for name, value in given.items() if value is not None},
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tables.save(out)
    meta = tables.meta
    print(
        f"{out}: {meta['games_total']} games ({meta['n_games_per_iteration']} per iteration, "
        f"{meta['iterations']} iterations after a greedy start), {meta['seconds']} s"
    )
    return 0
