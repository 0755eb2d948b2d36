"""A model served by Ollama, through the official ``ollama`` client (imported when first built).

Two things differ from the OpenAI wire format. Ollama's tool calls carry no ticket number, so we
make one that depends only on what the model was read and what it wrote (the same folder gives the
same ids, run after run). And Ollama pairs an answer slip with its call by tool name and order,
so each ToolMessage goes back as ``{"role": "tool", "content": ..., "tool_name": ...}``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms import guard
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.messages import AssistantMessage, Message, ToolCall, ToolMessage
from mingraph_lite.redaction import redact

DEFAULT_HOST = "http://localhost:11434"


def _import_ollama() -> Any:
    try:
        import ollama
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("OllamaLLM needs the ollama client: pip install 'mingraph-lite' "
                          "(or pip install ollama)") from exc
    return ollama


def _arguments(call: ToolCall) -> dict[str, Any]:
    # Ollama wants an object. Raw text only reaches here from another provider's folder.
    if isinstance(call.arguments, str):
        try:
            parsed = json.loads(call.arguments)
        except ValueError:
            return {}
        return parsed if isinstance(parsed, dict) else {}
    return dict(call.arguments)


def to_ollama_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Our folder in Ollama's spelling: tool calls without ids, answers named by tool."""
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": m.content}
            if m.tool_calls:
                entry["tool_calls"] = [{"function": {"name": c.name, "arguments": _arguments(c)}}
                                       for c in m.tool_calls]
                names.update((c.id, c.name) for c in m.tool_calls)
            out.append(entry)
        elif isinstance(m, ToolMessage):
            name = m.name or names.get(m.tool_call_id, "")
            out.append({"role": "tool", "content": m.content, "tool_name": name})
        else:
            out.append({"role": m.role, "content": m.content})
    return out


def stable_call_id(wire_messages: Sequence[Mapping[str, Any]], index: int, name: str,
                   arguments: Any) -> str:
    """A ticket number from the folder read, the position and the slip itself: same run, same id."""
    blob = json.dumps([list(wire_messages), index, name, arguments], sort_keys=True, default=str)
    return "call_" + hashlib.sha256(blob.encode()).hexdigest()[:12]


class OllamaLLM:
    """``OllamaLLM("qwen3:0.6b", think=True, options={"seed": 1, "temperature": 0})``."""

    @property
    def name(self) -> str:
        """Who answers, in the same form ``make_llm`` takes: ``ollama:MODEL``."""
        return f"ollama:{self.model}"

    def __repr__(self) -> str:
        return f"OllamaLLM({self.model!r}, think={self.think!r})"

    def __init__(self, model: str, *, think: bool | str | None = None, host: str | None = None,
                 options: Mapping[str, Any] | None = None, client: Any = None) -> None:
        self.model = model
        self.think = think
        self.host = host
        self.options = dict(options) if options else None
        self._client = client
        self._own_client = client is None

    def _get_client(self) -> Any:
        if self._client is None:
            guard.check("Ollama")
            self._client = _import_ollama().Client(host=self.host)
        elif self._own_client:
            guard.check("Ollama")
        return self._client

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        client = self._get_client()
        ollama = _import_ollama()
        wire = to_ollama_messages(messages)
        try:
            reply = client.chat(model=self.model, messages=wire, tools=list(tools) or None,
                                think=self.think, options=self.options)
        except ollama.ResponseError as exc:
            problem = self._explain(exc)
            if problem is None:
                raise
            raise problem from exc
        except ConnectionError as exc:
            host = redact(self.host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST)  # user:password@ -> ***@
            raise LLMUnavailable(f"no Ollama server answers at {host}: start it with `ollama serve` "
                                 f"(or set OLLAMA_HOST / host=...), then `ollama pull {self.model}`") from exc
        msg = reply.message
        calls = tuple(
            ToolCall(id=getattr(c, "id", None) or stable_call_id(wire, i, c.function.name,
                                                                 c.function.arguments),
                     name=c.function.name, arguments=dict(c.function.arguments or {}))
            for i, c in enumerate(msg.tool_calls or ()))
        return LLMResponse(message=AssistantMessage(content=msg.content or "", tool_calls=calls),
                           input_tokens=reply.prompt_eval_count, output_tokens=reply.eval_count,
                           reasoning=msg.thinking or None, reasoning_tokens=None,
                           model=reply.model or self.model)

    def _explain(self, exc: Any) -> LLMUnavailable | None:
        text = str(getattr(exc, "error", exc))
        status = getattr(exc, "status_code", None)
        if status == 400 and "does not support thinking" in text:
            return LLMUnavailable(f"Ollama model {self.model!r} does not support thinking: use think=None, "
                                  f"or a thinking model such as qwen3 (Ollama said: {text})")
        if status == 400 and "does not support tools" in text:
            return LLMUnavailable(f"Ollama model {self.model!r} does not support tools: pick a model with "
                                  f"tool calling, such as qwen3 or llama3.2 (Ollama said: {text})")
        if status == 404:
            return LLMUnavailable(f"Ollama has no model {self.model!r}: run `ollama pull {self.model}` "
                                  f"(Ollama said: {text})")
        return None
