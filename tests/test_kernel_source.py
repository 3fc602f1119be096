"""numba's on-disk cache is keyed by every simkit module a kernel imports
(:mod:`simkit.kernel_source`): an edit of a helper a kernel inlines compiles it afresh.

Each check runs in a scratch copy of the package (a tmp folder, fresh processes), so that its
cache starts empty and the edits touch nothing of this tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import simkit

HELPER = """import numba as nb


@nb.njit
def helper():
    return {value}
"""
KERNEL = """import numba as nb

from simkit.probe_helper import helper


@nb.njit(cache=True)
def kernel():
    return helper()
"""
#: Run the probe kernel; with ``--numba-only`` numba's own locators key the cache (the
#: control: the kernel's file alone).
RUN = """
import sys
import simkit
if "--numba-only" in sys.argv:
    sys.meta_path = [f for f in sys.meta_path if type(f).__name__ != "_InstallOnImport"]
from simkit.probe_kernel import kernel
print(kernel())
"""


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A copy of the package without its caches, with a probe kernel and its helper."""
    src = Path(simkit.__file__).parent
    shutil.copytree(src, tmp_path / "simkit", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "simkit" / "probe_helper.py").write_text(HELPER.format(value=1))
    (tmp_path / "simkit" / "probe_kernel.py").write_text(KERNEL)
    return tmp_path


def _run(root: Path, *args: str, code: str = RUN) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["PYTHONPATH"] = str(root)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=root, env=env, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return done.stdout.strip()


def _edit_helper(root: Path, value: int) -> None:
    path = root / "simkit" / "probe_helper.py"
    path.write_text(HELPER.format(value=value))
    stamp = path.stat().st_mtime_ns + 2_000_000_000  # a later mtime, whatever the clock
    os.utime(path, ns=(stamp, stamp))


def test_an_edited_helper_compiles_the_kernel_afresh(scratch: Path) -> None:
    assert _run(scratch) == "1"
    cached = list((scratch / "simkit" / "__pycache__").glob("probe_kernel.kernel-*.nbi"))
    assert cached, "the kernel was not cached"
    _edit_helper(scratch, 2)
    assert _run(scratch) == "2"
    assert _run(scratch) == "2"  # and cached again


def test_keyed_by_the_kernels_file_alone_the_stale_kernel_runs(scratch: Path) -> None:
    """The control: numba's own key (the kernel's file) misses the helper's edit."""
    assert _run(scratch, "--numba-only") == "1"
    _edit_helper(scratch, 2)
    assert _run(scratch, "--numba-only") == "1"


def test_the_digest_follows_the_imports(scratch: Path) -> None:
    """The search kernels' key moves with an edit of the value model they inline, not with
    an edit of a module they do not import."""
    code = (
        "from pathlib import Path; from simkit.kernel_source import source_digest; "
        "print(source_digest(Path('simkit/arrange/search.py').resolve()))"
    )
    before = _run(scratch, code=code)
    with (scratch / "simkit" / "report.py").open("a") as f:
        f.write("\n# an edit outside the kernels' imports\n")
    assert _run(scratch, code=code) == before
    with (scratch / "simkit" / "arrange" / "value.py").open("a") as f:
        f.write("\n# an edit of a module the search inlines\n")
    assert _run(scratch, code=code) != before
