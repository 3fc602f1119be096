"""``python -m simkit``: the command line."""

import sys

from simkit.cli import main

sys.exit(main())
