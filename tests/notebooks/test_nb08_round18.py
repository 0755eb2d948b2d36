"""Round 18's items in notebook 08: the learner's own LangGraph cell does what the prose says once its edges are in,
and the cells that show the learner's 08.2 and 08.3 running print their result with a right answer."""

from __future__ import annotations

import operator
from pathlib import Path
from typing import Annotated, TypedDict

import jupytext
import pytest

from lessons.exercises.nb08_send import brief_with_entry
from lessons.parallel_brief import collect_one
from lessons.reference import reference
from mingraph_lite.course.brief import BriefState, initial_state
from mingraph_lite.graph import END, START, Send, StateGraph

START_STATE = {"readings": [], "events": []}  # the try-it cell's input
NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "08_parallel_branches.py"


class _Plain(TypedDict):
    readings: list
    events: Annotated[list, operator.add]


class _Added(TypedDict):
    readings: Annotated[list, operator.add]
    events: Annotated[list, operator.add]


def _sketch(builder_type, state_type):
    """The try-it cell's graph with the four edges the learner adds."""
    sketch = builder_type(state_type)
    sketch.add_node("collect_Tokyo", collect_one("Tokyo"))
    sketch.add_node("collect_Paris", collect_one("Paris"))
    sketch.add_node("report", lambda state: {"events": ["report"]})
    sketch.add_edge(START, "collect_Tokyo")
    sketch.add_edge(START, "collect_Paris")
    sketch.add_edge(["collect_Tokyo", "collect_Paris"], "report")
    sketch.add_edge("report", END)
    return sketch


def test_the_try_it_cell_refuses_a_plain_field_on_langgraph_naming_the_key_and_runs_with_a_reducer():
    graph = pytest.importorskip("langgraph.graph")
    from langgraph.errors import InvalidUpdateError

    with pytest.raises(InvalidUpdateError, match="readings"):
        _sketch(graph.StateGraph, _Plain).compile().invoke(START_STATE)
    final = _sketch(graph.StateGraph, _Added).compile().invoke(START_STATE)
    assert sorted(reading["city"] for reading in final["readings"]) == ["Paris", "Tokyo"]
    assert final["events"][-1] == "report"  # the join ran once, after both branches


def test_the_try_it_cell_takes_the_same_calls_on_the_package_engine():
    final = _sketch(StateGraph, _Added).compile().invoke(START_STATE)
    assert sorted(reading["city"] for reading in final["readings"]) == ["Paris", "Tokyo"]


def test_the_try_it_cell_ships_without_edges_and_prints_what_the_engine_says():
    cell = next(c.source for c in jupytext.read(NOTEBOOK).cells if "sketch = LangGraphStateGraph" in c.source)
    assert "add_edge" not in cell.split("# your edges")[0] and "compile().invoke" in cell


def test_the_learner_run_cells_show_a_right_answer_running():
    laps = [names for _, names in reference("08.2")(_loop(), {"log": [], "laps": 0})[1]]
    assert laps[3] == ["meet"] and laps[7] == ["meet"] and len(laps) == 8
    stale = initial_state(["Tokyo", "Paris"])
    stale["readings"] = [{"city": "Tokyo", "celsius": 19, "conditions": "rain", "source": "an earlier run"}]
    final = brief_with_entry(StateGraph(BriefState), reference("08.3"), Send).compile(max_steps=10).invoke(stale)
    assert final["status"] == "published" and "Tokyo: 19°C" in final["answer"]


def _loop() -> dict:
    """The notebook's `loop`, read from its cell so the test follows the notebook."""
    space: dict = {}
    for cell in jupytext.read(NOTEBOOK).cells:
        if cell.cell_type == "code" and ("def logs" in cell.source or "def next_nodes" in cell.source
                                         or cell.source.startswith("import")):
            exec(cell.source, space)  # the notebook's own cells
    return space["loop"]
