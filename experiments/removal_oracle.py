"""How much of the regret is card removal, and how much the duns' joint outcome: oracles.

    PYTHONPATH=. python experiments/removal_oracle.py --variant fujian --players 4 \
        [--seat player] [--hands 150] [--rollouts 200 200] [--seed 11]
    PYTHONPATH=. python experiments/removal_oracle.py --variant taiwan --seat banker \
        --show "9d 9h Jh | 3c 6s 8h Kc Kd | 5h 5s Ac Ah As"

expected-score's win chances are a dun class's average over every hand that holds it; the
hand at hand changes the opponents' cards (holding A-A-A, its K-K middle meets fewer pairs of
aces).  And its formula treats an opponent's three duns as independent, so a scoop's chance is
the product of three win chances, where an opponent's duns are in fact strong or weak
together.  For every hand, every candidate of the regret protocol (the Pareto front and the
strategy's own split) is scored on the same selection deals, and these picks are valued on
independent evaluation deals, each against the strategy's own split:

* ``rollouts``: the best candidate on the selection deals (the regret protocol's pick);
* ``resolution``: the model's formula (duns independent, its scoop, home run, weights and
  payouts) with each dun's win and lose chances counted for the split's exact dun ranks
  against ``--population`` opponents dealt from the whole deck (not this hand's deals): the
  tables without their classes' averaging over ranks, card removal left out;
* ``removal``: the same chances counted on this hand's own selection deals (card removal
  in);
* ``pair``: ``removal`` with the joint chances within a pair counted too (scoop, scooped,
  the majority match), the duns' correlation included;
* ``table``: ``pair`` with the chance of scooping every opponent of a deal counted (the home
  run's correlation across opponents);
* the strategy itself is the reference (0 by construction).

What an oracle recovers is what its counted chances could buy a model; "leaves" is the
regret it does not recover, paired per hand.  The rest is the model's formula beyond these
terms (the t-formula, the seat's role) and the rollouts' selection noise.  Points per hand,
95% CI over hands.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from simkit.arrange import ExpectedScore, arrange, fine_classes, horse_copies
from simkit.arrange.value import (
    P_HOME,
    P_HOME_ADD,
    P_HOME_BASE,
    P_HOME_FACTOR,
    P_HORSE,
    P_MAJORITY,
    P_MAJORITY_TWO,
    P_N_OPP,
    P_SCOOP_ADD,
    P_SCOOP_DOUBLE,
    P_SCOOP_RATE,
    P_SCOOP_TIES,
    P_W_HOME,
    P_W_SCOOP,
    Q_LE,
    Q_VW,
    _horse_points,
    expected_points,
)
from simkit.cards import parse_cards
from simkit.deal import as_generator, deal
from simkit.evaluate import dun_ranks
from simkit.regret import Z95, _banker_seat, _candidates, _points_on_rollouts, _rollout_hands
from simkit.variants import resolve_variant


def _model_value(w, l_, v, e, p, s_for=None, s_against=None, maj=None, home_for=None):
    """:func:`~simkit.arrange.value.expected_points` in plain Python, with the joint chances
    the formula builds from independent duns optionally replaced by counted ones: ``s_for``,
    ``s_against`` (scoop and scooped, one opponent), ``maj`` (majority won, lost) and
    ``home_for`` (every opponent scooped).  Without them it is the kernel's value (checked)."""
    t = [1.0 - w[d] - l_[d] for d in range(3)]
    base = sum(w[d] * v[d] - l_[d] * e[d] for d in range(3))
    if s_for is None:
        if p[P_SCOOP_TIES] > 0.0:
            tt = t[0] * t[1] * t[2]
            s_for = (1 - l_[0]) * (1 - l_[1]) * (1 - l_[2]) - tt
            s_against = (1 - w[0]) * (1 - w[1]) * (1 - w[2]) - tt
        else:
            s_for, s_against = w[0] * w[1] * w[2], l_[0] * l_[1] * l_[2]
    pair, won, paid = base, v[0] + v[1] + v[2], e[0] + e[1] + e[2]
    if p[P_MAJORITY] != 0.0:
        if maj is None:
            if p[P_MAJORITY_TWO] > 0.0:
                mw = w[0] * w[1] + w[0] * w[2] + w[1] * w[2] - 2 * w[0] * w[1] * w[2]
                ml = l_[0] * l_[1] + l_[0] * l_[2] + l_[1] * l_[2] - 2 * l_[0] * l_[1] * l_[2]
            else:
                a_m2, a_m1 = l_[0] * l_[1], l_[0] * t[1] + t[0] * l_[1]
                a_0 = t[0] * t[1] + w[0] * l_[1] + l_[0] * w[1]
                a_1, a_2 = w[0] * t[1] + t[0] * w[1], w[0] * w[1]
                mw = a_2 + a_1 * (1 - l_[2]) + a_0 * w[2]
                ml = a_m2 + a_m1 * (1 - w[2]) + a_0 * l_[2]
            maj = (mw, ml)
        pair += p[P_MAJORITY] * (maj[0] - maj[1])
        won += p[P_MAJORITY]
        paid += p[P_MAJORITY]
    ws = p[P_W_SCOOP]
    if p[P_SCOOP_DOUBLE] == 1.0:
        pair += ws * (s_for * won - s_against * paid)
        won, paid = 2 * won, 2 * paid
    elif p[P_SCOOP_DOUBLE] == 2.0:
        pair += ws * 3.0 * (s_for - s_against)
        won, paid = won + 3, paid + 3
    if p[P_SCOOP_ADD] != 0.0:
        pair += ws * p[P_SCOOP_ADD] * (s_for - s_against)
        won, paid = won + p[P_SCOOP_ADD], paid + p[P_SCOOP_ADD]
    n_opp = p[P_N_OPP]
    total = n_opp * pair
    if p[P_HOME] > 0.0:
        k = int(n_opp) - 1
        if home_for is None:
            home_for = s_for ** (k + 1)
        home_against = s_against * p[P_SCOOP_RATE] ** k
        wh = p[P_W_HOME]
        total += wh * n_opp * p[P_HOME_ADD] * (home_for - home_against)
        if p[P_HOME_BASE] > 0.0:
            total += (
                wh * (p[P_HOME_FACTOR] - 1) * p[P_HOME_BASE] * (n_opp * home_for - home_against)
            )
        else:
            total += (
                wh
                * (p[P_HOME_FACTOR] - 1)
                * (n_opp * home_for * (won + p[P_HOME_ADD]) - home_against * (paid + p[P_HOME_ADD]))
            )
    return total


