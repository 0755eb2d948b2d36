"""Ported from LangGraph ``libs/langgraph/tests/test_large_cases.py`` at tag 1.2.11 (commit 644815f9e5bc).

``test_in_one_fan_out_out_one_graph_state``: one node fans out to two retrievers, both lead to qa
with plain edges; qa runs once, in the superstep after both (they ran in the same superstep).
"""

import operator
import time
from typing import Annotated, TypedDict

import pytest


def sorted_add(x: list[str], y: list[str]) -> list[str]:
    return sorted(operator.add(x, y))


class State(TypedDict, total=False):
    query: str
    answer: str
    docs: Annotated[list[str], sorted_add]


def rewrite_query(data):
    return {"query": f"query: {data['query']}"}


def retriever_one(data):
    time.sleep(0.1)  # upstream's timer: on LangGraph it makes retriever_two finish first
    return {"docs": ["doc1", "doc2"]}


def retriever_two(data):
    return {"docs": ["doc3", "doc4"]}


def qa(data):
    return {"answer": ",".join(data["docs"])}


def app(engine):
    workflow = engine.StateGraph(State)
    for fn in (rewrite_query, retriever_one, retriever_two, qa):
        workflow.add_node(fn.__name__, fn)
    workflow.set_entry_point("rewrite_query")
    workflow.add_edge("rewrite_query", "retriever_one")
    workflow.add_edge("rewrite_query", "retriever_two")
    workflow.add_edge("retriever_one", "qa")
    workflow.add_edge("retriever_two", "qa")
    workflow.set_finish_point("qa")
    return engine.compile(workflow)


QUERY = {"query": "what is weather in sf"}
REWRITE = {"rewrite_query": {"query": "query: what is weather in sf"}}
ONE, TWO = {"retriever_one": {"docs": ["doc1", "doc2"]}}, {"retriever_two": {"docs": ["doc3", "doc4"]}}
QA = {"qa": {"answer": "doc1,doc2,doc3,doc4"}}
VALUES = [
    {"query": "what is weather in sf", "docs": []},
    {"query": "query: what is weather in sf", "docs": []},
    {"query": "query: what is weather in sf", "docs": ["doc1", "doc2", "doc3", "doc4"]},
    {"query": "query: what is weather in sf", "docs": ["doc1", "doc2", "doc3", "doc4"],
     "answer": "doc1,doc2,doc3,doc4"},
]


def within_a_step(engine, finishing_order, by_name):
    """Documented difference: LangGraph streams a superstep's updates as its nodes finish (upstream's
    sleep decides), ours runs them one after another and streams them by node name."""
    return by_name if engine.ours else finishing_order


def test_in_one_fan_out_out_one_graph_state_invoke(engine):
    """test_large_cases.py::test_in_one_fan_out_out_one_graph_state (invoke)."""
    assert app(engine).invoke(QUERY) == {"query": "query: what is weather in sf",
                                         "docs": ["doc1", "doc2", "doc3", "doc4"],
                                         "answer": "doc1,doc2,doc3,doc4"}


def test_in_one_fan_out_out_one_graph_state_updates(engine):
    """test_large_cases.py::test_in_one_fan_out_out_one_graph_state (stream, default mode)."""
    assert [*app(engine).stream(QUERY)] == [REWRITE, *within_a_step(engine, [TWO, ONE], [ONE, TWO]), QA]


def test_in_one_fan_out_out_one_graph_state_values(engine):
    """test_large_cases.py::test_in_one_fan_out_out_one_graph_state (stream_mode="values")."""
    assert [*app(engine).stream(QUERY, stream_mode="values")] == VALUES


def test_in_one_fan_out_out_one_graph_state_values_and_updates(engine):
    """test_large_cases.py::test_in_one_fan_out_out_one_graph_state (["values", "updates", "debug"]).

    Upstream also asks for "debug" events; ours has no debug mode and says so (documented
    difference). The values and updates items, in order, are compared on both engines.
    """
    modes = ["values", "updates", "debug"]
    if engine.ours:
        with pytest.raises(ValueError, match="debug"):
            list(app(engine).stream(QUERY, stream_mode=modes))
        modes = ["values", "updates"]
    items = [item for item in app(engine).stream(QUERY, stream_mode=modes) if item[0] != "debug"]
    assert items == [
        ("values", VALUES[0]), ("updates", REWRITE), ("values", VALUES[1]),
        *[("updates", u) for u in within_a_step(engine, [TWO, ONE], [ONE, TWO])],
        ("values", VALUES[2]), ("updates", QA), ("values", VALUES[3]),
    ]
