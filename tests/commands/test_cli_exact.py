"""``simkit exact``'s printed output: odds a reader can read, a sentence where a table would be
empty."""

from __future__ import annotations

import math

import pytest

from simkit.cli import main
from simkit.commands.exact import format_one_in


@pytest.mark.parametrize(
    ("odds", "text"),
    [
        (635_013_559_600 / 4, "158,753,389,900"),  # 至尊清龙: 4 hands of C(52, 13)
        (9462.439412, "9,462"),
        (252.573726, "253"),
        (3.5172, "3.52"),
        (2.13e17, "2.13e+17"),
        (math.inf, "never"),
        (None, "never"),
    ],
)
def test_one_in_odds_are_integers_with_thousands_separators(odds, text):
    assert format_one_in(odds) == text


def test_exact_prints_readable_odds_and_says_why_a_variant_has_none(capsys):
    assert main(["exact", "--variant", "western-2-4,guangxi"]) == 0
    out = capsys.readouterr().out
    western, guangxi = out.split("guangxi (guangxi@")
    assert "shape: (0" not in western and "┌" not in western  # no empty table
    assert "western-2-4 has no special hands" in western
    assert "--out DIR" in western  # and what it can show instead
    assert "158,753,389,900" in guangxi  # 至尊清龙's one in, once as one_in, once as best
    assert guangxi.count("158,753,389,900") == 2
    assert "e11" not in guangxi
    assert "2,514,171,088" in guangxi  # 六对半's count
