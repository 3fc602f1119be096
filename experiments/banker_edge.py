"""The banker's edge in banker variants, with and without 食夹棍 (table ``banker_edge``)."""

from _experiment import parse, run, write

from simkit.variants import has_banker, load_variant, variant_names

args = parse(__doc__, games=20_000)
if args.variants is None:  # every shipped variant whose [scoring] topology has a banker
    args.variants = [name for name in variant_names() if has_banker(load_variant(name))]
result = run(args, banker_toggle=True)
write(result, args, "banker_edge", result["banker_edge"])
