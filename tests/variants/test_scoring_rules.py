"""The ``[scoring]`` schema: every shipped file fills it with cited rules; bad keys are named;
cross-field constraints are checked; a user's file extends a shipped variant key by key."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import N_VARIANTS

from simkit.variants import VariantError, load_variant, variant_names
from simkit.variants.scoring_rules import TRANSFORMS, Scoring


def write(tmp_path, text: str, base: str | None = "guangxi"):
    path = tmp_path / "mine.toml"
    header = '[variant]\nname = "mine"\n' + (f'extends = "{base}"\n' if base else "")
    path.write_text(header + text, encoding="utf-8")
    return path


def test_registry_count() -> None:
    assert len(variant_names()) == N_VARIANTS


@pytest.mark.parametrize("name", variant_names())
def test_every_scoring_rule_in_play_cites_its_source(name: str) -> None:
    s = load_variant(name).scoring
    assert s.source, f"{name}: [scoring] has no source"
    in_play = {
        "foul": True,
        "duns": True,
        "majority": s.majority.enabled,
        "scoop": s.scoop.mode != "none",
        "home_run": s.home_run.enabled,
        "t_formula": s.t_formula.enabled,
        "horse": s.horse.enabled,
        "specials": len(load_variant(name).specials.rules) > 0,
    }
    for section, used in in_play.items():
        if used:
            assert getattr(s, section).source, f"{name}: [scoring.{section}] has no source"


def test_readings_named_in_the_files() -> None:
    """Each ambiguity's reading is a key with the other reading available."""
    gx = load_variant("guangxi").scoring
    assert gx.duns.middle["full-house"] == 3  # 002 table (000/001: 2)
    assert gx.home_run.extra_two_players == 18  # 002 table (3.1: 12)
    assert gx.t_formula.rank_by == "net-waters"
    assert gx.specials.all_special == "pairwise"  # 4.3 third method ('places': first)
    assert load_variant("wiki-points").scoring.scoop.mode == "double"  # literal: 'none'
    assert load_variant("taiwan").scoring.topology == "banker"  # 四人对比: 'all-pairs'
    assert load_variant("qiantang").scoring.horse.card == "AH"
    assert load_variant("philippines").deal.pass_rounds == 1
    fj = load_variant("fujian").scoring
    assert (fj.scoop.points[2], fj.foul.amount) == (3, 6)


def test_user_file_extends_and_changes_one_value(tmp_path) -> None:
    """Tables merge key by key: changing front trips leaves the rest of guangxi's table."""
    path = write(tmp_path, "[scoring.duns.front]\ntrips = 4\n[scoring.foul]\namount = 5\n")
    mine = load_variant(path).scoring
    base = load_variant("guangxi").scoring
    assert mine.duns.front["trips"] == 4
    assert mine.duns.middle == base.duns.middle
    assert mine.foul.amount == 5 and mine.foul.penalty == base.foul.penalty
    assert mine.transforms == base.transforms


def test_unknown_key_lists_the_valid_keys(tmp_path) -> None:
    path = write(tmp_path, "[scoring.scoop]\npoint = 3\n")
    with pytest.raises(VariantError, match=r"unknown key 'point'.*valid keys are:.*points"):
        load_variant(path)


def test_bad_choice_is_named(tmp_path) -> None:
    path = write(tmp_path, '[scoring]\ntopology = "ring"\n')
    with pytest.raises(VariantError, match=r"topology.*'ring' is not valid.*all-pairs"):
        load_variant(path)


