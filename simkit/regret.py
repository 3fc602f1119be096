"""Regret of an arrangement strategy, measured by rollouts under a variant's full rules.

A strategy's quality is what it gives away against the best setting of the same 13 cards, with
every rule the scorer applies in force (dun points and bonuses, majority, scoops, home runs, the
t-formula, the horse card, banker topology, declared specials), not its agreement with its own
value model.  The protocol, for one seat's hand:

1. **Candidates**: every legal split on the hand's Pareto front (no other split at least as
   strong in all three duns: any objective that never falls when a dun gets stronger has its
   best there), the strategy's own choice, and declaring the hand's best special where it
   qualifies.
2. **Rollouts**: the other cards are dealt at random to the opponents, who set them with the
   opponent strategy (by default the strategy under test, declaring as it declares).  Every
   candidate is scored on the *same* rollouts (common random numbers), so their differences
   are sharp.
3. **Selection and evaluation are independent**: the best candidate is picked on the first
   ``rollouts[0]`` deals and valued, against the strategy's own choice, on the next
   ``rollouts[1]``.  The regret of the hand is the difference on the evaluation deals (0 when
   the strategy's choice is the one picked).  Selecting on separate deals keeps the estimate
   free of the winner's-curse bias, so it errs low: a pick spoilt by selection noise only
   understates the gap.

The result is the mean regret over hands with its standard error and 95% confidence interval,
the share of hands whose picked setting differs from the strategy's, and the time taken.

This is orchestration over vectorized kernels: each batch of hands makes one call to arrange the
opponents and one call to the scorer for every candidate on every rollout.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

import simkit.tables_cache  # noqa: F401  (registers the builder of missing win tables)
from simkit.arrange import DEFAULT_STRATEGY, arrange, arrangements, legal_splits, pareto_front
from simkit.cards import DECK_SIZE
from simkit.deal import as_generator, check_players, deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.score import score
from simkit.specials import best_special, detect_specials
from simkit.splits import split_positions
from simkit.variants import Variant, resolve_variant

HAND = 13
Z95 = 1.959963984540054
SEATS = ("banker", "player")


@dataclass(frozen=True)
class RegretResult:
    """What :func:`regret` measured: per-hand regrets and their summary.

    ``per_hand``: float64 ``(hands,)``, each hand's regret in points (evaluation deals);
    ``differs``: bool ``(hands,)``, whether the picked setting is not the strategy's own;
    ``candidates``: int ``(hands,)``, how many settings were compared.
    """

    variant: str
    n_players: int
    seat: str
    strategy: str
    rollouts: tuple[int, int]
    per_hand: np.ndarray = field(repr=False)
    differs: np.ndarray = field(repr=False)
    candidates: np.ndarray = field(repr=False)
    seconds: float

    @property
    def hands(self) -> int:
        """How many hands were measured (the length of ``per_hand``)."""
        return int(self.per_hand.shape[0])

    @property
    def mean(self) -> float:
        """The mean regret a hand, in points; NaN with no hands."""
        return float(self.per_hand.mean()) if self.hands else math.nan

    @property
    def se(self) -> float:
        """The standard error of :attr:`mean` (hands are independent); NaN under 2 hands."""
        if self.hands < 2:
            return math.nan
        return float(self.per_hand.std(ddof=1) / math.sqrt(self.hands))

    @property
    def ci(self) -> tuple[float, float]:
        """The normal 95% confidence interval of :attr:`mean`: ``(low, high)``."""
        return (self.mean - Z95 * self.se, self.mean + Z95 * self.se)

    @property
    def share_differs(self) -> float:
        """The share of hands whose picked setting is not the strategy's own; NaN with no
        hands."""
        return float(self.differs.mean()) if self.hands else math.nan

    def row(self) -> dict[str, Any]:
        """One flat record (for a table): the summary figures and the protocol's sizes."""
        lo, hi = self.ci
        return {
            "variant": self.variant,
            "players": self.n_players,
            "seat": self.seat,
            "strategy": self.strategy,
            "hands": self.hands,
            "selection_rollouts": self.rollouts[0],
            "evaluation_rollouts": self.rollouts[1],
            "regret": self.mean,
            "se": self.se,
            "ci_low": lo,
            "ci_high": hi,
            "share_differs": self.share_differs,
            "mean_candidates": float(self.candidates.mean()) if self.hands else math.nan,
            "hands_per_s": self.hands / self.seconds if self.seconds > 0 else math.nan,
        }

    def __str__(self) -> str:
        lo, hi = self.ci
        return (
            f"{self.strategy} on {self.variant}, {self.n_players} players, {self.seat} seat: "
            f"regret {self.mean:.4f} points per hand (95% CI {lo:.4f} to {hi:.4f}; "
            f"{self.hands} hands, {self.rollouts[0]} + {self.rollouts[1]} rollouts; best "
            f"setting differs on {self.share_differs:.0%} of hands)"
        )


