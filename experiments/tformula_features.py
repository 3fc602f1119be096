"""Does any term of the t-formula order a hand's splits better than the shipped objective?

    PYTHONPATH=. python experiments/tformula_features.py [--rows guangxi:4 ...] \
        [--hands 3000] [--rollouts 100 200] [--top 12] [--seed 21] [--population 20000]

Under the t-formula (guangxi, guangxi-regional at 3+ players) a hand is paid by its place among
the hands compared normally, ranked by net waters, times t, the worth of the round's biggest dun
(``[scoring.t_formula]``): ``t·Σ_j sign(N_me − N_j)``.  expected-score prices the net waters
(``B``, dun points and bonuses), the scoop terms ``S`` and home-run terms ``H`` with two
fitted weights (:mod:`simkit.objective`).  Three things the places and t could add are tried
as extra terms of a within-hand linear fit, as :func:`simkit.objective.within_hand_fit` fits
``B, S, H``:

* **bonus**: ``B`` split into its base points (±1 a dun) and its bonuses (a bonus both ranks
  and raises t);
* **t raised**: ``m − 1``, ``m`` the biggest worth among my own duns (t ≥ m), and
  ``(τ(m) − τ(1))·B`` with ``τ(m) = E[max(m, T)]``, ``T`` the biggest worth of the other
  hands (counted on ``--population`` tables set by the default): a hand expected to place well
  gains by raising t, one expected to place badly loses;
* **spread**: the variance of a pair's waters (independent duns), alone and times ``B``:
  places pay the sign of a difference, so at one mean a narrower hand places better when ahead;
* **place**: the place payment itself in a normal approximation, ``n_opp·(2Φ(4b/σ) − 1)``:
  against one opponent ``N_me − N_j`` has mean ``4b`` (``b = B/n_opp`` a pair's expected
  waters: the pair counts twice, and each third player adds my pair's ``b`` and the
  opponent's, 0 on average) and variance ``σ² = 6v + 2·v̄`` (``v`` my pair's variance, counted
  4 + 2 times; ``v̄`` a typical pair's, :data:`PAIR_VARIANCE`); alone, in place of ``B``, with
  ``B`` and times ``τ(m)/τ(1)`` (places times t);
* **strength**: ``B``, ``S`` and ``H`` times ``z``, the hand's best model value over 5
  (clipped to ±2, the same for all its splits): whether a hand that expects to place first
  should weigh its waters, scoops and home runs otherwise than a middling one.

Beside the models, **a pick by rollouts**: on the held-out hands, the split with the best
mean on the first half of their rollouts, valued on the second half, minus the shipped
objective's pick (valued there too).  At 100 deals a candidate it reads how far the top
candidates' differences lie below what that many deals resolve (the regret protocol selects on
1,000), not what a perfect order of them would buy.

Protocol: ``--hands`` dealt hands of seat 0 set by the default (declaring hands skipped); the
``--top`` splits of each hand's Pareto front by the shipped objective scored on common rollouts
against the default (``--rollouts`` first number); coefficients fitted on them.  On an
independent stream of half as many hands (the second number of rollouts) each fitted model's
pick is valued by its rollouts, minus the shipped objective's pick, per hand: the held-out
gain, 95% CI.  Writes ``results/strategy/tformula-features.md`` and ``.json``.  About 4
minutes a row on one core.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import norm
from training_schedule import parse_row  # experiments/ is on sys.path when run as a script

from simkit.arrange import P_W_HOME, P_W_SCOOP, ExpectedScore, arrange
from simkit.arrange.classes import fine_classes
from simkit.deal import as_generator, deal
from simkit.evaluate import CATEGORY_SHIFT, dun_ranks
from simkit.files import atomic_write
from simkit.objective import B, H, S, components
from simkit.regret import Z95, _candidates, _points_on_rollouts, _rollout_hands
from simkit.variants import resolve_variant
from simkit.variants.compiled import compile_rules

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "strategy"
ROWS = ("guangxi:4", "guangxi-regional:4")
#: The models compared: the shipped three terms refitted, then each extra term.
MODELS: tuple[tuple[str, ...], ...] = (
    ("B", "S", "H"),
    ("base", "bonus", "S", "H"),
    ("B", "S", "H", "m"),
    ("B", "S", "H", "tB"),
    ("base", "bonus", "S", "H", "tB"),
    ("B", "S", "H", "var", "varB"),
    ("base", "bonus", "S", "H", "tB", "var", "varB"),
    ("place", "S", "H"),
    ("B", "S", "H", "place"),
    ("placeT", "S", "H"),
    ("B", "S", "H", "Bz", "Sz", "Hz"),
)
#: A typical pair's variance of waters (three duns of ±1 and a few bonuses), for ``place``.
PAIR_VARIANCE = 3.0


def biggest_other_worth(name: str, players: int, population: int, seed: int) -> np.ndarray:
    """``T`` per table: the biggest dun worth among seats 1..p-1, set by the default (a hand
    that declares is not compared normally and sets nothing)."""
    v = resolve_variant(name)
    worth = compile_rules(v, players).dun_worth
    hands = deal(population, players, rng=seed).reshape(-1, 13)
    arranged, declared = arrange(hands, v, ExpectedScore(), n_players=players, rng=0)
    cat = dun_ranks(arranged, v) >> CATEGORY_SHIFT
    m = worth[np.arange(3)[None, :], cat].max(axis=1)
    m = np.where(declared >= 0, 1.0, m).reshape(-1, players)
    return m[:, 1:].max(axis=1)


def collect(name: str, players: int, hands: int, rollouts: int, top: int, seed: int
            ) -> dict[str, np.ndarray]:  # fmt: skip
    """Per candidate: ``B, S, H``, its dun ranks, its hand and its rollout mean."""
    v = resolve_variant(name)
    strat = ExpectedScore()
    solver = strat.solver(v, players)
    p = solver.model.params
    deal_seed, roll_seed = np.random.SeedSequence(seed).spawn(2)
    dealt = deal(hands, players, rng=as_generator(deal_seed))[:, 0]
    _own, declared = arrange(dealt, v, strat, n_players=players, rng=0)
    seeds = roll_seed.spawn(hands)
    played = np.flatnonzero(declared < 0)
    parts: dict[str, list[np.ndarray]] = {
        "F": [], "ranks": [], "hand": [], "mean": [], "first": [], "second": [], "top": [],
    }  # fmt: skip
    for lo in range(0, played.size, 8):
        idx = played[lo : lo + 8]
        settings = []
        for h in idx:
            cand = _candidates(dealt[h], v)
            f = components(cand, solver)
            value = f[:, B] + p[P_W_SCOOP] * f[:, S] + p[P_W_HOME] * f[:, H]
            order = np.argsort(-value, kind="stable")[:top]
            settings.append((cand[order], np.full(order.size, -1)))
            parts["F"].append(f[order])
            parts["ranks"].append(dun_ranks(cand[order], v))
            parts["hand"].append(np.full(order.size, h))
            parts["top"].append(np.full(order.size, value[order[0]]))
        deals = np.stack(
            [
                _rollout_hands(dealt[h], players, rollouts, np.random.default_rng(seeds[h]))
                for h in idx
            ]
        )
        for pts in _points_on_rollouts(settings, deals, v, strat, players, 0):
            parts["mean"].append(pts.mean(axis=1))
            half = max(pts.shape[1] // 2, 1)
            parts["first"].append(pts[:, :half].mean(axis=1))
            parts["second"].append(pts[:, half:].mean(axis=1))
    return {k: np.concatenate(x) for k, x in parts.items()}


def features(data: dict[str, np.ndarray], name: str, players: int, tau: dict[float, float]
             ) -> dict[str, np.ndarray]:  # fmt: skip
    """The terms of :data:`MODELS` for every candidate of ``data``."""
    v = resolve_variant(name)
    solver = ExpectedScore().solver(v, players)
    q = np.asarray(solver.q, dtype=np.float64)
    n_opp = players - 1
    d = np.arange(3)[None, :]
    c = fine_classes(data["ranks"]).astype(np.int64)
    win, lose, vw, le = (q[d, c, k] for k in range(4))
    worth = compile_rules(v, players).dun_worth
    m = worth[d, data["ranks"] >> CATEGORY_SHIFT].max(axis=1)
    var = (win * vw**2 + lose * le**2 - (win * vw - lose * le) ** 2).sum(axis=1)
    b = data["F"][:, B]
    t_of = np.vectorize(lambda x: tau[float(x)])
    place = n_opp * (
        2.0 * norm.cdf(4.0 * (b / n_opp) / np.sqrt(6.0 * var + 2.0 * PAIR_VARIANCE)) - 1.0
    )
    z = np.clip(data["top"] / 5.0, -2.0, 2.0)
    return {
        "B": b,
        "S": data["F"][:, S],
        "H": data["F"][:, H],
        "base": n_opp * (win - lose).sum(axis=1),
        "bonus": n_opp * (win * (vw - 1.0) - lose * (le - 1.0)).sum(axis=1),
        "m": m - 1.0,
        "tB": (t_of(m) - tau[1.0]) * b,
        "var": var,
        "varB": var * b / 10.0,
        "place": place,
        "placeT": place * t_of(m) / tau[1.0],
        "Bz": b * z,
        "Sz": data["F"][:, S] * z,
        "Hz": data["F"][:, H] * z,
    }


def _hands(hand: np.ndarray) -> list[np.ndarray]:
    _, start = np.unique(hand, return_index=True)
    return np.split(np.arange(hand.size), np.sort(start)[1:])


def fit(x: dict[str, np.ndarray], means: np.ndarray, hand: np.ndarray, names: tuple[str, ...]
        ) -> np.ndarray:  # fmt: skip
    """Least squares of the rollout means on ``names``, each hand's means subtracted."""
    xs, ys = [], []
    for g in _hands(hand):
        a = np.stack([x[n][g] for n in names], axis=1)
        xs.append(a - a.mean(axis=0))
        ys.append(means[g] - means[g].mean())
    coef, *_ = np.linalg.lstsq(np.concatenate(xs), np.concatenate(ys), rcond=None)
    return coef


