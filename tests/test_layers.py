"""The house rules a reader can check by eye, checked by the parser instead.

Layers only look down. Every import in the package (at the top of a module, inside a function, or
under ``TYPE_CHECKING``: a deferred import is still a dependency) goes to a module in the same
layer or a lower one, and no chain of imports comes back to where it started. The layers:

    bottom   messages, errors, redaction, wire, tools, memory, llms.base   values, helpers, the contracts
    middle   llms.*, observers.*, graph.*, steps, agents, subagents      the parts a run is made of
    top      course.*, plots, cli, __main__, the package's own __init__   the course and its views

``llms/base.py`` (the ``LLM`` protocol and ``LLMResponse``) sits at the bottom because ``memory``
(``Summarise`` calls a model) and every part above it are written against that contract; the
adapters that keep it sit in the middle. ``steps``, ``agents`` and ``subagents`` are parts of a run,
like the graph engine, so they sit in the middle too: they hear about observers, and only the
course above them knows the weather scenario.

The package boundary: the package imports only itself, the standard library, pydantic and the optional
libraries of its extras; never the notebooks' helpers (``notebooks/lessons``) or any other project folder.

Sizes: no module over 400 lines, no function over 40 (from its ``def`` line to its last line), in the package
and in the notebooks' helpers (``notebooks/lessons``).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mingraph_lite"
BOTTOM, MIDDLE, TOP = 0, 1, 2
LAYER_NAMES = {BOTTOM: "bottom", MIDDLE: "middle", TOP: "top"}
#: module (dotted, without "mingraph_lite.") or package prefix -> layer; the longest match wins
LAYERS = {
    "messages": BOTTOM, "errors": BOTTOM, "tools": BOTTOM, "memory": BOTTOM, "llms.base": BOTTOM,
    "redaction": BOTTOM, "wire": BOTTOM,
    "llms": MIDDLE, "observers": MIDDLE, "graph": MIDDLE, "steps": MIDDLE, "agents": MIDDLE,
    "subagents": MIDDLE,
    "course": TOP, "plots": TOP, "cli": TOP, "__main__": TOP, "": TOP,
}
#: besides itself and the standard library: pydantic (and typing_extensions, which pydantic brings), then the
#: libraries of the extras, each imported only where it is used
THIRD_PARTY = {"pydantic", "typing_extensions", "ollama", "openai", "xllamacpp", "ipywidgets", "IPython",
               "matplotlib", "tqdm", "langgraph", "tomli"}
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 40

#: Known breaches that another branch of the same piece of work removes, each with that branch.
#: The test fails when one no longer happens, so the list cannot outlive its reason.
PENDING_EDGES: dict[tuple[str, str], str] = {}
PENDING_CYCLES: dict[tuple[str, ...], str] = {}
PENDING_SIZES: dict[str, str] = {}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    prefixes = [p for p in LAYERS if module == p or (p and module.startswith(p + "."))]
    if not prefixes:
        raise AssertionError(f"mingraph_lite.{module} has no layer: add it to LAYERS in {__file__}")
    return LAYERS[max(prefixes, key=len)]


def _resolve(node: ast.ImportFrom | ast.Import, here: str, is_package: bool) -> list[str]:
    """The package modules an import statement reaches, as dotted names inside the package."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
        return [n.removeprefix("mingraph_lite").lstrip(".") for n in names
                if n == "mingraph_lite" or n.startswith("mingraph_lite.")]
    if node.level:  # relative: climb from this module's package
        package = here.split(".") if is_package else here.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)] if here else []
        base = ".".join([*package, *([node.module] if node.module else [])])
    elif node.module == "mingraph_lite" or (node.module or "").startswith("mingraph_lite."):
        base = node.module.removeprefix("mingraph_lite").lstrip(".")
    else:
        return []
    # ``from pkg import name``: the submodule pkg.name when it is one, else pkg itself.
    return [f"{base}.{a.name}".lstrip(".") if f"{base}.{a.name}".lstrip(".") in MODULES else base
            for a in node.names]


def imports_of(module: str) -> set[str]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update(_resolve(node, module, path.name == "__init__.py"))
    found.discard(module)
    return {m for m in found if m in MODULES}


