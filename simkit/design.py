"""Payout tables designed backwards from targets (issue 51.5, ``simkit design``).

A design frees a few numeric fields of a variant file (:class:`Free`: a dotted key such as
``specials.six-pairs.payout`` or ``scoring.duns.middle.full-house``, a range and a step) and
asks for targets (:class:`Target`: a par-sheet column of a role, ``banker.edge``,
``player.sd``, ``seat.p_win`` ..., equal to a value within a tolerance, or one of the named
constraints ``declare-worthwhile`` and ``rarity-monotone``), optionally minimizing one more
metric.  :func:`design` then:

1. simulates the variant once with its games kept (:mod:`simkit.kept`; the default strategy);
2. searches the free fields on those kept games re-scored under each candidate
   (:func:`simkit.rescore.scored_blocks`, fixed play): every point of the grid where it has at
   most :data:`MAX_GRID` points, else a coordinate search from the file's own values;
3. verifies the best :data:`VERIFY` candidates by a fresh simulation of each candidate file
   with the strategy re-derived for its rules (its win tables and fitted extras built and
   cached on first use, :mod:`simkit.tables_cache`) on another seed, and keeps the first that
   meets every target there;
4. where none does, searches again on the kept games of the closest verified candidate (the
   play there is re-derived for rules near the answer, so fixed play errs less) from its
   values, and verifies again, for at most :data:`ROUNDS` rounds.  Where no round's candidate
   meets the targets they are reported infeasible within the freed ranges, with the closest
   candidate (the least :func:`loss` on its fresh simulation).

Metrics of a candidate (:func:`metrics`): per role (``seat``, or ``banker`` and ``player``,
:func:`simkit.par.role_seats`) the :func:`simkit.par.par_row` columns, plus ``sd_se`` (the
SD's standard error, the game as the unit, by the delta method); ``declare-worthwhile`` is the
least, over the specials declared in the kept games, of the mean points a declared special
wins over the same cards played as set (negative: some special is better played);
``rarity-monotone`` is the number of pairs of specials where the rarer (by the exact chance of a
one-deck hand, :func:`simkit.exact.special_probabilities`) pays less.

A target ``M=V:T`` is met where ``|M - V| <= T``; ``M=V`` (no tolerance) where
``|M - V| <= 1.96·SE`` (SE: ``edge_se`` for an edge, ``sd_se`` for an SD, else 0);
``declare-worthwhile`` where the least gain is ``>= 0`` (within 1.96 SE of it),
``rarity-monotone`` where no pair is out of order.
"""

from __future__ import annotations

import difflib
import itertools
import math
import tempfile
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simkit.errors import SimkitError
from simkit.par import Z95, par_row, role_seats
from simkit.variants import Variant, has_banker, resolve_variant, variant_names
from simkit.variants.schema import to_plain

#: The named constraints a target may be.
CONSTRAINTS = ("declare-worthwhile", "rarity-monotone")
#: The par-sheet columns a ``ROLE.COLUMN`` metric may name.
COLUMNS = ("edge", "edge_se", "sd", "sd_se", "volatility_index", "p_win", "p_tie", "p_loss", "n0")
#: The most grid points searched exhaustively; a larger grid is searched coordinate-wise.
MAX_GRID = 400
#: Rounds of the coordinate search (each sweeps every free field once).
COORD_ROUNDS = 4
#: Candidates verified by a fresh simulation per round, best first.
VERIFY = 2
#: Rounds of search and verification at most (each after the first on the kept games of the
#: closest verified candidate, whose play is re-derived for rules near the answer).
ROUNDS = 3
#: Sections of a variant file whose numeric leaves may be freed.
SECTIONS = ("scoring", "specials", "phases")


# --------------------------------------------------------------------------------------------
# What may be freed, and what may be targeted


#: Selection and evaluation rollouts a hand of :func:`design_regret` (the own-variant protocol).
REGRET_ROLLOUTS = (150, 150)


def numeric_keys(variant: Variant) -> dict[str, float]:
    """Every numeric field of ``variant``'s ``[scoring]``, ``[specials]`` and ``[phases]`` as
    its dotted file key → its value (a special's ``specials.<id>.payout`` and numeric options;
    booleans, strings and lists left out)."""
    out: dict[str, float] = {}

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, Mapping):
            for k, v in node.items():
                walk(f"{prefix}.{k}", v)
        elif isinstance(node, int | float) and not isinstance(node, bool):
            out[prefix] = float(node)

    walk("scoring", to_plain(variant.scoring, sources=False))
    walk("phases", to_plain(variant.phases, sources=False))
    for rule in variant.specials.rules:
        out[f"specials.{rule.id}.payout"] = float(rule.payout)
        walk(f"specials.{rule.id}", dict(rule.options))
    return out


def _file_chain(variant: Variant) -> list[dict[str, Any]]:
    """The TOML tables of ``variant``'s file and of the files it extends, the file first."""
    chain: list[dict[str, Any]] = []
    path = Path(variant.path) if variant.path else None
    seen: set[Path] = set()
    while path is not None and path.is_file() and path not in seen:
        seen.add(path)
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        chain.append(raw)
        base = raw.get("variant", {}).get("extends")
        if not isinstance(base, str):
            break
        path = (
            Path(resolve_variant(base).path)
            if base in variant_names()
            else (path.parent / base).resolve()
        )
    return chain


