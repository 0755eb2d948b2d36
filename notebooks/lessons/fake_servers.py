"""Fake provider servers: the official Ollama and OpenAI clients send their requests to a function, not a network.

Notebook 01 uses them to show the exact request body each adapter builds for one round. A ``FakeServer`` keeps
every body it is sent and answers with the next reply prepared for it, written in that provider's documented
format; the adapters and the official clients run their own code unchanged. The replies' token counts are
whatever the notebook writes in them: invented, to show where the fields are.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from mingraph_lite import OllamaLLM, OpenAILLM


class FakeServer:
    """Keeps every request body it is sent and answers with the next prepared reply."""

    def __init__(self, *replies: dict[str, Any]) -> None:
        self.replies, self.bodies = list(replies), []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(json.loads(request.content))
        if not self.replies:  # a plain error, not an IndexError from deep inside the client
            raise RuntimeError("the fake server has no reply left: prepare one more")
        return httpx.Response(200, json=self.replies.pop(0))


def ollama_reply(message: dict[str, Any], prompt_tokens: int = 0, output_tokens: int = 0) -> dict[str, Any]:
    """A reply body of Ollama's ``POST /api/chat`` (not streamed) around an assistant ``message``."""
    return {"model": "qwen3.5:2b", "created_at": "2026-01-01T00:00:00Z", "message": message, "done": True,
            "done_reason": "stop", "prompt_eval_count": prompt_tokens, "eval_count": output_tokens}


def openai_reply(message: dict[str, Any], prompt_tokens: int = 0, output_tokens: int = 0) -> dict[str, Any]:
    """A reply body of OpenAI's ``POST /v1/chat/completions`` around an assistant ``message`` (role added)."""
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": "gpt-5-mini",
            "choices": [{"index": 0, "message": {"role": "assistant", **message},
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": output_tokens,
                      "total_tokens": prompt_tokens + output_tokens,
                      "completion_tokens_details": {"reasoning_tokens": 0}}}


def ollama_on(server: FakeServer, model: str = "qwen3.5:2b") -> OllamaLLM:
    """The Ollama adapter, its official client talking to ``server`` (the host name can never resolve)."""
    import ollama

    client = ollama.Client(host="http://ollama.invalid:11434", transport=httpx.MockTransport(server))
    return OllamaLLM(model, client=client)


def openai_on(server: FakeServer, model: str = "gpt-5-mini") -> OpenAILLM:
    """The OpenAI adapter, its official client talking to ``server``, with no retries and a dummy key."""
    import openai

    client = openai.OpenAI(api_key="test", base_url="http://openai.invalid/v1", max_retries=0,
                           http_client=httpx.Client(transport=httpx.MockTransport(server)))
    return OpenAILLM(model, client=client)


def two_lookups() -> tuple[dict[str, Any], FakeServer, FakeServer]:
    """Notebook 01's round 1: the raw Ollama reply, and a server per provider whose first reply asks for the
    weather in Paris and in Tokyo (Ollama's without ids, OpenAI's with its own), the second a plain text."""
    later = "(the second reply is not the point here)"
    raw = ollama_reply({"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "get_weather", "arguments": {"city": city}}} for city in ("Paris", "Tokyo")]}, 250, 40)
    openai_slips = [{"id": f"call_A{i}", "type": "function",
                     "function": {"name": "get_weather", "arguments": json.dumps({"city": city})}}
                    for i, city in enumerate(("Paris", "Tokyo"), start=1)]
    return (raw, FakeServer(raw, ollama_reply({"role": "assistant", "content": later})),
            FakeServer(openai_reply({"content": None, "tool_calls": openai_slips}, 250, 40),
                       openai_reply({"content": later})))


def show_sent(body: int, **servers: FakeServer) -> None:
    """Print the messages of request number ``body`` each server kept, one a line, after the system and user ones."""
    for provider, server in servers.items():
        messages = server.bodies[body]["messages"][2:]
        print(f"to {provider}, one message a line:", *(json.dumps(m, ensure_ascii=False) for m in messages), sep="\n  ")
