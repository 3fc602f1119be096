"""``python -m simkit``: the command line."""

import sys

from simkit.cli import main

if __name__ == "__main__":  # not when a test collector imports this module
    sys.exit(main())
