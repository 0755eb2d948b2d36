"""Listeners hear what a run announces and cannot change it.

One method per announcement, each a no-op until a listener overrides it; a run calls them through
one announcer that isolates each listener (``announce.py``). ``event_dict`` turns an announcement
into plain JSON-ready data: the recorder, the trace file and the widgets share its one spelling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:
    from ..llms.base import LLMResponse
    from ..messages import Message, ToolCall, ToolMessage

#: Every hook, in the order a run can announce them; the event name is the hook minus ``on_``.
HOOKS = ("on_run_start", "on_step_start", "on_model_reply", "on_tool_call", "on_tool_return",
         "on_tool_error", "on_finish", "on_node_start", "on_node_end")


class Observer:
    """A listener. Override the hooks you care about; the rest do nothing."""

    def on_run_start(self, messages: Sequence[Message]) -> None:
        """A run begins; ``messages`` are what the first model call will read."""

    def on_step_start(self, step: int) -> None:
        """Model call number ``step`` (1-based) is about to happen."""

    def on_model_reply(self, response: LLMResponse) -> None:
        """The model replied; the whole envelope, tokens and thinking included."""

    def on_tool_call(self, call: ToolCall) -> None:
        """A tool call is about to be run."""

    def on_tool_return(self, result: ToolMessage) -> None:
        """A tool call was answered (also when the answer is an error the model can fix)."""

    def on_tool_error(self, call: ToolCall, error: BaseException) -> None:
        """A tool failed in a way the model cannot fix; the run stops after this."""

    def on_finish(self, answer: str | None, reason: str) -> None:
        """The run ended: ``reason`` is "answered", "step limit", "tool failed", or a graph's own."""

    def on_node_start(self, node: str, state: Mapping[str, Any], superstep: int | None = None) -> None:
        """A graph node is about to run on (a copy of) ``state``, in ``superstep`` (1-based)."""

    def on_node_end(self, node: str, update: Mapping[str, Any] | None, superstep: int | None = None) -> None:
        """A graph node returned ``update`` (None: no change); it merges when its ``superstep`` ends."""


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


def event_dict(hook: str, *args: Any) -> dict[str, Any]:
    """Turn an announcement (``hook`` name and its arguments) into a flat JSON-ready dict."""
    if hook not in HOOKS:
        raise ValueError(f"unknown hook {hook!r}; expected one of {HOOKS}")
    name = hook.removeprefix("on_")
    if hook == "on_run_start":
        return {"event": name, "messages": [m.to_dict() for m in args[0]]}
    if hook == "on_step_start":
        return {"event": name, "step": args[0]}
    if hook == "on_tool_error":
        call, error = args
        return {"event": name, "call": call.to_dict(), "error_type": type(error).__name__, "error": str(error)}
    if hook == "on_finish":
        return {"event": name, "answer": args[0], "reason": args[1]}
    if hook in ("on_node_start", "on_node_end"):
        superstep = {"superstep": args[2]} if len(args) > 2 and args[2] is not None else {}
        return {"event": name, "node": args[0], ("state" if hook == "on_node_start" else "update"): _jsonable(args[1]),
                **superstep}
    return {"event": name, **args[0].to_dict()}  # one value that knows its own dict: a reply, call or answer


class RecordingObserver(Observer):
    """Hears every hook, turns it into an event dict and hands it to ``record``.

    Each event also carries ``run`` (1-based per listener) and the current model ``step``.
    Subclasses write ``record``.
    """

    def __init__(self) -> None:
        self._run = 0
        self._step: int | None = None

    def record(self, event: dict[str, Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _event(self, hook: str, *args: Any) -> dict[str, Any]:
        return event_dict(hook, *args)

    def _hear(self, hook: str, *args: Any) -> None:
        if hook == "on_run_start":
            self._run, self._step = self._run + 1, None
        elif hook == "on_step_start":
            self._step = args[0]
        self.record({"run": max(self._run, 1), "step": self._step, **self._event(hook, *args)})


def _hearing(hook: str):
    def hear(self: RecordingObserver, *args: Any) -> None:
        self._hear(hook, *args)
    hear.__name__ = hook
    return hear


for _hook in HOOKS:  # every hook, written once: a hook added to HOOKS is heard with no other change
    setattr(RecordingObserver, _hook, _hearing(_hook))