def _written_value(chain: Sequence[Mapping[str, Any]], key: str) -> Any:
    """The value the nearest file of ``chain`` writes at dotted ``key`` (None: none writes it)."""
    for raw in chain:
        node: Any = raw
        for part in key.split("."):
            if not isinstance(node, Mapping) or part not in node:
                node = None
                break
            node = node[part]
        if node is not None:
            return node
    return None


@dataclass(frozen=True)
class Free:
    """A freed field: dotted ``key``, its values ``lo, lo + step, ... <= hi``; ``whole``: the
    file types it as an integer, so every value is whole."""

    key: str
    lo: float
    hi: float
    step: float
    whole: bool
    current: float

    def values(self) -> np.ndarray:
        """``float64 (k,)``: the grid of this field, ``lo`` to ``hi`` by ``step``."""
        n = math.floor((self.hi - self.lo) / self.step + 1e-9) + 1
        return self.lo + self.step * np.arange(n, dtype=np.float64)


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise SimkitError(f"{what}: {text!r} is not a number") from None


def parse_free(spec: str, variant: Variant) -> Free:
    """``KEY=LO:HI[:STEP]`` checked against ``variant``'s numeric fields before any work.

    Raises :class:`~simkit.errors.SimkitError` for a malformed spec, a key that is not a
    numeric field (naming the close ones), ``LO > HI``, a step that is not positive, or a
    whole field (the nearest file of its ``extends`` chain writes an integer there; a field no
    file writes takes the schema's type, a float) given a fractional bound or step.  STEP defaults
    to 1 for a whole field and to (HI - LO) / 10 otherwise."""
    key, eq, rng = spec.partition("=")
    key = key.strip()
    parts = rng.split(":")
    if not eq or not key or len(parts) not in (2, 3):
        raise SimkitError(f"--free {spec!r}: expected KEY=LO:HI[:STEP]")
    known = numeric_keys(variant)
    if key not in known:
        close = difflib.get_close_matches(key, list(known), n=6, cutoff=0.5)
        hint = f"; close keys: {', '.join(close)}" if close else ""
        raise SimkitError(
            f"--free {spec!r}: {key!r} is not a numeric field of {variant.name}{hint} "
            f"({len(known)} numeric fields; `simkit variants show {variant.name}` lists them)"
        )
    lo, hi = _number(parts[0], f"--free {key} LO"), _number(parts[1], f"--free {key} HI")
    if lo > hi:
        raise SimkitError(f"--free {spec!r}: LO {lo:g} is above HI {hi:g}")
    written = _written_value(_file_chain(variant), key)
    whole = isinstance(written, int) and not isinstance(written, bool)  # unwritten: a float
    step = _number(parts[2], f"--free {key} STEP") if len(parts) == 3 else None
    if step is None:
        step = 1.0 if whole else max((hi - lo) / 10.0, 1e-9)
    if step <= 0:
        raise SimkitError(f"--free {spec!r}: STEP must be positive, got {step:g}")
    if whole and not all(float(x).is_integer() for x in (lo, hi, step)):
        raise SimkitError(
            f"--free {spec!r}: {key} is a whole number in the file ({written!r}); give whole "
            "LO, HI and STEP"
        )
    return Free(key, lo, hi, step, whole, float(known[key]))


@dataclass(frozen=True)
class Target:
    """A target: ``metric`` (``ROLE.COLUMN`` or a name of :data:`CONSTRAINTS`), the ``value``
    it should take and the tolerance ``tol`` (constraints: value and tol 0)."""

    metric: str
    value: float = 0.0
    tol: float = 0.0

    def __str__(self) -> str:
        if self.metric in CONSTRAINTS:
            return self.metric
        return f"{self.metric}={self.value:g}" + (f":{self.tol:g}" if self.tol else "")


def check_metric(metric: str, variant: Variant, n_players: int) -> None:
    """Raise :class:`~simkit.errors.SimkitError` unless ``metric`` is a named constraint or
    ``ROLE.COLUMN`` with a role of ``variant`` at ``n_players`` and a column of
    :data:`COLUMNS`; the message lists the valid ones."""
    if metric in CONSTRAINTS:
        return
    roles = list(role_seats(variant, n_players))
    role, dot, column = metric.partition(".")
    valid = [f"{r}.{c}" for r in roles for c in COLUMNS] + list(CONSTRAINTS)
    if not dot or role not in roles or column not in COLUMNS:
        close = difflib.get_close_matches(metric, valid, n=4, cutoff=0.5)
        hint = f" (close: {', '.join(close)})" if close else ""
        kind = "a banker game" if has_banker(variant) else "an all-pairs game"
        raise SimkitError(
            f"unknown metric {metric!r}{hint}; {variant.name} ({kind}) "
            f"has roles {', '.join(roles)}, columns {', '.join(COLUMNS)}, and the constraints "
            f"{', '.join(CONSTRAINTS)}"
        )


