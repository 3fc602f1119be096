"""``rollout``: the default strategy's best splits of each hand, valued by rollouts under the
full rules.

A slower strategy for reference studies.  For each hand it takes the model strategy's own
choice (by default ``expected-score``, the default) and the ``top`` splits of the hand's Pareto
front that its value model rates highest (:func:`~simkit.arrange.split_values`, under the
search that sets the hand), scores every one on the same ``rollouts`` random deals of the other
cards to opponents who play ``opponents`` (by default the default strategy), under every rule
the scorer applies (:mod:`simkit.regret`'s protocol, the scoring of
:func:`simkit.regret.rollout_values`), and keeps the best (the model's choice on a tie).  Since
the model's choice is among the candidates, on those rollouts it never scores less.

Why the rollouts and not a cheaper sample: the default's regret sits in the order of near
candidates, and that order turns on the cards the hand holds.  Re-ranking the same candidates
on tables drawn from a population of self-play tables (the t-formula, scoops and home runs
exact, but the opponents' cards not conditioned on the hand) recovers nothing measurable in
guangxi, where the same number of rollouts recovers nearly all of the default's regret (the
re-ranking probe in ``docs/studies.md``).

The value it returns for a hand is the chosen split's rollout mean: the hand's expected score
played normally, under the full rules.  ``arrange(..., declare="auto")`` declares a special
when its payout from every opponent beats that value, so declaring is weighed against a
full-rules value, not against the model's value (the special's side is still its nominal
payout: specials stacked or met by other specials are not rolled out).

The rollouts are seeded from the ``rng`` given to :meth:`Rollout.choose_splits`, one child
seed per hand (:func:`hand_seeds`): the same seed makes the same choices.  Cost: about
``(top + 1) · rollouts`` games scored and ``(n_players - 1) · rollouts`` opponent hands set
per hand; one deck only (2-4 players).  Measure it with
``regret(Rollout(), ..., opponents="expected-score")``: ``regret``'s opponents default to the
strategy under test, and rollout opponents would nest rollouts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simkit.arrange import Solver, legal_splits, pareto_front, split_values
from simkit.arrange.strategies import (
    Choice,
    ExpectedScore,
    MaxEV,
    Strategy,
    register_strategy,
)
from simkit.deal import RngLike, as_generator, check_players
from simkit.errors import SimkitError
from simkit.regret import SEATS, banker_seat, points_on_rollouts, rollout_hands
from simkit.splits import split_positions
from simkit.variants import Variant

HAND = 13


def hand_seeds(rng: RngLike, n: int) -> list[np.random.SeedSequence]:
    """The rollout seed of each of ``n`` hands, drawn from ``rng`` (one draw for the batch):
    hand ``h``'s rollouts are those of ``rollout_values(..., seed=hand_seeds(rng, n)[h])``."""
    root = np.random.SeedSequence(int(as_generator(rng).integers(0, 2**63)))
    return root.spawn(n)


@register_strategy
@dataclass(frozen=True, eq=False)
class Rollout(Strategy):
    """The best of the model's choice and its ``top`` Pareto-front splits on ``rollouts`` deals.

    ``model``: the strategy (expected-score or max-ev) whose choice and value model make the
    candidates;
    ``opponents``: what the other seats play in the rollouts (anything
    :func:`~simkit.arrange.arrange` takes; a strategy that rolls out would nest rollouts);
    ``seat``: in a banker variant, whether the hand is the banker's or faces the banker
    (:func:`simkit.regret.rollout_values`); ``batch``: hands rolled out in one scorer call.
    """

    top: int = 8
    rollouts: int = 500
    opponents: Any = field(default_factory=ExpectedScore)
    model: MaxEV = field(default_factory=ExpectedScore)
    seat: str = "player"
    batch: int = 8
    name: str = field(default="rollout", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for what, value in (("top", self.top), ("rollouts", self.rollouts), ("batch", self.batch)):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
                raise SimkitError(f"Rollout: {what} must be an integer ≥ 1, got {value!r}")
        if self.seat not in SEATS:
            raise SimkitError(f"Rollout: seat must be one of {', '.join(SEATS)}, got {self.seat!r}")
        if isinstance(self.opponents, Rollout):
            raise SimkitError("Rollout: opponents that roll out would nest rollouts")

    def candidates(self, row: np.ndarray, own: np.ndarray, solver: Solver) -> np.ndarray:
        """Split ids ``int64 (c, 3)`` of one sorted hand ``row``: the model's choice ``own``
        first, then up to ``top`` of the Pareto front's other splits, best by the value model
        of ``solver`` (the one that sets the hand, ``self.model.hand_solver``) first."""
        ids, ranks = legal_splits(row, solver.variant, strict=solver.strict)
        front = pareto_front(ranks)
        ids, ranks = ids[front].astype(np.int64), ranks[front]
        values = split_values(ranks, solver)
        order = np.argsort(-values, kind="stable")
        others = [i for i in order if not np.array_equal(ids[i], own)][: self.top]
        return np.concatenate([own[None].astype(np.int64), ids[others]])

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        """The best of :meth:`candidates` for each hand of ``rows`` (``int8 (n, 13)``, each
        row sorted) by its mean points on ``rollouts`` deals of the other cards (the first
        best on a tie, so the model's choice wins ties): split ids ``int64 (n, 3)`` and those
        means ``float64 (n,)``.  ``rng`` draws one seed per hand (:func:`hand_seeds`).  Raises
        :class:`~simkit.errors.SimkitError` for a table size outside 2-4 or a variant not
        played with one plain 52-card deck there."""
        check_players(n_players)
        if n_players > 4:
            raise SimkitError(f"rollout deals one deck (2-4 players), got {n_players}")
        if not variant.deck_for(n_players).is_one_deck:
            raise SimkitError(
                f"rollout deals one plain deck of 52 cards; {variant.name} plays "
                f"{variant.deck_for(n_players).describe()}"
            )
        banker = banker_seat(variant, self.seat)
        n = rows.shape[0]
        own, _ = self.model.choose_splits(rows, variant, n_players=n_players)
        seeds = hand_seeds(rng, n)
        out = np.empty((n, 3), dtype=np.int64)
        values = np.empty(n, dtype=np.float64)
        for lo in range(0, n, self.batch):
            idx = range(lo, min(lo + self.batch, n))
            cand_ids = [
                self.candidates(
                    rows[h], own[h], self.model.hand_solver(rows[h], variant, n_players)
                )
                for h in idx
            ]
            settings = [
                (
                    rows[h][split_positions(c).astype(np.int64)].astype(np.int8),
                    np.full(len(c), -1, dtype=np.int8),
                )
                for h, c in zip(idx, cand_ids, strict=True)
            ]
            # the deals of rollout_values(rows[h], ..., seed=seeds[h]): the same rollouts
            opp = np.stack(
                [
                    rollout_hands(
                        rows[h].astype(np.int8), n_players, self.rollouts,
                        np.random.default_rng(seeds[h]),
                    )
                    for h in idx
                ]
            )  # fmt: skip
            points = points_on_rollouts(settings, opp, variant, self.opponents, n_players, banker)
            for h, c, p in zip(idx, cand_ids, points, strict=True):
                mean = p.mean(axis=1)
                pick = int(np.argmax(mean))  # the first best: the model's choice on a tie
                out[h] = c[pick]
                values[h] = mean[pick]
        return out, values

    def __repr__(self) -> str:
        return (
            f"Rollout(top={self.top}, rollouts={self.rollouts}, opponents={self.opponents!r}, "
            f"model={self.model!r}, seat={self.seat!r})"
        )
