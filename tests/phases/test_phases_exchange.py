"""The phases that change the hands before they are set: 001's 菲律宾 pass and 004's 钱塘 换牌.

Clause tests quote the source on a constructed deal; property tests check that cards are only
moved (each hand stays 13 distinct cards, the deck is conserved) and that payments sum to zero.
Hands are written ``"front | middle | back"`` (the layout does not matter before setting).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest
from conftest import table
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.arrange import make_solver
from simkit.deal import deal, pass_cards, pass_chosen, undealt
from simkit.phases import add_payments
from simkit.phases.exchange import FEES, exchange_four, exchange_three, play_exchange
from simkit.phases.hand_value import hand_values, spare_order
from simkit.phases.passing import (
    banker_after,
    banker_choice,
    banker_kinds,
    banker_option_values,
    banker_options,
    chosen_cards,
    directions,
    imagined_seats,
    option_kind,
    play_passing,
    play_rounds,
)
from simkit.simulate import simulate
from simkit.variants import load_variant
from simkit.variants.rules import CardExchange, CardPass
from simkit.variants.schema import VariantError


@pytest.fixture(scope="module")
def philippines():
    return load_variant("philippines")


@pytest.fixture(scope="module")
def qiantang():
    return load_variant("qiantang")


@pytest.fixture(scope="module")
def solver4(philippines):
    return make_solver(philippines, 4)


def sorted_hands(hands: np.ndarray) -> np.ndarray:
    return np.sort(hands, axis=2).astype(np.int8)


def rest_of_deck(*hands: str, n_players: int) -> np.ndarray:
    """One game: the hands given, then the other seats dealt the lowest cards left, in order."""
    given_hands = table(*hands)[0]
    left = np.setdiff1d(np.arange(52), given_hands.ravel())
    others = left[: 13 * (n_players - len(hands))].reshape(-1, 13)
    return sorted_hands(np.concatenate([given_hands, others])[None].astype(np.int8))


def assert_cards_only_moved(before: np.ndarray, after: np.ndarray) -> None:
    n = before.shape[0]
    np.testing.assert_array_equal(
        np.sort(before.reshape(n, -1), axis=1), np.sort(after.reshape(n, -1), axis=1)
    )
    assert (np.diff(after, axis=2) > 0).all()  # each hand sorted, 13 distinct cards


# --- 001 菲律宾玩法 ------------------------------------------------------------------------------

STRONG = "Ks Kd Kc | 2s 3s 4s 5s 6s | 9h Th Jh Qh Kh"  # trips, two straight flushes: no spare
WEAK = "2c 2d 3c | 3d 4h 6c 7d 7h | 8h Tc Jd Qs As"  # three low pairs, nothing else


def test_001_the_banker_whose_hand_gains_from_no_pass_does_not_pass(philippines, solver4) -> None:
    """001: "“换三张牌”由庄家决定次数,包括: 不换,换一次,换两次".  A banker with front trips and two
    straight flushes has no card to spare: every pass breaks a dun, so no pass (不换) is worth
    the most to it, and it chooses 0 rounds; the hands stay as dealt."""
    hands = rest_of_deck(STRONG, n_players=4)
    values, options = banker_option_values(hands, "chosen", solver4, np.random.default_rng(1))
    assert options[0] == (0, 0, 0)
    assert values[0, 0] > values[0, 1:].max()
    passed = play_passing(hands, philippines, solver4, np.random.default_rng(1))
    assert passed.rounds.tolist() == [0]
    np.testing.assert_array_equal(passed.hands, hands)


def test_001_the_banker_takes_the_option_it_values_most(philippines, solver4) -> None:
    """001: "交换次序由庄家决定,包括:顺时针,逆时针,与对家交换": the banker passes where the
    cross-fitted value of passing beats no pass, then plays an option of the kind of the largest
    mean (same imagined deals); options of one kind are valued alike."""
    hands = deal(64, 4, rng=3)
    choice = banker_choice(hands, "chosen", solver4, np.random.default_rng(9))
    passed = play_passing(hands, philippines, solver4, np.random.default_rng(9))
    values, options = choice.values, choice.options
    best = np.array(options)[choice.chosen]
    np.testing.assert_array_equal(passed.rounds, best[:, 0])
    np.testing.assert_array_equal(passed.shift, best[:, 1])
    passes = choice.chosen > 0
    np.testing.assert_array_equal(passes, choice.pass_value > values[:, 0])
    played = values[np.arange(64), choice.chosen]
    np.testing.assert_allclose(played[passes], values[passes, 1:].max(axis=1))
    for r, s, t in options[1:]:  # one round: every direction alike; two: by kind
        same = [i for i, o in enumerate(options) if option_kind(*o, 4) == option_kind(r, s, t, 4)]
        np.testing.assert_array_equal(values[:, same], values[:, same[:1]].repeat(len(same), 1))
    expected = play_rounds(hands, best[:, 0], best[:, 1], "chosen", solver4)
    np.testing.assert_array_equal(passed.hands, expected)
    assert_cards_only_moved(hands, passed.hands)


def test_001_directions_clockwise_counter_clockwise_and_across() -> None:
    """001: "顺时针,逆时针,与对家交换": seat shifts 1, p − 1 and p/2 (对家 exists at even tables
    only; at 2 players the three are one)."""
    assert directions(4) == (1, 3, 2)
    assert directions(3) == (1, 2)
    assert directions(2) == (1,)


def test_001_each_player_chooses_its_three_cards(solver4) -> None:
    """001 "换三张牌" does not say which three: each player passes the cards its max-ev
    arrangement spares best.  A hand whose lowest cards are a pair of 2s keeps the pair and
    passes kickers; the three-lowest reading passes the pair away."""
    hand = "2c 2d 5h | 7c 8d 9s Jc Kd | Ah As Ad Qh Qs"
    hands = rest_of_deck(hand, n_players=4)
    chosen = set(hands[0, 0][chosen_cards(hands, "chosen", solver4)[0, 0]].tolist())
    lowest = set(hands[0, 0][chosen_cards(hands, "lowest", solver4)[0, 0]].tolist())
    two_clubs, two_diamonds = 0, 1
    assert {two_clubs, two_diamonds} <= lowest
    assert not {two_clubs, two_diamonds} & chosen
    # a pass moves them: seat 1 receives seat 0's three cards (clockwise)
    after = pass_chosen(hands, chosen_cards(hands, "chosen", solver4), 1)
    assert chosen <= set(after[0, 1].tolist())
    assert not chosen & set(after[0, 0].tolist())


def test_the_fixed_reading_plays_as_before(philippines, solver4) -> None:
    """``choice = "fixed"``, ``cards = "lowest"``: the earlier reading (one clockwise pass of
    the three lowest cards), move for move what :func:`pass_cards` did."""
    fixed = CardPass(rounds=1, direction="clockwise", choice="fixed", cards="lowest")
    variant = dataclasses.replace(
        philippines, deal=dataclasses.replace(philippines.deal, passing=fixed)
    )
    hands = deal(200, 4, rng=4)
    passed = play_passing(hands, variant, solver4, np.random.default_rng(0))
    np.testing.assert_array_equal(passed.hands, pass_cards(hands, 1, "clockwise"))
    chosen = dataclasses.replace(fixed, cards="chosen", direction="across", rounds=2)
    variant = dataclasses.replace(
        philippines, deal=dataclasses.replace(philippines.deal, passing=chosen)
    )
    passed = play_passing(hands, variant, solver4, np.random.default_rng(0))
    assert set(passed.rounds.tolist()) == {2} and set(passed.shift.tolist()) == {2}
    assert_cards_only_moved(hands, passed.hands)


@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    cards=st.sampled_from(["chosen", "lowest"]),
)
def test_passing_only_moves_cards(seed, players, cards) -> None:
    variant = load_variant("philippines")
    passing = CardPass(choice="banker", cards=cards)
    variant = dataclasses.replace(variant, deal=dataclasses.replace(variant.deal, passing=passing))
    hands = deal(6, players, rng=seed)
    passed = play_passing(
        hands, variant, make_solver(variant, players), np.random.default_rng(seed)
    )
    assert_cards_only_moved(hands, passed.hands)
    assert set(passed.rounds.tolist()) <= {0, 1, 2}
    assert ((passed.rounds == 0) == (passed.shift == 0)).all()


# --- 004 钱塘 换牌 ------------------------------------------------------------------------------


def test_004_four_players_each_exchange_exactly_once(qiantang) -> None:
    """004 （二）1: "每人背面放置1张牌用于交换。庄家优先查看其余三人所放之牌，可选择其中一张替换
    自己的手牌 … 随后由被换牌者继续选择，直至四人均完成换牌。"  Every player takes one card and
    gives one, in one chain from the banker back to it; the cards are only moved; the banker
    takes the card that its hand values most, and the player robbed the better of the two left
    to it."""
    solver = make_solver(qiantang, 4)
    hands = deal(300, 4, rng=5)
    done = exchange_four(hands, solver)
    assert_cards_only_moved(hands, done.hands)
    took = done.took_from
    assert (np.sort(took, axis=1) == np.arange(4)).all()  # each card taken once
    assert (took != np.arange(4)).all()  # nobody keeps its own
    seat = np.zeros(300, dtype=np.int64)
    for _ in range(4):  # following the chain from the banker visits every seat: one cycle
        seat = took[np.arange(300), seat]
        if _ < 3:
            assert (seat != 0).all()
    assert (seat == 0).all()
    changed = (done.hands[:, :, :, None] != hands[:, :, None, :]).all(axis=3).sum(axis=2)
    assert (changed == 1).all()  # one card in, one card out, for every player
    order, _ = spare_order(hands, solver)
    placed = np.take_along_axis(hands, order[..., :1], axis=2)[..., 0]
    banker_rest = [np.setdiff1d(hands[g, 0], placed[g, :1]) for g in range(300)]
    options = np.stack(
        [[np.append(r, placed[g, j]) for j in (1, 2, 3)] for g, r in enumerate(banker_rest)]
    )
    best = 1 + np.argmax(hand_values(np.sort(options, axis=2), solver), axis=1)
    np.testing.assert_array_equal(took[:, 0], best)


def test_004_three_players_the_banker_buys_the_undealt_cards(qiantang) -> None:
    """004 （二）2: "庄家可支付1道补偿给两位闲家，换取剩余未发的13张新牌".  A banker with a
    weak hand (three low pairs) pays 1 道 to each player and holds the 13 undealt cards; the players keep
    theirs."""
    hands = rest_of_deck(WEAK, STRONG, n_players=3)
    solver = make_solver(qiantang, 3)
    done = exchange_three(hands, 1.0, solver, np.random.default_rng(0))
    assert done.bought.tolist() == [0]
    np.testing.assert_array_equal(done.hands[0, 0], undealt(hands)[0])
    np.testing.assert_array_equal(done.hands[0, 1:], hands[0, 1:])
    assert done.payments[FEES].tolist() == [[-2.0, 1.0, 1.0]]


def test_004_three_players_a_player_buys_when_the_banker_declines(qiantang) -> None:
    """004 （二）2: "若庄家放弃，则按顺时针顺序，闲家可各付1道给庄家以换取新牌".  A strong banker
    declines; seat 1, weak, is asked first, pays the banker 1 道 and takes the new cards."""
    hands = rest_of_deck(STRONG, WEAK, n_players=3)
    done = exchange_three(hands, 1.0, make_solver(qiantang, 3), np.random.default_rng(0))
    assert done.bought.tolist() == [1]
    np.testing.assert_array_equal(done.hands[0, 1], undealt(hands)[0])
    assert done.payments[FEES].tolist() == [[1.0, -1.0, 0.0]]


def test_undealt_cards_are_the_rest_of_the_deck() -> None:
    hands = deal(50, 3, rng=6)
    left = undealt(hands)
    assert left.shape == (50, 13) and left.dtype == np.int8
    whole = np.concatenate([hands.reshape(50, -1), left], axis=1)
    assert (np.sort(whole, axis=1) == np.arange(52)).all()
    assert undealt(deal(3, 4, rng=1)).shape == (3, 0)


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_the_exchange_moves_cards_and_its_fees_sum_to_zero(seed, players) -> None:
    variant = load_variant("qiantang")
    hands = deal(8, players, rng=seed)
    done = play_exchange(hands, variant, make_solver(variant, players), np.random.default_rng(seed))
    assert (np.diff(done.hands, axis=2) > 0).all()
    if players == 3:  # the deck: the hands now held and the hand given up (or the stock)
        held = done.hands.reshape(8, -1)
        assert all(len(set(row.tolist())) == 39 for row in held)
        fees = done.payments[FEES]
        np.testing.assert_allclose(fees.sum(axis=1), 0.0)
        np.testing.assert_allclose(
            np.abs(fees).sum(axis=1), np.where(done.bought >= 0, 2 + 2 * (done.bought == 0), 0)
        )
        total, parts = add_payments((np.zeros((8, 3)), {}), done.payments)
        np.testing.assert_array_equal(total, fees)
        np.testing.assert_array_equal(parts[FEES], fees)
    else:
        assert_cards_only_moved(hands, done.hands)
        assert done.payments == {}


# --- the rule files and the simulator --------------------------------------------------------


def test_the_phases_are_variant_data(tmp_path) -> None:
    """``[deal.passing]`` and ``[deal.exchange]`` are checked on load; each phase switches off."""
    assert load_variant("philippines").deal.passing.choice == "banker"
    assert load_variant("qiantang").deal.exchange.play
    assert not load_variant("hongkong").deal.changes_hands
    path = tmp_path / "bad.toml"
    path.write_text(
        '[variant]\nname = "bad"\nextends = "qiantang"\n[deal.exchange]\nswap = true\n',
        encoding="utf-8",
    )
    with pytest.raises(VariantError, match="swap"):
        load_variant(path)
    path.write_text(
        '[variant]\nname = "bad"\nextends = "philippines"\n[deal.passing]\nchoice = "dealer"\n',
        encoding="utf-8",
    )
    with pytest.raises(VariantError, match="choice"):
        load_variant(path)
    path.write_text(
        '[variant]\nname = "hongkong"\nextends = "hongkong"\n'
        '[deal.passing]\nchoice = "fixed"\ncards = "lowest"\n[deal.exchange]\nplay = false\n',
        encoding="utf-8",
    )
    assert load_variant(path).key == load_variant("hongkong").key  # the old rules, the old key
    with pytest.raises(ValueError, match="fee"):
        CardExchange(play=True, fee=-1)


def test_the_exchange_fees_are_a_score_component() -> None:
    """At 3 players qiantang's fees join the scores as the ``exchange_fees`` component: scores
    still sum to zero, and the components still add up to the score."""
    result = simulate("qiantang", 300, 3, seed=1, n_jobs=1, progress=False)
    comps = result["components"]
    fees = comps.filter(pl.col("component") == FEES)
    assert fees.height == 1 and fees["mean_abs"][0] > 0
    assert comps["mean"].sum() == pytest.approx(0.0, abs=1e-9)
    assert comps["var_share"].sum() == pytest.approx(1.0, abs=1e-9)
    scores = result["scores"].filter(pl.col("seat") != "all")
    assert scores["mean"].sum() == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize(("cards", "players"), [("chosen", 4), ("lowest", 4), ("chosen", 3)])
def test_the_banker_plays_out_only_what_reaches_it(solver4, cards, players) -> None:
    """The banker's valuation plays out only the passes that reach it, each kind of option once
    (:func:`banker_kinds`); for every option, its hand is the one the whole table's passes give
    (:func:`play_rounds`, the reference) on the imagined deal with the hands seated as
    :func:`imagined_seats` says, so options of one kind differ only by which seat holds which
    exchangeable unseen hand."""
    n = 30
    hands = deal(n, players, rng=8)
    options = banker_options(players, each_round=True)
    kinds = list(dict.fromkeys(option_kind(*o, players) for o in options[1:]))
    found = banker_kinds(hands[:, 0], hands[:, 1:], kinds, cards, solver4)
    for rounds, s, t in options[1:]:
        kind = option_kind(rounds, s, t, players)
        seats = imagined_seats(kind, s, t, players)
        at = {seat: min(i, players - 2) for seat, i in seats.items()}  # seat → others index
        free = [i for i in range(players - 1) if i not in at.values()]
        index = [at[seat] if seat in at else free.pop(0) for seat in range(1, players)]
        seated = hands[:, [0] + [1 + i for i in index]]
        reference = play_rounds(
            seated, np.full(n, rounds), np.full(n, s), cards, solver4, np.full(n, t)
        )
        hand, value = found[kind]
        np.testing.assert_array_equal(hand, reference[:, 0])
        np.testing.assert_allclose(value, hand_values(reference[:, 0], solver4))
        if rounds == 2 and s == t:  # banker_after, the option-by-option play-out, agrees
            first = chosen_cards(seated, cards, solver4)
            _, twice = banker_after(seated, first, s, cards, solver4)
            np.testing.assert_array_equal(twice, hand)


def test_pass_directions_are_seat_shifts() -> None:
    from simkit.deal import pass_shift
    from simkit.errors import SimkitError

    assert [pass_shift(d, 4) for d in ("clockwise", "counter-clockwise", "across")] == [1, 3, 2]
    with pytest.raises(SimkitError, match="even table"):
        pass_shift("across", 3)
    with pytest.raises(SimkitError, match="unknown pass direction"):
        pass_shift("left", 4)


# --- issue 52.3: the readings left open, as options ---------------------------------------------


def test_001_two_rounds_may_pass_in_different_directions(philippines, solver4) -> None:
    """001: "“换三张牌”由庄家决定次数,包括: 不换,换一次,换两次。交换次序由庄家决定,包括:顺时针,
    逆时针,与对家交换" names one 次序 for the rounds; ``second`` reads it the other way.  Fixed:
    two rounds of the three lowest cards, clockwise then counter-clockwise, are the two passes
    one after the other (each seat's three cards come back to a seat's neighbour the other
    way); the default second round goes the first's way."""
    two_ways = CardPass(rounds=2, direction="clockwise", second="counter-clockwise")
    variant = dataclasses.replace(
        philippines, deal=dataclasses.replace(philippines.deal, passing=two_ways)
    )
    hands = deal(50, 4, rng=8)
    passed = play_passing(hands, variant, solver4, np.random.default_rng(0))
    expected = pass_cards(pass_cards(hands, 1, "clockwise"), 1, "counter-clockwise")
    np.testing.assert_array_equal(passed.hands, sorted_hands(expected))
    assert passed.shift.tolist() == [1] * 50 and passed.shift2.tolist() == [3] * 50
    assert CardPass().second == "same"
    with pytest.raises(Exception, match="needs choice = 'banker'"):
        CardPass(rounds=2, second="any")
    with pytest.raises(Exception, match="lets the banker choose"):
        CardPass(choice="banker", second="across")


def test_001_the_banker_may_choose_each_rounds_direction(philippines, solver4) -> None:
    """``second = "any"`` with the banker's choice: the banker weighs two rounds in different
    directions too (3 directions at 4 players: 6 ordered pairs beside the 7 options of one
    direction), and plays the option it values most."""
    rules = dataclasses.replace(philippines.deal.passing, second="any")
    variant = dataclasses.replace(
        philippines, deal=dataclasses.replace(philippines.deal, passing=rules)
    )
    hands = deal(32, 4, rng=11)
    choice = banker_choice(hands, "chosen", solver4, np.random.default_rng(2), each_round=True)
    options = choice.options
    assert len(options) == 13 and (2, 1, 3) in options and (2, 3, 1) in options
    passed = play_passing(hands, variant, solver4, np.random.default_rng(2))
    best = np.array(options)[choice.chosen]
    np.testing.assert_array_equal(passed.shift2, best[:, 2])
    expected = play_rounds(hands, best[:, 0], best[:, 1], "chosen", solver4, best[:, 2])
    np.testing.assert_array_equal(passed.hands, expected)
    assert_cards_only_moved(hands, passed.hands)
