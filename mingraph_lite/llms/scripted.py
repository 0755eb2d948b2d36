"""A scripted model: replies written in advance, for teaching and tests; it reports no token counts."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..errors import ScriptExhausted
from ..messages import AssistantMessage, Message, ToolCall
from .base import LLMResponse

SCRIPTED = "scripted"


def scripted_calls(items: Sequence[Any], step: int) -> tuple[ToolCall, ...]:
    """The tool calls of scripted reply ``step``; a ``(name, arguments)`` pair gets the id ``call_STEP_N``."""
    calls = []
    for index, item in enumerate(items, 1):
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            item = ToolCall(id=f"call_{step}_{index}", name=item[0], arguments=item[1])
        if not isinstance(item, ToolCall):
            raise TypeError(f"a scripted tool call must be a ToolCall or a (name, arguments) tuple, got {item!r}")
        calls.append(item)
    return tuple(calls)


def _to_response(reply: Any, step: int) -> LLMResponse:
    if isinstance(reply, LLMResponse):
        return reply
    if isinstance(reply, (str, AssistantMessage)):
        return LLMResponse(AssistantMessage(reply) if isinstance(reply, str) else reply, model=SCRIPTED)
    if isinstance(reply, (list, tuple)):
        if not reply:
            raise ValueError("a scripted reply with no tool calls should be a final-answer string")
        return LLMResponse(AssistantMessage("", tool_calls=scripted_calls(reply, step)), model=SCRIPTED)
    raise TypeError(f"cannot script a reply from {type(reply).__name__}: use a str, a list of tool calls, "
                    "an LLMResponse or a callable(messages, tools)")


def word_count(messages: Sequence[Message], reply: AssistantMessage) -> tuple[int, int]:
    """Token counts by a stated rule, not a tokenizer: one per whitespace-separated word, tool calls
    included, as (words of every message read, words of the reply)."""

    def words(m: Message) -> int:
        calls = getattr(m, "tool_calls", ())
        return len(m.content.split()) + sum(len(f"{c.name} {c.arguments}".split()) for c in calls)

    return sum(words(m) for m in messages), words(reply)


class ScriptedLLM:
    """Replies from a script, in order: an answer, a list of tool calls, an ``LLMResponse``, or a function of
    (messages, tools) returning one; what it was read is kept in ``.calls``."""

    def __init__(self, replies: Iterable[Any], *, name: str = SCRIPTED,
                 count_tokens: Callable[[Sequence[Message], AssistantMessage], tuple[int, int]] | None = None
                 ) -> None:
        self._replies = list(replies)
        self.name = name
        self.count_tokens = count_tokens
        self.calls: list[tuple[list[Message], list[Mapping[str, Any]]]] = []

    @property
    def remaining(self) -> int:
        return len(self._replies) - len(self.calls)

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        step = len(self.calls) + 1
        if step > len(self._replies):
            raise ScriptExhausted(f"the script has {len(self._replies)} replies and call {step} asked for another")
        self.calls.append((list(messages), list(tools)))
        reply = self._replies[step - 1]
        if callable(reply) and not isinstance(reply, LLMResponse):
            reply = reply(list(messages), list(tools))
        response = _to_response(reply, step)
        if self.count_tokens is not None:
            tokens_in, tokens_out = self.count_tokens(messages, response.message)
            response = replace(response, input_tokens=tokens_in, output_tokens=tokens_out,
                               model=f"{response.model} (tokens counted as words)")
        return response

    def __repr__(self) -> str:
        return f"ScriptedLLM({len(self._replies)} replies, {len(self.calls)} used, scripted)"
