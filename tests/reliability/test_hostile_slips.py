"""Every hand-written hostile tool call, through the registry, the Agent, the agent graph and both adapters.

The promise: whatever the model put in a tool call, it becomes a valid call or a ``ToolArgsError``
answer that says what to fix, quoting at most a few hundred characters; no tool runs on an invalid
tool call; the run goes on; the conversation stays one a provider accepts.
"""

from __future__ import annotations

import json

import httpx
import pytest
from slips import (
    ALL_SLIPS,
    HOSTILE_SLIPS,
    QUESTION,
    SYSTEM,
    TEXT_SLIPS,
    VALID_LABELS,
    assert_conversation_valid,
    bounded_answers,
    counting_registry,
)

from mingraph_lite import Agent, ScriptedLLM, ToolArgsError, ToolCall
from mingraph_lite.graph import build_agent_graph, run_agent_graph
from mingraph_lite.llms.ollama import OllamaLLM
from mingraph_lite.llms.openai import OpenAILLM

IDS = [label for label, _, _ in ALL_SLIPS]


def test_there_are_at_least_100_distinct_hostile_slips():
    labels = [label for label, _, _ in HOSTILE_SLIPS]
    assert len(set(labels)) == len(labels) >= 100


@pytest.mark.parametrize("label, name, arguments", ALL_SLIPS, ids=IDS)
def test_the_registry_answers_every_slip(label, name, arguments):
    registry, ran = counting_registry()
    call = ToolCall("call_1", name, arguments)
    try:
        registry.validate(call)
    except ToolArgsError as error:
        assert label not in VALID_LABELS, f"a valid tool call was refused: {error}"
        assert len(str(error)) < 2_000
    else:
        assert label in VALID_LABELS, "a hostile tool call passed validation"
    answer = registry.answer(call)
    assert answer.tool_call_id == "call_1" and answer.is_error == (label not in VALID_LABELS)
    assert len(ran) == (label in VALID_LABELS)  # no tool runs on an invalid tool call
    bounded_answers([answer])
    if answer.is_error:
        assert "fix" in answer.content


@pytest.mark.parametrize("label, name, arguments", ALL_SLIPS, ids=IDS)
def test_the_agent_answers_the_slip_and_goes_on(label, name, arguments):
    registry, ran = counting_registry()
    llm = ScriptedLLM([[ToolCall("call_1", name, arguments)], "done"])
    agent = Agent(llm, registry, SYSTEM)
    assert agent.run({"question": QUESTION}) == {"answer": "done"}
    messages = agent.memory.messages()
    assert_conversation_valid(messages)
    bounded_answers(messages)
    assert len(ran) == (label in VALID_LABELS)


@pytest.mark.parametrize("label, name, arguments", ALL_SLIPS, ids=IDS)
def test_the_agent_graph_answers_the_slip_and_goes_on(label, name, arguments):
    registry, ran = counting_registry()
    llm = ScriptedLLM([[ToolCall("call_1", name, arguments), ToolCall("call_2", "get_weather", {"city": "Oslo"})],
                       "done"])
    final = run_agent_graph(build_agent_graph(llm, registry, SYSTEM), QUESTION)
    assert final["answer"] == "done" and final["stop_reason"] == "answered"
    assert_conversation_valid(final["messages"])
    bounded_answers(final["messages"])
    # the graph checks the whole batch first: one bad tool call and nothing runs
    assert len(ran) == (2 if label in VALID_LABELS else 0)


def _openai(arguments: str, name: str) -> OpenAILLM:
    body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-test",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": None, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}]}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
    openai = pytest.importorskip("openai")
    client = openai.OpenAI(api_key="test", base_url="http://openai.test/v1", max_retries=0, http_client=httpx.Client(
        transport=httpx.MockTransport(lambda request: httpx.Response(200, json=body))))
    return OpenAILLM("gpt-test", client=client)


def _ollama(arguments_json: str, name: str) -> OllamaLLM:
    body = ('{"model": "qwen3:0.6b", "created_at": "2025-06-01T10:00:00Z", "done": true, "prompt_eval_count": 1, '
            '"eval_count": 1, "message": {"role": "assistant", "content": "", "tool_calls": [{"function": '
            '{"name": ' + json.dumps(name) + ', "arguments": ' + arguments_json + "}}]}}")
    ollama = pytest.importorskip("ollama")
    client = ollama.Client(host="http://ollama.test:11434", transport=httpx.MockTransport(
        lambda request: httpx.Response(200, content=body.encode("utf-8", "surrogatepass"),
                                       headers={"content-type": "application/json"})))
    return OllamaLLM("qwen3:0.6b", client=client)


def _through(llm, label):
    registry, ran = counting_registry()
    response = llm.generate([], registry.tools)
    (call,) = response.message.tool_calls
    answer = registry.answer(call)
    assert answer.is_error == (label not in VALID_LABELS), answer.content[:300]
    assert len(ran) == (label in VALID_LABELS)
    bounded_answers([answer])
    messages = [response.message, answer]
    assert_conversation_valid(messages)
    return call


@pytest.mark.parametrize("label, name, arguments", TEXT_SLIPS, ids=[s[0] for s in TEXT_SLIPS])
def test_the_openai_parser_hands_every_slip_to_the_registry(label, name, arguments):
    call = _through(_openai(arguments, name), label)
    assert call.id == "call_1"


def _is_json(text: str) -> bool:
    from mingraph_lite.wire import loads

    try:
        loads(text)
    except ValueError:
        return False
    return True


OLLAMA_SLIPS = [s for s in TEXT_SLIPS if _is_json(s[2]) and s[2].strip() and len(s[2]) < 1_000_000]


@pytest.mark.parametrize("label, name, arguments", OLLAMA_SLIPS, ids=[s[0] for s in OLLAMA_SLIPS])
def test_the_ollama_parser_hands_every_slip_to_the_registry(label, name, arguments):
    # Ollama sends arguments as JSON, not as text: the tool call's JSON goes into the reply as it is.
    call = _through(_ollama(arguments, name), label)
    assert call.id.startswith("call_")


@pytest.mark.parametrize("label, name, arguments", HOSTILE_SLIPS, ids=[s[0] for s in HOSTILE_SLIPS])
def test_a_strict_trace_records_every_announcement_of_a_hostile_run(tmp_path, label, name, arguments):
    from mingraph_lite import EventRecorder, TraceRecorder, read_trace

    registry, _ = counting_registry()
    recorder, path = EventRecorder(), tmp_path / "run.jsonl"
    agent = Agent(ScriptedLLM([[ToolCall("call_1", name, arguments)], "done"]), registry, SYSTEM,
                  observers=[recorder, TraceRecorder(path)], strict=True)  # strict: a trace that fails stops the run
    assert agent.run({"question": QUESTION}) == {"answer": "done"}
    assert len(list(read_trace(path))) == len(recorder.events) == 8  # start, 2 x (step, reply), call, answer, finish
