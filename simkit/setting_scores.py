"""What settings of one hand score under the variant's full rules: seeded rollouts, cached.

The strategy's value of a split (:func:`simkit.arrange.split_values`) is a model: win tables
per dun, the duns priced as independent, the t-formula, the 马牌, the seat's role and the
others' specials left out or approximated, so it is not on the score's scale (under the
t-formula or a banker not even close).  A calibration of it (the monotone maps of
:mod:`simkit.phases.expected`) is not accurate per hand either, because hands of one value
score differently; how far each misses rollout means of single hands is in
``results/arrange/setting-scores.md`` (``experiments/studies/setting_scores_error.py``).  This
module measures the expected score directly, by the protocol of
:func:`simkit.regret.rollout_values`:

* the cards not in the hand are dealt at random to the opponents, who set them with
  :data:`OPPONENTS` (the default strategy, declaring as it declares); every setting is scored
  by :func:`simkit.score.score` on the *same* deals (common random numbers), with every rule
  the scorer applies in force (dun points and bonuses, majority, scoops, home runs, the
  t-formula, the 马牌, the banker's topology and the seat, declared specials);
* how many deals is fixed before they are drawn, so that the mean is unbiased (stopping once
  the running standard error is small would stop more often before the rare big scores of a
  skewed hand, and err low): a pilot of :data:`PILOT` deals of a stream of its own estimates
  each setting's standard deviation, and the deals are the whole chunks of :data:`CHUNK`
  (at least one, at most ``max_deals``) that bring every setting's standard error to
  ``target_se``; chunk ``k`` is ``SeedSequence(ENTROPY, spawn_key=(k,))``, so a longer run
  extends a shorter one, and no ``--seed`` stream meets these;
* the phases are *not* played: no passing or 换牌 before setting (the hand is scored as
  given, the others' cards are dealt at random), no 抢庄, 谈判 or 抛牌 around the comparison
  (their payments are not in the figure); :func:`phases_not_played` names those a variant has.

Results are cached on disk, one JSON file per question, under :func:`cache_dir`
(``$SIMKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/simkit``, else ``~/.cache/simkit``, then
``setting-scores/``).  The file's name is a SHA-256 of everything the figure depends on: the
hand, settings and declarations, the table size and seat, the whole variant (its rules as
loaded), the opponents' strategy with the win tables and payout parameters it searches with,
the protocol's sizes and stream, and every source, variant and table file of the package
(:func:`source_digest`); so a changed rule, a retrained table or an edited kernel asks a new
question, and stale files are never read (delete the folder to reclaim the space).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from simkit.errors import SimkitError
from simkit.files import atomic_write
from simkit.variants import Variant, resolve_variant

#: What the opponents play: the default strategy (``simkit.simulate.DEFAULT_STRATEGY``, a
#: test checks they agree; that module is a later stage than this one).
OPPONENTS = "expected-score-rerank"
#: Deals per chunk; the standard error is checked after each.
CHUNK = 4_000
#: Deal enough for every setting's standard error to be at most this (points per game)...
TARGET_SE = 0.05
#: ...but at most this many.
MAX_DEALS = 40_000
#: Deals of the pilot that sizes the run (not counted in the mean).
PILOT = 1_000
#: The rollout stream: chunk k draws ``SeedSequence(ENTROPY, spawn_key=(k,))``, the pilot
#: ``spawn_key=(PILOT_KEY,)``.
ENTROPY = 2_026_011_204
PILOT_KEY = 1_000_000
#: Bumped when the protocol changes in a way the source hash would not show.
CACHE_FORMAT = 1


@dataclass(frozen=True)
class SettingScores:
    """Expected points per game of each setting, and how they were measured.

    ``mean``, ``se``: float64 ``(c,)``, seat 0's mean points per game and its standard error;
    ``deals``: deals scored (the same for every setting); ``seconds``: time taken when
    measured (0 when read from the cache); ``cached``: read from the cache.
    """

    mean: np.ndarray
    se: np.ndarray
    deals: int
    seconds: float
    cached: bool
    opponents: str
    seat: str


def cache_dir() -> Path:
    """Where results are cached (see the module)."""
    root = os.environ.get("SIMKIT_CACHE_DIR")
    if root:
        return Path(root) / "setting-scores"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "simkit" / "setting-scores"


#: The package's files that make a figure: source, rule files, shipped tables.
DIGESTED = (".py", ".toml", ".npz", ".json", ".csv")


@lru_cache(maxsize=1)
def source_digest() -> str:
    """SHA-256 of simkit's source, variant files and shipped tables (any edit invalidates the
    cache; compiled caches beside them are not read)."""
    package = Path(__file__).parent
    h = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in DIGESTED and "__pycache__" not in path.parts and path.is_file():
            h.update(str(path.relative_to(package)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def strategy_digest(strategy: Any, variant: Variant, n_players: int) -> str:
    """What the opponents' strategy is: its repr, and for a searching strategy the win tables
    and payout parameters its solvers read at ``n_players`` (every removal bucket's)."""
    from simkit.arrange import as_strategy

    s = as_strategy(strategy)
    h = hashlib.sha256(repr(s).encode())
    solvers_of = getattr(s, "solvers", None)
    if callable(solvers_of):
        for solver in solvers_of(variant, n_players):
            for array in (solver.q, solver.model.params, solver.fav):
                h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()


def phases_not_played(variant: Variant) -> list[str]:
    """The variant's phases that the rollouts do not play (empty when it has none)."""
    out = []
    if variant.deal.passing.played:
        out.append("the pass before setting")
    if variant.deal.exchange.play:
        out.append("换牌 (the exchange)")
    phases = variant.phases
    for name, table in (
        ("抢庄 (bidding)", phases.bidding),
        ("谈判 (negotiation)", phases.negotiation),
        ("抛牌 (surrender)", phases.surrender),
    ):
        if table.enabled:
            out.append(name)
    return out


def expected_scores(
    hand: npt.ArrayLike,
    settings: npt.ArrayLike,
    variant: str | Variant | None = None,
    n_players: int = 4,
    *,
    seat: str = "player",
    declared: npt.ArrayLike | None = None,
    opponents: Any = OPPONENTS,
    target_se: float = TARGET_SE,
    max_deals: int = MAX_DEALS,
    cache: bool = True,
    progress: Callable[[int, float], None] | None = None,
) -> SettingScores:
    """Each setting's expected points per game under ``variant``'s full rules (see the module).

    ``hand``: 13 card ints (one deck, 2-4 players); ``settings``: its settings as arranged
    cards ``(c, 13)`` [front 3 | middle 5 | back 5]; ``declared``: ``(c,)`` the special each
    declares (-1 or None: plays it); ``seat``: ``"banker"`` or ``"player"`` (facing the
    banker) in a banker variant.  ``progress(deals, worst_se)`` is called after each chunk.
    ``deals`` of the result counts the deals averaged (the pilot's are not).
    The same arguments give the same figures, measured or cached.

    >>> from simkit.cards import parse_cards
    >>> from simkit.arrange import arrange
    >>> hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s")
    >>> mine, _ = arrange(hand, "western-2-4", n_players=2)
    >>> r = expected_scores(hand, mine[None], "western-2-4", 2, max_deals=4000, cache=False)
    >>> r.deals, bool(r.mean[0] > 0), bool(r.se[0] < 0.1)
    (4000, True, True)
    """
    from simkit.regret import rollout_values

    v = resolve_variant(variant)
    if not (isinstance(target_se, int | float) and target_se >= 0):
        raise SimkitError(f"target_se must be a number ≥ 0, got {target_se!r}")
    if isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 2:
        raise SimkitError(f"max_deals must be an integer ≥ 2, got {max_deals!r}")
    cards = np.sort(np.asarray(hand)).astype(np.int64)
    cand = np.asarray(settings).astype(np.int64)
    decl = (
        np.full(len(cand), -1, dtype=np.int64)
        if declared is None
        else np.asarray(declared).astype(np.int64)
    )
    name = getattr(opponents, "name", opponents)
    path = None
    if cache:
        key = {
            "format": CACHE_FORMAT,
            "source": source_digest(),
            "variant": hashlib.sha256(repr(v).encode()).hexdigest(),
            "opponents": strategy_digest(opponents, v, n_players),
            "players": n_players,
            "seat": seat,
            "hand": cards.tolist(),
            "settings": cand.tolist(),
            "declared": decl.tolist(),
            "target_se": float(target_se),
            "max_deals": max_deals,
            "chunk": CHUNK,
            "entropy": ENTROPY,
        }
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
        path = cache_dir() / f"{digest}.json"
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            return SettingScores(
                mean=np.array(stored["mean"]),
                se=np.array(stored["se"]),
                deals=int(stored["deals"]),
                seconds=0.0,
                cached=True,
                opponents=str(name),
                seat=seat,
            )
        except (OSError, ValueError, KeyError):
            pass
    start = time.perf_counter()

    def measure(size: int, seed: np.random.SeedSequence) -> tuple[np.ndarray, np.ndarray]:
        return rollout_values(
            cards, cand, v, n_players, rollouts=size, seed=seed, seat=seat,
            opponents=opponents, declared=decl,
        )  # fmt: skip

    _, pilot_se = measure(PILOT, np.random.SeedSequence(ENTROPY, spawn_key=(PILOT_KEY,)))
    sd = float(pilot_se.max()) * math.sqrt(PILOT)
    wanted = (sd / target_se) ** 2 if target_se > 0 else math.inf
    planned = int(min(max_deals, max(CHUNK, CHUNK * math.ceil(min(wanted, 1e12) / CHUNK))))
    total = np.zeros(len(cand))
    total_sq = np.zeros(len(cand))
    deals = 0
    k = 0
    while deals < planned:
        size = min(CHUNK, planned - deals)
        mean, se = measure(size, np.random.SeedSequence(ENTROPY, spawn_key=(k,)))
        # the chunk's sums back from its mean and standard error (ddof=1)
        total += size * mean
        total_sq += (size - 1) * size * se**2 + size * mean**2 if size > 1 else mean**2
        deals += size
        k += 1
        if progress is not None:
            progress(deals, float(_se(total, total_sq, deals).max()))
    result = SettingScores(
        mean=total / deals,
        se=_se(total, total_sq, deals),
        deals=deals,
        seconds=time.perf_counter() - start,
        cached=False,
        opponents=str(name),
        seat=seat,
    )
    if path is not None:
        _store(path, result)
    return result


def _se(total: np.ndarray, total_sq: np.ndarray, n: int) -> np.ndarray:
    if n < 2:
        return np.full(total.shape, math.inf)
    var = np.maximum(total_sq - total**2 / n, 0.0) / (n - 1)
    return np.sqrt(var / n)


def _store(path: Path, result: SettingScores) -> None:
    """Write the result to the cache; a cache that cannot be written is skipped."""
    text = json.dumps(
        {"mean": result.mean.tolist(), "se": result.se.tolist(), "deals": result.deals}
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    except OSError:
        pass
