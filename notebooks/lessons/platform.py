"""Notebook 04's helpers: catch the announcer's warnings as short lines, draw the platform, and print hooks and
events as short tables.

``listener_warnings`` exists because a broken listener's warning carries a traceback full of
machine-specific paths; a lesson wants to count and read those warnings, not scroll through them.
``draw_platform`` draws the announcer and whoever is listening, from the listeners' own classes:
an arrow for each announcement a listener overrides, so "one method per announcement" is visible.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import csv
import dataclasses
import inspect
import time
from datetime import datetime
from pathlib import Path

from mingraph_lite import AssistantMessage, LLMResponse, ToolCall, ToolMessage
from mingraph_lite.observers.base import HOOKS, Observer

_ANNOUNCER = "mingraph_lite.observers.announce"
_AGENT_HOOKS = tuple(h for h in HOOKS if not h.startswith("on_node"))  # node hooks belong to graph runs


class _Collect(logging.Handler):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args if isinstance(record.args, tuple) else ()
        if len(args) >= 2:
            self.lines.append(f"{type(args[0]).__name__} failed in {args[1]}, skipped")
        else:  # a redacted record keeps only its text: show its first clause
            self.lines.append(record.getMessage().split(";")[0])


@contextmanager
def listener_warnings() -> Iterator[list[str]]:
    """Collect the announcer's warnings (one short line each) instead of printing them with tracebacks."""
    log = logging.getLogger(_ANNOUNCER)
    lines: list[str] = []
    handler, propagate = _Collect(lines), log.propagate
    log.addHandler(handler)
    log.propagate = False
    try:
        yield lines
    finally:
        log.removeHandler(handler)
        log.propagate = propagate


def heard_hooks(listener: Any) -> list[str]:
    """The agent announcements a listener does something with (it overrides the no-op, or has the method)."""
    own = []
    for hook in _AGENT_HOOKS:
        method = getattr(type(listener), hook, None)
        if method is not None and method is not getattr(Observer, hook, None):
            own.append(hook)
    return own


