"""Kept games: each game's set hands, declared specials and banker seat, stored with a run.

A run with ``keep_games`` (:func:`simkit.simulate.simulate`, ``simkit simulate --keep-games``)
writes, per block of :data:`simkit.simulate.BLOCK_GAMES` games, one uncompressed ``.npz`` file
``block-NNNNNN.npz`` into its kept folder as the block's chunk comes in, so memory stays flat
in the number of games, and at the end ``kept.json`` (the format, the layout and the run's
provenance).  Files are named by block, not by chunk, so the same seed gives the same files
for any ``n_jobs`` or chunk size.

Arrays of one block file (``n`` games, ``p`` players, ``v`` the variant's index in the run):

- ``banker``: ``int8 (n,)``, the banker's seat (simkit plays seat 0 as the banker);
- ``cards{v}``: ``int8 (n, p, 13)``, each hand as set, after the phases that change hands
  ([deal]'s card pass and exchange), in dun order [front 3 | middle 5 | back 5];
- ``declared{v}``: ``int8 (n, p)``, the index into the variant's ``specials.rules`` of the
  special declared, -1 for none;
- ``value{v}``: ``float64 (n, p)``, the strategy's value of each hand, only where the variant
  plays phases after setting and the strategy keeps a value (the phases decide by it);
- ``paid{v}:{name}``: ``float64 (n, p)``, each payment of the phases before setting (the
  exchange's fees), only where the variant plays them.

So a game costs :func:`bytes_per_game` bytes: ``1 + V·14·p`` without phases (57 bytes at 4
players and one variant: a 1,000,000-game run keeps 57 MB), plus ``8·p`` per kept value or
payment.  Each file adds a fixed zip/npy header of a few hundred bytes.
"""

from __future__ import annotations

import functools
import io
import json
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange import Arrangement
from simkit.cards import HAND_SIZE
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.files import atomic_write
from simkit.specials import best_special, detect_specials
from simkit.variants import Variant

#: The layout of a kept folder; a reader refuses any other.
KEPT_FORMAT = 1
#: The kept folder's name inside a run folder.
KEPT_DIR = "kept"
MANIFEST = "kept.json"
BLOCK_GLOB = "block-*.npz"


def block_path(folder: Path, block: int) -> Path:
    """The file of block ``block`` in kept folder ``folder``."""
    return folder / f"block-{block:06d}.npz"


def kept_arrays(
    plays: Sequence[Arrangement],
    variants: Sequence[Variant],
    before_paid: Sequence[Mapping[str, np.ndarray]],
) -> dict[str, np.ndarray]:
    """One block's arrays to keep (the module docstring names them), from each variant's
    :class:`~simkit.arrange.Arrangement` and what its phases before setting paid."""
    n = plays[0].cards.shape[0]
    arrays: dict[str, np.ndarray] = {"banker": np.zeros(n, dtype=np.int8)}
    for v, (play, variant, paid) in enumerate(zip(plays, variants, before_paid, strict=True)):
        arrays[f"cards{v}"] = np.ascontiguousarray(play.cards, dtype=np.int8)
        arrays[f"declared{v}"] = np.ascontiguousarray(play.declared, dtype=np.int8)
        if variant.phases.any_enabled and play.value is not None:
            arrays[f"value{v}"] = np.asarray(play.value, dtype=np.float64)
        for name, amount in paid.items():
            arrays[f"paid{v}:{name}"] = np.asarray(amount, dtype=np.float64)
    return arrays


def bytes_per_game(n_players: int, n_variants: int = 1, extra_arrays: int = 0) -> int:
    """Bytes a kept game takes in the block files (headers aside): the banker seat, then per
    variant 13 cards and a declared special per player; ``extra_arrays`` float64 per-player
    arrays (kept values, phase payments) add ``8·p`` each."""
    return 1 + n_variants * n_players * (HAND_SIZE + 1) + extra_arrays * 8 * n_players


