"""What naming a joker with the setting changes (issue 52.2), on hands of a joker deck.

    python -m experiments.studies.joker_naming [--variant guangxi-jokers] [--hands 20000]
        [--arranged 2000] [--strategy expected-score] [--seed 7]

Deals ``--hands`` hands (4 players a table) and prints, with standard errors:

- of a random setting of each hand holding a joker, the share fouled when every joker takes its
  dun's strongest value (the rule before) and when its holder names it (the rule now);
- of the first ``--arranged`` hands holding a joker, set by ``--strategy``, the share whose
  setting is legal only by naming a joker below its dun's strongest value (settings the rule
  before called fouled, so no strategy chose them).

The figures are in ``results/decks/joker-naming.md``.
"""

from __future__ import annotations

import argparse

import numpy as np

from simkit.arrange import arrange
from simkit.deal import deal
from simkit.evaluate import dun_ranks, orders_hold, rank3, rank5
from simkit.score import fouled
from simkit.variants import load_variant
from simkit.variants.compiled import MIN_PLAYERS, compile_rules


def _strongest(rows: np.ndarray, variant) -> np.ndarray:
    """Each dun's strongest rank, as the rule before ranked a set hand."""
    return np.stack(
        [rank3(rows[:, :3], variant), rank5(rows[:, 3:8], variant), rank5(rows[:, 8:], variant)],
        axis=1,
    )


def _share(mask: np.ndarray) -> str:
    p = float(mask.mean()) if mask.size else 0.0
    se = (p * (1 - p) / max(mask.size, 1)) ** 0.5
    return f"{p:.4f} (SE {se:.4f}, n {mask.size})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", default="guangxi-jokers", help="a variant with jokers")
    parser.add_argument("--hands", type=int, default=20_000, help="hands dealt")
    parser.add_argument("--arranged", type=int, default=2_000, help="joker hands set")
    parser.add_argument("--strategy", default="expected-score", help="how hands are set")
    parser.add_argument("--seed", type=int, default=7, help="random seed")
    args = parser.parse_args(argv)
    variant = load_variant(args.variant)
    if variant.deck.jokers == 0:
        raise SystemExit(f"{args.variant} plays no jokers")
    if args.hands < 4 or args.arranged < 0:
        raise SystemExit("--hands ≥ 4, --arranged ≥ 0")
    order = compile_rules(variant, MIN_PLAYERS).foul_order
    rng = np.random.default_rng(args.seed)
    hands = deal(args.hands // 4, 4, rng=rng, deck=variant.deck).reshape(-1, 13)
    hands = hands[(hands >= 65).any(axis=1)]
    settings = rng.permuted(hands, axis=1).astype(np.int8)
    before = ~orders_hold(_strongest(settings, variant), order)
    now = fouled(settings, variant)
    print(f"{variant.name}: hands holding a joker {hands.shape[0]} of {args.hands // 4 * 4}")
    print(f"random settings fouled, strongest values (before): {_share(before)}")
    print(f"random settings fouled, named by the holder (now): {_share(now)}")
    chosen = np.sort(hands[: args.arranged], axis=1)
    arranged, _ = arrange(chosen, variant, args.strategy, rng=args.seed, declare="never")
    named_only = ~orders_hold(_strongest(arranged, variant), order)
    assert not fouled(arranged, variant).any()
    # a legal setting's named ranks differ from its strongest exactly where those foul
    lowered = (dun_ranks(arranged, variant) != _strongest(arranged, variant)).any(axis=1)
    assert (lowered == named_only).all()
    print(f"{args.strategy} settings legal only by naming a joker down: {_share(named_only)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
