"""Variant files: every shipped file loads; the loader rejects bad files with clear messages."""

import pytest

from simkit.variants import (
    SPECIAL_KINDS,
    VariantError,
    load_variant,
    resolve_variant,
    variant_names,
)

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
            r"unknown key 'whee'; valid keys are: five_of_a_kind, source, wheel",
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
            r"unknown variant 'guangxii'; shipped variants are: fujian",
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
