"""A model served by Ollama; its tool calls carry no id, so one is made from the messages sent and the call."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms import guard
from mingraph_lite.llms.base import LLMResponse, wire_call
from mingraph_lite.messages import AssistantMessage, Message, ToolMessage
from mingraph_lite.redaction import redact
from mingraph_lite.wire import MAX_DEPTH, arguments_object, call_id, loads, quote

DEFAULT_HOST = "http://localhost:11434"


def to_ollama_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The messages in Ollama's spelling: tool calls without ids, answers named by tool."""
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, AssistantMessage):
            names.update((c.id, c.name) for c in m.tool_calls)
            calls = [{"function": {"name": c.name, "arguments": arguments_object(c.arguments)}} for c in m.tool_calls]
            entry = {"role": "assistant", "content": m.content, "tool_calls": calls}
            out.append({key: value for key, value in entry.items() if value})  # the official client drops "" too
        elif isinstance(m, ToolMessage):
            out.append({"role": "tool", "content": m.content, "tool_name": m.name or names.get(m.tool_call_id, "")})
        else:
            out.append({"role": m.role, "content": m.content})
    return out


def read_reply(body: bytes | str, wire: Sequence[Mapping[str, Any]]) -> tuple[AssistantMessage, dict[str, Any]]:
    """Ollama's reply read with the bounded reader, since the client's parser crashes on hostile tool calls."""
    text = body.decode("utf-8", "replace") if isinstance(body, (bytes, bytearray)) else body
    try:
        reply = loads(text, depth_limit=MAX_DEPTH + 6)  # the envelope's levels come before the arguments
    except ValueError as exc:
        raise LLMUnavailable(f"Ollama sent a reply that is not JSON ({exc}): {quote(text)}") from None
    message = reply.get("message") if isinstance(reply, dict) else None
    if not isinstance(message, dict):
        raise LLMUnavailable(f"Ollama sent a reply without a message: {quote(reply)}")
    calls = []
    for i, item in enumerate(message.get("tool_calls") or ()):
        item = item if isinstance(item, dict) else {}
        function = item["function"] if isinstance(item.get("function"), dict) else {}
        name, raw, given = function.get("name"), function.get("arguments"), item.get("id")
        calls.append(wire_call(given if isinstance(given, str) and given else call_id(list(wire), i, name, raw),
                               name, raw))
    content = message.get("content")
    return AssistantMessage(content=content if isinstance(content, str) else "", tool_calls=tuple(calls)), reply


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class OllamaLLM:
    """``OllamaLLM("qwen3:0.6b", think=True, temperature=0, seed=1)``; sampling joins ``options`` only when given."""

    def __init__(self, model: str, *, think: bool | str | None = None, host: str | None = None,
                 options: Mapping[str, Any] | None = None, temperature: float | None = None,
                 seed: int | None = None, client: Any = None) -> None:
        self.model, self.think, self.host = model, think, host
        sampling = {key: value for key, value in (("temperature", temperature), ("seed", seed)) if value is not None}
        self.options = {**(options or {}), **sampling} or None
        self._client = client
        self._own_client = client is None

    @property
    def name(self) -> str:
        return f"ollama:{self.model}"

    def __repr__(self) -> str:
        return f"OllamaLLM({self.model!r}, think={self.think!r}, options={self.options!r})"

    def _get_client(self) -> Any:
        if self._own_client:  # a client handed in is the caller's business (how the tests answer)
            guard.check("Ollama")
            if self._client is None:
                self._client = guard.client_library("ollama", "ollama").Client(host=self.host)
        return self._client

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        client = self._get_client()
        ollama = guard.client_library("ollama", "ollama")
        wire = to_ollama_messages(messages)
        request = {key: value for key, value in (
            ("model", self.model), ("messages", wire), ("tools", list(tools)), ("stream", False),
            ("think", self.think), ("options", self.options)) if value is not None}  # Ollama's documented body
        if not callable(getattr(client, "_request_raw", None)):  # private: the pin in pyproject guards it
            raise LLMUnavailable("the installed ollama client has no ollama.Client._request_raw, which "
                                 "OllamaLLM reads raw replies through: pip install 'mingraph-lite[ollama]' "
                                 "for the version it was tested with")
        try:  # the client's own request and errors, but its reply read by us (see ``read_reply``)
            raw = client._request_raw("POST", "/api/chat", json=request)
        except ollama.ResponseError as exc:
            self._raise_known(exc)
            raise
        except ConnectionError as exc:
            host = redact(self.host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST)  # user:password@ -> ***@
            raise LLMUnavailable(f"no Ollama server answers at {host}: start it with `ollama serve` "
                                 f"(or set OLLAMA_HOST / host=...), then `ollama pull {self.model}`") from exc
        message, reply = read_reply(raw.content, wire)
        thinking = reply["message"].get("thinking")
        return LLMResponse(message, input_tokens=_count(reply.get("prompt_eval_count")),
                           output_tokens=_count(reply.get("eval_count")),
                           reasoning=thinking if isinstance(thinking, str) and thinking else None,
                           model=reply.get("model") or self.model)

    def _raise_known(self, exc: Any) -> None:
        """An ``LLMUnavailable`` saying what to do, for the refusals that have a known fix."""
        text, status = str(getattr(exc, "error", exc)), getattr(exc, "status_code", None)
        if status == 404:
            fix = f"Ollama has no model {self.model!r}: run `ollama pull {self.model}`"
        elif status == 400 and "does not support thinking" in text:
            fix = f"Ollama model {self.model!r} does not support thinking: use think=None, or a thinking model (qwen3)"
        elif status == 400 and "does not support tools" in text:
            fix = f"Ollama model {self.model!r} does not support tools: pick one with tool calling (qwen3, llama3.2)"
        else:
            return
        raise LLMUnavailable(f"{fix} (Ollama said: {text})") from exc
