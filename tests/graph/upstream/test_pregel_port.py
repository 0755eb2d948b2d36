"""Ported from LangGraph ``libs/langgraph/tests/test_pregel.py`` at tag 1.2.11 (commit 644815f9e5bc).

Each test names the upstream test it re-creates; the graphs and expected results are upstream's,
written again here. Assertions about LangGraph's own renderers (Mermaid/JSON-schema snapshots) and
its checkpointer, interrupt and cache features are outside this engine's subset and are not ported.
"""

# No `from __future__ import annotations` here: upstream's local reducers and states are read from
# their annotations at run time, as in upstream's file.
import enum
import operator
import time
from typing import Annotated, Literal, TypedDict

import pytest


def sorted_add(x: list[str], y: list[str] | list[tuple[str, str]]) -> list[str]:
    """Upstream's reducer for the retriever graphs: a tuple update replaces one doc with another."""
    if isinstance(y[0], tuple):
        for removed, _ in y:
            x.remove(removed)
        y = [added for _, added in y]
    return sorted(operator.add(x, y))


class Docs(TypedDict, total=False):
    query: str
    answer: str
    docs: Annotated[list[str], sorted_add]


def rewrite_query(data: Docs) -> Docs:
    return {"query": f"query: {data['query']}"}


def analyzer_one(data: Docs) -> Docs:
    return {"query": f"analyzed: {data['query']}"}


def retriever_one(data: Docs) -> Docs:
    return {"docs": ["doc1", "doc2"]}


def retriever_two(data: Docs) -> Docs:
    time.sleep(0.1)  # upstream's: on LangGraph, analyzer_one (same superstep) streams first
    return {"docs": ["doc3", "doc4"]}


def qa(data: Docs) -> Docs:
    return {"answer": ",".join(data["docs"])}


def decider(data: Docs) -> None:
    return None


def decider_cond(data: Docs) -> str:
    return "qa" if data["query"].count("analyzed") > 1 else "rewrite_query"


def retrievers(engine, names=("rewrite_query", "analyzer_one", "retriever_one", "retriever_two", "qa")):
    workflow = engine.StateGraph(Docs)
    for name in names:
        workflow.add_node(name, globals()[name])
    return workflow


QUERY = {"query": "what is weather in sf"}
TWICE = {"query": "analyzed: query: analyzed: query: what is weather in sf",
         "answer": "doc1,doc1,doc2,doc2,doc3,doc3,doc4,doc4",
         "docs": ["doc1", "doc1", "doc2", "doc2", "doc3", "doc3", "doc4", "doc4"]}
TWICE_STREAM = [
    {"rewrite_query": {"query": "query: what is weather in sf"}},
    {"analyzer_one": {"query": "analyzed: query: what is weather in sf"}},
    {"retriever_two": {"docs": ["doc3", "doc4"]}},
    {"retriever_one": {"docs": ["doc1", "doc2"]}},
    {"decider": None},
    {"rewrite_query": {"query": "query: analyzed: query: what is weather in sf"}},
    {"analyzer_one": {"query": "analyzed: query: analyzed: query: what is weather in sf"}},
    {"retriever_two": {"docs": ["doc3", "doc4"]}},
    {"retriever_one": {"docs": ["doc1", "doc2"]}},
    {"decider": None},
    {"qa": {"answer": "doc1,doc1,doc2,doc2,doc3,doc3,doc4,doc4"}},
]
ONCE = {"query": "analyzed: query: what is weather in sf", "docs": ["doc1", "doc2", "doc3", "doc4"],
        "answer": "doc1,doc2,doc3,doc4"}
ONCE_STREAM = [
    {"rewrite_query": {"query": "query: what is weather in sf"}},
    {"analyzer_one": {"query": "analyzed: query: what is weather in sf"}},
    {"retriever_two": {"docs": ["doc3", "doc4"]}},
    {"retriever_one": {"docs": ["doc1", "doc2"]}},
    {"qa": {"answer": "doc1,doc2,doc3,doc4"}},
]


class Hello(TypedDict):
    hello: str


# -- test_graph_validation ----------------------------------------------------------------------

def test_graph_validation_edge_from_unknown_node(engine):
    """test_pregel.py::test_graph_validation (first part): an edge from a node that does not exist."""
    graph = engine.StateGraph(Hello)
    graph.add_node("start", lambda x: x)
    graph.add_edge("__start__", "start")
    graph.add_edge("unknown", "start")
    graph.add_edge("start", "__end__")
    with pytest.raises(ValueError, match="Found edge starting at unknown node "):
        graph.compile()


