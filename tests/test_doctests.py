"""The examples in the docstrings run as written."""

import doctest
import importlib

import pytest

MODULES = ["simkit", "simkit.cards", "simkit.deal", "simkit.evaluate", "simkit.variants"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
