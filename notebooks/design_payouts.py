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
# # Designing a payout table
#
# The par sheet of a shipped banker game (hongkong), three candidate tables re-scored on its
# kept games, one table designed to a target player SD by `simkit.design`, and that table
# verified by a fresh simulation.  The tutorial "Design a payout table" walks through the same
# steps; `results/design/` holds designs made at full size.
#
# `SIMKIT_NOTEBOOK_GAMES` sets the number of simulated deals (small in CI).

# %%
import os
import tempfile
from pathlib import Path

import polars as pl

from simkit.design import design, metrics, open_run
from simkit.par import par_sheet, plot_ruin, plot_session_fan
from simkit.simulate import simulate
from simkit.variants import load_variant

pl.Config(tbl_rows=200, tbl_cols=-1, fmt_str_lengths=60)
GAMES = int(os.environ.get("SIMKIT_NOTEBOOK_GAMES", "20000"))
work = Path(tempfile.mkdtemp(prefix="design-notebook-"))

# %% [markdown]
# ## The par sheet of the shipped table

# %%
simulate("hongkong", GAMES, 4, seed=1, n_jobs=1, progress=False, keep_games=work / "run" / "kept")
sheet = par_sheet(work / "run")
sheet.tables["par"].select("role", "games", "edge", "edge_se", "sd", "p_win", "p_tie", "p_loss")

# %%
plot_session_fan(sheet)

# %%
plot_ruin(sheet)

# %% [markdown]
# ## Three candidate tables, re-scored on the kept games (fixed play)


# %%
def candidate(name: str, trips: int, full_house: int):
    path = work / f"{name}.toml"
    path.write_text(
        f'[variant]\nname = "{name}"\nextends = "hongkong"\n'
        f"[scoring.duns.front]\ntrips = {trips}\n"
        f"[scoring.duns.middle]\nfull-house = {full_house}\n",
        encoding="utf-8",
    )
    return load_variant(path)


kept = open_run(work / "run")
rows = []
for name, trips, full_house in [("shipped", 3, 2), ("a", 6, 4), ("b", 10, 4), ("c", 15, 8)]:
    m = metrics(kept, candidate(name, trips, full_house), [])
    rows.append(
        {"table": name, "front trips": trips, "middle full house": full_house,
         "player sd": m["player.sd"], "sd se": m["player.sd_se"],
         "banker edge": m["banker.edge"], "edge se": m["banker.edge_se"]}
    )  # fmt: skip
pl.DataFrame(rows)

# %% [markdown]
# ## One table designed to a target player SD, verified afresh

# %%
d = design(
    "hongkong",
    ["scoring.duns.front.trips=3:20:1", "scoring.duns.middle.full-house=2:10:1"],
    ["player.sd=2.6:0.15"],
    games=GAMES, seed=2, out=work / "design", name="hongkong-wide",
    verify=1, rounds=2, n_jobs=1, progress=None,
)  # fmt: skip
pl.DataFrame(
    [{"front trips": v.values["scoring.duns.front.trips"],
      "middle full house": v.values["scoring.duns.middle.full-house"],
      "fixed-play sd": v.fixed["player.sd"], "re-derived sd": v.fresh["player.sd"],
      "meets": v.meets} for v in d.verified]
)  # fmt: skip

# %%
print("feasible:", d.feasible)
print((work / "design" / "hongkong-wide.toml").read_text())

# %% [markdown]
# ## The written file, simulated independently

# %%
simulate(work / "design" / "hongkong-wide.toml", GAMES, 4, seed=3, n_jobs=1, progress=False,
         keep_games=work / "check" / "kept")  # fmt: skip
check = par_sheet(work / "check")
check.tables["par"].select("variant", "role", "edge", "edge_se", "sd")

# %%
plot_session_fan(check)
