"""The model spec: one grammar (or $MINGRAPH_LLM) picks the adapter; nothing is contacted on building."""

from __future__ import annotations

import sys

import pytest

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms.factory import FORMS, ModelSpec, llm_from_spec, parse_spec
from mingraph_lite.llms.ollama import OllamaLLM
from mingraph_lite.llms.openai import OpenAILLM
from mingraph_lite.llms.replay import ReplayLLM
from mingraph_lite.llms.scripted import ScriptedLLM

HELLO = ScriptedLLM(["Hello."], name="scripted: hello")


def make_llm(spec=None):
    """What the course's make_llm does, with a scripted model of the test's own."""
    return llm_from_spec(parse_spec(spec), scripted=lambda: HELLO)


def test_default_is_the_scripted_model_handed_in(monkeypatch):
    monkeypatch.delenv("MINGRAPH_LLM", raising=False)
    assert make_llm() is HELLO
    assert parse_spec() == ModelSpec("scripted", "", "scripted", is_default=True)


@pytest.mark.parametrize("spec, parsed", [
    ("scripted", ("scripted", "")), ("  Ollama:qwen3:0.6b ", ("ollama", "qwen3:0.6b")),
    ("local", ("local", "")), ("local:gemma3-270m", ("local", "gemma3-270m")),
    ("replay:runs/a.jsonl", ("replay", "runs/a.jsonl")), ("", ("scripted", ""))])
def test_the_grammar(spec, parsed):
    got = parse_spec(spec)
    assert (got.kind, got.argument) == parsed
    assert got.is_default is (spec == "")


def test_the_environment_is_read_from_the_mapping_given():
    assert parse_spec(env={"MINGRAPH_LLM": "openai:gpt-5-mini"}).argument == "gpt-5-mini"
    with pytest.raises(ValueError, match=r"given to \$MINGRAPH_LLM"):
        parse_spec(env={"MINGRAPH_LLM": "claude:opus"})


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


def test_local_spec_without_the_runtime_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "xllamacpp", None)  # what an environment without the extra looks like
    with pytest.raises(LLMUnavailable, match=r"mingraph-lite\[local\]"):
        make_llm("local")


@pytest.mark.parametrize("spec", ["gpt-5", "ollama", "openai:", "replay:", "scripted:x", "claude:opus"])
def test_an_unknown_spec_lists_the_valid_forms(spec):
    with pytest.raises(ValueError, match="given to make_llm") as info:
        make_llm(spec)
    for form in FORMS:
        assert form in str(info.value)


def test_importing_the_package_imports_no_client():
    import subprocess
    import sys

    code = ("import sys, mingraph_lite, mingraph_lite.llms.factory; "
            "print([m for m in ('ollama', 'openai', 'llama_cpp') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("spec", ["ollama:qwen3:0.6b", "openai:gpt-5-mini"])
def test_sampling_reaches_the_adapter_only_when_given(spec):
    plain = make_llm(spec)
    sampled = llm_from_spec(parse_spec(spec), temperature=0.3, seed=11)
    if isinstance(plain, OllamaLLM):
        assert plain.options is None and sampled.options == {"temperature": 0.3, "seed": 11}
    else:
        assert (plain.temperature, plain.seed) == (None, None) and (sampled.temperature, sampled.seed) == (0.3, 11)


def test_the_local_kind_gets_the_default_model_sampling_and_threads(monkeypatch):
    from mingraph_lite.llms import local

    built = []
    monkeypatch.setattr(local, "LocalLLM", lambda *a, **kw: built.append((a, kw)) or "loaded")
    assert llm_from_spec(parse_spec("local"), temperature=0.5, n_threads=1) == "loaded"
    llm_from_spec(parse_spec("local:gemma3-270m"))
    assert built == [((local.DEFAULT_MODEL,), {"n_threads": 1, "temperature": 0.5, "seed": None}),
                     (("gemma3-270m",), {"n_threads": None, "temperature": None, "seed": None})]


def test_scripted_replies_are_not_sampled_and_need_the_model_handed_in():
    assert llm_from_spec(parse_spec("scripted"), scripted=lambda: HELLO, temperature=0.9, seed=1) is HELLO
    with pytest.raises(ValueError, match="scripted="):
        llm_from_spec(parse_spec("scripted"))

