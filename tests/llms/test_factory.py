"""make_llm: one short spec (or $MINGRAPH_LLM) picks the model; nothing is contacted on building."""

from __future__ import annotations

import pytest

from mingraph_lite.llms import make_llm
from mingraph_lite.llms.ollama import OllamaLLM
from mingraph_lite.llms.openai import OpenAILLM
from mingraph_lite.llms.replay import ReplayLLM
from mingraph_lite.llms.scripted import ScriptedLLM


def test_default_is_the_scripted_manager(monkeypatch):
    monkeypatch.delenv("MINGRAPH_LLM", raising=False)
    llm = make_llm()
    assert isinstance(llm, ScriptedLLM)
    assert "scripted" in repr(llm).lower() or "scripted" in str(getattr(llm, "name", ""))


def test_the_environment_variable_picks_when_no_spec(monkeypatch):
    monkeypatch.setenv("MINGRAPH_LLM", "ollama:qwen3.5:2b")
    llm = make_llm()
    assert isinstance(llm, OllamaLLM) and llm.model == "qwen3.5:2b"  # only the first colon splits


def test_an_explicit_spec_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("MINGRAPH_LLM", "ollama:qwen3")
    assert isinstance(make_llm("scripted"), ScriptedLLM)


def test_openai_spec():
    llm = make_llm("openai:gpt-5-mini")
    assert isinstance(llm, OpenAILLM) and llm.model == "gpt-5-mini"


def test_replay_spec(tmp_path):
    trace = tmp_path / "run.jsonl"
    trace.write_text('{"run_id": "r1", "run": 1, "event": "model_reply", "message": {"content": "Hi.",'
                     ' "tool_calls": []}, "input_tokens": 3, "output_tokens": 1, "model": "m"}\n')
    llm = make_llm(f"replay:{trace}")
    assert isinstance(llm, ReplayLLM) and llm.generate([], []).message.content == "Hi."


@pytest.mark.parametrize("spec", ["ollama:qwen3:0.6b", "openai:gpt-5-mini"])
def test_a_model_names_itself_in_the_form_make_llm_takes(spec):
    llm = make_llm(spec)
    assert llm.name == spec and spec.split(":", 1)[1] in repr(llm)


def test_a_replayed_model_says_it_is_replayed(tmp_path):
    trace = tmp_path / "run.jsonl"
    trace.write_text('{"run_id": "r1", "run": 1, "event": "model_reply", "message": {"content": "Hi.",'
                     ' "tool_calls": []}, "model": "m"}\n')
    llm = make_llm(f"replay:{trace}")
    assert llm.name == "replay (1 recorded replies)" and repr(llm) == "ReplayLLM(1 recorded replies, 0 used)"


def test_local_spec_without_llama_cpp_names_the_extra(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_llama(name, *args, **kwargs):
        if name == "llama_cpp":
            raise ImportError("no llama_cpp here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_llama)
    with pytest.raises(ImportError, match=r"mingraph-lite\[local\]"):
        make_llm("local")


@pytest.mark.parametrize("spec", ["gpt-5", "ollama", "openai:", "replay:", "scripted:x", "claude:opus"])
def test_an_unknown_spec_lists_the_valid_forms(spec):
    with pytest.raises(ValueError) as info:
        make_llm(spec)
    for form in ("scripted", "ollama:MODEL", "openai:MODEL", "local[:MODEL]", "replay:PATH"):
        assert form in str(info.value)


def test_importing_the_package_imports_no_client():
    import subprocess
    import sys

    code = ("import sys, mingraph_lite, mingraph_lite.llms; "
            "bad = [m for m in ('ollama', 'openai', 'llama_cpp') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)
