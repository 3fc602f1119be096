"""Could expected-score-rerank re-rank only the hands whose shape gains most, and so run as fast
as the default?  Its cost, and the value its re-ranking adds, by the hand's shape.

The re-ranking's gain is spread over hands of every shape, and its cost too.  For each hand of
``--hands`` dealt ones (the seed of ``bench_rerank.py``): the split the strategy plays and the
default's, both valued under the strategy's own objective (the hand's own tables by the
card-removal model, the t-formula's places and the home rate): the strategy's *modelled gain*
is the difference (never below 0: the default's split is in its list, and the list's best is
kept).  It is what the strategy believes it gains, not its regret: the regret protocol
(``experiments/regret.py``) measures that by rollouts.  Hands are grouped by their trips and
pairs (:func:`~simkit.arrange.rerank.rank_groups`).

Then a rule that re-ranks only some shapes, playing the default's search elsewhere: its share
of the hands, its share of the modelled gain, and its rate, timed as the strategy on the rule's
hands plus the default on the others (CPU time, the best of ``--repeats`` rounds, every run
timed in turn each round, in one process), beside the default and the strategy on every hand.

    .venv/bin/python experiments/rerank_by_shape.py [--hands 8000] [--repeats 9]

Writes results/bench/rerank-by-shape.json and .md.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
from _timing import best_in_turns, run_meta  # experiments/ is on sys.path as a script

from simkit.arrange import ExpectedScoreRerank, max_ev_ids
from simkit.arrange.rerank import keeps_wide, rank_groups, rerank_ids
from simkit.deal import deal
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[1]
ROWS = (("guangxi", 4), ("guangxi-regional", 4))
SEED = 2026  # bench_rerank.py's hands

#: Hand shapes by (trips, pairs): a name and its test, over arrays of both.
SHAPES: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "two trips or more": lambda t, p: t >= 2,
    "one trips, three pairs or more": lambda t, p: (t == 1) & (p >= 3),
    "one trips, two pairs or fewer": lambda t, p: (t == 1) & (p <= 2),
    "no trips, four pairs or more": lambda t, p: (t == 0) & (p >= 4),
    "no trips, three pairs or fewer": lambda t, p: (t == 0) & (p <= 3),
}
#: Rules: the shapes whose hands are re-ranked (the others play the default's search).
RULES: dict[str, tuple[str, ...]] = {
    "every hand (expected-score-rerank)": tuple(SHAPES),
    "hands holding trips": tuple(SHAPES)[:3],
    "the wide list's hands (two trips, or trips and three pairs)": tuple(SHAPES)[:2],
    "none (expected-score)": (),
}


def bench(variant: str, players: int, n_hands: int, repeats: int) -> dict:
    v = resolve_variant(variant)
    strategy = ExpectedScoreRerank()
    model = strategy.removal_model(v, players)
    assert model is not None
    first = strategy.first().solver(v, players)
    own = strategy.solver(v, players)
    hands = np.sort(deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13), axis=1)
    hands = np.ascontiguousarray(hands[:n_hands])
    listed = strategy.rerank_list()
    ids, values, _, _ = rerank_ids(hands, first, own, model, *listed)
    played, _ = strategy.choose_splits(hands, v, n_players=players)
    assert (played == ids).all(), "the strategy plays another list than this study's"
    # the default's split valued under the strategy's objective: a list of that one split
    es_ids, es_own, _, _ = rerank_ids(hands, first, own, model, 1, 0.0, np.inf, 1, 0.0)
    assert (es_ids == max_ev_ids(hands, first)[0]).all()
    gain = values - es_own
    assert gain.min() >= -1e-9, "the list's best fell below the default's split"
    trips, pairs = np.array([rank_groups(h) for h in hands]).T
    of_shape = {name: test(trips, pairs) for name, test in SHAPES.items()}
    assert (np.sum(list(of_shape.values()), axis=0) == 1).all()  # the shapes part the hands
    wide = np.array([keeps_wide(h, strategy.wide_pairs) for h in hands])
    if gain.sum() <= 0.0:
        raise SystemExit("no hand gains by the re-ranking: deal more hands")
    shapes = {}
    for name, mask in of_shape.items():
        seen = bool(mask.any())  # a shape no hand of a small deal holds reads 0
        shapes[name] = {
            "share_of_hands": round(float(mask.mean()), 4),
            "mean_gain": round(float(gain[mask].mean()), 5) if seen else 0.0,
            "share_of_gain": round(float(gain[mask].sum() / gain.sum()), 4),
            "differs": (
                round(float((ids[mask] != es_ids[mask]).any(axis=1).mean()), 4) if seen else 0.0
            ),
        }
    runs: dict[str, Callable[[], object]] = {}
    rule_masks = {}
    for rule, kept in RULES.items():
        rule_masks[rule] = np.zeros(n_hands, dtype=bool)
        for name in kept:
            rule_masks[rule] |= of_shape[name]
    for rule, mask in rule_masks.items():
        on, off = np.ascontiguousarray(hands[mask]), np.ascontiguousarray(hands[~mask])
        runs[rule] = partial(_both, on, off, first, own, model, listed)
    for run in runs.values():  # compile
        run()
    best = best_in_turns(runs, repeats)
    rules = {}
    for rule, mask in rule_masks.items():
        rules[rule] = {
            "share_of_hands": round(float(mask.mean()), 4),
            "share_of_gain": round(float(gain[mask].sum() / gain.sum()), 4),
            "hands_per_s": round(n_hands / best[rule]),
        }
    return {
        "variant": variant,
        "players": players,
        "hands": n_hands,
        "mean_gain": round(float(gain.mean()), 5),
        "wide_list_share": round(float(wide.mean()), 4),
        "shapes": shapes,
        "rules": rules,
    }


def _both(on, off, first, own, model, listed) -> None:
    """The strategy on the hands ``on``, the default's search on ``off``."""
    if len(on):
        rerank_ids(on, first, own, model, *listed)
    if len(off):
        max_ev_ids(off, first)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=8000)
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "bench")
    a = ap.parse_args()
    if a.hands < 4 or a.repeats < 1:
        raise SystemExit("--hands ≥ 4, --repeats ≥ 1")
    a.out.mkdir(parents=True, exist_ok=True)
    rows = [bench(v, p, a.hands, a.repeats) for v, p in ROWS]
    command = f"python experiments/rerank_by_shape.py --hands {a.hands} --repeats {a.repeats}"
    meta = run_meta(command, SEED)
    (a.out / "rerank-by-shape.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )
    lines = [
        "# expected-score-rerank's cost and modelled gain by the hand's shape",
        "",
        f"`{command}` — seed {SEED} (bench_rerank.py's hands), one core, CPU time (best of "
        f"{a.repeats} rounds, every rule timed in turn each round), numba {meta['numba']}, "
        f"{meta['when']}, load average at the end {tuple(meta['load_average'])} (the machine "
        "is shared, so rates are lower bounds and only their ratios in one row compare).  "
        "*Modelled gain*: the strategy's split less the default's, both valued under the "
        "strategy's own objective (the hand's own tables, the places, the home rate): what "
        "the strategy believes it gains, not its regret (the regret protocol measures that, "
        "`results/strategy/regret-hand-4p-2000.md`).  A rule re-ranks the hands of some "
        "shapes and plays the default's search on the others.",
        "",
    ]
    for r in rows:
        lines += [
            f"## {r['variant']}, {r['players']} players: modelled gain {r['mean_gain']} a hand",
            "",
            "| shape | share of hands | mean modelled gain | share of the gain | choices that "
            "differ from the default |",
            "|---|---|---|---|---|",
        ]
        for name, s in r["shapes"].items():
            lines.append(
                f"| {name} | {s['share_of_hands']:.1%} | {s['mean_gain']} | "
                f"{s['share_of_gain']:.1%} | {s['differs']:.1%} |"
            )
        default = r["rules"]["none (expected-score)"]["hands_per_s"]
        lines += [
            "",
            "| rule: re-rank | share of hands | share of the gain | hands/s | against the "
            "default |",
            "|---|---|---|---|---|",
        ]
        for rule, s in r["rules"].items():
            lines.append(
                f"| {rule} | {s['share_of_hands']:.1%} | {s['share_of_gain']:.1%} | "
                f"{s['hands_per_s']:,} | {s['hands_per_s'] / default:.2f}× |"
            )
        lines.append("")
    (a.out / "rerank-by-shape.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
