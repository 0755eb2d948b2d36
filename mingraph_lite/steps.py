"""Steps: units of work that read a shared dict (``State``) and return what they add to it; ``Agent`` is one too."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Protocol, runtime_checkable

from .llms.base import LLM
from .messages import AssistantMessage, Message, SystemMessage, UserMessage
from .tools import ToolRegistry, answer_once

State = dict[str, object]


@runtime_checkable
class Step(Protocol):
    """Reads the state, returns the keys it adds or replaces."""

    def run(self, state: Mapping[str, Any]) -> Mapping[str, Any]: ...


class Sequence:
    """Run steps in order; each sees the state with every earlier step's update merged in."""

    def __init__(self, steps: Iterable[Step]) -> None:
        self.steps = tuple(steps)
        for step in self.steps:
            if not callable(getattr(step, "run", None)):
                raise TypeError(f"{step!r} is not a Step: it needs a run(state) method")

    def run(self, state: Mapping[str, Any]) -> State:
        merged: State = dict(state)
        for step in self.steps:
            update = step.run(dict(merged))  # a copy: a step changes the state only by returning
            if not isinstance(update, Mapping):
                raise TypeError(f"{type(step).__name__}.run must return a dict of updates, got {update!r}")
            merged.update(update)
        return merged

    def __repr__(self) -> str:
        return f"Sequence([{', '.join(type(s).__name__ for s in self.steps)}])"


class CallModel:
    """One model call: returns ``messages`` with the reply appended, ``reply`` and, for a final reply, ``answer``."""

    def __init__(self, llm: LLM, registry: ToolRegistry | None = None, system_prompt: str | None = None) -> None:
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt

    def run(self, state: Mapping[str, Any]) -> State:
        messages: list[Message] = list(state.get("messages") or ())
        if not messages:
            if "question" not in state:
                raise ValueError('CallModel needs state["messages"] or state["question"]')
            if self.system_prompt:
                messages.append(SystemMessage(self.system_prompt))
            messages.append(UserMessage(str(state["question"])))
        response = self.llm.generate(messages, self.registry.tools if self.registry else [])
        update: State = {"messages": [*messages, response.message], "reply": response}
        if not response.message.tool_calls:
            update["answer"] = response.message.content
        return update


class RunTools:
    """Run the tool calls of the last assistant message; answer each id once, bad calls with what to fix."""

    def __init__(self, registry: ToolRegistry) -> None:
        self.registry = registry

    def run(self, state: Mapping[str, Any]) -> State:
        messages: list[Message] = list(state.get("messages") or ())
        last = messages[-1] if messages else None
        if not isinstance(last, AssistantMessage) or not last.tool_calls:
            raise ValueError("RunTools needs state['messages'] ending with an assistant message that has tool calls")
        for call, refused in answer_once(last.tool_calls):
            messages.append(refused or self.registry.answer(call))
        return {"messages": messages}
