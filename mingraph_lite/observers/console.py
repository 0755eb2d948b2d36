"""ConsoleLogger: the step-by-step print of a run, for a person reading along; every line is redacted."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from ..redaction import redact
from .base import Observer, shorten


def _n(value: int | None) -> str:
    return "?" if value is None else str(value)  # "?" = not reported, never a guess


def _superstep(number: int | None) -> str:
    return "" if number is None else f" (superstep {number})"


class ConsoleLogger(Observer):
    """Prints each step; ``stream`` is ``sys.stdout`` at print time, so notebooks capture it."""

    def __init__(self, stream: TextIO | None = None, *, width: int = 100, show_state: bool = False) -> None:
        self._stream, self.width, self.show_state = stream, width, show_state
        self.closed = False  # set when the reader went away; nothing more is printed

    def _short(self, text: Any) -> str:
        return shorten(text, self.width, "...")

    def _print(self, text: str) -> None:
        if self.closed:
            return
        try:
            print(redact(text), file=self._stream or sys.stdout)
        except BrokenPipeError:  # the reader went away (`demo | head -1`): stop printing, the run goes on
            self.closed = True

    def on_step_start(self, step: int) -> None:
        self._print(f"[step {step}]")

    def on_model_reply(self, response) -> None:
        message = response.message
        if message.tool_calls:
            said = f"(asks for {', '.join(c.name for c in message.tool_calls)})"
        else:
            said = repr(self._short(message.content))
        tokens = (f"tokens in={_n(response.input_tokens)} out={_n(response.output_tokens)} "
                  f"thinking={_n(response.reasoning_tokens)}")
        who = f"   [{response.model}]" if response.model else ""
        self._print(f"  reply: {said}   {tokens}{who}")
        if response.reasoning:
            self._print(f"  thinking: {self._short(response.reasoning)}")

    def on_tool_call(self, call) -> None:
        self._print(f"  call {call.name} {call.arguments}")

    def on_tool_return(self, result) -> None:
        self._print(f"  returned: {self._short(result.content)}")

    def on_tool_error(self, call, error: BaseException) -> None:
        self._print(f"  tool failed: {call.name}: {type(error).__name__}: {error}")

    def on_finish(self, answer: str | None, reason: str) -> None:
        tail = "" if answer is None else " " + repr(self._short(answer))
        self._print(f"[finish: {reason}]{tail}")

    def on_node_start(self, node: str, state: Any, superstep: int | None = None) -> None:
        shown = f" state={self._short(repr(dict(state)))}" if self.show_state else ""
        self._print(f"[node {node}]{_superstep(superstep)}{shown}")

    def on_node_end(self, node: str, update: Any, superstep: int | None = None) -> None:
        changed = "no change" if update is None else self._short(repr(dict(update)))
        self._print(f"  update{_superstep(superstep)}: {changed}")
