"""The platform: listeners hear what a run announces and cannot change it.

One method per announcement, each a no-op until a listener overrides it, so a listener that
only cares about tool results writes ``on_tool_return`` and nothing else. A run calls these
through one announcer that isolates each listener (see ``Agent._announce``).

``event_dict`` turns any announcement into plain JSON-ready data. The event recorder, the trace
file and the widgets all use it, so there is one spelling of each event everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:
    from ..llms.base import LLMResponse
    from ..messages import Message, ToolCall, ToolMessage

#: Every hook, in the order a run can announce them; the event name is the hook minus ``on_``.
HOOKS = ("on_run_start", "on_step_start", "on_model_reply", "on_tool_call", "on_tool_return",
         "on_tool_error", "on_finish", "on_node_start", "on_node_end", "on_memory_call")


class Observer:
    """A listener on the platform. Override the hooks you care about; the rest do nothing."""

    def on_run_start(self, messages: Sequence[Message]) -> None:
        """A run begins; ``messages`` is the folder as the first model call will read it."""

    def on_step_start(self, step: int) -> None:
        """Model call number ``step`` (1-based) is about to happen."""

    def on_model_reply(self, response: LLMResponse) -> None:
        """The model replied; the whole envelope, tokens and thinking included."""

    def on_tool_call(self, call: ToolCall) -> None:
        """A slip is about to be run."""

    def on_tool_return(self, result: ToolMessage) -> None:
        """A slip was answered (also when the answer is an error the model can fix)."""

    def on_tool_error(self, call: ToolCall, error: BaseException) -> None:
        """A tool failed in a way the model cannot fix; the run stops after this."""

    def on_finish(self, answer: str | None, reason: str) -> None:
        """The run ended: ``reason`` is "answered", "step limit", "tool failed", or a graph's own."""

    def on_node_start(self, node: str, state: Mapping[str, Any], superstep: int | None = None) -> None:
        """A graph node is about to run on (a copy of) ``state``, in ``superstep`` (1-based)."""

    def on_node_end(self, node: str, update: Mapping[str, Any] | None, superstep: int | None = None) -> None:
        """A graph node returned ``update`` (None: no change); it merges when its ``superstep`` ends."""

    def on_memory_call(self, response: LLMResponse) -> None:
        """The memory called its own model (``Summarise``); not a reply of the run, but its tokens count."""


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    return repr(value)


def _superstep(args: tuple) -> dict[str, Any]:
    return {"superstep": args[2]} if len(args) > 2 and args[2] is not None else {}


def event_dict(hook: str, *args: Any) -> dict[str, Any]:
    """Turn an announcement (``hook`` name and its arguments) into a flat JSON-ready dict."""
    name = hook.removeprefix("on_")
    if hook == "on_run_start":
        return {"event": name, "messages": [m.to_dict() for m in args[0]]}
    if hook == "on_step_start":
        return {"event": name, "step": args[0]}
    if hook in ("on_model_reply", "on_memory_call"):
        return {"event": name, **args[0].to_dict()}
    if hook == "on_tool_call":
        return {"event": name, **args[0].to_dict()}
    if hook == "on_tool_return":
        return {"event": name, **args[0].to_dict()}
    if hook == "on_tool_error":
        call, error = args
        return {"event": name, "call": call.to_dict(), "error_type": type(error).__name__,
                "error": str(error)}
    if hook == "on_finish":
        return {"event": name, "answer": args[0], "reason": args[1]}
    if hook == "on_node_start":
        return {"event": name, "node": args[0], "state": _jsonable(args[1]), **_superstep(args)}
    if hook == "on_node_end":
        return {"event": name, "node": args[0], "update": _jsonable(args[1]), **_superstep(args)}
    raise ValueError(f"unknown hook {hook!r}; expected one of {HOOKS}")


class RecordingObserver(Observer):
    """An Observer that turns every announcement into an event dict and hands it to ``record``.

    It numbers runs (``run``, 1-based per listener) and remembers the current model step, so each
    event carries both. Subclasses only write ``record``.
    """

    def __init__(self) -> None:
        self._run = 0
        self._step: int | None = None

    def record(self, event: dict[str, Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _hear(self, hook: str, *args: Any) -> None:
        if hook == "on_run_start":
            self._run, self._step = self._run + 1, None
        elif hook == "on_step_start":
            self._step = args[0]
        event = event_dict(hook, *args)
        event = {"run": max(self._run, 1), "step": self._step, **event}
        self.record(event)

    def on_run_start(self, messages):
        self._hear("on_run_start", messages)

    def on_step_start(self, step):
        self._hear("on_step_start", step)

    def on_model_reply(self, response):
        self._hear("on_model_reply", response)

    def on_tool_call(self, call):
        self._hear("on_tool_call", call)

    def on_tool_return(self, result):
        self._hear("on_tool_return", result)

    def on_tool_error(self, call, error):
        self._hear("on_tool_error", call, error)

    def on_finish(self, answer, reason):
        self._hear("on_finish", answer, reason)

    def on_node_start(self, node, state, superstep=None):
        self._hear("on_node_start", node, state, superstep)

    def on_node_end(self, node, update, superstep=None):
        self._hear("on_node_end", node, update, superstep)

    def on_memory_call(self, response):
        self._hear("on_memory_call", response)
