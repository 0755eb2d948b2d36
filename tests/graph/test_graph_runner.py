"""Running: partial updates, reducers, staged merges, copies, streams, bounds, errors, listeners."""

from __future__ import annotations

import logging
import operator
from typing import Annotated, TypedDict

import pytest

from mingraph_lite.errors import GraphExecutionError, GraphStepLimit, graph_context
from mingraph_lite.graph import END, START, StateGraph, StepSnapshot
from mingraph_lite.observers.base import Observer


class S(TypedDict):
    count: int
    log: Annotated[list[str], operator.add]
    notes: dict
    nested: list


def start(**over):
    return {"count": 0, "log": [], "notes": {}, "nested": [], **over}


def chain(*nodes, max_steps=25, **compile_args):
    b = StateGraph(S)
    previous = START
    for i, fn in enumerate(nodes):
        b.add_node(f"n{i}", fn)
        b.add_edge(previous, f"n{i}")
        previous = f"n{i}"
    b.add_edge(previous, END)
    return b.compile(max_steps=max_steps, **compile_args)


def counter_loop(limit, max_steps=100):
    b = StateGraph(S).add_node("tick", lambda s: {"count": s["count"] + 1, "log": [f"tick {s['count'] + 1}"]})
    b.add_edge(START, "tick")
    b.add_conditional_edges("tick", lambda s: "again" if s["count"] < limit else "done",
                            {"again": "tick", "done": END})
    return b.compile(max_steps=max_steps)


def test_replace_and_reduce():
    graph = chain(lambda s: {"count": 5, "log": ["a"]}, lambda s: {"log": ["b"]})
    final = graph.invoke(start(log=["start"]))
    assert final["count"] == 5  # replaced, then left alone (omitted means unchanged)
    assert final["log"] == ["start", "a", "b"]  # appended
    assert graph.path == ("n0", "n1")


def test_conditional_loop_follows_the_router():
    graph = counter_loop(3)
    final = graph.invoke(start())
    assert final["count"] == 3 and final["log"] == ["tick 1", "tick 2", "tick 3"]
    assert graph.path == ("tick",) * 3


def test_a_node_mutating_its_copy_changes_nothing():
    seen = {}

    def vandal(state):
        state["log"].append("sneaky")
        state["notes"]["k"] = "sneaky"
        state["nested"][0]["deep"] = "sneaky"
        state["count"] = 99
        return {}

    def witness(state):
        seen.update(state)
        return {}

    original = start(log=["a"], notes={"k": "v"}, nested=[{"deep": "ok"}])
    final = chain(vandal, witness).invoke(original)
    expected = start(log=["a"], notes={"k": "v"}, nested=[{"deep": "ok"}])
    assert seen == expected and final == expected
    assert original == expected  # the caller's input is untouched too


def test_the_update_is_adopted_as_a_copy():
    kept = {"items": [{"v": 1}]}

    def leaky(state):
        return {"nested": kept["items"], "log": ["x"]}

    def later(state):
        kept["items"][0]["v"] = "changed after returning"
        return {}

    final = chain(leaky, later).invoke(start())
    assert final["nested"] == [{"v": 1}]


def test_the_caller_owns_the_final_state_and_snapshots():
    graph = chain(lambda s: {"log": ["a"]}, lambda s: {"log": ["b"]})
    final = graph.invoke(start())
    final["log"].append("mine")
    first, second = graph.history
    assert first == StepSnapshot("n0", {"log": ["a"]}, start(log=["a"]), step=1)
    assert second.state["log"] == ["a", "b"]
    second.state["log"].clear()  # a snapshot is the reader's copy: editing it touches nothing else
    assert graph.history[0].state["log"] == ["a"] and final["log"] == ["a", "b", "mine"]


def test_history_records_each_step_with_the_state_at_that_moment():
    graph = counter_loop(3)
    graph.invoke(start())
    assert [s.state["log"] for s in graph.history] == [["tick 1"], ["tick 1", "tick 2"],
                                                       ["tick 1", "tick 2", "tick 3"]]
    assert [s.update for s in graph.history] == [{"count": i, "log": [f"tick {i}"]} for i in (1, 2, 3)]


def bad_reducer(left, right):
    raise RuntimeError("reducer broke")


