"""Notebook 07 after reader r19d: the objectives promise what the notebook does, and LangGraph's bound is shown."""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "07_graph_routing"


def _cells() -> list[dict]:
    return json.loads(NOTEBOOK.with_suffix(".ipynb").read_text(encoding="utf-8"))["cells"]


def test_no_objective_promises_a_node_exercise_the_notebook_does_not_have():
    text = NOTEBOOK.with_suffix(".py").read_text(encoding="utf-8")
    exercises = text.count('check("07.') - text.count('check("07.Q')
    assert "write *nodes*" not in text and "read *nodes*" in text
    assert exercises == 3  # 07.1 and 07.3 are routers, 07.2 a run loop: no exercise writes a node


def test_the_recursion_limit_call_is_in_the_cell_and_its_run_is_shown():
    cell = next(c for c in _cells() if c["cell_type"] == "code" and "show_recursion_limits(" in "".join(c["source"]))
    assert 'config={"recursion_limit": 7}' in "".join(cell["source"])
    shown = "".join("".join(out.get("text", "")) for out in cell.get("outputs", []))
    if "skipped" not in shown:
        assert "recursion_limit=7: published" in shown and "recursion_limit=6: GraphRecursionError" in shown


def test_the_tamperer_edits_its_own_copy_inside_publish():
    from mingraph_lite.course.brief import BriefNodes, initial_state

    text = NOTEBOOK.with_suffix(".py").read_text(encoding="utf-8")
    assert "between the check and publishing" not in text and "edits its copy of the checked draft" in text
    state = initial_state(["Tokyo", "Paris"])
    nodes = BriefNodes("complete")
    for node in ("collect", "write_draft", "check_draft"):
        state = {**state, **getattr(nodes, node)(state)}
    assert state["review"]["passed"]
    edited = {**state, "draft": {**state["draft"], "rows": [dict(r) for r in state["draft"]["rows"]]}}
    edited["draft"]["rows"][0]["celsius"] = 30  # what Tamperer.publish does to its copy, then publish refuses
    try:
        nodes.publish(edited)
    except ValueError:
        return
    raise AssertionError("publish accepted a draft edited after its check")
