"""Notebook 09's exercises: a router after ``model`` that stops a repeated call (09.1), the node it routes to (09.3).

Each checker runs the learner's code on worksheets of its own, then wires it into the agent graph
(``_agent_with_router``) and replays a recorded SmolLM2 run (and, for 09.1, the scripted four-round manager) through it.
The prediction (09.2) is in ``nb09_predict.py``.
"""

from __future__ import annotations

from copy import deepcopy
from pathlib import Path
from typing import Any

from mingraph_lite import AssistantMessage, ReplayLLM, ToolCall, ToolMessage
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.graph import END, START, AgentNodes, AgentState, StateGraph, initial_agent_state, run_agent_graph
from mingraph_lite.graph.agent_graph import node_executions
from . import Hint, exercise
from .borrowing import borrowed

FINISH = Path(__file__).resolve().parents[3] / "data" / "experiments" / "finish-right"


def _stop_repeat(state: dict) -> dict:
    return {"stop_reason": "repeated call", "pending_calls": [], "pending_reply": None}


def _agent_with_router(router: Any, llm: Any, *, max_model_steps: int = 6, max_tool_calls: int = 20,
                      observers: tuple = (), hold: Any = _stop_repeat) -> Any:
    """The agent graph with ``router`` after ``model`` and a third route, "repeat", to ``hold``, which stops the run.

    Private, and never imported by the notebook: its wiring is 09.4's answer (the notebook wires with reference("09.4"))."""
    nodes = AgentNodes(llm, weather_registry(), system_prompt=SYSTEM_PROMPT, max_model_steps=max_model_steps,
                       max_tool_calls=max_tool_calls, observers=observers)
    builder = StateGraph(AgentState)
    builder.add_node("model", nodes.model)
    builder.add_node("tools", nodes.tools)
    builder.add_node("hold", hold)
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", router, {"tools": "tools", "repeat": "hold", "end": END})
    builder.add_conditional_edges("tools", nodes.route_after_tools, {"model": "model", "end": END})
    builder.add_edge("hold", END)
    return builder.compile(max_steps=node_executions(max_model_steps) + 1)


def smollm2_replay() -> Any:
    """The recorded SmolLM2-135M run the notebook replays (finish-right, zero-shot, #12): it converts 22, 20, then 10 four times."""
    return ReplayLLM.from_trace(FINISH / "smollm2-135m" / "traces" / "zero-shot-12.jsonl")


def replay_worked_example() -> tuple[dict, dict, Any]:
    """Gemma 3 270M's finish-right run #12, variant "worked example", replayed with the worked example on the worksheet.

    Returns the worksheet it starts from, the worksheet it ends with, and the replayed model.
    """
    from mingraph_lite import SystemMessage, UserMessage
    from mingraph_lite.course.definition import load
    from mingraph_lite.graph import build_agent_graph

    finish_right = load("finish-right")
    worked = next(v for v in finish_right.variants if v.name == "worked example")
    start = initial_agent_state(finish_right.question)
    start["messages"] = [SystemMessage(worked.system_prompt), *worked.messages, UserMessage(finish_right.question)]
    closest = ReplayLLM.from_trace(FINISH / "gemma3-270m" / "traces" / "worked-example-12.jsonl")
    return start, build_agent_graph(closest, worked.registry(), max_model_steps=6).invoke(start), closest


def _agent_state(filed: list[list[tuple[str, dict]]], pending: list[tuple[str, dict]], stop: str | None = None) -> dict:
    """A worksheet with one filed assistant reply (and its answers) per entry of ``filed``, and a pending batch."""
    state = initial_agent_state(QUESTION, SYSTEM_PROMPT)
    for round_no, calls in enumerate(filed):
        made = tuple(ToolCall(f"r{round_no}c{i}", name, args) for i, (name, args) in enumerate(calls))
        state["messages"] += [AssistantMessage("", made),
                              *(ToolMessage("1", call.id, call.name) for call in made)]
    state["pending_calls"] = [ToolCall(f"p{i}", name, args) for i, (name, args) in enumerate(pending)]
    state["stop_reason"] = stop
    return state


