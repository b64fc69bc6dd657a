"""The layout of docs/ARCHITECTURE.md, checked.

* **Packages form a one-way stack.** Each area (``engine``, ``models``, ``web``,
  ``records``, ``accounts``, ``table``, ``league``, ``api``, ``ops``) and each shared
  module beside them (``errors.py``, ``names.py``, …) is one node; no node imports one
  that imports it back, directly or through others. Imports inside functions count.
* **The floor imports no area**: the shared modules and ``models/`` import only each
  other and the engine; the engine imports only itself and the standard library.
* **The top package** (``create_app``) imports every area, so no module may import it,
  but for the console script's (``pyproject.toml``'s ``[project.scripts]``): a program
  that starts the app, which nothing imports.
* **No module imports one that imports it back**, within a package too.
* **Sizes**: no module over 450 lines, no function over 40 lines unless its docstring or
  a comment says it reads better whole.
"""

import ast
import functools
import re
import shutil
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
TOP = "scorekeeper"
#: The top: the package, whose ``create_app`` is ``app.py``'s, loaded when first asked for.
TOP_MODULES = {TOP, "scorekeeper.app"}
#: What the floor is made of, besides the shared modules (top-level ``.py`` files).
FLOOR_PACKAGES = {"engine", "models"}


def _modules(package: Path = PACKAGE) -> dict[str, Path]:
    found = {}
    for path in package.rglob("*.py"):
        if "migrations" in path.parts:
            continue  # Alembic loads revisions by file, each frozen as it was written
        parts = path.relative_to(package.parent).with_suffix("").parts
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
        # Importing a.b.c runs a.b first, unless this module is inside a.b already. (Every
        # import runs the top package first too: Python's order, not a dependency; only
        # naming it, ``from scorekeeper import create_app``, is an edge to it.)
        parts = name.split(".")
        for end in range(2, len(parts)):
            parent = ".".join(parts[:end])
            if parent in modules and not module.startswith(parent + "."):
                edges.add(parent)
    return edges - {module}


@functools.cache
def _graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    modules = _modules(package)
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def _node(module: str) -> str:
    """The package-level node of a module: its area, its shared module, or the top."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and module not in TOP_MODULES else TOP


@functools.cache
def _entry_points() -> frozenset[str]:
    """The modules of the console scripts, which start the app (and nothing imports)."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    return frozenset(target.partition(":")[0] for target in scripts.values())


def _package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Every import between two areas (or shared modules), but an entry point's of the top."""
    entry = _entry_points()
    packages: dict[str, set[str]] = {}
    for module, imported in graph.items():
        source = _node(module)
        packages.setdefault(source, set())
        for other in imported:
            if other == TOP and module in entry:
                continue
            if _node(other) != source:
                packages[source].add(_node(other))
    return packages


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one node."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
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


def _loops_between_packages(package: Path = PACKAGE) -> list[str]:
    """Each loop of packages, with the imports that make it (empty: a one-way stack)."""
    graph = _graph(package)
    packages = _package_graph(graph)
    loops = []
    for cycle in _cycles(packages):
        members = set(cycle)
        imports = sorted(
            f"{module} -> {other}"
            for module, imported in graph.items()
            for other in imported
            if _node(module) in members
            and _node(other) in members
            and _node(other) != _node(module)
            and not (other == TOP and module in _entry_points())
        )
        loops.append(f"{' / '.join(cycle)}: " + "; ".join(imports))
    return loops


def _floor_reaching_up(package: Path = PACKAGE) -> list[str]:
    """Imports from the floor (shared modules, ``models/``) of anything above it."""
    graph = _graph(package)
    shared = {path.stem for path in package.glob("*.py") if path.stem not in {"__init__", "app"}}
    floor = shared | FLOOR_PACKAGES
    return sorted(
        f"{module} -> {other}"
        for module, imported in graph.items()
        for other in imported
        if _node(module) in floor - {"engine"} and _node(other) not in floor
    )


def test_packages_form_a_one_way_stack():
    assert _loops_between_packages() == []


