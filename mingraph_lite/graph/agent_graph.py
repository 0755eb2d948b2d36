"""The agent loop as a graph: a ``model`` node, a ``tools`` node and two routers.

    START -> model --tools--> tools --model--> model
               |                |
               +--end--> END <--+--end  (an answer, a spent budget, or a tool that failed)

The same loop and events as ``Agent``, except: the whole batch is checked before any handler runs, a stopped run
ends with ``stop_reason`` in the state instead of raising, and a reply asking for tools joins the messages only
with its answers, so no call is ever left unanswered.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Annotated, Any, TypedDict

from ..errors import ToolArgsError
from ..messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolMessage, UserMessage
from ..observers.announce import announce
from ..tools import answer_once, error_answer, fix_answer, open_calls, unrun_answer
from ..wire import shorten
from .builder import END, START, compile_on


class AgentState(TypedDict):
    messages: Annotated[list[Message], operator.add]  # every node adds, none rewrites
    pending_calls: list[ToolCall]  # the batch still to run: replaced, so [] clears it
    pending_reply: AssistantMessage | None  # the reply that asked for them; filed with its answers
    model_steps: int  # model calls made (the budget is checked before each one)
    tool_calls_made: int  # handlers started
    answer: str | None  # only an answer from the model; never filled in by a stop
    stop_reason: str | None  # None while running; "answered", "step limit", "tool budget", "tool failed"
    error: str | None  # what failed, for a run that stopped on a tool failure


def initial_agent_state(question: str, system_prompt: str | None = None) -> dict[str, Any]:
    """The starting state for one question (``system_prompt`` only for nodes built without their own)."""
    if not isinstance(question, str) or not question.strip():
        raise ValueError(f"the agent graph needs a non-empty question string, got {question!r}")
    system: list[Message] = [SystemMessage(system_prompt)] if system_prompt else []
    return {"messages": [*system, UserMessage(question)], "pending_calls": [], "pending_reply": None,
            "model_steps": 0, "tool_calls_made": 0, "answer": None, "stop_reason": None, "error": None}


class _Round:
    """The messages one tools-node visit files, each announced as it is filed (the one path in)."""

    def __init__(self, nodes: AgentNodes, reply: AssistantMessage | None) -> None:
        self.nodes, self.messages = nodes, [reply] if reply is not None else []
        self.error: BaseException | None = None  # what stopped the round, once something did
        self.failure: str | None = None  # the tool failure, in words, for the state's ``error``

    def file(self, answer: ToolMessage) -> None:
        self.messages.append(answer)
        self.nodes._announce("on_tool_return", answer, quiet=self.error is not None)

    def close(self, reason: str) -> None:
        """Answer every call still open in this round."""
        for call in open_calls(self.messages):
            self.file(unrun_answer(call, reason))


class AgentNodes:
    """The two nodes and two routers; engine-neutral, so LangGraph can run the very same functions."""

    def __init__(self, llm: Any, registry: Any, *, system_prompt: str | None = None, max_model_steps: int = 10,
                 max_tool_calls: int = 20, observers: Iterable[Any] = (), strict: bool = False) -> None:
        for name, value in (("max_model_steps", max_model_steps), ("max_tool_calls", max_tool_calls)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        if llm is None or registry is None:
            raise TypeError("the agent graph needs a model and a tool registry: "
                            "build_agent_graph(llm, registry, system_prompt)")
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt
        self.max_model_steps, self.max_tool_calls = max_model_steps, max_tool_calls
        self.observers, self.strict = tuple(observers), strict

    def _announce(self, hook: str, *args: Any, quiet: bool = False) -> None:
        # quiet: an error already stops the run; a strict listener must not replace it.
        announce(self.observers, hook, *args, strict=self.strict, stopping=quiet)

    def model_input(self, state: dict) -> list[Message]:
        """The messages as the model reads them: the nodes' system prompt first, unless the state has one."""
        messages = list(state["messages"])
        if self.system_prompt and not (messages and isinstance(messages[0], SystemMessage)):
            return [SystemMessage(self.system_prompt), *messages]
        return messages

    def model(self, state: dict) -> dict:
        """Ask the model once (if the budget allows); return its reply and the batch it asks for."""
        done = state["model_steps"]
        if done == 0:
            self._announce("on_run_start", tuple(self.model_input(state)))
        if done >= self.max_model_steps:  # checked before the call it bounds
            self._announce("on_finish", None, "step limit")
            return {"stop_reason": "step limit"}
        self._announce("on_step_start", done + 1)
        try:
            response = self.llm.generate(self.model_input(state), self.registry.tools)
        except Exception:
            self._announce("on_finish", None, "model failed", quiet=True)
            raise
        self._announce("on_model_reply", response)
        reply = response.message
        if reply.tool_calls:  # filed by the tools node, together with its answers
            return {"pending_reply": reply, "pending_calls": list(reply.tool_calls), "model_steps": done + 1}
        self._announce("on_finish", reply.content, "answered")
        return {"messages": [reply], "pending_calls": [], "model_steps": done + 1,
                "answer": reply.content, "stop_reason": "answered"}

    def tools(self, state: dict) -> dict:
        """Check the whole batch, then run it; answer every call exactly once; clear the batch."""
        calls, made = state["pending_calls"], state["tool_calls_made"]
        reply = state.get("pending_reply") or AssistantMessage("", tuple(calls))
        done = _Round(self, reply)
        update: dict[str, Any] = {"messages": done.messages, "pending_calls": [], "pending_reply": None}
        try:
            if made + len(calls) > self.max_tool_calls:  # checked before any handler starts
                done.close(f"the batch would pass the tool budget (max_tool_calls={self.max_tool_calls})")
                self._announce("on_finish", None, "tool budget")
                return {**update, "stop_reason": "tool budget"}
            problems = self._problems(calls)
            if problems:  # a valid first call must not run ahead of an invalid second one
                for call, _ in answer_once(calls):
                    self._announce("on_tool_call", call)
                    done.file(problems.get(call.id) or unrun_answer(call, "another call in this batch was invalid"))
                return update
            made = self._run_batch(calls, made, done)
        except BaseException as exc:  # Ctrl-C or a strict listener: every call answered
            done.error = done.error or exc
            done.close(f"the run stopped ({type(exc).__name__})")
            self._announce("on_finish", None, "stopped", quiet=True)
            raise
        update["tool_calls_made"] = made
        if isinstance(done.error, Exception):
            self._announce("on_finish", None, "tool failed")
            return {**update, "stop_reason": "tool failed", "error": done.failure}
        return update

    def _problems(self, calls: list[ToolCall]) -> dict[str, ToolMessage]:
        problems = {}
        for call, refused in answer_once(calls):
            if refused is None:
                try:
                    self.registry.validate(call)
                except ToolArgsError as exc:
                    refused = fix_answer(call, exc)
            if refused is not None:
                problems[call.id] = refused
        return problems

    def _run_batch(self, calls: list[ToolCall], made: int, done: _Round) -> int:
        for call in calls:
            self._announce("on_tool_call", call)
            made += 1
            try:
                answer = self.registry.answer(call)
            # Not the model's to fix: answer every call, keep what ran, stop (after Ctrl-C too).
            except BaseException as exc:
                done.error, done.failure = exc, f"{call.name} failed: {type(exc).__name__}: {shorten(str(exc))}"
                self._announce("on_tool_error", call, exc, quiet=True)
                done.file(error_answer(call, f"tool failed: {exc}"))
                done.close(f"{call.name} failed before it")
                if not isinstance(exc, Exception):
                    raise
                return made
            done.file(answer)
        return made

    @staticmethod
    def route_after_model(state: dict) -> str:
        return "tools" if state["stop_reason"] is None and state["pending_calls"] else "end"

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


def node_executions(max_model_steps: int) -> int:
    """The most supersteps a run can take: model and tools per model call, then model to find the budget spent."""
    return 2 * max_model_steps + 1


def build_agent_graph(llm: Any, registry: Any, system_prompt: str | None = None, *,
                      max_model_steps: int = 10, max_tool_calls: int = 20, observers: Iterable[Any] = (),
                      strict: bool = False, engine: str = "mingraph") -> Any:
    """The agent loop compiled on this engine or on LangGraph; the nodes announce the run, not the engine."""
    nodes = AgentNodes(llm, registry, system_prompt=system_prompt, max_model_steps=max_model_steps,
                       max_tool_calls=max_tool_calls, observers=observers, strict=strict)
    return compile_on(engine, AgentState, lambda builder, _send: connect_agent(builder, nodes),
                      max_steps=node_executions(max_model_steps), observers=observers, strict=strict,
                      name="agent", announce_runs=False)


def run_agent_graph(graph: Any, question: str) -> dict[str, Any]:
    """Run one question through a graph from ``build_agent_graph``; return the final state."""
    return graph.invoke(initial_agent_state(question))
