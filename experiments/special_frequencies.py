"""Special-hand frequencies beside their exact values, with z-scores (``special_frequencies``)."""

from _experiment import parse, run, write

args = parse(__doc__, games=20_000)
result = run(args)
write(result, args, "special_frequencies", result["specials"])
