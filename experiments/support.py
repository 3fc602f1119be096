"""What the scripts under ``experiments/`` share; not a script itself.

* **Timing** (benchmarks): :func:`best_of`, :func:`cpu_time`, :func:`best_in_turns`,
  :func:`rotated_turns`, the options of a benchmark over dealt hands (:func:`hands_parser`,
  :func:`check_hands_args`) and the record of its run (:func:`run_meta`).
* **An earlier revision** (A/B benchmarks): :func:`simkit_at` imports the ``simkit`` package
  of a git revision beside the working tree's, so both run in one process.
* **Table files** (pipelines that write ``simkit/data``): :func:`write_meta`, :func:`set_meta`
  rewrite a file's ``meta`` and keep its arrays byte for byte; :func:`forget_shipped_tables`.
* **Command-line rows**: :func:`parse_row` (``VARIANT:PLAYERS``) and :func:`parse_seat_row`
  (``VARIANT:PLAYERS:SEAT``), refusing bad input before any work.
* **Head to head** (pipelines that check a fit): :func:`head_to_head`, the gain of one strategy
  over another on the same hands and rollouts.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import platform
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------------- timing


def best_of(
    fn: Callable[[], Any], repeats: int = 3, clock: Callable[[], float] = time.perf_counter
) -> float:
    """The shortest time of ``repeats`` calls of ``fn``, in seconds (the least disturbed run on
    a shared machine).  ``clock``: wall time by default; ``time.process_time`` counts only this
    process's CPU time."""
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def cpu_time(fn: Callable[[], Any]) -> float:
    """This process's CPU seconds for one call of ``fn`` (one side of an A/B pair)."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def best_in_turns(runs: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """The shortest CPU time (``time.process_time``) of each of ``runs`` over ``repeats``
    rounds, each round calling every run once in turn, so that a busy spell of a shared
    machine falls on all of them alike: seconds by name."""
    best = dict.fromkeys(runs, np.inf)
    for _ in range(repeats):
        for name, run in runs.items():
            best[name] = min(best[name], cpu_time(run))
    return best


def rotated_turns(
    runs: dict[str, Callable[[], Any]], rounds: int, repeats: int
) -> list[dict[str, float]]:
    """``rounds`` timings of :func:`best_in_turns` (each the best of ``repeats`` calls in
    turn), round ``k`` starting its turns at the ``k``-th run: on a shared machine a call's
    place in the turn can move its time.  Seconds by name, one dict a round."""
    named = list(runs.items())
    return [
        best_in_turns(dict(named[k % len(named) :] + named[: k % len(named)]), repeats)
        for k in range(rounds)
    ]


def hands_parser(
    description: str, hands: int, exhaustive_hands: int | None, repeats: int, out: Path
) -> argparse.ArgumentParser:
    """The options of a benchmark over dealt hands (``--hands``, ``--exhaustive-hands``,
    ``--repeats``, ``--out``) with these defaults (``exhaustive_hands`` None: a benchmark
    that scans no split, without that option); a script adds its own."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--hands", type=int, default=hands)
    if exhaustive_hands is not None:
        ap.add_argument("--exhaustive-hands", type=int, default=exhaustive_hands)
    ap.add_argument("--repeats", type=int, default=repeats)
    ap.add_argument("--out", type=Path, default=out)
    return ap


def check_hands_args(a: argparse.Namespace) -> None:
    """Refuse what :func:`hands_parser`'s options cannot run, before any work; make ``--out``."""
    exhaustive = getattr(a, "exhaustive_hands", 0)
    if a.hands < 4 or not 0 <= exhaustive <= a.hands or a.repeats < 1:
        raise SystemExit("--hands ≥ 4, 0 ≤ --exhaustive-hands ≤ --hands, --repeats ≥ 1")
    a.out.mkdir(parents=True, exist_ok=True)


