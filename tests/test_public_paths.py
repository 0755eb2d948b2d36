"""One public path per name: each name of the package that a notebook or a solution imports comes from the one
documented place that offers it, and no name has two public homes.

The public places: ``mingraph_lite`` (its ``__all__``), ``mingraph_lite.graph`` (its ``__all__``), and each
module of ``mingraph_lite.course`` (the names it defines itself, not those it imports). Every other module is
internal to the package.
"""

from __future__ import annotations

import ast
import pkgutil
from collections import defaultdict
from pathlib import Path

import mingraph_lite
import mingraph_lite.course
import mingraph_lite.graph

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(ROOT.glob("notebooks/[0-9]*.py")) + sorted(ROOT.glob("notebooks/solutions/*.py"))


def defined_names(source: str) -> set[str]:
    """The public names a module defines at its top level (functions, classes, assignments)."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return {name for name in names if not name.startswith("_")}


def public_places() -> dict[str, set[str]]:
    """public module -> the names it offers."""
    places = {"mingraph_lite": set(mingraph_lite.__all__), "mingraph_lite.graph": set(mingraph_lite.graph.__all__)}
    for info in pkgutil.iter_modules(mingraph_lite.course.__path__):
        path = Path(mingraph_lite.course.__path__[0]) / f"{info.name}.py"
        places[f"mingraph_lite.course.{info.name}"] = defined_names(path.read_text(encoding="utf-8"))
    return places


PLACES = public_places()


def package_imports(source: str) -> list[tuple[str, str]]:
    """(module, name) for each name imported from the package; ``import mingraph_lite.x`` gives (x, "")."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mingraph_lite":
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names if alias.name.split(".")[0] == "mingraph_lite"]
    return found


def off_path(source: str) -> list[str]:
    """Each import in ``source`` that does not take a name from a public place offering it."""
    return [f"{module}.{name}" for module, name in package_imports(source)
            if name not in PLACES.get(module, ()) and not (name == "" and module in PLACES)]


def test_the_scan_sees_every_kind_of_public_place():
    seen = {module for path in FILES for module, _ in package_imports(path.read_text(encoding="utf-8"))}
    assert {"mingraph_lite", "mingraph_lite.graph", "mingraph_lite.course.scripts"} <= seen
    assert "make_llm" in PLACES["mingraph_lite.course.scripts"] and "weather_registry" not in PLACES[
        "mingraph_lite.course.scripts"]  # defined in weather, so scripts does not offer it


def test_the_check_catches_an_internal_module_and_a_second_path():
    assert off_path("from mingraph_lite.llms.scripted import word_count\nfrom mingraph_lite import make_llm\n"
                    "from mingraph_lite.graph.agent_graph import AgentNodes\nimport mingraph_lite.subagents") == [
        "mingraph_lite.llms.scripted.word_count", "mingraph_lite.make_llm",
        "mingraph_lite.graph.agent_graph.AgentNodes", "mingraph_lite.subagents."]
    assert off_path("from mingraph_lite import Agent\nfrom mingraph_lite.course.weather import WEATHER") == []


def without_cheats(source: str) -> str:
    """A solutions file without the wrong answers that cheat on purpose (reaching into the package's insides is
    what their checks must refuse): the functions named in its ``WRONG`` table, and the helpers that build them
    (private names, ``_like_this``)."""
    tree = ast.parse(source)
    table = [n for n in tree.body
             if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "WRONG" for t in n.targets)]
    named = {n.id for assign in table for n in ast.walk(assign.value) if isinstance(n, ast.Name)}
    tree.body = [n for n in tree.body if not (isinstance(n, ast.FunctionDef | ast.ClassDef)
                                              and (n.name in named or n.name.startswith("_")))]
    return ast.unparse(tree)


# Where a notebook reads the package's insides on purpose, to show them, and says so beside the import.
LOOKS_INSIDE = {"notebooks/03_state_cards.py: mingraph_lite.agents",  # the package's own cards, shown as ours
                # a wrong 12.3 answer that inherits the package's recording base, as a reader's did
                "notebooks/solutions/12_capstone_pieces.py: mingraph_lite.observers.base.RecordingObserver"}


def test_every_notebook_and_solution_imports_each_name_from_its_public_path():
    wrong = {f"{path.relative_to(ROOT)}: {name}" for path in FILES
             for name in off_path(without_cheats(path.read_text("utf-8")))} - LOOKS_INSIDE
    assert not wrong, f"import these from mingraph_lite, mingraph_lite.graph or a course module: {sorted(wrong)}"


def test_only_the_wrong_answers_may_reach_inside():
    source = ("from mingraph_lite import Agent\ndef cheat():\n    from mingraph_lite.memory import safe_start\n"
              "def honest():\n    from mingraph_lite.memory import safe_start\nWRONG = {'1': [(cheat, 'x')]}\n")
    assert off_path(without_cheats(source)) == ["mingraph_lite.memory.safe_start"]  # honest's, not cheat's


def test_no_name_is_offered_by_two_public_places():
    homes = defaultdict(set)
    for module, names in PLACES.items():
        for name in names:
            homes[name].add(module)
    twice = {name: sorted(modules) for name, modules in homes.items() if len(modules) > 1}
    assert not twice, f"one public path per name: {twice}"
