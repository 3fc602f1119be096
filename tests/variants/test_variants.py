"""Variant files: every shipped file loads; the loader rejects bad files with clear messages."""

import dataclasses

import pytest

from simkit.variants import (
    SPECIAL_KINDS,
    VariantError,
    load_variant,
    resolve_variant,
    variant_names,
)
from simkit.variants.schema import to_plain

SHIPPED = [
    "fujian",
    "guangxi",
    "guangxi-regional",
    "hongkong",
    "philippines",
    "qiantang",
    "taiwan",
    "western-2-4",
    "wiki-points",
]


def test_registry_lists_every_shipped_variant():
    """The registry drives the other tests: none may silently drop out."""
    assert variant_names() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_variant_loads_and_cites_its_sources(name):
    variant = load_variant(name)
    assert variant.name == name
    assert variant.key.startswith(f"{name}@")
    assert variant.ranking.source
    for rule in variant.specials.rules:
        assert rule.source, f"{name}: {rule.id} has no source"
        assert rule.payout > 0
        assert rule.id in SPECIAL_KINDS


def test_default_variant_is_guangxi():
    assert resolve_variant(None).name == "guangxi"


def test_source_readings_of_the_wheel():
    """002: A-2-3-4-5 second highest; 004: lowest."""
    assert load_variant("guangxi").ranking.wheel == "second"
    assert load_variant("qiantang").ranking.wheel == "lowest"


def test_002_special_order_and_payouts():
    """002 特殊牌型: 清龙 108 > 一条龙 36 > 十二皇族 24 > 三同花顺 22 > 三套炸弹 20 > 全大 15 >
    全小 12 > 凑一色 10 > 四套三条 6 > 五对三条 5 > 六对半 4 > 三同花 3 > 三顺子 3."""
    specials = load_variant("guangxi").specials
    assert [r.payout for r in specials.rules] == [108, 36, 24, 22, 20, 15, 12, 10, 6, 5, 4, 3, 3]
    assert specials.names[0] == "至尊清龙" and specials.names[-1] == "三顺子"


def test_000_regional_order_moves_one_color_above_all_big():
    """000 §6: …三套炸弹>凑一色>全大>全小>三冲加弹>四套冲三…; 凑一色 15, 三冲加弹 8."""
    specials = load_variant("guangxi-regional").specials
    ids = specials.ids
    assert ids.index("one-color") < ids.index("all-big") < ids.index("three-trips-and-quads")
    assert specials.get("one-color").payout == 15
    assert specials.get("three-trips-and-quads").payout == 8
    # inherited unchanged from guangxi (extends):
    assert specials.get("royal-twelve").payout == 24


def test_004_definitions():
    """004: 至尊清龙 is spades only; 十二皇族 is J, Q, K 各四张 (plus any card)."""
    specials = load_variant("qiantang").specials
    assert specials.get("clean-dragon").option("suits") == "spades"
    assert specials.get("royal-twelve").option("definition") == "all-jqk-plus-one"
    assert specials.get("all-big").option("ranks") == (8, 9, 10, 11, 12)


def test_philippines_extends_hongkong():
    assert load_variant("philippines").specials == load_variant("hongkong").specials