def run_meta(command: str, seed: int) -> dict[str, Any]:
    """What a benchmark's results record of its run: the command, seed, versions, time and
    the machine's load at the end (the machine is shared)."""
    import numba as nb

    return {
        "command": command,
        "seed": seed,
        "numba": nb.__version__,
        "python": platform.python_version(),
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


# --------------------------------------------------------------------------- an earlier revision

#: Where :func:`simkit_at` extracts revisions (ignored by git, kept between runs so that each
#: revision's numba cache stays warm).
REVISIONS = ROOT / ".bench-revisions"
#: ``simkit`` where it names the package: before a dot (``simkit.arrange``, ``"simkit.phases"``),
#: as an imported name (``import simkit``, ``from simkit import``) or where its data files are
#: read (``resources.files("simkit")``)
_PACKAGE = re.compile(
    r'\bsimkit(?=\.)|(?<=import )simkit\b|(?<=from )simkit\b|(?<=files\(")simkit(?=")'
)


def simkit_at(rev: str) -> ModuleType:
    """The ``simkit`` package of git revision ``rev``, imported as ``simkit_<rev>`` (the
    revision's full hash, cut to 10 hex digits) beside the working tree's ``simkit``.

    The package is extracted with ``git archive`` into ``.bench-revisions/simkit_<rev>/`` and
    renamed in its own imports and module paths, so the previous version's kernels run verbatim
    in the same process as the new ones and a shared machine's busy spells fall on both alike.
    Raises ``SystemExit`` when ``rev`` names no commit."""
    full = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    if full.returncode != 0:
        raise SystemExit(f"no such git revision: {rev!r}")
    name = f"simkit_{full.stdout.strip()[:10]}"
    package = REVISIONS / name / name
    if not package.exists():
        REVISIONS.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory(dir=REVISIONS) as tmp:
            archive = Path(tmp) / "simkit.tar"
            subprocess.run(
                ["git", "archive", "--output", str(archive), full.stdout.strip(), "simkit"],
                cwd=ROOT, check=True,
            )  # fmt: skip
            with tarfile.open(archive) as tar:
                tar.extractall(tmp, filter="data")
            for path in (Path(tmp) / "simkit").rglob("*.py"):
                path.write_text(_PACKAGE.sub(name, path.read_text()))
            package.parent.mkdir(parents=True, exist_ok=True)
            (Path(tmp) / "simkit").rename(package)
    if str(package.parent) not in sys.path:
        sys.path.insert(0, str(package.parent))
    return importlib.import_module(name)


# --------------------------------------------------------------------------- table files


def _save(path: Path, arrays: dict[str, np.ndarray]) -> None:
    with open(path, "wb") as f:  # a file object: savez would add ".npz" to a bare path
        np.savez_compressed(f, **arrays)


def write_meta(path: Path, arrays: dict[str, np.ndarray], meta: dict) -> None:
    """Rewrite the table file ``path`` with ``meta`` and its other arrays unchanged (checked
    after writing: same names, dtypes and bytes; ``AssertionError`` if not)."""
    from simkit.files import atomic_write

    arrays = {**arrays, "meta": np.array(json.dumps(meta, ensure_ascii=False))}
    atomic_write(path, lambda tmp: _save(tmp, arrays))
    with np.load(path, allow_pickle=False) as z:
        for name, before in arrays.items():
            after = z[name]
            if name != "meta" and (
                after.dtype != before.dtype or after.tobytes() != before.tobytes()
            ):
                raise AssertionError(f"{path.name}: array {name} changed")


def forget_shipped_tables() -> None:
    """Make simkit read the shipped table files again (after a script rewrote one)."""
    from simkit.arrange.wintables import _load_shipped  # its cache: no public name clears it

    _load_shipped.cache_clear()


def set_meta(path: Path, update: dict[str, Any]) -> str:
    """Rewrite the table file ``path``'s ``meta`` with ``update`` (a None value removes the
    key), its arrays unchanged (:func:`write_meta`); returns what was done: ``"written"``,
    ``"removed"`` or ``"unchanged"`` (nothing to remove: the file is not rewritten)."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {name: z[name] for name in z.files}
    meta = json.loads(str(arrays["meta"]))
    if all(value is None and key not in meta for key, value in update.items()):
        return "unchanged"
    for key, value in update.items():
        if value is None:
            meta.pop(key, None)
        else:
            meta[key] = value
    write_meta(path, arrays, meta)
    forget_shipped_tables()  # the next read sees the file as it is now
    return "removed" if all(value is None for value in update.values()) else "written"


# --------------------------------------------------------------------------- command-line rows


def parse_row(text: str) -> tuple[str, int]:
    """``VARIANT:PLAYERS`` → (variant, players); ``SystemExit`` naming the row when it is not
    one (a bad variant name included), before any work."""
    from simkit.errors import SimkitError
    from simkit.variants import resolve_variant

    name, _, players = text.partition(":")
    if not players.isdigit():
        raise SystemExit(f"a row is variant:players, got {text!r}")
    try:
        resolve_variant(name)
    except SimkitError as err:
        raise SystemExit(f"a row is variant:players: {text!r} ({err})") from None
    return name, int(players)


def parse_seat_row(text: str) -> tuple[str, int, str]:
    """``VARIANT:PLAYERS:SEAT`` → (variant, players, seat); ``SystemExit`` naming the row when
    it is not one, before any work."""
    from simkit.errors import SimkitError
    from simkit.variants import resolve_variant

    try:
        name, players, seat = text.split(":")
        resolve_variant(name)
        return name, int(players), seat
    except (ValueError, SimkitError) as err:
        raise SystemExit(
            f"a row is VARIANT:PLAYERS:SEAT (e.g. taiwan:4:banker): {text!r} ({err})"
        ) from None


# --------------------------------------------------------------------------- head to head


def head_to_head(
    a: Any,
    b: Any,
    v: Any,
    n_players: int,
    *,
    seat: str = "player",
    hands: int = 2000,
    rollouts: int = 400,
    seed: int = 11,
    opponents: Any = None,
    batch: int = 16,
) -> dict[str, float]:
    """The gain of strategy ``b`` over ``a`` per hand, paired: both set ``hands`` dealt hands
    of one seat of variant ``v``; where they set a hand differently, both settings are scored on
    the same ``rollouts`` random deals of the other cards to opponents who play ``opponents``
    (``a`` when None).  ``a``, ``b``, ``opponents``: strategy names or strategies.  Returns
    ``{"gain", "ci95", "differ"}``: the mean gain over all hands (0 where they agree), its 95%
    CI half-width over hands, and the share of hands set differently."""
    from simkit.arrange import arrange, as_strategy, strategy_from_name
    from simkit.deal import as_generator, deal

    # the regret protocol's rollout scoring has no public name yet
    from simkit.regret import Z95, banker_seat, points_on_rollouts, rollout_hands

    def strategy(spec: Any) -> Any:
        return strategy_from_name(spec) if isinstance(spec, str) else as_strategy(spec)

    sa, sb = strategy(a), strategy(b)
    opp = sa if opponents is None else strategy(opponents)
    deal_seed, roll_seed = np.random.SeedSequence(seed).spawn(2)
    dealt = deal(hands, n_players, rng=as_generator(deal_seed))[:, 0]
    ca, da = arrange(dealt, v, sa, n_players=n_players, rng=0)
    cb, db = arrange(dealt, v, sb, n_players=n_players, rng=0)
    differ = np.flatnonzero(
        (np.sort(ca[:, :3], 1) != np.sort(cb[:, :3], 1)).any(1)
        | (np.sort(ca[:, 3:8], 1) != np.sort(cb[:, 3:8], 1)).any(1)
        | (da != db)
    )
    seeds = roll_seed.spawn(hands)
    banker = banker_seat(v, seat)
    gain = np.zeros(hands)
    for lo in range(0, differ.size, batch):
        idx = differ[lo : lo + batch]
        deals = np.stack(
            [
                rollout_hands(dealt[h], n_players, rollouts, np.random.default_rng(seeds[h]))
                for h in idx
            ]
        )
        settings = [(np.stack([ca[h], cb[h]]), np.array([da[h], db[h]])) for h in idx]
        for h, pts in zip(
            idx, points_on_rollouts(settings, deals, v, opp, n_players, banker), strict=True
        ):
            gain[h] = pts[1].mean() - pts[0].mean()
    se = gain.std(ddof=1) / math.sqrt(hands)
    return {"gain": float(gain.mean()), "ci95": float(Z95 * se), "differ": differ.size / hands}


# --------------------------------------------------------------------------- paired estimates


def seat_groups(variant: Any, n_players: int = 4) -> dict[str, tuple[int, ...]]:
    """The roles of a variant's seats: ``any`` (every seat) or ``banker`` (seat 0) and
    ``player`` (the others)."""
    from simkit.variants import has_banker

    if has_banker(variant):
        return {"banker": (0,), "player": tuple(range(1, n_players))}
    return {"any": tuple(range(n_players))}


def hands_after_pass(dealt: np.ndarray, variant: Any) -> np.ndarray:
    """The hands set under ``variant``: the deal after its card pass (as ``simulate`` plays)."""
    from simkit.deal import pass_cards

    rules = variant.deal
    if rules.pass_rounds:
        return pass_cards(dealt, rules.pass_rounds, rules.pass_direction)
    return dealt
