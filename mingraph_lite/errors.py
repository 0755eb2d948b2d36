"""The exception tree. Who can fix the problem decides the type.

    MingraphError
     ├── ToolArgsError        the model's slip was wrong: goes back to the model as the tool's answer
     ├── StepLimitReached     no answer after max_steps model calls
     ├── ScriptExhausted      a ScriptedLLM/ReplayLLM was asked for more replies than it holds
     │    └── ReplayMismatch  a replayed run asked for something other than what was recorded
     ├── ReplayError          a trace cannot be read or replayed; names the file and line (also a ValueError)
     ├── LLMUnavailable       a real model could not be reached or refused the request (says what to do)
     └── GraphError
          ├── GraphValidationError   the graph as declared cannot run
          └── GraphExecutionError    a node, router or reducer failed mid-run; carries what was completed
              └── GraphStepLimit     the scheduler bound was reached

A failing tool's own exception is not wrapped: it propagates unchanged, after its slip is answered.
A programming mistake by the caller is a plain TypeError/ValueError whose message names the fix.
No message of these errors shows a secret: ``str()`` passes it through ``redaction.redact``.
"""

from __future__ import annotations

from typing import Any

from .redaction import redact


class MingraphError(Exception):
    """Base of every error this package raises on purpose."""

    def __str__(self) -> str:
        # Tracebacks, logs and the CLI all print str(error): one place keeps keys out of all of them.
        return redact(super().__str__())


class ToolArgsError(MingraphError):
    """The model filled in a slip badly; the text tells the model what to fix."""


class StepLimitReached(MingraphError):
    """The model was called ``max_steps`` times without giving an answer."""

    def __init__(self, message: str, *, steps: int | None = None) -> None:
        super().__init__(message)
        self.steps = steps


class ScriptExhausted(MingraphError):
    """A scripted or replayed model ran out of replies."""


class ReplayMismatch(ScriptExhausted):
    """A replayed run diverged from the recording (a different folder or menu at some step)."""


class ReplayError(MingraphError, ValueError):
    """A trace cannot be read or replayed: torn beyond use, malformed, or another format version.

    The message names the file and the line. It is also a ``ValueError``, as any bad input is.
    """


class LLMUnavailable(MingraphError):
    """A real model could not be used: no server, no key, or a feature the model lacks."""


class GraphError(MingraphError):
    """Base of the graph engine's errors."""


class GraphValidationError(GraphError):
    """The graph as declared cannot run; raised by ``compile()`` before anything runs."""


class GraphExecutionError(GraphError):
    """A node, router or reducer failed mid-run.

    Carries ``node`` (where it failed), ``completed`` (the nodes that finished, in order),
    ``state`` (the last state that was merged successfully) and ``cause``.
    """

    def __init__(self, message: str, *, node: str | None = None, completed: tuple[str, ...] = (),
                 state: Any = None, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.node = node
        self.completed = tuple(completed)
        self.state = state
        self.cause = cause


class GraphStepLimit(GraphExecutionError):
    """The graph executed ``max_steps`` nodes without reaching END."""
