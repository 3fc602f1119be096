"""The report and the command line: README, tables, figures; errors before any work."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import polars as pl
import pytest

from simkit.cli import main
from simkit.report import (
    SECTIONS,
    STUDIES_DIR,
    Page,
    build_report,
    est,
    grid,
    render_markdown,
    report_variants,
    with_compare,
)
from simkit.report.writer import page_markdown
from simkit.simulate import load_result
from simkit.variants import load_variant

# The module, not the function: ``simkit.simulate`` is re-exported as the function.
sim = importlib.import_module("simkit.simulate")


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    build_report(out, n_games=500, variants=["guangxi", "hongkong"], n_jobs=1, progress=False)
    return out


def test_report_has_readme_tables_and_figures(report_dir: Path) -> None:
    readme = (report_dir / "README.md").read_text(encoding="utf-8")
    for heading in (
        "Expected score and volatility",
        "Findings",
        "Volatility against guangxi",
        "rule components",
        "Scoops, home runs, fouls",
        "t of the t-formula",
        "simulated against exact",
        "Declaring a special",
        "banker's edge",
        "Payouts against rarity",
        "Score distributions",
        "Dun categories",
        "Convergence",
    ):
        assert heading in readme, heading
    assert " ± " in readme
    for line in readme.splitlines():
        if line.startswith("!["):
            target = line.split("](")[1].rstrip(")")
            assert (report_dir / target).is_file(), target
    tables = {p.stem for p in (report_dir / "tables").glob("*.parquet")}
    assert {"scores", "paired", "components", "specials", "banker_edge", "payouts"} <= tables
    prov = json.loads((report_dir / "tables" / "provenance.json").read_text())
    assert [v["name"] for v in prov["variants"]] == ["guangxi", "hongkong", "hongkong+top-card"]


def test_banker_edge_with_and_without_top_card(report_dir: Path) -> None:
    """Each banker variant is played again with 食夹棍 (compare = top-card) on the same deals."""
    edge = pl.read_parquet(report_dir / "tables" / "banker_edge.parquet")
    assert edge["variant"].to_list() == ["hongkong", "hongkong+top-card"]
    assert edge["compare"].to_list() == ["full", "top-card"]
    assert (edge["n"] == 500).all()


def test_with_compare_changes_only_the_comparison_and_the_key() -> None:
    hk = load_variant("hongkong")
    twin = with_compare(hk, "top-card")
    assert twin.scoring.compare == "top-card" and hk.scoring.compare == "full"
    assert twin.key != hk.key and twin.key.startswith("hongkong+top-card@")
    assert twin.specials == hk.specials and twin.ranking == hk.ranking
    variants, tables = report_variants(["guangxi", "hongkong"])
    assert [v.name for v in variants] == ["guangxi", "hongkong", "hongkong+top-card"]
    assert tables == {"hongkong+top-card": "hongkong"}


def test_est_shows_two_significant_digits_of_the_se() -> None:
    assert est(1.23456, 0.0123) == "1.235 ± 0.012"
    assert est(12.3456, 1.5) == "12.3 ± 1.5"
    assert est(float("nan"), 1.0) == "–"


def test_report_refuses_bad_input_before_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sim, "play_chunk", lambda *a: pytest.fail("work started"))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="not a folder"):
        build_report(blocker / "out", n_games=10)
    with pytest.raises(ValueError, match="n_games"):
        build_report(tmp_path / "a", n_games=0)
    with pytest.raises(ValueError, match="unknown variant"):
        build_report(tmp_path / "b", n_games=10, variants=["atlantis"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_cli_simulate_compare_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "sim"
    code = main(
        [
            "simulate",
            "western-2-4",
            "--games",
            "200",
            "--jobs",
            "1",
            "--quiet",
            "--seed",
            "3",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert (out / "scores.parquet").is_file() and (out / "provenance.json").is_file()
    assert "western-2-4" in capsys.readouterr().out
    code = main(
        ["compare", "western-2-4", "wiki-points", "--games", "200", "--jobs", "1", "--quiet"]
    )
    assert code == 0
    assert "mean square score" in capsys.readouterr().out
    assert main(["simulate", "atlantis", "--games", "10", "--quiet"]) == 2
    assert "unknown variant 'atlantis'" in capsys.readouterr().err
    assert main(["simulate", "guangxi", "--games", "0", "--quiet"]) == 2
    assert "n_games" in capsys.readouterr().err
    assert main(["simulate", "guangxi", "--players", "9", "--quiet"]) == 2
    assert "2 to 8 players" in capsys.readouterr().err
    assert main(["compare", "guangxi", "--games", "10", "--quiet"]) == 2
    assert not (tmp_path / "nothing").exists()


def test_cli_exact_writes_tables(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["exact", "western-2-4", "hongkong", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "hongkong" in text and "六对半" in text
    assert (tmp_path / "hongkong-specials.parquet").is_file()


def test_cli_report_redraws_from_saved_tables(
    report_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simkit report --from`` rebuilds the same README from the tables, simulating nothing."""
    monkeypatch.setattr(sim, "play_chunk", lambda *a: pytest.fail("simulated"))
    assert main(["report", "--from", str(report_dir / "tables"), "--out", str(tmp_path)]) == 0
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == (
        report_dir / "README.md"
    ).read_text(encoding="utf-8")
    assert (tmp_path / "figures" / "payouts.svg").is_file()


