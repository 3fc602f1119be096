"""Re-scoring kept games (issue 51.3): identity under the run's own rules, equality with scoring
the kept hands directly under another file, and the changes kept games cannot express."""

import warnings

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simkit.errors import SimkitError
from simkit.kept import kept_arrangement, open_kept
from simkit.rescore import rescore
from simkit.score import score
from simkit.simulate import BLOCK_GAMES, simulate
from simkit.variants import resolve_variant

GAMES = BLOCK_GAMES * 2 + 300


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    result = simulate(
        "guangxi", GAMES, 4, "greedy", seed=11, n_jobs=1, progress=False, keep_games=out / "kept"
    )
    result.save(out)
    return result, out


def _file(tmp_path, text):
    path = tmp_path / "mine.toml"
    path.write_text('[variant]\nname = "mine"\nextends = "guangxi"\n' + text, encoding="utf-8")
    return path


def test_rescore_under_the_runs_own_variant_reproduces_its_tables(run):
    result, out = run
    again = rescore(out, "guangxi")
    assert again.tables.keys() == result.tables.keys()
    for name, table in result.tables.items():
        assert_frame_equal(again[name], table, check_exact=True)


def test_rescore_under_another_file_equals_scoring_the_kept_hands(run, tmp_path):
    _, out = run
    mine = _file(
        tmp_path,
        "[specials.six-pairs]\npayout = 9\n"
        "[scoring.duns]\nmiddle = { full-house = 2, quads = 8, straight-flush = 10, "
        "five-of-a-kind = 20 }\n"
        "[scoring.scoop]\npoints = [0, 2, 3, 6, 5, 6, 7]\n",
    )
    other = resolve_variant(mine)
    tables = rescore(out, mine)
    blocks = list(open_kept(out).blocks())
    cards = np.concatenate([b["cards0"] for b in blocks])
    declared = np.concatenate([b["declared0"] for b in blocks])
    play = kept_arrangement(cards, declared, other, 4)
    direct = score(cards, other, declared=declared)
    seats = tables["scores"].filter(pl.col("seat") != "all").sort("seat")
    np.testing.assert_allclose(seats["mean"].to_numpy(), direct.mean(axis=0), atol=1e-9, rtol=0)
    np.testing.assert_allclose(
        seats["sd"].to_numpy(), direct.std(axis=0, ddof=1), rtol=1e-9, atol=0
    )
    # the change shows: the square of the score moved
    base = rescore(out, "guangxi")["scores"].filter(pl.col("seat") != "all").sort("seat")
    assert not np.allclose(seats["sd"].to_numpy(), base["sd"].to_numpy())
    assert play.declared.shape == (GAMES, 4)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[ranking]\nwheel = "lowest"\n', r"ranks hands differently"),
        ("[deck]\ndecks = 2\nplayers = [2, 3, 4]\n", r"deals"),
        ("[deal.exchange]\nplay = true\n", r"phases before setting"),
    ],
)
def test_rescore_refuses_what_kept_games_cannot_express(run, tmp_path, text, reason):
    _, out = run
    with pytest.raises(SimkitError, match=reason):
        rescore(out, _file(tmp_path, text))


def test_rescore_refuses_another_table_size(run, tmp_path):
    _, out = run
    with pytest.raises(SimkitError, match="does not serve the run's 4 players"):
        rescore(out, _file(tmp_path, "[deck]\nplayers = [2, 3]\n"))


def test_rescore_of_a_run_without_kept_games_is_refused(tmp_path):
    with pytest.raises(SimkitError, match="no kept games"):
        rescore(tmp_path, "guangxi")


