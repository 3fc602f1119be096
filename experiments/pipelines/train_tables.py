"""Train the shipped win tables: every shipped variant at 2 to 8 players and every deck
option at the table sizes its pack serves, for both trained strategies, or a selection.

Each (variant, players) table of ``max-ev`` (``<variant>-<players>p.npz``, coarse classes)
and of ``expected-score`` (``<variant>-<players>p-fine.npz``, fine classes) is trained by the
trainer as it is in :mod:`simkit.train` (``simkit.train.train`` with its defaults, ``--seed``
and the strategy), so the same command reproduces every file exactly, whatever the trainer
does today.  Each game is dealt the variant's own pack (:meth:`Variant.deck_for`: two decks
from 5 players, a deck option's fifth suit or jokers).  Each file is written by the process
that trained it, as soon as it is done (atomically), so an interrupted run keeps what it
finished; then ``simkit/data/README.md`` is regenerated from the metadata of every file there.

    python -m experiments.pipelines.train_tables       # all files of both strategies
    python -m experiments.pipelines.train_tables --strategy expected-score --players 5 6 7 8
    python -m experiments.pipelines.train_tables --variant taiwan --players 4 --strategy max-ev
    python -m experiments.pipelines.train_tables --missing --strategy expected-score  # absent
    python -m experiments.pipelines.train_tables --readme      # only the README tables
    python -m experiments.pipelines.train_tables --check       # exit 1 unless all is current
    python -m experiments.pipelines.train_tables --check --retrain --variant western-2-4 --players 5

``--check`` trains nothing: it fails when a file of the selection is missing, was trained
under other rules (its variant key), with other settings than the trainer's defaults and
``--seed`` (its ``meta``), holds another number of classes than the trainer makes today, or
when the README is not what the files say.  ``--retrain`` adds the strict check: train the
selection again and compare the arrays: integer arrays byte for byte, float arrays to within
``FLOAT_TOLERANCE`` (1e-12) absolute, since the trainer's float64 sums may round in another
order on another numpy build or CPU (a tie chance of zero stored as 2e-16 or 5e-16).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange import table_name
from simkit.arrange.wintables import HOME_RATE_KEY, WEIGHTS_KEY
from simkit.variants import deck_option_names, load_variant, variant_names

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "simkit" / "data"
README = DATA / "README.md"
PLAYERS = tuple(range(2, 9))
#: The strategies whose tables ship (``simkit.train.TRAINED_STRATEGIES``, without importing
#: the trainer): max-ev's coarse tables and expected-score's fine ones.
STRATEGIES = ("max-ev", "expected-score")
FINE = "expected-score"
SCRIPT = "python -m experiments.pipelines.train_tables"
COLUMNS = ("file", "players", "decks", "games per iteration", "games in all", "wall s",
           "scoop rate", "change per iteration")  # fmt: skip
FINE_COLUMNS = ("file", "players", "pack", "classes", "games per iteration", "games in all",
                "wall s", "scoop rate", "change per iteration")  # fmt: skip


def _header(columns: Sequence[str]) -> str:
    return "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns)


HEADER = _header(COLUMNS)


def file_name(variant: str, players: int, strategy: str = "max-ev") -> str:
    """The shipped file of ``strategy``'s tables: ``<variant>-<players>p.npz`` (max-ev) or
    ``<variant>-<players>p-fine.npz`` (expected-score)."""
    return table_name(variant, players, fine=strategy == FINE)


# --------------------------------------------------------------------------- training


def train_one(
    variant: str,
    players: int,
    seed: int,
    out_dir: str,
    strategy: str = "max-ev",
    trial: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Train one table with :func:`simkit.train.train` and write it: its ``meta``.  ``trial``:
    (games per iteration, iterations) instead of the trainer's schedule."""
    from simkit.files import atomic_write

    trainer = importlib.import_module("simkit.train")  # the package's `train` is the function
    tables = trainer.train(variant, players, seed=seed, strategy=strategy, **_schedule(trial))
    path = Path(out_dir) / file_name(variant, players, strategy)

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as fh:  # a file object: savez would add ".npz" to a bare path
            tables.save(fh)

    atomic_write(path, write)
    return dict(tables.meta)


def _schedule(trial: tuple[int, int] | None) -> dict[str, int]:
    return {} if trial is None else {"n_games": trial[0], "iterations": trial[1]}