def test_report_shows_a_dash_for_what_never_happened(report_dir: Path) -> None:
    """Rules a variant lacks and specials never dealt read "–" with a note, not 0.000 ± 0.000."""
    readme = (report_dir / "README.md").read_text(encoding="utf-8")
    events = _section(readme, "Scoops, home runs")
    # hongkong scores no scoop or home run; nobody fouls.
    assert "| hongkong | – | – | – | – |" in events
    assert "`–`: not once in these games" in events
    assert "0.000 ± 0.000" not in events
    specials = _section(readme, "Special hands")
    assert "| clean-dragon | 至尊清龙 | 108 | – |" in specials
    assert "`–`: not dealt once in these 2,000 hands" in specials


def test_report_explains_the_t_formula_one_in_and_justified(report_dir: Path) -> None:
    readme = (report_dir / "README.md").read_text(encoding="utf-8")
    assert "In guangxi the t-formula replaces the dun points" in readme
    assert "`one in (as best)` N: one hand of 13 cards in N has this special as its best" in readme
    assert "`justified`: the payout the hand can claim on both counts" in readme


def test_render_markdown_joins_the_sections(report_dir: Path) -> None:
    result = load_result(report_dir / "tables")
    page = Page(result)
    blocks = [block for section in SECTIONS for block in section(page)]
    assert render_markdown(result) == page_markdown(page)
    headings = [b for b in render_markdown(result).split("\n") if b.startswith("## ")]
    assert headings[0] == "## Findings" and headings[-1] == "## Reproduce"
    assert len(headings) == len([b for b in blocks if b.startswith("## ")])
    numbered = [h for h in headings if re.match(r"## \d+\. ", h)]
    assert [int(h.split()[1].rstrip(".")) for h in numbered] == list(range(1, len(numbered) + 1))


def test_grid_pivots_a_long_table_in_the_given_order() -> None:
    long = pl.DataFrame(
        {
            "variant": ["a", "a", "b"],
            "event": ["x", "y", "x"],
            "rate": [0.5, 0.25, 0.125],
            "se": [0.01, 0.01, 0.01],
        }
    )
    cell = lambda r: f"{r['rate']}"  # noqa: E731
    assert grid(long, "variant", ["b", "a", "c"], "event", ["y", "x", "z"], cell, "–") == [
        ["b", "–", "0.125", "–"],
        ["a", "0.25", "0.5", "–"],
        ["c", "–", "–", "–"],
    ]


