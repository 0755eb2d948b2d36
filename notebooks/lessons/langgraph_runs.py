"""Notebooks 07 and 07's runs on LangGraph beside the package's engine, printed: the bound each counts, who ran when.

Each function only prints what a run did; the notebooks call it in one line where LangGraph is installed, so the
learner reads the outcome, and the LangGraph calls that produce it are here for anyone who wants them.
"""

from __future__ import annotations

from typing import Any

from mingraph_lite import Observer
from mingraph_lite.course.brief import BriefNodes, BriefState
from mingraph_lite.graph import START, StateGraph


def show_recursion_limits(builder: Any, state: dict, limits: tuple[int, ...] = (6, 7)) -> list[int]:
    """Run a LangGraph builder under each recursion_limit, then once with a checkpointer; print and return its steps."""
    from langgraph.checkpoint.memory import InMemorySaver  # keeps one snapshot per superstep, with its number
    from langgraph.errors import GraphRecursionError

    for limit in limits:
        try:
            builder.compile().invoke(state, config={"recursion_limit": limit})
            print(f"recursion_limit={limit}: finished")
        except GraphRecursionError:
            print(f"recursion_limit={limit}: GraphRecursionError")
    graph, thread = builder.compile(checkpointer=InMemorySaver()), {"configurable": {"thread_id": "06"}}
    graph.invoke(state, config=thread)
    steps = sorted(snap.metadata["step"] for snap in graph.get_state_history(thread))
    print("LangGraph's snapshot steps:", steps)
    return steps


class _WhoRanWhen(Observer):
    def __init__(self) -> None:
        self.ran: list[tuple[int | None, str]] = []

    def on_node_end(self, node: str, update: Any, superstep: int | None = None) -> None:
        self.ran.append((superstep, node))


def _on_langgraph(declare: Any, nodes: BriefNodes, state: dict) -> tuple[dict, list[tuple[int, str]]]:
    """LangGraph's final worksheet and (superstep, node) pairs, read from its debug stream."""
    from langgraph.graph import StateGraph as LangGraphStateGraph

    graph = declare(LangGraphStateGraph(BriefState), nodes, state["cities"]).compile()
    ran, final = [], {}
    for mode, item in graph.stream(state, stream_mode=["debug", "values"], config={"recursion_limit": 11}):
        if mode == "values":
            final = item
        elif item["type"] == "task":
            ran.append((item["step"], item["payload"]["name"]))
    return final, sorted(ran)


def compare_engines(declare: Any, state: dict, styles: tuple[str, ...] = ("complete", "missing-notice", "stubborn"),
                    ) -> list[tuple[str, bool, bool]]:
    """One declaration on both engines, per writer: print (and return) same supersteps? same worksheet?"""
    rows = []
    print(f"{'writer':<16}{'same supersteps':>16}{'same worksheet':>16}   supersteps")
    for style in styles:
        who = _WhoRanWhen()
        ours = declare(StateGraph(BriefState), BriefNodes(style), state["cities"]).compile(max_steps=10)
        ours_end = ours.invoke(state, observers=[who])
        theirs_end, theirs_ran = _on_langgraph(declare, BriefNodes(style), state)
        rows.append((style, sorted(who.ran) == theirs_ran, ours_end == theirs_end))
        print(f"{style:<16}{str(rows[-1][1]):>16}{str(rows[-1][2]):>16}   {max(step for step, _ in theirs_ran)}")
    return rows


def plain_field_refusals(state_type: type, branch: Any, cities: list[str]) -> dict[str, str]:
    """One branch per city from START, on each installed engine: print (and return) the first line of its refusal."""
    try:
        from langgraph.graph import StateGraph as LangGraphStateGraph
    except ImportError:  # LangGraph is optional: our engine alone
        LangGraphStateGraph = None
    refusals = {}
    for engine in (StateGraph, LangGraphStateGraph):
        if engine is None:
            continue
        sketch = engine(state_type)
        for city in cities:
            sketch.add_node(f"collect_{city}", branch(city))
            sketch.add_edge(START, f"collect_{city}")
        try:
            sketch.compile().invoke({field: [] for field in state_type.__annotations__})
        except Exception as error:  # each engine has its own error type for this
            name = engine.__module__.split(".")[0]
            refusals[name] = f"{type(error).__name__}: {str(error).splitlines()[0]}"
            print(f"{name}: {refusals[name]}")
    return refusals