def trained_arrays(
    variant: str,
    players: int,
    seed: int,
    strategy: str = "max-ev",
    trial: tuple[int, int] | None = None,
) -> dict[str, np.ndarray]:
    """The arrays a fresh training writes (``meta`` left out: it holds the wall time)."""
    import io

    trainer = importlib.import_module("simkit.train")
    buffer = io.BytesIO()
    trainer.train(variant, players, seed=seed, strategy=strategy, **_schedule(trial)).save(buffer)
    buffer.seek(0)
    return _arrays(buffer)


#: Arrays measured after training and stored with the tables (the removal shifts,
#: ``experiments.pipelines.fit_removal``): a fresh training does not make them, so the check
#: leaves them out, as it does ``meta`` (which holds the wall time and the objective weights).
POST_TRAINING = ("meta", "removal")


#: The largest absolute gap between a stored float array and a retrained one that ``--check
#: --retrain`` accepts: the trainer's float64 sums may round in another order on another numpy
#: build or CPU (3.3e-16 seen on a tie chance of zero), far under float32's resolution of a
#: chance (6e-8 at 0.5), so any real change of the tables is still caught.
FLOAT_TOLERANCE = 1e-12


def differing_arrays(
    stored: dict[str, np.ndarray], fresh: dict[str, np.ndarray], tolerance: float = FLOAT_TOLERANCE
) -> list[str]:
    """The names of the arrays that differ between ``stored`` and ``fresh`` (sorted): absent
    from one, of another dtype or shape, integer arrays with any byte changed, float arrays
    apart by more than ``tolerance`` anywhere (NaN only where the other is NaN)."""
    out = []
    for name in sorted(stored.keys() | fresh.keys()):
        a, b = stored.get(name), fresh.get(name)
        if a is None or b is None or a.dtype != b.dtype or a.shape != b.shape:
            out.append(name)
        elif np.issubdtype(a.dtype, np.floating):
            if not np.allclose(a, b, rtol=0.0, atol=tolerance, equal_nan=True):
                out.append(name)
        elif a.tobytes() != b.tobytes():
            out.append(name)
    return out


def _arrays(source: Any) -> dict[str, np.ndarray]:
    with np.load(source, allow_pickle=False) as z:
        return {name: z[name] for name in z.files if name not in POST_TRAINING}


def read_meta(path: Path) -> dict[str, Any]:
    """The ``meta`` of a table file, plus its scoop rate and its number of classes (read as
    plain npz: any format)."""
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        if "scoop_rate" in z.files:
            meta.setdefault("scoop_rate", float(z["scoop_rate"]))
        meta["classes"] = int(z["win"].shape[1])
        meta["copula"] = "copula" in z.files
    return meta


def classes_trained(strategy: str) -> int:
    """How many classes the trainer's tables of ``strategy`` have today (their columns)."""
    from simkit.arrange import N_CLASSES
    from simkit.arrange.classes import n_fine_classes

    return n_fine_classes() if strategy == FINE else N_CLASSES


# --------------------------------------------------------------------------- the README


