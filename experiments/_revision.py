"""An earlier revision of simkit, importable beside the working tree's, for A/B benchmarks in one
process.

``simkit_at(rev)`` extracts the ``simkit`` package of git revision ``rev`` (``git archive``) into
``.bench-revisions/simkit_<rev>/`` (ignored by git, kept between runs so that its numba cache
stays warm), renames it ``simkit_<rev>`` in its own imports and module paths, and imports it:
the previous version's kernels run verbatim in the same process as the new ones, so that a
shared machine's busy spells fall on both alike.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
REVISIONS = ROOT / ".bench-revisions"
#: ``simkit`` where it names the package: before a dot (``simkit.arrange``, ``"simkit.phases"``),
#: as an imported name (``import simkit``, ``from simkit import``) or where its data files are
#: read (``resources.files("simkit")``)
_PACKAGE = re.compile(
    r'\bsimkit(?=\.)|(?<=import )simkit\b|(?<=from )simkit\b|(?<=files\(")simkit(?=")'
)


def simkit_at(rev: str) -> ModuleType:
    """The ``simkit`` package of git revision ``rev``, imported as ``simkit_<rev>`` (the
    revision's full hash, cut to 10 hex digits)."""
    full = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    if full.returncode != 0:
        raise SystemExit(f"no such git revision: {rev!r}")
    name = f"simkit_{full.stdout.strip()[:10]}"
    package = REVISIONS / name / name
    if not package.exists():
        REVISIONS.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory(dir=REVISIONS) as tmp:
            archive = Path(tmp) / "simkit.tar"
            subprocess.run(
                ["git", "archive", "--output", str(archive), full.stdout.strip(), "simkit"],
                cwd=ROOT, check=True,
            )  # fmt: skip
            with tarfile.open(archive) as tar:
                tar.extractall(tmp, filter="data")
            for path in (Path(tmp) / "simkit").rglob("*.py"):
                path.write_text(_PACKAGE.sub(name, path.read_text()))
            package.parent.mkdir(parents=True, exist_ok=True)
            (Path(tmp) / "simkit").rename(package)
    if str(package.parent) not in sys.path:
        sys.path.insert(0, str(package.parent))
    return importlib.import_module(name)
