# ---
# jupyter:
#   jupytext:
#     formats: py:percent,ipynb
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # How much the strategy changes the answers
#
# Every rule-balance number depends on how players set their hands.  Here the same deals (same
# seed: the deals depend only on the seed and the block) are played with three strategies —
# `max-ev`, `greedy` (strongest back first) and `random-legal` — and the main estimates are set
# side by side.  Standard errors are per run; the runs share their deals, so the differences are
# positively correlated and the unpaired standard errors below are conservative.
#
# `SIMKIT_NOTEBOOK_GAMES` sets the number of simulated deals (small in CI).

# %%
import math
import os

import polars as pl

from simkit.simulate import simulate

GAMES = int(os.environ.get("SIMKIT_NOTEBOOK_GAMES", "20000"))
# Every row and column of a table, not polars' first and last five.
pl.Config(tbl_rows=200, tbl_cols=-1, fmt_str_lengths=60)
VARIANTS = ["guangxi", "hongkong", "western-2-4"]
STRATEGIES = ["max-ev", "greedy", "random-legal"]

runs = {s: simulate(VARIANTS, GAMES, strategy=s, seed=3, n_jobs=1, progress=False) for s in STRATEGIES}

# %% [markdown]
# ## Volatility and the banker's edge

# %%
scores = pl.concat(
    [
        r["scores"].filter(pl.col("seat").is_in(["0", "all"])).with_columns(strategy=pl.lit(s))
        for s, r in runs.items()
    ]
)
scores.select("strategy", "variant", "seat", "mean", "se", "sd", "sd_se").sort(
    "variant", "seat", "strategy"
)

# %% [markdown]
# ## Scoops, home runs and declarations

# %%
events = pl.concat([r["events"].with_columns(strategy=pl.lit(s)) for s, r in runs.items()])
events.pivot(on="strategy", index=["variant", "event"], values="rate")

# %% [markdown]
# ## Differences from max-ev, in standard errors

# %%
base = runs["max-ev"]["scores"].filter(pl.col("seat") == "all")
rows = []
for s in STRATEGIES[1:]:
    other = runs[s]["scores"].filter(pl.col("seat") == "all")
    for a, b in zip(base.iter_rows(named=True), other.iter_rows(named=True), strict=True):
        diff = b["sd"] - a["sd"]
        se = math.hypot(a["sd_se"], b["sd_se"])
        rows.append({"strategy": s, "variant": a["variant"], "sd_change": diff, "se": se,
                     "z": diff / se if se else None})
pl.DataFrame(rows)
