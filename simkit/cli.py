"""The ``simkit`` command line: ``simkit <command> ...``; ``simkit --help`` lists commands.

Commands live in :mod:`simkit.commands`, one module each, discovered here.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import simkit
import simkit.commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="simkit",
        description="Monte Carlo simulation and rule-balance research for 十三水 (Thirteen Water).",
    )
    parser.add_argument("--version", action="version", version=f"simkit {simkit.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(simkit.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"simkit.commands.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (ValueError, TypeError, OSError) as exc:
        # User errors (bad cards, bad variant files, bad paths) end with one clear line.
        print(f"simkit {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
