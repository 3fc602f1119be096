"""The command line: fast help, one option vocabulary, defaults shown, errors as one line."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

import simkit.describe
from simkit.cli import HelpFormatter, build_parser, command_modules, main
from simkit.commands._options import DEFAULT_PLAYERS, DEFAULT_SEED, given_variants

HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"


def all_parsers(parser: argparse.ArgumentParser, name: str = "simkit"):
    """Every parser under ``parser`` (commands and their actions), with its command name."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from all_parsers(sub, f"{name} {sub_name}")


PARSERS = dict(all_parsers(build_parser()))


def options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {
        opt: action
        for action in parser._actions
        for opt in action.option_strings
        if opt.startswith("--") and action.help is not argparse.SUPPRESS
    }


def test_help_imports_no_numerical_library():
    code = (
        "import sys\nfrom simkit.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(out.split())
    assert loaded.isdisjoint({"numba", "polars", "matplotlib"})
    assert "COMMAND" in out and "simulate" in out


def test_every_command_module_registers_a_command():
    assert set(command_modules()) <= {name.split()[-1] for name in PARSERS}
    assert "simkit arrange" in PARSERS and "simkit variants show" in PARSERS


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_every_option_shows_its_default(name):
    parser = PARSERS[name]
    formatter = HelpFormatter(parser.prog)
    for action in parser._actions:
        if not action.option_strings or action.help is argparse.SUPPRESS:
            continue
        if isinstance(action, argparse._HelpAction) or action.nargs == 0:
            continue  # -h, --version and on/off flags
        text = formatter._expand_help(action)
        if action.required:  # no default to show: the help must say it is required
            assert "required" in text, f"{name} {action.option_strings[0]}: {text!r}"
            continue
        assert "default" in text, f"{name} {action.option_strings[0]}: {text!r}"


def test_shared_options_mean_the_same_in_every_command():
    seen: dict[str, list[tuple[str, argparse.Action]]] = {}
    for name, parser in PARSERS.items():
        for opt, action in options(parser).items():
            seen.setdefault(opt, []).append((name, action))
    for name, action in seen["--seed"]:
        assert (action.type, action.default) == (int, DEFAULT_SEED), name
    for name, action in seen["--players"]:
        assert (action.type, action.default) == (int, DEFAULT_PLAYERS), name
    for name, action in seen["--jobs"]:
        assert (action.type, action.default) == (int, -1), name
    for name, action in seen["--out"]:
        assert action.type is Path and action.metavar in ("DIR", "FILE"), name
    for name, action in seen["--variant"]:
        assert action.metavar == "NAME", name
    assert len(seen["--seed"]) >= 5 and len(seen["--variant"]) >= 7
    # one spelling: no visible --variants option and no visible positional variant lists
    assert "--variants" not in seen
    for name, parser in PARSERS.items():
        visible = [
            a.dest
            for a in parser._actions
            if not a.option_strings and a.help is not argparse.SUPPRESS
        ]
        assert "variants" not in visible, name


def test_the_one_seed_default_is_the_reports():
    from simkit.report import DEFAULT_SEED as REPORT_SEED

    assert DEFAULT_SEED == REPORT_SEED


def test_help_texts_print_their_percent_signs_once(capsys):
    for argv in (["match", "--help"], ["--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        out = capsys.readouterr().out
        assert "95%" in out and "%%" not in out


def test_library_defaults_are_read_when_help_is_shown(capsys):
    from simkit.report import DEFAULT_GAMES
    from simkit.train import DEFAULT_ITERATIONS, FINE_ITERATIONS

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    assert f"(default: {DEFAULT_GAMES:,})" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"(default: {DEFAULT_ITERATIONS}; expected-score {FINE_ITERATIONS})" in help_text


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["simulate"], []),
        (["simulate", "--variant", "guangxi", "qiantang"], ["qiantang", "guangxi"]),
        (
            ["simulate", "--variant", "guangxi,qiantang", "--variant", "taiwan"],
            ["guangxi", "qiantang", "taiwan"],
        ),
        (["compare", "guangxi", "qiantang"], ["guangxi", "qiantang"]),  # the older spelling
        (["exact", "all"], ["all"]),
        (["report", "--variants", "guangxi", "taiwan"], ["guangxi", "taiwan"]),  # older too
        (["report", "--variant", "guangxi"], ["guangxi"]),
    ],
)
def test_variants_are_read_from_every_spelling(argv, names):
    assert given_variants(build_parser().parse_args(argv)) == names


def test_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"simkit {simkit.__version__}\n"


def test_a_user_error_is_one_line_and_exit_2(capsys):
    assert main(["arrange", "As Ks Qs"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simkit arrange: error: a hand has 13 cards")
    assert err.count("\n") == 1
    assert main(["arrange", HAND, "--top", "0"]) == 2
    assert "top must be at least 1" in capsys.readouterr().err


def test_a_bug_keeps_its_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise TypeError("a bug")

    monkeypatch.setattr(simkit.describe, "describe_splits", broken)
    with pytest.raises(TypeError, match="a bug"):
        main(["arrange", HAND])


@pytest.mark.parametrize("command", ["simulate", "compare", "report", "regret"])
def test_every_command_plays_the_librarys_default_strategy(command):
    """The commands name the default strategy as text (their parser imports no strategy);
    it must be the one the library plays."""
    from simkit.arrange import DEFAULT_STRATEGY

    parser = build_parser()
    argv = [command, *(["--out", "x"] if command == "report" else [])]
    args = parser.parse_args(argv)
    assert args.strategy == DEFAULT_STRATEGY


@pytest.mark.parametrize(
    ("text", "value"),
    [("1e6", 1_000_000), ("1_000_000", 1_000_000), ("1,000,000", 1_000_000), ("2.5e4", 25_000)],
)
def test_counts_read_scientific_notation_and_thousands_separators(text, value):
    for argv in (
        ["simulate", "--games", text],
        ["report", "--games", text],
        ["match", "a", "b", "--games", text],
        ["train", "--games", text],
    ):
        assert build_parser().parse_args(argv).games == value
    assert build_parser().parse_args(["regret", "--hands", text]).hands == value


@pytest.mark.parametrize("text", ["1.5", "1e-3", "1,00", "1e6x", "inf", "1e400"])
def test_a_count_that_is_not_whole_is_refused_by_name(text, capsys):
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args(["simulate", "--games", text])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --games: " in err and repr(text) in err


def test_all_in_a_variant_list_is_every_shipped_variant_once():
    from simkit.commands._options import chosen_variants
    from simkit.report import report_variants
    from simkit.variants import resolve_variants, variant_names

    args = build_parser().parse_args(["simulate", "--variant", "guangxi,all"])
    want = ["guangxi", *(n for n in variant_names() if n != "guangxi")]
    assert [v.name for v in resolve_variants(chosen_variants(args))] == want
    args = build_parser().parse_args(["report", "--variant", "all,qiantang"])
    chosen, _ = report_variants(chosen_variants(args))
    assert [v.name for v in chosen if "+" not in v.name] == variant_names()