def picked(x: dict[str, np.ndarray], means: np.ndarray, hand: np.ndarray,
           names: tuple[str, ...], coef: np.ndarray) -> np.ndarray:  # fmt: skip
    """Per hand, the rollout mean of the candidate the model ranks first."""
    out = []
    for g in _hands(hand):
        value = sum(cf * x[n][g] for n, cf in zip(names, coef, strict=True))
        out.append(means[g][int(np.argmax(value))])
    return np.array(out)


def measure(row: tuple[str, int], args: argparse.Namespace) -> dict[str, Any]:
    name, players = row
    t_other = biggest_other_worth(name, players, args.population, args.seed)
    worths = np.unique(compile_rules(resolve_variant(name), players).dun_worth)
    tau = {float(w): float(np.maximum(w, t_other).mean()) for w in worths}
    sel, ev = args.rollouts
    train = collect(name, players, args.hands, sel, args.top, args.seed)
    test = collect(name, players, args.hands // 2, ev, args.top, args.seed + 1000)
    xf, xh = features(train, name, players, tau), features(test, name, players, tau)
    solver = ExpectedScore().solver(resolve_variant(name), players)
    shipped = (1.0, solver.model.params[P_W_SCOOP], solver.model.params[P_W_HOME])
    ref = picked(xh, test["mean"], test["hand"], ("B", "S", "H"), np.array(shipped))
    # the pick by rollouts: chosen on the first half of each hand's deals, valued on the second
    by_rollouts = [
        test["second"][g][int(np.argmax(test["first"][g]))] for g in _hands(test["hand"])
    ]
    second_ref = picked(xh, test["second"], test["hand"], ("B", "S", "H"), np.array(shipped))
    rollout_pick = np.array(by_rollouts) - second_ref
    pick_half = Z95 * rollout_pick.std(ddof=1) / math.sqrt(rollout_pick.size)
    models = []
    for names in MODELS:
        coef = fit(xf, train["mean"], train["hand"], names)
        diff = picked(xh, test["mean"], test["hand"], names, coef) - ref
        half = Z95 * diff.std(ddof=1) / math.sqrt(diff.size)
        gain = float(diff.mean())
        models.append(
            {
                "terms": list(names),
                "coefficients": [round(float(c), 4) for c in coef],
                "gain": gain,
                "ci95": [gain - half, gain + half],
                "differ": float((diff != 0).mean()),
            }
        )
    print(f"{name} {players}p done", flush=True)
    return {
        "variant": name,
        "players": players,
        "hands": args.hands,
        "rollouts": list(args.rollouts),
        "top": args.top,
        "seed": args.seed,
        "population": args.population,
        "held_out_hands": int(ref.size),
        "shipped_weights": [round(w, 4) for w in shipped[1:]],
        "tau": {str(k): round(v, 4) for k, v in tau.items()},
        "p_other_biggest_1": float((t_other == 1.0).mean()),
        "models": models,
        "rollout_pick": float(rollout_pick.mean()),
        "rollout_pick_ci95": [
            float(rollout_pick.mean() - pick_half),
            float(rollout_pick.mean() + pick_half),
        ],
    }


def render(rows: list[dict[str, Any]]) -> str:
    out = [
        "# The t-formula's places and t as terms of expected-score's objective",
        "",
        (__doc__ or "").split("\n\n", 2)[2].split("Writes")[0].strip(),
        "",
        "    PYTHONPATH=. python experiments/tformula_features.py",
        "",
    ]
    for r in rows:
        sel, ev = r["rollouts"]
        taus = ", ".join(f"τ({float(k):g}) = {v:.2f}" for k, v in r["tau"].items())
        out += [
            f"## {r['variant']}, {r['players']} players",
            "",
            f"{r['hands']:,} hands fitted on {sel} rollouts, {r['held_out_hands']:,} held-out "
            f"hands on {ev}, the top {r['top']} splits of each, seed {r['seed']}.  Shipped "
            f"weights (scoop, home run): {r['shipped_weights'][0]}, {r['shipped_weights'][1]}.  "
            f"The other hands' biggest worth is 1 at {r['p_other_biggest_1']:.0%} of tables; "
            f"{taus}.",
            "",
            "| terms | fitted coefficients | held-out gain over the shipped objective "
            "| 95% CI | picks differ |",
            "|---|---|---|---|---|",
        ]  # fmt: skip
        for m in r["models"]:
            terms = " + ".join(
                f"{c:.3f}·{n}" for n, c in zip(m["terms"], m["coefficients"], strict=True)
            )
            lo, hi = m["ci95"]
            out.append(f"| {', '.join(m['terms'])} | {terms} | {m['gain']:+.4f} | "
                       f"{lo:+.4f} to {hi:+.4f} | {m['differ']:.1%} |")  # fmt: skip
        if "rollout_pick" in r:
            lo, hi = r["rollout_pick_ci95"]
            out += [
                "",
                f"A pick by rollouts (the best of the top {r['top']} on half the held-out "
                f"rollouts, valued on the other half, minus the shipped pick valued there): "
                f"**{r['rollout_pick']:+.4f}** ({lo:+.4f} to {hi:+.4f}).",
            ]
        out.append("")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rows", nargs="+", default=list(ROWS), help="VARIANT:PLAYERS")
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--rollouts", type=int, nargs=2, default=(100, 200))
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--population", type=int, default=20_000)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows = []
    for text in args.rows:  # bad input fails before any work
        name, players, _seat = parse_row(f"{text}:player")
        v = resolve_variant(name)
        if "t-formula" not in v.scoring.transforms or players < 3 or players > 4:
            raise SystemExit(f"{text}: needs a t-formula variant at 3 or 4 players")
        rows.append((name, players))
    for what, value, least in (("--hands", args.hands, 8), ("--top", args.top, 2),
                               ("--population", args.population, 100),
                               ("--rollouts", min(args.rollouts), 2)):  # fmt: skip
        if value < least:
            raise SystemExit(f"{what} must be at least {least}, got {value}")
    done = [measure(row, args) for row in rows]
    args.out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(done, indent=1) + "\n"
    atomic_write(args.out / "tformula-features.json", lambda tmp: tmp.write_text(text, "utf-8"))
    md = render(done)
    atomic_write(args.out / "tformula-features.md", lambda tmp: tmp.write_text(md, "utf-8"))
    print(md)


if __name__ == "__main__":
    main()
