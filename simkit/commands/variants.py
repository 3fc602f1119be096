"""``simkit variants``: list the variants, show one's resolved rules, write docs/variants.md."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simkit.commands._options import add_out_option


def register(subparsers: Any) -> None:
    """Add ``simkit variants`` to ``subparsers``, with its actions ``show
    VARIANT`` and ``docs`` (``--out``, ``--check``); :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "variants",
        help="list the rule variants, show one, or write docs/variants.md",
        description="Without an action: list the shipped variants, then the deck options.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    show = actions.add_parser("show", help="print a variant's resolved rules")
    show.add_argument("variant", help="a shipped name or the path of a .toml file")
    docs = actions.add_parser("docs", help="write the side-by-side variant document")
    add_out_option(docs, "file to write (default: stdout)", file=True)
    docs.add_argument(
        "--check", action="store_true", help="exit 1 if --out is not current (write nothing)"
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Without an action, list the shipped variants and the deck options; ``show``
    prints a variant's resolved rules; ``docs`` writes the side-by-side document to
    ``--out`` (stdout without it).  Returns exit status 0, or 1 where ``docs --check``
    finds ``--out`` not current."""
    from simkit.variants import deck_option_names, load_variant, variant_names
    from simkit.variants.docs import render_variant, render_variants_doc

    if args.action is None:
        names, decks = variant_names(), deck_option_names()
        width = max(len(n) for n in [*names, *decks])
        for name in names:
            v = load_variant(name)
            print(f"{name:<{width}}  {v.scoring.topology:<9}  {v.title}")
        print()
        # they load by name like a variant; not in "all" (no win tables are trained for them)
        print("deck options (a shipped variant played with two decks, a fifth suit or jokers):")
        for name in decks:
            v = load_variant(name)
            print(f"{name:<{width}}  {v.scoring.topology:<9}  {v.title}")
        return 0
    if args.action == "show":
        sys.stdout.write(render_variant(load_variant(args.variant)))
        return 0
    text = render_variants_doc()
    if args.out is None:
        sys.stdout.write(text)
        return 0
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.is_file() else ""
        if current != text:
            print(
                f"{args.out} is not current: run simkit variants docs --out {args.out}",
                file=sys.stderr,
            )
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    return 0
