"""Checkers for notebook 08's questions: each answer is compared with a run of the code it asks about.

They live apart from ``nb08.py``'s exercises to keep each module short; they reuse its helpers.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict
from mingraph_lite.course.brief import BriefState, initial_state
from mingraph_lite.course.weather import WEATHER
from . import Hint, NotDone, exercise
from . import number_answer as _number
from .nb07 import START, END


@exercise("08.Q2", kind="reasoning", title="supersteps of the parallel stubborn run")
def check_q2(answer: Any) -> str:
    from mingraph_lite.course.brief import build_brief_graph

    graph = build_brief_graph("stubborn", 2)
    graph.invoke(initial_state(["Tokyo", "Paris", "Oslo"]))
    return _number(answer, len(graph.steps), {
        10: "10 counts node executions; the three collecting branches share superstep 1",
        6: "6 leaves out one (revise_draft, check_draft) pair: max_revisions=2 allows two revisions before hold",
        7: "7 is one short: did you count hold? It runs in a superstep of its own after the last check_draft"},
        "supersteps",
        "the three collecting branches share superstep 1; after that one node runs per superstep: follow the "
        "stubborn writer's path to hold, with every revision max_revisions=2 allows")


def _engines() -> list[tuple[str, Any, Any]]:
    """Both engines where LangGraph is installed, ours alone otherwise."""
    from mingraph_lite.graph import StateGraph
    try:
        from langgraph.graph import StateGraph as LangGraph
    except ImportError:  # checked on our engine only
        LangGraph = None
    return ([("LangGraph", LangGraph, None)] if LangGraph else []) + [("our engine", StateGraph, None)]


def _two_by_two(engine: Any) -> int:
    class Log(TypedDict):
        log: Annotated[list[str], lambda old, new: old + new]

    builder = engine(Log)
    for name in ("a", "a2", "b", "b2", "write"):
        builder.add_node(name, lambda state, name=name: {"log": [name]})
    for source, target in ((START, "a"), ("a", "a2"), (START, "b"), ("b", "b2"), ("a2", "write"), ("b2", "write"),
                           ("write", END)):
        builder.add_edge(source, target)
    return builder.compile().invoke({"log": []})["log"].count("write")


@exercise("08.Q3", kind="reasoning", title="two even branches without a join")
def check_q3(answer: Any) -> str:
    runs = {_two_by_two(engine) for _, engine, _ in _engines()}
    if len(runs) != 1:
        raise Hint(f"the two engines disagree here ({sorted(runs)}); please report it")
    return _number(answer, runs.pop(), {
        2: "without a join, write runs once for every superstep in which an edge into it fires: find the superstep "
           "a2 runs in and the one b2 runs in, counting from START",
        3: "a2 and b2 run in the same superstep (each branch is two nodes long), so their edges into write fire "
           "together and start it once: count the supersteps in which write is a target"}, "runs of write")


@exercise("08.Q5", kind="reasoning", title="supersteps and collect_city runs with send_missing at START")
def check_q5(answer: Any) -> str:
    from lessons.reference import reference
    from mingraph_lite.graph import Send, StateGraph

    from .nb08_send import brief_with_entry

    if isinstance(answer, dict) and all(value is None for value in answer.values()):
        raise NotDone
    if not isinstance(answer, dict) or set(answer) != {"supersteps", "collect_city"}:
        raise Hint(f"answer with a dict of two numbers, {{'supersteps': ..., 'collect_city': ...}}, not {answer!r}")
    graph = brief_with_entry(StateGraph(BriefState), reference("08.3"), Send).compile(max_steps=10)
    start = initial_state(["Tokyo", "Paris", "Oslo"])
    start["readings"] = [{"city": "Paris", **WEATHER["Paris"]}]
    graph.invoke(start)
    run = {"supersteps": len(graph.steps), "collect_city": sum(step.count("collect_city") for step in graph.steps)}
    if answer["collect_city"] != run["collect_city"]:
        more = "too many" if answer["collect_city"] > run["collect_city"] else "too few"
        raise Hint(f"{answer['collect_city']!r} runs of collect_city is {more}: a city that already has a reading "
                   "gets no packet, and each packet runs collect_city once")
    if answer["supersteps"] != run["supersteps"]:
        if answer["supersteps"] > run["supersteps"]:
            raise Hint(f"{answer['supersteps']!r} supersteps is too many: the packets' collect_city runs share one "
                       "superstep; each later node takes one of its own")
        raise Hint(f"{answer['supersteps']!r} supersteps is too few: each node after the packets takes a superstep "
                   "of its own (write_draft, check_draft, then publish), after the one the packets share")
    return f"right: {run['supersteps']} supersteps, collect_city ran {run['collect_city']} times (steps {graph.steps})"
