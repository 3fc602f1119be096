"""The phases after setting (004 钱塘: 抢庄, 谈判, 抛牌): a clause test each on a constructed deal,
properties over random deals (payments and scores zero-sum, a settled pair gets exactly its X),
the calibration of the conditional expected score, the variant file's [phases] and the
simulator's hook.

Hands are written ``"front | middle | back"``; seat 0 is the banker.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import table
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.arrange import Arrangement, arrange, arrangements
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.phases import add_payments
from simkit.phases.expected import (
    CALIBRATION_KEY,
    BinnedMap,
    ExpectedScore,
    expected_score,
    fit_map,
    monotone_means,
    pair_results,
    quantile_edges,
)
from simkit.phases.settle import bid_payments, fair_bid, seat_bid, settle, settle_payments
from simkit.score import score
from simkit.simulate import simulate
from simkit.specials import best_special, detect_specials
from simkit.variants import load_variant, variant_names
from simkit.variants.rules import Bidding, Negotiation, Phases, Surrender
from simkit.variants.schema import VariantError

QIANTANG = load_variant("qiantang")

# The banker (QQ | 6-T straight | JJJ55) wins every dun from player 1 (5-high | 44 | 88TT):
# 3 duns and the majority point, doubled by 打枪 ("一名玩家三墩全部胜过另一名玩家，奖励翻倍"): 8.
# Player 2 (KKK | spade flush | 33366) wins front and middle from the banker; player 3 holds
# the rest, set greedily.
BANKER = "Qd Qh 4c | 6c 7d 8h 9c Th | Jc Jd Js 5c 5d"
PLAYER_1 = "2c 3d 5h | 4d 4s 6d 7h 9d | 8c 8d Tc Td Qc"
PLAYER_2 = "Kc Kd Kh | 2s 5s 8s Ts Qs | 3c 3h 3s 6h 6s"


def constructed_table() -> np.ndarray:
    three = table(BANKER, PLAYER_1, PLAYER_2)[0]
    rest = np.setdiff1d(np.arange(52), three.ravel()).astype(np.int8)
    cards, _ = arrange(rest, QIANTANG, "greedy")
    return np.concatenate([three, cards[None]])[None].astype(np.int8)


def as_arrangement(cards: np.ndarray, variant, value: np.ndarray) -> Arrangement:
    """An arrangement of set hands ``(n, p, 13)`` played normally, with the values given."""
    masks = detect_specials(cards, variant)
    return Arrangement(
        cards=cards,
        declared=np.full(cards.shape[:2], -1, dtype=np.int8),
        split_ids=np.zeros((*cards.shape[:2], 3), dtype=np.int64),
        ranks=dun_ranks(cards, variant),
        special_masks=masks,
        best=best_special(masks),
        value=np.asarray(value, dtype=np.float64),
    )


def identity_expected(n_players: int, n_specials: int) -> ExpectedScore:
    """Expected scores equal to the value (to 0.001): the clause tests choose them directly."""
    edges = np.round(np.arange(-60_000, 60_001) / 1000, 3)
    means = np.concatenate([[edges[0]], edges])
    fitted = BinnedMap(edges, means, np.ones(means.size, dtype=np.int64))
    zeros = np.zeros(n_specials)
    return ExpectedScore(n_players, 0, fitted, fitted, fitted, zeros, zeros, zeros)


def with_phases(**tables) -> object:
    return dataclasses.replace(QIANTANG, phases=Phases(**tables))


def final_scores(play, variant, found) -> np.ndarray:
    total, _ = add_payments(
        score(
            play.cards,
            variant,
            declared=play.declared,
            ranks=play.ranks,
            special_masks=play.special_masks,
            breakdown=True,
        ),
        found.payments,
    )
    return total


def test_the_constructed_banker_scoops_player_1_for_8() -> None:
    play = as_arrangement(constructed_table(), QIANTANG, np.zeros((1, 4)))
    _, pairs = pair_results(play, QIANTANG)
    assert pairs[0, 0, 1] == 8.0 and pairs[0, 1, 0] == -8.0
    assert pairs[0, 2, 0] > 0  # player 2 beats the banker


# --- 抢庄 ---------------------------------------------------------------------------------------


def test_004_bidding_winner_pays_its_bid_shared_equally_remainder_back() -> None:
    """004 （一）抢庄: "出价最高者成为庄家，并将所有抢庄道数收回后平均分给其余三位闲家；若有余数，
    则返还庄家".  A bid of 5 at four seats: each of the three players receives 1, the remainder 2
    returns to the banker, who pays 3 in all."""
    paid = bid_payments(Bidding(enabled=True), 5.0, 1, 4)
    assert paid.tolist() == [[-3.0, 1.0, 1.0, 1.0]]
    # pooling every seat's equal bid of 5: the pot of 20 pays each player 6, 2 back: the same
    pooled = bid_payments(Bidding(enabled=True, pot="all"), 5.0, 1, 4)
    assert pooled.tolist() == [[-3.0, 1.0, 1.0, 1.0]]
    # three seats, a bid of 3: 1 to each of the two players, 1 back
    assert bid_payments(Bidding(enabled=True), 3.0, 1, 3).tolist() == [[-2.0, 1.0, 1.0]]


def test_bidding_is_played_with_the_file_bid_or_the_fair_bid_rounded_down() -> None:
    fixed = with_phases(bidding=Bidding(enabled=True, bid=7))
    assert seat_bid(fixed, 4, "max-ev") == 7.0
    # all-pairs scoring: the banker's seat has no edge of its own without 换牌 ...
    no_exchange = dataclasses.replace(
        QIANTANG,
        deal=dataclasses.replace(
            QIANTANG.deal, exchange=dataclasses.replace(QIANTANG.deal.exchange, play=False)
        ),
    )
    edge, se = fair_bid(no_exchange, 4, "max-ev")
    assert abs(edge) < 4 * se + 0.2
    # ... and with it the banker, who chooses first, has one: the seat is worth bidding for
    edge, se = fair_bid(QIANTANG, 4, "max-ev")
    assert edge > 4 * se
    assert seat_bid(QIANTANG, 4, "max-ev") == float(np.floor(max(edge, 0.0)))


# --- 谈判 ---------------------------------------------------------------------------------------


def test_004_negotiated_pair_gets_exactly_x_instead_of_comparing() -> None:
    """004 （三）谈判: "任一方均可提出“输/赢X道”的结算方案 … 若双方达成一致，则跳过比牌直接结算".

    Player 1 expects -2.4 from the banker, the banker +0.3 from a player: the player accepts any
    X >= -2.4, the banker pays at most -0.3, so whole X in {-2, -1}; the midpoint -1.35 rounds
    to X = -1.  Their comparison (the banker's 8) is replaced by 1 to the banker: player 1 gains
    7.  Player 2 expects +0.5: it asks at least 1, more than the banker pays, so they compare."""
    variant = with_phases(negotiation=Negotiation(enabled=True))
    cards = constructed_table()
    play = as_arrangement(cards, variant, np.array([[0.3, -2.4, 0.5, 0.5]]))
    _, pairs = pair_results(play, variant)
    found = settle(play, variant, pairs, identity_expected(4, len(variant.specials)))
    assert found.settled.tolist() == [[True, False, False]]
    assert found.amount[0, 0] == -1.0
    before = score(cards, variant)
    after = final_scores(play, variant, found)
    assert after[0, 1] - before[0, 1] == 7.0
    assert after[0, 1] == pairs[0, 1, 2] + pairs[0, 1, 3] - 1.0  # exactly X against the banker
    assert after.sum() == pytest.approx(0.0)


def test_negotiation_margin_asks_for_a_gain_before_settling() -> None:
    variant = with_phases(negotiation=Negotiation(enabled=True, margin=1.0))
    play = as_arrangement(constructed_table(), variant, np.array([[0.3, -2.4, 0.5, 0.5]]))
    _, pairs = pair_results(play, variant)
    found = settle(play, variant, pairs, identity_expected(4, len(variant.specials)))
    # the player asks X >= -1.4, the banker pays at most -1.3: no whole X between
    assert not found.settled.any()
    assert not found.payments["negotiation"].any()


# --- 抛牌 ---------------------------------------------------------------------------------------


def test_004_surrender_before_the_comparison_costs_exactly_the_cost() -> None:
    """004 （四）抛牌: "玩家可在比牌前 … 选择“抛牌”直接结算 … 为劣势玩家提供及时止损的机会".
    At a cost of 3, player 1, expecting -3.5 from the banker, surrenders and pays exactly 3 in
    place of the 8 the comparison would have cost it; player 2, expecting -2.5, compares."""
    variant = with_phases(surrender=Surrender(enabled=True, cost=3))
    cards = constructed_table()
    play = as_arrangement(cards, variant, np.array([[0.0, -3.5, -2.5, 1.0]]))
    _, pairs = pair_results(play, variant)
    found = settle(play, variant, pairs, identity_expected(4, len(variant.specials)))
    assert found.surrendered.tolist() == [[1, 0, 0]]
    after = final_scores(play, variant, found)
    assert after[0, 1] == pairs[0, 1, 2] + pairs[0, 1, 3] - 3.0
    assert after[0, 1] - score(cards, variant)[0, 1] == 5.0


def test_004_surrender_after_the_comparison_caps_the_loss_and_a_pair_settles_once() -> None:
    """004 （四）抛牌: "若选择比牌后再抛牌，而对手已在比牌阶段抛牌并完成结算，则你无法再抛牌".
    After the comparison player 1 (down 8) surrenders for 2; with ``by = "both"`` the banker,
    down to player 2, surrenders to it for 2 when it lost more; a pair settles once."""
    variant = with_phases(surrender=Surrender(enabled=True, cost=2, when="after", by="both"))
    cards = constructed_table()
    play = as_arrangement(cards, variant, np.zeros((1, 4)))
    _, pairs = pair_results(play, variant)
    found = settle(play, variant, pairs, identity_expected(4, len(variant.specials)))
    r = pairs[0, 1:, 0]
    expect = np.where(r < -2, 1, np.where(r > 2, -1, 0))
    assert found.surrendered[0].tolist() == expect.tolist()
    after = final_scores(play, variant, found)
    against_banker = np.clip(r, -2, 2)
    others = pairs[0, 1:, 1:].sum(axis=1)
    assert after[0, 1:].tolist() == pytest.approx((others + against_banker).tolist())


# --- properties ---------------------------------------------------------------------------------

PHASES = st.builds(
    Phases,
    bidding=st.builds(
        Bidding,
        enabled=st.booleans(),
        pot=st.sampled_from(["winner", "all"]),
        bid=st.one_of(st.none(), st.integers(0, 9).map(float)),
        unit=st.sampled_from([1.0, 0.5, 2.0]),
    ),
    negotiation=st.builds(
        Negotiation,
        enabled=st.booleans(),
        margin=st.sampled_from([0.0, 0.5, 2.0]),
        unit=st.sampled_from([1.0, 0.5]),
    ),
    surrender=st.builds(
        Surrender,
        enabled=st.booleans(),
        cost=st.sampled_from([0.0, 1.0, 3.0]),
        when=st.sampled_from(["before", "after", "both"]),
        by=st.sampled_from(["player", "both"]),
    ),
)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), n_players=st.sampled_from([3, 4]), phases=PHASES)
def test_payments_and_scores_stay_zero_sum_and_settled_pairs_get_x(seed, n_players, phases):
    variant = dataclasses.replace(QIANTANG, phases=phases)
    hands = deal(64, n_players, rng=seed)
    (play,) = arrangements([hands], [variant], "greedy", n_players=n_players, rng=seed)
    total, pairs = pair_results(play, variant)
    np.testing.assert_allclose(pairs, -pairs.transpose(0, 2, 1))
    np.testing.assert_allclose(pairs.sum(axis=2), total)  # qiantang has no per-player parts
    found = settle(play, variant, pairs, expected_score(variant, n_players, "max-ev"), bid=3.0)
    assert set(found.payments) == {
        name for name in ("bidding", "negotiation", "surrender") if getattr(phases, name).enabled
    }
    for paid in found.payments.values():
        np.testing.assert_allclose(paid.sum(axis=1), 0.0, atol=1e-9)
    final, components = add_payments(
        score(play.cards, variant, declared=play.declared, breakdown=True), found.payments
    )
    np.testing.assert_allclose(final.sum(axis=1), 0.0, atol=1e-9)
    np.testing.assert_allclose(sum(components.values()), final, atol=1e-9)
    # each player's score against the banker is X, -cost, +cost or the comparison's, the
    # comparison played without the pairs that skipped it (no 全垒打 over a skipped pair)
    bid = found.payments.get("bidding", np.zeros_like(final))
    played = found.pairs
    np.testing.assert_array_equal(
        played[~found.skipped.any(axis=(1, 2))], pairs[~found.skipped.any(axis=(1, 2))]
    )
    assert not played[found.skipped].any()
    against = final[:, 1:] - played[:, 1:, 1:].sum(axis=2) - bid[:, 1:]
    cost = phases.surrender.cost
    expect = np.where(
        found.settled,
        found.amount,
        np.where(found.surrendered != 0, -cost * found.surrendered, played[:, 1:, 0]),
    )
    np.testing.assert_allclose(against, expect, atol=1e-9)
    unit = phases.negotiation.unit
    np.testing.assert_allclose(found.amount / unit, np.round(found.amount / unit), atol=1e-9)


def _per_player_parts(variant) -> bool:
    s = variant.scoring
    return (
        "t-formula" in s.transforms
        or ("home-run" in s.transforms and s.home_run.split == "even")
        or s.specials.all_special != "pairwise"
    )


@pytest.mark.parametrize("name", variant_names())
def test_the_scorers_pairwise_output_is_antisymmetric_and_sums_to_the_totals(name) -> None:
    """``score(pairs=)``: what i wins from j, -(what j wins from i); where the variant pays
    nothing per player outside its pairs, each row sums to the player's score."""
    variant = load_variant(name)
    for n_players in (2, 4):
        hands = deal(256, n_players, rng=3)
        (play,) = arrangements([hands], [variant], "greedy", n_players=n_players, rng=3)
        total, pairs = pair_results(play, variant)
        np.testing.assert_allclose(pairs, -pairs.transpose(0, 2, 1), atol=1e-12)
        assert not np.diagonal(pairs, axis1=1, axis2=2).any()
        if not _per_player_parts(variant):
            np.testing.assert_allclose(pairs.sum(axis=2), total, atol=1e-9)
        plain = score(play.cards, variant, declared=play.declared)
        np.testing.assert_array_equal(total, plain)  # asking for pairs changes no score
    with pytest.raises(SimkitError, match="pairs must be a C-contiguous float64 array"):
        score(play.cards, variant, pairs=np.zeros((3, n_players, n_players)))


# --- calibration --------------------------------------------------------------------------------


def test_pool_adjacent_violators_is_monotone_and_keeps_the_weighted_mean() -> None:
    assert monotone_means(np.array([1.0, 3.0, 2.0, 4.0]), np.ones(4)).tolist() == [
        1.0,
        2.5,
        2.5,
        4.0,
    ]
    means = np.array([5.0, 1.0, 2.0, 0.0, 7.0])
    weights = np.array([1.0, 2.0, 1.0, 4.0, 2.0])
    out = monotone_means(means, weights)
    assert np.all(np.diff(out) >= 0)
    assert np.dot(out, weights) == pytest.approx(np.dot(means, weights))


def test_binned_map_recovers_a_monotone_truth_and_its_mean() -> None:
    rng = np.random.default_rng(5)
    value = rng.normal(0, 5, 50_000)
    result = np.tanh(value / 5) * 3 + rng.normal(0, 2, value.size)
    fitted = fit_map(value, result, quantile_edges(value))
    assert np.all(np.diff(fitted.means) >= 0)
    assert fitted(value).mean() == pytest.approx(result.mean(), abs=1e-9)
    truth = np.tanh(value / 5) * 3
    assert np.abs(fitted(value) - truth).mean() < 0.2
    # negative control: a decreasing truth cannot be followed by a monotone map
    flipped = fit_map(value, -result, quantile_edges(value))
    assert np.abs(flipped(value) - (-truth)).mean() > 1.0


def test_qiantang_expected_scores_are_monotone_calibrated_and_keep_the_mean() -> None:
    found = expected_score(QIANTANG, 4, "max-ev")
    assert found is expected_score(QIANTANG, 4, "max-ev")  # cached: fitted once
    assert found is expected_score(with_phases(), 4, "max-ev")  # the phases do not enter it
    for fitted in (found.banker, found.player, found.table):
        assert np.all(np.diff(fitted.means) >= 0)
        assert fitted.means[-1] - fitted.means[0] > 5  # it separates strong from weak hands
    err = found.error
    for name in ("banker", "player", "table"):
        # held out: the map's error is near the noise of the bins, and below the raw value's
        assert err[f"{name}_ece"] < 2.5 * err[f"{name}_noise"]
        assert err[f"{name}_ece"] < err[f"{name}_raw_ece"]
        assert err[f"{name}_r2"] > 0.15
        assert err[f"{name}_mean_predicted"] == pytest.approx(
            err[f"{name}_mean_realized"], abs=0.15
        )
    # the strongest special expects its payout, sweep doubled (通杀翻倍)
    assert found.special_player[0] == pytest.approx(104.0)


def test_calibration_stream_never_meets_a_run_block() -> None:
    # a run's block b draws spawn_key (b,); the calibration's keys have two entries
    assert np.random.SeedSequence(0, spawn_key=(CALIBRATION_KEY, 0)).spawn_key != (0,)


# --- the variant file and the simulator ---------------------------------------------------------


def test_qiantang_plays_bidding_and_negotiation_by_default_and_each_can_be_switched_off(tmp_path):
    phases = QIANTANG.phases
    assert phases.bidding.enabled and phases.negotiation.enabled
    assert not phases.surrender.enabled and phases.surrender.cost == 3.0
    assert "004" in phases.negotiation.source
    path = tmp_path / "v.toml"
    path.write_text(
        '[variant]\nname = "v"\nextends = "qiantang"\n'
        "[phases.bidding]\nenabled = false\n[phases.negotiation]\nenabled = false\n",
        encoding="utf-8",
    )
    off = load_variant(path)
    assert not off.phases.any_enabled
    assert load_variant("guangxi").phases == Phases()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[phases.surrender]\ncost = -1", "surrender.cost must be 0 or more"),
        ("[phases.surrender]\nprice = 1", "unknown key 'price'"),
        ('[phases.surrender]\nwhen = "during"', "[phases].surrender.when: 'during' is not valid"),
        ("[phases.negotiation]\nunit = 0", "negotiation.unit must be above 0"),
        ('[phases.bidding]\npot = "half"', "[phases].bidding.pot"),
        ("[phases.bidding]\nbid = -2", "bidding.bid must be 0 or more"),
        ("[phases.auction]\nenabled = true", "unknown key 'auction'"),
    ],
)
def test_bad_phase_rules_name_the_key(tmp_path, text, message) -> None:
    path = tmp_path / "v.toml"
    path.write_text(f'[variant]\nname = "v"\nextends = "qiantang"\n{text}\n', encoding="utf-8")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert message in str(caught.value)
    assert "v.toml" in str(caught.value)


