"""The exception tree. Who can fix the problem decides the type.

    MingraphError
     ├── ToolArgsError        the model's tool call was wrong: goes back to the model as the tool's answer
     ├── StepLimitReached     no answer after max_steps model calls
     ├── ScriptExhausted      a ScriptedLLM/ReplayLLM was asked for more replies than it holds
     ├── ReplayError          a trace cannot be read or replayed; names the file and line (also a ValueError)
     │    └── ReplayMismatch  a replayed run asked for something other than what was recorded
     ├── LLMUnavailable       a real model could not be reached or refused the request (says what to do)
     └── GraphError
          ├── GraphValidationError   the graph as declared cannot run (also a ValueError, as on LangGraph)
          └── GraphExecutionError    the engine found a bad update or route mid-run (node, completed, state)
              └── GraphStepLimit     max_steps supersteps ran and more were due

A tool's, node's, router's or reducer's own exception propagates unwrapped (a graph run attaches its context:
``graph_context``); a caller's mistake is a plain TypeError/ValueError naming the fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .redaction import redact


class MingraphError(Exception):
    """Base of every error this package raises on purpose."""

    def __str__(self) -> str:
        return redact(super().__str__())


class ToolArgsError(MingraphError):
    """The model wrote a tool call badly; the text tells the model what to fix."""


class StepLimitReached(MingraphError):
    """The model was called ``max_steps`` times without giving an answer."""

    def __init__(self, message: str, *, steps: int | None = None) -> None:
        super().__init__(message)
        self.steps = steps


class ScriptExhausted(MingraphError):
    """A scripted or replayed model ran out of replies."""


class ReplayError(MingraphError, ValueError):
    """A trace cannot be read or replayed; the message names the file and the line."""


class ReplayMismatch(ReplayError):
    """A replayed run diverged from the recording (different messages or tools at some step)."""


class LLMUnavailable(MingraphError):
    """A real model could not be used: no server, no key, or a feature the model lacks."""


class GraphError(MingraphError):
    """Base of the graph engine's errors."""


class GraphValidationError(GraphError, ValueError):
    """The graph as declared cannot run; a ``ValueError``, as LangGraph raises for the same mistakes."""


class GraphExecutionError(GraphError):
    """The engine found a bad update or route mid-run; carries ``node``, ``completed`` and ``state``."""

    def __init__(self, message: str, *, node: str | None = None, completed: tuple[str, ...] = (),
                 state: Any = None) -> None:
        super().__init__(message)
        self.node = node
        self.completed = tuple(completed)
        self.state = state


class GraphStepLimit(GraphExecutionError):
    """The graph ran ``max_steps`` supersteps and more were due (LangGraph: ``GraphRecursionError``)."""


@dataclass(frozen=True)
class GraphContext:
    """Where a graph run failed: the node, the nodes completed before it, the last good state."""

    node: str | None
    completed: tuple[str, ...]
    state: Any


def graph_context(exc: BaseException) -> GraphContext | None:
    """The graph context the engine attached to ``exc``, or None if it did not come from a graph run."""
    if not hasattr(exc, "completed") or not hasattr(exc, "node"):
        return None
    return GraphContext(exc.node, tuple(exc.completed), getattr(exc, "state", None))
