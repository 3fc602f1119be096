"""The pipeline's one dependency direction, checked on the source: no module imports a later
stage (imports inside functions included), no two modules import each other, inside a
package as between stages, and no module imports another's private names where that rule is
kept."""

import ast
from pathlib import Path

import simkit

PACKAGE = Path(simkit.__file__).parent

# The stages in pipeline order (docs/architecture.md); a module may import its own stage or an
# earlier one.  Packages (arrange, variants, commands) count as one unit each.
STAGES = [
    {"errors", "cards", "splits", "summary", "files", "borrow", "kernel_source"},
    {"variants"},
    {"deal"},
    {"evaluate"},
    {"specials", "exact", "exact_decks"},
    {"arrange"},
    {"score"},
    {"phases"},
    {"statistics", "regret", "train", "tables_cache", "describe", "setting_scores", "skill"},
    {"rollout", "objective"},
    {"tables", "plots", "parallel", "locks", "kernel_cache", "kept"},
    {"simulate", "rescore", "par", "design"},
    {"report"},
    {"commands", "cli", "__main__", "__init__"},
]


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).with_suffix("")
        unit = rel.parts[0] if len(rel.parts) > 1 or rel.parts[0] != "__init__" else "__init__"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                if name.startswith("simkit.") and _unit(name) != unit:
                    graph.setdefault(unit, set()).add(_unit(name))
    return graph


def test_every_module_has_a_stage():
    stage_of = {u for stage in STAGES for u in stage}
    units = {p.relative_to(PACKAGE).parts[0].removesuffix(".py") for p in PACKAGE.glob("*")}
    units = {u for u in units if not u.startswith(("_", ".")) and u != "data"} | {"__init__"}
    assert units - stage_of == set()


def test_no_module_imports_a_later_stage():
    stage = {u: i for i, units in enumerate(STAGES) for u in units}
    backward = [(a, b) for a, targets in _imports().items() for b in targets if stage[b] > stage[a]]
    assert backward == []


def test_no_import_cycles():
    graph = _imports()

    def reachable(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    assert [u for u in graph if u in reachable(u)] == []


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = rel.parts[:-1] if rel.parts[-1] == "__init__" else rel.parts
    return ".".join(("simkit", *parts))


def _module_imports() -> dict[str, set[str]]:
    """Module → the simkit modules it imports (a package's ``__init__`` is the package)."""
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = _module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [
                    f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules
                    else node.module
                    for a in node.names
                ]  # fmt: skip
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph.setdefault(name, set()).update(t for t in targets if t in modules and t != name)
    return graph


def test_no_import_cycles_inside_a_package():
    """Inside ``simkit.arrange`` (and every package), no module reaches itself through the
    modules it imports; the package's ``__init__``, which re-exports, is left out."""
    graph = _module_imports()
    packages = {n for n in graph if (PACKAGE / Path(*n.split(".")[1:]) / "__init__.py").exists()}

    def reachable(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen and nxt not in packages:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    inside = [n for n in graph if n.startswith("simkit.arrange.")]
    assert inside, "the graph sees no module inside simkit.arrange"
    assert [n for n in graph if n not in packages and n in reachable(n)] == []


def _private_uses(path: Path, modules: set[str], text: str | None = None) -> list[tuple[str, str]]:
    """The private names of other simkit modules that the module at ``path`` (its source
    ``text``, read from ``path`` when None) uses:
    ``from simkit.x import _y`` (relative imports resolved) and ``m._y`` where ``m`` is a
    simkit module bound by an import.  Returns ``(module, name)`` pairs."""
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text)
    bound: dict[str, str] = {}  # local name -> the simkit module it binds
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            if module != "simkit" and not module.startswith("simkit."):
                continue
            for alias in node.names:
                if f"{module}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{module}.{alias.name}"
                elif alias.name.startswith("_") and not alias.name.startswith("__"):
                    if module != me:
                        uses.append((module, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("simkit"):
                    bound[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        if node.attr.startswith("__"):
            continue
        value, dotted = node.value, []
        while isinstance(value, ast.Attribute):
            dotted.insert(0, value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id in bound:
            target = ".".join([bound[value.id], *dotted])
            if target in modules and target != me:
                uses.append((target, node.attr))
    return uses


def test_no_private_name_is_imported_across_modules():
    """No simkit module, inside a package (simkit.arrange.*) or between them, imports or
    reads another module's private name; what two modules share is public."""
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    bad = [
        (_module_name(path), f"{module}.{name}")
        for path in sorted(PACKAGE.rglob("*.py"))
        for module, name in _private_uses(path, modules)
    ]
    assert bad == []


def test_the_private_name_check_sees_every_form():
    """Negative control: each form of a private cross-module use is caught, relative imports
    and attribute access inside a package included, and a module's own names are not."""
    fake = PACKAGE / "arrange" / "_probe_for_the_test.py"
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")} | {_module_name(fake)}
    source = (
        "from simkit.arrange.search import _hidden\n"
        "from .value import _other\n"
        "from simkit.arrange import search\n"
        "import simkit.score as sc\n"
        "x = search._third\n"
        "y = sc._kernel\n"
        "def _mine(): return _mine\n"
    )
    uses = _private_uses(fake, modules, source)
    assert sorted(uses) == [
        ("simkit.arrange.search", "_hidden"),
        ("simkit.arrange.search", "_third"),
        ("simkit.arrange.value", "_other"),
        ("simkit.score", "_kernel"),
    ]
