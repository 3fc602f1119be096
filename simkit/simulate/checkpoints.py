"""A run's state (:class:`RunState`), the merge of chunks into it in block order, and its
checkpoint file: data only (arrays and JSON, no pickle) under a SHA-256 checksum."""

from __future__ import annotations

import hashlib
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simkit.errors import SimkitError
from simkit.files import atomic_write
from simkit.simulate.config import SimulationConfig
from simkit.simulate.identity import run_identity
from simkit.statistics import Key, convergence_rows
from simkit.summary import BlockOutput, Summary

#: The checkpoint file's format (:func:`save_checkpoint`); 3 replaced the pickles of 1 and 2.
CHECKPOINT_FORMAT = 3


def trace_points(n_blocks: int) -> set[int]:
    """Block counts after which the convergence trace is recorded (powers of two, and the end)."""
    points = {n_blocks}
    k = 1
    while k < n_blocks:
        points.add(k)
        k *= 2
    return points


@dataclass
class RunState:
    """What a run has gathered so far, and what a checkpoint saves: the merged ``summary`` of
    the blocks in (in block order) and the convergence ``trace``, rows of
    :func:`~simkit.statistics.convergence_rows` recorded at the :func:`trace_points`."""

    summary: Summary = field(default_factory=Summary)
    trace: list[dict[str, Any]] = field(default_factory=list)


def merge_output(
    state: RunState, output: BlockOutput, config: SimulationConfig, points: set[int]
) -> None:
    """Fold one chunk's ``output`` into ``state`` in place, block by block, appending the
    convergence rows after each block count in ``points``.  Raises ``RuntimeError`` where the
    chunk does not start at the next block (chunks must be merged in block order, so that the
    result does not depend on ``n_jobs`` or the chunk size)."""
    summary = state.summary
    if output.first_block != summary.n_blocks:
        raise RuntimeError(
            f"chunks arrived out of order: expected block {summary.n_blocks}, "
            f"got {output.first_block}"
        )
    summary.add_counts(output.counts)
    for size, sums in zip(output.n_games, output.block_sums, strict=True):
        summary.fold_sums(sums)
        summary.n_games += size
        summary.n_blocks += 1
        if summary.n_blocks in points:
            state.trace.extend(convergence_rows(summary, config.variants, config.n_players))


# --------------------------------------------------------------------------- checkpoints


#: The first line of a checkpoint file; the format number follows it on the same line.
CHECKPOINT_MAGIC = b"simkit-checkpoint "


class CheckpointError(SimkitError):
    """A checkpoint file that cannot be resumed: damaged, of another format, or another run's."""


def save_checkpoint(path: Path, config: SimulationConfig, state: RunState) -> None:
    """Write the run's state to ``path`` atomically, in a format that holds data only.

    The file is a line ``simkit-checkpoint <format>``, a line with the SHA-256 (hex) of the
    payload, then the payload: an ``.npz`` archive (no pickled objects) of the summary's
    arrays and ``meta``, JSON as ``uint8``: the run's identity, the coverage, the trace and
    where each array is filed (:class:`simkit.statistics.Key`).
    """
    arrays: dict[str, np.ndarray] = {}
    filed = []
    for kind, table in (("counts", state.summary.counts), ("sums", state.summary.sums)):
        for key, value in table.items():
            name = f"a{len(arrays)}"
            arrays[name] = np.ascontiguousarray(value)
            filed.append(
                {
                    "array": name,
                    "kind": kind,
                    "enum": type(key.field).__name__,
                    "field": str(key.field),
                    "variant": int(key.variant),
                    "component": key.component,
                }
            )
    meta = {
        "format": CHECKPOINT_FORMAT,
        "identity": run_identity(config),
        "n_games": state.summary.n_games,
        "n_blocks": state.summary.n_blocks,
        "trace": state.trace,
        "arrays": filed,
    }
    buffer = io.BytesIO()
    meta_bytes = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    arrays["meta"] = meta_bytes
    np.savez(buffer, allow_pickle=False, **arrays)
    payload = buffer.getvalue()
    digest = hashlib.sha256(payload).hexdigest().encode("ascii")

    def write(tmp: Path) -> None:
        with tmp.open("wb") as fh:
            fh.write(CHECKPOINT_MAGIC + str(CHECKPOINT_FORMAT).encode("ascii") + b"\n")
            fh.write(digest + b"\n")
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())  # the checkpoint must survive a crash right after

    atomic_write(path, write)


