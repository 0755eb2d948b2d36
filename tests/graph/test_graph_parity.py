"""Issue 19's differences, one test each: LangGraph's behaviour, asserted on this engine and on LangGraph."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

import pytest

from mingraph_lite.errors import GraphExecutionError, GraphStepLimit, GraphValidationError
from mingraph_lite.graph import END, START, StateGraph
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TraceRecorder, read_trace, run_ids

ENGINES = ["ours", "langgraph"]


def state_graph(engine: str):
    if engine == "langgraph":
        return pytest.importorskip("langgraph.graph").StateGraph
    return StateGraph


class Log(TypedDict):
    first: str
    log: Annotated[list, operator.add]
    p: str
    q: str


def fan(engine: str, **nodes):
    """START fans out to every node; each returns its fixed update (or raises it, if an exception)."""
    builder = state_graph(engine)(Log)
    for name, update in nodes.items():
        def node(state, update=update):
            if isinstance(update, Exception):
                raise update
            return update
        builder.add_node(name, node)
        builder.add_edge(START, name)
    return builder.compile()


def streamed(graph):
    seen = []
    with pytest.raises(Exception) as info:
        for update in graph.stream({"first": "in"}):
            seen += list(update)
    return sorted(seen), info.value


@pytest.mark.parametrize("engine", ENGINES)
def test_a_failed_superstep_streams_the_updates_of_the_nodes_that_finished(engine):
    seen, error = streamed(fan(engine, a={"log": [1]}, b=KeyError("b broke"), c={"log": [3]}))
    assert seen == ["a", "c"] and isinstance(error, KeyError)  # the nodes after the failing one run too
    seen, error = streamed(fan(engine, a={"p": "a"}, b={"log": [2]}, c={"p": "c"}))
    assert seen == ["a", "b", "c"] and "At key 'p'" in str(error)


@pytest.mark.parametrize("engine", ENGINES)
def test_several_conflicting_plain_fields_are_named_by_the_first_one_written(engine):
    with pytest.raises(Exception, match="At key 'q'") as info:
        fan(engine, a={"q": "a", "p": "a"}, b={"p": "b", "q": "b"}).invoke({})
    assert engine == "langgraph" or isinstance(info.value, GraphExecutionError)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_final_state_keeps_the_typeddicts_field_order(engine):
    final = fan(engine, a={"q": "a", "log": [1]}).invoke({"p": "in", "first": "in"})
    assert list(final) == ["first", "log", "p", "q"]  # not the reducer field first


@pytest.mark.parametrize("engine", ENGINES)
def test_a_run_that_writes_nothing_returns_none(engine):
    assert fan(engine, a=None).invoke({}) is None
    assert fan(engine, a={"p": "a"}).invoke({}) == {"log": [], "p": "a"}  # reducer fields once anything is


@pytest.mark.parametrize("engine", ENGINES)
def test_refused_declarations(engine):
    def route(state):
        return END
    with pytest.raises(ValueError, match="signature") as info:
        state_graph(engine)(TypedDict("M", {"x": Annotated[int, max]}))
    assert engine == "langgraph" or isinstance(info.value, GraphValidationError)
    for name in ("a:b", "a|b"):
        with pytest.raises(ValueError, match="reserved"):
            state_graph(engine)(Log).add_node(name, lambda s: None)
    builder = state_graph(engine)(Log)
    builder.add_node("a", lambda s: None)
    builder.add_conditional_edges("a", route, [END])
    with pytest.raises(ValueError, match="route"):
        builder.add_conditional_edges("a", route, [END])
    builder.add_conditional_edges("a", lambda s: END)
    with pytest.raises(ValueError, match="already exists|two routers"):  # unnamed: both are "None"
        builder.add_conditional_edges("a", lambda s: END)


@pytest.mark.parametrize("engine", ENGINES)
def test_accepted_declarations(engine):
    builder = state_graph(engine)(TypedDict("Empty", {}))  # a TypedDict with no fields
    builder.add_node("a", lambda s: None)
    builder.add_edge(START, "a")
    assert builder.compile().invoke({}) is None
    builder = state_graph(engine)(Log)  # an empty path map is no path map: the router names nodes
    builder.add_node("a", lambda s: {"log": ["a"]})
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", lambda s: END, {})
    assert builder.compile().invoke({})["log"] == ["a"]


def test_no_node_runs_past_max_steps():
    ran = []
    builder = StateGraph(Log)
    for name, nxt in (("a", "b"), ("b", "c"), ("c", END)):
        builder.add_node(name, lambda s, name=name: ran.append(name)).add_edge(name, nxt)
    heard = EventRecorder()
    graph = builder.add_edge(START, "a").compile(max_steps=2, observers=[heard])
    updates = []
    with pytest.raises(GraphStepLimit):
        updates += graph.stream({"first": "in"})
    assert ran == ["a", "b"] and updates == [{"a": None}, {"b": None}]  # LangGraph also runs and streams c
    assert heard.events[-1]["event"] == "finish" and heard.events[-1]["reason"] == "superstep limit"


def test_each_invoke_is_a_run_of_its_own_in_a_trace(tmp_path):
    trace = TraceRecorder(tmp_path / "t.jsonl")
    graph = StateGraph(Log).add_node("a", lambda s: {"log": [1]}).add_edge(START, "a").compile(observers=[trace])
    graph.invoke({})
    with pytest.raises(KeyError):
        StateGraph(Log).add_node("a", lambda s: {}["x"]).add_edge(START, "a").compile(observers=[trace]).invoke({})
    graph.invoke({})
    runs = run_ids(tmp_path / "t.jsonl")
    assert len(runs) == 3
    events = read_trace(tmp_path / "t.jsonl")
    assert [(e["event"], e.get("reason")) for e in events if e["event"] in ("run_start", "finish")] == [
        ("run_start", None), ("finish", "finished"), ("run_start", None), ("finish", "stopped"),
        ("run_start", None), ("finish", "finished")]
    assert [len(read_trace(tmp_path / "t.jsonl", run=run)) for run in runs] == [4, 3, 4]  # no node_end for the failure


def test_updates_never_share_mutable_values_with_the_state():
    kept = {}

    def a(state):
        kept["update"] = {"log": [["a"]], "p": "a"}
        return kept["update"]

    def b(state):
        kept["update"]["log"][0].append("edited after returning")  # the node kept its update
        return {"q": "b"}

    graph = StateGraph(Log).add_sequence([a, b]).add_edge(START, "a").compile()
    streamed = list(graph.stream({}))
    assert graph.history[-1].state["log"] == [["a"]]
    streamed[0]["a"]["log"][0].append("edited by the reader")  # a streamed update is the reader's own
    graph.history[0].update["log"][0].append("edited by the reader")
    assert graph.history[0].update == {"log": [["a"]], "p": "a"} and graph.history[-1].state["log"] == [["a"]]