def parse_target(spec: str, variant: Variant, n_players: int) -> Target:
    """``METRIC=VALUE[:TOL]`` or a constraint's name, checked (:func:`check_metric`)."""
    metric, eq, rest = spec.partition("=")
    metric = metric.strip()
    check_metric(metric, variant, n_players)
    if metric in CONSTRAINTS:
        if eq:
            raise SimkitError(f"--target {spec!r}: {metric} is a constraint, give it alone")
        return Target(metric)
    if not eq:
        raise SimkitError(f"--target {spec!r}: expected METRIC=VALUE[:TOL]")
    value, _, tol = rest.partition(":")
    t = Target(metric, _number(value, f"--target {metric}"), _number(tol or "0", "TOL"))
    if t.tol < 0:
        raise SimkitError(f"--target {spec!r}: TOL must be at least 0")
    return t


# --------------------------------------------------------------------------------------------
# Candidate files


def _toml_value(x: float, whole: bool) -> str:
    return str(round(x)) if whole else repr(float(x))


def _toml_key(part: str) -> str:
    return part if all(c.isalnum() or c in "-_" for c in part) else f'"{part}"'


def _extends_of(variant: Variant, folder: Path) -> str:
    """How a file in ``folder`` names ``variant`` to extend it: its shipped name, else the
    relative path of its file."""
    shipped = (
        Path(resolve_variant(variant.origin).path) if variant.origin in variant_names() else None
    )
    if shipped is not None and Path(variant.path).resolve() == shipped.resolve():
        return variant.origin
    try:
        return str(Path(variant.path).resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(Path(variant.path).resolve())


def candidate_toml(
    base: Variant,
    name: str,
    values: Mapping[Free, float],
    folder: Path,
    notes: Sequence[str] = (),
) -> str:
    """The text of a variant file in ``folder`` that extends ``base`` and sets each freed
    field to its value (whole fields written as integers)."""
    q = '"'
    lines = [
        "[variant]",
        f"name = {q}{name}{q}",
        f"extends = {q}{_extends_of(base, folder)}{q}",
        f"title = {q}{name}: {base.name} with designed payouts{q}",
        f"summary = {q}{base.name} with "
        + ", ".join(f"{f.key} = {_toml_value(v, f.whole)}" for f, v in values.items())
        + q,
    ]
    if notes:
        lines.append("notes = [")
        lines += [f"    {_quote(n)}," for n in notes]
        lines.append("]")
    tables: dict[str, list[str]] = {}
    for f, v in values.items():
        *table, leaf = f.key.split(".")
        tables.setdefault(".".join(_toml_key(p) for p in table), []).append(
            f"{_toml_key(leaf)} = {_toml_value(v, f.whole)}"
        )
    for header, rows in tables.items():
        lines += ["", f"[{header}]", *rows]
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_candidate(
    base: Variant, name: str, values: Mapping[Free, float], folder: Path, notes: Sequence[str] = ()
) -> Variant:
    """Write :func:`candidate_toml` to ``folder/<name>.toml`` and load it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(candidate_toml(base, name, values, folder, notes), encoding="utf-8")
    return resolve_variant(path)


# --------------------------------------------------------------------------------------------
# Metrics of a candidate on kept games


@dataclass
class Kept:
    """A run's kept games read once: the run folder, its variant, players and strategy, and
    the cards and declared specials of the games where some seat declared one."""

    run: Path
    variant: Variant
    n_players: int
    strategy: str
    index: int
    declared_cards: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 13), np.int8))
    declared: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.int8))


def open_run(run: str | Path) -> Kept:
    """The kept games of ``run`` (:func:`simkit.kept.open_kept`) with the games that declared
    a special set aside for ``declare-worthwhile``."""
    from simkit.kept import open_kept
    from simkit.rescore import run_variant

    kept = open_kept(run)
    index, variant = run_variant(kept)
    cards, declared = [], []
    for arrays in kept.blocks():
        d = arrays[f"declared{index}"]
        some = (d >= 0).any(axis=1)
        cards.append(arrays[f"cards{index}"][some])
        declared.append(d[some])
    return Kept(
        Path(run), variant, kept.n_players, kept.provenance["strategy"], index,
        np.concatenate(cards), np.concatenate(declared),
    )  # fmt: skip


def _sd_se(scores: np.ndarray) -> float:
    """The SD's standard error of a role's scores ``(n_games, k)``, the game as the unit (the
    delta method on the per-game mean of squares and of scores)."""
    n = scores.shape[0]
    if n < 3:
        return float("nan")
    m1, m2 = scores.mean(axis=1), (scores**2).mean(axis=1)
    mu, var = m1.mean(), m2.mean() - m1.mean() ** 2
    if var <= 0:
        return 0.0
    grad = np.array([-2 * mu, 1.0]) / (2 * math.sqrt(var))
    cov = np.cov(np.stack([m1, m2])) / n
    return float(math.sqrt(max(grad @ cov @ grad, 0.0)))


def declare_gains(kept: Kept, variant: Variant) -> dict[str, tuple[float, float, int]]:
    """Per special declared in the kept games: ``(mean, se, n)`` of the points a declaring seat
    wins under ``variant`` by declaring over playing the same cards as set (the others as
    kept)."""
    from simkit.score import score

    out: dict[str, tuple[float, float, int]] = {}
    if kept.declared.size == 0:
        return out
    base = score(kept.declared_cards, variant, declared=kept.declared)
    gains: dict[int, list[np.ndarray]] = {}
    for seat in range(kept.n_players):
        rows = np.flatnonzero(kept.declared[:, seat] >= 0)
        if rows.size == 0:
            continue
        plain = kept.declared[rows].copy()
        plain[:, seat] = -1
        played = score(kept.declared_cards[rows], variant, declared=plain)[:, seat]
        gain = base[rows, seat] - played
        for s in np.unique(kept.declared[rows, seat]):
            gains.setdefault(int(s), []).append(gain[kept.declared[rows, seat] == s])
    for s, parts in sorted(gains.items()):
        g = np.concatenate(parts)
        se = float(g.std(ddof=1) / math.sqrt(g.size)) if g.size > 1 else float("inf")
        out[variant.specials.rules[s].id] = (float(g.mean()), se, int(g.size))
    return out


def rarity_violations(variant: Variant) -> list[tuple[str, str]]:
    """Pairs ``(rarer, commoner)`` of ``variant``'s specials where the rarer (the smaller exact
    chance of a one-deck hand qualifying) pays less."""
    from simkit.exact import special_probabilities

    chance = special_probabilities(variant)
    rules = list(variant.specials.rules)
    return [
        (a.id, b.id)
        for a, b in itertools.permutations(rules, 2)
        if chance[a.id][0] < chance[b.id][0] and a.payout < b.payout
    ]


def metrics(kept: Kept, variant: Variant, wanted: Sequence[str]) -> dict[str, float]:
    """The metrics of ``variant`` on the kept games (fixed play): every ``ROLE.COLUMN`` of
    :data:`COLUMNS` (n0 NaN where it is empty), and those of :data:`CONSTRAINTS` in
    ``wanted`` (with ``declare-worthwhile.se``)."""
    from simkit.kept import open_kept
    from simkit.rescore import scored_blocks

    totals = [
        t
        for _, (t, _c), _ in scored_blocks(
            open_kept(kept.run), kept.index, kept.variant, variant, kept.strategy
        )
    ]
    scores = np.concatenate(totals).astype(np.float64)
    out: dict[str, float] = {}
    for role, seats in role_seats(variant, kept.n_players).items():
        row = par_row(scores[:, seats])
        for col, value in row.items():
            if col in COLUMNS:
                out[f"{role}.{col}"] = float("nan") if value is None else float(value)
        out[f"{role}.sd_se"] = _sd_se(scores[:, seats])
    if "declare-worthwhile" in wanted:
        gains = declare_gains(kept, variant)
        worst = min(gains.items(), key=lambda kv: kv[1][0], default=None)
        out["declare-worthwhile"] = worst[1][0] if worst else 0.0
        out["declare-worthwhile.se"] = worst[1][1] if worst else 0.0
    if "rarity-monotone" in wanted:
        out["rarity-monotone"] = float(len(rarity_violations(variant)))
    return out


def _se_of(metric: str, m: Mapping[str, float]) -> float:
    role, _, column = metric.partition(".")
    if column in ("edge", "sd"):
        return float(m.get(f"{role}.{column}_se", 0.0))
    return 0.0


def miss(target: Target, m: Mapping[str, float]) -> float:
    """How far ``m`` misses ``target``, in units of the target's scale (0: met).  A metric's
    miss is ``max(0, |x - V| - T) / T`` where ``T > 0``, else ``max(0, |x - V| - 1.96·SE) /
    max(|V|, 1)`` (a target without a tolerance is met where the estimate cannot be told from
    it); declare-worthwhile's the points by which the worst special is better
    played (beyond 1.96 SE); rarity-monotone's the number of pairs out of order."""
    if target.metric == "declare-worthwhile":
        x = m["declare-worthwhile"]
        return max(0.0, -x - Z95 * m.get("declare-worthwhile.se", 0.0))
    if target.metric == "rarity-monotone":
        return m["rarity-monotone"]
    x = m[target.metric]
    if math.isnan(x):
        return float("inf")
    allow = target.tol if target.tol > 0 else Z95 * _se_of(target.metric, m)
    scale = target.tol if target.tol > 0 else max(abs(target.value), 1.0)
    return max(0.0, abs(x - target.value) - allow) / scale