def _majority_counted(wins, loses, p):
    """Counted chances of winning and losing the majority match, ``wins``/``loses`` (n, 3)."""
    nw, nl = wins.sum(axis=1), loses.sum(axis=1)
    if p[P_MAJORITY_TWO] > 0.0:
        return (nw >= 2).mean(), (nl >= 2).mean()
    return (nw > nl).mean(), (nl > nw).mean()


ORACLES = ("resolution", "removal", "pair", "table")


def oracle_values(cand, opp_ranks, opp_declared, solver, population=None):
    """The model's value of each candidate with chances counted against ``opp_ranks``
    ``(R, p - 1, 3)`` (opponents who declared are not compared), ``{oracle: (c,)}``:

    * ``resolution`` (with ``population``, the dun ranks ``(N, 3)`` of opponents dealt
      without regard to this hand): each dun's chances counted for its exact rank against
      them, the duns independent: the tables without their classes' averaging over ranks;
    * ``removal``: each dun's win and lose chances counted, the duns independent;
    * ``pair``: also the joint chances within a pair (scoop, scooped, majority) counted;
    * ``table``: also the chance of scooping every opponent of the deal (the home run).
    """
    mine = dun_ranks(cand, solver.variant)  # (c, 3)
    cls = fine_classes(mine).astype(np.int64)
    ok = opp_declared < 0  # (R, p - 1)
    q = solver.q.astype(np.float64)
    p = solver.model.params
    horse = horse_copies(cand, solver.horse_card) if solver.horse_card >= 0 else None
    out = {name: np.full(len(cand), np.nan) for name in ORACLES}
    if population is not None:
        pop = np.sort(population, axis=0)
        n_pop = pop.shape[0]
        for i in range(len(cand)):
            w = [np.searchsorted(pop[:, d], mine[i, d], "left") / n_pop for d in range(3)]
            l_ = [1.0 - np.searchsorted(pop[:, d], mine[i, d], "right") / n_pop for d in range(3)]
            v = [q[d, cls[i, d], Q_VW] for d in range(3)]
            e = [q[d, cls[i, d], Q_LE] for d in range(3)]
            out["resolution"][i] = _model_value(w, l_, v, e, p)
    for i in range(len(cand)):
        won_all = mine[i][None, None, :] > opp_ranks  # (R, p - 1, 3)
        lost_all = mine[i][None, None, :] < opp_ranks
        wins, loses = won_all[ok], lost_all[ok]  # (n, 3)
        w = wins.mean(axis=0) if wins.size else np.zeros(3)
        l_ = loses.mean(axis=0) if loses.size else np.zeros(3)
        v = [q[d, cls[i, d], Q_VW] for d in range(3)]
        e = [q[d, cls[i, d], Q_LE] for d in range(3)]
        out["removal"][i] = _model_value(w, l_, v, e, p)
        kernel = expected_points(*w, *l_, *v, *e, p)  # the replica is the kernel's formula
        assert math.isclose(out["removal"][i], kernel, rel_tol=1e-9, abs_tol=1e-9)
        if wins.size:
            if p[P_SCOOP_TIES] > 0.0:  # no dun lost and one won (ties do not prevent it)
                s_for = ((~loses).all(axis=1) & wins.any(axis=1)).mean()
                s_against = ((~wins).all(axis=1) & loses.any(axis=1)).mean()
            else:
                s_for, s_against = wins.all(axis=1).mean(), loses.all(axis=1).mean()
            maj = _majority_counted(wins, loses, p)
        else:
            s_for = s_against = 0.0
            maj = (0.0, 0.0)
        out["pair"][i] = _model_value(w, l_, v, e, p, s_for, s_against, maj)
        home_for = (won_all.all(axis=2) & ok).all(axis=1).mean()
        out["table"][i] = _model_value(w, l_, v, e, p, s_for, s_against, maj, home_for)
        if horse is not None:
            extra = p[P_HORSE] ** horse[i] - 1.0
            h_pts = p[P_N_OPP] * _horse_points(q, cls[i, 0], cls[i, 1], cls[i, 2], *extra)
            for name in ORACLES:
                out[name][i] += h_pts  # (nan stays nan: an oracle not computed)
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
        "--population",
        type=int,
        default=20000,
        help="opponents dealt without regard to the hand, for the resolution oracle",
    )
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
    # the resolution oracle's opponents: dealt from the whole deck, set by the default
    pop_seed = np.random.SeedSequence([a.seed, 1])
    pop_hands = deal(a.population, p, rng=as_generator(pop_seed))[:, 0]
    pop_cards, pop_decl = arrange(pop_hands, v, strat, n_players=p, rng=0)
    population = dun_ranks(pop_cards[pop_decl < 0], v)
    banker = _banker_seat(v, a.seat)
    r_sel, r_eval = a.rollouts
    gains = {name: [] for name in ("rollouts (the regret)", *ORACLES)}
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
        oracle = oracle_values(cand, o_ranks, od, solver, population)
        evaluation = pts[:, r_sel:].mean(axis=1)
        picks = {"rollouts (the regret)": int(np.argmax(pts[:, :r_sel].mean(axis=1)))}
        picks.update({name: int(np.argmax(oracle[name])) for name in ORACLES})
        for name, i in picks.items():
            gains[name].append(evaluation[i] - evaluation[0])
    regret = np.asarray(gains["rollouts (the regret)"])
    for name, g in gains.items():
        g = np.asarray(g)
        se = g.std(ddof=1) / math.sqrt(g.size)
        line = f"{v.name} {p}p {a.seat}: {name}: {g.mean():+.4f} ± {Z95 * se:.4f}"
        if name in ORACLES:  # what this pick leaves of the regret, paired per hand
            left = regret - g
            left_se = left.std(ddof=1) / math.sqrt(left.size)
            line += f", leaves {left.mean():+.4f} ± {Z95 * left_se:.4f}"
        print(f"{line} ({g.size} hands)")


if __name__ == "__main__":
    main()
