"""The local model for real: SmolLM2-135M run in-process by llama.cpp (xllamacpp), no server, no network.

A 135M model makes up slips and may never answer: the agent run may end in StepLimitReached, and
that is the honest outcome. Any other error fails the test. A few model calls keep it fast.
"""

from __future__ import annotations

import sys
import time

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import LLMUnavailable, StepLimitReached
from mingraph_lite.llms.local import CHATML, GEMMA, MODELS, closed_schema, find_gguf, render_prompt
from mingraph_lite.llms.replay import ReplayLLM
from mingraph_lite.messages import SystemMessage, UserMessage
from mingraph_lite.observers.trace import TraceRecorder, read_trace

MAX_STEPS = 3


def test_unknown_local_model_names_the_choices():
    with pytest.raises(ValueError, match="smollm2-135m"):
        find_gguf("no-such-model")


def test_a_gguf_path_is_taken_as_is(tmp_path):
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUF")
    assert find_gguf(str(path)) == path


def test_temperature_and_seed_reach_every_request_and_default_to_greedy(tmp_path, monkeypatch):
    from mingraph_lite.llms import local

    sent = []

    class Runtime:  # stands in for xllamacpp.Server: the adapter's one call into it
        def handle_completions(self, request):
            sent.append(request)
            return {"choices": [{"text": "Hello."}], "usage": {"prompt_tokens": 3, "completion_tokens": 1}}

    monkeypatch.setattr(local, "start_runtime", lambda *a, **kw: Runtime())
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUF")
    local.LocalLLM(str(path)).generate([UserMessage("hi")], [])
    sampled = local.LocalLLM(str(path), temperature=0.7, seed=3)
    sampled.generate([UserMessage("hi")], [])
    sampled.seed = 4  # read on every call: an experiment sets each run's seed on one loaded model
    sampled.generate([UserMessage("hi")], [])
    assert [(r["temperature"], r["seed"]) for r in sent] == [(0.0, 7), (0.7, 3), (0.7, 4)]


def test_a_missing_runtime_is_llm_unavailable_naming_the_extra(monkeypatch):
    from mingraph_lite.llms.local import LocalLLM

    monkeypatch.setitem(sys.modules, "xllamacpp", None)  # what an environment without the extra looks like
    with pytest.raises(LLMUnavailable, match=r"mingraph-lite\[local\]"):
        LocalLLM()


def test_the_schema_constraint_is_closed_so_the_model_cannot_invent_keys():
    # A menu written by hand (not by ToolRegistry, which closes its schemas itself) leaves objects open.
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    closed = closed_schema(schema)
    assert closed["additionalProperties"] is False and closed["properties"] == schema["properties"]
    assert "additionalProperties" not in schema  # the menu the model reads is left as it was
    assert closed_schema({"type": "string"}) == {"type": "string"}


def test_each_model_reads_the_folder_in_its_own_turn_format():
    folder = [SystemMessage("Be brief."), UserMessage("Hi")]
    chatml, gemma = render_prompt(folder, [], CHATML), render_prompt(folder, [], GEMMA)
    assert chatml.endswith("<|im_start|>assistant\n") and "<|im_start|>system\nBe brief.<|im_end|>" in chatml
    assert gemma.endswith("<start_of_turn>model\n") and "<|im_start|>" not in gemma
    assert "<start_of_turn>user\nBe brief.<end_of_turn>" in gemma  # Gemma has no system role


@pytest.fixture(scope="module")
def local_llm():
    pytest.importorskip("xllamacpp", reason="the local model needs xllamacpp: pip install '.[local]'")
    from mingraph_lite.llms.local import LocalLLM

    try:
        return LocalLLM()
    except LLMUnavailable as exc:
        pytest.skip(f"no local weights: {exc}")


def run_agent(llm, observers=()):
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=MAX_STEPS, observers=observers)
    try:
        return agent, agent.run({"question": QUESTION})["answer"]
    except StepLimitReached:
        return agent, None


@pytest.mark.slow
def test_smollm2_ships_as_a_gguf_in_its_package(local_llm):
    assert local_llm.path.suffix == ".gguf" and local_llm.path.stat().st_size > 50_000_000
    assert "smollm2-135m" in MODELS and local_llm.model == "smollm2-135m"


@pytest.mark.slow
def test_one_call_gives_real_token_counts(local_llm):
    response = local_llm.generate([UserMessage("What is the weather in Paris?")], weather_registry().tools)
    assert response.input_tokens and response.input_tokens > 10
    assert response.output_tokens and response.output_tokens > 0
    assert response.message.content or response.message.tool_calls
    for call in response.message.tool_calls:
        assert call.name and call.id


@pytest.mark.slow
def test_the_agent_runs_on_the_local_model_and_replays_exactly(local_llm, tmp_path):
    path = tmp_path / "local.jsonl"
    started = time.perf_counter()
    agent, answer = run_agent(local_llm, [TraceRecorder(path)])
    elapsed = time.perf_counter() - started

    events = read_trace(path)
    replies = [e for e in events if e["event"] == "model_reply"]
    finish = [e for e in events if e["event"] == "finish"]
    assert 1 <= len(replies) <= MAX_STEPS
    assert finish and finish[-1]["reason"] == ("answered" if answer is not None else "step limit")
    assert all(r["model"] == "smollm2-135m" for r in replies)
    assert all(r["input_tokens"] > 0 and r["output_tokens"] > 0 for r in replies)
    print(f"\nlocal run: {len(replies)} calls, {sum(r['input_tokens'] for r in replies)} in / "
          f"{sum(r['output_tokens'] for r in replies)} out tokens, {elapsed / len(replies):.1f} s per call, "
          f"ended {finish[-1]['reason']}")

    replay = ReplayLLM.from_trace(path)
    again, replayed_answer = run_agent(replay)
    assert replayed_answer == answer
    assert [m.to_dict() for m in again.memory.messages()] == [m.to_dict() for m in agent.memory.messages()]
    assert len(replay.calls) == len(replies)