#: The weight of a metric target's squared distance from its value inside the tolerance: it
#: only ranks candidates that meet the targets alike, the most central first.
CENTRE_WEIGHT = 1e-3


def loss(targets: Sequence[Target], m: Mapping[str, float], minimize: str | None = None) -> float:
    """The search's objective: the sum of the targets' squared :func:`miss`, plus
    :data:`CENTRE_WEIGHT` times each metric target's squared distance from its value (in its
    scale), so that of the candidates that meet a target the most central ranks first; where
    ``minimize`` names a metric, plus its value (alone where there are no targets, scaled by
    1e-6 otherwise, so that it only ranks candidates that miss the targets alike)."""
    total = 0.0
    for t in targets:
        total += miss(t, m) ** 2
        if t.metric not in CONSTRAINTS and not math.isnan(m[t.metric]):
            scale = t.tol if t.tol > 0 else max(abs(t.value), 1.0)
            total += CENTRE_WEIGHT * ((m[t.metric] - t.value) / scale) ** 2
    if minimize is None:
        return total
    return total + (m[minimize] if not targets else 1e-6 * m[minimize])


# --------------------------------------------------------------------------------------------
# The search


@dataclass
class Step:
    """One candidate evaluated: its values of the free fields, its metrics and loss."""

    values: dict[str, float]
    metrics: dict[str, float]
    loss: float
    phase: str = "grid"


