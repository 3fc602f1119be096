"""Special payouts against rarity and normal-play value (table ``special_payouts``, figure)."""

from _experiment import parse, run, write

from simkit.plots import plot_payouts

args = parse(__doc__, games=20_000)
result = run(args)
write(result, args, "special_payouts", result["payouts"], plot_payouts)
