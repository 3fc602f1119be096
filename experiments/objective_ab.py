"""Head-to-head A/B of two arrangement strategies on the same hands and the same rollouts.

For ``--hands`` dealt hands of one seat, both strategies set every hand; where they set it
differently, both settings are scored on the same ``--rollouts`` random deals of the other
cards to opponents who play ``--opponents`` (common random numbers).  The gain of B over A is
the mean over all hands of B's points minus A's (0 where they agree), with its 95% CI over
hands: the part of the regret difference that B's choices recover against those opponents,
far sharper than two regret estimates (which select among the whole front on noisy rollouts).

    PYTHONPATH=. python experiments/objective_ab.py --variant guangxi --players 4 \
        --a expected-score --b expected-score-v2 [--seat player] [--hands 2000] \
        [--rollouts 400] [--seed 11] [--opponents A]
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np

from simkit.arrange import arrange
from simkit.arrange.strategies import Strategy, as_strategy, strategy_from_name
from simkit.deal import as_generator, deal
from simkit.regret import Z95, _banker_seat, _points_on_rollouts, _rollout_hands, regret
from simkit.variants import Variant, resolve_variant


def _strategy(spec: Any) -> Strategy:
    """A strategy from a name, an ``.npz`` table file (expected-score with those tables) or a
    strategy."""
    return strategy_from_name(spec) if isinstance(spec, str) else as_strategy(spec)


def paired_regret(
    a: Any,
    b: Any,
    v: Variant,
    n_players: int,
    *,
    seat: str = "player",
    hands: int = 150,
    rollouts: tuple[int, int] = (200, 200),
    seed: int = 11,
) -> dict[str, float]:
    """:func:`simkit.regret.regret` of ``a`` and ``b`` on the same hands and rollout seeds
    (each strategy also in the opponents' seats) and the paired difference b - a."""
    ra = regret(_strategy(a), v, n_players, seat=seat, hands=hands, rollouts=rollouts, seed=seed)
    rb = regret(_strategy(b), v, n_players, seat=seat, hands=hands, rollouts=rollouts, seed=seed)
    d = rb.per_hand - ra.per_hand
    return {
        "a": ra.mean, "a_ci95": Z95 * ra.se, "b": rb.mean, "b_ci95": Z95 * rb.se,
        "diff": float(d.mean()), "diff_ci95": float(Z95 * d.std(ddof=1) / math.sqrt(d.size)),
        "a_differs": ra.share_differs, "b_differs": rb.share_differs,
    }  # fmt: skip


def head_to_head(
    a: Any,
    b: Any,
    v: Variant,
    n_players: int,
    *,
    seat: str = "player",
    hands: int = 2000,
    rollouts: int = 400,
    seed: int = 11,
    opponents: Any = None,
    batch: int = 16,
) -> dict[str, float]:
    """The gain of strategy ``b`` over ``a`` per hand (module docstring) and its 95% CI."""
    sa, sb = _strategy(a), _strategy(b)
    opp = sa if opponents is None else _strategy(opponents)
    root = np.random.SeedSequence(seed)
    deal_seed, roll_seed = root.spawn(2)
    dealt = deal(hands, n_players, rng=as_generator(deal_seed))[:, 0]
    ca, da = arrange(dealt, v, sa, n_players=n_players, rng=0)
    cb, db = arrange(dealt, v, sb, n_players=n_players, rng=0)
    differ = np.flatnonzero(
        (np.sort(ca[:, :3], 1) != np.sort(cb[:, :3], 1)).any(1)
        | (np.sort(ca[:, 3:8], 1) != np.sort(cb[:, 3:8], 1)).any(1)
        | (da != db)
    )
    seeds = roll_seed.spawn(hands)
    banker = _banker_seat(v, seat)
    gain = np.zeros(hands)
    for lo in range(0, differ.size, batch):
        idx = differ[lo : lo + batch]
        deals = np.stack(
            [
                _rollout_hands(dealt[h], n_players, rollouts, np.random.default_rng(seeds[h]))
                for h in idx
            ]
        )
        settings = [(np.stack([ca[h], cb[h]]), np.array([da[h], db[h]])) for h in idx]
        for h, pts in zip(
            idx, _points_on_rollouts(settings, deals, v, opp, n_players, banker), strict=True
        ):
            gain[h] = pts[1].mean() - pts[0].mean()
    se = gain.std(ddof=1) / math.sqrt(hands)
    return {
        "gain": float(gain.mean()),
        "ci95": float(Z95 * se),
        "differ": float(differ.size / hands),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="guangxi")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seat", default="player")
    ap.add_argument("--a", default="max-ev")
    ap.add_argument("--b", default="expected-score")
    ap.add_argument("--opponents", default=None)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rollouts", type=int, default=400)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--regret",
        type=int,
        nargs=2,
        default=None,
        metavar=("SELECT", "EVALUATE"),
        help="measure both strategies' regret instead (simkit.regret; --hands hands)",
    )
    args = ap.parse_args()
    v = resolve_variant(args.variant)
    if args.regret is not None:
        r = paired_regret(
            args.a, args.b, v, args.players, seat=args.seat, hands=args.hands,
            rollouts=tuple(args.regret), seed=args.seed,
        )  # fmt: skip
        print(
            f"{v.name} {args.players}p {args.seat}: regret {args.a} {r['a']:.4f} ± "
            f"{r['a_ci95']:.4f}, {args.b} {r['b']:.4f} ± {r['b_ci95']:.4f}; paired "
            f"difference {r['diff']:+.4f} ± {r['diff_ci95']:.4f}; best differs "
            f"{r['a_differs']:.0%} → {r['b_differs']:.0%}"
        )
        return
    r = head_to_head(
        args.a, args.b, v, args.players, seat=args.seat, hands=args.hands,
        rollouts=args.rollouts, seed=args.seed, opponents=args.opponents,
    )  # fmt: skip
    print(
        f"{v.name} {args.players}p {args.seat}: {args.b} over {args.a}, gain "
        f"{r['gain']:+.4f} ± {r['ci95']:.4f} points per hand; settings differ on "
        f"{r['differ']:.0%} of hands"
    )


if __name__ == "__main__":
    main()
