"""Supersteps: fan-out, joins, Send, the bound, listeners, drawings; on LangGraph too where it applies.

Tests taking ``engine`` run on both engines (the fixture comes from ``upstream/conftest.py``'s
engines module), so each claim about LangGraph's behaviour is checked against LangGraph itself.
"""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

import pytest
from upstream.engines import langgraph_engine, our_engine

from mingraph_lite.errors import GraphExecutionError, graph_context
from mingraph_lite.graph import END, START, Send, StateGraph
from mingraph_lite.messages import AssistantMessage, ToolCall, UserMessage
from mingraph_lite.observers.base import Observer


@pytest.fixture(params=["langgraph", "ours"])
def engine(request):
    return langgraph_engine() if request.param == "langgraph" else our_engine()


class S(TypedDict, total=False):
    log: Annotated[list[str], operator.add]
    seen: Annotated[list[str], operator.add]
    owner: str


def writes(name):
    def node(state):
        return {"log": [name], "seen": [f"{name} saw {len(state['log'])}"]}
    node.__name__ = name
    return node


def diamond(engine, recursion_limit=25):
    """a fans out to b and c; d joins them."""
    b = engine.StateGraph(S)
    for name in "abcd":
        b.add_node(name, writes(name))
    b.add_edge(engine.START, "a").add_edge("a", "b").add_edge("a", "c")
    b.add_edge(["b", "c"], "d").add_edge("d", engine.END)
    return engine.compile(b, recursion_limit)


def test_a_fan_out_runs_side_by_side_on_the_same_state(engine):
    final = diamond(engine).invoke({"log": []})
    assert final["log"] == ["a", "b", "c", "d"]  # the step's writes merge by node name
    assert final["seen"] == ["a saw 0", "b saw 1", "c saw 1", "d saw 3"]  # b and c both saw only a


def test_max_steps_is_recursion_limit_minus_one(engine):
    """The diamond takes three supersteps (a | b, c | d): recursion_limit 4 is enough, 3 is not."""
    assert diamond(engine, recursion_limit=4).invoke({"log": []})["log"] == ["a", "b", "c", "d"]
    with pytest.raises(engine.RecursionError):
        diamond(engine, recursion_limit=3).invoke({"log": []})


def test_a_join_waits_across_supersteps_and_plain_edges_do_not(engine):
    b = engine.StateGraph(S)
    for name in ("a", "long1", "long2", "short", "joined", "eager"):
        b.add_node(name, writes(name))
    b.add_edge(engine.START, "a").add_edge("a", "long1").add_edge("long1", "long2").add_edge("a", "short")
    b.add_edge(["long2", "short"], "joined")  # waits for both, whatever step each finishes in
    b.add_edge("long2", "eager").add_edge("short", "eager")  # plain edges: runs after each one
    final = engine.compile(b).invoke({"log": []})
    assert final["log"] == ["a", "long1", "short", "eager", "long2", "eager", "joined"]


def test_a_router_reads_its_own_nodes_update_not_its_neighbours(engine):
    reads = []

    def route(state):
        reads.append((sorted(state["log"]), list(state["seen"])))
        return engine.END

    b = engine.StateGraph(S)
    b.add_node("x", lambda s: {"log": ["x"]}).add_node("y", writes("y"))
    b.add_edge(engine.START, "x").add_edge(engine.START, "y")
    b.add_conditional_edges("x", route, [engine.END])
    final = engine.compile(b).invoke({"log": [], "seen": ["before"]})
    assert final["log"] == ["x", "y"] and final["seen"] == ["before", "y saw 0"]
    assert reads == [(["x"], ["before"])]  # not y's log entry, not y's "seen" either


def test_an_annotated_reducer_is_the_last_metadata_item(engine):
    class State(TypedDict):
        summed: Annotated[list, "doc", operator.add]
        replaced: Annotated[list, operator.add, "doc"]  # last item not callable: no reducer at all

    b = engine.StateGraph(State).add_node("n", lambda s: {"summed": [2], "replaced": [2]})
    final = engine.compile(b.add_edge(engine.START, "n")).invoke({"summed": [1], "replaced": [1]})
    assert final == {"summed": [1, 2], "replaced": [2]}


CALLS: list = []


def keep_calls(left, right):
    CALLS.append((left, right))
    return left + right


class Counted(TypedDict, total=False):
    items: Annotated[list, keep_calls]
    total: Annotated[int, operator.add]
    note: str