def _expected_settings(
    variant: str,
    players: int,
    seed: int,
    strategy: str = "max-ev",
    trial: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """What ``meta`` says when the trainer's defaults (or ``trial``'s games per iteration and
    iterations) made the file with ``seed``."""
    trainer = importlib.import_module("simkit.train")
    hands, iterations, blend = trainer.schedule(strategy)
    games = hands // players
    if trial is not None:
        games, iterations = trial
    settings = {
        "variant": variant,
        "n_players": players,
        "seed": seed,
        "n_games_per_iteration": games,
        "iterations": iterations,
        "blend": blend,
    }
    if strategy == FINE:  # max-ev's files from before the trainer knew two strategies say none
        settings["strategy"] = strategy
        settings["other_deals"] = trainer.other_deals_of(strategy)
    return settings


def _files(strategy: str = "max-ev") -> list[Path]:
    """The table files of ``strategy`` in simkit/data, by players then variant."""
    pattern = "*p-fine.npz" if strategy == FINE else "*p.npz"
    found = [(read_meta(p), p) for p in DATA.glob(pattern)]
    return [p for m, p in sorted(found, key=lambda mp: (mp[0]["n_players"], mp[0]["variant"]))]


def _pack(meta: dict[str, Any]) -> str:
    """The pack a table was trained on: the number of plain decks, or the deck option's."""
    deck = load_variant(meta["variant"]).deck_for(meta["n_players"])
    return str(deck.decks) if deck.plain else deck.describe()


def _changes(meta: dict[str, Any]) -> str:
    """The change per iteration; past six iterations the first five, … and the last."""
    changes = [f"{c:.4f}" for c in meta.get("change_per_iteration", [])]
    if len(changes) > 6:
        changes = [*changes[:5], "…", changes[-1]]
    return ", ".join(changes)


def _commands(metas: Sequence[dict[str, Any]]) -> str:
    return "\n".join(f"    {m['command']} --out simkit/data/{m['file']}" for m in metas)


def _weights_section(metas: Sequence[dict[str, Any]]) -> str:
    """The files whose ``meta`` carries expected-score's fitted objective weights."""
    weighted = [m for m in metas if WEIGHTS_KEY in m]
    if not weighted:
        return ""

    def ci(lo_hi: Sequence[float], fmt: str) -> str:
        return f"{lo_hi[0]:{fmt}} to {lo_hi[1]:{fmt}}"

    rows = "\n".join(
        f"| {m['file']} | {w['scoop']:.3f} ({ci(w['scoop_ci95'], '.3f')}) "
        f"| {w['home_run']:.3f} ({ci(w['home_run_ci95'], '.3f')}) "
        f"| {w['held_out_gain']:+.4f} ({ci(w['held_out_ci95'], '+.4f')}) |"
        for m in weighted
        for w in [m[WEIGHTS_KEY]]
    )
    return f"""
{len(weighted)} of these files also carry `meta["{WEIGHTS_KEY}"]`: the weights of the
scoop and home-run terms of `expected-score`'s value, fitted to rollouts of the full rules by
`python -m experiments.pipelines.fit_objective --write` (`simkit.objective`; the table, with
every row fitted, is `results/strategy/objective-weights.md`).  They are written after training (the
training plays the unweighted model, so `--check --retrain` is unaffected) and only where the
fitted weighting's held-out gain is positive beyond its 95% CI; a retrained file loses them
until they are fitted again.

| file | scoop weight (95% CI) | home-run weight | held-out gain, points per hand |
|---|---|---|---|
{rows}
"""


def _home_rate_section(metas: Sequence[dict[str, Any]]) -> str:
    """The files whose ``meta`` carries expected-score-home's fitted home rate."""
    rated = [m for m in metas if HOME_RATE_KEY in m]
    if not rated:
        return ""
    rows = "\n".join(
        f"| {m['file']} | {r['rate']} | {r['scoop']:.3f} | {r['home_run']:.3f} "
        f"| {r['held_out_gain']:+.4f} ({r['held_out_ci95'][0]:+.4f} to "
        f"{r['held_out_ci95'][1]:+.4f}) |"
        for m in rated
        for r in [m[HOME_RATE_KEY]]
    )
    return f"""
{len(rated)} of these files also carry `meta["{HOME_RATE_KEY}"]`: the rate at which
`expected-score-home` prices an opponent's home run against the hand (the chance that an
opponent who scoops it scoops every player) and the scoop and home-run weights fitted with it,
by `python -m experiments.pipelines.fit_home_rate --write` (`simkit.objective.fit_home_rate`; the
table is `results/strategy/home-rate-fit.md`).  Written after training, and only where the
held-out gain of its picks over `expected-score`'s is positive beyond its 95% CI;
`expected-score` does not read them.

| file | rate | scoop weight | home-run weight | held-out gain, points per hand |
|---|---|---|---|---|
{rows}
"""


def _removal_section(metas: Sequence[dict[str, Any]]) -> str:
    """The files that carry card-removal shifts (``removal``, ``meta["removal"]``)."""
    shifted = [m for m in metas if "removal" in m]
    if not shifted:
        return ""
    rows = "\n".join(
        f"| {m['file']} | {m['removal']['games']:,} | {m['removal']['seed']} |" for m in shifted
    )
    commands = "\n".join(f"    {m['removal']['command']}" for m in shifted)
    return f"""
{len(shifted)} of these files also carry `removal`, `expected-score`'s card-removal shifts
(`simkit.arrange.removal`): per bucket of the hand by its aces, kings and queens (80), dun and
fine class, how much more often than the tables say a dun of that class beats an opponent of
such a hand, measured from self-play on the pooled tables by `simkit.train.removal_shifts`
and stored as float16.  Like the weights they are written after training (`--check
--retrain` leaves them out) and only where they lower the regret measured on 2,000 hands at
1,000 + 1,000 rollouts (`docs/studies.md`); a retrained file loses them
until they are measured again:

| file | self-play games | seed |
|---|---|---|
{rows}

{commands}
"""


#: The card-removal models of expected-score-hand shipped beside the fine tables
#: (``experiments/pipelines/fit_removal_model.py``; ``simkit.arrange.removal.RemovalModel``).
MODEL_PATTERN = "*-fine-removal-model.npz"


def _model_section() -> str:
    """The card-removal models beside the fine tables, from their metadata."""
    paths = sorted(DATA.glob(MODEL_PATTERN))
    if not paths:
        return ""
    metas = []
    for path in paths:
        with np.load(path, allow_pickle=False) as z:
            metas.append((path.name, json.loads(str(z["meta"]))))
    rows = "\n".join(
        f"| {name} | {m['pool_hands']:,} | {m['hands']:,} | {m['seed']} | "
        f"{m['rms_exact']:.5f} | {m['rms_residual']:.5f} | {m['noise_rms']:.5f} |"
        for name, m in metas
    )
    commands = "\n".join(f"    {m['command']}" for _, m in metas)
    noise = [(m["noise_rms"] / m["rms_residual"]) ** 2 for _, m in metas]
    return f"""
{len(paths)} files beside them are **card-removal models** of `expected-score-hand`
(`simkit.arrange.removal.RemovalModel`, read with `conditioning=model`): for each class of
each dun, how much its win chance moves with the hand's own cards, as a linear function of
the hand's 62 card features (a constant, how many of each rank it holds, how many suits hold
each length), stored as float16.  Each is fitted by ridge regression
(`simkit.arrange.conditioned.fit_removal_model`) to the exact shifts that a pool of hands
(dealt from the conditioning pool's seed and set as expected-score-hand's first round sets its
pool) gives other hands; it names the digest of the fine tables and the pool's setter it was
fitted for (`meta["fitted_on"]`) and is read only with those
(`ExpectedScoreHand.removal_model`), so a retrained table file leaves it unread until it is
fitted again.  `off the model` is the root mean square of the exact shifts less the model's;
`pool noise` what the pool's own sampling leaves in an exact shift (√(p(1 − p)/k) over the
classes, k the compatible pool hands a hand): {min(noise):.0%}–{max(noise):.0%} of what is off
the model, in variance.

| file | pool hands | fitted hands | seed | exact shifts' rms | off the model | pool noise |
|---|---|---|---|---|---|---|
{rows}

{commands}
"""


def _fine_section() -> str:
    """The README's section on expected-score's fine tables."""
    metas = [read_meta(p) for p in _files(FINE)]
    if not metas:
        return ""
    trainer = importlib.import_module("simkit.train")
    rows = [
        f"| {m['file']} | {m['n_players']} | {_pack(m)} | {m['classes']:,} | "
        f"{m['n_games_per_iteration']:,} | {m['games_total']:,} | {m['seconds']:.1f} | "
        f"{m['scoop_rate']:.3f} | {_changes(m)} |"
        for m in metas
    ]
    today = classes_trained(FINE)
    earlier = [m for m in metas if m["classes"] != today]
    own = sorted({m["variant"] for m in metas})
    counts = sorted({m["n_players"] for m in metas}) or [0]  # a --data folder may hold none
    total_s = sum(m["seconds"] for m in metas)
    last = [m["change_per_iteration"][-1] for m in metas]
    if earlier:
        layouts = ", ".join(f"{n:,}" for n in sorted({m["classes"] for m in earlier}))
        numbering = f"""
{len(earlier)} of these files have {layouts} columns: they were trained when the fine
classes were the codes of the shipped rankings' one- and two-deck ranks only (3,396), before
the first code of every coarse class joined them ({today:,} classes today).
`expected-score` reads them through `simkit.arrange.classes.fine_of_ranked`; today's trainer
makes {today:,} columns, so `--check` reports them and `--check --retrain` cannot reproduce
them until they are retrained (`{SCRIPT} --strategy expected-score --variant V --players P`).
"""
    else:
        numbering = ""
    return f"""
# Trained win tables of the expected-score strategy

One file per variant and player count, `<variant>-<players>p-fine.npz`, read by
`simkit.arrange.default_fine_tables` (the default strategy, `expected-score`): {len(metas)}
files, {len(own)} variants and deck options at {counts[0]} to {counts[-1]} players.  Each
holds the same figures as a max-ev file, per dun and **fine** class (category and top three
kicker digits, every front its own class: `simkit.arrange.classes.fine_classes`), where a
loss to a winning dun that holds the 马牌 pays its extra.  Where no fine file ships,
`expected-score` reads the max-ev tables above through the fine classes
(`simkit.arrange.classes.coarse_of_fine`), without a warning.

They are made by the same loop with `--strategy expected-score` on a schedule of their own
(`simkit.train.schedule`): `expected-score` plays its own latest tables for
{trainer.FINE_ITERATIONS} iterations of {trainer.FINE_GAMES:,} hands each (`simkit.train.FINE_GAMES`
divided by the players: the games per iteration below), and the counts are averaged linearly
(`--blend linear`): the greedy start's counts are dropped once the strategy has played, and
iteration j of the strategy's own play weighs j.  Blending half of every iteration (max-ev's
schedule) kept the greedy start's counts in the classes the strategy rarely plays and left
the tables a step behind the play; the regret measured on the 4-player tables is about
halved by this schedule (`results/strategy/training.md`).  Each hand is counted against the
hands of the next {trainer.FINE_OTHER_DEALS} games, not its own game's (`--other-deals
{trainer.FINE_OTHER_DEALS}`, `simkit.train.FINE_OTHER_DEALS`): counted within its game, a
class's chances carry the card removal of the hands that happen to play it, which misprices
the class in a hand that would not (`results/strategy/other-deals.md`).  The change per
iteration falls to {min(last):.4f}-{max(last):.4f} at the last iteration over these files (the
columns below list the first five and the last).  `wall s` as above ({total_s / 60:.1f} minutes
summed).
{numbering}
{_header(FINE_COLUMNS)}
{chr(10).join(rows)}
{_weights_section(metas)}{_home_rate_section(metas)}{_removal_section(metas)}{_model_section()}
Commands (all `--seed 0` with the defaults
`--iterations {trainer.FINE_ITERATIONS} --blend {trainer.FINE_BLEND}
--other-deals {trainer.FINE_OTHER_DEALS}`):

{_commands(metas)}
"""


def render_readme() -> str:
    """``simkit/data/README.md`` from the metadata of every table file there."""
    metas = [read_meta(p) for p in _files()]
    rows = []
    for m in metas:
        rows.append(
            f"| {m['file']} | {m['n_players']} | {_pack(m)} | "
            f"{m['n_games_per_iteration']:,} | {m['games_total']:,} | {m['seconds']:.1f} | "
            f"{m['scoop_rate']:.3f} | {_changes(m)} |"
        )
    total_s = sum(m["seconds"] for m in metas)
    counts = sorted({m["n_players"] for m in metas}) or [0]  # a --data folder may hold none
    variants = sorted({m["variant"] for m in metas})
    return f"""# Trained win tables of the max-ev strategy

One file per shipped variant and player count, `<variant>-<players>p.npz`, read by
`simkit.arrange.default_tables`: {len(metas)} files, {len(variants)} variants at {counts[0]} to
{counts[-1]} players (5 to 8 players are dealt two decks: five of a kind and identical cards
occur).  Each holds, per dun (front, middle, back) and dun class
(category and top two rank digits, `simkit.arrange.dun_class`), the chance of winning and of
tying against one opponent's same dun, the points paid when losing it, the number of
comparisons seen, the scoop rate, and `meta` (JSON: the command, seed, games, change per
iteration, the variant key the table was trained under; a test fails when a variant file
changes and its tables were not retrained).

The key is derived from the rules without their citations.  When only its derivation changes
(the rules do not: a rule moved to another table, a citation edited), the tables stay valid and
`python -m experiments.pipelines.restamp_tables` rewrites the stamp alone, copying the arrays
unchanged (`--check` reports stale stamps).

How they were made (`simkit/train.py`, fictitious play): a greedy start, then 5 iterations of
max-ev with the current tables; each iteration deals 30,000 hands (the games per iteration
below), counts every dun against the same dun of every other player in the same games, blends
the counts into the running ones (old counts × 0.5), pulls rarely seen classes toward a prior
(20 pseudo-comparisons) and fits monotone rates (isotonic regression over the class order).
The change per iteration is the count-weighted mean absolute change of the win chances; it
halves each iteration down to the sampling noise of 30,000 hands (about 0.01-0.015).  Hands
are dealt plain: no `[deal]` phase is played (neither the Philippine pass nor the 换牌
exchange), so a file stays valid when only those phases change (its stamp is rewritten).

Every file is reproduced (same arrays) by its command below, and all of them (or a
selection) by

    {SCRIPT} [--strategy S ...] [--variant NAME ...] [--players P ...] [--jobs N]

which trains each table with `simkit.train.train` as it is (its defaults, `--seed 0`), in
`--jobs` processes, and rewrites this page from the files' metadata.  `--check` verifies that
the files are current (present, trained under today's rules and the trainer's defaults, as
many classes as the trainer makes, this page up to date); `--check --retrain` trains them
again and compares the arrays: integer arrays byte for byte, float arrays to within
{FLOAT_TOLERANCE:g} (float64 sums may round in another order on another numpy build or CPU).
`wall s` is each file's training time as recorded (one process on a shared 2-core machine, so
it varies with the load; {total_s / 60:.1f} minutes summed).

{HEADER}
{chr(10).join(rows)}

Commands (all `--seed 0` with the defaults `--iterations 5 --blend 0.5`):

{_commands(metas)}
{_fine_section()}"""


def write_readme() -> None:
    from simkit.files import atomic_write

    text = render_readme()
    atomic_write(README, lambda tmp: tmp.write_text(text, encoding="utf-8"))


# --------------------------------------------------------------------------- checking


def check(
    selection: Sequence[tuple[str, int]],
    seed: int,
    *,
    retrain: bool,
    readme: bool = True,
    strategy: str = "max-ev",
    trial: tuple[int, int] | None = None,
) -> list[str]:
    """What is not current in the selection of ``strategy``'s files (empty: all is)."""
    problems = []
    columns = classes_trained(strategy)
    for variant, players in selection:
        path = DATA / file_name(variant, players, strategy)
        if not path.exists():
            problems.append(f"{path.name}: missing")
            continue
        meta = read_meta(path)
        if meta.get("variant_key") != load_variant(variant).key:
            problems.append(f"{path.name}: trained under other rules (stale variant key)")
        for name, want in _expected_settings(variant, players, seed, strategy, trial).items():
            if meta.get(name) != want:
                problems.append(f"{path.name}: {name} is {meta.get(name)!r}, expected {want!r}")
        if meta["classes"] != columns:
            problems.append(
                f"{path.name}: {meta['classes']:,} classes, the trainer makes {columns:,} "
                "(an earlier class numbering: retrain it)"
            )
        if strategy == FINE and not meta["copula"]:
            problems.append(
                f"{path.name}: holds no copula of the duns (the trainer stores one: retrain it)"
            )
        if retrain:
            stored = _arrays(path)
            fresh = trained_arrays(variant, players, seed, strategy, trial)
            differ = differing_arrays(stored, fresh)
            if differ:
                problems.append(
                    f"{path.name}: retrained arrays differ beyond {FLOAT_TOLERANCE:g} "
                    f"({_gaps(stored, fresh, differ)})"
                )
    if readme and (not README.exists() or README.read_text(encoding="utf-8") != render_readme()):
        problems.append(f"{_shown(README)}: not what the files say (run with --readme)")
    return problems


def _gaps(stored: dict[str, np.ndarray], fresh: dict[str, np.ndarray], names: list[str]) -> str:
    """How far each of ``names`` differs at most (or that it is absent or of another shape)."""
    out = []
    for name in names:
        a, b = stored.get(name), fresh.get(name)
        if a is None or b is None or a.shape != b.shape:
            out.append(f"{name}: {'absent' if a is None or b is None else 'other shape'}")
        elif a.dtype != b.dtype or a.tobytes() != b.tobytes():
            gap = float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))
            out.append(f"{name} by up to {gap:.2g}")
    return ", ".join(out)