def test_phases_change_the_key_only_when_played() -> None:
    assert QIANTANG.key != with_phases().key
    assert with_phases().key == with_phases(surrender=Surrender(cost=5)).key  # all off


def test_simulate_pays_the_phases_as_components_and_stays_zero_sum() -> None:
    off = dataclasses.replace(QIANTANG, phases=Phases(), origin="qiantang-plain")
    result = simulate(
        [QIANTANG, off],
        2048,
        4,
        "max-ev",
        seed=11,
        n_jobs=1,
        progress=False,
        win_tables={"qiantang-plain": "qiantang"},
    )
    comps = result["components"]
    names = set(comps.filter(comps["variant"] == "qiantang")["component"])
    assert {"bidding", "negotiation"} <= names and "surrender" not in names
    plain = set(comps.filter(comps["variant"] == "qiantang-plain")["component"])
    assert not {"bidding", "negotiation", "surrender"} & plain
    scores = result["scores"]
    for name in ("qiantang", "qiantang-plain"):
        seats = scores.filter((scores["variant"] == name) & (scores["seat"] != "all"))
        assert seats["mean"].sum() == pytest.approx(0.0, abs=1e-9)


def test_settle_payments_is_empty_when_no_phase_is_played() -> None:
    hands = deal(8, 4, rng=1)
    (play,) = arrangements([hands], [load_variant("guangxi")], "greedy")
    assert settle_payments(play, load_variant("guangxi"), 4, "greedy") == {}


