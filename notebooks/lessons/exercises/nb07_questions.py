"""Checkers for notebook 07's questions: each answer is compared with a run of the code it asks about.

They live apart from ``nb07.py``'s exercises to keep each module short; they reuse its helpers.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict
from mingraph_lite.course.brief import initial_state
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.graph import build_agent_graph, run_agent_graph
from . import Hint, exercise
from . import number_answer as _number
from .nb06 import START, END
from .nb07 import _engines


@exercise("07.Q2", kind="reasoning", title="supersteps of the parallel stubborn run")
def check_q2(answer: Any) -> str:
    from mingraph_lite.course.brief import build_brief_graph

    graph = build_brief_graph("stubborn", 2)
    graph.invoke(initial_state(["Tokyo", "Paris", "Oslo"]))
    return _number(answer, len(graph.steps), {
        10: "10 counts node executions; the three collecting branches share superstep 1"}, "supersteps")


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


@exercise("07.Q3", kind="reasoning", title="two even branches without a join")
def check_q3(answer: Any) -> str:
    runs = {_two_by_two(engine) for _, engine, _ in _engines()}
    if len(runs) != 1:
        raise Hint(f"the two engines disagree here ({sorted(runs)}); please report it")
    return _number(answer, runs.pop(), {
        2: "without a join, write runs once for every superstep in which an edge into it fires: find the superstep "
           "a2 runs in and the one b2 runs in, counting from START"}, "runs of write")


@exercise("07.Q5", kind="reasoning", title="tool handlers run under max_tool_calls=1")
def check_q5(answer: Any) -> str:
    end = run_agent_graph(build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                                            max_tool_calls=1), QUESTION)
    return _number(answer, end["tool_calls_made"], {
        1: "the budget is checked for a whole batch before it starts, and the first batch asks for two lookups: "
           "none of them runs"}, "tool handlers")