def _strategy_name(strategy: Any) -> str:
    if isinstance(strategy, str):
        return strategy
    name = getattr(strategy, "name", None)
    if isinstance(name, str):
        return name
    return getattr(strategy, "__name__", type(strategy).__name__)


def front_candidates(hand: np.ndarray, variant: Variant) -> np.ndarray:
    """The Pareto front of a hand's legal splits, as arranged cards ``int8 (n, 13)``."""
    ids, ranks = legal_splits(hand, variant)
    front = ids[pareto_front(ranks)]
    return hand[split_positions(front).astype(np.int64)].astype(np.int8)


def rollout_hands(
    hand: np.ndarray, n_players: int, n_rollouts: int, gen: np.random.Generator
) -> np.ndarray:
    """Random deals of the cards not in ``hand`` to the opponents: ``int8 (R, p - 1, 13)``."""
    present = np.zeros(DECK_SIZE, dtype=bool)
    present[hand] = True
    rest = np.flatnonzero(~present).astype(np.int8)
    need = (n_players - 1) * HAND
    order = np.argsort(gen.random((n_rollouts, rest.size)), axis=1)[:, :need]
    dealt = rest[order].reshape(n_rollouts, n_players - 1, HAND)
    return np.sort(dealt, axis=2)


def banker_seat(v: Variant, seat: str) -> int:
    """The banker's seat in games whose measured hand sits at seat 0: seat 0 itself for the
    banker (or where nobody banks), else seat 1, so that seat 0 faces the banker."""
    if seat not in SEATS:
        raise SimkitError(f"seat must be one of {', '.join(SEATS)}, got {seat!r}")
    return 0 if (seat == "banker" or v.scoring.topology != "banker") else 1


def points_on_rollouts(
    settings: Sequence[tuple[np.ndarray, np.ndarray]],
    opponent_hands: np.ndarray,
    v: Variant,
    opponents: Any,
    n_players: int,
    banker: int,
) -> list[np.ndarray]:
    """Seat 0's points for every candidate setting of each hand on each of its rollouts.

    ``settings``: per hand, its candidates as arranged cards ``int8 (c, 13)`` and the special
    each declares ``(c,)`` (-1 for none); ``opponent_hands``: the other seats' cards of each
    hand's rollouts, ``int8 (b, R, p - 1, 13)``, set here by ``opponents``.  Every candidate
    of a hand meets the same opponents (common random numbers).  One call arranges every
    opponent and one call scores every game.  Returns, per hand, float64 ``(c, R)``.
    """
    b, n_roll = opponent_hands.shape[0], opponent_hands.shape[1]
    (opp,) = arrangements(
        [opponent_hands.reshape(-1, HAND)], [v], opponents, n_players=n_players, rng=0
    )
    # The opponents' dun ranks come with their arrangement and each candidate is ranked
    # once here, so the scorer ranks nothing again (the candidates × rollouts games).
    opp_cards = opp.cards.reshape(b, n_roll, n_players - 1, HAND)
    opp_decl = opp.declared.reshape(b, n_roll, n_players - 1)
    opp_ranks = opp.ranks.reshape(b, n_roll, n_players - 1, 3)
    games, decls, ranks, sizes = [], [], [], []
    for k, (cand, cand_decl) in enumerate(settings):
        c = len(cand)
        g = np.empty((c, n_roll, n_players, HAND), dtype=np.int8)
        g[:, :, 0] = cand[:, None]
        g[:, :, 1:] = opp_cards[k][None]
        d = np.empty((c, n_roll, n_players), dtype=np.int8)
        d[:, :, 0] = np.asarray(cand_decl)[:, None]
        d[:, :, 1:] = opp_decl[k][None]
        r = np.empty((c, n_roll, n_players, 3), dtype=np.int32)
        r[:, :, 0] = dun_ranks(cand, v)[:, None]
        r[:, :, 1:] = opp_ranks[k][None]
        games.append(g.reshape(-1, n_players, HAND))
        decls.append(d.reshape(-1, n_players))
        ranks.append(r.reshape(-1, n_players, 3))
        sizes.append(c)
    points = score(
        np.concatenate(games),
        v,
        declared=np.concatenate(decls),
        ranks=np.concatenate(ranks),
        banker=banker,
    )[:, 0]
    out, offset = [], 0
    for c in sizes:
        out.append(points[offset : offset + c * n_roll].reshape(c, n_roll))
        offset += c * n_roll
    return out


