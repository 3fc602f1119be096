"""The warm-up that compiles the kernels once before pytest's workers (or a run's) start:
``python -m simkit.kernel_cache --jobs N`` (the Makefile's ``warm`` target)."""

from __future__ import annotations

import importlib
import io
import re

import numba
import pytest

import simkit.kernel_cache as kc
from simkit.arrange import rank_tables_of
from simkit.variants import deck_option_names, load_variant, variant_names


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2"])
def test_warm_up_refuses_a_bad_number_of_jobs_before_any_work(jobs, monkeypatch):
    monkeypatch.setattr(kc, "_run_family", lambda family: pytest.fail("ran a family"))
    with pytest.raises(ValueError, match="jobs must be a whole number >= 1"):
        kc.warm_up(jobs)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--jobs", "0"], "--jobs must be >= 1, got 0"),
        (["--top", "-1"], "--top must be >= 0, got -1"),
    ],
)
def test_the_command_refuses_bad_options(args, says, capsys):
    with pytest.raises(SystemExit) as exit_:
        kc.main(args)
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


def test_an_unknown_family_is_named_with_the_valid_ones():
    with pytest.raises(ValueError, match="unknown warm-up family 'nope'; choose from arrange, "):
        kc._warm_up_steps("nope")


@pytest.mark.parametrize("family", kc.FAMILIES)
def test_each_family_plays_every_shipped_variant_and_deck_at_the_table_sizes_served(family):
    labels = [label for label, _ in kc._warm_up_steps(family)]
    want = []
    for name in [*variant_names(), *deck_option_names()]:
        for n_players in (4, 6):
            try:
                load_variant(name).deck_for(n_players)
            except Exception:
                continue
            want.append(f"{family}: {name}, {n_players} players")
    assert labels == want
    assert any(", 4 players" in label for label in labels)
    assert any(", 6 players" in label for label in labels)  # two decks: other kernels


def test_one_job_runs_the_families_in_order_and_says_so(monkeypatch):
    ran = []
    compiled = {"simkit.score._kernel": (1, 2.0), "simkit.deal._deal_one_deck": (2, 0.5)}
    monkeypatch.setattr(kc, "_run_family", lambda f: ran.append(f) or (f, 0.0, 0.0, compiled))
    out = io.StringIO()
    assert kc.warm_up(1, stream=out, top=1) >= 0
    assert ran == list(kc.FAMILIES)
    lines = out.getvalue().splitlines()
    assert lines[:-1] == [
        line
        for f in kc.FAMILIES
        for line in (
            f"warm-up: {f} kernels ready in 0 s (0 CPU-s, 3 compiles)",
            "warm-up:       2.0 CPU-s  1 x simkit.score._kernel",  # the costliest only
        )
    ]
    assert re.fullmatch(r"warm-up: done in \d+ s", lines[-1])


def test_compile_times_counts_what_numba_compiles_not_what_it_loads():
    @numba.njit
    def inner(x):
        return x + 1

    @numba.njit
    def outer(x):
        return inner(x) * 2

    times = kc.compile_times(lambda: outer(1))
    name = "test_kernel_cache.test_compile_times_counts_what_numba_compiles_not_what_it_loads"
    assert {k: n for k, (n, _) in times.items() if k.startswith(name)} == {
        f"{name}.<locals>.inner": 1,
        f"{name}.<locals>.outer": 1,
    }
    assert all(cpu >= 0 for _, cpu in times.values())
    assert kc.compile_times(lambda: outer(2)) == {}  # compiled already: nothing new
    assert kc.compile_times(lambda: outer(2.5))[f"{name}.<locals>.outer"][0] == 1  # a new type


@pytest.mark.parametrize(
    ("family", "probes"),
    [
        ("score", ["simkit.deal._deal_one_deck", "simkit.score._kernel"]),
        ("arrange", ["simkit.deal._deal_one_deck", "simkit.arrange.search.max_ev_kernel"]),
    ],
)
def test_a_family_step_calls_the_kernels_every_run_calls(family, probes):
    """A 4-player step of the family leaves the probe kernels compiled (or loaded) in this
    process: what it compiled, a later process loads from the cache."""
    (step,) = [s for label, s in kc._warm_up_steps(family) if label.endswith("guangxi, 4 players")]
    step()
    for probe in probes:
        module, name = probe.rsplit(".", 1)
        assert getattr(importlib.import_module(module), name).signatures, probe
    assert {f"{m}.{n}" for m, n in kc.PROBES} >= set(probes)


def _arg_types(arrays):
    return tuple(str(numba.typeof(a)) for a in arrays)


def test_the_rank_tables_are_typed_alike_for_every_deck():
    """The search kernels take :func:`~simkit.arrange.rank_tables_of`'s tuple; numba compiles a
    kernel once per distinct argument types, so a placeholder table that is writable where the
    real one is read-only would compile every search kernel twice (a minute each, cold)."""
    names = [*variant_names(), *deck_option_names()]
    types = {name: _arg_types(rank_tables_of(load_variant(name))) for name in names}
    assert not all(load_variant(name).deck.plain for name in names)  # both kinds are here
    assert len(set(types.values())) == 1, types
