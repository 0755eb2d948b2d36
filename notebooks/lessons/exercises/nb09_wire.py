"""Notebook 09's exercise 09.4: wire the three-route agent graph yourself (model, tools, hold).

The check hands the learner's ``wire_agent(nodes, router, hold)`` the package's nodes and the checker's own router
and stopping node, compiles what it returns with the step bound, and runs it beside the course's wiring
(``_agent_with_router``) on the scripted manager (with and without a tool budget that stops it) and the SmolLM2 replay.
"""

from __future__ import annotations

from typing import Any

from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import GraphValidationError
from mingraph_lite.graph import END, AgentNodes, StateGraph, run_agent_graph
from mingraph_lite.graph.agent_graph import node_executions
from . import Hint, exercise
from .borrowing import borrowed
from .nb09 import _repeat_router, _stop_repeat, _agent_with_router, smollm2_replay

CASES = (  # (what the run is, the model, max_tool_calls, what a miss means)
    ("the scripted four-round manager", four_round_manager, 20,
     "it never repeats a call, so the router must send each batch to tools and the answer to END"),
    ("the scripted manager with max_tool_calls=1", four_round_manager, 1,
     "the tools node stops this run (tool budget): after tools, the package's route_after_tools must decide, "
     "so a stopped run goes to END instead of back to model"),
    ("the SmolLM2 replay", smollm2_replay, 20,
     "its fourth call repeats one: after model, use the router handed in (it has the \"repeat\" route), send "
     "\"repeat\" to the hold node, and hold to END"),
)
SEEN = ("stop_reason", "model_steps", "tool_calls_made", "answer")


def _run(wire_agent: Any, llm: Any, max_tool_calls: int, what: str, why: str) -> dict:
    nodes = AgentNodes(llm, weather_registry(), system_prompt=SYSTEM_PROMPT, max_model_steps=6,
                       max_tool_calls=max_tool_calls)
    builder = wire_agent(nodes, _repeat_router, _stop_repeat)
    if not isinstance(builder, StateGraph):
        raise Hint(f"wire_agent returned a {type(builder).__name__}: return the StateGraph you built, not compiled "
                   "(the check compiles it with the step bound)")
    if "hold" in builder.nodes and END not in builder._edges.get("hold", []) and "hold" not in builder._branches:
        if elsewhere := [str(target) for target in builder._edges.get("hold", [])]:
            raise Hint(f"hold goes on to {', '.join(elsewhere)}, not END: model does not read stop_reason, so the run "
                       "would call the model again after giving up; hold's only edge is add_edge(\"hold\", END)")
        raise Hint("hold has no edge to END: add_edge(\"hold\", END). Without it the run still stops at hold, but "
                   "only because this engine ends a run at a node with no way on; the wiring asked for says so itself")
    try:
        graph = builder.compile(max_steps=node_executions(6) + 1)
    except GraphValidationError as exc:
        raise Hint(f"your graph does not compile: {exc}. Every node needs a way on (an edge or a router) and "
                   "START an edge to model") from None
    try:
        return run_agent_graph(graph, QUESTION)
    except KeyError as exc:
        raise Hint(f"a router returned {exc}, a label your path map does not hold: map every route, "
                   "\"tools\", \"repeat\" and \"end\" after model, \"model\" and \"end\" after tools") from None
    except Exception as exc:  # a run past its stop: e.g. model asked again after the tools node stopped the run
        raise Hint(f"on {what} your graph failed while running ({type(exc).__name__}): {why}") from None


@exercise("09.4", kind="code", title="wire_agent(nodes, router, hold): the three-route agent graph")
def check_wire_agent(wire_agent: Any) -> str:
    used = borrowed(wire_agent, {"_agent_with_router", "build_agent_graph", "connect_agent"})
    if used:
        raise Hint(f"your wiring calls the course's or the package's ({used}), which is this exercise already "
                   "written: add the nodes and edges yourself")
    for what, model, budget, why in CASES:
        mine = _run(wire_agent, model(), budget, what, why)
        ours = run_agent_graph(_agent_with_router(_repeat_router, model(), max_tool_calls=budget), QUESTION)
        if any(mine[k] != ours[k] for k in SEEN):
            got = {k: mine[k] for k in SEEN[:3]}
            raise Hint(f"on {what} your graph ended {got}, not {({k: ours[k] for k in SEEN[:3]})}: {why}")
    return ("your graph runs as the course's on all three: the scripted manager answers, the tool budget stops it "
            "after tools, and the SmolLM2 replay stops at its first repeat")


__all__ = ["check_wire_agent"]
