"""The ``simkit`` command line: ``simkit <command> ...``; ``simkit --help`` lists commands.

Commands live in :mod:`simkit.commands`, one module each, discovered here.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import signal
import sys
import threading
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
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if in_main else None
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt as exc:
        # Ctrl-C or SIGTERM: one line saying what was saved, the shell's 128 + signal code.
        print(f"simkit {args.command}: {str(exc) or 'interrupted'}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 130))
    except (ValueError, TypeError, OSError) as exc:
        # User errors (bad cards, bad variant files, bad paths) end with one clear line.
        print(f"simkit {args.command}: error: {exc}", file=sys.stderr)
        return 2
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that a command stops (and cleans up) the same way."""

    exit_code = 128 + signal.SIGTERM


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


if __name__ == "__main__":
    sys.exit(main())