Evaluate = Callable[[dict[str, float]], Step]


def search(
    frees: Sequence[Free], evaluate: Evaluate, start: Mapping[str, float] | None = None
) -> list[Step]:
    """Every candidate ``evaluate`` was asked about, in order: the whole grid of ``frees``
    where it has at most :data:`MAX_GRID` points, else a coordinate search (each free field
    swept over its grid in turn with the others at the best so far, from ``start`` (default:
    their values in the file) clipped to the grid, for at most :data:`COORD_ROUNDS` rounds or
    until a round improves nothing)."""
    grids = [f.values() for f in frees]
    size = math.prod(len(g) for g in grids)
    seen: dict[tuple[float, ...], Step] = {}

    def ask(point: tuple[float, ...], phase: str) -> Step:
        if point not in seen:
            step = evaluate({f.key: v for f, v in zip(frees, point, strict=True)})
            step.phase = phase
            seen[point] = step
        return seen[point]

    if size <= MAX_GRID:
        for point in itertools.product(*grids):
            ask(tuple(float(x) for x in point), "grid")
        return list(seen.values())
    at = {f.key: f.current for f in frees} | dict(start or {})
    best = tuple(
        float(g[np.argmin(np.abs(g - at[f.key]))]) for f, g in zip(frees, grids, strict=True)
    )
    best_loss = ask(best, "start").loss
    for r in range(COORD_ROUNDS):
        improved = False
        for i, g in enumerate(grids):
            for x in g:
                point = (*best[:i], float(x), *best[i + 1 :])
                step = ask(point, f"round {r + 1}, {frees[i].key}")
                if step.loss < best_loss - 1e-12:
                    best, best_loss, improved = point, step.loss, True
        if not improved:
            break
    return list(seen.values())


# --------------------------------------------------------------------------------------------
# The design


@dataclass
class Verified:
    """A candidate simulated afresh with its strategy re-derived: its file, the run folder,
    the fixed-play metrics (the search's) and the fresh ones, and whether it meets the targets."""

    variant: Variant
    run: Path
    fixed: dict[str, float]
    fresh: dict[str, float]
    loss: float
    meets: bool
    values: dict[str, float] = field(default_factory=dict)


@dataclass
class Design:
    """What :func:`design` found: the request, the search path, the verified candidates and
    the one written (``chosen``; the closest where ``feasible`` is False)."""

    base: Variant
    n_players: int
    frees: list[Free]
    targets: list[Target]
    minimize: str | None
    games: int
    seed: int
    path: list[Step]
    verified: list[Verified]
    chosen: Verified
    feasible: bool
    command: str = ""
    #: The default's regret under the chosen table, per seat (:func:`design_regret`; empty
    #: where it was not measured).
    regret: list[Any] = field(default_factory=list)

    @property
    def chosen_values(self) -> list[float]:
        """The chosen candidate's value of each free field, in :attr:`frees`' order."""
        return _values_of(self.chosen.variant, self.frees)


def _wanted(targets: Sequence[Target], minimize: str | None) -> list[str]:
    return [t.metric for t in targets] + ([minimize] if minimize else [])


def check_request(
    base: Variant, n_players: int, frees: Sequence[Free], targets: Sequence[Target],
    minimize: str | None,
) -> None:  # fmt: skip
    """Refuse, before any work, a design without targets or a metric to minimize, a field
    freed twice, a minimized constraint, or freed fields whose change the kept games cannot
    express (:func:`simkit.rescore.rescore_refusal` of the file at its grid's ends)."""
    from simkit.rescore import rescore_refusal

    if not targets and minimize is None:
        raise SimkitError("give at least one --target METRIC=VALUE[:TOL] or --minimize METRIC")
    if not frees:
        raise SimkitError("give at least one --free KEY=LO:HI[:STEP]")
    keys = [f.key for f in frees]
    if len(set(keys)) != len(keys):
        raise SimkitError(f"a field is freed twice: {', '.join(keys)}")
    if minimize is not None:
        check_metric(minimize, base, n_players)
    with tempfile.TemporaryDirectory(prefix="simkit-design-check-") as tmp:
        for end in ("lo", "hi"):
            cand = write_candidate(
                base, f"check-{end}", {f: getattr(f, end) for f in frees}, Path(tmp)
            )
            reason = rescore_refusal(base, cand, n_players)
            if reason is not None:
                raise SimkitError(
                    f"the freed fields change what kept games cannot express: {reason}"
                )


def _say(line: str) -> None:
    import sys

    print(line, file=sys.stderr, flush=True)


