"""Win tables for every shipped variant at 2 to 8 players (two decks from 5), and what the
strategy and the deal do at tables of more than four: no fallback, five of a kind in the
tables' classes, the pruned search still exact, the card pass across the table."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import N_VARIANTS, table

from simkit.arrange import (
    WinTables,
    arrange,
    default_fine_tables,
    default_tables,
    dun_classes,
    exhaustive_ids,
    make_solver,
    max_ev_ids,
    shipped_table_path,
)
from simkit.arrange.classes import CLASSES_PER_CATEGORY, n_fine_classes
from simkit.arrange.wintables import SHIPPED_PLAYERS, fallback_candidates
from simkit.deal import deal, pass_cards
from simkit.errors import SimkitError
from simkit.evaluate import Category, dun_ranks
from simkit.variants import deck_option_names, load_variant, variant_names, with_compare

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = range(2, 9)


def test_tables_ship_for_two_to_eight_players():
    assert SHIPPED_PLAYERS == tuple(PLAYERS)
    assert len(variant_names()) == N_VARIANTS
    shipped = sorted((ROOT / "simkit" / "data").glob("*p.npz"))  # max-ev's, not *-fine.npz
    options = {p for p in shipped if p.name.rsplit("-", 1)[0] in deck_option_names()}
    assert len(shipped) - len(options) == N_VARIANTS * len(PLAYERS)
    # and every deck option at each table size its pack serves
    served = sum(len(load_variant(name).deck.players) for name in deck_option_names())
    assert len(options) == served


def test_fine_tables_ship_beside_every_coarse_file():
    """expected-score's ``<variant>-<players>p-fine.npz`` ships for every max-ev file: every
    shipped variant at 2 to 8 players and every deck option at the sizes its pack serves."""
    data = ROOT / "simkit" / "data"
    coarse = {p.name.removesuffix(".npz") for p in data.glob("*p.npz")}
    fine = {p.name.removesuffix("-fine.npz") for p in data.glob("*p-fine.npz")}
    assert fine == coarse
    served = sum(len(load_variant(name).deck.players) for name in deck_option_names())
    assert len(fine) == N_VARIANTS * len(PLAYERS) + served


def _served():
    """Every (variant or deck option, players) tables are trained for."""
    shipped = variant_names()
    return [
        (name, players)
        for players in PLAYERS
        for name in [*shipped, *deck_option_names()]
        if name in shipped or load_variant(name).deck.serves(players)
    ]


@pytest.mark.parametrize(("variant", "players"), _served())
def test_expected_score_reads_fine_tables_of_its_own(variant, players):
    """``default_fine_tables`` finds the variant's (or deck option's) own fine file at every
    table size it serves: no fallback to another variant, another size or max-ev's coarse
    tables, and no warning; trained under today's rules, monotone, converged."""
    v = load_variant(variant)
    if not shipped_table_path(variant, players, fine=True).exists():
        pytest.fail(f"{variant}-{players}p-fine.npz does not ship")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fallback warning fails the test
        tables = default_fine_tables(v, players)
    meta = tables.meta
    assert meta["file"] == f"{variant}-{players}p-fine.npz"
    assert (meta["variant"], meta["n_players"]) == (variant, players)
    assert meta["strategy"] == "expected-score"
    assert meta["variant_key"] == v.key, f"{meta['file']} is stale"
    assert tables.win.shape[1] == n_fine_classes()  # the classes the trainer makes today
    assert (np.diff(tables.win, axis=1) >= -1e-6).all()
    changes = meta["change_per_iteration"]
    assert changes[-1] < 0.02 and changes[-1] < changes[0]


@pytest.mark.parametrize("variant", variant_names())
def test_no_shipped_variant_falls_back_at_any_table_size(variant):
    """``default_tables`` finds the variant's own tables at 2..8 players, without a warning."""
    v = load_variant(variant)
    for players in PLAYERS:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a fallback warning fails the test
            tables = default_tables(v, players)
        meta = tables.meta
        assert (meta["variant"], meta["n_players"]) == (variant, players)
        assert meta["variant_key"] == v.key, f"{variant}-{players}p.npz is stale"
        assert (np.diff(tables.win, axis=1) >= -1e-6).all()
        assert meta["change_per_iteration"][-1] < 0.02


