"""Writing output files so that a reader never sees one half-written.

Each file is written under a hidden temporary name in its own folder and renamed into place
(``os.replace`` is atomic on one file system); on any error the temporary file is removed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from simkit.errors import SimkitError

#: Hidden folders that writers stage files in, inside the output folder; one left behind by a
#: killed run is removed by the next run that locks the folder (:mod:`simkit.locks`).
STAGING_PREFIX = ".simkit-stage-"


def user_cache_dir() -> Path:
    """The user cache folder of simkit: ``$SIMKIT_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/simkit``, else ``~/.cache/simkit`` (each cache has a subfolder)."""
    root = os.environ.get("SIMKIT_CACHE_DIR")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "simkit"


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


def check_output_dir(out: Path, *, what: str = "output folder") -> None:
    """Raise ``SimkitError`` (a ``ValueError``) if ``out`` cannot be created or written (before
    any work); ``what`` names the folder in the message (``"checkpoint folder"``)."""
    probe = out
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise SimkitError(f"{what} {out}: {probe} exists and is not a folder")
    _probe_writable(probe, f"{what} {out}")


def _probe_writable(folder: Path, what: str) -> None:
    """Create and remove a file in ``folder``: permission bits do not tell (root, read-only
    mounts, /proc), so try it."""
    try:
        fd, name = tempfile.mkstemp(prefix=".simkit-probe-", dir=folder)
    except OSError as exc:
        raise SimkitError(f"{what}: {folder} is not writable ({exc.strerror})") from None
    os.close(fd)
    os.unlink(name)


@contextmanager
def staged_dir(out: str | Path) -> Iterator[Path]:
    """A hidden folder inside ``out`` to write into; its files move into ``out`` on success.

    Everything a step writes goes to the staging folder first, so a step that fails half-way
    (a broken table, a plot error, Ctrl-C) leaves ``out`` as it was; on success each file is
    renamed into place (sub-folders included), each rename atomic.
    """
    final = Path(out)
    final.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=final))
    try:
        yield stage
        for path in sorted(stage.rglob("*")):
            if path.is_file():
                target = final / path.relative_to(stage)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, target)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def check_output_file(path: str | Path, *, suffix: str | None = None, overwrite: bool) -> Path:
    """Raise ``SimkitError`` (a ``ValueError``) unless ``path`` can be written as a new file
    (before any work).

    Its folder must exist or be creatable and be writable; an existing file is refused unless
    ``overwrite``; ``suffix`` (such as ``".npz"``) is required when given.
    """
    target = Path(path)
    if suffix is not None and target.suffix != suffix:
        raise SimkitError(f"output file {target} must end in {suffix}")
    if target.is_dir():
        raise SimkitError(f"output file {target} is a folder")
    if target.exists() and not overwrite:
        raise SimkitError(f"{target} exists; pass --overwrite to replace it")
    probe = target.parent
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if not probe.is_dir():
        raise SimkitError(f"output file {target}: {probe} exists and is not a folder")
    _probe_writable(probe, f"output file {target}")
    return target