def design(
    variant: str | Path | Variant,
    frees: Sequence[str],
    targets: Sequence[str],
    *,
    minimize: str | None = None,
    n_players: int = 4,
    games: int = 20_000,
    seed: int = 0,
    out: str | Path,
    name: str | None = None,
    verify: int = VERIFY,
    verify_games: int | None = None,
    n_jobs: int = -1,
    progress: Callable[[str], None] | None = _say,
    command: str = "",
    strategy: str | None = None,
    rounds: int = ROUNDS,
    regret_hands: int = 0,
    regret_rollouts: tuple[int, int] = REGRET_ROLLOUTS,
) -> Design:
    """Design ``variant``'s free fields to the targets (module docstring) and write
    ``out/<name>.toml``, ``out/par.md`` (with the par tables and figures of its fresh run)
    and ``out/design.md``.

    ``frees``: ``KEY=LO:HI[:STEP]`` specs (:func:`parse_free`); ``targets``:
    ``METRIC=VALUE[:TOL]`` or constraint names (:func:`parse_target`); both checked before
    any work (:class:`~simkit.errors.SimkitError`).  ``games``: the kept games searched on
    (seed ``seed``); ``verify_games`` (default ``games``): each fresh verification's, on seed
    ``seed + 1``.  ``command``: how it was asked for, quoted in ``design.md``.
    ``strategy``: how hands are set in both simulations (None: the default,
    :data:`~simkit.arrange.DEFAULT_STRATEGY`).  ``rounds``: rounds of search and
    verification at most (:data:`ROUNDS`; module docstring).  ``regret_hands`` (0: none):
    the strategy's regret under the chosen table is measured by rollouts on that many hands
    per seat role (:func:`design_regret`) and reported in ``design.md``.  Same arguments → the
    same design."""
    import simkit.tables_cache  # noqa: F401  (registers the builder of missing tables)
    from simkit.arrange import DEFAULT_STRATEGY

    say = progress or (lambda line: None)
    base = resolve_variant(variant)
    free_list = [parse_free(f, base) for f in frees]
    target_list = [parse_target(t, base, n_players) for t in targets]
    check_request(base, n_players, free_list, target_list, minimize)
    if verify < 1 or rounds < 1:
        raise SimkitError(f"verify and rounds must be at least 1, got {verify} and {rounds}")
    if regret_hands < 0 or (regret_hands and n_players > 4):
        raise SimkitError(
            f"regret_hands must be 0 or more, and regret is measured at 2-4 players; got "
            f"{regret_hands} at {n_players} players"
        )
    name = name or f"{base.name}-design"
    with tempfile.TemporaryDirectory(prefix="simkit-design-") as tmp:
        result = _design(
            base, free_list, target_list, minimize, n_players, games, seed, Path(out), name,
            verify, verify_games or games, n_jobs, Path(tmp), say, command,
            strategy or DEFAULT_STRATEGY, rounds,
        )  # fmt: skip
    if regret_hands:
        say(f"simkit design: the regret of the play under {name} ({regret_hands} hands a seat)")
        result.regret = design_regret(
            result, regret_hands, regret_rollouts, strategy or DEFAULT_STRATEGY
        )
        (Path(out) / "design.md").write_text(design_markdown(result, name), encoding="utf-8")
    return result


def design_regret(d: Design, hands: int, rollouts: tuple[int, int], strategy: str) -> list[Any]:
    """``strategy``'s regret (:func:`simkit.regret.regret`) under ``d``'s chosen table, its
    tables built for its rules: one :class:`~simkit.regret.RegretResult` per seat role
    (the banker and a player in a banker variant, else a seat), on ``hands`` hands of
    ``rollouts`` (selection, evaluation), seed ``d.seed``."""
    from simkit.regret import regret

    seats = ["banker", "player"] if has_banker(d.base) else ["player"]
    return [
        regret(
            strategy,
            d.chosen.variant,
            d.n_players,
            seat=seat,
            hands=hands,
            rollouts=rollouts,
            seed=d.seed,
        )
        for seat in seats
    ]