def test_cli_rescore_writes_the_tables(run, tmp_path, capsys):
    from simkit.cli import main
    from simkit.simulate import load_result

    _, out = run
    argv = ["rescore", str(out), "--variant", "guangxi", "--out", str(tmp_path / "r")]
    assert main([*argv, "--gain-sample", "100", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "tables written" in text and "gains +0.0000 points a game" in text
    again = load_result(tmp_path / "r")
    assert_frame_equal(again["scores"], run[0]["scores"], check_exact=True)


def test_rescore_gives_the_same_tables_for_any_jobs(run, monkeypatch):
    import simkit.rescore

    monkeypatch.setattr(simkit.rescore, "BATCH_BLOCKS", 1)  # three tasks, one block each
    result, out = run
    again = rescore(out, "guangxi", n_jobs=2)
    for name, table in result.tables.items():
        assert_frame_equal(again[name], table, check_exact=True)


def test_rescore_reproduces_a_run_with_phases_before_and_after_setting(tmp_path):
    """qiantang plays the exchange (its fees are kept) and phases after setting (played again
    on the kept hands, with the kept values)."""
    variant = resolve_variant("qiantang")
    assert variant.deal.changes_hands and variant.phases.any_enabled
    result = simulate(
        "qiantang",
        2500,
        4,
        "greedy",
        seed=2,
        n_jobs=1,
        progress=False,
        keep_games=tmp_path / "kept",
    )
    again = rescore(tmp_path, "qiantang")
    for name, table in result.tables.items():
        assert_frame_equal(again[name], table, check_exact=True)


def test_rescore_picks_one_variant_of_a_run_that_kept_several(tmp_path):
    result = simulate(
        ["guangxi", "hongkong"],
        600,
        4,
        "greedy",
        seed=4,
        n_jobs=1,
        progress=False,
        keep_games=tmp_path / "kept",
    )
    with pytest.raises(SimkitError, match="choose one with --from"):
        rescore(tmp_path, "hongkong")
    again = rescore(tmp_path, "hongkong", source="hongkong")
    assert_frame_equal(
        again["scores"], result["scores"].filter(pl.col("variant") == "hongkong"), check_exact=True
    )


def test_a_citation_changed_is_no_change_of_rules(run, tmp_path):
    _, out = run
    text = '[ranking]\nwheel = "second"\nsource = "my own reading"\n'
    assert (
        resolve_variant(_file(tmp_path, text)).key.split("@")[1]
        == (resolve_variant("guangxi").key.split("@")[1])
    )
    rescore(out, _file(tmp_path, text))  # not refused


def test_rederived_gain_is_zero_under_the_runs_own_rules(run, tmp_path):
    """greedy is deterministic: under the run's rules it sets every hand as it did."""
    from simkit.rescore import rederived_gain

    _, out = run
    same = rederived_gain(out, "guangxi", sample=500)
    assert same["games"] == 500 and same["gain"] == 0.0 and same["se"] == 0.0
    # greedy sets hands by dun ranks alone and declares whatever qualifies, so a change of
    # payouts leaves its play, and the gain, at zero too
    mine = _file(tmp_path, "[specials.six-pairs]\npayout = 40\n")
    assert rederived_gain(out, mine, sample=500)["gain"] == 0.0


def test_rederived_gain_shows_a_payout_that_changes_the_play(tmp_path):
    """expected-score weighs payouts: a middle full house worth 12 makes it set hands otherwise,
    and the re-derived play gains under that file (and nothing under the run's own rules)."""
    from simkit.rescore import rederived_gain

    simulate(
        "guangxi",
        600,
        4,
        "expected-score",
        seed=1,
        n_jobs=1,
        progress=False,
        keep_games=tmp_path / "kept",
    )
    assert rederived_gain(tmp_path, "guangxi", sample=600)["gain"] == 0.0
    mine = _file(
        tmp_path,
        "[scoring.duns]\nmiddle = { full-house = 12, quads = 8, straight-flush = 10, "
        "five-of-a-kind = 20 }\n",
    )
    with warnings.catch_warnings():  # whether the file's tables are built or borrowed
        warnings.simplefilter("ignore")
        gain = rederived_gain(tmp_path, mine, sample=600)
    assert gain["ci_low"] > 0