# --- the report section -------------------------------------------------------------------------


def _phase_row(phase: str, seat: str, diff: float, **extra) -> dict:
    return {
        "phase": phase, "variant": "qiantang", "players": 4, "seat": seat, "games": 4096,
        "with": 0.5 + diff, "without": 0.5, "diff": diff, "se": 0.0123,
        "ci_low": diff - 0.024, "ci_high": diff + 0.024, "seed": 7,
        "command": "python experiments/phase_value_x.py --seed 7", **extra,
    }  # fmt: skip


def test_report_section_shows_every_phase_row_with_its_ci_and_command(tmp_path) -> None:
    import json

    from simkit.report import SECTIONS, phases_lines, phases_section

    assert phases_section in SECTIONS
    rows = [
        _phase_row("谈判 negotiation", "banker", 0.25, rate=0.47),
        _phase_row("谈判 negotiation", "player", -0.0833),
    ]
    (tmp_path / "settle.json").write_text(
        json.dumps({"meta": {}, "rows": rows}, ensure_ascii=False), encoding="utf-8"
    )
    (tmp_path / "exchange.json").write_text(
        json.dumps([_phase_row("换牌 exchange", "all", 0.0, fair_bid=1.25)]), encoding="utf-8"
    )
    (tmp_path / "broken.json").write_text('[{"phase": "x"}]', encoding="utf-8")
    (tmp_path / "idle.json").write_text(
        json.dumps([{**_phase_row("抛牌 cost 6", seat, 0.0), "se": 0.0}
                    for seat in ("banker", "player")]),
        encoding="utf-8",
    )  # fmt: skip
    section = "\n".join(phases_lines(tmp_path))
    assert section.startswith("## What the phases are worth")
    # one line per phase, variant and player count, a column per seat
    header = "| phase | variant | players | games | banker: worth (95% CI) | player: worth"
    assert header in section
    row = next(line for line in section.splitlines() if line.startswith("| 谈判 negotiation"))
    assert row.startswith("| 谈判 negotiation | qiantang | 4 | 4,096 | +0.250 (+0.226 to +0.274) |")
    assert "| -0.083 (-0.107 to -0.059) |" in row and "| 47.0% |" in row
    assert "=" not in row  # no key=value notes
    assert "| 换牌 exchange | qiantang | 4 | 4,096 | – | – |" in section
    assert "fair bid 1.25" in section
    assert "`python experiments/phase_value_x.py --seed 7` (`exchange.json`)" in section
    # a phase that changed no score in any seat is no row, but named
    assert "| 抛牌 cost 6 |" not in section
    assert "Left out, as they changed no score in any seat" in section
    assert "抛牌 cost 6 (qiantang, 4 players)" in section
    assert "0.000 ± 0.000" not in section and "+0.000 to +0.000" not in section
    assert "`broken.json` could not be read (a row has no variant" in section


def test_report_section_says_how_to_make_missing_measurements(tmp_path) -> None:
    from simkit.report import phases_lines

    section = "\n".join(phases_lines(tmp_path / "absent"))
    assert "experiments/pipelines/phase_value_*.py" in section
    assert "no measurement in `absent/`" in section