def write_block(folder: Path, block: int, arrays: Mapping[str, np.ndarray]) -> Path:
    """Write one block's arrays atomically (a reader never sees half a file)."""

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as fh:
            np.savez(fh, **dict(arrays))  # type: ignore[arg-type]

    return atomic_write(block_path(folder, block), write)


def clear_kept(folder: Path) -> None:
    """Remove the block files and manifest of an earlier run from ``folder`` (a new run)."""
    for path in folder.glob(BLOCK_GLOB):
        path.unlink()
    (folder / MANIFEST).unlink(missing_ok=True)


def write_manifest(folder: Path, provenance: Mapping[str, Any], n_blocks: int) -> Path:
    """Write ``kept.json``: the format, the block count, the variants' files and the run's
    provenance (seed, strategy, players, variants' keys)."""
    manifest = {
        "kept_format": KEPT_FORMAT,
        "n_blocks": n_blocks,
        "bytes_per_game": bytes_per_game(provenance["n_players"], len(provenance["variants"])),
        "provenance": dict(provenance),
    }
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    return atomic_write(folder / MANIFEST, lambda tmp: tmp.write_text(text, encoding="utf-8"))


@dataclass(frozen=True)
class KeptGames:
    """A kept folder, read block by block (nothing is loaded until iterated)."""

    folder: Path
    provenance: dict[str, Any]
    n_blocks: int

    @property
    def n_players(self) -> int:
        """Players at the run's table (its provenance's ``n_players``)."""
        return int(self.provenance["n_players"])

    @property
    def n_games(self) -> int:
        """Games the run played and kept (its provenance's ``n_games``)."""
        return int(self.provenance["n_games"])

    @property
    def variant_names(self) -> list[str]:
        """The run's variants' names, in the order of the blocks' per-variant arrays."""
        return [v["name"] for v in self.provenance["variants"]]

    def blocks(self, first: int = 0, stop: int | None = None) -> Iterator[dict[str, np.ndarray]]:
        """Each block's arrays, in block order, blocks ``first .. stop - 1`` (None: to the
        end), read-only views of the memory-mapped block files (:func:`map_block`)."""
        for block in range(first, self.n_blocks if stop is None else stop):
            yield map_block(block_path(self.folder, block))


_LOCAL_HEADER = b"PK\x03\x04"
_ZIP64_EXTRA = 0x0001


