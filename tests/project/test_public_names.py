"""``dir(simkit)``: what a user may call, not the package's own imports."""

from __future__ import annotations

import importlib

import simkit


def test_dir_lists_only_the_public_api():
    """The exports and the submodules loaded so far; none of ``Any``, ``TYPE_CHECKING``,
    ``annotations`` or the modules ``simkit/__init__.py`` imports for itself."""
    listed = set(dir(simkit))
    assert set(simkit.__all__) <= listed
    for private in ("Any", "TYPE_CHECKING", "annotations", "importlib", "sys", "types"):
        assert private not in listed
    importlib.import_module("simkit.cards")  # a submodule, once imported, is listed
    assert "cards" in dir(simkit)
    assert all(not name.startswith("_") or name == "__version__" for name in dir(simkit))