def test_two_deck_tables_know_five_of_a_kind():
    """Five of a kind (五同) needs two decks: only the 5-8 player backs count it."""
    five = slice(Category.FIVE_OF_A_KIND * CLASSES_PER_CATEGORY, None)
    for players in PLAYERS:
        tables = WinTables.load(shipped_table_path("guangxi", players))
        seen = int(tables.count[2, five].sum())
        assert (seen > 0) == (players >= 5), (players, seen)
        assert tables.count[0, five].sum() == 0  # never in a three-card front


def test_a_variant_of_ones_own_falls_back_to_the_same_deck_count_first():
    assert fallback_candidates("mine", 6) == [
        ("mine", 5), ("mine", 7), ("mine", 8), ("mine", 4), ("mine", 3), ("mine", 2),
        ("guangxi", 6),
    ]  # fmt: skip
    assert fallback_candidates("mine", 4)[:3] == [("mine", 3), ("mine", 2), ("mine", 5)]
    assert ("guangxi", 7) not in fallback_candidates("guangxi", 7)
    mine = with_compare(load_variant("taiwan"), "top-card")  # "taiwan+top-card": no tables
    with pytest.warns(UserWarning, match=r"using taiwan-7p\.npz"):  # its origin's, this size
        tables = default_tables(mine, 7)
    assert (tables.meta["n_players"], tables.meta["variant"]) == (7, "taiwan")


def test_dun_classes_follow_the_rank_order_with_two_decks():
    """Classes of every dun rank eight two-deck players set are in rank order, five of a kind
    and duns with identical cards included: the search's bounds rely on it."""
    v = load_variant("guangxi")
    arranged, _ = arrange(deal(3000, 8, rng=4), v, "random-legal", n_players=8, rng=1)
    crafted = table(
        "2c 2c 3d | Kh Kh Kd Kd 9s | As As Ah Ad Ac",  # identical cards; five of a kind
        "4c 4c 4d | 5s 5s 6s 7s 8s | Ks Ks Kh Kd Kc",
        decks=2,
    )
    ranks = np.concatenate([dun_ranks(a, v).reshape(-1, 3) for a in (arranged, crafted)])
    assert (ranks[:, 2] >> 20 == Category.FIVE_OF_A_KIND).sum() >= 2
    for d in range(3):
        ordered = np.unique(ranks[:, d])
        assert (np.diff(dun_classes(ordered)) >= 0).all()


@pytest.mark.parametrize(("variant", "players"), [("guangxi", 6), ("taiwan", 8), ("qiantang", 5)])
def test_pruned_search_equals_all_splits_with_two_decks(variant, players):
    solver = make_solver(variant, players)
    hands = deal(40, players, rng=9).reshape(-1, 13)
    ids, values, _ = max_ev_ids(hands, solver)
    ids_all, values_all = exhaustive_ids(hands, solver)
    assert (values == values_all).all()
    assert (ids == ids_all).all()


@pytest.mark.parametrize("players", [6, 8])
def test_across_exchanges_with_the_seat_opposite(players):
    """001 菲律宾: 与对家交换 — seat s and seat s + p/2 swap their three lowest cards."""
    hands = deal(100, players, rng=3)
    passed = pass_cards(hands, 1, "across")
    np.testing.assert_array_equal(np.sort(passed.reshape(100, -1)), np.sort(hands.reshape(100, -1)))
    half = players // 2
    for seat in range(players):
        opposite = (seat + half) % players
        got = sorted(passed[0, seat].tolist())
        assert got == sorted(hands[0, seat, 3:].tolist() + hands[0, opposite, :3].tolist())


@pytest.mark.parametrize("players", [3, 5, 7])
def test_across_is_refused_at_a_table_with_no_seat_opposite(players):
    with pytest.raises(SimkitError, match="seat opposite"):
        pass_cards(deal(2, players, rng=1), 1, "across")


@pytest.mark.parametrize("players", [5, 8])
def test_every_variant_simulates_at_two_deck_tables_without_a_warning(players):
    """The whole pipeline (card pass, max-ev with its own tables, scoring, statistics) at a
    two-deck table: no fallback warning, and the scores sum to zero."""
    from simkit.simulate import simulate

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = simulate("all", 64, players, seed=2, n_jobs=1, progress=False)
    scores = result["scores"]
    assert set(scores["variant"]) == set(variant_names())
    seats = scores.filter(scores["seat"].is_in([str(s) for s in range(players)]))
    for variant in variant_names():
        total = seats.filter(seats["variant"] == variant)["mean"].sum()
        assert abs(total) < 1e-9, variant
