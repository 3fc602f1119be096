"""How much of the regret is card removal: the model fed each hand's own win chances.

    PYTHONPATH=. python experiments/removal_oracle.py --variant fujian --players 4 \
        [--seat player] [--hands 150] [--rollouts 200 200] [--seed 11]
    PYTHONPATH=. python experiments/removal_oracle.py --variant taiwan --seat banker \
        --show "9d 9h Jh | 3c 6s 8h Kc Kd | 5h 5s Ac Ah As"

expected-score's win chances are a dun class's average over every hand that holds it; the
hand at hand changes the opponents' cards (holding A-A-A, its K-K middle meets fewer pairs of
aces).  For every hand, every candidate of the regret protocol (the Pareto front and the
strategy's own split) is scored on the same selection deals, and three picks are valued on
independent evaluation deals, each against the strategy's own split:

* ``rollouts``: the best candidate on the selection deals (the regret protocol's pick);
* ``removal oracle``: the model's formula (duns independent, its scoop, home run, weights and
  payouts) with each dun's win and lose chances counted on the selection deals for this hand,
  in place of the tables' class averages;
* ``model``: the strategy itself (0 by construction).

What the removal oracle recovers is what win chances conditioned on the whole hand could buy;
the rest of the regret is the model's formula (the duns' correlation, the t-formula, the
seat's role).  Points per hand, 95% CI over hands.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from simkit.arrange import ExpectedScore, arrange, fine_classes, horse_copies
from simkit.arrange.value import P_HORSE, P_N_OPP, Q_LE, Q_VW, _horse_points, expected_points
from simkit.cards import parse_cards
from simkit.deal import as_generator, deal
from simkit.evaluate import dun_ranks
from simkit.regret import Z95, _banker_seat, _candidates, _points_on_rollouts, _rollout_hands
from simkit.variants import resolve_variant


def oracle_values(cand, opp_ranks, opp_declared, solver):
    """The model's value of each candidate with its per-dun win and lose chances counted
    against ``opp_ranks`` ``(R, p - 1, 3)`` (opponents who declared are not compared)."""
    mine = dun_ranks(cand, solver.variant)  # (c, 3)
    cls = fine_classes(mine).astype(np.int64)
    ok = opp_declared < 0  # (R, p - 1)
    q = solver.q.astype(np.float64)
    p = solver.model.params
    horse = horse_copies(cand, solver.horse_card) if solver.horse_card >= 0 else None
    out = np.empty(len(cand))
    for i in range(len(cand)):
        wins = (mine[i][None, None, :] > opp_ranks)[ok]  # (n, 3)
        loses = (mine[i][None, None, :] < opp_ranks)[ok]
        w = wins.mean(axis=0) if wins.size else np.zeros(3)
        l_ = loses.mean(axis=0) if loses.size else np.zeros(3)
        v = [q[d, cls[i, d], Q_VW] for d in range(3)]
        e = [q[d, cls[i, d], Q_LE] for d in range(3)]
        out[i] = expected_points(w[0], w[1], w[2], l_[0], l_[1], l_[2], *v, *e, p)
        if horse is not None:
            extra = p[P_HORSE] ** horse[i] - 1.0
            out[i] += p[P_N_OPP] * _horse_points(q, cls[i, 0], cls[i, 1], cls[i, 2], *extra)
    return out


def show(setting: str, v, p: int, seat: str, deals: int = 2000) -> None:
    """One setting's win and lose chances per dun, its scoop and home-run chances: the
    tables' (the model) beside those counted against the default's opponents on ``deals``
    random deals of the other cards."""
    strat = ExpectedScore()
    solver = strat.solver(v, p)
    cards = np.asarray(parse_cards(setting.replace("|", " ")), dtype=np.int8)
    opp = _rollout_hands(np.sort(cards), p, deals, np.random.default_rng(1))
    oc, od = arrange(opp.reshape(-1, 13), v, strat, n_players=p, rng=0)
    o_ranks = dun_ranks(oc, v).reshape(deals, p - 1, 3)
    ok = od.reshape(deals, p - 1) < 0
    if v.scoring.topology == "banker" and seat == "player":  # it meets the banker only
        o_ranks, ok = o_ranks[:, :1], ok[:, :1]
    mine = dun_ranks(cards[None], v)[0]
    cls = fine_classes(mine[None])[0]
    win, lose = mine[None, None] > o_ranks, mine[None, None] < o_ranks
    print(f"{setting} ({v.name} {p}p {seat}, {deals:,} deals)")
    for d, name in enumerate(("front", "middle", "back")):
        print(
            f"  {name}: tables W {solver.q[d, cls[d], 0]:.3f} L {solver.q[d, cls[d], 1]:.3f}"
            f" | counted W {win[..., d][ok].mean():.3f} L {lose[..., d][ok].mean():.3f}"
        )
    w_model = np.prod([float(solver.q[d, cls[d], 0]) for d in range(3)])
    w_counted = np.prod([win[..., d][ok].mean() for d in range(3)])
    print(
        f"  scoop: tables' product {w_model:.3f}, counted chances' product {w_counted:.3f},"
        f" counted {win.all(axis=2)[ok].mean():.3f}"
    )
    print(
        f"  home run: tables {w_model ** (p - 1):.4f},"
        f" counted {(win.all(axis=2) & ok).all(axis=1).mean():.4f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="fujian")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seat", default="player")
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--rollouts", type=int, nargs=2, default=(200, 200))
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--show",
        nargs="+",
        default=None,
        metavar="SETTING",
        help="print these settings' counted chances instead",
    )
    a = ap.parse_args()
    v = resolve_variant(a.variant)
    p = a.players
    if a.show is not None:
        for setting in a.show:
            show(setting, v, p, a.seat)
        return
    strat = ExpectedScore()
    solver = strat.solver(v, p)
    deal_seed, roll_seed = np.random.SeedSequence(a.seed).spawn(2)
    dealt = deal(a.hands, p, rng=as_generator(deal_seed))[:, 0]
    own, own_decl = arrange(dealt, v, strat, n_players=p, rng=0)
    seeds = roll_seed.spawn(a.hands)
    banker = _banker_seat(v, a.seat)
    r_sel, r_eval = a.rollouts
    gain_roll, gain_oracle = [], []
    for h in range(a.hands):
        if own_decl[h] >= 0:
            continue
        opp = _rollout_hands(dealt[h], p, r_sel + r_eval, np.random.default_rng(seeds[h]))
        cand = np.concatenate([own[h][None], _candidates(dealt[h], v)])
        (pts,) = _points_on_rollouts(
            [(cand, np.full(len(cand), -1))], opp[None], v, strat, p, banker
        )
        # the opponents' settings on the selection deals (as _points_on_rollouts sets them)
        oc, od = arrange(opp[:r_sel].reshape(-1, 13), v, strat, n_players=p, rng=0)
        o_ranks = dun_ranks(oc, v).reshape(r_sel, p - 1, 3)
        if v.scoring.topology == "banker":  # only the banker's duns meet the measured seat
            keep = [banker - 1] if banker > 0 else list(range(p - 1))
            o_ranks, od = o_ranks[:, keep], od.reshape(r_sel, p - 1)[:, keep]
        else:
            od = od.reshape(r_sel, p - 1)
        oracle = oracle_values(cand, o_ranks, od, solver)
        evaluation = pts[:, r_sel:].mean(axis=1)
        gain_roll.append(evaluation[int(np.argmax(pts[:, :r_sel].mean(axis=1)))] - evaluation[0])
        gain_oracle.append(evaluation[int(np.argmax(oracle))] - evaluation[0])
    for name, g in (("rollouts (the regret)", gain_roll), ("removal oracle", gain_oracle)):
        g = np.asarray(g)
        se = g.std(ddof=1) / math.sqrt(g.size)
        print(f"{v.name} {p}p {a.seat}: {name}: {g.mean():+.4f} ± {Z95 * se:.4f} ({g.size} hands)")


if __name__ == "__main__":
    main()
