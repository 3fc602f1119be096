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
# # Comparing the regional payout tables
#
# Each region pays its special hands (报到) differently.  This notebook lays the payout tables
# side by side, sets them against each hand's rarity, and reads from one simulation (the same
# deals under every variant) what the payouts do to a player's score.
#
# `SIMKIT_NOTEBOOK_GAMES` sets the number of simulated deals (small in CI).

# %%
import os

import polars as pl

from simkit.plots import (
    plot_components,
    plot_payouts,
    plot_score_distribution,
    plot_scores,
    variant_style,
)
from simkit.simulate import simulate
from simkit.variants import load_variant, variant_names

# Every row and column of a table, not polars' first and last five.
pl.Config(tbl_rows=200, tbl_cols=-1, fmt_str_lengths=60)
GAMES = int(os.environ.get("SIMKIT_NOTEBOOK_GAMES", "20000"))

# %% [markdown]
# ## The payout tables

# %%
rows = [
    {"variant": name, "special": rule.id, "name": rule.name, "payout": rule.payout}
    for name in variant_names()
    for rule in load_variant(name).specials.rules
]
payouts = pl.DataFrame(rows).pivot(on="variant", index=["special", "name"], values="payout")
payouts

# %% [markdown]
# ## One simulation, every variant
#
# Each `plot_*` function returns a matplotlib `Figure`, which the notebook shows inline.  A
# variant has one colour and marker in every figure, here and in the report
# (`simkit.plots.variant_style`; a 食夹棍 twin is its variant's, hollow and dashed).

# %%
result = simulate("all", GAMES, seed=2, n_jobs=1, progress=False)
result["scores"].filter(pl.col("seat") == "all").select("variant", "n", "sd", "sd_se")

# %%
pl.DataFrame(
    [{"variant": v, "colour": variant_style(v).color, "marker": variant_style(v).marker}
     for v in result.variant_names]
)

# %%
plot_scores(result["scores"])

# %% [markdown]
# How much of a player's variance each rule carries:

# %%
plot_components(result["components"])

# %% [markdown]
# Payouts against rarity (one marker per variant, each special named beside its highest
# payout) and what each hand would be worth played normally:

# %%
plot_payouts(result["payouts"])

# %% [markdown]
# A player's score, one panel per variant (log scale: the rare large scores are special
# payouts and home runs):

# %%
plot_score_distribution(result["score_distribution"])

# %%
result["payouts"].filter(pl.col("holders") > 0).select(
    "variant", "special", "payout", "one_in", "rarity_payout", "normal_play_value", "holders"
)
