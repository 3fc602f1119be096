"""One run per output folder: a lock for the run, and no silent overwriting of other results.

:func:`claim_output_dir` is held for a whole run (simulation and writing).  It takes an
exclusive ``flock`` on ``.simkit.lock`` inside the folder, so a second run into the same folder
fails at once (the lock dies with its process, so a killed run never leaves the folder
locked); and it refuses a folder that already holds results of a *different* run (told apart
by the run identity recorded in their ``provenance.json``) unless ``overwrite``.  A run of the
same identity may write again: it reproduces the same tables.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from simkit.errors import SimkitError
from simkit.files import STAGING_PREFIX

LOCK_NAME = ".simkit.lock"


class OutputLocked(SimkitError):
    """Another run is writing to the folder."""


@contextmanager
def claim_output_dir(
    out: str | Path,
    identity: Mapping[str, Any] | None,
    *,
    overwrite: bool = False,
    provenance: str = "provenance.json",
) -> Iterator[Path]:
    """Create ``out`` if needed, lock it for this run, and check it may take this run's results.

    ``identity``: this run's :func:`simkit.simulate.run_identity` (None: unknown, so only an
    empty folder or ``overwrite`` will do).  ``provenance``: where, inside ``out``, the
    results' ``provenance.json`` lies.  Raises ``ValueError`` (before any work) if ``out``
    cannot be a folder, is locked by another run, or holds other results.  A folder this call
    created is removed again if the run fails before writing anything into it.
    """
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise SimkitError(f"output folder {folder} exists and is not a folder")
    created = _missing_parents(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimkitError(f"output folder {folder} cannot be created ({exc.strerror})") from None
    try:
        with held_lock(folder / LOCK_NAME, f"writing to {folder}"):
            for stale in folder.glob(STAGING_PREFIX + "*"):  # left by a killed run
                shutil.rmtree(stale, ignore_errors=True)
            if not overwrite:
                _check_results(folder, identity, provenance)
            yield folder
    finally:
        for path in created:  # innermost first: only folders left empty
            try:
                path.rmdir()
            except OSError:
                break


def _missing_parents(folder: Path) -> list[Path]:
    missing = []
    probe = folder
    while not probe.exists() and probe.parent != probe:
        missing.append(probe)
        probe = probe.parent
    return missing


@contextmanager
def held_lock(path: Path, doing: str) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created, removed at the end).

    Raises :class:`OutputLocked` at once if another process holds it; ``doing`` completes the
    message "another simkit run (pid N) is ...".
    """
    fd = _lock(path, doing)
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
        os.close(fd)


def _lock(path: Path, doing: str) -> int:
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise SimkitError(f"{path.parent} is not writable ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            raise OutputLocked(
                f"another simkit run (pid {holder or 'unknown'}) is {doing}; wait for it to "
                "finish or choose another output"
            ) from None
        # The holder before us may have removed the file after we opened it: lock the live one.
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            return fd
        os.close(fd)


def _check_results(folder: Path, identity: Mapping[str, Any] | None, provenance: str) -> None:
    entries = [p.name for p in folder.iterdir() if not p.name.startswith(".")]
    if not entries:
        return
    prov_path = folder / provenance
    try:
        theirs = json.loads(prov_path.read_text(encoding="utf-8")).get("run")
    except (OSError, ValueError, AttributeError):
        theirs = None
    if identity is not None and theirs is not None and dict(theirs) == dict(identity):
        return  # the same run again: it writes the same tables
    if theirs is None:
        what = (
            "files that are not simkit results"
            if not prov_path.exists()
            else "results that do not record their run (an older simkit)"
        )
        why = f"{what} ({', '.join(sorted(entries)[:3])}{', …' if len(entries) > 3 else ''})"
    else:
        diffs = [
            f"{k}: {theirs.get(k)!r} there, {v!r} here"
            for k, v in (identity or {}).items()
            if theirs.get(k) != v and k != "win_tables_sha256"
        ]
        if identity and theirs.get("win_tables_sha256") != identity.get("win_tables_sha256"):
            diffs.append("other win tables")
        why = "results of another run" + (f" ({'; '.join(diffs)})" if diffs else "")
    raise SimkitError(
        f"{folder} already holds {why}; pass --overwrite to replace them, or choose another "
        "output folder"
    )
