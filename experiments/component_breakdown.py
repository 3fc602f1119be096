"""Score and variance by rule component per variant (table ``component_breakdown``, figure)."""

from _experiment import parse, run, write

from simkit.plots import plot_components

args = parse(__doc__, games=20_000)
result = run(args)
write(result, args, "component_breakdown", result["components"], plot_components)