def _load_block(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


@functools.lru_cache(maxsize=64)
def _npy_header(text: bytes) -> tuple[tuple[int, ...], bool, np.dtype]:
    """``(shape, fortran_order, dtype)`` of an ``.npy`` header (the same text in every block
    file of a run, so it is parsed once)."""
    with io.BytesIO(text) as fh:
        version = np.lib.format.read_magic(fh)
        if version == (1, 0):
            return np.lib.format.read_array_header_1_0(fh)
        return np.lib.format.read_array_header_2_0(fh)


def map_block(path: Path) -> dict[str, np.ndarray]:
    """The arrays of one block file, as read-only views into the file memory-mapped once.

    Block files are uncompressed ``.npz`` (zip, stored, sizes in the local headers): each member
    is an ``.npy`` lying whole in the file after its zip local header, so the members are
    walked header by header and each array is viewed where it lies, not read through
    :mod:`zipfile`.  Equal, array for array, to ``np.load(path)``; a file that is laid out
    otherwise (compressed, sizes in data descriptors, another ``.npy`` version: none written by
    :func:`write_block`) is read by ``np.load``.
    """
    mapped = np.memmap(path, dtype=np.uint8, mode="r")
    raw = mapped.data  # a memoryview of the mapped bytes
    out: dict[str, np.ndarray] = {}
    pos = 0
    while bytes(raw[pos : pos + 4]) == _LOCAL_HEADER:
        flags, method = struct.unpack_from("<HH", raw, pos + 6)
        size, _, name_len, extra_len = struct.unpack_from("<IIHH", raw, pos + 18)
        name = bytes(raw[pos + 30 : pos + 30 + name_len]).decode()
        extra = pos + 30 + name_len
        if size == 0xFFFFFFFF:
            size = _zip64_size(raw, extra, extra + extra_len)
        start = extra + extra_len
        version = bytes(raw[start + 6 : start + 8])
        if flags & 0x08 or method != 0 or size < 0 or version not in (b"\x01\x00", b"\x02\x00"):
            return _load_block(path)
        length_at, length_fmt = (start + 8, "<H") if version == b"\x01\x00" else (start + 8, "<I")
        (header_len,) = struct.unpack_from(length_fmt, raw, length_at)
        data = length_at + struct.calcsize(length_fmt) + header_len
        shape, fortran, dtype = _npy_header(bytes(raw[start:data]))
        count = int(np.prod(shape, dtype=np.int64))
        flat = np.frombuffer(mapped, dtype=dtype, count=count, offset=data)
        out[name.removesuffix(".npy")] = flat.reshape(shape, order="F" if fortran else "C")
        pos = start + size
    if not out:
        raise SimkitError(f"{path}: not a block file (no zip member at its start)")
    return out


def _zip64_size(raw: memoryview, start: int, stop: int) -> int:
    """The compressed size in a local header's zip64 extra field (-1 where there is none)."""
    while start + 4 <= stop:
        tag, length = struct.unpack_from("<HH", raw, start)
        if tag == _ZIP64_EXTRA and length >= 16:
            return int(struct.unpack_from("<Q", raw, start + 12)[0])
        start += 4 + length
    return -1


def open_kept(run: str | Path) -> KeptGames:
    """The kept games of run folder ``run`` (or of a kept folder itself).

    Raises :class:`~simkit.errors.SimkitError` when there are none (a run without
    ``--keep-games``), when the format is another, or when a block file is missing.
    """
    folder = Path(run)
    if not (folder / MANIFEST).exists() and (folder / KEPT_DIR / MANIFEST).exists():
        folder = folder / KEPT_DIR
    manifest_path = folder / MANIFEST
    if not manifest_path.exists():
        raise SimkitError(
            f"{run} holds no kept games ({KEPT_DIR}/{MANIFEST} is missing); simulate with "
            "--keep-games to keep them"
        )
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    if manifest.get("kept_format") != KEPT_FORMAT:
        raise SimkitError(
            f"{manifest_path}: kept format {manifest.get('kept_format')!r}, this simkit reads "
            f"{KEPT_FORMAT}"
        )
    n_blocks = int(manifest["n_blocks"])
    missing = [b for b in range(n_blocks) if not block_path(folder, b).exists()]
    if missing:
        raise SimkitError(
            f"{folder}: {len(missing)} of {n_blocks} block files are missing "
            f"(first {block_path(folder, missing[0]).name})"
        )
    return KeptGames(folder=folder, provenance=manifest["provenance"], n_blocks=n_blocks)


def kept_arrangement(
    cards: np.ndarray,
    declared: np.ndarray,
    variant: Variant,
    n_players: int,
    value: np.ndarray | None = None,
) -> Arrangement:
    """The :class:`~simkit.arrange.Arrangement` of kept hands under ``variant``: its duns
    ranked and its specials detected by ``variant``'s rules, the declarations as kept.

    ``cards``: ``int8 (n, p, 13)`` in dun order; ``declared``: ``int8 (n, p)``, indices into
    ``variant.specials.rules``.  ``split_ids`` is not kept and is -1, a read-only broadcast
    (nothing downstream of setting reads it).
    """
    flat = np.ascontiguousarray(cards, dtype=np.int8).reshape(-1, HAND_SIZE)
    masks = detect_specials(
        np.sort(flat, axis=1), variant, decks=variant.deck_for(n_players).decks
    ).reshape(declared.shape)
    return Arrangement(
        cards=cards,
        declared=declared,
        split_ids=np.broadcast_to(np.int64(-1), (*declared.shape, 3)),
        ranks=dun_ranks(flat, variant).reshape((*declared.shape, 3)),
        special_masks=masks,
        best=best_special(masks).astype(np.int8).reshape(declared.shape),
        value=value,
    )