class R(TypedDict):
    log: Annotated[list, operator.add]
    other: Annotated[list, bad_reducer]
    count: int


def test_a_failing_reducer_leaves_the_state_as_it_was():
    b = StateGraph(R).add_node("a", lambda s: {"log": ["a"]})
    b.add_node("b", lambda s: {"log": ["b"], "count": 7, "other": [1]})
    graph = b.add_edge(START, "a").add_edge("a", "b").add_edge("b", END).compile()
    with pytest.raises(RuntimeError, match="reducer broke") as info:  # the reducer's own error, as itself
        graph.invoke({"log": [], "count": 0})  # "other" starts at [], its type's empty value
    where = graph_context(info.value)
    assert where.node == "b" and where.completed == ("a",)
    assert where.state == {"log": ["a"], "other": [], "count": 0}  # b's log and count were not half-applied


def test_node_failure_carries_node_completed_state_and_cause():
    def boom(state):
        raise KeyError("city")

    with pytest.raises(KeyError, match="city") as info:  # `except KeyError` still matches, as on LangGraph
        chain(lambda s: {"log": ["ok"]}, boom).invoke(start())
    where = graph_context(info.value)
    assert (where.node, where.completed, where.state["log"]) == ("n1", ("n0",), ["ok"])
    assert info.value.node == "n1"  # the same context, read straight off the exception


def test_graph_context_is_none_for_an_error_from_elsewhere():
    assert graph_context(ValueError("not from a graph")) is None


@pytest.mark.parametrize("returned, words", [("text", "str"), ([("count", 1)], "list"),
                                             ({"ghost": 1}, "unknown field")])
def test_a_bad_update_is_an_error_naming_the_node(returned, words):
    with pytest.raises(GraphExecutionError, match=words) as info:
        chain(lambda s: returned).invoke(start())
    assert info.value.node == "n0" and "'n0'" in str(info.value) and info.value.completed == ()


def test_an_undeclared_route_names_node_label_and_allowed_labels():
    b = StateGraph(S).add_node("a", lambda s: {"count": 1}).add_edge(START, "a")
    graph = b.add_conditional_edges("a", lambda s: "sideways", {"up": END, "down": END}).compile()
    with pytest.raises(GraphExecutionError) as info:
        graph.invoke(start())
    text = str(info.value)
    assert "'a'" in text and "'sideways'" in text and "'up'" in text and "'down'" in text
    assert info.value.completed == ("a",) and info.value.state["count"] == 1


def test_a_router_failure_is_wrapped_with_what_completed():
    def router(state):
        raise ValueError("cannot decide")

    b = StateGraph(S).add_node("a", lambda s: {"count": 1}).add_edge(START, "a")
    graph = b.add_conditional_edges("a", router, {"x": END}).compile()
    with pytest.raises(ValueError, match="cannot decide") as info:
        graph.invoke(start())
    assert graph_context(info.value).node == "a" and graph_context(info.value).completed == ("a",)


def test_a_node_returning_none_changes_nothing():
    graph = chain(lambda s: None, lambda s: {"count": 2})
    assert graph.invoke(start()) == start(count=2)
    assert list(graph.stream(start()))[0] == {"n0": None}


def test_the_step_bound_counts_supersteps():
    assert counter_loop(3, max_steps=3).invoke(start())["count"] == 3  # exactly at the bound is fine
    graph = counter_loop(10, max_steps=4)
    with pytest.raises(GraphStepLimit) as info:
        graph.invoke(start())
    err = info.value
    assert isinstance(err, GraphExecutionError) and "max_steps=4" in str(err)
    assert err.completed == ("tick",) * 4 and err.state["count"] == 4 and err.node == "tick"
    assert len(graph.history) == 4  # the work before the stop is still on record


