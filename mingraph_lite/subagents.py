"""A whole agent behind one tool: each ``task`` runs on a fresh memory; a run without an answer returns a result
saying so, an empty task is a ``ToolArgsError``, and anything else propagates unchanged."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .agents import Agent
from .errors import StepLimitReached, ToolArgsError
from .memory import KeepAll, Memory
from .messages import AssistantMessage


@dataclass(frozen=True)
class SubagentRun:
    """One delegated task: what was asked, what came back, and what it took."""

    task: str
    answer: str | None  # None when the subagent stopped without one
    model_calls: int
    stopped: str | None = None  # why it stopped without an answer ("step limit"), else None


class SubagentTool:
    """Wrap ``agent`` as a tool named ``name``: each call runs a new ``Agent`` built like it on a fresh ``memory()``."""

    def __init__(self, agent: Agent, name: str, description: str, *, memory: Callable[[str], Memory] = KeepAll) -> None:
        if not isinstance(agent, Agent):
            raise TypeError(f"SubagentTool wraps an Agent (its template), got {type(agent).__name__}")
        if not name.isidentifier():
            raise ValueError(f"a tool name must look like a Python identifier, got {name!r}")
        if not description.strip():
            raise ValueError("a subagent tool needs a description: it is all the parent model reads about it")
        self.agent, self.name, self.description, self.memory = agent, name, description.strip(), memory
        self.runs: list[SubagentRun] = []
        self.function = self._make_function()

    def __call__(self, task: str) -> str:
        if not isinstance(task, str) or not task.strip():
            raise ToolArgsError(f"{self.name} needs a non-empty 'task': say what the helper should do")
        template = self.agent
        agent = Agent(template.llm, template.registry, template.system_prompt, observers=template.observers,
                      memory=self.memory(template.system_prompt), max_steps=template.max_steps, strict=template.strict)
        try:
            answer = agent.run({"question": task})["answer"]
        except StepLimitReached as exc:
            calls = exc.steps if exc.steps is not None else agent.max_steps
            self.runs.append(SubagentRun(task, None, calls, stopped="step limit"))
            return (f"Error: the subagent stopped without an answer after {calls} model calls "
                    f"(its max_steps is {agent.max_steps}). Try a smaller task, or answer without it.")
        messages = getattr(agent.memory, "history", None) or agent.memory.messages()
        calls = sum(isinstance(m, AssistantMessage) for m in messages)
        self.runs.append(SubagentRun(task, answer, calls))
        return answer

    def _make_function(self) -> Callable[[str], str]:
        def delegate(task: str) -> str:
            return self(task)

        delegate.__name__ = delegate.__qualname__ = self.name
        delegate.__doc__ = (f"{self.description}\n\nArgs:\n    task: The whole task for the helper, in one "
                            "self-contained instruction (it cannot see this conversation).")
        delegate.subagent = self  # type: ignore[attr-defined]
        return delegate

    def __repr__(self) -> str:
        return f"SubagentTool({self.name!r}, {len(self.runs)} runs, max_steps={self.agent.max_steps})"


def subagent_tool(agent: Agent, name: str, description: str, **options: Any) -> Callable[[str], str]:
    """The plain function to ``registry.add``; its ``.subagent`` is the ``SubagentTool`` (with ``runs``)."""
    return SubagentTool(agent, name, description, **options).function
