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
# # Reproducing the published probabilities
#
# The Chinese Wikipedia article (source 001) prints three odds for one hand of 13 cards from one
# deck: 一条龙 (dragon) about 1 in 9,462; 至尊清龙 (clean dragon) 1 in 158,753,389,900; 十二皇族
# (all J, Q, K, A) 1 in 1,133,952,785.  `simkit.exact` counts them exactly; a simulation run
# beside them shows the Monte Carlo frequencies with their standard errors and z-scores.
#
# `SIMKIT_NOTEBOOK_GAMES` sets the number of simulated deals (small in CI).

# %%
import os
from math import comb

import polars as pl

from simkit.exact import specials_table
from simkit.simulate import simulate

GAMES = int(os.environ.get("SIMKIT_NOTEBOOK_GAMES", "20000"))
# Every row and column of a table, not polars' first and last five.
pl.Config(tbl_rows=200, tbl_cols=-1, fmt_str_lengths=60)
HANDS = comb(52, 13)
HANDS

# %% [markdown]
# ## Exact counts against the published odds

# %%
published = {"dragon": 9_462, "clean-dragon": 158_753_389_900, "royal-twelve": 1_133_952_785}
exact = specials_table("guangxi")
check = exact.filter(pl.col("id").is_in(list(published))).select(
    "special", "id", "count", "one_in"
).with_columns(pl.col("id").replace_strict(published, return_dtype=pl.Int64).alias("published"))
check = check.with_columns((pl.col("one_in") / pl.col("published") - 1).alias("relative_gap"))
check

# %%
# The published odds are rounded: each exact value is within 0.1% of the printed one.
assert (check["relative_gap"].abs() < 1e-3).all(), check
# Dragon: 4**13 suit choices of one card of each rank.
assert exact.filter(pl.col("id") == "dragon")["count"][0] == 4**13

# %% [markdown]
# ## Every special of the default variant: exact against simulated

# %%
result = simulate("guangxi", GAMES, seed=1, n_jobs=1, progress=False)
result["specials"].select(
    "special", "name", "best_count", "best_freq", "best_se", "best_exact", "best_z"
)

# %% [markdown]
# A z-score beyond ±3 would point at a bug in the detector or the counts (about 13 specials are
# tested, so |z| > 3 by chance is rare).  The hand categories of each dun, as played, follow.

# %%
result["dun_categories"].filter(pl.col("count") > 0).select(
    "position", "category", "count", "freq", "se"
)
