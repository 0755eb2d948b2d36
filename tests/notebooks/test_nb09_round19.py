"""Notebook 09 after reader r19d: nothing the notebook imports shows 09.4's wiring, and the 09.4 check holds."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

from lessons.exercises import verdict
from lessons.reference import reference

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "09_agent_graph.py"
WIRING = 'add_conditional_edges("model"'


def _code() -> str:
    """The notebook's code cells (the .py pair without its markdown comments)."""
    return "\n".join(line for line in NOTEBOOK.read_text(encoding="utf-8").splitlines() if not line.startswith("#"))


def _imported_from_lessons() -> list[object]:
    import importlib

    found = []
    for node in ast.walk(ast.parse(_code())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lessons"):
            module = importlib.import_module(node.module)
            found += [getattr(module, alias.name) for alias in node.names]
    return found


def test_no_code_cell_and_nothing_imported_from_lessons_shows_the_wiring():
    assert WIRING not in _code()
    imported = _imported_from_lessons()
    assert imported  # the test reads the notebook's imports: an empty list would make it pass by accident
    for value in imported:
        source = inspect.getsource(value) if inspect.isfunction(value) or inspect.ismodule(value) else ""
        assert WIRING not in source, value


def test_a_paste_of_the_reference_the_notebook_loads_does_not_pass():
    pasted = textwrap.dedent(inspect.getsource(reference("09.4")))
    space: dict = {}
    exec(compile(pasted, "<learner's cell>", "exec"), space)
    assert verdict("09.4", space["wire_agent"]).status != "passed"


MINE = """
from mingraph_lite.graph import END, START, AgentState, StateGraph


def wire_agent(nodes, router, hold):
    g = StateGraph(AgentState)
    for name, node in (("model", nodes.model), ("tools", nodes.tools), ("hold", hold)):
        g.add_node(name, node)
    g.add_edge(START, "model")
    g.add_conditional_edges("model", router, {"tools": "tools", "repeat": "hold", "end": END})
    g.add_conditional_edges("tools", nodes.route_after_tools, {"model": "model", "end": END})
    g.add_edge("hold", END)
    return g
"""


def test_a_wiring_without_hold_to_end_is_refused_and_the_full_one_passes():
    right = MINE
    short = right.replace('    g.add_edge("hold", END)\n', "")
    assert short != right
    for code, status in ((right, "passed"), (short, "not yet")):
        space: dict = {}
        exec(compile(code, "<learner's cell>", "exec"), space)
        got = verdict("09.4", space["wire_agent"])
        assert got.status == status, got
    assert "hold has no edge to END" in got.message


def test_the_notebook_shows_agent_state_and_says_the_budget_is_checked_before_each_model_call():
    import json

    cells = json.loads(NOTEBOOK.with_suffix(".ipynb").read_text(encoding="utf-8"))["cells"]
    shown = "".join("".join(out.get("text", "")) for c in cells if c["cell_type"] == "code" for out in c["outputs"])
    assert "pending_reply: AssistantMessage | None" in shown and "error: str | None" in shown  # 09.3's fields
    assert "model_steps: int  # model calls made (the budget is checked before each one)" in shown
    text = NOTEBOOK.read_text(encoding="utf-8")
    for allowed in ("change slip", "wrong slip", '"slip" means'):  # 07's term, a data label, the note on the term
        text = text.replace(allowed, "")
    assert "slip" not in text
