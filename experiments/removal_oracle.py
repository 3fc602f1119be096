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
* ``resolution-class``: the ``resolution`` chances of the population's own duns averaged
  by fine class (a class table free of training noise and of the card removal of the hands
  that play a class; a class the population does not hold keeps the tables' figures): the
  same as ``resolution`` to within 0.001 (western-2-4 and the taiwan banker at 4 players),
  so the classes' averaging over ranks costs nothing; what the tables lose is in how they
  are counted (``simkit.train.FINE_OTHER_DEALS``);
* ``resolution-pair``: ``resolution`` with the joint chances within a pair counted against
  the same population (scoop, scooped, the majority match): the duns' correlation without
  card removal, the most a table of joint chances by exact ranks could buy;
* ``copula``: the tables' win and lose chances, with the joint chances of the population's
  own duns at those chances (its empirical copula): an opponent's dun d counts as beaten when
  the share of the population strictly below it is under the table's win chance ``W_d``, and
  as beating mine when the share strictly above it is under the lose chance ``L_d``; with the
  population's own chances in place of the tables' this is ``resolution-pair`` exactly.  A
  function of the duns' chances alone, so a kernel could price it from a table of the
  copula;
* ``removal``: the same chances counted on this hand's own selection deals (card removal
  in);
* ``pair``: ``removal`` with the joint chances within a pair counted too (scoop, scooped,
  the majority match), the duns' correlation included;
* ``table``: ``pair`` with the chance of scooping every opponent of a deal counted (the home
  run's correlation across opponents);
* ``factor``: the tables' win and lose chances with the duns' joint chances of a one-factor
  model (dun d's latent ``a_d X + sqrt(1 - a_d^2) e_d``, X the opponent's strength,
  integrated by Gauss-Hermite), the loadings fitted to the population's pairs: the duns'
  correlation as a function of their chances alone, a model a kernel could price;
* ``factor-removal``: the same joint model on the ``removal`` oracle's counted chances;
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
    P_HORSE,
    P_JOINT,
    P_MAJORITY_TWO,
    P_N_OPP,
    P_SCOOP_TIES,
    Q_LE,
    Q_LOSE,
    Q_VW,
    Q_WIN,
    _horse_points,
    expected_points,
    points_of_chances,
)
from simkit.cards import parse_cards
from simkit.deal import as_generator, deal
from simkit.evaluate import dun_ranks
from simkit.regret import Z95, _banker_seat, _candidates, _points_on_rollouts, _rollout_hands
from simkit.variants import resolve_variant


def _majority_counted(wins, loses, p):
    """Counted chances of winning and losing the majority match, ``wins``/``loses`` (n, 3)."""
    nw, nl = wins.sum(axis=1), loses.sum(axis=1)
    if p[P_MAJORITY_TWO] > 0.0:
        return (nw >= 2).mean(), (nl >= 2).mean()
    return (nw > nl).mean(), (nl > nw).mean()


ORACLES = ("resolution", "resolution-class", "resolution-pair", "copula", "removal", "pair",
           "table", "factor", "factor-removal")  # fmt: skip

#: Gauss-Hermite nodes and weights of the one-factor model (a standard normal factor).
N_NODES = 7
GH_X, GH_W = np.polynomial.hermite_e.hermegauss(N_NODES)
GH_W = GH_W / GH_W.sum()


def independent_chances(w, l_, p):
    """(s_for, s_against, maj_win, maj_lose) of independent duns, arrays ``(..., 3)``."""
    w0, w1, w2 = w[..., 0], w[..., 1], w[..., 2]
    l0, l1, l2 = l_[..., 0], l_[..., 1], l_[..., 2]
    t0, t1, t2 = 1 - w0 - l0, 1 - w1 - l1, 1 - w2 - l2
    if p[P_SCOOP_TIES] > 0.0:
        s_for = (1 - l0) * (1 - l1) * (1 - l2) - t0 * t1 * t2
        s_against = (1 - w0) * (1 - w1) * (1 - w2) - t0 * t1 * t2
    else:
        s_for, s_against = w0 * w1 * w2, l0 * l1 * l2
    if p[P_MAJORITY_TWO] > 0.0:
        maj_win = w0 * w1 + w0 * w2 + w1 * w2 - 2 * w0 * w1 * w2
        maj_lose = l0 * l1 + l0 * l2 + l1 * l2 - 2 * l0 * l1 * l2
    else:
        a_m2, a_m1 = l0 * l1, l0 * t1 + t0 * l1
        a_0, a_1, a_2 = t0 * t1 + w0 * l1 + l0 * w1, w0 * t1 + t0 * w1, w0 * w1
        maj_win = a_2 + a_1 * (1 - l2) + a_0 * w2
        maj_lose = a_m2 + a_m1 * (1 - w2) + a_0 * l2
    return s_for, s_against, maj_win, maj_lose