def test_graph_validation_reducer_with_one_parameter(engine):
    """test_pregel.py::test_graph_validation (second part): a one-parameter reducer is refused at once."""
    def bad_reducer(a): ...

    class BadReducerState(TypedDict):
        hello: Annotated[str, bad_reducer]

    with pytest.raises(ValueError, match="Invalid reducer"):
        engine.StateGraph(BadReducerState)


def test_graph_validation_two_writes_to_a_plain_field_in_one_step(engine):
    """test_pregel.py::test_graph_validation (third part): a fans out to b and c, both write 'hello'."""
    def node_b(state: Hello) -> Hello:
        return {"hello": "world"}

    builder = engine.StateGraph(Hello)
    builder.add_node("a", node_b)
    builder.add_node("b", node_b)
    builder.add_node("c", node_b)
    builder.set_entry_point("a")
    builder.add_edge("a", "b")
    builder.add_edge("a", "c")
    graph = engine.compile(builder)
    with pytest.raises(engine.InvalidUpdateError, match="At key 'hello'"):
        graph.invoke({"hello": "there"})


# -- input through reducers ----------------------------------------------------------------------

@pytest.mark.parametrize("shape", ["list", "Sequence"])
def test_reducer_before_first_node(engine, shape):
    """test_pregel.py::test_reducer_before_first_node: the input goes through add_messages first."""
    from collections.abc import Sequence

    pytest.importorskip("langgraph", reason="add_messages is LangGraph's: pip install 'mingraph-lite[langgraph]'")
    from langchain_core.messages import HumanMessage
    from langgraph.graph.message import add_messages

    class ListState(TypedDict):
        hello: str
        messages: Annotated[list[str], add_messages]

    class SequenceState(TypedDict):
        hello: str
        messages: Annotated[Sequence[str], add_messages]

    State = ListState if shape == "list" else SequenceState
    seen = []

    def node_a(state):
        seen.append(state)

    builder = engine.StateGraph(State)
    builder.add_node("a", node_a)
    builder.set_entry_point("a")
    builder.set_finish_point("a")
    final = engine.compile(builder).invoke({"hello": "there", "messages": "hello"})
    for state in (seen[0], final):
        assert state["hello"] == "there" and list(state) in (["hello", "messages"], ["messages", "hello"])
        [message] = state["messages"]
        assert isinstance(message, HumanMessage) and message.content == "hello" and message.id


# -- conditional entry points, Send, list routes --------------------------------------------------

def test_conditional_entrypoint_to_multiple_state_graph(engine):
    """test_pregel.py::test_conditional_entrypoint_to_multiple_state_graph: Send per location."""
    class OverallState(TypedDict):
        locations: list[str]
        results: Annotated[list[str], operator.add]

    def get_weather(state):
        location = state["location"]
        weather = "sunny" if len(location) > 2 else "cloudy"
        return {"results": [f"It's {weather} in {location}"]}

    def continue_to_weather(state):
        return [engine.Send("get_weather", {"location": location}) for location in state["locations"]]

    workflow = engine.StateGraph(OverallState)
    workflow.add_node("get_weather", get_weather)
    workflow.add_edge("get_weather", engine.END)
    workflow.set_conditional_entry_point(continue_to_weather, path_map=["get_weather"])
    app = engine.compile(workflow)
    expected = {"locations": ["sf", "nyc"], "results": ["It's cloudy in sf", "It's sunny in nyc"]}
    assert app.invoke({"locations": ["sf", "nyc"]}) == expected
    assert [*app.stream({"locations": ["sf", "nyc"]}, stream_mode="values")][-1] == expected


def test_conditional_state_graph_with_list_edge_inputs(engine):
    """test_pregel.py::test_conditional_state_graph_with_list_edge_inputs: a join straight into END."""
    class State(TypedDict):
        foo: Annotated[list[str], operator.add]

    graph_builder = engine.StateGraph(State)
    graph_builder.add_node("A", lambda x: {"foo": ["A"]})
    graph_builder.add_node("B", lambda x: {"foo": ["B"]})
    graph_builder.add_edge(engine.START, "A")
    graph_builder.add_edge(engine.START, "B")
    graph_builder.add_edge(["A", "B"], engine.END)
    assert engine.compile(graph_builder).invoke({"foo": []}) == {"foo": ["A", "B"]}