def test_unknown_category_is_named(tmp_path) -> None:
    path = write(tmp_path, "[scoring.duns.front]\nstraight-flush5 = 4\n")
    with pytest.raises(VariantError, match="unknown category 'straight-flush5'"):
        load_variant(path)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            '[scoring]\ntransforms = ["scoop", "t-formula"]\n[scoring.home_run]\nenabled = true\n',
            "home-run is enabled but not",
        ),
        (
            '[scoring]\ntransforms = ["scoop", "t-formula", "home-run", "dance"]\n',
            "'dance' is not valid",
        ),
        ("[scoring.scoop]\npoints = [1, 2]\n", "expected 7 numbers"),
        ("[scoring]\npass_rounds = 3\n", "pass_rounds"),
        ('[scoring.home_run]\nsplit = "pairs"\n', "cannot follow the t-formula"),
        ("[scoring.horse]\nenabled = true\n", "horse is enabled but not listed"),
        ('[scoring.horse]\ncard = "Z9"\n', "horse.card"),
        ("[scoring.duns.back]\nquads = 0.5\n", "a total must be >= 1"),
        ('[scoring.home_run]\nfactor = "p-plus-1"\n', "factor"),
    ],
)
def test_cross_field_constraints_raise_with_file_and_key(tmp_path, text: str, match: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(VariantError, match=match) as info:
        load_variant(path)
    assert "mine.toml: [scoring]" in str(info.value)


def test_defaults_are_a_plain_game() -> None:
    """A file without [scoring] plays 1 a dun, every pair, fouls lose all, nothing else."""
    s = Scoring()
    assert s.topology == "all-pairs" and s.transforms == ()
    assert s.duns.values()[0] == (1.0,) * 10
    assert {f.name for f in dataclasses.fields(Scoring)} >= {"foul", "duns", "scoop"}
    assert set(TRANSFORMS) == {"scoop", "home-run", "t-formula", "horse"}


def test_changing_a_scoring_rule_changes_the_variant_key(tmp_path) -> None:
    path = write(tmp_path, "[scoring.home_run]\nextra_two_players = 12\n")
    assert load_variant(path).key.split("@")[1] != load_variant("guangxi").key.split("@")[1]


# --- [scoring].transforms is the one switch ----------------------------------------------------


def test_the_list_alone_puts_a_transform_in_play(tmp_path) -> None:
    """Dropping a transform from the list turns it off; its table keeps its parameters."""
    path = write(tmp_path, '[scoring]\ntransforms = ["scoop", "t-formula"]\n')
    s = load_variant(path).scoring
    assert not s.home_run.enabled and s.home_run.extra_per_opponent == 12
    assert s.scoop.mode == "add" and s.t_formula.enabled
    hk = load_variant("hongkong").scoring
    assert hk.scoop.mode == "none" and not hk.horse.enabled


def test_enabled_is_derived_from_the_list_under_replace() -> None:
    s = load_variant("guangxi").scoring
    off = dataclasses.replace(s, transforms=("scoop", "t-formula"))
    assert s.home_run.enabled and not off.home_run.enabled
    on = dataclasses.replace(off, transforms=s.transforms)
    assert on.home_run.enabled and on == s
    assert s.home_run.enabled  # the original keeps its own table


def test_shipped_transform_tables_hold_parameters_only() -> None:
    from simkit.variants.schema import describe_schema
    from simkit.variants.scoring_rules import TRANSFORM_TABLES, TransformTable

    for attr in TRANSFORM_TABLES.values():
        table = type(getattr(Scoring(), attr))
        assert issubclass(table, TransformTable)
        assert "enabled" not in dict(describe_schema(table)), attr


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "[scoring.horse]\nenabled = true\n",
            r"horse is enabled but not listed in transforms \(\[scoring\.horse\]\.enabled = "
            r"true\); \[scoring\]\.transforms is the one switch: list 'horse' there and remove "
            r"'enabled'",
        ),
        (
            "[scoring.t_formula]\nenabled = false\n",
            r"transforms lists 't-formula' but \[scoring\.t_formula\]\.enabled = false; "
            r"\[scoring\]\.transforms is the one switch: remove 'enabled'",
        ),
        ('[scoring.home_run]\nenabled = "yes"\n', r"home_run\.enabled: expected true or false"),
        (
            '[scoring.scoop]\nmode = "none"\n',
            r"transforms lists 'scoop' but \[scoring\.scoop\]\.mode = 'none'; set mode to "
            r"'add' or 'double'",
        ),
    ],
)
def test_an_old_switch_disagreeing_with_the_list_names_the_key_and_the_fix(
    tmp_path, text: str, match: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(VariantError, match=match) as info:
        load_variant(path)
    assert "mine.toml: [scoring]" in str(info.value)


def test_an_old_switch_agreeing_with_the_list_still_loads(tmp_path) -> None:
    """Files written when each table had its own switch keep loading, to the same rules."""
    path = write(
        tmp_path,
        "[scoring.home_run]\nenabled = true\n[scoring.t_formula]\nenabled = true\n"
        "[scoring.horse]\nenabled = false\n",
        base="guangxi",
    )
    mine = load_variant(path)
    assert mine.scoring == load_variant("guangxi").scoring
    plain = write(tmp_path, '[scoring]\ntransforms = []\n[scoring.scoop]\nmode = "none"\n', None)
    assert load_variant(plain).scoring.scoop.mode == "none"


def test_the_scoop_summary_names_the_table_size_it_reads() -> None:
    """An added scoop's points are those of the table size asked, and the text names it."""
    from simkit.variants import load_variant
    from simkit.variants.docs import describe_scoop

    scoring = load_variant("fujian").scoring
    assert scoring.scoop.mode == "add"
    for n in (2, 3, 4):
        text = describe_scoop(scoring, n)
        assert f"({n} players)" in text
        assert text.startswith(f"+{scoring.scoop.points[n - 2]:g}")
