"""compile() refuses every graph that cannot run, before anything runs, and names the offender."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

import pytest

from mingraph_lite.errors import GraphValidationError
from mingraph_lite.graph import END, START, StateGraph


class S(TypedDict):
    x: int
    log: Annotated[list[str], operator.add]


def node(state):
    return {}


def builder(*names):
    b = StateGraph(S)
    for name in names:
        b.add_node(name, node)
    return b


def test_builder_methods_chain_and_read_reducers():
    b = StateGraph(S)
    assert b.add_node("a", node) is b and b.add_edge(START, "a") is b
    assert b.add_conditional_edges("a", lambda s: "x", {"x": END}) is b
    assert b.schema.fields == ("x", "log") and b.schema.reducers == {"log": operator.add}
    assert b.compile().invoke({"x": 1, "log": []}) == {"x": 1, "log": []}


@pytest.mark.parametrize("make, offender", [
    (lambda: StateGraph(S), "no nodes"),
    (lambda: builder("a").add_edge("a", END), "no entry"),
    (lambda: builder("a").add_edge(START, "a").add_edge("a", "ghost"), "'ghost'"),
    (lambda: builder("a").add_edge(START, "a").add_edge("a", END).add_edge("ghost", "a"), "'ghost'"),
    (lambda: builder("a").add_edge(START, "a").add_edge("a", END).add_edge(END, "a"), "leaves END"),
    (lambda: builder("a").add_edge(START, "a").add_edge("a", START), "back to START"),
    (lambda: builder("a", "b").add_edge(START, "a").add_edge("a", END), "'b' is unreachable"),
    (lambda: builder("a", "b").add_edge(START, "a").add_edge("a", END).add_edge("b", END),
     "'b' is unreachable"),
    (lambda: builder("a", "b").add_edge(START, "a").add_edge("a", "b").add_edge("b", "a"),
     "'a' has no path to END"),
    (lambda: builder("a").add_edge(START, "a").add_conditional_edges("a", lambda s: "go", {"go": "hlod"}),
     "unknown node 'hlod': route 'go' from 'a' goes there"),
    (lambda: builder("a", "b").add_edge(START, "a").add_edge(["a", "ghost"], "b"), "'ghost'"),
    (lambda: builder("a").add_edge(START, "a").add_edge([START, "a"], END), "cannot wait for START"),
])
def test_compile_names_what_cannot_run(make, offender):
    with pytest.raises(GraphValidationError) as info:
        make().compile()
    assert offender in str(info.value)


def test_a_validation_error_is_also_a_value_error_as_on_langgraph():
    with pytest.raises(ValueError, match="unknown node 'ghost'"):
        builder("a").add_edge(START, "a").add_edge("ghost", "a").compile()


def test_a_node_with_no_way_out_ends_the_run_there():
    graph = builder("a", "b").add_edge(START, "a").add_edge("a", "b").compile()
    assert graph.invoke({"x": 1}) == {"x": 1, "log": []}
    assert graph.path == ("a", "b")


def test_fan_out_and_a_join_compile():
    b = builder("a", "b", "c", "d").add_edge(START, "a").add_edge("a", "b").add_edge("a", "c")
    graph = b.add_edge(["b", "c"], "d").add_edge("d", END).compile()
    assert graph.invoke({"x": 0}) == {"x": 0, "log": []}
    assert graph.steps == (("a",), ("b", "c"), ("d",))


def test_a_loop_with_an_exit_compiles():
    b = builder("a", "b").add_edge(START, "a").add_edge("a", "b")
    b.add_conditional_edges("b", lambda s: "again", {"again": "a", "done": END})
    assert b.compile(max_steps=5).max_steps == 5


def test_names_and_arguments_are_checked_when_added():
    with pytest.raises(GraphValidationError, match="twice"):
        builder("a", "a")
    with pytest.raises(GraphValidationError, match="reserved"):
        builder(END)
    with pytest.raises(TypeError, match="needs a function"):
        StateGraph(S).add_node("a", 42)
    with pytest.raises(TypeError, match="path map"):
        builder("a").add_conditional_edges("a", lambda s: "x", "x")
    with pytest.raises(TypeError, match="TypedDict"):
        StateGraph(dict)


@pytest.mark.parametrize("bad", [-1, 2.5, True])
def test_max_steps_must_be_a_positive_int(bad):
    with pytest.raises(ValueError, match="counts supersteps"):
        builder("a").add_edge(START, "a").add_edge("a", END).compile(max_steps=bad)


def test_add_node_takes_a_bare_function():
    def shout(state):
        return {"x": state["x"] + 1}

    graph = StateGraph(S).add_node(shout).add_edge(START, "shout").add_edge("shout", END).compile()
    assert graph.invoke({"x": 1, "log": []})["x"] == 2