def test_stream_gives_updates_and_values_from_one_run():
    calls = []

    def a(state):
        calls.append("a")
        return {"log": ["a"], "count": 1}

    graph = chain(a, lambda s: {"log": ["b"]})
    items = list(graph.stream(start(), stream_mode=["values", "updates"]))
    assert calls == ["a"]  # one execution
    assert items == [
        ("values", start()),
        ("updates", {"n0": {"log": ["a"], "count": 1}}),
        ("values", start(log=["a"], count=1)),
        ("updates", {"n1": {"log": ["b"]}}),
        ("values", start(log=["a", "b"], count=1)),
    ]
    updates = [{"n0": {"log": ["a"], "count": 1}}, {"n1": {"log": ["b"]}}]
    assert list(graph.stream(start(), stream_mode="updates")) == updates
    assert list(graph.stream(start())) == updates  # LangGraph's default mode
    assert list(graph.stream(start(), stream_mode="values"))[-1] == graph.invoke(start())
    with pytest.raises(ValueError, match="stream_mode"):
        list(graph.stream(start(), stream_mode="debug"))


def test_input_is_checked():
    graph = chain(lambda s: {})
    with pytest.raises(ValueError, match="unknown state field"):
        graph.invoke({"bogus": 1})
    with pytest.raises(TypeError):
        graph.invoke([1, 2])


class Recorder(Observer):
    def __init__(self):
        self.heard = []

    def on_node_start(self, node, state, superstep):
        state["log"].append("listener tampering")  # must not reach the node
        self.heard.append(("start", node, list(state["log"][:-1]), superstep))

    def on_node_end(self, node, update, superstep):
        self.heard.append(("end", node, dict(update), superstep))


class Broken(Observer):
    def on_node_start(self, node, state, superstep):
        raise RuntimeError("listener bug")


def test_node_hooks_are_announced_and_cannot_change_the_run(caplog):
    rec = Recorder()
    graph = chain(lambda s: {"log": [f"saw {len(s['log'])}"]}, observers=[Broken(), rec])
    with caplog.at_level(logging.WARNING):
        final = graph.invoke(start())
    assert final["log"] == ["saw 0"]
    assert rec.heard == [("start", "n0", [], 1), ("end", "n0", {"log": ["saw 0"]}, 1)]
    assert "listener bug" in caplog.text or "failed in on_node_start" in caplog.text


def test_strict_listeners_stop_the_run():
    graph = chain(lambda s: {}, observers=[Broken()], strict=True)
    with pytest.raises(RuntimeError, match="listener bug"):
        graph.invoke(start())


def test_observers_can_be_given_per_run():
    rec = Recorder()
    graph = chain(lambda s: {})
    graph.invoke(start(), observers=[rec])
    assert [h[:2] for h in rec.heard] == [("start", "n0"), ("end", "n0")]


def test_a_long_append_loop_keeps_every_item_in_order():
    graph = counter_loop(500, max_steps=500)
    final = graph.invoke(start())
    assert final["log"] == [f"tick {i}" for i in range(1, 501)]
    assert graph.history[249].state["log"] == [f"tick {i}" for i in range(1, 251)]


def test_drawings_show_every_route_and_the_visited_nodes():
    b = StateGraph(S).add_node("a", lambda s: {}).add_node("b", lambda s: {}).add_edge(START, "a")
    b.add_conditional_edges("a", lambda s: "stop", {"go": "b", "stop": END})
    graph = b.add_edge("b", END).compile()
    graph.invoke(start())
    text = graph.draw_ascii(highlight=True)
    assert "[a] *" in text and "[b]\n" in text and "--go--> b" in text and "--stop--> END" in text
    mermaid = graph.draw_mermaid(highlight=True)
    assert mermaid.startswith("flowchart TD") and "-. go .->" in mermaid
    assert "class n0 visited" in mermaid
    assert "visited" not in graph.draw_mermaid()


def test_a_router_reads_copies_and_cannot_assign():
    def meddling_router(state):
        state["nested"].append("sneaky")  # its own copy
        assert "nested" in state and len(state) == 4
        return "done"

    b = StateGraph(S).add_node("a", lambda s: {}).add_edge(START, "a")
    final = b.add_conditional_edges("a", meddling_router, {"done": END}).compile().invoke(start())
    assert final["nested"] == []

    def assigning_router(state):
        state["count"] = 5
        return "done"

    b = StateGraph(S).add_node("a", lambda s: {}).add_edge(START, "a")
    graph = b.add_conditional_edges("a", assigning_router, {"done": END}).compile()
    with pytest.raises(TypeError, match="does not support item assignment"):
        graph.invoke(start())