class AgentState(TypedDict, total=False):
    input: str
    output: str
    steps: Annotated[list[str], operator.add]


def entry_graph(engine):
    def left(data):
        return {"output": data["input"] + "->left"}

    def right(data):
        return {"output": data["input"] + "->right"}

    def should_start(data):
        assert data["steps"] == [], "Expected input to be read from the state"
        return "go-right" if len(data["input"]) > 10 else "go-left"

    workflow = engine.StateGraph(AgentState)
    workflow.add_node("left", left)
    workflow.add_node("right", right)
    workflow.set_conditional_entry_point(should_start, {"go-left": "left", "go-right": "right"})
    workflow.add_conditional_edges("left", lambda data: engine.END, {engine.END: engine.END})
    workflow.add_edge("right", engine.END)
    return engine.compile(workflow)


def test_conditional_entrypoint_graph_state_invoke(engine):
    """test_pregel.py::test_conditional_entrypoint_graph_state (invoke): 'steps' starts as []."""
    assert entry_graph(engine).invoke({"input": "what is weather in sf"}) == {
        "input": "what is weather in sf", "output": "what is weather in sf->right", "steps": []}


def test_conditional_entrypoint_graph_state_stream(engine):
    """test_pregel.py::test_conditional_entrypoint_graph_state (stream): the default mode is updates."""
    assert [*entry_graph(engine).stream({"input": "what is weather in sf"})] == [
        {"right": {"output": "what is weather in sf->right"}}]


# -- fan-out and waiting edges (joins) ------------------------------------------------------------

def waiting_edge(engine):
    workflow = retrievers(engine)
    workflow.set_entry_point("rewrite_query")
    workflow.add_edge("rewrite_query", "analyzer_one")
    workflow.add_edge("analyzer_one", "retriever_one")
    workflow.add_edge("rewrite_query", "retriever_two")
    workflow.add_edge(["retriever_one", "retriever_two"], "qa")
    workflow.set_finish_point("qa")
    return workflow


def test_in_one_fan_out_state_graph_waiting_edge_invoke(engine):
    """test_pregel.py::test_in_one_fan_out_state_graph_waiting_edge (invoke): the join waits a step."""
    assert engine.compile(waiting_edge(engine)).invoke(QUERY) == ONCE


def test_in_one_fan_out_state_graph_waiting_edge_stream(engine):
    """test_pregel.py::test_in_one_fan_out_state_graph_waiting_edge (stream)."""
    assert [*engine.compile(waiting_edge(engine)).stream(QUERY)] == ONCE_STREAM


def test_in_one_fan_out_state_graph_waiting_edge_via_branch(engine):
    """test_pregel.py::test_in_one_fan_out_state_graph_waiting_edge_via_branch: a Literal-typed router."""
    def rewrite_query_then(data: Docs) -> Literal["retriever_two"]:
        return "retriever_two"

    workflow = retrievers(engine)
    workflow.set_entry_point("rewrite_query")
    workflow.add_edge("rewrite_query", "analyzer_one")
    workflow.add_edge("analyzer_one", "retriever_one")
    workflow.add_conditional_edges("rewrite_query", rewrite_query_then)
    workflow.add_edge(["retriever_one", "retriever_two"], "qa")
    workflow.set_finish_point("qa")
    app = engine.compile(workflow)
    assert app.invoke(QUERY) == ONCE
    assert [*app.stream(QUERY)] == ONCE_STREAM


def test_in_one_fan_out_state_graph_waiting_edge_plus_regular(engine):
    """test_pregel.py::test_in_one_fan_out_state_graph_waiting_edge_plus_regular: qa runs early too."""
    workflow = waiting_edge(engine)
    workflow.add_edge("rewrite_query", "qa")  # upstream's "silly edge": the join must still hold
    app = engine.compile(workflow)
    assert app.invoke(QUERY) == ONCE
    chunks = [*app.stream(QUERY)]
    rewrite, analyzer = ONCE_STREAM[0], ONCE_STREAM[1]
    retriever_one_result, retriever_two_result = ONCE_STREAM[3], ONCE_STREAM[2]
    assert chunks[0] == rewrite and chunks[-1] == {"qa": {"answer": "doc1,doc2,doc3,doc4"}}
    middle = chunks[1:-1]
    assert sorted(middle, key=repr) == sorted([{"qa": {"answer": ""}}, analyzer, retriever_one_result,
                                               retriever_two_result], key=repr)
    assert middle.index(analyzer) < middle.index(retriever_one_result)


