"""Skill against luck and what a rule is worth (issue 51, items 6 and 7): the games-to-lead
formula, the perfect-information bound against a slow exhaustive reference, the rule-off
transforms and the report sections that quote both studies."""

from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest

from simkit.arrange import arrange
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.report import Page
from simkit.report.skill import rule_worth_section, skill_section
from simkit.score import fouled, score
from simkit.simulate import SimulationResult
from simkit.skill import (
    best_response,
    fixed_play_total,
    games_to_lead,
    games_to_lead_ci,
    perfect_information,
    sd_change,
    sd_ci,
    seat_settings,
)
from simkit.specials import best_special, detect_specials
from simkit.variants import load_variant
from simkit.variants.schema import VariantError
from simkit.variants.transforms import rules_of, without

# --------------------------------------------------------------------------- games to lead


def test_games_to_lead_is_the_normal_formula() -> None:
    assert games_to_lead(0.5, 10.0) == pytest.approx((1.644854 * 10.0 / 0.5) ** 2)
    assert games_to_lead(1.0, 0.0) == 0.0
    assert games_to_lead(0.0, 3.0) == math.inf
    assert games_to_lead(-0.2, 3.0) == math.inf
    with pytest.raises(SimkitError, match="sd"):
        games_to_lead(0.1, -1.0)
    # at N games the sum's chance of being above 0 is Φ(√N·edge/sd) = 95%
    n = games_to_lead(0.3, 12.0)
    assert NormalDist().cdf(math.sqrt(n) * 0.3 / 12.0) == pytest.approx(0.95, abs=1e-6)


def test_games_to_lead_holds_in_simulated_sessions() -> None:
    """Sessions of N games with that edge and SD are ahead 95% of the time (within 4 SE)."""
    edge, sd = 0.5, 4.0
    n = round(games_to_lead(edge, sd))
    gen = np.random.default_rng(0)
    sessions = 20_000
    sums = gen.normal(edge * n, sd * math.sqrt(n), size=sessions)  # a sum of n normal games
    ahead = float(np.mean(sums > 0))
    assert abs(ahead - 0.95) < 4 * math.sqrt(0.95 * 0.05 / sessions)


def test_games_to_lead_interval_brackets_the_estimate() -> None:
    low, high = games_to_lead_ci(0.2, 0.6, 9.0, 11.0)
    assert low < games_to_lead(0.4, 10.0) < high
    assert games_to_lead_ci(-0.1, 0.6, 9.0, 11.0)[1] == math.inf


# --------------------------------------------------------------------------- perfect information


def _reference_best(cards: np.ndarray, declared: np.ndarray, variant, seat: int) -> float:
    """Slow reference: every ordered (front, middle, back) split of the seat's 13 cards by
    itertools, the legal ones kept (:func:`simkit.score.fouled`), each scored against the fixed
    other seats; and declaring the best special where the hand qualifies."""
    hand = np.sort(cards[seat])
    options, decl = [], []
    for front in combinations(range(13), 3):
        rest = [i for i in range(13) if i not in front]
        for middle in combinations(rest, 5):
            back = [i for i in rest if i not in middle]
            options.append(hand[list(front) + list(middle) + back])
    options_arr = np.array(options, dtype=np.int8)
    options_arr = options_arr[~fouled(options_arr, variant)]
    decl = [-1] * len(options_arr)
    best = int(best_special(detect_specials(hand[None], variant))[0])
    if best >= 0:
        options_arr = np.concatenate([options_arr, options_arr[:1]])
        decl.append(best)
    games = np.repeat(cards[None], len(options_arr), axis=0)
    games[:, seat] = options_arr
    declares = np.repeat(declared[None], len(options_arr), axis=0)
    declares[:, seat] = decl
    return float(np.max(np.asarray(score(games, variant, declared=declares))[:, seat]))


@pytest.mark.parametrize(("name", "seat"), [("hongkong", 0), ("taiwan", 0), ("taiwan", 1)])
def test_best_response_equals_the_exhaustive_reference(name: str, seat: int) -> None:
    v = load_variant(name)
    hands = deal(2, 4, rng=np.random.default_rng(5))
    cards, declared = arrange(hands, v, "greedy", n_players=4)
    for g in range(2):
        got, got_cards, got_decl = best_response(cards[g], declared[g], v, seat)
        assert got == pytest.approx(_reference_best(cards[g], declared[g], v, seat))
        # the setting returned scores what it says
        game = cards[g].copy()
        game[seat] = got_cards
        decl = declared[g].copy()
        decl[seat] = got_decl
        assert float(np.asarray(score(game[None], v, declared=decl[None]))[0, seat]) == got


