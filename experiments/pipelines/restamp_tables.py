"""Re-stamp the shipped win tables with their variant's key, without retraining.

A variant's key is derived from its rules.  When the way it is derived changes but the rules
do not (a citation edited, a key moved to another table), the tables trained under those rules
stay valid and only ``meta["variant_key"]`` is rewritten; after a change of the rules, retrain
instead (``simkit train``, see ``simkit/data/README.md``).  The arrays are copied unchanged
(same names, dtypes and bytes, checked after writing).

    python experiments/restamp_tables.py            # rewrite simkit/data/*.npz
    python experiments/restamp_tables.py --check    # exit 1 if a stamp is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange.wintables import _load_shipped
from simkit.files import atomic_write
from simkit.variants import load_variant

DATA = Path(__file__).resolve().parents[1] / "simkit" / "data"


def _save(path: Path, arrays: dict[str, np.ndarray]) -> None:
    with open(path, "wb") as f:  # a file object: savez would add ".npz" to a bare path
        np.savez_compressed(f, **arrays)


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


def write_meta(path: Path, arrays: dict[str, np.ndarray], meta: dict) -> None:
    """Rewrite the table file ``path`` with ``meta`` and its other arrays unchanged (checked
    after writing: same names, dtypes and bytes)."""
    arrays = {**arrays, "meta": np.array(json.dumps(meta, ensure_ascii=False))}
    atomic_write(path, lambda tmp: _save(tmp, arrays))
    with np.load(path, allow_pickle=False) as z:
        for name, before in arrays.items():
            after = z[name]
            if name != "meta" and (
                after.dtype != before.dtype or after.tobytes() != before.tobytes()
            ):
                raise AssertionError(f"{path.name}: array {name} changed")


def set_meta(path: Path, update: dict[str, Any]) -> str:
    """Rewrite the table file ``path``'s ``meta`` with ``update`` (a None value removes the
    key), its arrays unchanged (:func:`write_meta`); returns what was done: ``"written"``,
    ``"removed"`` or ``"unchanged"`` (nothing to remove: the file is not rewritten)."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {name: z[name] for name in z.files}
    meta = json.loads(str(arrays["meta"]))
    if all(value is None and key not in meta for key, value in update.items()):
        return "unchanged"
    for key, value in update.items():
        if value is None:
            meta.pop(key, None)
        else:
            meta[key] = value
    write_meta(path, arrays, meta)
    _load_shipped.cache_clear()  # the next read sees the file as it is now
    return "removed" if all(value is None for value in update.values()) else "written"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale stamps, write nothing")
    args = parser.parse_args(argv)
    stale = [restamp(p, write=not args.check) for p in sorted(DATA.glob("*.npz"))]
    return 1 if args.check and any(stale) else 0


if __name__ == "__main__":
    sys.exit(main())