def test_the_shared_modules_and_the_models_import_no_area():
    assert _floor_reaching_up() == []


def test_no_module_imports_one_that_imports_it_back():
    assert _cycles(_graph()) == []


def test_only_the_console_script_imports_the_top_package():
    graph = _graph()
    importers = {
        module
        for module, imported in graph.items()
        if imported & TOP_MODULES and module not in TOP_MODULES
    }
    assert importers <= _entry_points()
    assert not any(entry in imported for imported in graph.values() for entry in _entry_points())


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _planted(tmp_path: Path, module: str, line: str) -> Path:
    """A copy of the package with ``line`` added at the end of ``module``'s file."""
    copy = tmp_path / "scorekeeper"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("migrations", "__pycache__"))
    target = copy.joinpath(*module.split(".")[1:]).with_suffix(".py")
    target.write_text(target.read_text() + line)
    return copy


def test_a_loop_planted_inside_a_function_between_two_packages_is_found(tmp_path):
    """The table imports the league's pages from inside a function: the league imports the
    table, so the two packages loop, though no two modules import each other."""
    copy = _planted(
        tmp_path,
        "scorekeeper.table.charts",
        "\n\ndef _planted():\n    from scorekeeper.league import views  # noqa\n",
    )
    assert _cycles(_graph(copy)) == []  # module by module, nothing loops
    loops = _loops_between_packages(copy)
    assert len(loops) == 1
    assert loops[0].startswith("league / table:")
    assert "scorekeeper.table.charts -> scorekeeper.league.views" in loops[0]


def test_a_floor_module_reaching_up_is_found(tmp_path):
    copy = _planted(tmp_path, "scorekeeper.names", "\nfrom scorekeeper.web import messages\n")
    assert "scorekeeper.names -> scorekeeper.web.messages" in _floor_reaching_up(copy)


def test_an_area_importing_the_top_package_is_a_loop(tmp_path):
    copy = _planted(tmp_path, "scorekeeper.api.count", "\nfrom scorekeeper import create_app\n")
    assert any(loop.startswith("api / scorekeeper:") for loop in _loops_between_packages(copy))


def _imports_of(paths: Iterable[Path]) -> Iterable[tuple[Path, str, int]]:
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                yield path, node.module or "", node.level
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    yield path, alias.name, 0


def test_the_engine_imports_only_itself_and_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"scorekeeper"}
    for path, module, level in _imports_of((PACKAGE / "engine").rglob("*.py")):
        if level:
            continue
        top = module.split(".")[0]
        assert top in allowed, f"{path.name} imports {module}"
        if top == "scorekeeper":
            assert module.startswith("scorekeeper.engine"), path.name


MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 40
#: What a long function's docstring or comments say when it is long on purpose.
READS_BETTER_WHOLE = re.compile(r"reads? better whole", re.IGNORECASE)


def _oversized_functions(path: Path) -> Iterable[tuple[str, int]]:
    """The functions of ``path`` over 40 lines that don't say they read better whole."""
    source = path.read_text()
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            text = " ".join(" ".join(lines[node.lineno - 1 : node.end_lineno]).split())
            if length > MAX_FUNCTION_LINES and not READS_BETTER_WHOLE.search(text):
                yield node.name, length


def test_no_module_or_function_outgrows_its_limit():
    too_long = []
    for path in _modules().values():
        name = path.relative_to(ROOT)
        if (length := len(path.read_text().splitlines())) > MAX_MODULE_LINES:
            too_long.append(f"{name} is {length} lines")
        too_long += [f"{name}: {f} is {n} lines" for f, n in _oversized_functions(path)]
    assert too_long == []


def test_a_long_function_passes_only_when_it_says_why(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(40))
    plain = tmp_path / "plain.py"
    plain.write_text(f"def f():\n{body}")
    said = tmp_path / "said.py"
    said.write_text(f"def f():\n    # Reads better whole: one table of values.\n{body}")
    assert list(_oversized_functions(plain)) == [("f", 41)]
    assert list(_oversized_functions(said)) == []
