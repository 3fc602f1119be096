"""simkit's own error: a problem with what the caller gave (cards, a variant, an option, a path).

The command line prints a :class:`SimkitError` as one line and exits with status 2; any other
exception is a bug and keeps its traceback.  It subclasses :class:`ValueError`, so code that
catches ``ValueError`` for bad input keeps working.

>>> from simkit.errors import SimkitError
>>> issubclass(SimkitError, ValueError)
True
"""

from __future__ import annotations


class SimkitError(ValueError):
    """Input simkit cannot use; the message names the value and says what would be valid."""