TOKYO, PARIS, F24, F18 = ("get_weather", {"city": "Tokyo"}), ("get_weather", {"city": "Paris"}), \
    ("to_fahrenheit", {"celsius": 24}), ("to_fahrenheit", {"celsius": 18})


def _repeat_cases(router: Any) -> None:
    cases = [  # (filed rounds, pending batch, stop_reason, expected, why)
        ([], [TOKYO, PARIS], None, "tools", "a first batch repeats nothing"),
        ([], [TOKYO, TOKYO], None, "tools",
         "rule 2 looks for each pending call among the calls already filed in messages, and this worksheet has none"),
        ([[TOKYO, PARIS]], [F24], None, "tools", "a new call goes to the tools node"),
        ([[TOKYO, PARIS], [F24]], [F18], None, "tools",
         "to_fahrenheit(celsius=18) is not to_fahrenheit(celsius=24): a repeat is the same name AND the same arguments"),
        ([[TOKYO, PARIS], [F24]], [F24], None, "repeat", "the batch asks again for a call that already ran"),
        ([[TOKYO, PARIS], [F24]], [F18, F24], None, "repeat",
         "rule 2 reads any pending call, not only the first: this batch's second call, to_fahrenheit(24), already ran"),
        ([[TOKYO, PARIS], [F24], [F18]], [TOKYO], None, "repeat",
         "get_weather(Tokyo) ran two rounds ago: compare with every call already filed, not only the last round"),
        ([[TOKYO, PARIS]], [], "answered", "end", "a run that answered ends"),
        ([[TOKYO, PARIS]], [], "step limit", "end", "a run the model node stopped ends"),
        ([[TOKYO, PARIS], [F24]], [F24], "tool budget", "end",
         "a stopped run ends even when its last batch repeats: read stop_reason before looking for repeats"),
    ]
    for filed, pending, stop, want, why in cases:
        state = _agent_state(filed, pending, stop)
        before = deepcopy(state)
        try:
            got = router(state)
        except (AttributeError, KeyError, TypeError) as exc:
            raise Hint(f"your router failed on a worksheet of ours ({type(exc).__name__}): messages are objects "
                       "(m.role, m.tool_calls), and each call has .name and .arguments (a dict)") from None
        if state != before:
            raise Hint("your router changed the worksheet it read; a router only chooses")
        if got != want:
            shown = [f"{name}({args})" for name, args in pending]
            raise Hint(f"with {len(filed)} round(s) filed, pending {shown} and stop_reason={stop!r} your router "
                       f"returned {got!r}, not {want!r}: {why}")


@exercise("09.1", kind="code", title="route_after_model with a rule that stops a repeated call")
def check_repeat_router(route_after_model: Any) -> str:
    used = borrowed(route_after_model, {"AgentNodes", "connect_agent", "build_agent_graph", "_agent_with_router"})
    if used:
        raise Hint(f"your router calls the package's ({used}): write all three rules yourself from the worksheet's "
                   "stop_reason, pending_calls and messages")
    _repeat_cases(route_after_model)
    scripted = run_agent_graph(_agent_with_router(route_after_model, four_round_manager()), QUESTION)
    if scripted["stop_reason"] != "answered":
        raise Hint(f"the scripted four-round manager, which never repeats a call, ended {scripted['stop_reason']!r} "
                   "with your router: it must reach its answer as before")
    real = run_agent_graph(_agent_with_router(route_after_model, smollm2_replay()), QUESTION)
    if (real["stop_reason"], real["model_steps"]) != ("repeated call", 4):
        raise Hint(f"the replayed SmolLM2 run (22, 20, 10, then 10 again) ended {real['stop_reason']!r} after "
                   f"{real['model_steps']} model calls with your router; it should stop at the fourth call, the "
                   "first repeat")
    return "your router stops the replayed SmolLM2 run at its first repeated call and lets the scripted manager answer"