def write(tmp_path, text, name="mine.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_user_file_extends_a_shipped_variant_and_changes_a_payout(tmp_path):
    path = write(
        tmp_path,
        '[variant]\nname = "my-guangxi"\nextends = "guangxi"\n\n[specials.dragon]\npayout = 52\n',
    )
    mine = load_variant(path)
    assert mine.specials.get("dragon").payout == 52
    assert mine.specials.get("clean-dragon").payout == 108
    assert mine.key != load_variant("guangxi").key


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[variant]\nname = "x"\n[ranking]\nwheel = "middle"\n',
            r"\[ranking\]\.wheel: 'middle'.*'lowest', 'second'",
        ),
        (
            '[variant]\nname = "x"\n[ranking]\nwhee = "lowest"\n',
            r"unknown key 'whee'; valid keys are: five_of_a_kind, five_suit_straight, source, wheel",
        ),
        (
            '[variant]\nname = "x"\n[ranking]\nfive_of_a_kind = "yes"\n',
            r"five_of_a_kind: expected true or false",
        ),
        (
            '[variant]\nname = "x"\n[specials]\norder = ["dragn"]\n',
            r"unknown special 'dragn'; valid specials are: clean-dragon, dragon",
        ),
        (
            '[variant]\nname = "x"\n[specials]\norder = ["dragon"]\n[specials.dragon]\npayot = 3\n',
            r"unknown key 'payot' for 一条龙",
        ),
        (
            '[variant]\nname = "x"\n[specials]\norder = ["dragon"]\n',
            r"missing required key 'payout'",
        ),
        (
            '[variant]\nname = "x"\n[specials]\norder = ["dragon"]\n[specials.dragon]\npayout = -1\n',
            r"payout: expected a non-negative number",
        ),
        (
            '[variant]\nname = "x"\n[specials]\norder = []\n[specials.dragon]\npayout = 3\n',
            r"defined but not listed",
        ),
        (
            '[variant]\nname = "x"\n[specials]\norder = ["royal-twelve"]\n[specials.royal-twelve]\npayout = 3\ndefinition = "jqk"\n',
            r"definition: 'jqk' is not valid; choose one of 'all-jqka', 'all-jqk-plus-one'",
        ),
        (
            '[variant]\nname = "x"\n[specials]\norder = ["all-big"]\n[specials.all-big]\npayout = 3\nranks = ["8", "X"]\n',
            r"'X' is not a rank",
        ),
        ('[variant]\nname = "x"\n[rankings]\n', r"unknown section \[rankings\]"),
        ('[variant]\ntitle = "no name"\n', r"missing required key 'name'"),
        (
            '[variant]\nname = "x"\nextends = "guangxii"\n',
            r"mine\.toml: \[variant\]\.extends = 'guangxii': unknown variant 'guangxii'; "
            r"did you mean 'guangxi'\? shipped variants are: fujian, .*; deck options .*: "
            r"guangxi-five-suits",
        ),
        ("[variant\n", r"not valid TOML"),
    ],
)
def test_bad_variant_files_name_file_key_and_choices(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(VariantError, match=message) as info:
        load_variant(path)
    assert "mine.toml" in str(info.value) or "unknown variant" in str(info.value)


def test_extends_cycle_is_reported(tmp_path):
    write(tmp_path, '[variant]\nname = "a"\nextends = "b.toml"\n', "a.toml")
    write(tmp_path, '[variant]\nname = "b"\nextends = "a.toml"\n', "b.toml")
    with pytest.raises(VariantError, match="cycle"):
        load_variant(tmp_path / "a.toml")


def test_unknown_variant_name_and_missing_path():
    with pytest.raises(VariantError, match="unknown variant 'atlantis'"):
        load_variant("atlantis")
    with pytest.raises(VariantError, match="not found"):
        load_variant("/nonexistent/x.toml")
    with pytest.raises(TypeError):
        resolve_variant(3)  # type: ignore[arg-type]


def test_variants_are_frozen():
    variant = load_variant("guangxi")
    with pytest.raises(AttributeError):
        variant.ranking.wheel = "lowest"  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------
# The key is derived from the rules; rule transforms compose.


def test_key_is_derived_so_a_modified_copy_never_keeps_a_stale_one():
    import dataclasses

    gx = load_variant("guangxi")
    scoring = dataclasses.replace(gx.scoring, compare="top-card")
    changed = dataclasses.replace(gx, scoring=scoring)
    assert changed.key != gx.key and changed.key.startswith("guangxi@")
    back = dataclasses.replace(changed, scoring=gx.scoring)
    assert back.key == gx.key  # equal rules, equal key


def test_key_hashes_the_rules_not_the_citations(tmp_path):
    """Editing a source text changes no key; changing a rule does."""
    cited = write(
        tmp_path,
        '[variant]\nname = "guangxi"\nextends = "guangxi"\n'
        '[ranking]\nsource = "another citation"\n[specials.dragon]\nsource = "another"\n'
        '[scoring.foul]\nsource = "and another"\n',
        "cited.toml",
    )
    assert load_variant(cited).key == load_variant("guangxi").key
    changed = write(
        tmp_path, '[variant]\nname = "guangxi"\nextends = "guangxi"\n[ranking]\nwheel = "lowest"\n'
    )
    assert load_variant(changed).key != load_variant("guangxi").key


def test_with_compare_names_the_change_and_composes():
    from simkit.variants import with_compare

    hk = load_variant("hongkong")
    twin = with_compare(hk, "top-card")
    assert twin.name == "hongkong+top-card" and twin.origin == "hongkong"
    assert twin.key.startswith("hongkong+top-card@") and twin.key != hk.key
    assert with_compare(with_compare(hk, "top-card"), "full").key == with_compare(hk, "full").key
    assert with_compare(with_compare(hk, "full"), "top-card").key == twin.key
    assert with_compare(with_compare(hk, "full"), "top-card") == twin
    assert hk.name == "hongkong" and hk.scoring.compare == "full"  # the original is untouched


def test_with_compare_rejects_an_unknown_comparison():
    from simkit.variants import with_compare

    with pytest.raises(VariantError, match="'highest' is not valid"):
        with_compare(load_variant("hongkong"), "highest")


def test_has_banker_and_resolve_variants_live_in_the_variants_layer():
    from simkit.variants import has_banker, resolve_variants

    banker = [v.name for v in resolve_variants("all") if has_banker(v)]
    assert banker == ["hongkong", "philippines", "taiwan"]
    assert resolve_variants(["all"]) == resolve_variants(None)
    assert [v.name for v in resolve_variants("qiantang")] == ["qiantang"]
    with pytest.raises(VariantError, match="given twice"):
        resolve_variants(["guangxi", "guangxi"])
    # "all" in a list: every shipped variant in its place, a variant named again kept once
    everything = [v.name for v in resolve_variants(None)]
    assert [v.name for v in resolve_variants(["guangxi", "all"])] == [
        "guangxi",
        *(n for n in everything if n != "guangxi"),
    ]
    assert [v.name for v in resolve_variants(["all", "qiantang", "guangxi-two-decks"])] == [
        *everything,
        "guangxi-two-decks",
    ]
    with pytest.raises(VariantError, match="no variants given"):
        resolve_variants([])


# ---------------------------------------------------------------------------------------------
# [deal]: the rules between the deal and the arranging.


def test_philippine_pass_is_a_deal_rule_with_its_source():
    ph = load_variant("philippines")
    assert (ph.deal.pass_rounds, ph.deal.pass_direction) == (1, "clockwise")
    assert ph.deal.passing.source.startswith("001")
    assert load_variant("hongkong").deal.pass_rounds == 0
    plain = to_plain(ph.scoring, sources=False)
    assert plain == to_plain(load_variant("hongkong").scoring, sources=False)  # not scoring


def test_pass_moved_out_of_scoring_says_where_it_went():
    with pytest.raises(AttributeError, match=r"variant\.deal\.pass_rounds"):
        _ = load_variant("philippines").scoring.pass_rounds


def test_old_file_with_the_pass_in_scoring_still_loads(tmp_path):
    old = write(
        tmp_path,
        '[variant]\nname = "philippines"\nextends = "hongkong"\n'
        '[scoring]\npass_rounds = 1\npass_direction = "clockwise"\n',
        "old.toml",
    )
    new = write(
        tmp_path,
        '[variant]\nname = "philippines"\nextends = "hongkong"\n'
        '[deal.passing]\nrounds = 1\ndirection = "clockwise"\n',
        "new.toml",
    )
    assert load_variant(old).deal == load_variant(new).deal
    # the shipped file plays the banker's choice now; read with the fixed pass, it is this one
    shipped = load_variant("philippines")
    fixed = dataclasses.replace(shipped.deal.passing, choice="fixed", cards="lowest")
    fixed_pass = dataclasses.replace(shipped, deal=dataclasses.replace(shipped.deal, passing=fixed))
    assert load_variant(old).key == load_variant(new).key == fixed_pass.key


def test_old_file_overrides_the_pass_of_the_file_it_extends(tmp_path):
    path = write(
        tmp_path,
        '[variant]\nname = "x"\nextends = "philippines"\n[scoring]\npass_direction = "across"\n',
    )
    assert load_variant(path).deal.passing.direction == "across"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[scoring]\npass_rounds = 1\n[deal.passing]\nrounds = 2\n",
            r"both \[scoring\]\.pass_rounds and \[deal\.passing\]\.rounds are set; keep only "
            r"\[deal\.passing\]\.rounds",
        ),
        ('[scoring]\npass_direction = "left"\n', r"\[deal\.passing\].*'left' is not valid"),
        ("[deal.passing]\nrounds = 3\n", r"\[deal\].*rounds must be 0, 1 or 2"),
        (
            "[deal]\nswap = 1\n",
            r"\[deal\]: unknown key 'swap'; valid keys are: exchange, passing, source",
        ),
    ],
)
def test_bad_deal_rules_name_the_new_key(tmp_path, text, message):
    path = write(tmp_path, '[variant]\nname = "x"\n' + text)
    with pytest.raises(VariantError, match=message) as info:
        load_variant(path)
    assert "mine.toml" in str(info.value)
