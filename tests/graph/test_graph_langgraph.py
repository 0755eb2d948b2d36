"""Side by side: the same node functions and routes on our engine and on LangGraph's own StateGraph."""

from __future__ import annotations

import pytest

from mingraph_lite.course.brief import DRAFT_STYLES, build_brief_graph, initial_state
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.graph import build_agent_graph, initial_agent_state
from mingraph_lite.graph.builder import langgraph_state_graph
from mingraph_lite.observers.recorder import EventRecorder

langgraph = pytest.importorskip("langgraph",
                                reason="LangGraph not installed: pip install 'mingraph-lite[langgraph]'")


def run(graph, state):
    """(final state, node path, updates in order) from one stream of both modes, on either engine."""
    final, path, updates = dict(state), [], []
    for mode, payload in graph.stream(dict(state), stream_mode=["updates", "values"]):
        if mode == "updates":
            path += list(payload)
            updates += [dict(update or {}) for update in payload.values()]
        else:
            final = payload
    return final, tuple(path), updates


def test_the_builder_really_is_langgraphs():
    cls = langgraph_state_graph()
    assert cls.__module__.startswith("langgraph.")
    graph = build_brief_graph(engine="langgraph")
    assert type(graph).__module__.startswith("langgraph.")


@pytest.mark.parametrize("max_revisions", [0, 1, 2])
@pytest.mark.parametrize("style", DRAFT_STYLES)
def test_the_brief_takes_the_same_path_to_the_same_state(style, max_revisions):
    state = initial_state(["Tokyo", "Paris"], include_fahrenheit=True)
    ours = run(build_brief_graph(style, max_revisions), state)
    theirs = run(build_brief_graph(style, max_revisions, engine="langgraph"), state)
    assert ours[1] == theirs[1]  # node path
    assert ours[0] == theirs[0]  # final state
    assert ours[2] == theirs[2]  # each update, in order


@pytest.mark.parametrize("manager", [four_round_manager, three_round_manager])
@pytest.mark.parametrize("limits", [{}, {"max_model_steps": 1}, {"max_tool_calls": 1}])
def test_the_agent_graph_takes_the_same_path_to_the_same_state(manager, limits):
    results, heard = [], []
    for engine in ("mingraph", "langgraph"):
        rec = EventRecorder()
        graph = build_agent_graph(manager(), weather_registry(), SYSTEM_PROMPT, observers=[rec],
                                  engine=engine, **limits)
        state = initial_agent_state(QUESTION, SYSTEM_PROMPT)
        results.append(run(graph, state))
        heard.append([e for e in rec.events if not e["event"].startswith("node_")])
    (ours, our_path, _), (theirs, their_path, _) = results
    assert our_path == their_path and ours == theirs
    assert heard[0] == heard[1]  # the nodes announce the same things whichever engine runs them


def test_both_stream_modes_match_item_for_item():
    state = initial_state(["Tokyo", "Paris"])
    ours = list(build_brief_graph().stream(state, stream_mode=["updates", "values"]))
    theirs = list(build_brief_graph(engine="langgraph").stream(state, stream_mode=["updates", "values"]))
    assert ours == theirs
    assert ours[0] == ("values", state)  # both start with the input, then alternate update/values
