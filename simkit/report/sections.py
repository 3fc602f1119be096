"""The sections drawn from the run's own tables, one function per section.

Each takes the :class:`~simkit.report.page.Page` and returns its Markdown blocks, or nothing
where the run holds nothing for it (a run without a banker variant has no banker's edge, one
without a special dealt no payout figure, one variant no paired differences).  Headings are
``## title``; :func:`simkit.report.writer.render_markdown` numbers them.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import polars as pl

from simkit.plots import drawable
from simkit.report.format import (
    NEVER,
    est,
    est_of,
    figure,
    grid,
    markdown_table,
    names,
    num,
    one_in,
)
from simkit.report.page import Page
from simkit.statistics import POSITIONS
from simkit.summary import Z95


def header_section(page: Page) -> list[str]:
    """The title, what the run is (deals, players, strategy, seed, version) and its variants."""
    prov = page.provenance
    played = (
        f"each played under every one of the {len(page.names)} variants below (the *same* "
        "deals for all: differences between variants are paired)"
        if page.compares
        else f"played under {page.names[0]}"
    )
    return [
        "# 十三水 rule balance: what the regional rules do to the game\n",
        f"{prov['n_games']:,} deals of {prov['n_players']} players, {played}.  Hands are set "
        f"by the `{prov['strategy']}` strategy.  Seed {prov['seed']}, simkit "
        f"{prov['simkit_version']}, commit `{prov.get('git_commit') or 'unknown'}`.  Every "
        "`a ± b` is an estimate and its standard error; intervals are 95%.  Standard errors "
        "treat the deal as the independent unit.  Seat 0 is the banker in banker variants.  "
        "Tables in full: `tables/*.parquet` (with `provenance.json`).\n",
    ]


def variants_section(page: Page) -> list[str]:
    """The variants of the run: name, title, banker, key."""
    return [
        "## The variants\n",
        markdown_table(
            ["variant", "title", "banker", "key"],
            [
                [v["name"], v["title"], "yes" if v["banker"] else "", f"`{v['key']}`"]
                for v in page.provenance["variants"]
            ],
        )
        + "\n",
    ]


def scores_section(page: Page) -> list[str]:
    """Seat 0's mean score and SD and a player's SD over all seats, per variant (the ``scores``
    table), with the scores figure."""
    scores = page.table("scores")
    rows: list[list[Any]] = []
    for name in page.names:
        of = scores.filter(pl.col("variant") == name)
        s0 = of.filter(pl.col("seat") == "0").row(0, named=True)
        al = of.filter(pl.col("seat") == "all").row(0, named=True)
        rows.append(
            [
                name,
                est(s0["mean"], s0["se"]),
                est(s0["sd"], s0["sd_se"]),
                est(al["sd"], al["sd_se"]),
                "yes" if s0["banker"] else "",
            ]
        )
    header = ["variant", "seat 0 mean", "seat 0 sd", "player sd (all seats)", "seat 0 banker"]
    return [
        "## Expected score and volatility\n",
        markdown_table(header, rows) + "\n",
        figure("scores", "Expected score of seat 0 and the volatility of a player's score") + "\n",
    ]


def sd_ratios(page: Page) -> list[dict[str, Any]]:
    """Each variant's player SD over the base's (:attr:`Page.base`) on the same deals, with
    its 95% CI: ``{"variant", "sd", "sd_se", "ratio", "low", "high"}`` per other variant.

    The mean squares m_a, m_b of a player's score (SD² + mean²) and their SEs come from the
    ``scores`` table, the SE of their paired difference from ``paired``; their covariance
    follows (Var a + Var b − Var(a − b)) / 2, and the delta method gives the SE of
    log(SD_a / SD_b) = ½ (log m_a − log m_b).  The interval is exp(log ratio ± 1.96 SE).
    """
    scores = page.table("scores").filter(pl.col("seat") == "all")
    moments = {
        r["variant"]: (r["sd"] ** 2 + r["mean"] ** 2, 2 * r["sd"] * r["sd_se"], r)
        for r in scores.iter_rows(named=True)
    }
    base = page.base
    out = []
    paired = page.table("paired")
    for r in paired.filter(
        ((pl.col("variant_a") == base) | (pl.col("variant_b") == base)) & (pl.col("seat") == "all")
    ).iter_rows(named=True):
        other = r["variant_b"] if r["variant_a"] == base else r["variant_a"]
        (m_o, se_o, row), (m_b, se_b, _) = moments[other], moments[base]
        cov = (se_o**2 + se_b**2 - r["se"] ** 2) / 2
        var_log = (se_o**2 / m_o**2 + se_b**2 / m_b**2 - 2 * cov / (m_o * m_b)) / 4
        ratio = math.sqrt(m_o / m_b)
        half = Z95 * math.sqrt(max(var_log, 0.0))
        out.append(
            {
                "variant": other,
                "sd": row["sd"],
                "sd_se": row["sd_se"],
                "ratio": ratio,
                "low": ratio * math.exp(-half),
                "high": ratio * math.exp(half),
            }
        )
    return out


def paired_section(page: Page) -> list[str]:
    """How volatile each variant is against the base, as a ratio of SDs on the same deals."""
    if not page.compares:
        return []
    base = page.base
    rows = [
        [
            r["variant"],
            est(r["sd"], r["sd_se"]),
            f"{r['ratio']:.3f}",
            f"{r['low']:.3f} to {r['high']:.3f}",
        ]
        for r in sd_ratios(page)
    ]
    return [
        f"## Volatility against {base} (paired, same deals)\n",
        f"The SD of a player's score per game in each variant over its SD in {base}, on the "
        "same deals: 1.2 means scores swing 20% wider.  The interval is paired (the deals "
        "shared), far narrower than that of two independent runs.\n",
        markdown_table(["variant", "player SD", f"SD / SD of {base}", "95% CI"], rows) + "\n",
    ]


def components_section(page: Page) -> list[str]:
    """Per variant and rule component (the ``components`` table): its share of the variance of a
    player's score and the mean points it moves, with the components figure; nothing where no
    component moved a point."""
    comps = page.table("components").filter(pl.col("mean_abs") > 0)
    if not comps.height:
        return []
    comp_names = list(dict.fromkeys(comps["component"].to_list()))
    share = est_of("var_share", "var_share_se")
    moved = est_of("mean_abs", "mean_abs_se")
    pivot = functools.partial(grid, comps, "variant", page.names, "component", comp_names)
    return [
        "## Where the score comes from: rule components\n",
        "Share of the variance of a player's score, Cov(component, total) / Var(total) "
        "(shares add up to 1; se by batch means over blocks of deals):\n",
        markdown_table(["variant", *comp_names], pivot(share, NEVER)) + "\n",
        "Mean |points| moved per player and game by each component:\n",
        markdown_table(["variant", *comp_names], pivot(moved, NEVER)) + "\n",
        f"`{NEVER}`: the component moved no point in these games: the variant has no such "
        "rule (a component that moves no point in any variant is left out)."
        + _t_formula_note(page)
        + "\n",
        figure("components", "Score and variance by rule component") + "\n",
    ]


def _t_formula_note(page: Page) -> str:
    """Why ``duns`` is near 0 where the t-formula plays: it replaces the dun points."""
    comps = page.table("components")
    t_rows = comps.filter((pl.col("component") == "t_formula") & (pl.col("mean_abs") > 0))
    variants = [v for v in page.names if v in set(t_rows["variant"])]
    if not variants:
        return ""
    tdist = page.table("t_distribution")
    applies = [
        f"{float(tdist.filter(pl.col('variant') == v)['freq'].sum()):.2%} of {v}'s deals"
        for v in variants
    ]
    return (
        f"  In {names(variants)} the t-formula replaces the dun points (bonuses included) of "
        "the hands compared normally by place payments (the t of the t-formula, below): "
        "`t_formula` carries what `duns` carries elsewhere, and `duns` and `bonuses` are near "
        "0, paid only in the deals the formula skips because too few hands are compared "
        "normally, the others declaring specials (the formula applies in "
        f"{names(applies)})."
    )


def events_section(page: Page) -> list[str]:
    """Per variant, the rate of each event a player meets a game (scoop, scooped, home run, foul,
    declared; the ``events`` table), with why a cell is never seen."""
    events = page.table("events")
    event_names = list(dict.fromkeys(events["event"].to_list()))
    rate = est_of("rate", "se", seen="count")
    rows = grid(events, "variant", page.names, "event", event_names, rate, NEVER)
    return [
        "## Scoops, home runs, fouls and declared specials\n",
        "Per player and game: `scoop` = the player's scoop (打枪) points are positive (net), "
        "`scooped` negative; `home_run` = the player's 全垒打 points are positive; `foul` = "
        "the player paid a foul penalty; `declared` = the player declared a special.  Every "
        "strategy simkit plays searches legal settings only, so nobody fouls here; the foul "
        "rules still score hands set by other means (`simkit.score`).\n",
        markdown_table(["variant", *event_names], rows) + "\n",
        _never_note(events, page.names) + "\n",
    ]


def _never_note(events: pl.DataFrame, variants: list[str]) -> str:
    """Which cells of the events table are :data:`NEVER`, and why."""
    never: dict[tuple[str, ...], list[str]] = {}
    for event in dict.fromkeys(events["event"].to_list()):
        if event == "foul":
            continue
        rows = events.filter((pl.col("event") == event) & (pl.col("count") == 0))
        seen = tuple(v for v in variants if v in set(rows["variant"]))
        if seen:
            never.setdefault(seen, []).append(f"`{event}`")
    which = "; ".join(f"{', '.join(e)} in {names(list(v))}" for v, e in never.items())
    return (
        f"`{NEVER}`: not once in these games.  `foul`: the strategy never fouls (above)"
        + (f"; {which}: the variant has no such rule" if which else "")
        + " (or, in a short run, the event is too rare to come up)."
    )


def t_formula_section(page: Page) -> list[str]:
    """The distribution of the t-formula's t per variant that plays it (the ``t_distribution``
    table); nothing where none does."""
    tdist = page.table("t_distribution")
    if not tdist.height:
        return []
    rows = [
        [r["variant"], r["t"], r["count"], est(r["freq"], r["se"])]
        for r in tdist.iter_rows(named=True)
    ]
    return [
        "## The t of the t-formula\n",
        "t is the worth of the biggest dun among the hands compared normally (000/002 §1); "
        "frequency per deal where the formula applies.\n",
        markdown_table(["variant", "t", "deals", "frequency"], rows) + "\n",
    ]


def specials_section(page: Page) -> list[str]:
    """Special hands simulated against their exact one-deck probabilities (the ``specials`` table):
    the largest |z| per variant, then each special of :attr:`~simkit.report.page.Page.base` (or the
    first variant with specials); nothing where the ``specials`` table is empty."""
    specials = page.table("specials")
    if not specials.height:
        return []
    rows: list[list[Any]] = []
    for name in page.names:
        sub = specials.filter(pl.col("variant") == name)
        if not sub.height:
            continue
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
    base = _special_base(page)
    sub = specials.filter(pl.col("variant") == base)
    base_rows = [
        [
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            est_of("best_freq", "best_se", seen="best_count")(r),
            num(r["best_exact"], ".4g"),
            num(r["best_z"], ".2f"),
            _declared(r),
        ]
        for r in sub.iter_rows(named=True)
    ]
    hands = int(sub["n"].max()) if sub.height else 0  # type: ignore[arg-type]
    return [
        "## Special hands: simulated against exact\n",
        "How often a hand's best special is each one, against the exact one-deck probability "
        "(`simkit exact`): the largest |z| per variant (|z| < 3 expected for ~13 specials; "
        "no exact value after a card pass):\n",
        markdown_table(["variant", "specials", "max |z|", "special hands seen"], rows) + "\n",
        f"{base}:\n",
        markdown_table(
            ["special", "name", "payout", "best special, per hand", "exact", "z", "declared"],
            base_rows,
        )
        + "\n",
        f"`{NEVER}`: not dealt once in these {hands:,} hands; `z` says whether that is "
        "surprising for a hand this rare.  `0 of k`: none of its k holders declared it, the "
        "strategy finding the cards worth more played normally (declaring against playing, "
        "below).\n",
    ]


def _special_base(page: Page) -> str:
    """The variant whose specials are shown one by one: the base, or the first with any."""
    held = set(page.table("specials")["variant"])
    return page.base if page.base in held else next(v for v in page.names if v in held)


def _declared(r: dict[str, Any]) -> str:
    """How often a special was declared: :data:`NEVER` if never dealt, ``0 of k`` if dealt k
    times and never declared."""
    if not r["best_count"]:
        return NEVER
    if not r["declared_count"]:
        return f"0 of {r['best_count']}"
    return est(r["declared_freq"], r["declared_se"])


def _fixed(mean: float, se: float) -> str:
    """An estimate, or the value alone where it is the same in every sample (a payout)."""
    return f"{mean:g} (fixed)" if se == 0 else est(mean, se)


def declare_section(page: Page) -> list[str]:
    """Per variant and special held, the holder's score declaring it, playing the cards as a normal
    hand, and the gain (the ``declare_value`` table); nothing where no special was held."""
    dv = page.table("declare_value")
    dv = dv.filter(pl.col("n") > 0) if dv.height else dv
    if not dv.height:
        return []
    rows = [
        [
            r["variant"],
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            r["n"],
            _fixed(r["declared_mean"], r["declared_se"]),
            est(r["played_mean"], r["played_se"]),
            est(r["gain_mean"], r["gain_se"]),
        ]
        for r in dv.iter_rows(named=True)
    ]
    return [
        "## Declaring a special against playing it\n",
        "For hands whose best special is the one shown: the holder's score declaring it, "
        "playing the same cards as a normal hand, and the gain from declaring (same deal, the "
        "other special holders declaring).  A declared score marked `fixed` is the same for "
        "every holder: the payout, collected from each opponent.\n",
        markdown_table(
            ["variant", "special", "name", "payout", "holders", "declared", "played", "gain"],
            rows,
        )
        + "\n",
    ]


def banker_section(page: Page) -> list[str]:
    """The banker's (seat 0's) mean score with its 95% CI per banker variant and compare rule (the
    ``banker_edge`` table); nothing without a banker variant."""
    be = page.table("banker_edge")
    if not be.height:
        return []
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
    return [
        "## The banker's edge\n",
        "Expected score per game of the banker (seat 0) in banker variants; `top-card` is "
        "食夹棍 (only the top card of each dun counts, the banker winning ties).\n",
        markdown_table(["variant", "compare", "deals", "banker mean", "95% CI"], rows) + "\n",
    ]


def payouts_section(page: Page) -> list[str]:
    """The special payouts of :attr:`~simkit.report.page.Page.base` (or the first variant with
    specials) against their rarity and normal-play value (the ``payouts`` table), with the payouts
    figure; nothing where the figure cannot be drawn (:func:`~simkit.plots.drawable`)."""
    if "payouts" not in drawable(page.tables):
        return []
    pay = page.table("payouts").filter(pl.col("variant") == _special_base(page))
    rows = [
        [
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            one_in(r["one_in"]),
            num(r["rarity_payout"], ".3g"),
            est(r["normal_play_value"], r["normal_play_value_se"]) if r["holders"] else NEVER,
            num(r["justified_payout"], ".3g"),
        ]
        for r in pay.iter_rows(named=True)
    ]
    header = [
        "special",
        "name",
        "payout",
        "one in (as best)",
        "rarity payout",
        "normal-play value",
        "justified",
    ]
    curve = "all variants" if page.compares else _special_base(page)
    return [
        "## Payouts against rarity and normal-play value\n",
        "`one in (as best)` N: one hand of 13 cards in N has this special as its best one "
        "(1/p, p the exact one-deck probability above, else the observed frequency); "
        "`simkit exact` prints the same N as `best_one_in`, and as `one_in` the odds of "
        "holding the special at all, a better one included.  `rarity payout`: what the payout "
        f"curve of {curve} (log payout linear in log 1/p, fitted over every special) gives a "
        "hand this rare; `normal-play value`: what the hand wins per opponent when played as "
        "a normal hand.\n",
        "`justified`: the payout the hand can claim on both counts, the larger of the two: as "
        "much as the curve pays hands this rare, and no less than the cards win played "
        "normally (below that, declaring costs the holder points).  A payout far above "
        "`justified` pays the hand more than its rarity and its cards are worth.\n",
        f"{_special_base(page)}:\n",
        markdown_table(header, rows) + "\n",
        figure(
            "payouts",
            "Special payouts against 1/probability, one marker per variant, each special "
            "named once; the line is the fitted curve",
        )
        + "\n",
    ]


def distribution_section(page: Page) -> list[str]:
    """The score-distribution figure and how to read it (always present)."""
    panels = "One panel per variant, each on its own score axis" if page.compares else "Its"
    return [
        "## Score distributions\n",
        f"{panels}; the frequency scale is logarithmic, so the rare large scores (special "
        "payouts, home runs) read beside the centre.  The sd in each title is the player sd "
        "above.\n",
        figure("score_distribution", "Distribution of a player's score per game") + "\n",
    ]


def dun_categories_section(page: Page) -> list[str]:
    """How often each hand category sits in each dun of :attr:`~simkit.report.page.Page.base`'s
    hands played normally (the ``dun_categories`` table)."""
    dun = page.table("dun_categories").filter(pl.col("variant") == page.base)
    cats = list(dict.fromkeys(dun["category"].to_list()))
    freq = est_of("freq", "se", seen="count")
    rows = grid(dun, "category", cats, "position", POSITIONS, freq, NEVER)
    return [
        f"## Dun categories ({page.base}, hands played normally)\n",
        markdown_table(["category", *POSITIONS], rows) + "\n",
        f"`{NEVER}`: not once in these hands: a front of three cards holds no five-card "
        "category, five of a kind needs more than one deck, and some settings the strategy "
        "never chooses.\n",
    ]


def convergence_section(page: Page) -> list[str]:
    """The convergence figure (key estimates against games played); nothing where it cannot be drawn
    (:func:`~simkit.plots.drawable`)."""
    if "convergence" not in drawable(page.tables):
        return []
    return [
        "## Convergence\n",
        figure("convergence", "Key estimates against the number of games") + "\n",
    ]
