"""``simkit variants``: list, show, docs; docs/variants.md is current."""

from __future__ import annotations

from pathlib import Path

from conftest import N_VARIANTS

from simkit.cli import main
from simkit.variants import deck_option_names, load_variant, variant_names
from simkit.variants.docs import render_variants_doc

DOCS = Path(__file__).resolve().parents[2] / "docs" / "variants.md"


def test_list_names_every_variant_then_the_deck_options(capsys) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    variants, decks = out.strip().split("\n\n")
    lines = variants.splitlines()
    assert len(lines) == len(variant_names()) == N_VARIANTS
    for name, line in zip(variant_names(), lines, strict=True):
        assert line.startswith(name)
    heading, *deck_lines = decks.splitlines()
    assert heading.startswith("deck options")
    assert len(deck_lines) == len(deck_option_names()) == 4
    for name, line in zip(deck_option_names(), deck_lines, strict=True):
        assert line.startswith(name)
        assert load_variant(name).title in line


def test_show_prints_the_resolved_rules(capsys) -> None:
    assert main(["variants", "show", "guangxi-regional"]) == 0
    out = capsys.readouterr().out
    assert "[scoring.duns]" in out
    assert "front = { trips = 4 }" in out  # its own value
    assert "penalty = 'biggest-hand'" in out  # inherited from guangxi
    assert "[specials.three-trips-and-quads]" in out


def test_show_a_user_file(tmp_path, capsys) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        '[variant]\nname = "mine"\nextends = "hongkong"\n[scoring]\ncompare = "top-card"\n',
        encoding="utf-8",
    )
    assert main(["variants", "show", str(path)]) == 0
    assert "compare = 'top-card'" in capsys.readouterr().out


def test_show_unknown_variant_is_a_clear_error(capsys) -> None:
    assert main(["variants", "show", "atlantis"]) == 2
    err = capsys.readouterr().err
    assert "unknown variant 'atlantis'" in err
    assert "did you mean" not in err  # nothing is close
    assert "guangxi-two-decks" in err  # the deck options are listed too


def test_unknown_variant_suggests_the_close_name(capsys) -> None:
    assert main(["variants", "show", "guangxy"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'guangxi'?" in err
    assert "deck options" in err and "qiantang-five-suits" in err


def test_docs_file_is_current() -> None:
    """docs/variants.md is generated: regenerate with `simkit variants docs --out
    docs/variants.md`."""
    assert DOCS.read_text(encoding="utf-8") == render_variants_doc()


def test_docs_check_flag(tmp_path) -> None:
    out = tmp_path / "v.md"
    assert main(["variants", "docs", "--out", str(out)]) == 0
    assert main(["variants", "docs", "--out", str(out), "--check"]) == 0
    out.write_text("stale\n", encoding="utf-8")
    assert main(["variants", "docs", "--out", str(out), "--check"]) == 1


def test_docs_side_by_side_payouts() -> None:
    text = render_variants_doc()
    assert "| 一条龙 dragon | 36 (#2) | 36 (#2) | 26 (#2) | 13 (#2) |" in text
    assert "| front trips | 1 | 3 | 4 | 3 |" in text