def test_in_one_fan_out_state_graph_waiting_edge_multiple(engine):
    """test_pregel.py::test_in_one_fan_out_state_graph_waiting_edge_multiple (without cache): a loop
    through the join, closed by a router with no path map."""
    count = {"rewrite_query": 0}

    def counted_rewrite(data):
        count["rewrite_query"] += 1
        return rewrite_query(data)

    workflow = engine.StateGraph(Docs)
    workflow.add_node("rewrite_query", counted_rewrite)
    for name in ("analyzer_one", "retriever_one", "retriever_two", "decider", "qa"):
        workflow.add_node(name, globals()[name])
    workflow.set_entry_point("rewrite_query")
    workflow.add_edge("rewrite_query", "analyzer_one")
    workflow.add_edge("analyzer_one", "retriever_one")
    workflow.add_edge("rewrite_query", "retriever_two")
    workflow.add_edge(["retriever_one", "retriever_two"], "decider")
    workflow.add_conditional_edges("decider", decider_cond)
    workflow.set_finish_point("qa")
    app = engine.compile(workflow)
    assert app.invoke(QUERY) == TWICE
    assert [*app.stream(QUERY)] == TWICE_STREAM
    assert count["rewrite_query"] == 4


def test_in_one_fan_out_state_graph_waiting_edge_multiple_cond_edge(engine):
    """test_pregel.py::test_in_one_fan_out_state_graph_waiting_edge_multiple_cond_edge: a router
    returning a list of two nodes starts two branches."""
    def retriever_picker(data: Docs) -> list[str]:
        return ["analyzer_one", "retriever_two"]

    workflow = retrievers(engine, ("rewrite_query", "analyzer_one", "retriever_one", "retriever_two",
                                   "decider", "qa"))
    workflow.set_entry_point("rewrite_query")
    workflow.add_conditional_edges("rewrite_query", retriever_picker)
    workflow.add_edge("analyzer_one", "retriever_one")
    workflow.add_edge(["retriever_one", "retriever_two"], "decider")
    workflow.add_conditional_edges("decider", decider_cond)
    workflow.set_finish_point("qa")
    app = engine.compile(workflow)
    assert app.invoke(QUERY) == TWICE
    assert [*app.stream(QUERY)] == TWICE_STREAM


class Query(TypedDict, total=False):
    query: str


def rewrite(data: Query) -> Query:
    return {"query": f"query: {data['query']}"}


def analyze(data: Query) -> Query:
    return {"query": f"analyzed: {data['query']}"}


def test_callable_in_conditional_edges_with_no_path_map(engine):
    """test_pregel.py::test_callable_in_conditional_edges_with_no_path_map: a callable object routes."""
    class ChooseAnalyzer:
        def __call__(self, data: Query) -> str:
            return "analyzer"

    workflow = engine.StateGraph(Query)
    workflow.add_node("rewriter", rewrite)
    workflow.add_node("analyzer", analyze)
    workflow.add_conditional_edges("rewriter", ChooseAnalyzer())
    workflow.set_entry_point("rewriter")
    assert engine.compile(workflow).invoke(QUERY) == {"query": "analyzed: query: what is weather in sf"}


def test_function_in_conditional_edges_with_no_path_map(engine):
    """test_pregel.py::test_function_in_conditional_edges_with_no_path_map."""
    def choose_analyzer(data: Query) -> str:
        return "analyzer"

    workflow = engine.StateGraph(Query)
    workflow.add_node("rewriter", rewrite)
    workflow.add_node("analyzer", analyze)
    workflow.add_conditional_edges("rewriter", choose_analyzer)
    workflow.set_entry_point("rewriter")
    assert engine.compile(workflow).invoke(QUERY) == {"query": "analyzed: query: what is weather in sf"}


