"""The hands a strategy loses most on: per-hand regret with the strategy's split, the best one
and the score components of each (a look inside :func:`simkit.regret.regret`).

    PYTHONPATH=. python experiments/regret_hands.py --variant guangxi --players 4 \
        [--seat player] [--hands 100] [--rollouts 200 200] [--seed 11] [--top 8]

For every hand: the candidates of the regret protocol scored on the same rollouts (the
selection and evaluation deals together, so the figures are sharper than the regret's own),
printed for the hands whose strategy's split falls furthest below the best.
"""

from __future__ import annotations

import argparse

import numpy as np

from simkit.arrange import arrange, make_solver, split_values
from simkit.arrange.strategies import strategy_from_name
from simkit.cards import format_cards
from simkit.deal import as_generator, deal
from simkit.evaluate import dun_ranks
from simkit.regret import _banker_seat, _candidates, _points_on_rollouts, _rollout_hands
from simkit.variants import resolve_variant


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="guangxi")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seat", default="player")
    ap.add_argument("--strategy", default="expected-score")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--rollouts", type=int, nargs=2, default=(200, 200))
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--top", type=int, default=8)
    a = ap.parse_args()
    v = resolve_variant(a.variant)
    p = a.players
    strat = strategy_from_name(a.strategy)
    root = np.random.SeedSequence(a.seed)
    deal_seed, roll_seed = root.spawn(2)
    dealt = deal(a.hands, p, rng=as_generator(deal_seed))[:, 0]
    own, own_decl = arrange(dealt, v, strat, n_players=p, rng=0)
    seeds = roll_seed.spawn(a.hands)
    banker = _banker_seat(v, a.seat)
    n_roll = sum(a.rollouts)
    solver = strat.solver(v, p) if hasattr(strat, "solver") else make_solver(v, p)
    rows = []
    for h in range(a.hands):
        if own_decl[h] >= 0:
            continue
        opp = _rollout_hands(dealt[h], p, n_roll, np.random.default_rng(seeds[h]))[None]
        cand = np.concatenate([own[h][None], _candidates(dealt[h], v)])
        vals = _points_on_rollouts([(cand, np.full(len(cand), -1))], opp, v, strat, p, banker)[0]
        mean = vals.mean(axis=1)
        se = (vals - vals[0]).std(axis=1, ddof=1) / np.sqrt(n_roll)
        k = int(np.argmax(mean))
        model = split_values(dun_ranks(cand[[0, k]], v), solver)
        rows.append((mean[k] - mean[0], se[k], h, cand[0], cand[k], mean[0], mean[k], model))
    rows.sort(key=lambda r: -r[0])
    gaps = np.array([r[0] for r in rows])
    print(
        f"{v.name} {p}p {a.seat}: {len(rows)} hands; mean gap (in-sample, biased high) "
        f"{gaps.mean():.4f}; top {a.top} hands hold {gaps[: a.top].sum() / gaps.sum():.0%}"
    )
    for gap, se, h, mine, best, m0, mk, model in rows[: a.top]:
        f = lambda c: f"{format_cards(c[:3])} | {format_cards(c[3:8])} | {format_cards(c[8:])}"  # noqa: E731
        print(f"hand {h}: gap {gap:.3f} ± {se:.3f}")
        print(f"   own  {f(mine)}   rollout {m0:+.3f}  model {model[0]:+.3f}")
        print(f"   best {f(best)}   rollout {mk:+.3f}  model {model[1]:+.3f}")


if __name__ == "__main__":
    main()