def _design(
    base: Variant, free_list: list[Free], target_list: list[Target], minimize: str | None,
    n_players: int, games: int, seed: int, folder: Path, name: str, verify: int,
    verify_games: int, n_jobs: int, work: Path, say: Callable[[str], None], command: str,
    strategy: str, rounds: int,
) -> Design:  # fmt: skip
    """:func:`design` after its checks, its kept games and candidates in ``work``: up to
    ``rounds`` rounds of a search on kept games and a verification of its best candidates,
    each round after the first searching the kept games of the previous round's closest
    verified candidate (play re-derived near it) from its values."""
    from simkit.kept import KEPT_DIR
    from simkit.simulate import simulate

    wanted = _wanted(target_list, minimize)
    say(f"simkit design: simulating {games:,} games of {base.name} (kept) to search on")
    simulate(base, games, n_players, strategy, seed=seed, n_jobs=n_jobs,
             progress=False, keep_games=work / "base" / KEPT_DIR)  # fmt: skip
    kept = open_run(work / "base")
    by_key = {f.key: f for f in free_list}
    counter = itertools.count()
    path: list[Step] = []
    verified: list[Verified] = []
    start: dict[str, float] | None = None
    for r in range(rounds):

        def evaluate(values: dict[str, float], kept: Kept = kept) -> Step:
            cand = write_candidate(
                base, f"{name}-c{next(counter)}", {by_key[k]: v for k, v in values.items()},
                work / "candidates",
            )  # fmt: skip
            m = metrics(kept, cand, wanted)
            return Step(values, m, loss(target_list, m, minimize))

        found = search(free_list, evaluate, start)
        for step in found:
            step.phase = f"{r + 1}: {step.phase} (on {kept.variant.name})"
        path += found
        say(f"simkit design: round {r + 1}, searched {len(found)} candidates on kept games")
        done = [v.values for v in verified]
        ranked = [s for s in sorted(found, key=lambda s: s.loss) if s.values not in done]
        new = _verify(
            base, name, free_list, target_list, minimize, ranked[:verify], work, n_players,
            verify_games, seed + 1, n_jobs, say, strategy, len(verified),
        )  # fmt: skip
        verified += new
        if any(v.meets for v in new) or not new:
            break
        closest = min(new, key=lambda v: v.loss)
        kept, start = open_run(closest.run), dict(closest.values)
    meeting = [v for v in verified if v.meets]
    chosen = meeting[0] if meeting else min(verified, key=lambda v: v.loss)
    result = Design(
        base, n_players, free_list, target_list, minimize, games, seed, path, verified, chosen,
        bool(meeting), command,
    )  # fmt: skip
    write_design(result, folder, name)
    return result


def _verify(
    base: Variant, name: str, frees: Sequence[Free], targets: Sequence[Target],
    minimize: str | None, steps: Sequence[Step], work: Path, n_players: int,
    games: int, seed: int, n_jobs: int, say: Callable[[str], None], strategy: str, first: int,
) -> list[Verified]:  # fmt: skip
    """Simulate each of ``steps``' candidates afresh with the strategy re-derived (its tables
    built for its rules, in this process before the workers start) and measure it on its own
    kept games; stops at the first that meets every target.  ``first``: the number of the
    first (``v<first>``)."""
    from simkit.arrange.wintables import default_fine_tables
    from simkit.kept import KEPT_DIR
    from simkit.simulate import simulate

    wanted = _wanted(targets, minimize)
    by_key = {f.key: f for f in frees}
    out = []
    for i, step in enumerate(steps, start=first):
        cand = write_candidate(
            base, f"{name}-v{i}", {by_key[k]: v for k, v in step.values.items()},
            work / "verified",
        )  # fmt: skip
        say(f"simkit design: verifying {step.values} by {games:,} fresh games (seed {seed})")
        if strategy.startswith("expected-score"):
            default_fine_tables(cand, n_players)  # built once here, not in every worker
        run = work / f"verify-{i}"
        simulate(cand, games, n_players, strategy, seed=seed, n_jobs=n_jobs,
                 progress=False, keep_games=run / KEPT_DIR)  # fmt: skip
        fresh = metrics(open_run(run), cand, wanted)
        lo = loss(targets, fresh, minimize)
        meets = all(miss(t, fresh) == 0.0 for t in targets)
        out.append(Verified(cand, run, step.metrics, fresh, lo, meets, dict(step.values)))
        if meets:
            break
    return out


# --------------------------------------------------------------------------------------------
# Writing it


def _fmt(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.4g}"


def _metric_cells(m: Mapping[str, float], targets: Sequence[Target], minimize: str | None) -> str:
    cells = []
    for metric in [t.metric for t in targets] + ([minimize] if minimize else []):
        se = _se_of(metric, m) if metric not in CONSTRAINTS else m.get(f"{metric}.se", 0.0)
        cells.append(_fmt(m.get(metric)) + (f" ± {_fmt(se)}" if se else ""))
    return " | ".join(cells)