GRAPH = {module: imports_of(module) for module in MODULES}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of two or more modules (Tarjan), as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def foreign_imports(source: str) -> set[str]:
    """Top-level names of the absolute imports in ``source`` that are neither ours, stdlib nor allowed."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - THIRD_PARTY - {"mingraph_lite"}


def test_foreign_imports_sees_the_course_side_folder():
    assert foreign_imports("import json\nfrom lessons.exercises import check\nimport notebooks.lessons") == {
        "lessons", "notebooks"}
    assert foreign_imports("def f():\n    from pydantic import BaseModel\n    import mingraph_lite.graph") == set()


def test_the_package_imports_nothing_outside_it():
    """Nothing installed imports the notebooks' helpers or another project folder (they are not installed)."""
    breaches = {f"{name}: {foreign}" for name, path in MODULES.items()
                for foreign in foreign_imports(path.read_text(encoding="utf-8"))}
    assert not breaches, f"the package imports what a bare install lacks: {sorted(breaches)}"


def test_every_module_has_a_layer_and_the_graph_sees_the_imports():
    assert {layer_of(m) for m in MODULES} == {BOTTOM, MIDDLE, TOP}
    # a few edges every reader can confirm in the source, so a broken parser cannot pass quietly
    assert "messages" in GRAPH["tools"] and "errors" in GRAPH["tools"]
    assert "llms.base" in GRAPH["memory"]
    assert "observers.run_model" in GRAPH["plots"]
    assert "llms.factory" in GRAPH["course.scripts"]


def test_no_upward_import():
    upward = {(src, dst) for src, targets in GRAPH.items() for dst in targets if layer_of(dst) > layer_of(src)}
    breaches = sorted(upward - set(PENDING_EDGES))
    assert not breaches, "imports that look up: " + ", ".join(
        f"{s} ({LAYER_NAMES[layer_of(s)]}) -> {d} ({LAYER_NAMES[layer_of(d)]})" for s, d in breaches)
    stale = sorted(set(PENDING_EDGES) - upward)
    assert not stale, f"these breaches are gone: remove them from PENDING_EDGES: {stale}"


def test_nothing_under_llms_or_graph_knows_the_course():
    knowing = {(s, d) for s, targets in GRAPH.items() for d in targets
               if s.split(".")[0] in ("llms", "graph") and d.split(".")[0] == "course"}
    assert knowing <= set(PENDING_EDGES)


def test_no_import_cycle():
    cycles = [c for c in find_cycles(GRAPH) if tuple(c) not in PENDING_CYCLES]
    assert not cycles, f"import cycles: {cycles}"
    stale = sorted(set(PENDING_CYCLES) - {tuple(c) for c in find_cycles(GRAPH)})
    assert not stale, f"these cycles are gone: remove them from PENDING_CYCLES: {stale}"


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


#: the notebooks' helpers and checkers are code a learner reads too: the same sizes hold there
LESSONS = PACKAGE.parent / "notebooks" / "lessons"


def _sizes() -> dict[str, int]:
    sizes = {}
    for path in sorted([*PACKAGE.rglob("*.py"), *LESSONS.rglob("*.py")]):
        name = path.relative_to(PACKAGE.parent).as_posix()
        text = path.read_text(encoding="utf-8")
        sizes[name] = len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                key = f"{name}:{node.name}"
                sizes[key] = max(length, sizes.get(key, 0))
    return sizes


def test_no_module_over_400_lines_and_no_function_over_40():
    over = {key: n for key, n in _sizes().items()
            if n > (MAX_FUNCTION_LINES if ":" in key else MAX_MODULE_LINES)}
    assert not set(over) - set(PENDING_SIZES), f"too long (lines): {over}"
    stale = sorted(set(PENDING_SIZES) - set(over))
    assert not stale, f"these are short enough now: remove them from PENDING_SIZES: {stale}"


@pytest.mark.parametrize("module", ["llms", "observers"])
def test_sub_packages_re_export_nothing(module):
    """One import path per name: the public names come from ``mingraph_lite`` (``graph`` keeps its own)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    assert [type(node).__name__ for node in tree.body] == ["Expr"]  # the docstring, nothing else