def conditional_chances(w, l_, loading):
    """Per-node win and lose chances ``(..., K, 3)`` of the one-factor model: dun d's latent
    ``a_d X + sqrt(1 - a_d^2) e_d`` (X the opponent's strength) below ``ndtri(w)`` wins, above
    ``ndtri(1 - l)`` loses; the marginals are ``w``, ``l`` and the duns independent given X."""
    from scipy.special import ndtr, ndtri

    eps = 1e-9
    zw = ndtri(np.clip(w, eps, 1 - eps))[..., None, :]
    zl = ndtri(np.clip(1 - l_, eps, 1 - eps))[..., None, :]
    a = np.asarray(loading)
    s = np.sqrt(1 - a**2)
    x = GH_X[:, None] * a
    wk = ndtr((zw - x) / s)
    lk = 1 - ndtr((zl - x) / s)
    return wk, lk


def factor_chances(w, l_, loading, p):
    """:func:`independent_chances` under the one-factor model, averaged over the factor."""
    wk, lk = conditional_chances(w, l_, loading)
    parts = independent_chances(wk, lk, p)
    return tuple((c * GH_W).sum(axis=-1) for c in parts)


def fit_loadings(population, n_mine=1500):
    """Loadings ``(3,)`` of the one-factor model, fitted to the population's own pairs: the
    first ``n_mine`` hands against the rest, each dun pair's joint win and joint loss chances
    matched (least squares over the hands) by a grid of correlations, then a_i a_j = rho_ij."""
    from scipy.special import ndtr, ndtri

    mine, opp = population[:n_mine], population[n_mine:]
    won = mine[:, None, :] > opp[None]
    lost = mine[:, None, :] < opp[None]
    w, l_ = won.mean(axis=1), lost.mean(axis=1)
    eps = 1e-9
    zw, zl = ndtri(np.clip(w, eps, 1 - eps)), ndtri(np.clip(1 - l_, eps, 1 - eps))
    grid = np.linspace(-0.5, 0.8, 131)
    rho = {}
    for i, j in ((0, 1), (0, 2), (1, 2)):
        jw = (won[..., i] & won[..., j]).mean(axis=1)
        jl = (lost[..., i] & lost[..., j]).mean(axis=1)
        best, err_best = 0.0, np.inf
        for r in grid:
            a, s = math.sqrt(abs(r)), math.sqrt(1 - abs(r))
            xi, xj = GH_X[:, None] * a, GH_X[:, None] * a * np.sign(r)
            pw = (ndtr((zw[None, :, i] - xi) / s) * ndtr((zw[None, :, j] - xj) / s)).T @ GH_W
            pl = (1 - ndtr((zl[None, :, i] - xi) / s)) * (1 - ndtr((zl[None, :, j] - xj) / s))
            pl = pl.T @ GH_W
            err = ((pw - jw) ** 2).sum() + ((pl - jl) ** 2).sum()
            if err < err_best:
                best, err_best = r, err
        rho[(i, j)] = float(best) if abs(best) > 1e-4 else 1e-4
    r01, r02, r12 = rho[(0, 1)], rho[(0, 2)], rho[(1, 2)]
    # a_i a_j = rho_ij; the middle and back load positively (their correlation is positive)
    a1 = math.sqrt(abs(r01 * r12 / r02))
    a2 = math.sqrt(abs(r02 * r12 / r01))
    a0 = (r01 / a1 + r02 / a2) / 2
    loading = np.clip([a0, a1, a2], -0.95, 0.95)
    print(f"pairwise correlations {rho}; loadings {np.round(loading, 3)}")
    return loading


