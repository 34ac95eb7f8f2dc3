"""No import cycles among curator's modules, lazy (function-level) imports included.

A cycle that works today works by import order alone; a lazy import only hides it, since
the two modules still cannot be understood (or moved) apart. Imports under
`if TYPE_CHECKING:` are left out: they never run, and they are how annotations name a type
without tying the modules together.

Edges: `import curator.a.b` and `from curator.a import b` (b a submodule) tie a module to
curator.a.b; `from curator.a import name` (name defined in a's __init__) ties it to the
package curator.a. Importing curator.a.b also runs curator/a/__init__.py, but that is not an
edge: a package whose __init__ re-exports its own submodules would otherwise be a cycle with
each of them. A submodule that imports names from its own package's __init__ is one.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "curator"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run, at any depth, except under `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _targets(
    module: str, path: Path, node: ast.Import | ast.ImportFrom, known: set[str]
) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level:  # relative: resolve against this module's package
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
        source = f"{base}.{node.module}" if node.module else base
    else:
        source = node.module or ""
    if source not in known:
        return set()
    submodules = {f"{source}.{alias.name}" for alias in node.names} & known
    names_from_init = any(f"{source}.{alias.name}" not in known for alias in node.names)
    return submodules | ({source} if names_from_init else set())


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: set[str] = set()
        for node in _runtime_imports(tree):
            edges |= _targets(module, path, node, known)
        graph[module] = edges - {module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [a, b, ..., a], or None; depth-first, in sorted order for a stable message."""
    state: dict[str, str] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return stack[stack.index(target) :] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_curator_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_checker_sees_lazy_imports_and_submodules():
    # The check must be able to fail: the graph holds known edges of both shapes.
    graph = import_graph()
    assert "curator.store" in graph["curator.labels"] or "curator.config" in graph["curator.labels"]
    assert (
        "curator.anonymise.pseudonyms" in graph["curator.anonymise.rewrite"]
    )  # `from pkg import module`
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