def test_regret_section_reads_the_repository_measurement(
    report_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import simkit

    # the shipped measurement sits inside the package
    assert STUDIES_DIR.is_relative_to(Path(simkit.__file__).parent)
    assert (STUDIES_DIR / "regret.json").is_file()
    rows = [
        {"variant": "guangxi", "players": 4, "seat": "any", "regret": 0.157, "ci_low": 0.086,
         "ci_high": 0.228, "share_differs": 0.55},
        {"variant": "hongkong", "players": 4, "seat": "banker", "regret": 0.074,
         "ci_low": 0.052, "ci_high": 0.097, "share_differs": 0.54},
        {"variant": "hongkong", "players": 4, "seat": "player", "regret": 0.023,
         "ci_low": 0.015, "ci_high": 0.032, "share_differs": 0.5},
        {"variant": "guangxi", "players": 2, "seat": "any", "regret": 9.0, "ci_low": 8.0,
         "ci_high": 10.0, "share_differs": 0.5},
    ]  # fmt: skip
    meta = {"strategy": "max-ev", "hands": 200, "rollouts": [300, 300]}
    measured = tmp_path / "regret.json"
    measured.write_text(json.dumps({"meta": meta, "rows": rows}), encoding="utf-8")
    readme = render_markdown(load_result(report_dir / "tables"), studies=tmp_path)
    section = _section(readme, "How much the strategy gives away")
    assert "| guangxi |  | 0.157 | 0.086 to 0.228 | 55% |" in section
    assert "| hongkong | banker | 0.074 | 0.052 to 0.097 | 54% |" in section
    assert "| hongkong | player | 0.023 |" in section
    assert "9.000" not in section  # the 2-player row: this page plays 4
    assert "gives away that much per hand" in section
    assert re.search(r"hongkong -?[\d.]+ ± [\d.]+ against 0\.074", section)  # edge and regret
    assert "Not measured: hongkong+top-card" in section


def test_regret_section_shows_the_more_precise_row_where_one_was_measured(
    report_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import simkit.report as report

    def row(variant, seat, regret, **protocol):  # type: ignore[no-untyped-def]
        return {"variant": variant, "players": 4, "seat": seat, "regret": regret,
                "ci_low": regret - 0.01, "ci_high": regret + 0.01, "share_differs": 0.3,
                **protocol}  # fmt: skip

    meta = {"strategy": "expected-score", "hands": 200, "rollouts": [300, 300]}
    base = [row("guangxi", "any", 0.052), row("hongkong", "banker", 0.0056)]
    precise = [row("guangxi", "any", 0.0251, hands=2000, selection_rollouts=1000,
                   evaluation_rollouts=1000, strategy="expected-score", measured_as="max-ev"),
               row("hongkong", "banker", 0.9, strategy="max-ev")]  # another strategy's: not shown  # fmt: skip
    measured = tmp_path / "regret.json"
    measured.write_text(json.dumps({"meta": meta, "rows": base}), encoding="utf-8")
    (tmp_path / report.REGRET_PRECISE_NAME).write_text(json.dumps({"rows": precise}), "utf-8")
    readme = render_markdown(load_result(report_dir / "tables"), studies=tmp_path)
    section = _section(readme, "How much the strategy gives away")
    # a row measured as another strategy that plays the same settings there: marked
    assert "| guangxi † |  | 0.025 | 0.015 to 0.035 | 30% | 2,000 (1000 + 1000) |" in section
    assert "† measured as `max-ev`, whose settings `expected-score` plays" in section
    assert "0.052" not in section
    assert "| hongkong | banker | 0.006 | -0.004 to 0.016 | 30% | 200 (300 + 300) |" in section
    assert "regret-4p-2000-default.md" in section
    (tmp_path / report.REGRET_PRECISE_NAME).write_text("{ not json", "utf-8")
    readme = render_markdown(load_result(report_dir / "tables"), studies=tmp_path)
    assert "`regret-4p-2000-default.json` could not be read" in readme


def test_regret_section_says_how_to_make_a_missing_measurement(
    report_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = render_markdown(load_result(report_dir / "tables"), studies=tmp_path / "absent")
    section = _section(readme, "How much the strategy gives away")
    assert "no `regret.json` in the study folder" in section
    assert "python -m experiments.pipelines.regret --strategy expected-score" in section
    assert "simkit regret --variant NAME" in section


def _section(readme: str, title: str) -> str:
    """The text of the numbered section whose heading starts with ``title``."""
    found = re.search(rf"^## \d+\. {re.escape(title)}.*?(?=^## )", readme, re.M | re.S)
    assert found, title
    return found.group(0)