def _pair_args(wins, loses, v, e, p):
    """:func:`points_of_chances`'s arguments but the home run's, from comparisons ``wins``,
    ``loses`` ``(n, 3)`` (n ≥ 1): each dun's chances and the pair's joint ones (scoop,
    scooped, the majority match) counted."""
    w, l_ = wins.mean(axis=0), loses.mean(axis=0)
    if p[P_SCOOP_TIES] > 0.0:  # no dun lost and one won (ties do not prevent it)
        s_for = ((~loses).all(axis=1) & wins.any(axis=1)).mean()
        s_against = ((~wins).all(axis=1) & loses.any(axis=1)).mean()
    else:
        s_for, s_against = wins.all(axis=1).mean(), loses.all(axis=1).mean()
    base = float(np.dot(w, v) - np.dot(l_, e))
    return (base, v.sum(), e.sum(), s_for, s_against, *_majority_counted(wins, loses, p))


def _pair_value(wins, loses, v, e, p):
    """The model's payout of :func:`_pair_args`, the opponents independent of each other (the
    home run: the scoop's chance to the opponents' power)."""
    args = _pair_args(wins, loses, v, e, p)
    return points_of_chances(*args, args[3] ** p[P_N_OPP], p)


def copula_value(w, l_, below, above, v, e, p):
    """The model's value of a split with dun chances ``w``, ``l_`` ``(3,)`` and the joint
    chances of the population's copula: ``below``, ``above`` ``(N, 3)`` each population dun's
    share of the population strictly below and strictly above it, an opponent's dun beaten
    when its share below is under ``w`` and beating mine when its share above is under ``l_``
    (the population's own chances of a rank give exactly its comparisons with that rank)."""
    args = _pair_args(below < w, above < l_, v, e, p)
    base = float(np.dot(w, v) - np.dot(l_, e))  # the duns' own terms from the given chances
    return points_of_chances(base, *args[1:], args[3] ** p[P_N_OPP], p)


