"""Listeners hear what a run announces and cannot change it; ``event_dict`` is the one spelling of an event."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..redaction import redact

if TYPE_CHECKING:
    from ..llms.base import LLMResponse
    from ..messages import Message, ToolCall, ToolMessage

#: Every hook, in the order a run can announce them; the event name is the hook minus ``on_``.
HOOKS = ("on_run_start", "on_step_start", "on_model_reply", "on_tool_call", "on_tool_return",
         "on_tool_error", "on_finish", "on_node_start", "on_node_end", "on_memory_call")
MAX_DEPTH = 100
_CUT = f"<cut: nested deeper than {MAX_DEPTH} levels>"
_SURROGATE = re.compile("[\ud800-\udfff]")


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
        """A tool call got its answer: every call gets one, errors and calls never run included."""

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


def safe_json(value: Any, secrets: tuple[str, ...] | None = None, depth: int = 0) -> Any:
    """``value`` as plain JSON data, with ``secrets`` redacted unless None; it cannot fail."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = str.__str__(value)
        if not text.isascii():  # only non-ASCII text can hold a lone surrogate
            text = _SURROGATE.sub("\ufffd", text)
        return text if secrets is None else redact(text, secrets)
    if isinstance(value, int):
        try:
            int.__repr__(value)
        except ValueError:  # more digits than Python will print in decimal
            return hex(value)
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else repr(float(value))
    if depth >= MAX_DEPTH:
        return _CUT
    try:
        return _container(value, secrets, depth + 1)
    except Exception as exc:  # an object whose to_dict/items/repr raises
        return f"<unprintable {type(value).__name__}: {type(exc).__name__}>"


def _container(value: Any, secrets: tuple[str, ...] | None, depth: int) -> Any:
    if hasattr(value, "to_dict") and not isinstance(value, type):
        return safe_json(value.to_dict(), secrets, depth)
    if isinstance(value, Mapping):
        return {safe_json(k if isinstance(k, str) else repr(k), secrets): safe_json(v, secrets, depth)
                for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [safe_json(v, secrets, depth) for v in value]
    return safe_json(repr(value), secrets)


def shorten(text: Any, width: int, end: str = "…") -> str:
    """``text`` on one line, cut to ``width`` characters ending in ``end``."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - len(end)] + end


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
        return {"event": name, "node": args[0], ("state" if hook == "on_node_start" else "update"): safe_json(args[1]),
                **superstep}
    return {"event": name, **args[0].to_dict()}  # one value that knows its own dict: a reply, call or answer


class RecordingObserver(Observer):
    """Hears every hook and hands ``record`` its event dict, with ``run`` (1-based) and the model ``step``."""

    def __init__(self) -> None:
        self._runs = 0  # runs started so far; ``_run`` is the one events belong to now
        self._run, self._step = 0, None
        self._outer: list[tuple[int, int | None]] = []  # runs that another run started inside, innermost last
        self._finished = True

    def record(self, event: dict[str, Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _event(self, hook: str, *args: Any) -> dict[str, Any]:
        return event_dict(hook, *args)

    def _hear(self, hook: str, *args: Any) -> None:
        if hook == "on_run_start":
            if self._run and not self._finished:  # a run inside a run (an agent in a graph node)
                self._outer.append((self._run, self._step))
            self._runs += 1
            self._run, self._step, self._finished = self._runs, None, False
        elif hook == "on_step_start":
            self._step = args[0]
        event = {"run": max(self._run, 1), "step": self._step, **self._event(hook, *args)}
        if hook == "on_finish":  # the run around it, if any, goes on: its later events are its own again
            self._finished = not self._outer
            if self._outer:
                self._run, self._step = self._outer.pop()
        self.record(event)


for _hook in HOOKS:  # every hook, written once: a hook added to HOOKS is heard with no other change
    setattr(RecordingObserver, _hook, lambda self, *args, _hook=_hook: self._hear(_hook, *args))