def test_the_input_goes_through_the_reducer_from_the_empty_value(engine):
    CALLS.clear()
    State = Counted
    seen = []
    b = engine.StateGraph(State).add_node("n", lambda s: seen.append(dict(s)))
    final = engine.compile(b.add_edge(engine.START, "n")).invoke({"items": [1]})
    assert CALLS == [([], [1])]  # merged into list() = [], not stored as given
    assert seen == [{"items": [1], "total": 0}] == [final]  # int() = 0; "note" absent, as given


def test_sends_over_a_typeddict_field(engine):
    """Upstream's test_concurrent_emit_sends graph, with the list as a field of a TypedDict."""
    class State(TypedDict):
        items: Annotated[list, operator.add]

    def node(name):
        def run(state):
            return {"items": [name if isinstance(state, dict) and "items" in state else f"{name}|{state}"]}
        return run

    b = engine.StateGraph(State)
    for name in ("1", "1.1", "2", "3", "3.1"):
        b.add_node(name, node(name))
    b.add_edge(engine.START, "1").add_edge(engine.START, "1.1")
    b.add_conditional_edges("1", lambda s: [engine.Send("2", 1), engine.Send("2", 2), "3.1"], ["2", "3.1"])
    b.add_conditional_edges("1.1", lambda s: [engine.Send("2", 3), engine.Send("2", 4)], ["2"])
    b.add_conditional_edges("2", lambda s: "3", ["3"])
    final = engine.compile(b).invoke({"items": ["0"]})
    assert final["items"] == ["0", "1", "1.1", "3.1", "2|1", "2|2", "2|3", "2|4", "3"]


class Maybe(TypedDict, total=False):
    x: int
    log: Annotated[list, operator.add]


@pytest.mark.parametrize("nodes, given, expected", [
    ([lambda s: None, lambda s: {"x": 2}], {}, [{"x": 2, "log": []}]),
    ([lambda s: None, lambda s: {"x": 2}], {"x": 1}, [{"x": 1, "log": []}, {"x": 2, "log": []}]),
    ([lambda s: {"x": 1}, lambda s: {"x": 1}], {"x": 1}, [{"x": 1, "log": []}] * 3),
    ([lambda s: {"log": []}], {}, [{"log": []}]),
    ([lambda s: {}], {}, []),
])
def test_values_come_only_after_a_step_that_wrote_something(engine, nodes, given, expected):
    b = engine.StateGraph(Maybe)
    previous = engine.START
    for i, fn in enumerate(nodes):
        b.add_node(f"n{i}", fn).add_edge(previous, f"n{i}")
        previous = f"n{i}"
    graph = engine.compile(b)
    assert list(graph.stream(given, stream_mode="values")) == expected
    assert list(graph.stream(given))[0] == {"n0": None if nodes[0]({}) in (None, {}) else nodes[0]({})}


# -- ours only: errors, listeners, drawings, hostile data -----------------------------------------

def test_two_writes_to_a_plain_field_name_both_nodes():
    b = StateGraph(S).add_node("left", lambda s: {"owner": "L"}).add_node("right", lambda s: {"owner": "R"})
    graph = b.add_edge(START, "left").add_edge(START, "right").compile()
    with pytest.raises(GraphExecutionError, match="'left' and 'right' both wrote") as info:
        graph.invoke({"log": []})
    assert info.value.completed == () and info.value.state == {"log": [], "seen": []}


def test_a_failure_in_a_parallel_step_keeps_the_last_good_state():
    def boom(state):
        raise LookupError("no such city")

    b = StateGraph(S).add_node("a", writes("a")).add_node("b", writes("b")).add_node("c", boom)
    graph = b.add_edge(START, "a").add_edge("a", "b").add_edge("a", "c").compile()
    with pytest.raises(LookupError) as info:
        graph.invoke({"log": []})
    where = graph_context(info.value)
    assert where.node == "c" and where.completed == ("a",) and where.state["log"] == ["a"]
    assert graph.path == ("a",)  # b's update never merged: the step failed as a whole


def test_routes_a_router_did_not_declare_are_errors():
    b = StateGraph(S).add_node("a", writes("a")).add_edge(START, "a")
    graph = b.add_conditional_edges("a", lambda s: "ghost").compile()  # open: any node or END
    with pytest.raises(GraphExecutionError, match="'ghost', which is not a node"):
        graph.invoke({"log": []})
    b = StateGraph(S).add_node("a", writes("a")).add_node("b", writes("b")).add_edge(START, "a")
    graph = b.add_conditional_edges("a", lambda s: [Send("a", {})], ["b"]).compile()
    with pytest.raises(GraphExecutionError, match="packet to 'a'"):
        graph.invoke({"log": []})


