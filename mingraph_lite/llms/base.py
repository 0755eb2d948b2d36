"""What every model adapter promises: ``generate(messages, tools) -> LLMResponse``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..messages import AssistantMessage, Message, message_from_dict


@dataclass(frozen=True)
class LLMResponse:
    """The envelope around one model reply.

    ``message`` goes into the folder. Everything else stays on the envelope, where listeners can
    read it, and is never re-sent to the model: thinking text runs to hundreds of tokens per call.
    ``None`` in a count or in ``reasoning`` means "the provider did not report it", never an estimate.
    ``model`` names who answered; a scripted reply says ``"scripted"``.
    """

    message: AssistantMessage
    input_tokens: int | None = None
    output_tokens: int | None = None
    reasoning: str | None = None
    reasoning_tokens: int | None = None
    model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message.to_dict(), "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens, "reasoning": self.reasoning,
                "reasoning_tokens": self.reasoning_tokens, "model": self.model}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LLMResponse:
        message = message_from_dict({**data["message"], "role": "assistant"})
        return cls(message=message, input_tokens=data.get("input_tokens"),  # type: ignore[arg-type]
                   output_tokens=data.get("output_tokens"), reasoning=data.get("reasoning"),
                   reasoning_tokens=data.get("reasoning_tokens"), model=data.get("model"))


@runtime_checkable
class LLM(Protocol):
    """What every model keeps: a ``name`` that says who answers, and ``generate``.

    Callers rely on nothing else: an agent calls ``generate``; a report or a console line shows
    ``name`` (``"scripted: four rounds"``, ``"ollama:qwen3:0.6b"``). A plain attribute or a
    property both satisfy ``name``.
    """

    @property
    def name(self) -> str:
        """Who answers, as a reader should see it; a scripted or replayed model says so."""
        ...

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        """Reply to ``messages`` given ``tools`` (JSON-schema function specs, as providers take them)."""
        ...
