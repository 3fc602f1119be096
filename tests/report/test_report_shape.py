"""The report is shaped by what the run holds and leads with its findings.

A one-variant run (``simkit simulate --variant western-2-4``, then ``simkit report --from``)
makes no claim of comparisons, shows no empty table or figure and no other variant's study
rows, and its "Reproduce" command plays the same tables again.  A report never shows a row
that compares a thing with itself, and gives the volatility of a variant against the base as
an SD ratio with its CI."""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path

import polars as pl
import pytest

from simkit.cli import main
from simkit.report import STUDIES_DIR, Page, build_report, phases_lines, render_markdown
from simkit.report.sections import sd_ratios
from simkit.simulate import load_result

SELF_COMPARISONS = re.compile(r"(?<![\d.])0\.000 ± 0\.000|\+0\.000 \(\+0\.000 to \+0\.000\)")


@pytest.fixture(scope="module")
def one_variant(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("one")
    args = ["--games", "300", "--seed", "4", "--jobs", "1", "--quiet"]
    # the run keeps its games, so that the report made from it has the par sheets too
    run = ["simulate", "--variant", "western-2-4", *args, "--out", str(root / "t"), "--keep-games"]
    assert main(run) == 0
    assert main(["report", "--from", str(root / "t"), "--out", str(root / "r"), "--quiet"]) == 0
    return root


def _empty_tables(readme: str) -> list[str]:
    """The header lines of Markdown tables with no row."""
    lines = readme.splitlines()
    return [
        lines[i - 1]
        for i, line in enumerate(lines)
        if line.startswith("|---") and not (i + 1 < len(lines) and lines[i + 1].startswith("|"))
    ]


def test_a_one_variant_report_is_shaped_by_its_run(one_variant: Path) -> None:
    report = one_variant / "r"
    readme = (report / "README.md").read_text(encoding="utf-8")
    assert "every variant" not in readme and "every one of the" not in readme
    assert "played under western-2-4" in readme
    assert not _empty_tables(readme), _empty_tables(readme)
    # no comparison of variants, no payout figure (western-2-4 pays no special)
    assert "Volatility against" not in readme
    assert "payouts.png" not in readme and not (report / "figures" / "payouts.png").exists()
    for line in readme.splitlines():
        if line.startswith("!["):
            target = line.split("](")[1].rstrip(")")
            assert (report / target).is_file(), target
    # no other variant's phase, deck or banker section
    for other in ("qiantang", "philippines", "guangxi", "hongkong"):
        assert other not in readme, other
    assert "## Decks" not in readme and "What the phases are worth" not in readme
    assert "banker's edge" not in readme.lower()
    assert readme.index("## Findings") < readme.index("|---")


def test_a_one_variant_reports_command_reproduces_it(one_variant: Path, tmp_path: Path) -> None:
    readme = (one_variant / "r" / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Reproduce")[1].split("```")[1].strip().splitlines()
    # western-2-4 has no banker, so ``simkit report`` plays exactly this run
    assert block == [
        "simkit report --variant western-2-4 --games 300 --seed 4 --out results/report"
    ]
    for line in block:
        argv = shlex.split(line)[1:]
        argv = [a.replace("results/report", str(tmp_path / "again")) for a in argv]
        simulates = "--from" not in argv
        assert main([*argv, *(["--jobs", "1"] if simulates else []), "--quiet"]) == 0
    again = tmp_path / "again"
    for table in (one_variant / "t").glob("*.parquet"):
        assert pl.read_parquet(again / "tables" / table.name).equals(pl.read_parquet(table))
    assert (again / "README.md").read_text(encoding="utf-8").split("commit")[1] == readme.split(
        "commit"
    )[1]


@pytest.fixture(scope="module")
def two_variants(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("two")
    build_report(out, n_games=400, variants=["guangxi", "hongkong"], n_jobs=1, progress=False)
    return out


def test_the_report_leads_with_its_findings(two_variants: Path) -> None:
    readme = (two_variants / "README.md").read_text(encoding="utf-8")
    findings = readme.split("## Findings")[1].split("## The variants")[0]
    assert readme.index("## Findings") < readme.index("|---")  # before any table
    assert "is the most volatile variant" in findings
    assert "The banker's edge" in findings and "hongkong" in findings
    assert "What each rule is worth" in findings
    assert "How much skill matters" in findings
    figures = re.findall(r"\(figures/(\w+)\.png\)", findings)
    assert figures == ["score_distribution", "scores", "components", "strategy"]
    assert all((two_variants / "figures" / f"{f}.png").is_file() for f in figures)
    # the reproduce command is the report's own
    assert "simkit report --variant guangxi,hongkong --games 400" in readme


def test_no_row_compares_a_thing_with_itself(two_variants: Path) -> None:
    readme = (two_variants / "README.md").read_text(encoding="utf-8")
    assert not SELF_COMPARISONS.findall(readme)
    assert "(fixed)" in readme or "declared" in readme
    phases = "\n".join(phases_lines(STUDIES_DIR / "phases"))
    assert not SELF_COMPARISONS.findall(phases)
    assert "key=" not in phases and "sd_with" not in phases


def test_volatility_is_an_sd_ratio_with_its_paired_ci(two_variants: Path) -> None:
    result = load_result(two_variants / "tables")
    ratios = {r["variant"]: r for r in sd_ratios(Page(result))}
    assert set(ratios) == {"hongkong", "hongkong+top-card"}
    ratio = ratios["hongkong"]
    scores = result["scores"].filter(pl.col("seat") == "all")
    sd = dict(zip(scores["variant"], scores["sd"], strict=True))
    assert ratio["ratio"] == pytest.approx(sd["hongkong"] / sd["guangxi"], rel=1e-3)
    assert ratio["low"] < ratio["ratio"] < ratio["high"]
    # paired: narrower than the interval two independent runs would give
    se = dict(zip(scores["variant"], scores["sd_se"], strict=True))
    independent = math.hypot(se["hongkong"] / sd["hongkong"], se["guangxi"] / sd["guangxi"])
    assert math.log(ratio["high"] / ratio["low"]) / (2 * 1.96) < independent
    readme = render_markdown(result)
    assert "| variant | player SD | SD / SD of guangxi | 95% CI |" in readme
    assert "mean square score" not in readme and "points²" not in readme


def _provenance(*variants: tuple[str, bool], strategy: str = "expected-score-rerank") -> dict:
    return {
        "n_games": 500,
        "seed": 3,
        "n_players": 4,
        "strategy": strategy,
        "variants": [{"name": n, "banker": b, "path": f"{n}.toml"} for n, b in variants],
    }


def test_the_reproduce_command_follows_the_run() -> None:
    from simkit.report import reproduce_command
    from simkit.variants import variant_names

    # what ``simkit report`` plays: each banker variant followed by its 食夹棍 twin
    report = _provenance(("guangxi", False), ("hongkong", True), ("hongkong+top-card", True))
    assert reproduce_command(report) == [
        "simkit report --variant guangxi,hongkong --games 500 --seed 3 --out results/report"
    ]
    # a banker variant without its twin: only ``simulate`` plays that
    alone = _provenance(("hongkong", True), strategy="max-ev")
    assert reproduce_command(alone) == [
        "simkit simulate --variant hongkong --games 500 --seed 3 --strategy max-ev "
        "--out results/report-tables",
        "simkit report --from results/report-tables --out results/report",
    ]
    every = _provenance(*[(n, False) for n in variant_names()])
    assert reproduce_command(every)[0].startswith("simkit report --games 500")
