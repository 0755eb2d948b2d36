"""The agent loop as a graph: a ``model`` node and a ``tools`` node, and two routers.

    START -> model --tools--> tools --model--> model
               |                |
               +--end--> END <--+--end  (an answer, a stopped budget, or a tool that failed)

The same loop as ``Agent``, with the situation written into the state instead of held as a card:
``pending_calls`` is the batch still to run (replaced, so writing ``[]`` clears it), ``messages``
the folder (appended). The nodes announce what ``Agent`` announces, in the same order, so the same
listeners work unchanged; the engine adds its node start/end hooks around them.

Two deliberate differences from ``Agent``: the tools node checks the whole batch before running
any handler (if one slip is wrong, none runs and each gets an answer saying why), and a stopped
run ends with ``stop_reason`` in the state instead of raising, so the work done stays inspectable.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

try:
    from typing import Annotated, TypedDict
except ImportError:  # pragma: no cover
    from typing import Annotated

    from typing_extensions import TypedDict

from ..errors import ToolArgsError
from ..messages import Message, SystemMessage, ToolCall, ToolMessage, UserMessage
from ..observers.announce import announce
from ..tools import error_slip, failed_slips, fix_slip
from .builder import END, START


class AgentState(TypedDict):
    messages: Annotated[list[Message], operator.add]  # the folder: every node adds, none rewrites
    pending_calls: list[ToolCall]  # the batch still to run: replaced, so [] clears it
    model_steps: int  # model calls made (the budget is checked before each one)
    tool_calls_made: int  # handlers started
    answer: str | None  # only an answer from the model; never filled in by a stop
    stop_reason: str | None  # None while running; "answered", "step limit", "tool budget", "tool failed"
    error: str | None  # what failed, for a run that stopped on a tool failure


def initial_agent_state(question: str, system_prompt: str | None = None) -> dict[str, Any]:
    """The worksheet for one question: the folder as the first model call will read it."""
    if not isinstance(question, str) or not question.strip():
        raise ValueError(f"the agent graph needs a non-empty question string, got {question!r}")
    folder: list[Message] = [SystemMessage(system_prompt)] if system_prompt else []
    return {"messages": [*folder, UserMessage(question)], "pending_calls": [], "model_steps": 0,
            "tool_calls_made": 0, "answer": None, "stop_reason": None, "error": None}


class AgentNodes:
    """The two nodes and two routers; engine-neutral, so LangGraph can run the very same functions."""

    def __init__(self, llm: Any, registry: Any, *, max_model_steps: int = 10, max_tool_calls: int = 20,
                 observers: Iterable[Any] = (), strict: bool = False) -> None:
        for name, value in (("max_model_steps", max_model_steps), ("max_tool_calls", max_tool_calls)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        self.llm, self.registry = llm, registry
        self.max_model_steps, self.max_tool_calls = max_model_steps, max_tool_calls
        self.observers, self.strict = tuple(observers), strict

    def _announce(self, hook: str, *args: Any) -> None:
        announce(self.observers, hook, *args, strict=self.strict)

    def model(self, state: dict) -> dict:
        """Ask the model once (if the budget allows); return its reply and the batch it asks for."""
        done = state["model_steps"]
        if done == 0:
            self._announce("on_run_start", tuple(state["messages"]))
        if done >= self.max_model_steps:  # checked before the call it bounds
            self._announce("on_finish", None, "step limit")
            return {"stop_reason": "step limit"}
        self._announce("on_step_start", done + 1)
        try:
            response = self.llm.generate(state["messages"], self.registry.tools)
        except Exception:
            self._announce("on_finish", None, "model failed")
            raise
        self._announce("on_model_reply", response)
        reply = response.message
        if reply.tool_calls:
            return {"messages": [reply], "pending_calls": list(reply.tool_calls), "model_steps": done + 1}
        self._announce("on_finish", reply.content, "answered")
        return {"messages": [reply], "pending_calls": [], "model_steps": done + 1,
                "answer": reply.content, "stop_reason": "answered"}

    def tools(self, state: dict) -> dict:
        """Check the whole batch, then run it; answer every slip; clear the batch."""
        calls, made = state["pending_calls"], state["tool_calls_made"]
        if made + len(calls) > self.max_tool_calls:  # checked before any handler starts
            self._announce("on_finish", None, "tool budget")
            return {"stop_reason": "tool budget"}
        problems = {}
        for call in calls:
            try:
                self.registry.validate(call)
            except ToolArgsError as exc:
                problems[call.id] = fix_slip(call, exc)
        answers: list[ToolMessage] = []
        if problems:  # nothing runs: a valid first slip must not run ahead of an invalid second one
            for call in calls:
                self._announce("on_tool_call", call)
                answers.append(problems.get(call.id)
                               or error_slip(call, "not run, because another call in this batch was invalid"))
                self._announce("on_tool_return", answers[-1])
            return {"messages": answers, "pending_calls": []}
        for i, call in enumerate(calls):
            self._announce("on_tool_call", call)
            made += 1
            try:
                answer = self.registry.answer(call)
            except Exception as exc:  # not the model's to fix: answer every slip, keep what ran, stop
                self._announce("on_tool_error", call, exc)
                answers += failed_slips(calls, i, exc)
                for slip in answers[-(len(calls) - i):]:
                    self._announce("on_tool_return", slip)
                self._announce("on_finish", None, "tool failed")
                return {"messages": answers, "pending_calls": [], "tool_calls_made": made,
                        "stop_reason": "tool failed",
                        "error": f"{call.name} failed: {type(exc).__name__}: {exc}"}
            answers.append(answer)
            self._announce("on_tool_return", answer)
        return {"messages": answers, "pending_calls": [], "tool_calls_made": made}

    @staticmethod
    def route_after_model(state: dict) -> str:
        if state["stop_reason"] is None and state["pending_calls"]:
            return "tools"
        return "end"

    @staticmethod
    def route_after_tools(state: dict) -> str:
        return "end" if state["stop_reason"] is not None else "model"


def connect_agent(builder: Any, nodes: AgentNodes) -> Any:
    """Declare the loop on any builder with LangGraph's method names (ours or LangGraph's own)."""
    builder.add_node("model", nodes.model)
    builder.add_node("tools", nodes.tools)
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", nodes.route_after_model, {"tools": "tools", "end": END})
    builder.add_conditional_edges("tools", nodes.route_after_tools, {"model": "model", "end": END})
    return builder


def _graph_bound(max_model_steps: int) -> int:
    # model and tools alternate, and a stop takes one extra model visit: the longest legal run.
    return 2 * max_model_steps + 2


def build_agent_graph(llm: Any = None, registry: Any = None, system_prompt: str | None = None, *,
                      max_model_steps: int = 10, max_tool_calls: int = 20, observers: Iterable[Any] = (),
                      strict: bool = False, engine: str = "mingraph") -> Any:
    """The agent loop compiled as a graph. ``llm=None`` is the course's scripted four-round manager.

    ``engine="langgraph"`` declares the same nodes on LangGraph's own StateGraph (the ``langgraph``
    extra). ``system_prompt`` is kept on the graph (``graph.system_prompt``) for ``run_agent_graph``.
    """
    if llm is None or registry is None:
        from ..course.scripts import four_round_manager
        from ..course.weather import weather_registry

        llm = four_round_manager() if llm is None else llm
        registry = weather_registry() if registry is None else registry
    nodes = AgentNodes(llm, registry, max_model_steps=max_model_steps, max_tool_calls=max_tool_calls,
                       observers=observers, strict=strict)
    bound = _graph_bound(max_model_steps)
    if engine == "mingraph":
        from .builder import StateGraph

        graph = connect_agent(StateGraph(AgentState), nodes).compile(max_steps=bound, observers=observers,
                                                                      strict=strict, name="agent")
    elif engine == "langgraph":
        from .langgraph_port import compile_on_langgraph

        graph = compile_on_langgraph(AgentState, lambda b: connect_agent(b, nodes))
    else:
        raise ValueError(f"engine must be 'mingraph' or 'langgraph', got {engine!r}")
    graph.system_prompt = system_prompt
    graph.step_bound = bound
    return graph


def run_agent_graph(graph: Any, question: str) -> dict[str, Any]:
    """Run one question through a graph from ``build_agent_graph``; return the final state.

    A stopped run is reported as stopped: ``answer`` stays None and ``stop_reason`` says why.
    """
    from .runner import CompiledGraph

    state = initial_agent_state(question, getattr(graph, "system_prompt", None))
    if isinstance(graph, CompiledGraph):
        return graph.invoke(state)
    return graph.invoke(state, config={"recursion_limit": graph.step_bound + 1})  # LangGraph's bound
