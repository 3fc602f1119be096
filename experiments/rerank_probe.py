"""Would re-ranking the default's best splits on a few hundred sampled tables cut its regret?

The default's regret sits in the order of near candidates (the split the rollouts pick is
mostly among its model's best few).  This study asks what re-ranking those few would recover,
and whether the re-ranking needs the hand's own card removal.  For each dealt hand of one seat:

* the regret protocol's candidates (the default's choice and the hand's Pareto front) are
  scored on ``--rollouts`` selection and evaluation deals of the other cards to opponents who
  play the default (:func:`simkit.regret.regret`'s scoring);
* the default's choice and its model's ``top`` best other front splits are re-ranked on ``m``
  further deals, (a) **rollouts**: the other 39 cards dealt at random, so the opponents hold
  only cards the hand lacks, and (b) **population**: ``m`` tables of three opponents drawn
  from ``--tables`` self-play tables dealt independently of the hand (set by the default,
  scored under the full rules: the t-formula, scoops and home runs exact, the opponents'
  cards not conditioned on the hand);
* each re-ranking keeps its best (the default's choice on a tie), valued on the evaluation
  deals against the best picked on the selection deals: its regret, and its gain over the
  default's hand by hand (95% CI).

    PYTHONPATH=. python experiments/rerank_probe.py [--variant guangxi] [--hands 1200]
        [--rollouts 1000 1000] [--m 512] [--tables 40000] [--seed 5] [--jobs 2]

Writes results/strategy/rerank-probe.md and .json.  The figures depend on ``--parts`` (hands
are measured in that many chunks, each re-ranking draws from its chunk's stream), never on
``--jobs``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from removal_buckets import hand_shape

from simkit.arrange import legal_splits, pareto_front, split_values
from simkit.arrange.api import arrangements
from simkit.arrange.rerank import kept_order, window_bar
from simkit.arrange.strategies import RERANK_CAP, ExpectedScore, ExpectedScoreRerank
from simkit.deal import as_generator, deal
from simkit.evaluate import dun_ranks
from simkit.parallel import run_ordered
from simkit.regret import Z95, _points_on_rollouts, _rollout_hands
from simkit.score import score
from simkit.splits import split_positions
from simkit.variants import Variant, resolve_variant

ROOT = Path(__file__).resolve().parents[1]
HAND = 13
#: re-ranking sizes reported: the default's choice and its model's ``top`` best others
TOPS = (2, 4, 8)


def population(variant: str, players: int, n_tables: int, seed: np.random.SeedSequence) -> Any:
    """``n_tables`` tables of ``players - 1`` opponents set by the default: their cards
    ``(T, p - 1, 13)``, declared specials ``(T, p - 1)`` and dun ranks ``(T, p - 1, 3)``."""
    v = resolve_variant(variant)
    hands = deal(n_tables, players, rng=as_generator(seed))[:, 1:]
    (arr,) = arrangements([hands.reshape(-1, HAND)], [v], ExpectedScore(), n_players=players, rng=0)
    shape = (n_tables, players - 1)
    cards, ranks = arr.cards.reshape(*shape, HAND), arr.ranks.reshape(*shape, 3)
    return cards, arr.declared.reshape(shape), ranks


def _population_points(cards, v, players, tables, pick):
    """Seat 0's points for each candidate setting ``cards (c, 13)`` against tables ``pick``."""
    pc, pd, pr = tables
    c, m = len(cards), len(pick)
    g = np.empty((c, m, players, HAND), dtype=np.int8)
    g[:, :, 0] = cards[:, None]
    g[:, :, 1:] = pc[pick][None]
    d = np.empty((c, m, players), dtype=np.int8)
    d[:, :, 0] = -1
    d[:, :, 1:] = pd[pick][None]
    r = np.empty((c, m, players, 3), dtype=np.int32)
    r[:, :, 0] = dun_ranks(cards, v)[:, None]
    r[:, :, 1:] = pr[pick][None]
    pts = score(
        g.reshape(-1, players, HAND), v, declared=d.reshape(-1, players),
        ranks=r.reshape(-1, players, 3),
    )  # fmt: skip
    return pts[:, 0].reshape(c, m)


