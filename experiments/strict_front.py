"""What 001's strict front read as ``front_middle = "<top-three"`` changes under max-ev.

    .venv/bin/python experiments/strict_front.py [--games N] [--seed S] [--variant V] [--players P]

Deals ``N`` games of ``P`` players, sets every hand with max-ev under the variant as shipped
(today's ``front_middle``) and under the same variant with ``"<top-three"`` (the variant's own
win tables), and prints, per hand: how often today's choice fouls under the reading, how often
the chosen split changes, the expected score the reading costs the strategy (its own model),
and per game the banker's (seat 0) score change when every hand is set and scored under the
reading.  Standard errors are over games (the hands of one deal are not independent).
"""

from __future__ import annotations

import argparse
import dataclasses

import numpy as np

from simkit.arrange import arrangements, legal_splits
from simkit.deal import deal
from simkit.score import fouled, score
from simkit.variants import load_variant


def mean_se(per_game: np.ndarray) -> tuple[float, float]:
    return float(per_game.mean()), float(per_game.std(ddof=1) / np.sqrt(len(per_game)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variant", default="hongkong")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    today = load_variant(args.variant)
    foul = dataclasses.replace(today.scoring.foul, front_middle="<top-three")
    strict = dataclasses.replace(today, scoring=dataclasses.replace(today.scoring, foul=foul))
    hands = deal(args.games, args.players, rng=args.seed)
    a, b = arrangements([hands, hands], [today, strict], n_players=args.players)
    assert not fouled(b.cards, strict).any()
    p = args.players
    fouls = fouled(a.cards, strict)  # (games, players)
    changed = (a.split_ids != b.split_ids).any(axis=-1)
    lost = a.value - b.value
    n_hands = args.games * p
    print(
        f"{args.variant}, {p} players, {args.games:,} deals = {n_hands:,} hands, seed {args.seed}"
    )
    for name, per_hand, count in (
        ("today's choice fouls under <top-three", fouls, True),
        ("the chosen split changes", changed, True),
        ("expected score lost (the model's)", lost, False),
    ):
        m, se = mean_se(per_hand.mean(axis=1))
        k = int(per_hand.sum())
        counted = ""
        if count:  # none seen: the 95% upper bound is about 3/n (the rule of three)
            counted = f"  [{k} hands]" if k else f"  [0 hands; 95% upper bound {3 / n_hands:.1e}]"
        print(f"  per hand: {name:38s} {m:.6f} ± {se:.6f} (SE){counted}")
    # legal splits the reading removes, on the first hands (plain Python per hand: slow)
    n_legal = np.array(
        [
            [len(legal_splits(h, v)[0]) for v in (today, strict)]
            for h in hands.reshape(-1, 13)[:2_000]
        ]
    )
    share = 1.0 - n_legal[:, 1] / n_legal[:, 0]
    print(
        f"  per hand (first 2,000): legal splits removed       {share.mean():.6f} ± "
        f"{share.std(ddof=1) / np.sqrt(len(share)):.6f} (SE); hands losing any: "
        f"{(share > 0).mean():.4f}"
    )
    s_today = score(a.cards, today, declared=a.declared, banker=0)
    s_strict = score(b.cards, strict, declared=b.declared, banker=0)
    m, se = mean_se(s_strict[:, 0] - s_today[:, 0])
    print(f"  per game: banker's score change (seat 0)               {m:+.5f} ± {se:.5f} (SE)")


if __name__ == "__main__":
    main()