def test_seat_settings_are_legal_and_include_a_declaration_where_one_qualifies() -> None:
    v = load_variant("hongkong")
    # six pairs and a single (六对半) qualifies as a special
    hand = np.array([0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 50], dtype=np.int8)
    options, decl = seat_settings(hand, v)
    assert not fouled(options[decl < 0], v).any()
    assert (decl >= 0).sum() == 1
    assert all(sorted(o) == sorted(hand) for o in options)


@pytest.mark.parametrize("name", ["guangxi", "taiwan"])
def test_bound_is_at_least_the_default_on_every_deal(name: str) -> None:
    """The best against the others' set hands is a max over settings the default's is among:
    never below the default's own score, deal by deal."""
    v = load_variant(name)
    hands = deal(6, 4, rng=np.random.default_rng(11))
    cards, declared = arrange(hands, v, n_players=4)  # the default strategy
    own = np.asarray(score(cards, v, declared=declared))
    for seat in (0, 1):
        for g in range(len(hands)):
            assert best_response(cards[g], declared[g], v, seat)[0] >= own[g, seat] - 1e-9
        row = perfect_information(v, cards, declared, seat)
        assert row["bound"] >= 0 and row["bound_ci_low"] <= row["bound"] <= row["bound_ci_high"]


# --------------------------------------------------------------------------- rules switched off


@pytest.mark.parametrize(
    ("name", "rule", "component"),
    [
        ("guangxi", "transform:scoop", "scoops"),
        ("guangxi", "transform:home-run", "home_run"),
        ("guangxi", "transform:t-formula", "t_formula"),
        ("guangxi", "specials", "specials"),
        ("qiantang", "transform:horse", "horse"),
    ],
)
def test_a_rule_switched_off_moves_its_component_to_zero(name, rule, component) -> None:
    v = load_variant(name)
    hands = deal(3000, 4, rng=np.random.default_rng(2))
    cards, declared = arrange(hands, v, "greedy", n_players=4)
    _, on = score(cards, v, declared=declared, breakdown=True)
    assert np.abs(on[component]).sum() > 0  # the rule moves points on these deals
    off_variant = without(v, rule)
    off_declared = declared if not rule.startswith("special") else np.full_like(declared, -1)
    _, off = score(cards, off_variant, declared=off_declared, breakdown=True)
    assert np.abs(off[component]).sum() == 0
    assert off_variant.key != v.key and rule not in rules_of(off_variant)


def test_one_special_off_keeps_the_others_and_fixed_play_drops_its_declarations() -> None:
    v = load_variant("hongkong")
    off = without(v, "special:six-pairs")
    assert "six-pairs" not in off.specials.ids
    assert [i for i in v.specials.ids if i != "six-pairs"] == list(off.specials.ids)
    hand = np.array([0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 50], dtype=np.int8)
    hands = np.stack(
        [hand] + [np.setdiff1d(np.arange(52), hand)[13 * k : 13 * k + 13] for k in range(3)]
    )
    cards, declared = arrange(hands[None], v, "greedy", n_players=4)
    assert declared[0, 0] == v.specials.ids.index("six-pairs")
    game = {"cards": cards, "declared": declared, "components": {}}
    fixed = fixed_play_total(v, off, "special:six-pairs", game)
    six = v.specials.ids.index("six-pairs")  # every hand here is six pairs and a single
    undeclared = np.where(declared == six, -1, np.where(declared > six, declared - 1, declared))
    assert (undeclared == -1).all()
    assert np.array_equal(fixed, np.asarray(score(cards, off, declared=undeclared)))


def test_phases_switch_off_and_bad_rules_are_refused() -> None:
    v = load_variant("qiantang")
    assert "phase:negotiation" in rules_of(v)
    off = without(v, "phase:negotiation")
    assert (
        not off.phases.negotiation.enabled
        and off.phases.bidding.enabled == v.phases.bidding.enabled
    )
    assert off.name == "qiantang+no-negotiation"
    with pytest.raises(VariantError, match=r"its rules: .*transform:scoop"):
        without(v, "transform:t-formula")
    with pytest.raises(VariantError, match="a rule is one of"):
        without(v, "majority")


