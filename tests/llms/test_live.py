"""Live tests: a real Ollama server or the real OpenAI API. Marked ``live``; each skips with a reason
when its server or key is absent. Pick models with MINGRAPH_OLLAMA_MODEL / MINGRAPH_OPENAI_MODEL."""

from __future__ import annotations

import os

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.observers.recorder import EventRecorder

pytestmark = pytest.mark.live


def ollama_host() -> str:
    host = os.environ.get("OLLAMA_HOST") or "http://localhost:11434"
    return host if "://" in host else f"http://{host}"


def run(llm):
    recorder = EventRecorder()
    try:
        agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=6, observers=[recorder])
        agent.run({"question": QUESTION})
    except StepLimitReached:
        pass
    return [e for e in recorder.events if e["event"] == "model_reply"]


def test_ollama_live():
    httpx = pytest.importorskip("httpx")
    try:
        tags = httpx.get(f"{ollama_host()}/api/tags", timeout=2).json()
    except httpx.HTTPError as exc:
        pytest.skip(f"no Ollama server at {ollama_host()} ({type(exc).__name__}): "
                    f"start one with `ollama serve`")
    names = [m["name"] for m in tags.get("models", [])]
    model = os.environ.get("MINGRAPH_OLLAMA_MODEL") or (names[0] if names else None)
    if model is None:
        pytest.skip("the Ollama server has no model: `ollama pull qwen3:0.6b`")
    from mingraph_lite.llms.ollama import OllamaLLM

    replies = run(OllamaLLM(model, host=ollama_host(), temperature=0, seed=1))
    assert replies and all(r["input_tokens"] > 0 and r["output_tokens"] > 0 for r in replies)


def test_openai_live():
    if not os.environ.get("OPENAI_API_KEY"):
        pytest.skip("OPENAI_API_KEY is not set")
    pytest.importorskip("openai", reason="pip install 'mingraph-lite[openai]'")
    from mingraph_lite.llms.openai import OpenAILLM

    replies = run(OpenAILLM(os.environ.get("MINGRAPH_OPENAI_MODEL", "gpt-5-mini"), reasoning_effort="low"))
    assert replies and all(r["input_tokens"] > 0 and r["output_tokens"] > 0 for r in replies)
    assert all(r["reasoning"] is None for r in replies)