class Heard(Observer):
    def __init__(self):
        self.heard = []

    def on_node_start(self, node, state, superstep):
        self.heard.append(("start", node, superstep))

    def on_node_end(self, node, update, superstep):
        self.heard.append(("end", node, superstep))


def test_listeners_hear_each_node_with_its_superstep():
    listener = Heard()
    graph = diamond(our_engine()).graph
    graph.invoke({"log": []}, observers=[listener])
    assert listener.heard == [("start", "a", 1), ("end", "a", 1), ("start", "b", 2), ("end", "b", 2),
                              ("start", "c", 2), ("end", "c", 2), ("start", "d", 3), ("end", "d", 3)]
    assert graph.steps == (("a",), ("b", "c"), ("d",))
    assert [(s.node, s.step, s.state["log"]) for s in graph.history] == [
        ("a", 1, ["a"]), ("b", 2, ["a", "b", "c"]), ("c", 2, ["a", "b", "c"]), ("d", 3, ["a", "b", "c", "d"])]


def test_drawings_show_the_fan_out_and_the_join():
    graph = diamond(our_engine()).graph
    text = graph.draw_ascii()
    assert "[a] (fan-out: these run side by side)" in text and "==join b + c==> d" in text
    mermaid = graph.draw_mermaid()
    assert "n1 == join b + c ==> n3" in mermaid and "n0 --> n1" in mermaid and "n0 --> n2" in mermaid


def nested(depth):
    value: dict = {}
    for _ in range(depth):
        value = {"inner": value}
    return value


class Chat(TypedDict):
    messages: Annotated[list, operator.add]


def test_a_message_with_arguments_nested_10000_deep_is_handed_out_without_recursion():
    hostile = AssistantMessage("", (ToolCall("c1", "get_weather", nested(10_000)),))

    def reader(state):
        assert state["messages"][-1] is hostile  # frozen, so shared rather than copied
        return {"messages": [UserMessage("ok")]}

    graph = StateGraph(Chat).add_node("reader", reader).add_edge(START, "reader").compile()
    final = graph.invoke({"messages": [hostile]})
    assert final["messages"][-1] == UserMessage("ok")
    assert len(graph.history) == 1 and list(graph.stream({"messages": [hostile]}, "values"))


def test_a_plain_value_nested_too_deep_is_a_clear_error_not_a_recursion_error():
    graph = StateGraph(Chat).add_node("n", lambda s: None).add_edge(START, "n").add_edge("n", END).compile()
    with pytest.raises(ValueError, match="nested too deeply to copy"):
        graph.invoke({"messages": [nested(10_000)]})


def test_a_send_packet_is_the_nodes_own_copy():
    shared = {"city": "Paris", "notes": []}

    def scribble(packet):
        packet["notes"].append("scribbled")
        return {"log": [packet["city"]]}

    b = StateGraph(S).add_node("fetch", scribble)
    b.add_conditional_edges(START, lambda s: [Send("fetch", shared), Send("fetch", shared)], ["fetch"])
    graph = b.compile()
    assert graph.invoke({"log": []})["log"] == ["Paris", "Paris"]
    assert shared == {"city": "Paris", "notes": []} and graph.steps == (("fetch", "fetch"),)


def broken_reducer(left, right):
    raise ArithmeticError("reducer broke")


class Fragile(TypedDict, total=False):
    log: Annotated[list[str], operator.add]
    bad: Annotated[list, broken_reducer]


@pytest.mark.parametrize("where", ["node", "router", "reducer"])
def test_a_nodes_routers_or_reducers_own_error_propagates_as_itself(engine, where):
    def node(state):
        if where == "node":
            raise KeyError("city")
        return {"log": ["ok"], **({"bad": [1]} if where == "reducer" else {})}

    def router(state):
        if where == "router":
            raise LookupError("cannot decide")
        return engine.END

    b = engine.StateGraph(Fragile).add_node("n", node).add_edge(engine.START, "n")
    b.add_conditional_edges("n", router, [engine.END])
    error = {"node": KeyError, "router": LookupError, "reducer": ArithmeticError}[where]
    with pytest.raises(error) as info:
        engine.compile(b).invoke({"log": []})
    assert type(info.value) is error  # not wrapped, on either engine
    if engine.ours:
        assert graph_context(info.value).node == "n"