def test_simple_multi_edge(engine):
    """test_pregel.py::test_simple_multi_edge: nodes returning None, a fan-out, a join on up + side."""
    class State(TypedDict):
        my_key: Annotated[str, operator.add]

    def up(state): pass

    def side(state): pass

    def other(state): return {"my_key": "_more"}

    def down(state): pass

    graph = engine.StateGraph(State)
    for fn in (up, side, other, down):
        graph.add_node(fn.__name__, fn)
    graph.set_entry_point("up")
    graph.add_edge("up", "side")
    graph.add_edge("up", "other")
    graph.add_edge(["up", "side"], "down")
    graph.set_finish_point("down")
    app = engine.compile(graph)
    assert app.invoke({"my_key": "my_value"}) == {"my_key": "my_value_more"}
    assert [*app.stream({"my_key": "my_value"})] in (
        [{"up": None}, {"side": None}, {"other": {"my_key": "_more"}}, {"down": None}],
        [{"up": None}, {"other": {"my_key": "_more"}}, {"side": None}, {"down": None}],
    )


def test_enum_node_names(engine):
    """test_pregel.py::test_enum_node_names: a str Enum member is a node name."""
    class NodeName(str, enum.Enum):
        BAZ = "baz"

    class State(TypedDict):
        foo: str
        bar: str

    def baz(state):
        return {"bar": state["foo"] + "!"}

    graph = engine.StateGraph(State)
    graph.add_node(NodeName.BAZ, baz)
    graph.add_edge(engine.START, NodeName.BAZ)
    graph.add_edge(NodeName.BAZ, engine.END)
    assert engine.compile(graph).invoke({"foo": "hello"}) == {"foo": "hello", "bar": "hello!"}


# -- add_sequence (and a node with no way out ends the run) ---------------------------------------

class Seq(TypedDict):
    foo: Annotated[list[str], operator.add]
    bar: str


def step1(state):
    return {"foo": ["step1"], "bar": "baz"}


def step2(state):
    return {"foo": ["step2"]}


def a(state):
    return {"foo": ["a"]}


def b(state):
    return {"foo": ["b"]}


def c(state):
    return {"foo": ["c"]}


def d(state):
    return {"foo": ["d"]}


def e(state):
    return {"foo": ["e"]}


@pytest.mark.parametrize("case", ["empty", "same function twice", "same name twice"])
def test_add_sequence_refuses(engine, case):
    """test_pregel.py::test_add_sequence (the refusals): empty, or a name used twice."""
    steps = {"empty": [], "same function twice": [step1, step1],
             "same name twice": [("foo", step1), ("foo", step1)]}[case]
    with pytest.raises(ValueError):
        engine.StateGraph(Seq).add_sequence(steps)


def test_add_sequence_unnamed_steps(engine):
    """test_pregel.py::test_add_sequence (unnamed steps): the last step has no way out and ends the run."""
    builder = engine.StateGraph(Seq)
    builder.add_sequence([step1, step2])
    builder.add_edge(engine.START, "step1")
    graph = engine.compile(builder)
    assert graph.invoke({"foo": []}) == {"foo": ["step1", "step2"], "bar": "baz"}
    assert list(graph.stream({"foo": []})) == [{"step1": {"foo": ["step1"], "bar": "baz"}},
                                               {"step2": {"foo": ["step2"]}}]


def test_add_sequence_named_steps(engine):
    """test_pregel.py::test_add_sequence (named steps)."""
    builder = engine.StateGraph(Seq)
    builder.add_sequence([("meow1", step1), ("meow2", step2)])
    builder.add_edge(engine.START, "meow1")
    graph = engine.compile(builder)
    assert graph.invoke({"foo": []}) == {"foo": ["step1", "step2"], "bar": "baz"}
    assert list(graph.stream({"foo": []})) == [{"meow1": {"foo": ["step1"], "bar": "baz"}},
                                               {"meow2": {"foo": ["step2"]}}]


def test_add_sequence_named_lambdas(engine):
    """test_pregel.py::test_add_sequence (named lambdas): the second reads what the first wrote."""
    builder = engine.StateGraph(Seq)
    builder.add_sequence([("meow1", lambda state: {"foo": ["foo"]}),
                          ("meow2", lambda state: {"bar": state["foo"][0] + "bar"})])
    builder.add_edge(engine.START, "meow1")
    graph = engine.compile(builder)
    assert graph.invoke({"foo": []}) == {"bar": "foobar", "foo": ["foo"]}
    assert list(graph.stream({"foo": []})) == [{"meow1": {"foo": ["foo"]}}, {"meow2": {"bar": "foobar"}}]


def test_add_sequence_two_sequences(engine):
    """test_pregel.py::test_add_sequence (two sequences joined by an edge)."""
    builder = engine.StateGraph(Seq)
    builder.add_sequence([a])
    builder.add_sequence([b])
    builder.add_edge(engine.START, "a")
    builder.add_edge("a", "b")
    graph = engine.compile(builder)
    assert graph.invoke({"foo": []}) == {"foo": ["a", "b"]}
    assert list(graph.stream({"foo": []})) == [{"a": {"foo": ["a"]}}, {"b": {"foo": ["b"]}}]


