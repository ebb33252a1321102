"""The module graph of the product: no import cycles, and imports point one way only.

    gateway  ->  actors  ->  prompts, tools  ->  desk  ->  spine

(ARCHITECTURE.md, "Layout and dependency direction"; prompts and tools are siblings: neither
imports the other.) The graph is read from the source with `ast`, never by importing it, and it
counts every import: module level, inside functions (late imports), and under `TYPE_CHECKING`
(a cycle hidden from the interpreter is still a cycle for the reader and the type checker).
"""
from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# A package may import its own layer and the layers below it, never one above or beside it.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "spine": frozenset({"spine"}),
    "desk": frozenset({"desk", "spine"}),
    "prompts": frozenset({"prompts", "desk", "spine"}),
    "tools": frozenset({"tools", "desk", "spine"}),
    "actors": frozenset({"actors", "prompts", "tools", "desk", "spine"}),
    "gateway": frozenset({"gateway", "actors", "prompts", "tools", "desk", "spine"}),
}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def product_modules(root: Path = ROOT, packages: Iterable[str] = MAY_IMPORT) -> dict[str, Path]:
    return {_module_name(f, root): f for package in packages for f in sorted((root / package).rglob("*.py"))}


def _imported_names(module: str, path: Path, node: ast.Import | ast.ImportFrom,
                    modules: dict[str, Path]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:  # relative: resolve against the importing module's package
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join(package + ([node.module] if node.module else []))
    for alias in node.names:
        # `from spine import keys` imports the module spine.keys; `from spine import Spine`
        # imports a name the package spine re-exports, so it depends on spine/__init__.py.
        # (`import spine.keys as keys` above names the module spine.keys the same way.)
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base


def import_graph(root: Path = ROOT, packages: Iterable[str] = MAY_IMPORT) -> dict[str, set[str]]:
    """module -> the product modules it imports (itself excluded)."""
    modules = product_modules(root, packages)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                imported = _imported_names(name, path, node, modules)
                graph[name].update(t for t in imported if t in modules and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read_from_every_package():
    graph = import_graph()
    assert {name.split(".")[0] for name in graph} == set(MAY_IMPORT)
    # the reader sees late and TYPE_CHECKING imports: the gate's modules import each other one way
    assert "tools.authority" in graph["tools.caller"]
    assert "actors.host.person_session" in graph["actors.host.person_actor"]


def test_no_import_cycles():
    assert cycles(import_graph()) == []


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return root


# A package whose __init__ re-exports a submodule's name, and the submodule importing the
# package back: each way the submodule can spell that import.
IMPORTS_OF_THE_PACKAGE = {
    "a name it re-exports": "from pkg import helper\n",
    "the package itself": "import pkg\n",
    "a relative name": "from . import helper\n",
    "the package, late": "def later():\n    import pkg\n",
}


@pytest.mark.parametrize("spelling", sorted(IMPORTS_OF_THE_PACKAGE))
def test_a_package_and_its_submodule_importing_it_back_is_a_cycle(tmp_path, spelling):
    root = _tree(tmp_path, {
        "pkg/__init__.py": "from pkg.sub import thing\n\n\ndef helper():\n    return thing\n",
        "pkg/sub.py": IMPORTS_OF_THE_PACKAGE[spelling] + "thing = 1\n",
    })
    assert cycles(import_graph(root, ["pkg"])) == [["pkg", "pkg.sub"]]


@pytest.mark.parametrize("reexport", ["from pkg import sub\n", "from . import sub\n", "import pkg.sub as sub\n",
                                      "from .sub import thing\n"])
def test_every_spelling_of_a_reexport_is_an_edge_to_the_submodule(tmp_path, reexport):
    root = _tree(tmp_path, {"pkg/__init__.py": reexport, "pkg/sub.py": "import pkg\nthing = 1\n"})
    graph = import_graph(root, ["pkg"])
    assert graph["pkg"] == {"pkg.sub"}
    assert cycles(graph) == [["pkg", "pkg.sub"]]


def test_a_submodule_importing_a_sibling_module_does_not_import_the_package(tmp_path):
    """`import pkg.other as other` and `from pkg import other` name the module pkg.other, not
    pkg/__init__.py (which re-exports both): no cycle through the package."""
    root = _tree(tmp_path, {
        "pkg/__init__.py": "from pkg.other import value\nfrom pkg.sub import thing\n",
        "pkg/other.py": "value = 1\n",
        "pkg/sub.py": "import pkg.other as other\nfrom pkg import other as again\nthing = other.value + again.value\n",
    })
    graph = import_graph(root, ["pkg"])
    assert graph["pkg.sub"] == {"pkg.other"}
    assert cycles(graph) == []


def test_imports_point_one_way():
    upward = sorted(
        f"{source} imports {target}"
        for source, targets in import_graph().items()
        for target in targets
        if target.split(".")[0] not in MAY_IMPORT[source.split(".")[0]]
    )
    assert upward == []


PROCESS_FOLDERS = frozenset({"client", "host", "turn", "dispatcher", "control"})  # actors/: one per process


def _folder(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "actors" and len(parts) > 2 else None


def test_no_two_actors_folders_import_each_other():
    """The runtime's shared vocabulary is actors/protocol/, which every process folder imports and
    which imports none of them: so no two folders of actors/ import each other."""
    edges = {(_folder(s), _folder(t)) for s, ts in import_graph().items() for t in ts
             if _folder(s) and _folder(t) and _folder(s) != _folder(t)}
    assert sorted(f"{a} <-> {b}" for a, b in edges if (b, a) in edges and a < b) == []
    assert sorted(b for a, b in edges if a == "protocol" and b in PROCESS_FOLDERS) == []
