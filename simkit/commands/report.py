"""``simkit report``: the rule-balance report (tables, figures, README.md) of every variant."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simkit.commands._options import add_out_option, add_variant_option, count, given_variants
from simkit.commands.simulate import add_run_options, claim_out, run_kwargs


def register(subparsers: Any) -> None:
    """Add ``simkit report`` to ``subparsers``: ``--out`` (default
    ``results/report``), the variants, ``--games``, the run options of
    :func:`~simkit.commands.simulate.add_run_options` and ``--from``; :func:`handle` runs
    it."""
    parser = subparsers.add_parser(
        "report",
        help="simulate every variant and write the report (README.md, tables, figures)",
        description="Play the same deals under every shipped variant (and each banker variant "
        "with the other 食夹棍 setting), then write OUT/README.md, OUT/tables/*.parquet and "
        "OUT/figures/*.png|svg.  --games scales the run.",
    )
    add_out_option(parser, "report folder", default=Path("results/report"))
    add_variant_option(
        parser,
        many=True,
        help="variant name or path; repeat it or give a comma list (default: every shipped one)",
    )
    # the older spelling, still read
    parser.add_argument(
        "--variants", dest="variant", nargs="+", action="extend", help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--games",
        type=count,
        default=None,
        help="deals to play (default: {simkit.report.DEFAULT_GAMES:,})",
    )
    add_run_options(parser, games=None)
    parser.add_argument(
        "--from",
        dest="from_dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="redraw the figures and README from the tables saved in DIR, simulating nothing "
        "(default: simulate)",
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Every stage writes into a staging folder inside ``--out``, moved into place at the end:
    a run that fails or is interrupted leaves the folder as it was."""
    import shutil
    import time

    from simkit.files import staged_dir
    from simkit.kept import KEPT_DIR as RUN_KEPT_DIR
    from simkit.locks import claim_output_dir
    from simkit.par import par_tables
    from simkit.report import DEFAULT_GAMES, report_variants, write_report
    from simkit.report.writer import KEPT_DIR
    from simkit.simulate import load_result, simulate
    from simkit.variants import variant_names

    start = time.perf_counter()
    out = Path(args.out)
    if args.from_dir is not None:
        result = load_result(args.from_dir)  # every file read and checked before writing
        in_place = Path(args.from_dir).resolve() == (out / "tables").resolve()
        claim: Any = claim_output_dir(
            out,
            result.provenance.get("run"),
            overwrite=args.overwrite or in_place,
            provenance="tables/provenance.json",
        )
        kept_run = Path(args.from_dir) / RUN_KEPT_DIR
        if kept_run.is_dir() and "par" not in result.tables:  # a run that kept its games
            shipped = [name for name in result.variant_names if name in variant_names()]
            seed = int(result.provenance.get("seed", args.seed))
            result.tables.update(par_tables(Path(args.from_dir), shipped, seed=seed))
            in_place = False  # the par tables are new: the tables are written with them
        with claim, staged_dir(out) as stage, _stages(args, 2) as bar:
            if not in_place:  # the tables travel with the README and figures drawn from them
                result.save(stage / "tables")
            bar.update()
            write_report(result, stage)
            bar.update()
    else:
        n_games = DEFAULT_GAMES if args.games is None else args.games
        chosen, tables = report_variants(given_variants(args) or None)
        claim = claim_out(
            args, chosen, tables, provenance="tables/provenance.json", n_games=n_games
        )
        with claim, staged_dir(out) as stage, _stages(args, 3) as bar:
            bar.set_postfix_str("simulate")
            # The games are kept beside the report while the par sheets are computed from
            # them (out/.kept, so that a resumed run finds the blocks it kept), then removed.
            kept = out / KEPT_DIR
            result = simulate(
                chosen,
                n_games,
                args.players,
                args.strategy,
                seed=args.seed,
                win_tables=tables,
                keep_games=kept,
                **run_kwargs(args),
            )
            shipped = [name for name in result.variant_names if name in variant_names()]
            result.tables.update(par_tables(kept, shipped, seed=args.seed))
            shutil.rmtree(kept)
            bar.update()
            bar.set_postfix_str("tables")
            result.save(stage / "tables")
            bar.update()
            bar.set_postfix_str("figures and README")
            write_report(result, stage)
            bar.update()
    path = out / "README.md"
    print(f"report written to {path} in {time.perf_counter() - start:.0f} s")
    return 0


def _stages(args: argparse.Namespace, total: int) -> Any:
    """A progress bar over the report's stages (a terminal only, as the simulation's)."""
    import os
    import sys

    from tqdm import tqdm

    on_terminal = sys.stderr.isatty() and not os.environ.get("CI")
    if not args.quiet and not on_terminal:
        return _StageLines(total)
    shown = not args.quiet and on_terminal
    return tqdm(total=total, desc="report", unit="stage", disable=not shown, position=1)


class _StageLines:
    """The report's stages as plain lines on stderr, off a terminal (CI, logs, pipes)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0

    def __enter__(self) -> _StageLines:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def set_postfix_str(self, stage: str) -> None:
        import sys

        line = f"report: stage {self.done + 1} of {self.total}: {stage}"
        print(line, file=sys.stderr, flush=True)

    def update(self, n: int = 1) -> None:
        self.done += n
