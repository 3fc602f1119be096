"""The pipeline's one dependency direction, checked on the source: no module imports a later
stage (imports inside functions included), and no two modules import each other."""

import ast
from pathlib import Path

import simkit

PACKAGE = Path(simkit.__file__).parent

# The stages in pipeline order (docs/architecture.md); a module may import its own stage or an
# earlier one.  Packages (arrange, variants, commands) count as one unit each.
STAGES = [
    {"errors", "cards", "splits", "summary", "files", "borrow"},
    {"variants"},
    {"deal"},
    {"evaluate"},
    {"specials", "exact", "exact_decks"},
    {"arrange"},
    {"score"},
    {"phases"},
    {"statistics", "regret", "train", "describe", "setting_scores"},
    {"rollout", "objective"},
    {"tables", "plots", "parallel", "locks", "kernel_cache"},
    {"simulate"},
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
