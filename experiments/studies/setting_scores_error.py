"""How far each way of valuing a set hand is from its expected score, per hand.

For dealt hands of each variant (the default strategy's own split of each), three figures of
the seat's expected points per game under the full rules, against opponents playing the default
strategy:

* ``reference``: :func:`simkit.regret.rollout_values` on ``--reference`` deals (an independent
  seed stream), with its standard error;
* ``score``: what ``simkit arrange`` prints, :func:`simkit.setting_scores.expected_scores`;
* ``calibrated``: the strategy's value through the 32-bin monotone maps of
  :mod:`simkit.phases.expected` (fitted on 16,384 deals; by seat role in banker variants:
  (p-1) x banker_vs_player for the banker, player_vs_banker for a player facing it, (p-1) x
  vs_table elsewhere).

Per row: the distribution of |figure - reference| over hands (mean, RMS, 90th percentile,
max), the reference's mean SE, and the share of hands within max(0.2, 2 SE of the reference).

    python -m experiments.studies.setting_scores_error [--hands 12] [--reference 20000]

Writes results/arrange/setting-scores.md.  ``--cases`` instead prints the figures of the
agreement test (``tests/test_setting_scores.py``, its hands, settings and seeds) as a table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from simkit.arrange import arrangements
from simkit.deal import deal
from simkit.phases.expected import expected_score
from simkit.regret import rollout_values
from simkit.setting_scores import OPPONENTS, expected_scores
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[2]
ROWS = (
    ("western-2-4", 2, "player"),
    ("guangxi", 4, "player"),
    ("taiwan", 4, "banker"),
    ("taiwan", 4, "player"),
    ("qiantang", 4, "player"),
)


def calibrated(es, v, p, seat, value, declared):  # type: ignore[no-untyped-def]
    if v.scoring.topology == "banker":
        if seat == "banker":
            return (p - 1) * es.banker_vs_player(value, declared)
        return es.player_vs_banker(value, declared)
    return (p - 1) * es.vs_table(value, declared)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=12, help="hands per row (default 12)")
    parser.add_argument("--reference", type=int, default=20_000, help="reference deals")
    parser.add_argument("--seed", type=int, default=7, help="deals the hands (default 7)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "arrange")
    parser.add_argument("--cases", action="store_true", help="print the agreement test's figures")
    args = parser.parse_args()
    if args.cases:
        print_cases()
        return
    lines = [
        "# Per-hand error of a set hand's expected score",
        "",
        f"`python -m experiments.studies.setting_scores_error --hands {args.hands} "
        f"--reference {args.reference} --seed {args.seed}`: for each row, {args.hands} dealt "
        f"hands (seat 0 of `deal(n, p, rng={args.seed})`), set by {OPPONENTS}; |figure − "
        f"reference| over hands, the reference a rollout on {args.reference:,} deals of an "
        "independent stream against opponents playing the default strategy. `score` is what "
        "`simkit arrange` prints (seeded rollouts until SE ≤ 0.05 or 40,000 deals); "
        "`calibrated` the strategy's value through the 32-bin maps of `simkit.phases.expected` "
        "(by seat role). Within: share of hands with |error| ≤ max(0.2, 2 SE of the reference).",
        "",
        "| variant | players | seat | figure | mean abs | RMS | p90 | max | within | ref SE |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    start = time.perf_counter()
    for name, p, seat in ROWS:
        v = resolve_variant(name)
        es = expected_score(v, p, OPPONENTS)
        hands = deal(args.hands, p, rng=np.random.default_rng(args.seed))[:, 0]
        (play,) = arrangements([hands], [v], OPPONENTS, n_players=p)
        err: dict[str, list[float]] = {"score": [], "calibrated": []}
        ref_se, tol = [], []
        for h in range(args.hands):
            setting, decl = play.cards[h][None], play.declared[h][None]
            ref, se = rollout_values(
                hands[h], setting, v, p, rollouts=args.reference, seed=10_000 + h, seat=seat,
                opponents=OPPONENTS, declared=decl,
            )  # fmt: skip
            ours = expected_scores(hands[h], setting, v, p, seat=seat, declared=decl, cache=False)
            cal = calibrated(es, v, p, seat, play.value[h], play.declared[h])
            err["score"].append(float(ours.mean[0] - ref[0]))
            err["calibrated"].append(float(cal - ref[0]))
            ref_se.append(float(se[0]))
            tol.append(max(0.2, 2 * float(se[0])))
            print(
                f"{name} {p} {seat} hand {h}: reference {ref[0]:+.3f} ± {se[0]:.3f}, "
                f"score {ours.mean[0]:+.3f} ± {ours.se[0]:.3f} ({ours.deals} deals), "
                f"calibrated {float(cal):+.3f}",
                flush=True,
            )
        for figure, e in err.items():
            a = np.abs(np.array(e))
            within = float(np.mean(a <= np.array(tol)))
            lines.append(
                f"| {name} | {p} | {seat if v.scoring.topology == 'banker' else 'any'} | "
                f"{figure} | {a.mean():.3f} | {np.sqrt((a**2).mean()):.3f} | "
                f"{np.quantile(a, 0.9):.3f} | {a.max():.3f} | {within:.0%} | "
                f"{np.mean(ref_se):.3f} |"
            )
    lines += ["", f"Time: {time.perf_counter() - start:.0f} s.", ""]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "setting-scores.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


def print_cases() -> None:
    """The agreement test's hands, settings and figures, one table row per setting."""
    from simkit.arrange import as_strategy, horse_copies, split_values
    from simkit.evaluate import dun_ranks
    from tests.test_setting_scores import CASES, REFERENCE_DEALS, _best_and_worse, _hand

    print(
        "| variant | players | seat | hand | setting | model | score (deals) | reference "
        "| difference | in SE of the difference |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for variant, p, seat, deal_seed in CASES:
        v = resolve_variant(variant)
        hand = (
            _hand()
            if deal_seed is None
            else np.sort(deal(1, p, rng=np.random.default_rng(deal_seed))[0, 0])
        )
        settings = _best_and_worse(hand, v, p)
        ours = expected_scores(hand, settings, v, p, seat=seat, cache=False)
        ref, ref_se = rollout_values(
            hand, settings, v, p, rollouts=REFERENCE_DEALS, seed=12_345, seat=seat,
            opponents=OPPONENTS,
        )  # fmt: skip
        solver = as_strategy(OPPONENTS).solver(v, p)  # type: ignore[attr-defined]
        horse = horse_copies(settings, solver.horse_card) if solver.horse_card >= 0 else None
        model = split_values(dun_ranks(settings, v), solver, horse)
        for k, which in enumerate(("best", "worse")):
            diff = ours.mean[k] - ref[k]
            print(
                f"| {variant} | {p} | {seat} | "
                f"{'README' if deal_seed is None else f'deal seed {deal_seed}'} | {which} | "
                f"{model[k]:+.3f} | {ours.mean[k]:+.3f} ± {ours.se[k]:.3f} ({ours.deals:,}) | "
                f"{ref[k]:+.3f} ± {ref_se[k]:.3f} | {diff:+.3f} | "
                f"{abs(diff) / np.hypot(ours.se[k], ref_se[k]):.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
