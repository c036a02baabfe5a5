"""No module of gamesearch/ imports itself back through others: every import counts, at
module level, inside a function or under ``TYPE_CHECKING`` alike.

The imports are read with :mod:`ast` (nothing is run), resolved to modules of the
package, and the strongly connected parts of that graph are the circles.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gamesearch"


def modules(root: Path) -> dict[str, Path]:
    """Return every module of the package in ``root`` by its dotted name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(root: Path) -> dict[str, set[str]]:
    """Return, for each module of the package in ``root``, the package's modules it imports.

    ``from a.b import c`` names the module ``a.b.c`` when there is one, else ``a.b``;
    relative imports are resolved against the importing module's package.
    """
    known = modules(root)

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                wanted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                wanted = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            targets.update(found for found in map(resolve, wanted) if found not in (None, name))
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the import circles of ``graph``: its strongly connected parts of two or more
    modules, each sorted (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_no_module_of_gamesearch_imports_itself_back() -> None:
    graph = imports(PACKAGE)
    assert "gamesearch.game" in graph and "gamesearch.notebook" in graph
    found = circles(graph)
    described = [
        "; ".join(f"{module} -> {sorted(graph[module] & set(part))}" for module in part)
        for part in found
    ]
    assert found == [], "\n".join(described)


def test_the_game_protocol_and_the_searchers_never_import_the_notebook_display() -> None:
    graph = imports(PACKAGE)
    assert "gamesearch.notebook" not in graph["gamesearch.game"]
    assert "gamesearch.notebook" not in graph["gamesearch.search.base"]


def test_a_circle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("def late():\n    from .. import c\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n"
    )
    (package / "d.py").write_text("import pkg.a\n")
    graph = imports(package)
    assert graph["pkg.sub.b"] == {"pkg.c"}
    assert circles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    (package / "c.py").write_text("")
    assert circles(imports(package)) == []
