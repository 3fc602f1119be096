"""The banker's edge in banker variants, with and without 食夹棍 (table ``banker_edge``)."""

from _experiment import parse, run, write

args = parse(__doc__, games=20_000)
if args.variants is None:
    args.variants = ["hongkong", "philippines", "taiwan"]
result = run(args, banker_toggle=True)
write(result, args, "banker_edge", result["banker_edge"])