def test_add_sequence_mixed_with_a_router(engine):
    """test_pregel.py::test_add_sequence (mixed nodes and sequences, routed without a path map)."""
    def foo(state):
        return "d" if state["foo"][0] == "a" else "c"

    builder = engine.StateGraph(Seq)
    builder.add_sequence([a, b])
    builder.add_conditional_edges("b", foo)
    builder.add_node(c)
    builder.add_sequence([d, e])
    builder.add_edge(engine.START, "a")
    graph = engine.compile(builder)
    assert graph.invoke({"foo": []}) == {"foo": ["a", "b", "d", "e"]}
    assert graph.invoke({"foo": ["start"]}) == {"foo": ["start", "a", "b", "c"]}
    assert list(graph.stream({"foo": []})) == [{"a": {"foo": ["a"]}}, {"b": {"foo": ["b"]}},
                                               {"d": {"foo": ["d"]}}, {"e": {"foo": ["e"]}}]


# -- supersteps, Send and the bound ---------------------------------------------------------------

class Node:
    """Upstream's node class for the Send tests: it appends its name (or name|packet) to the list."""

    def __init__(self, name: str):
        self.name = name
        self.__name__ = name

    def __call__(self, state):
        return [self.name] if isinstance(state, list) else ["|".join((self.name, str(state)))]


def route_to_three(state) -> Literal["3"]:
    return "3"


def test_cond_edge_after_send(engine):
    """test_pregel.py::test_cond_edge_after_send: the state is one annotated list (no TypedDict).

    Documented difference: our state is always a TypedDict of fields, so this root-value state is
    refused with a TypeError naming the fix.
    """
    def send_for_fun(state):
        return [engine.Send("2", state), engine.Send("2", state)]

    def build():
        builder = engine.StateGraph(Annotated[list, operator.add])
        for name in ("1", "2", "3"):
            builder.add_node(Node(name))
        builder.add_edge(engine.START, "1")
        builder.add_conditional_edges("1", send_for_fun)
        builder.add_conditional_edges("2", route_to_three)
        return engine.compile(builder)

    if engine.ours:
        with pytest.raises(TypeError, match="TypedDict"):
            build()
        return
    assert build().invoke(["0"]) == ["0", "1", "2", "2", "3"]


def test_concurrent_emit_sends(engine):
    """test_pregel.py::test_concurrent_emit_sends: Sends from two nodes plus a plain route.

    Documented difference (as above): a root-value state is refused on ours. The same graph over a
    TypedDict field is ``test_concurrent_emit_sends_over_a_field`` in test_graph_parallel.py.
    """
    def send_for_fun(state):
        return [engine.Send("2", 1), engine.Send("2", 2), "3.1"]

    def send_for_profit(state):
        return [engine.Send("2", 3), engine.Send("2", 4)]

    def build():
        builder = engine.StateGraph(Annotated[list, operator.add])
        for name in ("1", "1.1", "2", "3", "3.1"):
            builder.add_node(Node(name))
        builder.add_edge(engine.START, "1")
        builder.add_edge(engine.START, "1.1")
        builder.add_conditional_edges("1", send_for_fun)
        builder.add_conditional_edges("1.1", send_for_profit)
        builder.add_conditional_edges("2", route_to_three)
        return engine.compile(builder)

    if engine.ours:
        with pytest.raises(TypeError, match="TypedDict"):
            build()
        return
    assert build().invoke(["0"]) == ["0", "1", "1.1", "3.1", "2|1", "2|2", "2|3", "2|4", "3"]


def test_invoke_two_processes_in_out(engine):
    """test_pregel.py::test_invoke_two_processes_in_out, as a StateGraph: two add-one steps in a row;
    recursion_limit=1 stops it."""
    class State(TypedDict):
        value: int

    def add_one(state):
        return {"value": state["value"] + 1}

    builder = engine.StateGraph(State)
    builder.add_sequence([("one", add_one), ("two", add_one)])
    builder.add_edge(engine.START, "one")
    assert engine.compile(builder).invoke({"value": 2}) == {"value": 4}
    with pytest.raises(engine.RecursionError):
        engine.compile(builder, recursion_limit=1).invoke({"value": 2})


