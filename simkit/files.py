"""Writing output files so that a reader never sees one half-written.

Each file is written under a hidden temporary name in its own folder and renamed into place
(``os.replace`` is atomic on one file system); on any error the temporary file is removed.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def atomic_write(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(tmp)`` on a temporary path beside ``path``, then rename it to ``path``."""
    final = Path(path)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return final


def check_output_dir(out: Path) -> None:
    """Raise ``ValueError`` if ``out`` cannot be created or written (before any work)."""
    probe = out
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise ValueError(f"output folder {out}: {probe} exists and is not a folder")
    # Try it: permission bits do not tell (root, read-only mounts, /proc).
    try:
        fd, name = tempfile.mkstemp(prefix=".simkit-probe-", dir=probe)
    except OSError as exc:
        raise ValueError(f"output folder {out}: {probe} is not writable ({exc.strerror})") from None
    os.close(fd)
    os.unlink(name)