def _checked_run(
    v: Variant,
    n_players: int,
    seat: str,
    hands: int | np.ndarray,
    batch: int,
    rollouts: tuple[int, int],
) -> tuple[np.ndarray | None, int, int, int]:
    """:func:`regret`'s arguments checked before any work: ``(given, n_hands, r_sel,
    r_eval)``, ``given`` the hands passed (None where a count is).  Raises
    :class:`~simkit.errors.SimkitError` naming the first bad one."""
    check_players(n_players)
    if n_players > 4:
        raise SimkitError(f"regret is measured with one deck (2-4 players), got {n_players}")
    banker_seat(v, seat)  # checks the seat
    given = None if isinstance(hands, int | np.integer) else np.asarray(hands)
    if given is not None:
        if given.ndim != 2 or given.shape[1] != HAND or given.shape[0] < 1:
            raise SimkitError(
                f"hands must be a count or card ints of shape (n, 13), got {given.shape}"
            )
        if (
            given.min() < 0
            or given.max() >= DECK_SIZE
            or any(np.unique(row).size != HAND for row in given)
        ):
            raise SimkitError("hands must hold 13 different cards (0..51) each")
    n_hands: Any = given.shape[0] if given is not None else hands
    for what, value, least in (("hands", n_hands, 1), ("batch", batch, 1)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < least:
            raise SimkitError(f"{what} must be an integer ≥ {least}, got {value!r}")
    if (
        not isinstance(rollouts, tuple | list)
        or len(rollouts) != 2
        or any(isinstance(r, bool) or not isinstance(r, int) or r < 1 for r in rollouts)
    ):
        raise SimkitError(
            f"rollouts must be two integers ≥ 1 (selection, evaluation), got {rollouts!r}"
        )
    return given, int(n_hands), int(rollouts[0]), int(rollouts[1])


def _hand_settings(
    hand: np.ndarray, own: np.ndarray, own_decl: int, best: int, v: Variant
) -> tuple[np.ndarray, np.ndarray]:
    """The settings one hand is measured over: arranged cards ``int8 (c, 13)`` and the
    special each declares ``(c,)``: the strategy's own choice first (declaring if it
    declares), then the Pareto front's splits, then its own split declaring its best special
    where it qualifies and does not declare."""
    cand = np.concatenate([own[None], front_candidates(hand, v)])
    cand_decl = np.concatenate([[own_decl], np.full(len(cand) - 1, -1)])
    if best >= 0 and own_decl < 0:
        cand = np.concatenate([cand, own[None]])
        cand_decl = np.concatenate([cand_decl, [best]])
    return cand, cand_decl


def regret(
    strategy: Any = DEFAULT_STRATEGY,
    variant: str | Variant | None = None,
    n_players: int = 4,
    *,
    seat: str = "player",
    hands: int | np.ndarray = 200,
    rollouts: tuple[int, int] = (300, 300),
    seed: int | np.random.SeedSequence | None = 0,
    opponents: Any = None,
    batch: int = 8,
    progress: Callable[[int, int], None] | None = None,
    part: tuple[int, int] | None = None,
) -> RegretResult:
    """Measure ``strategy``'s regret per hand by the protocol of this module.

    ``strategy`` and ``opponents`` are anything :func:`simkit.arrange.arrange` takes as a
    strategy (``opponents`` defaults to ``strategy``).  ``seat``: ``"banker"`` or ``"player"``;
    in a banker variant the measured seat is the banker or faces the banker, elsewhere the two
    are the same game.  ``hands``: how many dealt hands are measured, or the hands themselves
    (card ints ``(n, 13)``, one deck); ``rollouts``: (selection,
    evaluation) deals of the other cards per hand.  The same ``seed`` gives the same figures.
    ``part``: ``(k, n_parts)`` measures only the ``k``-th of ``n_parts`` contiguous runs of the
    hands, with the deals and rollouts the whole run gives them, so that a long measurement can
    be shared among processes or machines: the parts' ``per_hand`` arrays, concatenated in
    order (:func:`merge_parts`), are the whole run's for a strategy that draws nothing (one that
    draws, like ``rollout``, is seeded per call, so its choices depend on the parts).
    Hands are dealt as the deal deals them (a variant that passes cards before setting is
    measured on the hands as they are set, with the opponents' cards dealt at random).

    >>> r = regret("max-ev", "western-2-4", 2, hands=2, rollouts=(20, 20), seed=1)
    >>> r.hands, r.rollouts
    (2, (20, 20))
    """
    v = resolve_variant(variant)
    given, n_hands, r_sel, r_eval = _checked_run(v, n_players, seat, hands, batch, rollouts)
    first, last = _part_range(part, n_hands)
    n_roll = r_sel + r_eval
    opponents = strategy if opponents is None else opponents
    banker_topology = v.scoring.topology == "banker"
    banker = banker_seat(v, seat)
    specials = len(v.specials.rules) > 0

    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    deal_seed, roll_seed = root.spawn(2)
    if given is None:
        dealt = deal(int(n_hands), n_players, rng=as_generator(deal_seed))[:, 0]
    else:
        dealt = np.sort(given, axis=1).astype(np.int8)
    roll_seeds = roll_seed.spawn(n_hands)[first:last]
    dealt = dealt[first:last]
    n_hands = last - first
    own_cards, own_decl = arrange(dealt, v, strategy, n_players=n_players, rng=0)
    best_spec = best_special(detect_specials(dealt, v)) if specials else np.full(n_hands, -1)

    per_hand = np.zeros(n_hands)
    differs = np.zeros(n_hands, dtype=bool)
    n_cand = np.zeros(n_hands, dtype=np.int64)
    start = time.perf_counter()
    for lo in range(0, n_hands, batch):
        idx = range(lo, min(lo + batch, n_hands))
        opp = np.stack(
            [
                rollout_hands(dealt[h], n_players, n_roll, np.random.default_rng(roll_seeds[h]))
                for h in idx
            ]
        )  # (b, R, p-1, 13)
        settings = [
            _hand_settings(dealt[h], own_cards[h], int(own_decl[h]), int(best_spec[h]), v)
            for h in idx
        ]
        for h, values in zip(
            idx, points_on_rollouts(settings, opp, v, opponents, n_players, banker), strict=True
        ):
            pick = int(np.argmax(values[:, :r_sel].mean(axis=1)))
            evaluation = values[:, r_sel:].mean(axis=1)
            per_hand[h] = evaluation[pick] - evaluation[0]
            differs[h] = pick != 0
            n_cand[h] = len(values)
        if progress is not None:
            progress(min(lo + batch, n_hands), n_hands)
    seconds = time.perf_counter() - start
    return RegretResult(
        variant=v.name,
        n_players=n_players,
        seat=seat if banker_topology else "any",
        strategy=_strategy_name(strategy),
        rollouts=(r_sel, r_eval),
        per_hand=per_hand,
        differs=differs,
        candidates=n_cand,
        seconds=seconds,
    )


def _part_range(part: tuple[int, int] | None, n_hands: int) -> tuple[int, int]:
    """The hands ``[first, last)`` that ``part = (k, n_parts)`` of ``n_hands`` measures."""
    if part is None:
        return 0, n_hands
    if (
        not isinstance(part, tuple | list)
        or len(part) != 2
        or any(isinstance(x, bool) or not isinstance(x, int | np.integer) for x in part)
        or not 1 <= int(part[1]) <= n_hands
        or not 0 <= int(part[0]) < int(part[1])
    ):
        raise SimkitError(
            f"part must be (k, n_parts) with 1 ≤ n_parts ≤ hands ({n_hands}) and "
            f"0 ≤ k < n_parts, got {part!r}"
        )
    k, n_parts = int(part[0]), int(part[1])
    return k * n_hands // n_parts, (k + 1) * n_hands // n_parts


def merge_parts(parts: Sequence[RegretResult]) -> RegretResult:
    """One result from the parts of a run (:func:`regret`'s ``part``), in order: their hands
    concatenated, their times added.  The parts must share variant, players, seat, strategy
    and rollouts."""
    if not parts:
        raise SimkitError("merge_parts needs at least one part")
    head = parts[0]
    same = ("variant", "n_players", "seat", "strategy", "rollouts")
    for other in parts[1:]:
        differs = [f for f in same if getattr(other, f) != getattr(head, f)]
        if differs:
            raise SimkitError(f"parts of different runs: they differ in {', '.join(differs)}")
    return replace(
        head,
        per_hand=np.concatenate([p.per_hand for p in parts]),
        differs=np.concatenate([p.differs for p in parts]),
        candidates=np.concatenate([p.candidates for p in parts]),
        seconds=float(sum(p.seconds for p in parts)),
    )


def rollout_values(
    hand: npt.ArrayLike,
    candidates: npt.ArrayLike,
    variant: str | Variant | None = None,
    n_players: int = 4,
    *,
    rollouts: int = 1000,
    seed: int | np.random.SeedSequence | None = 0,
    seat: str = "player",
    opponents: Any = DEFAULT_STRATEGY,
    declared: npt.ArrayLike | None = None,
    chunk: int = 2000,
) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate setting's expected score under the variant's full rules, by rollouts.

    The cards not in ``hand`` are dealt ``rollouts`` times at random to the ``n_players - 1``
    opponents, who set them with ``opponents`` (a strategy as :func:`simkit.arrange.arrange`
    takes it, declaring as it declares); every candidate is scored by :func:`simkit.score.score`
    on the *same* deals (common random numbers: the candidates' differences are sharper than
    their own standard errors).  ``hand``: 13 card ints (one deck, 2-4 players);
    ``candidates``: its settings, arranged cards ``(c, 13)`` [front 3 | middle 5 | back 5];
    ``declared``: ``(c,)``, the index into ``variant.specials.rules`` of the special each
    candidate declares (-1 or None: plays it); ``seat``: ``"banker"`` or ``"player"`` (a player
    facing the banker) in a banker variant.  ``chunk`` bounds the rollouts scored at once (the
    figures do not depend on it, unless the opponents play at random).  The same ``seed``
    gives the same figures.

    Returns ``(mean, se)``, float64 ``(c,)``: the mean points per game and its standard error.

    >>> from simkit.cards import parse_cards
    >>> from simkit.arrange import arrange
    >>> hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s")
    >>> mine, _ = arrange(hand, "western-2-4", n_players=2)
    >>> mean, se = rollout_values(hand, mine[None], "western-2-4", 2, rollouts=200)
    >>> bool(mean[0] > 0), se.shape
    (True, (1,))
    """
    v = resolve_variant(variant)
    check_players(n_players)
    if n_players > 4:
        raise SimkitError(f"rollouts deal one deck (2-4 players), got {n_players}")
    banker = banker_seat(v, seat)
    for what, value in (("rollouts", rollouts), ("chunk", chunk)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise SimkitError(f"{what} must be an integer ≥ 1, got {value!r}")
    cards = np.asarray(hand)
    if (
        cards.shape != (HAND,)
        or not np.issubdtype(cards.dtype, np.integer)
        or cards.min() < 0
        or cards.max() >= DECK_SIZE
        or np.unique(cards).size != HAND
    ):
        raise SimkitError("hand must be 13 different card ints (0..51)")
    cards = np.sort(cards).astype(np.int8)
    cand = np.asarray(candidates)
    if cand.ndim != 2 or cand.shape[1] != HAND or cand.shape[0] < 1:
        raise SimkitError(f"candidates must be settings of shape (c, 13), got {cand.shape}")
    if not np.issubdtype(cand.dtype, np.integer) or (np.sort(cand, axis=1) != cards).any():
        raise SimkitError("every candidate must set the 13 cards of the hand")
    cand = cand.astype(np.int8)
    if declared is None:
        decl = np.full(len(cand), -1, dtype=np.int8)
    else:
        decl = np.asarray(declared)
        if decl.shape != (len(cand),) or not np.issubdtype(decl.dtype, np.integer):
            raise SimkitError(f"declared must be {len(cand)} special indices, got {decl!r}")
        mask = int(detect_specials(cards, v))
        bad = [int(d) for d in decl if d >= 0 and not (d < 32 and mask >> int(d) & 1)]
        if bad or (decl < -1).any():
            raise SimkitError(f"declared names a special the hand does not qualify for: {bad}")
        decl = decl.astype(np.int8)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    opp = rollout_hands(cards, n_players, int(rollouts), np.random.default_rng(root))
    points = np.concatenate(
        [
            points_on_rollouts(
                [(cand, decl)], opp[lo : lo + chunk][None], v, opponents, n_players, banker
            )[0]
            for lo in range(0, int(rollouts), int(chunk))
        ],
        axis=1,
    )
    se = (
        points.std(axis=1, ddof=1) / math.sqrt(rollouts)
        if rollouts > 1
        else np.full(len(cand), math.nan)
    )
    return points.mean(axis=1), se


# The former private spellings, kept for the scripts in experiments/ until they use the names
# above (deprecated).
_candidates = front_candidates
_rollout_hands = rollout_hands
_banker_seat = banker_seat
_points_on_rollouts = points_on_rollouts