def design_markdown(d: Design, name: str) -> str:
    """``design.md``: the request, the answer (feasible or the closest table), the fixed-play
    against re-derived figures of each verified candidate and the search path."""
    metric_names = [str(t) for t in d.targets] + ([f"min {d.minimize}"] if d.minimize else [])
    head = " | ".join(metric_names)
    free_head = " | ".join(f.key for f in d.frees)
    c = d.chosen
    values = {f.key: v for f, v in zip(d.frees, _values_of(c.variant, d.frees), strict=True)}
    answer = (
        f"**Feasible.** `{name}.toml` meets every target on a fresh simulation with the "
        "strategy re-derived for its rules."
        if d.feasible
        else f"**Infeasible within the freed ranges.** No candidate met every target on its "
        f"fresh simulation; `{name}.toml` is the closest table found (loss {c.loss:.4g}: the "
        "sum of the targets' squared misses, each in its scale, `simkit.design.loss`)."
    )
    lines = [
        f"# Design: {name}",
        "",
        f"From `{d.base.name}` (`{d.base.key}`) at {d.n_players} players. Command:",
        "",
        f"```sh\n{d.command}\n```" if d.command else "",
        "",
        "Free fields: "
        + ", ".join(
            f"`{f.key}` {f.lo:g} to {f.hi:g} by {f.step:g} (file value {f.current:g}"
            f"{', whole' if f.whole else ''})"
            for f in d.frees
        )
        + ".",
        "Targets: "
        + (", ".join(f"`{t}`" for t in d.targets) or "none")
        + (f"; minimizing `{d.minimize}`" if d.minimize else "")
        + ".",
        "",
        answer,
        "",
        "Chosen values: " + ", ".join(f"`{k}` = {v:g}" for k, v in values.items()) + ".",
        "",
        "## Fixed play against re-derived play",
        "",
        f"The search scored {d.games:,} kept games of `{d.base.name}` (seed {d.seed}) under each "
        "candidate with the hands as the base's strategy set them (fixed play). Each verified "
        "candidate was then simulated afresh (seed "
        f"{d.seed + 1}) with the default strategy re-derived for its rules (win tables built "
        "for them, `simkit.tables_cache`). ± is the SE; a target `M=V:TOL` is met where "
        "|M - V| <= TOL, one without TOL where |M - V| <= 1.96 SE.",
        "",
        f"| candidate | {free_head} | play | {head} | loss | meets |",
        "|---|" + "---:|" * len(d.frees) + "---|" + "---:|" * len(metric_names) + "---:|---|",
    ]
    for i, v in enumerate(d.verified):
        vals = " | ".join(_fmt(x) for x in _values_of(v.variant, d.frees))
        fixed_loss = loss(d.targets, v.fixed, d.minimize)
        fixed_meets = all(miss(t, v.fixed) == 0.0 for t in d.targets)
        lines.append(
            f"| v{i} | {vals} | fixed | {_metric_cells(v.fixed, d.targets, d.minimize)} | "
            f"{fixed_loss:.4g} | {'yes' if fixed_meets else 'no'} |"
        )
        lines.append(
            f"| v{i} | {vals} | re-derived | {_metric_cells(v.fresh, d.targets, d.minimize)} | "
            f"{v.loss:.4g} | {'yes' if v.meets else 'no'} |"
        )
    lines += _regret_lines(d)
    lines += [
        "",
        f"## Search path ({len(d.path)} candidates on the kept games, best 15 by loss, then "
        "in search order up to 40)",
        "",
        f"| phase | {free_head} | {head} | loss |",
        "|---|" + "---:|" * len(d.frees) + "---:|" * len(metric_names) + "---:|",
    ]
    best = sorted(d.path, key=lambda s: s.loss)[:15]
    for s in best + [s for s in d.path[:40] if s not in best]:
        vals = " | ".join(_fmt(s.values[f.key]) for f in d.frees)
        lines.append(
            f"| {s.phase} | {vals} | {_metric_cells(s.metrics, d.targets, d.minimize)} | "
            f"{s.loss:.4g} |"
        )
    return "\n".join(lines) + "\n"


def _regret_lines(d: Design) -> list[str]:
    """The section of ``design.md`` on the play under the chosen table (none where its regret
    was not measured)."""
    if not d.regret:
        return []
    first = d.regret[0]
    lines = [
        "",
        "## The play under the designed table",
        "",
        f"`{first.strategy}`'s regret by rollouts under the written file, its tables built for "
        f"its rules: {first.hands:,} hands a seat, {first.rollouts[0]} selection + "
        f"{first.rollouts[1]} evaluation rollouts, seed {d.seed}.  The shipped variants' "
        "regret is 0.003 to 0.027 points a hand.",
        "",
        "| seat | regret (points a hand) | 95% CI | best setting differs |",
        "|---|---:|---|---:|",
    ]
    for r in d.regret:
        low, high = r.ci
        seat = r.seat if has_banker(d.base) else "any"
        lines.append(f"| {seat} | {r.mean:.4f} | {low:.4f} to {high:.4f} | {r.share_differs:.0%} |")
    return lines


def _values_of(v: Variant, frees: Sequence[Free]) -> list[float]:
    known = numeric_keys(v)
    return [known[f.key] for f in frees]


def write_design(d: Design, out: str | Path, name: str) -> list[Path]:
    """Write ``out/<name>.toml`` (the chosen candidate, extending the base and citing it and
    the targets), the par sheet of its fresh run (``par.md``, tables and figures,
    :func:`simkit.par.write_par`) and ``out/design.md``; returns the paths."""
    from simkit.par import par_sheet, write_par

    folder = Path(out)
    values = dict(zip(d.frees, _values_of(d.chosen.variant, d.frees), strict=True))
    verdict = "meets every target" if d.feasible else "is the closest found (targets infeasible)"
    notes = [
        f"Designed by simkit design from {d.base.name} ({d.base.key}) at {d.n_players} players.",
        "Targets: "
        + (", ".join(str(t) for t in d.targets) or "none")
        + (f"; minimizing {d.minimize}" if d.minimize else "")
        + f". It {verdict} on a fresh "
        "simulation with the strategy re-derived for these rules; design.md has the figures.",
    ]
    chosen = write_candidate(d.base, name, values, folder, notes)
    sheet = par_sheet(d.chosen.run, seed=d.seed)
    paths = write_par(sheet, folder)
    (folder / "design.md").write_text(design_markdown(d, name), encoding="utf-8")
    return [Path(chosen.path), *paths, folder / "design.md"]
