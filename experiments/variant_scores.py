"""Expected score and volatility per variant (table ``variant_scores``, figure)."""

import polars as pl
from _experiment import parse, run, write

from simkit.plots import plot_scores

args = parse(__doc__, games=20_000)
result = run(args)
table = result["scores"].filter(pl.col("seat").is_in(["0", "all"]))
write(result, args, "variant_scores", table, plot_scores, result["scores"])
