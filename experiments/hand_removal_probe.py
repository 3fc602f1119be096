"""How large a pool, and how much shrinkage, expected-score-hand needs: chosen on the rerank
probe's hands, never on the regret protocol's.

``rerank_probe.py --save-hands`` keeps, for each of its hands, the regret protocol's
candidates (the default's choice and the hand's Pareto front) with their mean points on the
selection and evaluation rollouts (1000 + 1000, expected-score opponents).  Here each
candidate is valued under the hand's own conditioned tables
(:func:`simkit.arrange.conditioned.hand_tables`) for a pool of each size and each shrinkage
prior, the best kept (the default's choice on a tie) and valued on the evaluation rollouts
against the best picked on the selection rollouts: the regret of that objective over the
candidates, and its gain over the default's, hand by hand (95% CI).

    PYTHONPATH=. python experiments/rerank_probe.py --variant guangxi --hands 1200 \\
        --rollouts 1000 1000 --m 512 --seed 5 --save-hands probe.npz
    PYTHONPATH=. python experiments/hand_removal_probe.py --probe probe.npz

Writes results/strategy/hand-removal-probe.md and .json.
"""

from __future__ import annotations

import json
import time

import numpy as np
from rerank_probe import mean_ci95, probe_args  # experiments/ is on sys.path as a script

from simkit.arrange import ExpectedScoreHand, split_values
from simkit.arrange.conditioned import POOL_HANDS, SHRINK_PRIOR
from simkit.evaluate import dun_ranks
from simkit.variants import resolve_variant

POOLS = (32768, 65536, 131072, 262144, 524288, 1048576)
PRIORS = (0.0, 100.0, SHRINK_PRIOR, 1000.0)


def main() -> None:
    a = probe_args(__doc__.split("\n")[0])
    v = resolve_variant(a.variant)
    start = time.perf_counter()
    with np.load(a.probe) as z:
        hands = z["hands"]
        keys = ("cards", "sel", "ev", "model")
        measured = [{k: z[f"{k}/{i}"] for k in keys} for i in range(len(hands))]
    best = np.array([h["ev"][int(np.argmax(h["sel"]))] for h in measured])

    def regret_of(keep: np.ndarray) -> np.ndarray:
        """Per hand: what keeping candidate ``keep[i]`` gives away (0: the default's choice)."""
        return best - np.array([h["ev"][k] for h, k in zip(measured, keep, strict=True)])

    def picks(strategy: ExpectedScoreHand) -> np.ndarray:
        """The candidate the hand's own objective rates best (the first of equal values: the
        default's choice)."""
        return np.array(
            [int(np.argmax(split_values(dun_ranks(h["cards"], v),
                                        strategy.hand_solver(hands[i], v, a.players))))
             for i, h in enumerate(measured)]
        )  # fmt: skip

    default = regret_of(np.zeros(len(hands), dtype=np.int64))
    rows = []
    chosen = {}
    for size in POOLS:
        for prior in PRIORS:
            # the pool and prior were chosen on the places-free strategy (before the places
            # came on by default), which its table records
            chosen[size, prior] = picks(
                ExpectedScoreHand(prior=prior, pool_hands=size, places=False)
            )
            regret = regret_of(chosen[size, prior])
            rows.append(
                {"pool": size, "prior": prior, "regret": mean_ci95(regret),
                 "gain": mean_ci95(default - regret)}
            )  # fmt: skip
            print(rows[-1], flush=True)
    # Gating: condition only some hands (to keep the default's speed), by the default's own
    # value of its split (the strongest hands) or by its margin over the next candidate (the
    # close calls); the shipped pool and prior
    shipped = chosen[POOL_HANDS, SHRINK_PRIOR]
    value = np.array([h["model"][0] for h in measured])
    margin = np.array(
        [h["model"][0] - max((x for x in h["model"][1:] if x < h["model"][0]), default=-np.inf)
         for h in measured]
    )  # fmt: skip
    gates = []
    for share in (0.1, 0.2, 0.3, 0.5, 1.0):
        for by, key in (("value", value), ("margin", -margin)):
            on = key >= np.quantile(key, 1.0 - share) if share < 1.0 else np.ones(len(hands), bool)
            gates.append(
                {"share": share, "by": by, "regret": mean_ci95(regret_of(np.where(on, shipped, 0)))}
            )
            if share == 1.0:
                break
    elapsed = time.perf_counter() - start
    meta = {
        "variant": a.variant,
        "players": a.players,
        "hands": len(hands),
        "probe": a.probe.name,
        "default_regret": mean_ci95(default),
        "seconds": round(elapsed, 1),
    }
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "hand-removal-probe.json").write_text(
        json.dumps({"meta": meta, "rows": rows, "gates": gates}, indent=2) + "\n",
        encoding="utf-8",
    )
    d = meta["default_regret"]
    lines = [
        "# expected-score-hand's pool and shrinkage, chosen on the rerank probe's hands",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        f"{a.variant}, {a.players} players, {len(hands)} hands (rerank_probe.py seed 5; the "
        f"regret protocol's hands are seed 3's); the default's regret on them: "
        f"**{d['mean']:.4f} ± {d['ci95']:.4f}**.  {elapsed / 60:.1f} min here.",
        "",
        "| pool hands | prior | regret | gain over the default (paired) |",
        "|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['pool']:,} | {r['prior']:g} | {r['regret']['mean']:.4f} ± "
            f"{r['regret']['ci95']:.4f} | {r['gain']['mean']:+.4f} ± {r['gain']['ci95']:.4f} |"
        )
    lines += [
        "",
        "Conditioning only some hands (the rest keep the default's split), the shipped pool "
        "and prior: the hands whose split the default values highest (`value`), or whose "
        "split leads the next candidate by the least (`margin`):",
        "",
        "| hands conditioned | chosen by | regret |",
        "|---|---|---|",
    ]
    for g in gates:
        lines.append(
            f"| {g['share']:.0%} | {g['by'] if g['share'] < 1 else 'all'} | "
            f"{g['regret']['mean']:.4f} ± {g['regret']['ci95']:.4f} |"
        )
    (a.out / "hand-removal-probe.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
