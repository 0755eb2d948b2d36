"""What a fresh reader found in notebooks 07 and 07 stays fixed (issue 21): no answer in view, no private LangGraph
source, the agent graph's nodes shown with an exercise of their own, a short differences table."""

from __future__ import annotations

import json
from pathlib import Path

import jupytext

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NB06, NB07, NB08 = "07_graph_routing", "08_parallel_branches", "09_agent_graph"


def _sources(stem: str) -> list[str]:
    return [cell.source for cell in jupytext.read(NOTEBOOKS / f"{stem}.py").cells]


def _outputs(stem: str) -> str:
    """Every text the saved notebook shows under its code cells."""
    cells = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    texts = []
    for cell in cells:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")))
            texts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


def test_06_never_shows_the_first_rule_of_06_1():
    """``publish`` tests exactly the condition 07.1's first rule asks for, so its source stays out of view."""
    shown = "\n".join(_sources(NB06)) + _outputs(NB06)
    assert 'review["checked_draft"] != state["draft"]' not in shown
    assert "def publish(self, state" not in _outputs(NB06)


def test_06_reads_no_private_langgraph_module_and_finds_the_limit_by_running():
    text = "\n".join(_sources(NB06))
    assert "langgraph.pregel" not in text and "getsource(loop)" not in text
    assert "show_recursion_limits(declare(nodes, on=LangGraphStateGraph)" in text  # the limit found by running:
    helper = (NOTEBOOKS / "lessons" / "langgraph_runs.py").read_text(encoding="utf-8")
    assert "GraphRecursionError" in helper and 'config={"recursion_limit": limit}' in helper
    assert "langgraph.pregel" not in helper


def test_08_draws_the_agent_graph_and_asks_to_build_its_router_without_showing_it():
    sources, shown = _sources(NB08), _outputs(NB08)
    assert "[model]" in shown and "--tools--> tools" in shown  # one short diagram, not the nodes' source
    assert "def model(self, state" not in shown and "def tools(self, state" not in shown
    assert any(source.startswith("def route_after_model(state):\n    raise NotImplementedError") for source in sources)
    assert any('check("09.1", route_after_model)' in source for source in sources)
    assert "_already_ran" not in shown + "\n".join(sources)  # the reference router stays in the solutions file


def test_07_keeps_a_short_differences_table_and_links_the_whole_one():
    cell = next(s for s in _sources(NB07) if "### Where the two engines still differ" in s)
    rows = [line for line in cell.splitlines() if line.startswith("| ") and not line.startswith("| What")]
    assert 2 <= len(rows) <= 4 and "docs/graph.md" in cell


def test_07s_naive_brief_writes_its_rows_as_render_does():
    from mingraph_lite.course.brief import BriefNodes, initial_state, render

    state = initial_state(["Tokyo", "Paris"], include_fahrenheit=True)
    rows = render(BriefNodes("complete").write_draft({**state, **BriefNodes().collect(state)})["draft"]).splitlines()
    naive = next(out for out in _outputs(NB06).split("--- writer: ") if out.startswith("missing-notice"))
    assert naive.splitlines()[1:3] == rows[:2]