# --------------------------------------------------------------------------- command line


def selected(
    variants: Sequence[str] | None, players: Sequence[int] | None
) -> list[tuple[str, int]]:
    """Every (variant, players) the names and counts select that a table is trained for."""
    names = list(variants or [*variant_names(), *deck_option_names()])
    known = set(variant_names()) | set(deck_option_names())
    for name in names:
        if name not in known:
            raise SystemExit(f"unknown variant {name!r}; shipped: {', '.join(sorted(known))}")
    counts = list(players or PLAYERS)
    for p in counts:
        if p not in PLAYERS:
            raise SystemExit(f"players must be 2..8, got {p}")
    return [(v, p) for p in counts for v in names if _serves(v, p)]


def _serves(name: str, players: int) -> bool:
    """Whether ``name`` is played at ``players``: a shipped variant at 2 to 8, a deck option
    (``simkit/variants/decks/``) at the player counts its pack serves."""
    if name in variant_names():
        return True
    return load_variant(name).deck.serves(players)


def use_data(folder: Path) -> None:
    """Read and write the table files and their README in ``folder`` from now on."""
    global DATA, README
    DATA = folder.resolve()
    README = DATA / "README.md"


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", nargs="+", default=None, help="default: every shipped one")
    parser.add_argument("--players", type=int, nargs="+", default=None, help="default: 2 to 8")
    parser.add_argument(
        "--strategy", nargs="+", choices=STRATEGIES, default=list(STRATEGIES),
        help="whose tables: max-ev's coarse, expected-score's fine (default: both)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="processes training at once")
    parser.add_argument("--missing", action="store_true", help="train only absent files")
    parser.add_argument("--check", action="store_true", help="verify, write nothing")
    parser.add_argument(
        "--retrain", action="store_true",
        help="with --check: retrain and compare the arrays (integers byte for byte, floats "
        f"within {FLOAT_TOLERANCE:g} absolute)",
    )  # fmt: skip
    parser.add_argument("--readme", action="store_true", help="only regenerate the README")
    parser.add_argument(
        "--data", type=Path, default=DATA,
        help="the folder of the table files and their README (default simkit/data)",
    )  # fmt: skip
    parser.add_argument(
        "--trial", type=int, nargs=2, metavar=("GAMES", "ITERATIONS"), default=None,
        help="a quick trial: GAMES per iteration and ITERATIONS instead of the trainer's "
        "schedule (--check then expects them; only with --data, never for the shipped files)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.trial is not None and args.data.resolve() == DATA:
        parser.error("--trial trains tables that do not ship: give --data another folder")
    use_data(args.data)
    chosen = selected(args.variant, args.players)
    strategies = [s for s in STRATEGIES if s in args.strategy]

    if args.check:
        problems = []
        for strategy in strategies:
            problems += check(chosen, args.seed, retrain=args.retrain, readme=False,
                              strategy=strategy, trial=args.trial)  # fmt: skip
        problems += check([], args.seed, retrain=False)  # the README
        for p in problems:
            print(p)
        n = len(chosen) * len(strategies)
        print(f"{n} file(s) checked: {'all current' if not problems else 'NOT current'}")
        return 1 if problems else 0
    if args.readme:
        write_readme()
        print(f"{_shown(README)} regenerated")
        return 0

    from simkit.parallel import run_ordered

    DATA.mkdir(parents=True, exist_ok=True)  # a --data folder of one's own may not exist yet
    started = time.perf_counter()
    tasks = [
        (v, p, args.seed, str(DATA), s, args.trial)
        for s in strategies
        for v, p in chosen
        if not (args.missing and (DATA / file_name(v, p, s)).exists())
    ]
    print(f"training {len(tasks)} table(s) in {args.jobs} process(es)", flush=True)
    for meta in run_ordered(train_one, tasks, n_jobs=args.jobs):
        changes = meta["change_per_iteration"]
        print(
            f"{meta['file']}: {meta['seconds']} s, change per iteration "
            f"{', '.join(f'{c:.4f}' for c in changes)} ({time.perf_counter() - started:.0f} s in)",
            flush=True,
        )
    write_readme()
    wall = time.perf_counter() - started
    print(f"{len(tasks)} table(s) in {wall:.0f} s of wall time ({wall / 60:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