@pytest.mark.parametrize(
    ("name", "rule"), [("qiantang", "phase:exchange"), ("philippines", "phase:pass")]
)
def test_a_phase_before_setting_switched_off_leaves_the_deal_as_dealt(name, rule) -> None:
    """004 换牌 ("每人背面放置1张牌用于交换") and 001's banker's pass ("庄家有权要求”换三张牌”")
    change the hands before they are set; switched off, the hands set are the hands dealt and
    no fee is paid, while the variant itself changes them."""
    from simkit.phases import before_setting

    v = load_variant(name)
    assert rule in rules_of(v)
    off = without(v, rule)
    assert rule not in rules_of(off) and off.key != v.key
    assert off.name == f"{name}+no-{rule.partition(':')[2]}"
    dealt = deal(6, 4, rng=np.random.default_rng(3))
    seed = np.random.SeedSequence(4)
    hands, paid = before_setting(dealt, off, None, seed, "greedy")
    assert np.array_equal(hands, dealt) and not paid
    hands_on, _ = before_setting(dealt, v, None, seed, "greedy")
    assert not np.array_equal(np.sort(hands_on, axis=-1), np.sort(dealt, axis=-1))


def test_sd_change_is_the_difference_of_the_two_sds() -> None:
    gen = np.random.default_rng(0)
    a = gen.normal(0, 3, size=4000)
    b = a * 1.2 + gen.normal(0, 0.5, size=4000)
    got = sd_change(a, a * a, b, b * b)
    want = sd_ci(b, b * b)["sd"] - sd_ci(a, a * a)["sd"]
    assert got["mean"] == pytest.approx(want)
    # paired: far tighter than the two SDs' own SEs combined
    assert got["se"] < 0.5 * math.hypot(sd_ci(a, a * a)["sd_se"], sd_ci(b, b * b)["sd_se"])


# --------------------------------------------------------------------------- report sections


def _page(studies: Path, names: list[str]) -> Page:
    provenance = {"strategy": "x", "n_players": 4, "variants": [{"name": n} for n in names]}
    return Page(SimulationResult(provenance=provenance, tables={}), studies)


def test_sections_say_what_is_missing(tmp_path: Path) -> None:
    page = _page(tmp_path, ["guangxi"])
    assert "no `rules/worth.json`" in "".join(rule_worth_section(page))
    assert "no `skill.json`" in "".join(skill_section(page))


def test_sections_show_the_page_variants_rows(tmp_path: Path) -> None:
    ci = lambda k, x: {k: x, k + "_ci_low": x - 0.1, k + "_ci_high": x + 0.1}  # noqa: E731
    worth = {
        "meta": {"default": "d", "weaker": "greedy", "games": 10, "players": 4, "command": "c"},
        "rows": [
            {"variant": v, "rule": "transform:scoop", "role": "any", "component": "scoops",
             "component_var_share": 0.25, **ci("edge_change", 0.0), **ci("fixed_edge_change", 0.0),
             **ci("sd_change", -1.5), **ci("skill_change", 0.02)}
            for v in ("guangxi", "fujian")
        ],
    }  # fmt: skip
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "worth.json").write_text(json.dumps(worth))
    skill = {
        "meta": {"default": "d", "games": 10, "deals": 4, "players": 4, "command": "c"},
        "rows": [
            {"variant": "guangxi", "a": "d", "b": "greedy", "sd": 14.0, "n_lead": 5000.0, "edge_se": 0.1,
             "n_lead_ci_low": 3000.0, "n_lead_ci_high": None, **ci("edge", 0.33)},
        ],
        "bounds": [
            {"variant": "guangxi", "seat": "any", "bound": 1.7, "bound_ci_low": 1.2,
             "bound_ci_high": 2.2, "share_better": 0.6},
        ],
    }  # fmt: skip
    (tmp_path / "skill.json").write_text(json.dumps(skill))
    page = _page(tmp_path, ["guangxi"])
    worth_text = "".join(rule_worth_section(page))
    assert "-1.50 (-1.60 to -1.40)" in worth_text and "fujian" not in worth_text
    assert "+0.000 (-0.100 to +0.100)" not in worth_text  # an all-pairs seat's edge is 0
    assert "25.0% (scoops)" in worth_text
    skill_text = "".join(skill_section(page))
    assert "5,000 (3,000 to ∞)" in skill_text and "1.700 (1.200 to 2.200)" in skill_text
    assert "figures/skill.png" in skill_text
    assert "none of this page's variants" in "".join(
        rule_worth_section(_page(tmp_path, ["taiwan"]))
    )