def draw_platform(listeners: Sequence[Any], *, broken: Sequence[Any] = (), title: str | None = None):
    """The announcer (left, one row per announcement) and each listener (right), with an arrow for
    every announcement the listener overrides. Listeners in ``broken`` are drawn in red: they raise,
    the announcer catches it, and the run goes on. Returns the matplotlib Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    fig, ax = plt.subplots(figsize=(9, 4.6))
    ax.set_axis_off()
    ax.set_xlim(0, 10)
    rows = len(_AGENT_HOOKS)
    ax.set_ylim(-0.8, rows + 0.6)
    ax.add_patch(FancyBboxPatch((0.2, -0.3), 2.9, rows + 0.2, boxstyle="round,pad=0.1", fc="#f3eefa",
                                ec="#6a3d9a"))
    ax.text(1.65, rows + 0.25, "the announcer (the agent's loop)", ha="center", fontsize=9, weight="bold")
    hook_y = {hook: rows - 1 - i + 0.2 for i, hook in enumerate(_AGENT_HOOKS)}
    for hook, y in hook_y.items():
        ax.text(0.4, y, hook, va="center", fontsize=9, family="monospace")
    gap = (rows + 0.4) / max(len(listeners), 1)
    for i, listener in enumerate(listeners):
        y = rows - 0.3 - (i + 0.5) * gap
        bad = any(listener is b for b in broken)
        colour = "#c62828" if bad else "#2e7d32"
        ax.add_patch(FancyBboxPatch((6.6, y - 0.3), 3.1, 0.6, boxstyle="round,pad=0.08", fc="white", ec=colour))
        name = type(listener).__name__
        ax.text(8.15, y + 0.06, name, ha="center", va="center", fontsize=9, weight="bold", color=colour)
        hooks = heard_hooks(listener)
        note = "raises: caught, the run goes on" if bad else f"hears {len(hooks)} of {rows} announcements"
        ax.text(8.15, y - 0.17, note, ha="center", va="center", fontsize=7, color="#555555")
        for hook in hooks:
            ax.annotate("", xy=(6.55, y), xytext=(3.2, hook_y[hook]),
                        arrowprops={"arrowstyle": "->", "color": colour, "alpha": 0.55, "lw": 1})
    ax.text(5, -0.65, "arrows: the announcements each listener overrides; every other one is a no-op",
            ha="center", fontsize=8, color="#555555")
    ax.set_title(title or "the platform: one announcer, listeners it does not know", fontsize=11)
    return fig


class SlowManager:
    """A scripted manager that waits ``seconds`` before each reply, like a real one, so a live widget can be watched."""

    def __init__(self, llm: Any, seconds: float) -> None:
        self.llm, self.seconds = llm, seconds

    def generate(self, messages: Any, tools: Any) -> Any:
        time.sleep(self.seconds)
        return self.llm.generate(messages, tools)


def show_hooks() -> None:
    """Print every announcement of ``HOOKS`` with its arguments and the first line of its docstring, then the
    fields of the objects the hooks hand a listener (an LLMResponse's message is an AssistantMessage)."""
    for hook in HOOKS:
        method = getattr(Observer, hook)
        arguments = str(inspect.signature(method)).replace("(self, ", "(").replace("(self)", "()").replace("'", "")
        print(f"{hook}{arguments}\n    {method.__doc__.splitlines()[0]}")
    print("\nthe fields of what they hand you:")
    for kind in (ToolCall, ToolMessage, LLMResponse, AssistantMessage):
        print(f"{kind.__name__}({', '.join(field.name for field in dataclasses.fields(kind))})")


def recorded_outcome(trace: Path) -> dict[str, str]:
    """Print a traced run's answer (its start) and whether the experiment's results.csv, two folders above the
    trace, records it right or wrong (not which wrong case: notebook 05 asks for that); return that row."""
    with open(trace.parent.parent / "results.csv", encoding="utf-8") as results:
        row = next(row for row in csv.DictReader(results) if row["trace"] == f"traces/{trace.name}")
    verdict = "right" if row["outcome"] == "right" else "wrong (which case and line: notebook 05 asks you)"
    print(f"answer: {row['answer'][:40]!r} ...\nrecorded in results.csv as: {verdict}")
    return row


def _detail(e: dict[str, Any]) -> str:
    """What a reader wants from one recorded event, in a few words."""
    if e["event"] == "model_reply":
        slips = [c["name"] for c in e["message"]["tool_calls"]]
        return f"asks for {', '.join(slips)}" if slips else repr(e["message"]["content"])
    if e["event"] == "tool_call":
        return f"{e['name']} {e['arguments']}"
    if e["event"] == "tool_return":
        return f"{e['name']} -> {e['content']!r}" + ("  (an error answer slip)" if e.get("is_error") else "")
    if e["event"] == "tool_error":
        return f"{e['call']['name']} raised {e['error_type']}: {e['error']}"
    if e["event"] == "finish":
        return f"{e['reason']}: {e['answer']!r}"
    return ""


def show_events(events: Sequence[dict[str, Any]]) -> None:
    """Print an ``EventRecorder``'s events as a table: step, event, and a few words of its fields."""
    print(f"{'step':>4}  {'event':12}  detail")
    for e in events:
        print(f"{e['step'] or '-':>4}  {e['event']:12}  {_detail(e)}")


__all__ = ["SlowManager", "draw_platform", "heard_hooks", "listener_warnings", "recorded_outcome", "show_events",
           "show_hooks"]


def call_waits(events: Sequence[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """Seconds from each line to the next ``model_reply`` (the model at work) and ``tool_return`` (a tool), by ``ts``."""

    def seconds(a: dict[str, Any], b: dict[str, Any]) -> float:
        return (datetime.fromisoformat(b["ts"]) - datetime.fromisoformat(a["ts"])).total_seconds()

    pairs = list(zip(events, events[1:]))
    return ([seconds(a, b) for a, b in pairs if b["event"] == "model_reply"],
            [seconds(a, b) for a, b in pairs if b["event"] == "tool_return"])


def show_waits(events: Sequence[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """Print the model and how long its calls and the tools took (``call_waits``); return both lists."""
    model_waits, tool_waits = call_waits(events)
    model = next(e["model"] for e in events if e["event"] == "model_reply")
    print(f"model: {model} | model calls: {len(model_waits)}, each took {min(model_waits):.1f} s to "
          f"{max(model_waits):.1f} s; tool calls: {len(tool_waits)}, the slowest took {max(tool_waits) * 1e6:.0f} µs")
    return model_waits, tool_waits
