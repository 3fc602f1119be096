"""Subcommands of the ``simkit`` command line, one module each.

Each module here defines ``register(subparsers)``, which adds its subcommand(s) and sets
``func`` on the parser it adds (called with the parsed ``argparse.Namespace``, returning an
exit code).  :mod:`simkit.cli` discovers them, so adding a command never edits the dispatcher.
A module imports numerical code only inside ``func``, so that ``--help`` stays instant; modules
whose name starts with ``_`` hold what the commands share (:mod:`simkit.commands._options`).
"""
