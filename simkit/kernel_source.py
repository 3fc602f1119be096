"""numba's on-disk cache of simkit's kernels, keyed by every simkit source file they import.

numba keys a cached kernel by its own source file only, so an edit of a module whose
functions a kernel inlines (``arrange/value.py``'s helpers in ``arrange/search.py``'s walk)
would leave the stale compiled kernel in use with no error.  Here the key of a kernel in a
simkit module is that file's stamp and a digest of the source of every simkit module it
imports, directly or through others (:func:`source_digest`, read from the import statements,
those inside functions included): an edit of any of them compiles the kernel afresh.

:func:`install` puts numba's user-provided and in-tree locators, with that key, first in
numba's list (for simkit's files; numba's own serve any other).  ``import simkit`` calls
:func:`install_when_numba_loads`, which imports nothing heavy: it installs them when
``numba.core.caching`` is first imported (at once where it already is).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE = Path(__file__).resolve().parent
_CACHING = "numba.core.caching"


def _module_file(name: str) -> Path | None:
    """The source file of simkit module ``name`` (``simkit.a.b``), None if there is none."""
    parts = name.split(".")[1:]
    base = PACKAGE.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@cache
def _direct_imports(path: Path) -> frozenset[Path]:
    """The simkit source files ``path`` imports (``from simkit.a import b`` counts
    ``simkit/a/b.py`` where that is a module, else ``simkit/a``'s own file)."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name == "simkit" or name.startswith("simkit."):
                target = _module_file(name)
                if target is not None:
                    found.add(target)
    return frozenset(found)


@cache
def source_digest(path: Path) -> str:
    """sha256 of the source of ``path`` and of every simkit module it imports, directly or
    through others (the closure, in a fixed order)."""
    seen: set[Path] = set()
    todo = [path]
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(_direct_imports(p))
    h = hashlib.sha256()
    for p in sorted(seen):
        h.update(str(p.relative_to(PACKAGE)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def _in_package(py_file: str) -> bool:
    try:
        Path(py_file).resolve().relative_to(PACKAGE)
    except ValueError:
        return False
    return True


def _locators(caching: ModuleType) -> tuple[type, type]:
    """numba's user-provided and in-tree locators with :func:`source_digest` in their
    stamp, for simkit's files only (None for any other file: numba's own locators serve it)."""

    class ClosureStamp:
        _py_file: str

        def get_source_stamp(self) -> Any:
            own = super().get_source_stamp()  # type: ignore[misc]
            return (own, source_digest(Path(self._py_file).resolve()))

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not _in_package(py_file):
                return None
            return super().from_function(py_func, py_file)  # type: ignore[misc]

    class UserProvidedLocator(ClosureStamp, caching.UserProvidedCacheLocator):  # type: ignore[name-defined]
        pass

    class InTreeLocator(ClosureStamp, caching.InTreeCacheLocator):  # type: ignore[name-defined]
        pass

    return UserProvidedLocator, InTreeLocator


def install(caching: ModuleType | None = None) -> None:
    """Put the simkit locators first in ``numba.core.caching``'s list (once): a
    ``$NUMBA_CACHE_DIR`` where set, else the ``__pycache__`` beside the source, as numba
    does, with the closure's digest in the key."""
    if caching is None:
        caching = importlib.import_module(_CACHING)
    impl = caching.CacheImpl
    if any(getattr(c, "_simkit", False) for c in impl._locator_classes):
        return
    user, in_tree = _locators(caching)
    user._simkit = in_tree._simkit = True  # type: ignore[attr-defined]
    impl._locator_classes = [user, in_tree, *impl._locator_classes]


class _InstallOnImport(importlib.abc.MetaPathFinder):
    """Installs the locators right after ``numba.core.caching`` is first imported."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != _CACHING:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            install(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install_when_numba_loads() -> None:
    """:func:`install` now if numba's caching is imported, else when it is."""
    if _CACHING in sys.modules:
        install(sys.modules[_CACHING])
    elif not any(isinstance(f, _InstallOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _InstallOnImport())
