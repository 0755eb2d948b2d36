"""Round-4 reader fixes in notebooks 07 and 07: each claim the reader found false is now shown by a cell."""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _cells(name: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]


def _shown(name: str) -> str:
    return "\n".join("".join(out.get("text", "")) for cell in _cells(name) if cell["cell_type"] == "code"
                     for out in cell.get("outputs", []))


def _markdown(name: str) -> str:
    return "\n".join("".join(cell["source"]) for cell in _cells(name) if cell["cell_type"] == "markdown")


def test_06_shows_none_clears_a_plain_field_but_not_a_reducer_field():
    shown = _shown("07_graph_routing")
    assert "plain field, None clears it: None" in shown and "reducer field, None raises:" in shown
    assert "clearing one takes an explicit `None`" not in _markdown("07_graph_routing")


def test_06_no_longer_claims_thicker_arrows_mean_more_walks():
    assert "the thicker the arrow" not in _markdown("07_graph_routing")


def test_06_names_checkpoints_and_interrupts_as_what_an_engine_adds():
    text = _markdown("07_graph_routing")
    assert "Everything a graph engine adds on top is care" not in text
    assert "interrupt(value)" in text and "Command(resume=" in text and "checkpointer" in text


def test_langgraph_pauses_at_interrupt_and_resumes_with_command_as_06_says():
    import pytest

    pytest.importorskip("langgraph")
    from typing import TypedDict

    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import START, StateGraph
    from langgraph.types import Command, interrupt

    class Ask(TypedDict):
        answer: str

    builder = StateGraph(Ask)
    builder.add_node("ask", lambda state: {"answer": interrupt("publish anyway?")})
    builder.add_edge(START, "ask")
    graph, thread = builder.compile(checkpointer=InMemorySaver()), {"configurable": {"thread_id": "t"}}
    paused = graph.invoke({"answer": ""}, config=thread)
    assert paused["answer"] == "" and paused["__interrupt__"][0].value == "publish anyway?"
    assert graph.invoke(Command(resume="yes"), config=thread)["answer"] == "yes"


def test_07_shows_write_running_next_to_a2_without_the_join():
    assert "(('a', 'b'), ('a2', 'write'), ('write',))" in _shown("08_parallel_branches")
    assert "while `a2` is still running" not in _markdown("08_parallel_branches")


def test_07_states_the_limit_of_its_superstep_loop():
    assert "right for a join reached once" in _markdown("08_parallel_branches").replace("\n# ", " ")
    assert "superstep 7: c2, meet" in _shown("08_parallel_branches")  # the looping join, shown going wrong


def test_08_the_repeat_router_stops_the_replayed_run_early_without_printing_09_2s_counts():
    from lessons.exercises.nb09 import _agent_with_router, smollm2_replay
    from lessons.reference import reference
    from mingraph_lite.course.scripts import QUESTION
    from mingraph_lite.graph import run_agent_graph

    stopped = run_agent_graph(_agent_with_router(reference("09.1"), smollm2_replay()), QUESTION)
    assert (stopped["stop_reason"], stopped["model_steps"], stopped["tool_calls_made"]) == ("repeated call", 4, 3)
    shown = _shown("09_agent_graph")
    assert "stop_reason: repeated call" in shown and "model calls: 4 of 6" not in shown  # 09.2's prediction stays open


def test_06_our_engine_has_neither_checkpoints_nor_interrupts_as_06_says():
    import pytest

    import mingraph_lite.graph as graph
    from mingraph_lite.course.brief import BriefNodes, BriefState
    from mingraph_lite.graph import StateGraph

    assert not hasattr(graph, "interrupt") and not hasattr(graph, "Command")
    builder = StateGraph(BriefState)
    builder.add_node("hold", BriefNodes().hold)
    builder.add_edge(graph.START, "hold")
    with pytest.raises(TypeError):
        builder.compile(checkpointer=object())
