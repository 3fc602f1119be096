"""The scripts under ``experiments/``, run as a user runs them: ``python -m
experiments.<role>.<name>`` from the repository root, in a fresh interpreter.

Every script runs with tiny arguments (numpyro's ``test/test_examples.py`` pattern: a script
that no longer runs fails here, not in the hands of whoever regenerates a result); no script
imports another; and what the kept pipelines promise (the same rows in one or two processes,
runs merged against their targets, the table files' check) is shown on their output files.
No test imports a script.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simkit.arrange import WinTables, shipped_table_path
from simkit.arrange.classes import n_fine_classes

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = ROOT / "experiments"
SUPPORT = "experiments.support"

#: Each kept script's tiny run: steps of (module under experiments/, arguments), ``{out}`` a
#: fresh folder of the test.  A step that needs another's output (exact_decks_mc reads
#: exact_decks' tables, regret_targets merges a regret run, the check retrains what was
#: trained) follows it in the same case.
SMOKE: dict[str, list[tuple[str, list[str]]]] = {
    "bench_rank": [
        ("benchmarks.bench_rank", ["--hands", "2000", "--peer-hands", "200", "--deal-games",
                                   "1000", "--out", "{out}"]),
    ],
    "bench_specials": [
        ("benchmarks.bench_specials", ["--games", "1000", "--peer-hands", "20", "--out", "{out}"]),
    ],
    "bench_score": [
        ("benchmarks.bench_score", ["--games", "2000", "--repeats", "1", "--out", "{out}"]),
    ],
    "bench_arrange": [
        ("benchmarks.bench_arrange", ["--hands", "40", "--exhaustive-hands", "2",
                                      "--count-hands", "2", "--out", "{out}"]),
    ],
    "bench_simulate": [
        ("benchmarks.bench_simulate", ["--games", "256", "--all-games", "256", "--before", "",
                                       "--variants", "guangxi,western-2-4", "--stage-games", "256",
                                       "--out", "{out}"]),
    ],
    "bench_rank_decks": [
        ("benchmarks.bench_rank_decks", ["--games", "500", "--repeats", "1", "--arrange-hands",
                                         "20", "--out", "{out}"]),
    ],
    "bench_phases": [
        ("benchmarks.bench_phases", ["--games", "16", "--repeats", "1", "--rev", "none",
                                     "--out", "{out}"]),
    ],
    "phase_decided_by_strategy": [
        ("pipelines.phase_decided_by_strategy", ["--out", "{out}/decided.md"]),
    ],
    "bench_rescore": [
        ("benchmarks.bench_rescore", ["--games", "2100", "--repeats", "1", "--before", "none",
                                      "--runs", "{out}", "--out", "{out}"]),
    ],
    "bench_walk": [
        ("benchmarks.bench_walk", ["--hands", "8", "--repeats", "1", "--before", "HEAD",
                                   "--control", "HEAD", "--row", "western-2-4:2:max-ev",
                                   "--out", "{out}"]),
    ],
    "exact_decks": [
        ("pipelines.exact_decks", ["--decks", "1d", "--out", "{out}"]),
        ("pipelines.exact_decks_mc", ["--decks", "1d", "--hands", "2000", "--out", "{out}"]),
    ],
    "deck_volatility": [
        ("pipelines.deck_volatility", ["--batches", "2", "--batch-games", "64", "--out", "{out}"]),
    ],
    "regret": [
        ("pipelines.regret", ["--hands", "3", "--rollouts", "4", "4", "--variants",
                              "western-2-4", "--players", "2", "--seed", "5", "--out", "{out}"]),
        ("pipelines.regret_targets", ["{out}/regret.json", "--out", "{out}/merged"]),
    ],
    "strategy_matters": [
        ("pipelines.strategy_matters", ["--games", "100", "--variants", "guangxi",
                                        "--out", "{out}"]),
    ],
    "skill": [
        ("pipelines.skill", ["--games", "20", "--deals", "2", "--variants", "hongkong",
                             "--out", "{out}"]),
    ],
    # one special off: its win tables are built (about a minute), the others' are shipped
    "rule_worth": [
        ("pipelines.rule_worth", ["--games", "20", "--variants", "hongkong", "--rules",
                                  "special:six-pairs", "--out", "{out}"]),
    ],
    "phase_value_exchange": [
        ("pipelines.phase_value_exchange", ["--games", "200", "--out", "{out}"]),
    ],
    "phase_value_settle": [
        ("pipelines.phase_value_settle", ["--games", "256", "--players", "4", "--out", "{out}"]),
    ],
    "report_tables": [
        ("pipelines.report_tables", [
            *[a for t in ("variant_scores", "component_breakdown", "convergence",
                          "special_frequencies", "special_payouts", "banker_edge")
              for a in ("--table", t)],
            "--games", "200", "--variants", "taiwan", "--jobs", "1", "--out", "{out}"]),
    ],
    "train_tables": [
        ("pipelines.train_tables", ["--variant", "western-2-4", "--players", "2", "--strategy",
                                    "max-ev", "--seed", "3", "--trial", "200", "1",
                                    "--data", "{out}"]),
        ("pipelines.train_tables", ["--check", "--retrain", "--variant", "western-2-4",
                                    "--players", "2", "--strategy", "max-ev", "--seed", "3",
                                    "--trial", "200", "1", "--data", "{out}"]),
    ],
    "restamp_tables": [("pipelines.restamp_tables", ["--check"])],
    "fit_objective": [
        ("pipelines.fit_objective", ["--rows", "guangxi:4", "--hands", "24", "--rollouts", "8",
                                     "--top", "3", "--seed", "5", "--out", "{out}"]),
    ],
    "fit_home_rate": [
        ("pipelines.fit_home_rate", ["--rows", "guangxi:4", "--hands", "24", "--rollouts", "8",
                                     "--top", "3", "--seed", "5", "--out", "{out}"]),
    ],
    "fit_places": [
        ("pipelines.fit_places", ["--rows", "guangxi:4", "--games", "200", "--hands", "24",
                                  "--rollouts", "8", "--check", "24", "8", "--out", "{out}"]),
    ],
    "fit_removal": [("pipelines.fit_removal", ["--rows", "fujian:4", "--games", "200"])],
    "fit_removal_model": [
        ("pipelines.fit_removal_model", ["--rows", "guangxi:4", "--pool-hands", "1024",
                                         "--hands", "100"]),
    ],
    "setting_scores_error": [
        ("studies.setting_scores_error", ["--hands", "2", "--reference", "200", "--out", "{out}"]),
    ],
    "training_schedule": [
        ("studies.training_schedule", ["--rows", "western-2-4:2:player", "--schedules",
                                       "200x1x0.5", "--hands", "4", "--rollouts", "4", "4",
                                       "--out", "{out}"]),
    ],
    "other_deals": [
        ("studies.other_deals", ["--rows", "western-2-4:2:player", "--hands", "4", "--rollouts",
                                 "4", "4", "--trial", "200", "1", "--out", "{out}"]),
    ],
    "fair_bid_fees": [("studies.fair_bid_fees", ["--players", "3"])],
    "joker_naming": [("studies.joker_naming", ["--hands", "200", "--arranged", "4"])],
    "best_response": [
        ("studies.best_response", ["--train-games", "200", "--iterations", "1", "--match-games",
                                   "200", "--out", "{out}"]),
    ],
}  # fmt: skip


def run(module: str, *args: object, ok: bool = True) -> subprocess.CompletedProcess[str]:
    """``python -m experiments.<module> args`` from the repository root; with ``ok``, fail the
    test (showing the script's output) unless it exits 0."""
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + (os.pathsep + path if path else "")}
    proc = subprocess.run(
        [sys.executable, "-m", f"experiments.{module}", *map(str, args)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    if ok and proc.returncode != 0:
        raise AssertionError(
            f"experiments.{module} {' '.join(map(str, args))} exited {proc.returncode}:\n"
            f"{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
        )
    return proc


def scripts() -> list[str]:
    """Every script: ``<role>.<name>`` of each module under experiments/<role>/."""
    return sorted(
        f"{p.parent.name}.{p.stem}" for p in EXPERIMENTS.glob("*/*.py") if p.name != "__init__.py"
    )


# --------------------------------------------------------------------------- every script


def test_every_script_has_a_tiny_run():
    assert sorted({module for steps in SMOKE.values() for module, _ in steps}) == scripts()


def imported_modules(path: Path) -> list[str]:
    """Every module a source file imports, at any depth (``from x import y`` names ``x``)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return names


@pytest.mark.parametrize("module", scripts())
def test_no_script_imports_another(module):
    """A script imports simkit, libraries and :mod:`experiments.support` only: neither another
    script (by its package path) nor a sibling by its bare name, as scripts once did."""
    path = EXPERIMENTS / Path(*module.split(".")).with_suffix(".py")
    names = {p.stem for p in EXPERIMENTS.rglob("*.py")} | {"_timing", "_revision", "_experiment"}
    for name in imported_modules(path):
        if name.startswith("experiments"):
            assert name == SUPPORT, f"{module} imports {name}"
        else:
            assert name.split(".")[0] not in names, f"{module} imports the script {name}"


def test_no_test_imports_a_script():
    """Tests reach the scripts by running them (:func:`run`): what a test checks of a study's
    estimates lives in :mod:`simkit` (:mod:`simkit.skill`), not in a script it imports."""
    importing = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for name in imported_modules(path)
        if name.split(".")[0] == "experiments"
    ]
    assert importing == []


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(SMOKE))
def test_script_runs_with_tiny_arguments(case, tmp_path):
    """Each step exits 0 with tiny arguments, writing under the test's folder only; ``--help``
    describes its options first (argparse, the one invocation style)."""
    for module, args in SMOKE[case]:
        assert "usage:" in run(module, "--help").stdout
        run(module, *(a.replace("{out}", str(tmp_path)) for a in args))


# --------------------------------------------------------------------------- regret


def _regret_rows(out: Path, jobs: int) -> list[dict]:
    run("pipelines.regret", "--hands", 3, "--rollouts", 4, 4, "--variants", "western-2-4",
        "taiwan", "--players", 2, "--seed", 5, "--jobs", jobs, "--out", out)  # fmt: skip
    rows = json.loads((out / "regret.json").read_text())["rows"]
    for r in rows:
        del r["hands_per_s"]  # time, not a figure
    return rows


@pytest.mark.slow
def test_regret_rows_are_the_same_in_one_or_two_processes(tmp_path):
    one = _regret_rows(tmp_path / "jobs1", 1)
    two = _regret_rows(tmp_path / "jobs2", 2)
    assert [(r["variant"], r["seat"]) for r in one] == [
        ("western-2-4", "any"), ("taiwan", "banker"), ("taiwan", "player")
    ]  # fmt: skip
    assert one == two


@pytest.mark.slow
def test_regret_saves_per_hand_regrets_and_plays_other_opponents(tmp_path):
    """``--save-hands`` keeps each row's per-hand regrets (their mean is the row's);
    ``--opponents`` is in the rows and the command; an unknown strategy is refused."""
    out = tmp_path / "greedy"
    run("pipelines.regret", "--strategy", "greedy", "--hands", 4, "--rollouts", 4, 4,
        "--variants", "western-2-4", "--players", 2, "--seed", 5, "--save-hands",
        "--opponents", "expected-score", "--out", out)  # fmt: skip
    run_ = json.loads((out / "regret.json").read_text())
    (row,) = run_["rows"]
    with np.load(out / "regret-hands.npz") as z:
        per_hand = z["western-2-4/2/any/regret"]
        assert z["western-2-4/2/any/differs"].dtype == bool
    assert per_hand.shape == (4,) and np.isclose(per_hand.mean(), row["regret"])
    assert run_["meta"]["opponents"] == "expected-score"
    assert "--opponents expected-score" in run_["meta"]["command"]
    assert run_["meta"]["command"].startswith("python -m experiments.pipelines.regret ")
    assert "opponents who play `expected-score`" in (out / "regret.md").read_text()
    bad = run("pipelines.regret", "--hands", 3, "--rollouts", 4, 4, "--variants", "western-2-4",
              "--players", 2, "--opponents", "telepathy", "--out", out, ok=False)  # fmt: skip
    assert bad.returncode != 0 and "unknown strategy 'telepathy'" in bad.stderr


def _targets_row(variant, players, seat, regret, high, strategy=None):
    row = {"variant": variant, "players": players, "seat": seat, "regret": regret,
           "ci_low": regret - 0.01, "ci_high": high, "share_differs": 0.3}  # fmt: skip
    return row if strategy is None else {**row, "strategy": strategy}


_META = {"command": "experiments/regret.py", "hands": 9, "rollouts": [4, 4], "seed": 1,
         "seconds": 60.0}  # fmt: skip


def _verdicts(md: str) -> dict[tuple[str, str, str], str]:
    """The markdown table's `met by the estimate` column by (variant, players, seat)."""
    lines = [line for line in md.splitlines() if line.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    at = header.index("met by the estimate")
    out = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        out[tuple(cells[:3])] = cells[at]
    return out


def test_regret_targets_merges_runs_and_judges_each_row_by_its_target(tmp_path):
    first, later = tmp_path / "first.json", tmp_path / "later.json"
    first.write_text(json.dumps({"meta": _META, "rows": [
        _targets_row("taiwan", 2, "banker", 0.2, 0.3), _targets_row("taiwan", 2, "player", 0.1, 0.2),
    ]}))  # fmt: skip
    later.write_text(json.dumps({"meta": _META, "rows": [
        _targets_row("taiwan", 2, "banker", 0.5, 0.6),  # replaces the first run's row
        _targets_row("guangxi", 4, "any", 0.023, 0.037),
        _targets_row("qiantang", 4, "any", 0.025, 0.035),
        _targets_row("fujian", 4, "any", 0.01, 0.019),
        _targets_row("western-2-4", 2, "any", 0.0069, 0.008),
    ]}))  # fmt: skip
    out = tmp_path / "merged"
    run("pipelines.regret_targets", first, later, "--out", out)
    merged = {(r["variant"], r["players"], r["seat"]): r
              for r in json.loads(out.with_suffix(".json").read_text())["rows"]}  # fmt: skip
    assert merged[("taiwan", 2, "banker")]["regret"] == 0.5
    assert ("taiwan", 2, "player") in merged and len(merged) == 6  # one of six replaced
    md = out.with_suffix(".md").read_text()
    verdicts = _verdicts(md)
    assert verdicts[("guangxi", "4", "any")] == "no (+0.0030)"
    assert verdicts[("qiantang", "4", "any")] == "yes"  # its target is 0.03
    assert verdicts[("fujian", "4", "any")] == "yes, CI below it"
    assert verdicts[("western-2-4", "2", "any")] == "yes"
    assert verdicts[("taiwan", "2", "banker")] == ""  # the issue sets no 2-player taiwan target
    assert "| guangxi | 4 | any | 0.0230 | 0.0130 to 0.0370 | ≤ 0.02 | no (+0.0030) |" in md
    # a run recorded before the scripts moved is shown with the command that ran it
    assert "    PYTHONPATH=. python experiments/regret.py --jobs 2" in md


def test_regret_targets_rejects_a_file_that_is_not_a_run(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": []}')
    out = tmp_path / "out"
    for path in (bad, tmp_path / "missing.json"):
        proc = run("pipelines.regret_targets", path, "--out", out, ok=False)
        assert proc.returncode != 0 and str(path) in proc.stderr
    assert not out.with_suffix(".md").exists()


def test_regret_targets_relabels_only_the_rows_of_the_strategy_named(tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"meta": _META, "rows": [
        _targets_row("fujian", 4, "any", 0.01, 0.015, "expected-score"),
        _targets_row("guangxi", 4, "any", 0.01, 0.015, "expected-score"),
    ]}))  # fmt: skip
    new.write_text(json.dumps({"meta": _META, "rows": [
        _targets_row("guangxi", 4, "any", 0.01, 0.015, "expected-score-rerank"),
    ]}))  # fmt: skip
    out, again = tmp_path / "merged", tmp_path / "again"
    relabel = ("--relabel", "expected-score=expected-score-rerank")
    run("pipelines.regret_targets", old, new, "--out", out, *relabel)
    rows = {r["variant"]: r for r in json.loads(out.with_suffix(".json").read_text())["rows"]}
    assert {r["strategy"] for r in rows.values()} == {"expected-score-rerank"}
    assert rows["fujian"]["measured_as"] == "expected-score"  # relabelled, and marked
    assert "measured_as" not in rows["guangxi"]  # the later run's own row replaced it
    md = out.with_suffix(".md").read_text()
    assert "| fujian † | 4 | any |" in md and "| guangxi | 4 | any |" in md
    # the merged file is an input too: its runs, merged again
    run("pipelines.regret_targets", out.with_suffix(".json"), "--out", again, *relabel)
    assert (
        json.loads(again.with_suffix(".json").read_text())["rows"]
        == json.loads(out.with_suffix(".json").read_text())["rows"]
    )


# --------------------------------------------------------------------------- strategy matters


@pytest.mark.slow
def test_strategy_matters_pairs_its_rows_on_the_same_deals(tmp_path):
    """The default's own row differs from itself by exactly 0 and its seat averages 0 (scores
    sum to zero); random-legal loses to it; a banker variant has a banker and a player row;
    every SD lies in its interval; the command regenerates the file (the report prepends
    ``python``)."""
    run("pipelines.strategy_matters", "--games", 300, "--seed", 5, "--variants", "guangxi",
        "taiwan", "--default", "max-ev", "--strategies", "random-legal", "--out", tmp_path)  # fmt: skip
    data = json.loads((tmp_path / "matters.json").read_text())
    rows = {(r["variant"], r["seat"], r["strategy"]): r for r in data["rows"]}
    base, weak = rows[("guangxi", "any", "max-ev")], rows[("guangxi", "any", "random-legal")]
    assert base["diff"] == 0.0 and base["diff_se"] == 0.0
    assert base["mean"] == pytest.approx(0.0, abs=1e-9)
    assert weak["diff_ci_high"] < 0
    assert {seat for v, seat, _ in rows if v == "taiwan"} == {"banker", "player"}
    for r in rows.values():
        assert r["sd_ci_low"] <= r["sd"] <= r["sd_ci_high"] and r["sd_se"] >= 0
    assert data["meta"]["command"].startswith("-m experiments.pipelines.strategy_matters ")


@pytest.mark.slow
def test_rule_worth_adds_runs_on_the_same_deals_and_measures_each_rule_once(tmp_path):
    """A second run on the same deals keeps the first run's rows as they were and measures only
    its new rule; a run on other deals starts afresh; the meta lists every command kept."""
    common = ("--games", 20, "--seed", 3, "--variants", "hongkong", "--out", tmp_path)
    run("pipelines.rule_worth", *common, "--rules", "special:six-pairs")
    first = json.loads((tmp_path / "worth.json").read_text())
    again = run("pipelines.rule_worth", *common, "--rules", "special:six-pairs", "specials")
    assert "1 rules kept" in again.stdout
    second = json.loads((tmp_path / "worth.json").read_text())
    assert second["rows"][: len(first["rows"])] == first["rows"]
    assert second["meta"]["measured"] == ["hongkong:special:six-pairs", "hongkong:specials"]
    assert second["meta"]["commands"] == [first["meta"]["command"], second["meta"]["command"]]
    run("pipelines.rule_worth", "--games", 20, "--seed", 4, "--variants", "hongkong",
        "--rules", "specials", "--out", tmp_path)  # fmt: skip
    other = json.loads((tmp_path / "worth.json").read_text())
    assert other["meta"]["measured"] == ["hongkong:specials"]
    assert len(other["meta"]["commands"]) == 1


# --------------------------------------------------------------------------- fits


def test_the_fit_scripts_refuse_bad_rows_before_any_work():
    for module, rows, says in (
        ("pipelines.fit_places", "fujian:4", "does not play the t-formula"),
        ("pipelines.fit_places", "guangxi:2", "3-4 players"),
        ("pipelines.fit_home_rate", "guangxi", "--rows"),  # no count
        ("pipelines.fit_home_rate", "taiwan:4", "--rows"),  # a banker
        ("pipelines.fit_home_rate", "western-2-4:4", "--rows"),  # no home run
        ("pipelines.fit_removal", "fujian", "variant:players"),
    ):
        proc = run(module, "--rows", rows, ok=False)
        assert proc.returncode != 0 and says in proc.stderr, (module, rows, proc.stderr[-500:])


@pytest.mark.slow
def test_the_home_rate_fit_writes_its_table(tmp_path):
    run("pipelines.fit_home_rate", "--rows", "guangxi:4", "--hands", 24, "--rollouts", 8,
        "--top", 3, "--seed", 5, "--out", tmp_path)  # fmt: skip
    fits = json.loads((tmp_path / "home-rate-fit.json").read_text())
    assert [(f["variant"], f["n_players"]) for f in fits] == [("guangxi", 4)]
    assert len(fits[0]["per_rate"]) > 1
    text = (tmp_path / "home-rate-fit.md").read_text()
    assert "python -m experiments.pipelines.fit_home_rate --rows guangxi:4 --hands 24" in text


# --------------------------------------------------------------------------- table files

N_VARIANTS = 9  # as conftest's: the shipped variant files


def test_train_tables_checks_the_shipped_files_and_refuses_a_bad_selection():
    """The shipped tables are current (today's rules, the trainer's defaults and classes, the
    README); another seed is not these files; an unknown variant or player count is refused."""
    assert "all current" in run("pipelines.train_tables", "--check").stdout
    other = run("pipelines.train_tables", "--check", "--variant", "taiwan", "--players", 5,
                "--strategy", "max-ev", "--seed", 1, ok=False)  # fmt: skip
    assert other.returncode == 1 and "taiwan-5p.npz: seed is 0, expected 1" in other.stdout
    for bad, says in ((["--variant", "nope"], "unknown variant 'nope'"),
                      (["--players", "9"], "players must be 2..8, got 9")):  # fmt: skip
        proc = run("pipelines.train_tables", "--check", *bad, ok=False)
        assert proc.returncode == 1 and says in proc.stderr


def test_train_tables_names_missing_and_stale_files(tmp_path):
    """In another folder: missing files by name (a deck option at the table sizes its pack
    serves only), a fine file of another class numbering, one without a copula."""
    missing = run("pipelines.train_tables", "--check", "--variant", "taiwan", "guangxi-jokers",
                  "--players", 4, 5, "--data", tmp_path, ok=False).stdout  # fmt: skip
    assert "taiwan-5p.npz: missing" in missing and "taiwan-5p-fine.npz: missing" in missing
    assert "guangxi-jokers-4p.npz: missing" in missing
    assert "guangxi-jokers-5p" not in missing  # its pack does not serve 5 players
    tables = WinTables.load(shipped_table_path("guangxi-jokers", 2, fine=True))
    short = WinTables(
        win=tables.win[:, :3396], tie=tables.tie[:, :3396], lose_pay=tables.lose_pay[:, :3396],
        count=tables.count[:, :3396], scoop_rate=tables.scoop_rate, meta=tables.meta,
        copula=tables.copula,
    )  # fmt: skip
    short.save(tmp_path / "guangxi-jokers-2p-fine.npz")
    fine = WinTables.load(shipped_table_path("fujian", 3, fine=True))
    WinTables(
        win=fine.win, tie=fine.tie, lose_pay=fine.lose_pay, count=fine.count,
        scoop_rate=fine.scoop_rate, meta=fine.meta,
    ).save(tmp_path / "fujian-3p-fine.npz")  # fmt: skip
    out = run("pipelines.train_tables", "--check", "--variant", "guangxi-jokers", "fujian",
              "--players", 2, 3, "--strategy", "expected-score", "--data", tmp_path,
              ok=False).stdout  # fmt: skip
    assert (
        f"guangxi-jokers-2p-fine.npz: 3,396 classes, the trainer makes {n_fine_classes():,} "
        "(an earlier class numbering: retrain it)"
    ) in out
    assert (
        "fujian-3p-fine.npz: holds no copula of the duns (the trainer stores one: retrain it)"
        in out
    )


def _save_with(path: Path, name: str, change) -> None:
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    arrays[name] = change(arrays[name].copy())
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "strategy", "name"),
    [
        ("western-2-4", "max-ev", "western-2-4-5p.npz"),
        ("guangxi-five-suits", "expected-score", "guangxi-five-suits-5p-fine.npz"),
    ],
)
def test_train_tables_retrains_a_file_to_within_its_tolerance(tmp_path, variant, strategy, name):
    """A table the script trained passes ``--check --retrain``; a float moved by 3e-16 (float64
    sums rounding in another order) still passes, a win chance moved by 1e-4 fails and is
    named with its gap."""
    common = ["--variant", variant, "--players", 5, "--strategy", strategy, "--seed", 3,
              "--trial", 300, 1, "--data", tmp_path]  # fmt: skip
    run("pipelines.train_tables", *common)
    meta = json.loads(str(np.load(tmp_path / name)["meta"]))
    assert meta["file"] == name and meta["seed"] == 3
    assert "all current" in run("pipelines.train_tables", "--check", "--retrain", *common).stdout

    _save_with(tmp_path / name, "scoop_rate", lambda a: a + 3e-16)  # float64: representable
    assert "all current" in run("pipelines.train_tables", "--check", "--retrain", *common).stdout
    _save_with(tmp_path / name, "win", lambda a: a + np.float32(1e-4))
    proc = run("pipelines.train_tables", "--check", "--retrain", *common, ok=False)
    assert proc.returncode == 1 and "NOT current" in proc.stdout
    assert f"{name}: retrained arrays differ beyond 1e-12 (win by up to 0.0001)" in proc.stdout
