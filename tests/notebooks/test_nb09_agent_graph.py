"""Notebook 09 (the agent loop as a graph, split from the old 07): what its cells claim, held to their outputs."""

from __future__ import annotations

import json
from pathlib import Path

from lessons.exercises.nb09_predict import _replayed

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "09_agent_graph"


def _shown() -> str:
    cells = json.loads(NOTEBOOK.with_suffix(".ipynb").read_text(encoding="utf-8"))["cells"]
    return "\n".join(out.get("text", "") if isinstance(out.get("text", ""), str) else "".join(out["text"])
                     for cell in cells if cell["cell_type"] == "code" for out in cell.get("outputs", []))


def test_the_give_up_node_names_the_repeated_call_and_leaves_no_answer():
    said = "stop_reason: repeated call | error: asked again: to_fahrenheit({'celsius': 10.0}) | answer: None"
    assert said in _shown()


def test_08_2_counts_are_not_printed_where_the_learner_predicts_them():
    counts = _replayed()
    assert counts == {"package_supersteps": 13, "router_supersteps": 8, "router_tool_handlers": 3}
    shown = _shown()
    assert "supersteps" not in shown and "tool calls: 3" not in shown  # no count of either replay is printed


def test_08_names_no_parallel_exercise_and_07_no_agent_graph():
    assert "07." not in NOTEBOOK.with_suffix(".py").read_text(encoding="utf-8")
    seven = (NOTEBOOK.parent / "08_parallel_branches.py").read_text(encoding="utf-8")
    assert "route_after_model" not in seven and "ReplayLLM" not in seven


def test_smollm2_replays_docstring_says_what_the_run_converts():
    from lessons.exercises.nb09 import smollm2_replay

    replay = smollm2_replay()
    asked = [c.arguments["celsius"] for r in replay.responses for c in r.message.tool_calls]
    assert asked == [22, 20, 10, 10, 10, 10]
    assert "converts 22, 20, then 10 four times" in smollm2_replay.__doc__


def test_the_worked_example_replay_starts_from_the_worked_example_and_ends_answered():
    from lessons.exercises.nb09 import replay_worked_example

    start, ended, closest = replay_worked_example()
    assert [m.role for m in start["messages"]][0] == "system" and start["messages"][-1].role == "user"
    assert len(start["messages"]) > 2 and ended["messages"][:len(start["messages"])] == start["messages"]
    assert ended["stop_reason"] == "answered" and closest.responses[0].model.startswith("replay:gemma3")


def test_the_package_graphs_step_bound_is_2n_plus_1_as_09_says():
    from mingraph_lite.graph.agent_graph import node_executions

    text = (Path(__file__).resolve().parents[2] / "notebooks" / "09_agent_graph.py").read_text(encoding="utf-8")
    # 09 points back to 09.2's hand count (the formula under 09.4 would answer 09.2)
    assert "counted by hand in 09.2" in text and "2n + 1" not in text
    assert all(node_executions(n) == 2 * n + 1 for n in range(1, 12))



def test_a_batch_over_the_budget_runs_in_part_in_01_4_and_not_at_all_in_the_graph():
    """09 says: 01.4 ran a batch's errands up to the budget; the graph's tools node refuses the whole batch."""
    import pytest

    from lessons.reference import reference
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
    from mingraph_lite.course.weather import weather_registry
    from mingraph_lite.errors import StepLimitReached
    from mingraph_lite.graph import build_agent_graph, run_agent_graph

    registry, ran = weather_registry(), []

    class Counting:  # the same menu, counting the errands it runs
        tools = registry.tools

        def run(self, slip):
            ran.append(slip.name)
            return registry.run(slip)

    with pytest.raises(StepLimitReached):
        reference("01.4")(four_round_manager(), Counting(), SYSTEM_PROMPT, QUESTION, max_tool_calls=1)
    assert ran == ["get_weather"]  # the first batch asks for two lookups; 01.4 ran one of them
    end = run_agent_graph(build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                                            max_tool_calls=1), QUESTION)
    assert end["tool_calls_made"] == 0