# -- Pregel-level tests re-created as StateGraphs -------------------------------------------------

def test_invoke_two_processes_two_in_two_out_invalid(engine):
    """test_pregel.py::test_invoke_two_processes_two_in_two_out_invalid (its StateGraph part): an
    entry router picks two nodes that both write the plain field 'hello' in one superstep."""
    def my_node(input):
        return {"hello": "world"}

    builder = engine.StateGraph(Hello)
    builder.add_node("one", my_node)
    builder.add_node("two", my_node)
    builder.set_conditional_entry_point(lambda _: ["one", "two"])
    with pytest.raises(engine.InvalidUpdateError, match="At key 'hello'"):
        engine.compile(builder).invoke({"hello": "there"})


class Inbox(TypedDict, total=False):
    input: int
    output: Annotated[list[int], operator.add]  # upstream's Topic channel: every write of a step kept


def add_one_to_output(state):
    return {"output": [state["input"] + 1]}


def test_invoke_two_processes_two_in_two_out_valid(engine):
    """test_pregel.py::test_invoke_two_processes_two_in_two_out_valid, as a StateGraph: two nodes
    read the input in the same superstep and both land in an accumulating field: [3, 3]."""
    builder = engine.StateGraph(Inbox)
    builder.add_node("one", add_one_to_output)
    builder.add_node("two", add_one_to_output)
    builder.add_edge(engine.START, "one")
    builder.add_edge(engine.START, "two")
    assert engine.compile(builder).invoke({"input": 2})["output"] == [3, 3]


def test_invoke_two_processes_two_in_join_two_out(engine):
    """test_pregel.py::test_invoke_two_processes_two_in_join_two_out, as a StateGraph: chain_four
    waits for both publishers and adds 10 to each item: [13, 13], every time."""
    class State(TypedDict, total=False):
        input: int
        inbox: Annotated[list[int], operator.add]
        output: list[int]

    def add_one(state):
        return {"inbox": [state["input"] + 1]}

    def add_10_each(state):
        return {"output": sorted(y + 10 for y in state["inbox"])}

    builder = engine.StateGraph(State)
    builder.add_node("one", add_one)
    builder.add_node("chain_three", add_one)
    builder.add_node("chain_four", add_10_each)
    builder.add_edge(engine.START, "one")
    builder.add_edge(engine.START, "chain_three")
    builder.add_edge(["one", "chain_three"], "chain_four")
    app = engine.compile(builder)
    for _ in range(100):
        assert app.invoke({"input": 2})["output"] == [13, 13]


def test_invoke_two_processes_one_in_two_out(engine):
    """test_pregel.py::test_invoke_two_processes_one_in_two_out (updates stream), as a StateGraph:
    one writes two fields, two reads one of them."""
    class State(TypedDict, total=False):
        input: int
        between: int
        output: int

    def one(state):
        return {"between": state["input"] + 1, "output": state["input"] + 1}

    def two(state):
        return {"output": state["between"] + 1}

    builder = engine.StateGraph(State)
    builder.add_sequence([one, two])
    builder.add_edge(engine.START, "one")
    assert [c for c in engine.compile(builder).stream({"input": 2}, stream_mode="updates")] == [
        {"one": {"between": 3, "output": 3}}, {"two": {"output": 4}}]


def test_parallel_node_execution(engine):
    """test_pregel.py::test_parallel_node_execution: two sleeping nodes in one superstep.

    Both engines put "fast" first (the step's writes merge by node name). Documented difference:
    LangGraph runs a superstep's nodes in threads, so the run takes about as long as the slowest
    node; ours runs them one after another, so it takes the sum.
    """
    class State(TypedDict):
        results: Annotated[list[str], operator.add]

    def slow_node(state):
        time.sleep(1)
        return {"results": ["slow"]}

    def fast_node(state):
        time.sleep(2)
        return {"results": ["fast"]}

    builder = engine.StateGraph(State)
    builder.add_node("slow", slow_node)
    builder.add_node("fast", fast_node)
    builder.add_edge(engine.START, "slow")
    builder.add_edge(engine.START, "fast")
    graph = engine.compile(builder)
    start = time.perf_counter()
    result = graph.invoke({"results": []})
    duration = time.perf_counter() - start
    assert "fast" in result["results"][0]
    if engine.ours:
        assert duration >= 3.0
    else:
        assert duration < 3.0
