"""Measurement 1: what the loop machinery costs per model call, with a model that costs nothing.

The same work five ways: the Paris/Tokyo question, four model calls (both lookups, one conversion
per round, the answer), the same two tool functions from ``mingraph_lite.course.weather``.

(a) the bare sticky-note loop: a ``while`` over a list, tools called straight from a dict (the floor);
(b) ``Agent`` with no listeners; (c) ``Agent`` with ``EventRecorder`` and ``TraceRecorder``;
(d) the agent graph on our engine; (d') the very same nodes on LangGraph's engine;
(e) LangGraph as its users write it: a model node and ``langgraph.prebuilt.ToolNode`` with
``tools_condition``, the model being langchain-core's ``FakeMessagesListChatModel``.

The script is fixed text on every side (the LangGraph fake model cannot read the folder), and every
run's final answer is checked, so a variant that stopped doing the work could not look fast.
The LangGraph model is not ``bind_tools``-ed (the fake model cannot be), so it skips converting the
tool schemas that our ``Agent`` sends on each call: that favours LangGraph, never us.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mingraph_lite import (
    Agent,
    EventRecorder,
    ScriptedLLM,
    SystemMessage,
    ToolMessage,
    TraceRecorder,
    UserMessage,
)
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
from mingraph_lite.course.weather import get_weather, to_fahrenheit, weather_registry

from .report import LANGGRAPH_MISSING, Section, Target, times, us
from .timing import Plan, compare, ratio

ANSWER = "Paris: 64°F, Tokyo: 75°F"
#: The four replies of the four-round manager, written out (see the module docstring for why fixed).
SCRIPT: list[Any] = [
    [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})],
    [("to_fahrenheit", {"celsius": 18})],
    [("to_fahrenheit", {"celsius": 24})],
    ANSWER,
]
MODEL_CALLS = len(SCRIPT)
FUNCTIONS: dict[str, Callable[..., Any]] = {"get_weather": get_weather, "to_fahrenheit": to_fahrenheit}


def _check(answer: Any, variant: str) -> None:
    if answer != ANSWER:
        raise AssertionError(f"{variant} answered {answer!r}, expected {ANSWER!r}: it is not doing the work")


def bare_loop(llm: ScriptedLLM, tools: list, max_steps: int = 10) -> str:
    """The loop most people write first: a list of messages, a while, tools looked up in a dict."""
    messages = [SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION)]
    for _ in range(max_steps):
        reply = llm.generate(messages, tools).message
        messages.append(reply)
        if not reply.tool_calls:
            return reply.content
        for call in reply.tool_calls:
            result = FUNCTIONS[call.name](**call.arguments)
            messages.append(ToolMessage(str(result), call.id, name=call.name))
    raise RuntimeError("no answer")


def ours(trace_dir: Path) -> dict[str, Callable[[], None]]:
    """Variants (a)-(d), each a zero-argument run of the whole question with its answer checked."""
    from mingraph_lite.graph.agent_graph import AgentNodes, AgentState, connect_agent, initial_agent_state
    from mingraph_lite.graph.builder import StateGraph

    registry = weather_registry()
    tools = registry.tools  # the bare loop writes its menu once, as a hand-written loop would
    trace = TraceRecorder(trace_dir / "agent.jsonl")

    def a() -> None:
        _check(bare_loop(ScriptedLLM(SCRIPT), tools), "the bare loop")

    def b() -> None:
        agent = Agent(ScriptedLLM(SCRIPT), registry, SYSTEM_PROMPT)
        _check(agent.run({"question": QUESTION})["answer"], "Agent")

    def c() -> None:
        agent = Agent(ScriptedLLM(SCRIPT), registry, SYSTEM_PROMPT, observers=(EventRecorder(), trace))
        _check(agent.run({"question": QUESTION})["answer"], "Agent with listeners")

    nodes = AgentNodes(ScriptedLLM(SCRIPT), registry)
    graph = connect_agent(StateGraph(AgentState), nodes).compile(max_steps=22, name="agent")

    def d() -> None:
        nodes.llm = ScriptedLLM(SCRIPT)  # a fresh script per run; the compiled graph is reused
        _check(graph.invoke(initial_agent_state(QUESTION, SYSTEM_PROMPT))["answer"], "the agent graph")

    return {"a": a, "b": b, "c": c, "d": d}


def langgraph_variants() -> dict[str, Callable[[], None]]:
    """Variants (d') and (e); raises ImportError when LangGraph is absent."""
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.messages import SystemMessage as LCSystemMessage
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    from mingraph_lite.graph.agent_graph import AgentNodes, AgentState, connect_agent, initial_agent_state

    def ai(reply: Any, step: int) -> AIMessage:
        if isinstance(reply, str):
            return AIMessage(content=reply)
        return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"call_{step}_{i}",
                                                  "type": "tool_call"}
                                                 for i, (name, args) in enumerate(reply, 1)])

    # The fake model cycles through its replies, so one instance serves every run in the same order.
    model = FakeMessagesListChatModel(responses=[ai(r, s) for s, r in enumerate(SCRIPT, 1)])

    def call_model(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("model", call_model)
    builder.add_node("tools", ToolNode([get_weather, to_fahrenheit]))
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", tools_condition)
    builder.add_edge("tools", "model")
    lg = builder.compile()

    def e() -> None:
        final = lg.invoke({"messages": [LCSystemMessage(SYSTEM_PROMPT), HumanMessage(QUESTION)]})
        _check(final["messages"][-1].content, "the LangGraph agent")
        if sum(m.type == "tool" for m in final["messages"]) != 4:
            raise AssertionError("the LangGraph agent did not run four tools")

    nodes = AgentNodes(ScriptedLLM(SCRIPT), weather_registry())
    builder2 = StateGraph(AgentState)
    connect_agent(builder2, nodes)
    ported = builder2.compile()

    def d_port() -> None:
        nodes.llm = ScriptedLLM(SCRIPT)
        state = initial_agent_state(QUESTION, SYSTEM_PROMPT)
        _check(ported.invoke(state, config={"recursion_limit": 23})["answer"], "the agent graph on LangGraph")

    return {"d'": d_port, "e": e}


LABELS = {
    "a": "(a) bare sticky-note loop",
    "b": "(b) Agent, no listeners",
    "c": "(c) Agent + EventRecorder + TraceRecorder",
    "d": "(d) agent graph, our engine",
    "d'": "(d') agent graph nodes on LangGraph's engine",
    "e": "(e) LangGraph model node + ToolNode",
}


def run(plan: Plan | None = None, *, include_langgraph: bool = True) -> Section:
    plan = plan or Plan()
    notes = [f"{MODEL_CALLS} model calls and 4 tool calls per run; figures are per model call "
             "(run time / 4); ratios are to (a). Wall time is the figure; CPU time (this process only) is "
             "beside it, and spread is (max - min) / median of the wall samples."]
    with tempfile.TemporaryDirectory() as tmp:
        variants = ours(Path(tmp))
        if include_langgraph:
            try:
                variants.update(langgraph_variants())
            except ImportError:
                notes.append(LANGGRAPH_MISSING)
        timings = compare(variants, plan)
    per_call = {k: t.median_ns / MODEL_CALLS for k, t in timings.items()}
    cpu = {k: t.cpu_median_ns / MODEL_CALLS for k, t in timings.items()}
    rows = tuple((LABELS[k], us(v), times(ratio(v, per_call["a"])), us(cpu[k]),
                  times(ratio(cpu[k], cpu["a"])), f"{timings[k].spread:.0%}") for k, v in per_call.items())

    def pair(x: str, y: str) -> str:
        wall, on_cpu = times(ratio(per_call[x], per_call[y])), times(ratio(cpu[x], cpu[y]))
        return f"({x})/({y}) = {wall} wall, {on_cpu} CPU"

    targets = [Target("Agent without listeners within 3x of the bare loop per model call", pair("b", "a"),
                      per_call["b"] <= 3 * per_call["a"])]
    if "e" in per_call:
        targets.append(Target("Agent without listeners at least 10x faster than the LangGraph agent graph",
                              pair("e", "b"), per_call["e"] >= 10 * per_call["b"]))
    else:
        targets.append(Target("Agent at least 10x faster than the LangGraph agent graph", "LangGraph absent",
                              None))
    return Section("agent", "1. Agent loop overhead per model call",
                   ("variant", "us per model call", "ratio to (a)", "CPU us per model call",
                    "CPU ratio to (a)", "spread"), rows, tuple(targets), tuple(notes),
                   {"per_call_ns": per_call, "cpu_per_call_ns": cpu})