def _filed(state: dict) -> list[tuple[str, dict]]:
    return [(call.name, call.arguments) for message in state["messages"] if message.role == "assistant"
            for call in message.tool_calls]


def _give_up_case(give_up: Any, filed: list, pending: list) -> None:
    state = _agent_state(filed, pending)
    before = deepcopy(state)
    try:
        slip = give_up(state)
    except (AttributeError, KeyError, TypeError) as exc:
        raise Hint(f"your node failed on a worksheet of ours ({type(exc).__name__}): messages are objects (m.role, "
                   "m.tool_calls), and each call has .name and .arguments (a dict)") from None
    if state != before:
        raise Hint("your node changed the worksheet it was handed; a node returns a change slip and the engine merges it")
    if not isinstance(slip, dict):
        raise Hint(f"your node returned a {type(slip).__name__}; a node returns a change slip, a dict of the fields it sets")
    if "answer" in slip or "messages" in slip:
        raise Hint("your change slip sets answer or messages: a stop never fills in an answer (only the model's reply "
                   "does), and the repeated call never ran, so nothing is filed")
    if slip.get("stop_reason") != "repeated call":
        raise Hint(f"your change slip's stop_reason is {slip.get('stop_reason')!r}, not 'repeated call': the run's end "
                   "must say why it stopped")
    if slip.get("pending_calls") != [] or "pending_reply" not in slip or slip["pending_reply"] is not None:
        raise Hint("clear the batch: pending_calls [] and pending_reply None, or the stopped run still holds calls "
                   "that look as if they are waiting to run")
    error, ran = slip.get("error"), _filed(state)
    if not isinstance(error, str):
        raise Hint("say which call repeated in the change slip's error field, a string")
    for call in state["pending_calls"]:
        named = f"{call.name}({call.arguments})" in error
        if (call.name, call.arguments) in ran and not named:
            raise Hint(f"your error {error!r} does not name {call.name}({call.arguments}), which already ran: write "
                       "each repeated call as name(arguments)")
        if (call.name, call.arguments) not in ran and named:
            raise Hint(f"your error {error!r} names {call.name}({call.arguments}), which never ran before: name only "
                       "the pending calls that repeat a filed one")


def _repeat_router(state: dict) -> str:
    """09.1's rules, the checker's own copy: 09.3 is checked with it, so a learner with 09.1 open can do 09.3."""
    if state["stop_reason"] is not None or not state["pending_calls"]:
        return "end"
    ran = _filed(state)
    return "repeat" if any((call.name, call.arguments) in ran for call in state["pending_calls"]) else "tools"


@exercise("09.3", kind="code", title="give_up(state): the node that stops a repeated call and says which")
def check_give_up(give_up: Any) -> str:
    if borrowed(give_up, {"_agent_with_router", "_stop_repeat", "_repeat_router", "AgentNodes"}):
        raise Hint("your node calls the course's own; write the change slip yourself from the worksheet")
    _give_up_case(give_up, [[TOKYO, PARIS], [F24]], [F24])
    _give_up_case(give_up, [[TOKYO, PARIS], [F24]], [F18, F24])
    _give_up_case(give_up, [[TOKYO, PARIS], [F24], [F18]], [TOKYO, PARIS])
    real = run_agent_graph(_agent_with_router(_repeat_router, smollm2_replay(), hold=give_up), QUESTION)
    if (real["stop_reason"], real["answer"], real["tool_calls_made"]) != ("repeated call", None, 3):
        raise Hint(f"in the agent graph on the SmolLM2 replay your node ended {real['stop_reason']!r} after "
                   f"{real['tool_calls_made']} tool handlers; it should stop at the first repeat, before it runs")
    return f"the replayed SmolLM2 run stops at its first repeat and says why: {real['error']!r}"


__all__ = ["check_give_up", "check_repeat_router", "smollm2_replay"]
