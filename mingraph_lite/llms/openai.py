"""A model behind the OpenAI API (or a compatible server); Chat Completions never returns reasoning text."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms import guard
from mingraph_lite.llms.base import LLMResponse, wire_call
from mingraph_lite.messages import AssistantMessage, Message, ToolMessage
from mingraph_lite.wire import arguments_text, parse_arguments

KEY_VAR = "OPENAI_API_KEY"
TIMEOUT, TIMEOUT_VAR = 120.0, "MINGRAPH_TIMEOUT"  # seconds a request may take: a busy class server is slow, not mute


def to_openai_messages(messages: Sequence[Message], *, objects_only: bool = False) -> list[dict[str, Any]]:
    """The messages in the Chat Completions spelling (arguments as JSON text). With ``objects_only``, unparsed arguments
    travel as ``{"_unparsed": text}``: llama.cpp's server refuses broken JSON (HTTP 500); OpenAI takes it as written."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, AssistantMessage) and m.tool_calls:
            out.append({"role": "assistant", "content": m.content or None, "tool_calls": [
                {"id": c.id, "type": "function",
                 "function": {"name": c.name, "arguments": _arguments(c.arguments, objects_only)}}
                for c in m.tool_calls]})
        elif isinstance(m, ToolMessage):
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content})
        else:
            out.append({"role": m.role, "content": m.content})
    return out


def _arguments(arguments: Any, objects_only: bool) -> str:
    text = arguments_text(arguments)
    if not objects_only:
        return text
    parsed = parse_arguments(text)  # "" reads as {}: an object once written out again
    try:  # strict JSON: Python reads and writes NaN and Infinity, llama.cpp refuses them
        return json.dumps(parsed if isinstance(parsed, dict) else {"_unparsed": text}, allow_nan=False)
    except ValueError:
        return json.dumps({"_unparsed": text})


def _is_openai(client: Any) -> bool:
    """OpenAI itself, not a compatible server (llama.cpp, a class's ``serve``) reached through ``base_url``."""
    return getattr(getattr(client, "base_url", None), "host", "api.openai.com") == "api.openai.com"


def _seconds(raw: str) -> float:
    try:
        return float(raw) if raw else TIMEOUT
    except ValueError:
        raise ValueError(f"{TIMEOUT_VAR}={raw!r} is not a number of seconds") from None


class OpenAILLM:
    """``OpenAILLM("gpt-5-mini", reasoning_effort="low")``; the key comes from ``OPENAI_API_KEY``.
    ``temperature`` and ``seed`` are sent only when given: some hosted models accept only their default.
    Each request waits at most ``timeout`` seconds (default ``$MINGRAPH_TIMEOUT``, else 120), then fails in words."""

    def __init__(self, model: str, *, reasoning_effort: str | None = None, temperature: float | None = None,
                 seed: int | None = None, client: Any = None, timeout: float | None = None) -> None:
        self.model, self.timeout = model, timeout or _seconds(os.environ.get(TIMEOUT_VAR, "").strip())
        self.reasoning_effort, self.temperature, self.seed = reasoning_effort, temperature, seed
        self._client, self._own_client = client, client is None

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    def __repr__(self) -> str:
        return (f"OpenAILLM({self.model!r}, reasoning_effort={self.reasoning_effort!r}, "
                f"temperature={self.temperature!r}, seed={self.seed!r})")

    def _get_client(self) -> Any:
        if self._own_client:  # a client handed in is the caller's business (how the tests answer)
            guard.check("OpenAI")
            if self._client is None and not os.environ.get(KEY_VAR):
                raise LLMUnavailable(f"{KEY_VAR} is not set: export {KEY_VAR}=sk-... "
                                     f"(or pass client=openai.OpenAI(api_key=...))")
            if self._client is None:  # a shared class server is busy, not flaky: a retry only adds to its queue
                retries = 0 if os.environ.get("OPENAI_BASE_URL") else 2
                self._client = guard.client_library("openai", "openai").OpenAI(max_retries=retries)
        return self._client

    def _options(self, tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        options = {"tools": list(tools) or None,  # the API rejects an empty tools list
                   "reasoning_effort": self.reasoning_effort, "temperature": self.temperature, "seed": self.seed}
        return {key: value for key, value in options.items() if value is not None}

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        client = self._get_client()
        openai = guard.client_library("openai", "openai")
        try:
            wire = to_openai_messages(messages, objects_only=not _is_openai(client))
            reply = client.chat.completions.create(model=self.model, messages=wire, timeout=self.timeout,
                                                   **self._options(tools))
        except openai.APITimeoutError as exc:
            server = getattr(client, "base_url", "the server")
            raise LLMUnavailable(f"{server} did not answer within {self.timeout:g} s: the server is busy or stuck; "
                                 f"try again, or give it longer: export {TIMEOUT_VAR}=300") from exc
        except openai.AuthenticationError as exc:
            raise LLMUnavailable(f"OpenAI refused the key: check {KEY_VAR} ({exc})") from exc
        except openai.APIConnectionError as exc:
            raise LLMUnavailable(f"cannot reach the OpenAI API ({exc}): check the network or base_url") from exc
        except openai.BadRequestError as exc:
            self._raise_known(exc)
            raise
        except openai.NotFoundError as exc:
            raise LLMUnavailable(f"OpenAI has no model {self.model!r} for this key ({exc})") from exc
        msg = reply.choices[0].message
        calls = tuple(wire_call(c.id, c.function.name, c.function.arguments or "") for c in (msg.tool_calls or ()))
        usage = reply.usage
        details = getattr(usage, "completion_tokens_details", None)
        return LLMResponse(message=AssistantMessage(content=msg.content or "", tool_calls=calls),
                           input_tokens=usage.prompt_tokens if usage else None,
                           output_tokens=usage.completion_tokens if usage else None,
                           reasoning_tokens=getattr(details, "reasoning_tokens", None),
                           model=reply.model or self.model)

    def _raise_known(self, exc: Exception) -> None:
        """An ``LLMUnavailable`` saying what to do when the model refuses a setting we sent."""
        for setting in ("reasoning_effort", "temperature", "seed"):
            if getattr(self, setting) is not None and setting.split("_")[0] in str(exc).lower():
                raise LLMUnavailable(f"OpenAI model {self.model!r} refuses {setting}={getattr(self, setting)!r}: "
                                     f"pass {setting}=None (the model's default) or a value it accepts ({exc})"
                                     ) from exc
