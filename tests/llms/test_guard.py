"""The switch: with MINGRAPH_REAL_MODELS=off, an adapter that would reach a real model refuses."""

from __future__ import annotations

import sys

import pytest

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms import guard
from mingraph_lite.llms.ollama import OllamaLLM
from mingraph_lite.llms.openai import OpenAILLM
from mingraph_lite.messages import UserMessage


def test_the_test_run_has_real_models_switched_off():
    assert not guard.real_models_allowed()


@pytest.mark.parametrize("value, allowed", [("off", False), ("0", False), ("OFF ", False), ("on", True),
                                            ("1", True), (None, True)])
def test_the_switch_values(monkeypatch, value, allowed):
    if value is None:
        monkeypatch.delenv(guard.ENV, raising=False)
    else:
        monkeypatch.setenv(guard.ENV, value)
    assert guard.real_models_allowed() is allowed


@pytest.mark.parametrize("make", [lambda: OllamaLLM("qwen3:0.6b"), lambda: OpenAILLM("gpt-5-mini")])
def test_an_adapter_with_its_own_client_refuses_and_says_mark_it_live(monkeypatch, make):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-would-be-real")
    with pytest.raises(LLMUnavailable, match="pytest.mark.live"):
        make().generate([UserMessage("hi")], [])


def test_the_refusal_comes_before_any_client_is_built(monkeypatch):
    llm = OllamaLLM("qwen3:0.6b")
    with pytest.raises(LLMUnavailable):
        llm.generate([UserMessage("hi")], [])
    assert llm._client is None


@pytest.mark.parametrize("module, make", [("ollama", lambda: OllamaLLM("qwen3:0.6b")),
                                          ("openai", lambda: OpenAILLM("gpt-5-mini"))])
def test_a_missing_client_library_names_the_extra_in_one_sentence(monkeypatch, module, make):
    monkeypatch.setenv(guard.ENV, "on")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-would-be-real")
    monkeypatch.setitem(sys.modules, module, None)  # what an environment without the extra looks like
    with pytest.raises(LLMUnavailable, match=rf"pip install 'mingraph-lite\[{module}\]'") as info:
        make().generate([UserMessage("hi")], [])
    assert len(str(info.value).splitlines()) == 1
