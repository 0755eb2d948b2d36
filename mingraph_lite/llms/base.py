"""What every model adapter promises: a ``name`` and ``generate(messages, tools) -> LLMResponse``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol, runtime_checkable

from ..messages import AssistantMessage, Message, ToolCall, message_from_dict
from ..wire import parse_arguments, quote


@dataclass(frozen=True)
class LLMResponse:
    """One model reply: the ``message`` joins the conversation, the rest is for listeners (None = not reported)."""

    message: AssistantMessage
    input_tokens: int | None = None
    output_tokens: int | None = None
    reasoning: str | None = None
    reasoning_tokens: int | None = None
    model: str | None = None  # who answered; a scripted reply says "scripted"

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)} | {"message": self.message.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LLMResponse:
        message = message_from_dict({**data["message"], "role": "assistant"})
        return cls(message, **{f.name: data.get(f.name) for f in fields(cls)[1:]})  # type: ignore[arg-type]


@runtime_checkable
class LLM(Protocol):
    """What callers rely on: ``generate``, and a ``name`` (for an adapter, its spec, e.g. ``"ollama:qwen3:0.6b"``)."""

    @property
    def name(self) -> str: ...

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        """Reply to ``messages`` given ``tools`` (JSON-schema function specs, as providers take them)."""
        ...


def wire_call(call_id: Any, name: Any, arguments: Any) -> ToolCall:
    """One tool call as a provider sent it, whatever is in it: bad arguments stay for the registry to answer."""
    return ToolCall(id=call_id if isinstance(call_id, str) else str(call_id),
                    name=name if isinstance(name, str) else quote(name), arguments=parse_arguments(arguments))
