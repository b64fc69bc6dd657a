"""The layout of docs/ARCHITECTURE.md, checked: no module imports one that imports it
back (imports inside functions counted), and the engine imports nothing but itself and
the standard library."""

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue  # Alembic loads revisions by file, each frozen as it was written
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The app's modules ``module`` imports, at the top or inside a function."""
    names: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                names.add(
                    f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                )
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    edges = set()
    for name in names:
        if name not in modules:
            continue
        edges.add(name)
        # Importing a.b.c runs a.b first, unless this module is inside a.b already.
        parts = name.split(".")
        for end in range(2, len(parts)):
            parent = ".".join(parts[:end])
            if parent in modules and not module.startswith(parent + "."):
                edges.add(parent)
    # The top package is create_app(): it imports every area, and runs before any of them.
    return edges - {module, "scorekeeper"}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_one_that_imports_it_back():
    modules = _modules()
    graph = {name: _imported(name, path, modules) for name, path in modules.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_engine_imports_only_itself_and_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"scorekeeper"}
    for path in (PACKAGE / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                top = (node.module or "").split(".")[0]
                assert top in allowed, f"{path.name} imports {node.module}"
                if top == "scorekeeper":
                    assert (node.module or "").startswith("scorekeeper.engine"), path.name
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] in allowed, f"{path.name} imports {alias.name}"
