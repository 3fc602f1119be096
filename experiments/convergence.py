"""Convergence of key estimates against the number of games (table and figure ``convergence``)."""

from _experiment import parse, run, write

from simkit.plots import plot_convergence

args = parse(__doc__, games=50_000)
result = run(args)
write(result, args, "convergence", result["convergence"], plot_convergence)