def load_checkpoint(path: Path, config: SimulationConfig) -> RunState:
    """The state saved in ``path`` by :func:`save_checkpoint` for the run ``config``.

    Raises :class:`CheckpointError` (a ``ValueError``) naming the file and what is wrong when
    it is not a checkpoint of this format (an older, pickled one included: those are refused
    unread, since unpickling a file can run any code in it), when its content does not match
    its checksum (a changed bit, a truncated file), or when it belongs to another run.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CheckpointError(f"checkpoint {path} cannot be read: {exc}") from None
    fresh = "delete it (or give another checkpoint file) and run again"
    if data[:1] == b"\x80":  # pickle's protocol opcode: the format of simkit before 3
        raise CheckpointError(
            f"checkpoint {path} cannot be read: it is a pickled checkpoint of an older simkit, "
            f"which is not read since unpickling a file can run code; {fresh}"
        )
    header, _, rest = data.partition(b"\n")
    if not header.startswith(CHECKPOINT_MAGIC):
        what = "an empty file" if not data else "not a simkit checkpoint"
        raise CheckpointError(f"checkpoint {path} cannot be read: {what}; {fresh}")
    version = header[len(CHECKPOINT_MAGIC) :]
    if version != str(CHECKPOINT_FORMAT).encode("ascii"):
        raise CheckpointError(
            f"checkpoint {path} cannot be read: its format is {version[:20]!r}, this simkit "
            f"reads format {CHECKPOINT_FORMAT} (a damaged file, or another version's); {fresh}"
        )
    digest, _, payload = rest.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode("ascii") != digest:
        raise CheckpointError(
            f"checkpoint {path} is damaged: its content does not match its SHA-256 checksum "
            f"(a changed or truncated file), so it is not resumed; {fresh}"
        )
    try:
        meta, summary = _read_payload(payload)
    except Exception as exc:  # the checksum matched: a file written by other code
        raise CheckpointError(
            f"checkpoint {path} is damaged: its checksum matches but its content is not a "
            f"simkit checkpoint's ({exc.__class__.__name__}: {exc}); {fresh}"
        ) from None
    saved = meta["identity"]
    wanted = json.loads(json.dumps(run_identity(config)))  # as JSON reads it back
    if saved != wanted:
        diffs = [
            f"{k}: {saved.get(k)!r} there, {wanted[k]!r} here"
            for k in wanted
            if saved.get(k) != wanted[k]
        ]
        raise CheckpointError(
            f"checkpoint {path} belongs to a different run ({'; '.join(diffs)}); "
            "use another checkpoint file or delete this one"
        )
    return RunState(summary=summary, trace=meta["trace"])


def _read_payload(payload: bytes) -> tuple[dict[str, Any], Summary]:
    """The metadata and summary of a checkpoint's payload (checked against its checksum)."""
    from simkit.statistics import Count, Sum

    enums: dict[str, type[Count] | type[Sum]] = {"Count": Count, "Sum": Sum}
    with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
        meta = json.loads(archive["meta"].tobytes().decode("utf-8"))
        if meta.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"format {meta.get('format')!r} in the metadata")
        summary = Summary(n_games=int(meta["n_games"]), n_blocks=int(meta["n_blocks"]))
        for entry in meta["arrays"]:
            key = Key(enums[entry["enum"]](entry["field"]), entry["variant"], entry["component"])
            table = summary.counts if entry["kind"] == "counts" else summary.sums
            table[key] = archive[entry["array"]]
    if not isinstance(meta["trace"], list) or not isinstance(meta["identity"], dict):
        raise ValueError("no trace or identity in the metadata")
    return meta, summary
