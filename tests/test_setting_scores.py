"""A set hand's expected score under the full rules (simkit.setting_scores): the protocol, the
cache, and agreement with independent rollouts over 20,000 deals."""

import numpy as np
import pytest

from simkit.arrange import arrange, as_strategy, legal_splits, split_values
from simkit.cards import parse_cards
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.regret import rollout_values
from simkit.setting_scores import (
    CHUNK,
    ENTROPY,
    OPPONENTS,
    cache_dir,
    expected_scores,
    phases_not_played,
)
from simkit.splits import split_positions
from simkit.variants import resolve_variant
from simkit.variants.transforms import with_compare

README_HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"


def _hand(text=README_HAND):
    return np.sort(parse_cards(text))


def test_opponents_play_the_default_strategy():
    from simkit.simulate import DEFAULT_STRATEGY

    assert OPPONENTS == DEFAULT_STRATEGY


def test_one_chunk_is_rollout_values_on_the_first_seed_of_the_stream():
    hand = _hand()
    mine, _ = arrange(hand, "western-2-4", n_players=2)
    got = expected_scores(hand, mine[None], "western-2-4", 2, max_deals=CHUNK, cache=False)
    mean, se = rollout_values(
        hand, mine[None], "western-2-4", 2, rollouts=CHUNK,
        seed=np.random.SeedSequence(ENTROPY, spawn_key=(0,)), opponents=OPPONENTS,
    )  # fmt: skip
    assert got.deals == CHUNK
    np.testing.assert_allclose(got.mean, mean)
    np.testing.assert_allclose(got.se, se)


def test_deals_until_the_target_se_and_a_longer_run_extends_a_shorter_one():
    hand = _hand()
    mine, _ = arrange(hand, "western-2-4", n_players=2)
    loose = expected_scores(hand, mine[None], "western-2-4", 2, target_se=10.0, cache=False)
    assert loose.deals == CHUNK  # one chunk meets any loose target
    two = expected_scores(
        hand, mine[None], "western-2-4", 2, target_se=0.0, max_deals=2 * CHUNK, cache=False
    )
    second, _ = rollout_values(
        hand, mine[None], "western-2-4", 2, rollouts=CHUNK,
        seed=np.random.SeedSequence(ENTROPY, spawn_key=(1,)), opponents=OPPONENTS,
    )  # fmt: skip
    assert two.deals == 2 * CHUNK
    np.testing.assert_allclose(two.mean, (loose.mean + second) / 2)


@pytest.mark.filterwarnings("ignore:no trained win tables")
def test_the_cache_answers_the_same_question_and_not_a_changed_one(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(tmp_path))
    assert cache_dir() == tmp_path / "setting-scores"
    hand = _hand()
    v = resolve_variant("western-2-4")
    mine, _ = arrange(hand, v, n_players=2)
    first = expected_scores(hand, mine[None], v, 2, max_deals=2000)
    assert not first.cached and len(list(cache_dir().glob("*.json"))) == 1
    again = expected_scores(hand, mine[None], v, 2, max_deals=2000)
    assert again.cached and again.deals == first.deals
    np.testing.assert_array_equal(again.mean, first.mean)
    np.testing.assert_array_equal(again.se, first.se)
    # another rule is another question: measured again, stored beside the first
    changed = with_compare(v, "top-card")
    other = expected_scores(hand, mine[None], changed, 2, max_deals=2000)
    assert not other.cached and len(list(cache_dir().glob("*.json"))) == 2
    # so is another seat, or other settings
    assert not expected_scores(hand, mine[None], v, 2, max_deals=2000, seat="banker").cached


def test_an_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(blocker))
    hand = _hand()
    mine, _ = arrange(hand, "western-2-4", n_players=2)
    assert expected_scores(hand, mine[None], "western-2-4", 2, max_deals=100).deals == 100


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target_se": -1.0}, "target_se"),
        ({"max_deals": 1}, "max_deals"),
        ({"max_deals": True}, "max_deals"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    hand = _hand()
    with pytest.raises(SimkitError, match=message):
        expected_scores(hand, hand[None], "western-2-4", 2, cache=False, **kwargs)


def test_the_phases_left_out_are_named():
    assert phases_not_played(resolve_variant("western-2-4")) == []
    skipped = phases_not_played(resolve_variant("qiantang"))
    assert any("换牌" in s for s in skipped) and any("谈判" in s for s in skipped)


# --- agreement with independent rollouts over 20,000 deals --------------------------------

REFERENCE_DEALS = 20_000
#: Hands dealt for the agreement test, beside the README's: seat 0 of deal(1, p, rng=seed).
CASES = [
    ("western-2-4", 2, "player", None),
    ("western-2-4", 2, "player", 3),
    ("guangxi", 4, "player", None),
    ("guangxi", 4, "player", 3),
    ("taiwan", 4, "banker", None),
    ("taiwan", 4, "banker", 3),
    ("taiwan", 4, "player", None),
    ("taiwan", 4, "player", 3),
    ("qiantang", 4, "player", None),
    ("qiantang", 4, "player", 3),
]


def _best_and_worse(hand, v, n_players):
    """The default strategy's setting and a worse one: the fifth the model rates highest."""
    strategy = as_strategy(OPPONENTS)
    best, _ = arrange(hand, v, strategy, n_players=n_players)
    ids, ranks = legal_splits(hand, v)
    values = split_values(ranks, strategy.solver(v, n_players))
    fifth = ids[np.argsort(-values, kind="stable")[4]]
    worse = hand[split_positions(fifth[None]).astype(np.int64)][0]
    return np.stack([best, worse]).astype(np.int8)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "n_players", "seat", "deal_seed"), CASES)
def test_agrees_with_20000_independent_rollouts(variant, n_players, seat, deal_seed):
    """Within 0.2 points, or 2 standard errors of the difference of the two estimates (each
    has its own noise: the reference's alone is 2 SE of the rollout), of a rollout on 20,000
    deals of another stream, for the default strategy's setting and a worse one."""
    v = resolve_variant(variant)
    if deal_seed is None:
        hand = _hand()
    else:
        hand = np.sort(deal(1, n_players, rng=np.random.default_rng(deal_seed))[0, 0])
    settings = _best_and_worse(hand, v, n_players)
    ours = expected_scores(hand, settings, v, n_players, seat=seat, cache=False)
    ref, ref_se = rollout_values(
        hand, settings, v, n_players, rollouts=REFERENCE_DEALS, seed=12_345, seat=seat,
        opponents=OPPONENTS,
    )  # fmt: skip
    tolerance = np.maximum(0.2, 2 * np.hypot(ours.se, ref_se))
    assert (np.abs(ours.mean - ref) <= tolerance).all(), (ours.mean, ours.se, ref, ref_se)
