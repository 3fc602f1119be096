"""How volatile the default variant is with each deck: two decks, a fifth suit, jokers.

For ``guangxi`` and each of its deck options (``simkit.variants.deck_option_names()`` that
extend it) at 4 players, and at 5 players for the fifth suit (beside ``guangxi`` at 5, which
deals its usual two decks) and 6 players for two decks, the default strategy plays
``--batches`` independent runs of ``--batch-games`` deals each (``simkit.simulate``, one
process).  Each deck is its own run on its own deals: decks hold different cards, so the
comparisons between rows are **not paired** (independent samples; a difference's SE is the root
of the sum of the squared SEs).

Per row it records:

- ``sd``: the SD of a player's score per game (every seat pooled; guangxi has no banker), with
  two SEs: ``sd_se`` by batch means (the spread of the batches' SDs / √batches) and
  ``sd_se_delta``, the delta method on the per-deal moments (``result["scores"]``, seat
  ``all``), combined over the batches; the 95% CI is ``sd ± 1.96 sd_se``;
- ``mean_abs``: the mean |score| (from ``result["score_distribution"]``; ``tail`` counts the
  hands beyond its bins, 0 here), SE by batch means;
- the rate of each special declared per hand (``result["specials"]``, ``declared_freq``) and
  of any special (``result["events"]``, ``declared``), SEs with the game as the unit;
- the category shares of the back, middle and front among hands played normally
  (``result["dun_categories"]``);
- the win tables ``max-ev`` played: deck options have none trained of their own, so
  ``simulate`` warns and takes guangxi's at that player count (``win_tables_warning``).

    python -m experiments.pipelines.deck_volatility [--batches 20] [--batch-games 2048] [--seed 0]

Writes results/decks/volatility.json and volatility.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange import DEFAULT_STRATEGY
from simkit.simulate import simulate
from simkit.statistics import SCORE_HALF_WIDTH
from simkit.summary import Z95
from simkit.variants import deck_option_names, resolve_variant

ROOT = Path(__file__).resolve().parents[2]
BASE = "guangxi"
#: (variant, players) beyond every deck option at 4 players: the fifth suit serves a fifth
#: player (beside guangxi at 5, two decks); two decks at 6 (the same deck guangxi deals at 6).
EXTRA_ROWS = (
    (BASE, 5),
    ("guangxi-five-suits", 5),
    ("guangxi-two-decks", 6),
)


def runs() -> list[tuple[str, int]]:
    """(variant, players) of every row: guangxi and each of its deck options at 4, then
    :data:`EXTRA_ROWS`."""
    options = [n for n in deck_option_names() if n.startswith(f"{BASE}-")]
    return [(BASE, 4), *((n, 4) for n in options), *EXTRA_ROWS]


def batch_seeds(seed: int, batches: int) -> list[int]:
    """Independent seeds, one a batch (children of ``SeedSequence(seed)``)."""
    children = np.random.SeedSequence(seed).spawn(batches)
    return [int(c.generate_state(1)[0]) for c in children]


def _batch_mean(values: list[float]) -> tuple[float, float]:
    x = np.asarray(values, dtype=float)
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size))


def _pooled_rate(rows: list[dict[str, Any]], count: str, n: str, se: str) -> dict[str, float]:
    """A rate pooled over batches: Σcount / Σn; SE from each batch's (clustered) SE."""
    total = sum(int(r[n]) for r in rows)
    k = sum(int(r[count]) for r in rows)
    var = sum((int(r[n]) * float(r[se])) ** 2 for r in rows if not math.isnan(float(r[se])))
    rate = k / total if total else math.nan
    return {
        "count": k,
        "n": total,
        "rate": rate,
        "se": math.sqrt(var) / total if total else math.nan,
    }


def measure(name: str, players: int, seeds: list[int], batch_games: int) -> dict[str, Any]:
    """One row: ``len(seeds)`` runs of ``batch_games`` deals of ``name`` at ``players``."""
    variant = resolve_variant(name)
    sds, sd_ses, abs_means, tails, caught = [], [], [], 0, []
    s1 = s2 = 0.0
    hands = 0
    specials: dict[str, list[dict[str, Any]]] = {}
    declared: list[dict[str, Any]] = []
    duns: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for seed in seeds:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            result = simulate(
                variant,
                batch_games,
                players,
                strategy=DEFAULT_STRATEGY,
                seed=seed,
                n_jobs=1,
                progress=False,
            )
        caught += [str(w.message) for w in seen if "win tables" in str(w.message)]
        row = result["scores"].filter(seat="all").row(0, named=True)
        sds.append(row["sd"])
        sd_ses.append(row["sd_se"])
        n = int(row["n"])
        hands += n
        s1 += row["mean"] * n
        s2 += row["sd"] ** 2 * (n - 1) + row["mean"] ** 2 * n
        dist = result["score_distribution"].filter(seat="all")
        inner = dist.filter(dist["score"].abs() <= SCORE_HALF_WIDTH)
        tails += int(dist["count"].sum() - inner["count"].sum())
        abs_means.append(float((dist["score"].abs() * dist["freq"]).sum()))
        for r in result["specials"].iter_rows(named=True):
            specials.setdefault(r["special"], []).append(r)
        declared.append(result["events"].filter(event="declared").row(0, named=True))
        for r in result["dun_categories"].iter_rows(named=True):
            duns.setdefault((r["position"], r["category"]), []).append(r)
    sd_pooled = math.sqrt((s2 - s1 * s1 / hands) / (hands - 1))
    _, sd_se = _batch_mean(sds)
    mean_abs, mean_abs_se = _batch_mean(abs_means)
    warned = sorted(set(caught))
    return {
        "variant": name,
        "players": players,
        "deck": variant.deck_for(players).describe(),
        "games": len(seeds) * batch_games,
        "batches": len(seeds),
        "sd": sd_pooled,
        "sd_se": sd_se,
        "sd_se_delta": math.sqrt(sum(s * s for s in sd_ses)) / len(sd_ses),
        "sd_ci_low": sd_pooled - Z95 * sd_se,
        "sd_ci_high": sd_pooled + Z95 * sd_se,
        "mean_abs": mean_abs,
        "mean_abs_se": mean_abs_se,
        "tail": tails,
        "declared": _pooled_rate(declared, "count", "n", "se"),
        "specials": [
            {"special": sid, "name": rs[0]["name"]}
            | _pooled_rate(rs, "declared_count", "n", "declared_se")
            for sid, rs in specials.items()
        ],
        "dun_categories": [
            {"position": pos, "category": cat} | _pooled_rate(rs, "count", "n", "se")
            for (pos, cat), rs in duns.items()
        ],
        "win_tables": "fallback" if warned else "own",
        "win_tables_warning": "; ".join(warned),
    }


