"""The rule-balance report: one simulation of every variant → tables, figures and a README.

:func:`build_report` runs :func:`simkit.simulate.simulate` on every shipped variant (plus, for
each banker variant, the same rules with the other 食夹棍 setting, so the banker's edge can be
read with and without it), saves the tables as parquet under ``tables/``, draws the figures
under ``figures/`` and writes ``README.md``, the page a reader opens first.
:func:`write_report` does the last two steps from saved tables (no simulation).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from simkit.files import atomic_write, check_output_dir
from simkit.plots import all_figures
from simkit.simulate import SimulationResult, load_result, simulate
from simkit.statistics import POSITIONS
from simkit.variants import DEFAULT_VARIANT, Variant, has_banker, resolve_variants, variant_key

#: Deals of ``simkit report`` by default (each played under every variant): a few minutes on
#: 2 cores, numba compilation included.
DEFAULT_GAMES = 200_000
DEFAULT_SEED = 20_260_101
TOP_CARD = "top-card"


def with_compare(variant: Variant, compare: str) -> Variant:
    """The variant with its dun comparison set to ``compare`` (``full`` or ``top-card``).

    Named ``<name>+<compare>``; its key hashes the changed rules like a loaded variant's.
    """
    scoring = dataclasses.replace(variant.scoring, compare=compare)  # type: ignore[arg-type]
    name = f"{variant.name}+{compare}"
    key = variant_key(name, variant.ranking, variant.specials, scoring)
    return dataclasses.replace(variant, name=name, scoring=scoring, key=key)


def report_variants(
    variants: Any = None, *, banker_toggle: bool = True
) -> tuple[list[Variant], dict[str, str]]:
    """The variants of a report and the win tables of the derived ones.

    Every banker variant is followed by its twin with the other 食夹棍 setting
    (``compare = "top-card"`` ↔ ``"full"``), played with the original's win tables.
    """
    out: list[Variant] = []
    tables: dict[str, str] = {}
    for variant in resolve_variants(variants):
        out.append(variant)
        if banker_toggle and has_banker(variant):
            other = "full" if variant.scoring.compare == TOP_CARD else TOP_CARD
            twin = with_compare(variant, other)
            out.append(twin)
            tables[twin.name] = variant.name
    return out, tables


def build_report(
    out: str | Path,
    *,
    n_games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    variants: Any = None,
    n_players: int = 4,
    strategy: str = "max-ev",
    n_jobs: int = -1,
    chunk_size: int | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    progress: bool | None = None,
) -> Path:
    """Simulate, then write ``out/tables/*.parquet``, ``out/figures/*`` and ``out/README.md``."""
    out = Path(out)
    check_output_dir(out)
    chosen, tables = report_variants(variants)
    result = simulate(
        chosen,
        n_games,
        n_players,
        strategy,
        seed=seed,
        n_jobs=n_jobs,
        chunk_size=chunk_size,
        backend=backend,
        scheduler=scheduler,
        checkpoint=checkpoint,
        progress=progress,
        win_tables=tables,
    )
    result.save(out / "tables")
    return write_report(result, out)


def write_report(result: SimulationResult | str | Path, out: str | Path) -> Path:
    """Draw the figures and write ``README.md`` from a result (or a folder of saved tables)."""
    if not isinstance(result, SimulationResult):
        result = load_result(result)
    out = Path(out)
    check_output_dir(out)
    all_figures(result.tables, out / "figures")
    text = render_markdown(result)
    return atomic_write(out / "README.md", lambda tmp: tmp.write_text(text, encoding="utf-8"))


# --------------------------------------------------------------------------- markdown


def _digits(se: float) -> int:
    """Decimals that show two significant digits of a standard error."""
    if not se or not math.isfinite(se) or se <= 0:
        return 3
    return max(0, min(8, 1 - math.floor(math.log10(se))))


def est(mean: float | None, se: float | None) -> str:
    """``mean ± se`` with the se rounded to two significant digits."""
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "–"
    if se is None or not math.isfinite(se):
        return f"{mean:.3g}"
    d = _digits(se)
    return f"{mean:.{d}f} ± {se:.{d}f}"


def num(x: Any, fmt: str = ".4g") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, float):
        return format(x, fmt)
    return str(x)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _grid(
    table: pl.DataFrame,
    row_key: str,
    row_values: Sequence[Any],
    col_key: str,
    col_values: Sequence[Any],
    mean: str,
    se: str,
    missing: str = "",
) -> list[list[Any]]:
    """Rows of a Markdown table from a long table: one ``est(mean, se)`` cell per (row value,
    column value), ``missing`` where the long table has no such row."""
    rows = []
    for r in row_values:
        row: list[Any] = [r]
        for c in col_values:
            sel = table.filter((pl.col(row_key) == r) & (pl.col(col_key) == c))
            row.append(est(sel[mean][0], sel[se][0]) if sel.height else missing)
        rows.append(row)
    return rows


def _figure(name: str, caption: str) -> str:
    return f"![{caption}](figures/{name}.png)\n\n*{caption}* ([SVG](figures/{name}.svg))"


def render_markdown(result: SimulationResult) -> str:
    """The report page: every table with its uncertainty, and the figures."""
    prov = result.provenance
    t = result.tables
    names = result.variant_names
    base = DEFAULT_VARIANT if DEFAULT_VARIANT in names else names[0]
    n_games = prov["n_games"]
    parts: list[str] = []
    add = parts.append
    add("# 十三水 rule balance: what the regional rules do to the game\n")
    add(
        f"{n_games:,} deals of {prov['n_players']} players, each played under every variant "
        f"below (the *same* deals for all: differences between variants are paired). Hands are "
        f"set by the `{prov['strategy']}` strategy. Seed {prov['seed']}, simkit "
        f"{prov['simkit_version']}, commit `{prov.get('git_commit') or 'unknown'}`. "
        "Every `a ± b` is an estimate and its standard error; intervals are 95%. "
        "Standard errors treat the deal as the independent unit. Seat 0 is the banker in "
        "banker variants. Tables in full: `tables/*.parquet` (with `provenance.json`).\n"
    )
    add(
        markdown_table(
            ["variant", "title", "banker", "key"],
            [
                [v["name"], v["title"], "yes" if v["banker"] else "", f"`{v['key']}`"]
                for v in prov["variants"]
            ],
        )
        + "\n"
    )

    add("## 1. Expected score and volatility\n")
    scores = t["scores"]
    rows: list[list[Any]] = []
    for name in names:
        s0 = scores.filter((pl.col("variant") == name) & (pl.col("seat") == "0")).row(0, named=True)
        al = scores.filter((pl.col("variant") == name) & (pl.col("seat") == "all")).row(
            0, named=True
        )
        rows.append(
            [
                name,
                est(s0["mean"], s0["se"]),
                est(s0["sd"], s0["sd_se"]),
                est(al["sd"], al["sd_se"]),
                "yes" if s0["banker"] else "",
            ]
        )
    add(
        markdown_table(
            ["variant", "seat 0 mean", "seat 0 sd", "player sd (all seats)", "seat 0 banker"],
            rows,
        )
        + "\n"
    )
    add(_figure("scores", "Expected score of seat 0 and the volatility of a player's score") + "\n")

    add(f"## 2. Paired differences against {base} (same deals)\n")
    paired = t["paired"].filter(
        ((pl.col("variant_a") == base) | (pl.col("variant_b") == base)) & (pl.col("seat") == "all")
    )
    rows = []
    for r in paired.iter_rows(named=True):
        sign = 1 if r["variant_a"] == base else -1
        other = r["variant_b"] if sign == 1 else r["variant_a"]
        rows.append([other, est(-sign * r["diff"], r["se"]), r["n"]])
    add(
        "Mean square score of a player (its variance, since scores average 0), "
        f"variant minus {base}; the paired standard error is far below that of two "
        "independent runs.\n"
    )
    add(markdown_table(["variant", f"mean square score − {base}", "n"], rows) + "\n")

    add("## 3. Where the score comes from: rule components\n")
    comps = t["components"].filter(pl.col("mean_abs") > 0)
    comp_names = list(dict.fromkeys(comps["component"].to_list()))
    rows = _grid(comps, "variant", names, "component", comp_names, "var_share", "var_share_se")
    add(
        "Share of the variance of a player's score, Cov(component, total) / Var(total) "
        "(shares add up to 1; se by batch means over blocks of deals):\n"
    )
    add(markdown_table(["variant", *comp_names], rows) + "\n")
    rows = _grid(comps, "variant", names, "component", comp_names, "mean_abs", "mean_abs_se")
    add("Mean |points| moved per player and game by each component:\n")
    add(markdown_table(["variant", *comp_names], rows) + "\n")
    add(_figure("components", "Score and variance by rule component") + "\n")

    add("## 4. Scoops, home runs, fouls and declared specials\n")
    events = t["events"]
    event_names = list(dict.fromkeys(events["event"].to_list()))
    rows = _grid(events, "variant", names, "event", event_names, "rate", "se")
    add(
        "Per player and game: `scoop` = the player's scoop (打枪) points are positive (net), "
        "`scooped` negative; `home_run` = the player's 全垒打 points are positive; `foul` = "
        "the player paid a foul penalty; `declared` = the player declared a special.  Every "
        "strategy simkit plays searches legal settings only, so `foul` is 0 by construction "
        "here; the foul rules still score hands set by other means (`simkit.score`).\n"
    )
    add(markdown_table(["variant", *event_names], rows) + "\n")

    tdist = t["t_distribution"]
    if tdist.height:
        add("## 5. The t of the t-formula\n")
        add(
            "t is the worth of the biggest dun among the hands compared normally (000/002 §1); "
            "frequency per deal where the formula applies.\n"
        )
        rows = [
            [r["variant"], r["t"], r["count"], est(r["freq"], r["se"])]
            for r in tdist.iter_rows(named=True)
        ]
        add(markdown_table(["variant", "t", "deals", "frequency"], rows) + "\n")

    add("## 6. Special hands: simulated against exact\n")
    specials = t["specials"]
    rows = []
    for name in names:
        sub = specials.filter(pl.col("variant") == name)
        z = sub["best_z"].drop_nulls()
        z = z.filter(z.is_finite())
        rows.append(
            [
                name,
                sub.height,
                num(float(z.abs().max()) if z.len() else None, ".2f"),  # type: ignore[arg-type]
                int(sub["best_count"].sum()),
            ]
        )
    add(
        "How often a hand's best special is each one, against the exact one-deck probability "
        "(`simkit exact`): the largest |z| per variant (|z| < 3 expected for ~13 specials; "
        "no exact value after a card pass):\n"
    )
    add(markdown_table(["variant", "specials", "max |z|", "special hands seen"], rows) + "\n")
    sub = specials.filter(pl.col("variant") == base)
    rows = [
        [
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            est(r["best_freq"], r["best_se"]),
            num(r["best_exact"], ".4g"),
            num(r["best_z"], ".2f"),
            est(r["declared_freq"], r["declared_se"]),
        ]
        for r in sub.iter_rows(named=True)
    ]
    add(f"{base}:\n")
    add(
        markdown_table(
            ["special", "name", "payout", "best special, per hand", "exact", "z", "declared"],
            rows,
        )
        + "\n"
    )

    add("## 7. Declaring a special against playing it\n")
    add(
        "For hands whose best special is the one shown: the holder's score declaring it, "
        "playing the same cards as a normal hand, and the gain from declaring (same deal, the "
        "other special holders declaring).\n"
    )
    dv = t["declare_value"].filter(pl.col("n") > 0)
    rows = [
        [
            r["variant"],
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            r["n"],
            est(r["declared_mean"], r["declared_se"]),
            est(r["played_mean"], r["played_se"]),
            est(r["gain_mean"], r["gain_se"]),
        ]
        for r in dv.iter_rows(named=True)
    ]
    add(
        markdown_table(
            ["variant", "special", "name", "payout", "holders", "declared", "played", "gain"],
            rows,
        )
        + "\n"
    )

    add("## 8. The banker's edge\n")
    be = t["banker_edge"]
    if be.height:
        add(
            "Expected score per game of the banker (seat 0) in banker variants; `top-card` is "
            "食夹棍 (only the top card of each dun counts, the banker winning ties).\n"
        )
        rows = [
            [
                r["variant"],
                r["compare"],
                r["n"],
                est(r["mean"], r["se"]),
                f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
            ]
            for r in be.iter_rows(named=True)
        ]
        add(markdown_table(["variant", "compare", "deals", "banker mean", "95% CI"], rows) + "\n")
    else:
        add("No banker variant in this run.\n")

    add("## 9. Payouts against rarity and normal-play value\n")
    add(
        "`rarity payout`: what the payout curve of all variants (log payout linear in log "
        "1/p, fitted over every special of every variant) gives a hand this rare; "
        "`normal-play value`: what the hand wins per opponent when played as a normal hand; "
        "`justified`: the larger.\n"
    )
    pay = t["payouts"].filter(pl.col("variant") == base)
    rows = [
        [
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            num(r["one_in"], ".4g"),
            num(r["rarity_payout"], ".3g"),
            est(r["normal_play_value"], r["normal_play_value_se"]) if r["holders"] else "–",
            num(r["justified_payout"], ".3g"),
        ]
        for r in pay.iter_rows(named=True)
    ]
    add(f"{base}:\n")
    add(
        markdown_table(
            [
                "special",
                "name",
                "payout",
                "one in",
                "rarity payout",
                "normal-play value",
                "justified",
            ],
            rows,
        )
        + "\n"
    )
    add(_figure("payouts", "Special payouts against 1/probability, one marker per variant") + "\n")

    add("## 10. Score distributions\n")
    add(_figure("score_distribution", "Distribution of a player's score per game") + "\n")

    add(f"## 11. Dun categories ({base}, hands played normally)\n")
    dun = t["dun_categories"].filter(pl.col("variant") == base)
    cats = list(dict.fromkeys(dun["category"].to_list()))
    rows = _grid(dun, "category", cats, "position", POSITIONS, "freq", "se", missing="–")
    add(markdown_table(["category", *POSITIONS], rows) + "\n")

    add("## 12. Convergence\n")
    add(_figure("convergence", "Key estimates against the number of games") + "\n")

    add("## Reproduce\n")
    add(
        "```\n"
        f"simkit report --out results/report --games {n_games} --seed {prov['seed']}\n"
        "```\n\n"
        "The same seed gives the same tables for any `--jobs`; `--games` scales the run. "
        "Each figure and table can be regenerated alone by the scripts in `experiments/`.\n"
    )
    return "\n".join(parts)
