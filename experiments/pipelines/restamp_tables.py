"""Re-stamp the shipped win tables with their variant's key, without retraining.

A variant's key is derived from its rules.  When the way it is derived changes but the rules
do not (a citation edited, a key moved to another table), the tables trained under those rules
stay valid and only ``meta["variant_key"]`` is rewritten; after a change of the rules, retrain
instead (``simkit train``, see ``simkit/data/README.md``).  The arrays are copied unchanged
(same names, dtypes and bytes, checked after writing).

    python -m experiments.pipelines.restamp_tables            # rewrite simkit/data/*.npz
    python -m experiments.pipelines.restamp_tables --check    # exit 1 if a stamp is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from experiments.support import write_meta
from simkit.variants import load_variant

DATA = Path(__file__).resolve().parents[2] / "simkit" / "data"


def restamp(path: Path, *, write: bool) -> bool:
    """Whether ``path``'s stamp was stale (rewritten when ``write``)."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {name: z[name] for name in z.files}
    meta = json.loads(str(arrays["meta"]))
    # max-ev's <variant>-<players>p.npz or expected-score's <variant>-<players>p-fine.npz
    if path.name != meta.get("file", f"{meta['variant']}-{meta['n_players']}p.npz"):
        raise SystemExit(f"{path.name}: meta names {meta['variant']} at {meta['n_players']}p")
    key = load_variant(meta["variant"]).key
    if meta["variant_key"] == key:
        return False
    print(f"{path.name}: {meta['variant_key']} -> {key}")
    if write:
        meta["variant_key"] = key
        write_meta(path, arrays, meta)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale stamps, write nothing")
    args = parser.parse_args(argv)
    # the table files: <variant>-<players>p.npz and -fine.npz, not the card-removal models
    tables = [p for p in sorted(DATA.glob("*.npz")) if p.name.endswith(("p.npz", "p-fine.npz"))]
    stale = [restamp(p, write=not args.check) for p in tables]
    return 1 if args.check and any(stale) else 0


if __name__ == "__main__":
    sys.exit(main())