def oracle_values(cand, opp_ranks, opp_declared, solver, population=None, loading=None):
    """The model's value of each candidate with chances counted against ``opp_ranks``
    ``(R, p - 1, 3)`` (opponents who declared are not compared), ``{oracle: (c,)}``:

    * ``resolution`` (with ``population``, the dun ranks ``(N, 3)`` of opponents dealt
      without regard to this hand): each dun's chances counted for its exact rank against
      them, the duns independent: the tables without their classes' averaging over ranks;
    * ``resolution-pair``: also the joint chances within a pair counted against them;
    * ``copula``: the tables' chances, the joint ones of the population's copula at them;
    * ``removal``: each dun's win and lose chances counted, the duns independent;
    * ``pair``: also the joint chances within a pair (scoop, scooped, majority) counted;
    * ``table``: also the chance of scooping every opponent of the deal (the home run).
    """
    mine = dun_ranks(cand, solver.variant)  # (c, 3)
    cls = fine_classes(mine).astype(np.int64)
    ok = opp_declared < 0  # (R, p - 1)
    q = solver.q.astype(np.float64)
    p = solver.model.params.copy()
    p[P_JOINT] = 0.0  # the oracles price the joint chances themselves (or as independent)
    cop = solver.joint
    horse = horse_copies(cand, solver.horse_card) if solver.horse_card >= 0 else None
    out = {name: np.full(len(cand), np.nan) for name in ORACLES}
    win_points = np.stack([q[d, cls[:, d], Q_VW] for d in range(3)], axis=1)  # (c, 3)
    lose_pay = np.stack([q[d, cls[:, d], Q_LE] for d in range(3)], axis=1)
    # the tables' win and lose chances of each candidate's duns (c, 3)
    tw = np.stack([q[d, cls[:, d], Q_WIN] for d in range(3)], axis=1)
    tl = np.stack([q[d, cls[:, d], Q_LOSE] for d in range(3)], axis=1)
    if population is not None:
        pop = np.sort(population, axis=0)
        n_pop = pop.shape[0]
        # the population's exact-rank chances averaged by fine class (a class table free of
        # training noise); classes the population does not hold keep the tables' figures
        below = [np.searchsorted(pop[:, d], population[:, d], "left") for d in range(3)]
        at_most = [np.searchsorted(pop[:, d], population[:, d], "right") for d in range(3)]
        pw = np.stack(below, axis=1) / n_pop
        pl = 1.0 - np.stack(at_most, axis=1) / n_pop
        pc = fine_classes(population).astype(np.int64)
        cw, cl = q[..., 0].copy(), q[..., 1].copy()
        for d in range(3):
            n = np.bincount(pc[:, d], minlength=cw.shape[1])
            sw = np.bincount(pc[:, d], weights=pw[:, d], minlength=cw.shape[1])
            sl = np.bincount(pc[:, d], weights=pl[:, d], minlength=cw.shape[1])
            seen = n > 0
            cw[d, seen], cl[d, seen] = sw[seen] / n[seen], sl[seen] / n[seen]
        for i in range(len(cand)):
            w = [cw[d, cls[i, d]] for d in range(3)]
            l_ = [cl[d, cls[i, d]] for d in range(3)]
            out["resolution-class"][i] = expected_points(
                *w, *l_, *win_points[i], *lose_pay[i], p, solver.joint
            )
        for i in range(len(cand)):
            w = [np.searchsorted(pop[:, d], mine[i, d], "left") / n_pop for d in range(3)]
            l_ = [1.0 - np.searchsorted(pop[:, d], mine[i, d], "right") / n_pop for d in range(3)]
            out["resolution"][i] = expected_points(
                *w, *l_, *win_points[i], *lose_pay[i], p, solver.joint
            )
            wins, loses = mine[i] > population, mine[i] < population  # (N, 3)
            out["resolution-pair"][i] = _pair_value(wins, loses, win_points[i], lose_pay[i], p)
        # pw, pl: each population dun's share of the population strictly below and above it
        for i in range(len(cand)):
            out["copula"][i] = copula_value(tw[i], tl[i], pw, pl, win_points[i], lose_pay[i], p)
    if loading is not None:  # the tables' chances, the factor model's joint chances
        joint = factor_chances(tw, tl, loading, p)
        base = (tw * win_points).sum(axis=1) - (tl * lose_pay).sum(axis=1)
        for i in range(len(cand)):
            sf, sa, mw, ml = (float(c[i]) for c in joint)
            args = (base[i], win_points[i].sum(), lose_pay[i].sum(), sf, sa, mw, ml)
            out["factor"][i] = points_of_chances(*args, sf ** p[P_N_OPP], p)
    for i in range(len(cand)):
        won_all = mine[i][None, None, :] > opp_ranks  # (R, p - 1, 3)
        lost_all = mine[i][None, None, :] < opp_ranks
        wins, loses = won_all[ok], lost_all[ok]  # (n, 3)
        w = wins.mean(axis=0) if wins.size else np.zeros(3)
        l_ = loses.mean(axis=0) if loses.size else np.zeros(3)
        v, e = win_points[i], lose_pay[i]
        out["removal"][i] = expected_points(*w, *l_, *v, *e, p, cop)
        if wins.size:
            pair_args = _pair_args(wins, loses, v, e, p)
        else:
            pair_args = (0.0, v.sum(), e.sum(), 0.0, 0.0, 0.0, 0.0)
        base = pair_args[0]
        # the kernel's payout of these chances (the home run: every opponent independent)
        out["pair"][i] = points_of_chances(*pair_args, pair_args[3] ** p[P_N_OPP], p)
        if loading is not None:
            sf, sa, mw, ml = (float(c) for c in factor_chances(w, l_, loading, p))
            args = (base, v.sum(), e.sum(), sf, sa, mw, ml)
            out["factor-removal"][i] = points_of_chances(*args, sf ** p[P_N_OPP], p)
        home_for = (won_all.all(axis=2) & ok).all(axis=1).mean()
        out["table"][i] = points_of_chances(*pair_args, home_for, p)
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
    loading = fit_loadings(population)
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
        oracle = oracle_values(cand, o_ranks, od, solver, population, loading)
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