def chunk(variant, players, hands, seeds, rollouts, m, tables, table_seed):
    """Per hand: the candidates (arranged cards, the default's first), their model values and
    mean points on the selection, evaluation and re-ranking rollouts and on the population's
    tables (at m/4, m/2 and m deals)."""
    v = resolve_variant(variant)
    strat = ExpectedScore()
    own, _ = strat.choose_splits(hands, v, n_players=players)
    r_sel, r_eval = rollouts
    gen = np.random.default_rng(table_seed)
    out = []
    for h in range(len(hands)):
        row = hands[h]
        solver = strat.hand_solver(row, v, players)
        ids, ranks = legal_splits(row, v, strict=solver.strict)
        front = pareto_front(ranks)
        cand_ids = np.concatenate([own[h][None], ids[front].astype(np.int64)])
        cards = row[split_positions(cand_ids).astype(np.int64)].astype(np.int8)
        model = split_values(dun_ranks(cards, v), solver)
        n_deals = r_sel + r_eval + m
        opp = _rollout_hands(row.astype(np.int8), players, n_deals, np.random.default_rng(seeds[h]))
        decl = np.full(len(cards), -1, dtype=np.int8)
        (pts,) = _points_on_rollouts([(cards, decl)], opp[None], v, strat, players, 0)
        pop = _population_points(cards, v, players, tables, gen.integers(0, len(tables[0]), m))
        rr = pts[:, r_sel + r_eval :]
        rec = {
            "cards": cards,
            "model": model,
            "sel": pts[:, :r_sel].mean(1),
            "ev": pts[:, r_sel : r_sel + r_eval].mean(1),
        }
        for frac, tag in ((4, "m/4"), (2, "m/2"), (1, "m")):
            rec[f"rollouts {tag}"] = rr[:, : m // frac].mean(1)
            rec[f"population {tag}"] = pop[:, : m // frac].mean(1)
        out.append(rec)
    return out


def _model_top(h: dict[str, np.ndarray], top: int) -> list[int]:
    """The candidates (indices into ``h``'s arrays) the model rates best after the default's
    choice (index 0), at most ``top`` of them; a front split identical to the default's choice
    (it scores identically on every deal) is skipped."""
    order = np.argsort(-h["model"][1:], kind="stable") + 1
    same = (h["sel"] == h["sel"][0]) & (h["ev"] == h["ev"][0])
    return [int(j) for j in order if not same[j]][:top]


def rerank_regret(hands: list[dict[str, np.ndarray]], source: str, top: int) -> np.ndarray:
    """Per hand: the regret of keeping the best of the default's choice and its model's ``top``
    best distinct others by ``source`` (the default's choice on a tie)."""
    out = np.empty(len(hands))
    for i, h in enumerate(hands):
        pick = int(np.argmax(h["sel"]))
        cand = np.array([0, *_model_top(h, top)])
        keep = int(cand[np.argmax(h[source][cand])])
        out[i] = h["ev"][pick] - h["ev"][keep]
    return out


#: Features of the hand that the removal breakdown splits by: (name, what it counts).
HAND_FEATURES = (
    ("high cards", "aces, kings, queens and jacks held"),
    ("pairs", "ranks held twice or more"),
    ("longest suit", "cards of the hand's longest suit"),
)


def hand_features(hand: np.ndarray) -> dict[str, int]:
    """:data:`HAND_FEATURES` of one hand's card ints ``(13,)``
    (:func:`removal_buckets.hand_shape`, whose ``shape`` buckets group hands by them)."""
    return {name: int(value) for name, value in hand_shape(np.asarray(hand)).items()}


def removal_bias(
    hands: np.ndarray, measured: list[dict[str, np.ndarray]], v: Any, top: int = 4
) -> list[dict[str, Any]]:
    """Where the rollouts and the population disagree: for each of the model's ``top`` best
    other splits of a hand, how much more the rollouts (the hand's own deals) than the
    population prefer it to the default's choice, ``(roll[c] - roll[0]) - (pop[c] - pop[0])``,
    on all ``m`` deals; grouped by whether the split's front is weaker than the default's, the
    same or stronger, overall and by the hand's features (thirds of the hands).  A mean off
    zero is card removal changing the order of the splits (the deal noise averages out)."""
    records = []
    for i, h in enumerate(measured):
        others = _model_top(h, top)
        if not others:
            continue
        ranks = dun_ranks(h["cards"][[0, *others]], v)
        feats = hand_features(hands[i])
        for k, j in enumerate(others):
            shift = (h["rollouts m"][j] - h["rollouts m"][0]) - (
                h["population m"][j] - h["population m"][0]
            )
            front = int(np.sign(ranks[k + 1, 0] - ranks[0, 0]))
            records.append((front, shift, feats))
    rows = []
    fronts = {-1: "weaker", 0: "the same", 1: "stronger"}
    for front, label in fronts.items():
        group = [(s, f) for fr, s, f in records if fr == front]
        if len(group) < 2:
            continue
        shifts = np.array([s for s, _ in group])
        rows.append(
            {"front": label, "feature": "all", "values": "", **_ci(shifts), "n": len(group)}
        )
        for name, _ in HAND_FEATURES:
            values = np.array([f[name] for _, f in group])
            cuts = np.unique(np.quantile(values, [1 / 3, 2 / 3]))
            bins = np.digitize(values, cuts, right=True)
            for b in np.unique(bins):
                sel = shifts[bins == b]
                if sel.size < 2:
                    continue
                vals = values[bins == b]
                rows.append(
                    {"front": label, "feature": name, "values": f"{vals.min()}–{vals.max()}",
                     **_ci(sel), "n": int(sel.size)}
                )  # fmt: skip
    return rows


def _ci(x: np.ndarray) -> dict[str, float]:
    se = float(x.std(ddof=1) / math.sqrt(x.size))
    return {"mean": float(x.mean()), "se": se, "ci95": Z95 * se}


def mean_ci95(x: np.ndarray) -> dict[str, float]:
    """The mean of ``x`` and its 95% CI's half width, as the studies of the probe file
    report them."""
    return {"mean": float(x.mean()), "ci95": Z95 * float(x.std(ddof=1)) / math.sqrt(x.size)}


class ProbeHand(NamedTuple):
    """One hand of a probe file, as the studies of expected-score-rerank's list read it:
    its cards, its candidates' mean points on the evaluation rollouts (``ev``) and the best
    one's by the selection rollouts (``best``), their values under expected-score
    (``first``) and under expected-score-rerank's objective (``own``), and the candidates in
    expected-score's order, one per class triple (``kept``, indices), and the candidates'
    dun ranks (``ranks``)."""

    hand: np.ndarray
    ev: np.ndarray
    best: float
    first: np.ndarray
    own: np.ndarray
    kept: np.ndarray
    ranks: np.ndarray


#: The re-ranking objective of the list studies (``rerank_top.py``, ``rerank_wide.py``): the
#: one they chose the list by, before the home run against was priced by its own rate
#: (``home_rate``; ``rerank_home.py`` studies that).
LIST_STUDY_RERANK = ExpectedScoreRerank(home_rate=0.0)


def probe_hands(
    probe: Path, v: Variant, players: int, rerank: ExpectedScoreRerank = LIST_STUDY_RERANK
) -> Iterator[ProbeHand]:
    """The hands of the probe file ``probe`` (``--save-hands``) of ``v`` at ``players``,
    each with its candidates valued (:class:`ProbeHand`; ``own`` by ``rerank``'s objective);
    exits where no card-removal model ships for the row."""
    default = ExpectedScore()
    if rerank.removal_model(v, players) is None:
        raise SystemExit(f"no card-removal model ships for {v.name} at {players} players")
    with np.load(probe) as z:
        for i, hand in enumerate(z["hands"]):
            sel, ev = z[f"sel/{i}"], z[f"ev/{i}"]
            ranks = dun_ranks(z[f"cards/{i}"], v)
            first = split_values(ranks, default.hand_solver(hand, v, players))
            own = split_values(ranks, rerank.hand_solver(hand, v, players))
            kept = kept_order(first, ranks, front_first=True)
            yield ProbeHand(hand, ev, float(ev[int(np.argmax(sel))]), first, own, kept, ranks)


def list_head(h: ProbeHand, length: int, window: float) -> np.ndarray:
    """The candidates of ``h`` a list keeps, as :func:`simkit.arrange.rerank.top_splits`
    keeps splits: the first ``length`` in expected-score's order, those under the window's
    bar (:func:`~simkit.arrange.rerank.window_bar` of the first's value, the strategy's cap)
    left out (indices)."""
    head = h.kept[:length]
    return head[h.first[head] + 1e-9 >= window_bar(h.first[head[0]], window, RERANK_CAP)]


def list_regret(h: ProbeHand, head: np.ndarray, own: np.ndarray) -> float:
    """The regret of the candidate of ``head`` that ``own`` values highest (the first on a
    tie): the rollouts' best less its evaluation points."""
    return h.best - h.ev[head[int(np.argmax(own[head]))]]


def probe_args(description: str) -> argparse.Namespace:
    """The command line of a study that reads the probe file ``--save-hands`` writes
    (``--probe``, ``--variant``, ``--players``, ``--out``), checked: the file exists."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--probe", type=Path, required=True, help="rerank_probe.py --save-hands NPZ")
    ap.add_argument("--variant", default="guangxi")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "strategy")
    a = ap.parse_args()
    if not a.probe.exists():
        raise SystemExit(f"no such probe file: {a.probe} (rerank_probe.py --save-hands makes it)")
    return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="guangxi")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=1200)
    ap.add_argument("--rollouts", type=int, nargs=2, default=(1000, 1000))
    ap.add_argument("--m", type=int, default=512, help="re-ranking deals (default 512)")
    ap.add_argument("--tables", type=int, default=40000, help="population tables")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--parts", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "strategy")
    ap.add_argument(
        "--save-hands", type=Path, default=None, metavar="NPZ",
        help="also save each hand's cards and per-candidate values here (for a closer look)",
    )  # fmt: skip
    a = ap.parse_args()
    resolve_variant(a.variant)
    if not 2 <= a.players <= 4 or a.m < 4 or a.hands < a.parts or a.parts < 1:
        raise SystemExit("--players 2-4, --m ≥ 4, 1 ≤ --parts ≤ --hands")
    a.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    deal_seed, roll_seed, table_seed, pick_seed = np.random.SeedSequence(a.seed).spawn(4)
    tables = population(a.variant, a.players, a.tables, table_seed)
    hands = deal(a.hands, a.players, rng=as_generator(deal_seed))[:, 0]
    seeds = roll_seed.spawn(a.hands)
    bounds = [k * a.hands // a.parts for k in range(a.parts + 1)]
    # simkit's runner: its workers end with this process, however it ends
    parts = list(run_ordered(chunk, [
        (a.variant, a.players, hands[lo:hi], seeds[lo:hi], tuple(a.rollouts), a.m, tables,
         pick_seed.spawn(a.parts)[k])
        for k, (lo, hi) in enumerate(itertools.pairwise(bounds))
    ], n_jobs=a.jobs))  # fmt: skip
    measured = [rec for part in parts for rec in part]
    if a.save_hands is not None:
        arrays = {f"{k}/{i}": v for i, rec in enumerate(measured) for k, v in rec.items()}
        np.savez_compressed(a.save_hands, hands=hands, **arrays)
    base = np.array([h["ev"][int(np.argmax(h["sel"]))] - h["ev"][0] for h in measured])
    rows = []
    for source in ("rollouts", "population"):
        for tag, deals in (("m/4", a.m // 4), ("m/2", a.m // 2), ("m", a.m)):
            for top in TOPS:
                r = rerank_regret(measured, f"{source} {tag}", top)
                rows.append(
                    {"source": source, "deals": deals, "top": top, "regret": _ci(r),
                     "gain": _ci(base - r)}
                )  # fmt: skip
    bias = removal_bias(hands, measured, resolve_variant(a.variant))
    elapsed = time.perf_counter() - start
    command = (
        f"experiments/rerank_probe.py --variant {a.variant} --players {a.players} --hands "
        f"{a.hands} --rollouts {a.rollouts[0]} {a.rollouts[1]} --m {a.m} --tables {a.tables} "
        f"--seed {a.seed} --parts {a.parts}"
    )
    meta = {"command": command, "seconds": round(elapsed, 1), "jobs": a.jobs,
            "default_regret": _ci(base),
            "median_candidates": float(np.median([len(h["sel"]) for h in measured]))}  # fmt: skip
    (a.out / "rerank-probe.json").write_text(
        json.dumps({"meta": meta, "rows": rows, "removal": bias}, indent=2) + "\n",
        encoding="utf-8",
    )
    d = meta["default_regret"]
    lines = [
        f"# Re-ranking the default's best splits: rollouts against a population ({a.variant}, "
        f"{a.players} players)",
        "",
        "\n\n".join((__doc__ or "").split("\n\n")[1:3]),
        "",
        f"{a.hands} hands, {a.rollouts[0]} + {a.rollouts[1]} rollouts (expected-score "
        f"opponents), re-ranking on up to {a.m} deals, population of {a.tables:,} tables; "
        f"the default's regret on these hands: **{d['mean']:.4f} ± {d['ci95']:.4f}** (95% CI). "
        f"Reproduce: `PYTHONPATH=. python {command} --jobs J` ({elapsed / 60:.1f} min here "
        f"with {a.jobs} processes).",
        "",
        "| re-ranked on | deals | candidates | regret | gain over the default (paired) |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['source']} | {r['deals']} | default + {r['top']} | "
            f"{r['regret']['mean']:.4f} ± {r['regret']['ci95']:.4f} | "
            f"{r['gain']['mean']:+.4f} ± {r['gain']['ci95']:.4f} |"
        )
    lines += [
        "",
        "## Where they disagree: card removal",
        "",
        (removal_bias.__doc__ or "").split("\n\n")[0].replace("\n    ", " ").replace("``", "`"),
        "",
        "| the split's front | hands by | values | rollouts' extra preference | splits compared |",
        "|---|---|---|---|---|",
    ]
    for r in bias:
        lines.append(
            f"| {r['front']} | {r['feature']} | {r['values']} | "
            f"{r['mean']:+.3f} ± {r['ci95']:.3f} | {r['n']} |"
        )
    (a.out / "rerank-probe.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"rerank-probe: {len(rows)} rows → {a.out / 'rerank-probe.md'}")


if __name__ == "__main__":
    main()
