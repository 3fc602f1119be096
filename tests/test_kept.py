"""Kept games (issue 51.2): what a run keeps, its size, and that the seed alone decides it."""

import json

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.kept import bytes_per_game, kept_arrangement, open_kept
from simkit.score import score
from simkit.simulate import BLOCK_GAMES, simulate
from simkit.variants import resolve_variant

GAMES = BLOCK_GAMES * 2 + 300  # three blocks, the last one short


@pytest.fixture(scope="module")
def kept_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kept") / "kept"
    result = simulate(
        "guangxi", GAMES, 4, "greedy", seed=7, n_jobs=1, progress=False, keep_games=folder
    )
    return result, folder


def _all_blocks(folder):
    blocks = list(open_kept(folder).blocks())
    return {name: np.concatenate([b[name] for b in blocks]) for name in blocks[0]}


def test_kept_games_hold_every_game_in_dun_order(kept_run):
    result, folder = kept_run
    kept = open_kept(folder)
    assert kept.n_games == GAMES and kept.n_blocks == 3 and kept.n_players == 4
    arrays = _all_blocks(folder)
    assert arrays["cards0"].shape == (GAMES, 4, 13) and arrays["cards0"].dtype == np.int8
    assert arrays["declared0"].shape == (GAMES, 4) and arrays["declared0"].dtype == np.int8
    assert (arrays["banker"] == 0).all()
    # one deck, four players: every game holds each card once
    assert (np.sort(arrays["cards0"].reshape(GAMES, 52), axis=1) == np.arange(52)).all()
    manifest = json.loads((folder / "kept.json").read_text())
    assert manifest["provenance"]["seed"] == 7
    assert manifest["provenance"]["run"] == result.provenance["run"]


def test_kept_games_rescored_give_the_runs_mean_scores(kept_run):
    """The kept hands are the hands that were scored: scoring them again gives the run's means."""
    result, folder = kept_run
    variant = resolve_variant("guangxi")
    arrays = _all_blocks(folder)
    play = kept_arrangement(arrays["cards0"], arrays["declared0"], variant, 4)
    total = score(play.cards, variant, declared=play.declared)
    seat_means = result["scores"].filter(result["scores"]["seat"] != "all")["mean"].to_numpy()
    np.testing.assert_allclose(total.mean(axis=0), seat_means, rtol=0, atol=1e-9)


def test_kept_size_follows_the_formula(kept_run):
    _, folder = kept_run
    on_disk = sum(p.stat().st_size for p in folder.glob("block-*.npz"))
    data = GAMES * bytes_per_game(4)
    assert data <= on_disk <= data + 3 * 1024  # a header of under 1 kB a file
    assert bytes_per_game(4) == 57
    assert 1_000_000 * bytes_per_game(4) < 100e6


def test_same_seed_same_kept_games_for_any_jobs_and_chunks(kept_run, tmp_path):
    _, folder = kept_run
    other = tmp_path / "other"
    simulate(
        "guangxi",
        GAMES,
        4,
        "greedy",
        seed=7,
        n_jobs=2,
        chunk_size=1,
        progress=False,
        keep_games=other,
    )
    a, b = _all_blocks(folder), _all_blocks(other)
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])


def test_a_folder_without_kept_games_is_refused(tmp_path):
    with pytest.raises(SimkitError, match="no kept games"):
        open_kept(tmp_path)


def test_cli_keep_games_needs_out_and_keeps_in_out_kept(tmp_path, capsys):
    from simkit.cli import main

    argv = ["simulate", "--variant", "guangxi", "--games", "300", "--strategy", "greedy"]
    assert main([*argv, "--jobs", "1", "--quiet", "--keep-games"]) != 0
    assert "--keep-games needs --out" in capsys.readouterr().err
    out = tmp_path / "run"
    assert main([*argv, "--jobs", "1", "--quiet", "--keep-games", "--out", str(out)]) == 0
    assert open_kept(out).n_games == 300


def test_map_block_views_the_arrays_np_load_reads(tmp_path):
    from simkit.kept import map_block, write_block

    rng = np.random.default_rng(4)
    arrays = {
        "banker": np.zeros(37, dtype=np.int8),
        "cards0": rng.integers(0, 52, size=(37, 4, 13)).astype(np.int8),
        "declared0": rng.integers(-1, 3, size=(37, 4)).astype(np.int8),
        "value0": rng.normal(size=(37, 4)),
        "paid0:exchange": rng.normal(size=(37, 4)),
        "empty": np.zeros((0, 4)),
    }
    path = write_block(tmp_path, 0, arrays)
    mapped = map_block(path)
    with np.load(path) as data:
        assert list(mapped) == list(data.files)
        for name in data.files:
            assert mapped[name].dtype == data[name].dtype
            assert mapped[name].shape == data[name].shape
            assert np.array_equal(mapped[name], data[name])
            assert not mapped[name].flags.writeable  # views of the file, not copies
    # a file laid out otherwise (compressed) is read by np.load, to the same arrays
    other = tmp_path / "block-000001.npz"
    with open(other, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    again = map_block(other)
    assert all(np.array_equal(again[k], v) for k, v in arrays.items())
