"""The options the commands share, spelled and defaulted once.

``--variant NAME`` chooses a variant (commands that play several take it again, or a comma
list, or ``all``); ``--players``, ``--seed``, ``--jobs`` and ``--out`` mean the same in every
command.  Nothing here imports a numerical module.
"""

from __future__ import annotations

import argparse
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path

# The report's seed (simkit.report.DEFAULT_SEED): every command draws the same deals by default,
# and ``simkit report`` without --seed writes the committed tables.
DEFAULT_SEED = 20_260_101
DEFAULT_PLAYERS = 4
DEFAULT_JOBS = -1

#: What every --strategy option accepts (simkit.arrange's registry; kept literal so that --help
#: imports no kernel module).
STRATEGY_CHOICES = (
    "expected-score-rerank (the default), expected-score, max-ev, greedy, random-legal, "
    "rollout (the slow reference: the default's best splits valued by rollouts), or a trained "
    ".npz table; options as name:key=value,... (e.g. expected-score:places=true; a wrong key's "
    "error lists the valid ones)"
)
VARIANT_HELP = "variant name or path of a .toml file (default: {simkit.variants.DEFAULT_VARIANT})"


def add_variant_option(
    parser: argparse.ArgumentParser, *, many: bool = False, help: str | None = None
) -> None:
    """``--variant NAME``: one variant, or with ``many`` any number (repeat the option or give a
    comma list; ``all`` is every shipped variant).  Read it with :func:`chosen_variant` or
    :func:`chosen_variants`."""
    if not many:
        parser.add_argument("--variant", metavar="NAME", default=None, help=help or VARIANT_HELP)
        return
    parser.add_argument(
        "--variant",
        metavar="NAME",
        action="append",
        default=None,
        help=help
        or "variant name or path; repeat it or give a comma list, 'all' for every shipped one "
        "(default: {simkit.variants.DEFAULT_VARIANT})",
    )


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    """Variant names as positional arguments: the older spelling of ``--variant``, still read."""
    parser.add_argument("variants", nargs="*", default=[], help=argparse.SUPPRESS)


def chosen_variant(args: argparse.Namespace) -> str:
    """The variant of a one-variant command (the default variant if none is given)."""
    from simkit.variants import DEFAULT_VARIANT

    return str(args.variant) if args.variant is not None else DEFAULT_VARIANT


def given_variants(args: argparse.Namespace) -> list[str]:
    """The variant names given to a several-variant command, from ``--variant`` (repeated or
    comma lists) and any positional names, in order; empty if none."""
    given = [*getattr(args, "variants", []), *(args.variant or [])]
    return [name.strip() for item in given for name in str(item).split(",") if name.strip()]


def chosen_variants(args: argparse.Namespace) -> list[str]:
    """:func:`given_variants`, or the default variant if none is given."""
    from simkit.variants import DEFAULT_VARIANT

    return given_variants(args) or [DEFAULT_VARIANT]


_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+")
_MAX_DIGITS = 18  # a count in scientific notation up to 1e18 (an int64 holds it)


def count(text: str) -> int:
    """A whole number as a user may write one: ``1000000``, ``1_000_000``, ``1,000,000`` (commas
    every three digits) or integer-valued scientific notation (``1e6``, ``2.5e4``).

    Raises ``argparse.ArgumentTypeError`` (argparse prints it under the option's name) for a
    number that is not whole, such as ``1.5`` or ``1e-3``, and for anything not a number.
    """
    spelled = text.strip()
    if _THOUSANDS.fullmatch(spelled):
        spelled = spelled.replace(",", "")
    try:
        return int(spelled, 10)
    except ValueError:
        pass
    try:
        value = Decimal(spelled)
    except InvalidOperation:
        value = None
    if value is None or "_" in spelled or not value.is_finite():
        raise argparse.ArgumentTypeError(
            f"expected a whole number such as 1000000, 1_000_000, 1,000,000 or 1e6; got {text!r}"
        )
    if value.adjusted() > _MAX_DIGITS:  # before to_integral: 1e100000000 has that many digits
        raise argparse.ArgumentTypeError(f"{text!r} is too large (at most 1e{_MAX_DIGITS})")
    if value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    return int(value)


def add_players_option(parser: argparse.ArgumentParser) -> None:
    """``--players N``: the table size (default :data:`DEFAULT_PLAYERS`), checked by the
    library, not here."""
    parser.add_argument(
        "--players", type=int, default=DEFAULT_PLAYERS, help="players at the table (2-8)"
    )


def add_seed_option(parser: argparse.ArgumentParser) -> None:
    """``--seed N``: the random seed (default :data:`DEFAULT_SEED`, the report's)."""
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="random seed: same seed, same results"
    )


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs N``: worker processes (default :data:`DEFAULT_JOBS`, every core)."""
    parser.add_argument(
        "--jobs", type=int, default=DEFAULT_JOBS, help="worker processes (-1: every core)"
    )


def add_strategy_option(parser: argparse.ArgumentParser, what: str = "how hands are set") -> None:
    """``--strategy``: a registered strategy's name with its options (:data:`STRATEGY_CHOICES`)."""
    parser.add_argument(
        "--strategy",
        default="expected-score-rerank",
        metavar="STRATEGY",
        help=f"{what}: {STRATEGY_CHOICES}",
    )


def add_out_option(
    parser: argparse.ArgumentParser, help: str, *, default: Path | None = None, file: bool = False
) -> None:
    """``--out``: where results go (a folder, or with ``file`` one file)."""
    parser.add_argument(
        "--out", type=Path, default=default, metavar="FILE" if file else "DIR", help=help
    )
