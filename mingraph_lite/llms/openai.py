"""A model behind the OpenAI API, through the official ``openai`` client (imported when first built).

Chat Completions reports how many tokens the model spent reasoning
(``usage.completion_tokens_details.reasoning_tokens``) but never the reasoning text, so
``LLMResponse.reasoning`` stays ``None`` here: not reported is not the same as empty.
The wire spelling of messages lives here too: the local model speaks the same dialect.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms import guard
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.messages import AssistantMessage, Message, ToolCall, ToolMessage
from mingraph_lite.wire import arguments_text, parse_arguments, quote

KEY_VAR = "OPENAI_API_KEY"


def _import_openai() -> Any:
    try:
        import openai
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise LLMUnavailable("OpenAILLM needs the openai client: pip install 'mingraph-lite[openai]'") from exc
    return openai


def to_openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Our folder in the Chat Completions spelling (arguments travel as JSON text)."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, AssistantMessage) and m.tool_calls:
            out.append({"role": "assistant", "content": m.content or None, "tool_calls": [
                {"id": c.id, "type": "function",
                 "function": {"name": c.name, "arguments": arguments_text(c.arguments)}}
                for c in m.tool_calls]})
        elif isinstance(m, ToolMessage):
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content})
        else:
            out.append({"role": m.role, "content": m.content})
    return out


def parse_tool_call(call_id: Any, name: Any, arguments: Any) -> ToolCall:
    """One slip from the wire, whatever is in it: checked arguments, or what the model sent, kept for the
    registry to answer as the model's mistake (``wire.parse_arguments``), never our crash."""
    return ToolCall(id=call_id if isinstance(call_id, str) else str(call_id), name=name if isinstance(name, str)
                    else quote(name), arguments=parse_arguments("" if arguments is None else arguments))


class OpenAILLM:
    """``OpenAILLM("gpt-5-mini", reasoning_effort="low")``; the key comes from ``OPENAI_API_KEY``."""

    @property
    def name(self) -> str:
        """Who answers, in the same form ``make_llm`` takes: ``openai:MODEL``."""
        return f"openai:{self.model}"

    def __repr__(self) -> str:
        return f"OpenAILLM({self.model!r}, reasoning_effort={self.reasoning_effort!r})"

    def __init__(self, model: str, *, reasoning_effort: str | None = None, client: Any = None) -> None:
        self.model = model
        self.reasoning_effort = reasoning_effort
        self._client = client
        self._own_client = client is None

    def _get_client(self) -> Any:
        if not self._own_client:
            return self._client
        guard.check("OpenAI")
        if self._client is None:
            if not os.environ.get(KEY_VAR):
                raise LLMUnavailable(f"{KEY_VAR} is not set: export {KEY_VAR}=sk-... "
                                     f"(or pass client=openai.OpenAI(api_key=...))")
            self._client = _import_openai().OpenAI()
        return self._client

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        client = self._get_client()
        openai = _import_openai()
        extra: dict[str, Any] = {}
        if tools:  # the API rejects an empty tools list
            extra["tools"] = list(tools)
        if self.reasoning_effort is not None:
            extra["reasoning_effort"] = self.reasoning_effort
        try:
            reply = client.chat.completions.create(model=self.model, messages=to_openai_messages(messages),
                                                   **extra)
        except openai.AuthenticationError as exc:
            raise LLMUnavailable(f"OpenAI refused the key: check {KEY_VAR} ({exc})") from exc
        except openai.APIConnectionError as exc:
            raise LLMUnavailable(f"cannot reach the OpenAI API ({exc}): check the network or base_url"
                                 ) from exc
        except openai.BadRequestError as exc:
            if self.reasoning_effort is not None and "reasoning" in str(exc).lower():
                raise LLMUnavailable(f"OpenAI model {self.model!r} does not take reasoning_effort: use "
                                     f"reasoning_effort=None or a reasoning model such as gpt-5-mini ({exc})"
                                     ) from exc
            raise
        except openai.NotFoundError as exc:
            raise LLMUnavailable(f"OpenAI has no model {self.model!r} for this key ({exc})") from exc
        msg = reply.choices[0].message
        calls = tuple(parse_tool_call(c.id, c.function.name, c.function.arguments)
                      for c in (msg.tool_calls or ()))
        usage = reply.usage
        details = getattr(usage, "completion_tokens_details", None) if usage else None
        return LLMResponse(message=AssistantMessage(content=msg.content or "", tool_calls=calls),
                           input_tokens=usage.prompt_tokens if usage else None,
                           output_tokens=usage.completion_tokens if usage else None,
                           reasoning=None,
                           reasoning_tokens=getattr(details, "reasoning_tokens", None) if details else None,
                           model=reply.model or self.model)
