"""The ``simkit`` command line: ``simkit <command> ...``; ``simkit --help`` lists commands.

Commands live in :mod:`simkit.commands`, one module each, discovered here.  Building the parser
imports no numerical module (each command imports what it needs when it runs), so ``--help``
answers at once.  Every option's help ends with its default.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

import simkit
import simkit.commands
from simkit.errors import SimkitError

# Errors a user can fix, printed as one line with exit status 2: simkit's own, and a path that
# cannot be read or written.  Every other exception is a bug and keeps its traceback.
USER_ERRORS: tuple[type[Exception], ...] = (SimkitError, OSError)

# A help text may name a library constant as {simkit.module.NAME} or {simkit.module.NAME:,}; it
# is read only when help is shown, so the parser never imports the module that defines it.
_CONSTANT = re.compile(r"\{(simkit(?:\.\w+)*)\.(\w+)(:[^{}]*)?\}")


def _constant_text(match: re.Match[str]) -> str:
    value = getattr(importlib.import_module(match.group(1)), match.group(2))
    return format(value, (match.group(3) or ":")[1:])


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Appends ``(default: X)`` to an option's help unless the help already names its default
    (options whose default is None or off say in words what happens without them)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or action.default is None or action.default is False:
            return text
        return super()._get_help_string(action) or text

    def _expand_help(self, action: argparse.Action) -> str:
        return _CONSTANT.sub(_constant_text, super()._expand_help(action))


class _Version(argparse.Action):
    """``--version``, with the version read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "print the version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"simkit {simkit.__version__}")
        parser.exit()


class Parser(argparse.ArgumentParser):
    """An argument parser with :class:`HelpFormatter` (its subparsers inherit it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def command_modules() -> list[str]:
    """The names of the command modules in :mod:`simkit.commands` (``_``-names are helpers)."""
    return sorted(
        info.name
        for info in pkgutil.iter_modules(simkit.commands.__path__)
        if not info.name.startswith("_")
    )


def build_parser() -> Parser:
    """The ``simkit`` parser: ``--version`` and one subcommand per module of
    :func:`command_modules`, each added by its module's ``register``."""
    parser = Parser(
        prog="simkit",
        description="Monte Carlo simulation and rule-balance research for 十三水 (Thirteen Water).",
    )
    parser.add_argument("--version", action=_Version)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in command_modules():
        importlib.import_module(f"simkit.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` names (None: ``sys.argv[1:]``) and return its exit status:
    the command's own (0 on success), 2 with the help printed where no command is given, 2
    with one line on stderr for an error a user can fix (:data:`USER_ERRORS`), 128 + the
    signal's number for Ctrl-C (130) or SIGTERM.  Any other exception propagates with its
    traceback; argparse exits (``SystemExit``) on a malformed command line."""
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
    except USER_ERRORS as exc:
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