def markdown(meta: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    lines = [
        "# Volatility of guangxi with each deck",
        "",
        f"{meta['batches']} independent runs of {meta['batch_games']:,} deals per row "
        f"({meta['games']:,} deals), strategy `{meta['strategy']}`, seed {meta['seed']}. "
        "Each deck is its own run on its own deals: rows are **not paired**. "
        "`SD`: a player's score per game (all seats pooled), ± its SE by batch means "
        "(`delta`: the delta-method SE, for comparison), 95% CI. `mean |score|` ± SE (batch "
        "means). `declared`: hands declaring any special. Win tables: the column says whose set "
        "the hands (`own`: trained on that deck's pack, `experiments/pipelines/train_tables.py`). "
        "guangxi at 5 players deals its usual two decks; `guangxi-two-decks` at 6 is the "
        "deck guangxi plays at 6.",
        "",
        "| variant | players | deck | games | SD ± SE | 95% CI | delta SE | mean abs score | "
        "declared | win tables |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        d = r["declared"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['deck']} | {r['games']:,} | "
            f"{r['sd']:.3f} ± {r['sd_se']:.3f} | {r['sd_ci_low']:.3f} to {r['sd_ci_high']:.3f} | "
            f"{r['sd_se_delta']:.3f} | {r['mean_abs']:.3f} ± {r['mean_abs_se']:.3f} | "
            f"{d['rate']:.4%} ± {d['se']:.4%} | {r['win_tables']} |"
        )
    lines += ["", "## Specials declared (per hand)", ""]
    ids = [s["special"] for s in rows[0]["specials"]]
    header = [f"{r['variant']} {r['players']}p" for r in rows]
    lines += ["| special | " + " | ".join(header) + " |", "|---|" + "---:|" * len(rows)]
    for sid in ids:
        cells = []
        for r in rows:
            s = next((s for s in r["specials"] if s["special"] == sid), None)
            cells.append(f"{s['rate']:.3e} ± {s['se']:.1e}" if s else "—")
        lines.append(f"| {sid} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Dun categories among hands played normally (share ± SE)",
        "",
        "With the fifth suit, STRAIGHT_FLUSH here includes 五彩同花顺 (ranked in that category, "
        "below every real straight flush); the exact tables count it apart.",
        "",
    ]
    for position in ("back", "middle", "front"):
        cats: list[str] = []
        for r in rows:
            for c in r["dun_categories"]:
                if c["position"] == position and c["category"] not in cats and c["count"]:
                    cats.append(c["category"])
        lines += [f"### {position}", "", "| category | " + " | ".join(header) + " |"]
        lines.append("|---|" + "---:|" * len(rows))
        for cat in cats:
            cells = []
            for r in rows:
                c = next(
                    (
                        c
                        for c in r["dun_categories"]
                        if c["position"] == position and c["category"] == cat
                    ),
                    None,
                )
                cells.append(f"{c['rate']:.4f} ± {c['se']:.4f}" if c else "—")
            lines.append(f"| {cat} | " + " | ".join(cells) + " |")
        lines.append("")
    warned = sorted({r["win_tables_warning"] for r in rows if r["win_tables_warning"]})
    lines += ["## Warnings simulate gave", ""] + [f"- {w}" for w in warned] + [""]
    lines.append(f"Reproduce: `python {meta['command']}` ({meta['seconds'] / 60:.1f} min here).")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--batch-games", type=int, default=2048)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "decks")
    args = parser.parse_args()
    if args.batches < 2:
        sys.exit("--batches: at least 2 (the SEs are batch means)")
    seeds = batch_seeds(args.seed, args.batches)
    start = time.perf_counter()
    rows = []
    for name, players in runs():
        t = time.perf_counter()
        rows.append(measure(name, players, seeds, args.batch_games))
        r = rows[-1]
        print(
            f"{name} {players}p: SD {r['sd']:.3f} ± {r['sd_se']:.3f} "
            f"({time.perf_counter() - t:.0f} s)",
            flush=True,
        )
    command = (  # without "python": the report shows it as `python {command}`
        f"-m experiments.pipelines.deck_volatility --batches {args.batches} "
        f"--batch-games {args.batch_games} --seed {args.seed}"
    )
    meta = {
        "base": BASE,
        "batches": args.batches,
        "batch_games": args.batch_games,
        "games": args.batches * args.batch_games,
        "seed": args.seed,
        "batch_seeds": seeds,
        "strategy": DEFAULT_STRATEGY,
        "paired": False,
        "command": command,
        "seconds": time.perf_counter() - start,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "volatility.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    (args.out / "volatility.md").write_text(markdown(meta, rows), encoding="utf-8")
    print(f"volatility: {len(rows)} rows → {args.out}")


if __name__ == "__main__":
    main()
