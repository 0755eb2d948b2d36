"""A real model server in the tests: the official ``openai`` client, through ``OpenAILLM``, over HTTP on
127.0.0.1, to llama.cpp's OpenAI-compatible server, started in this process with the shipped GGUF.

Not a live test: the server is ours, on loopback, started and stopped here, so it runs in ``make test``.
The server uses our templates (package data), so a tool call comes back as ``tool_calls``; tiny models call
tools rarely and badly, so the tests check the structure of a run, never its answer.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, make_llm
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import LLMUnavailable, StepLimitReached
from mingraph_lite.llms.openai import OpenAILLM
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, UserMessage
from mingraph_lite.observers.trace import TraceRecorder, read_trace

pytestmark = pytest.mark.slow
openai = pytest.importorskip("openai")
pytest.importorskip("xllamacpp", reason="the local server needs xllamacpp: pip install '.[local]'")


def _started(model: str, max_tokens: int):
    """A shipped model served on loopback, or a skip that says which weights are missing."""
    from mingraph_lite.llms.local import LocalServer

    try:
        return LocalServer(model, n_ctx=4096, n_parallel=1, max_tokens=max_tokens)
    except LLMUnavailable as exc:
        pytest.skip(f"no local weights: {exc}")


@pytest.fixture(scope="module")
def server():
    local = _started("smollm2-135m", max_tokens=24)
    assert local.base_url.startswith("http://127.0.0.1:")
    yield local
    address = local.base_url
    local.close()
    with pytest.raises(urllib.error.URLError):  # stopped means stopped: nothing answers there any more
        urllib.request.urlopen(f"{address}/models", timeout=2)


@pytest.fixture
def llm(server):
    client = openai.OpenAI(api_key="class", base_url=server.base_url, max_retries=0, timeout=300)
    return OpenAILLM("smollm2-135m", client=client)


def test_the_server_names_its_model(server):
    client = openai.OpenAI(api_key="class", base_url=server.base_url, max_retries=0)
    assert [m.id for m in client.models.list().data] == ["smollm2-135m"]


def test_a_chat_round_trip_reports_real_token_counts(llm):
    response = llm.generate([UserMessage("Say hello.")], [])
    assert response.message.content.strip()
    assert response.input_tokens and response.input_tokens > 3
    assert response.output_tokens and 0 < response.output_tokens <= 24  # the server's cap holds
    assert response.reasoning is None  # the Chat Completions API never returns reasoning text


def test_an_agent_run_over_real_http_ends_by_answer_or_step_limit(llm):
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=2)
    try:
        answer = agent.run({"question": QUESTION})["answer"]
    except StepLimitReached:
        answer = None
    folder = agent.memory.messages()
    replies = [m for m in folder if m.role == "assistant"]
    assert 1 <= len(replies) <= 2
    answered = {m.tool_call_id for m in folder if m.role == "tool"}
    assert answered == {c.id for m in replies for c in m.tool_calls}  # every slip, if any, answered
    assert answer is None or answer == replies[-1].content


def test_a_class_points_the_course_at_the_shared_server_with_environment_variables(server, monkeypatch):
    # What the README tells a class to export on every laptop; the guard allows it, the test allows it.
    monkeypatch.setenv("MINGRAPH_REAL_MODELS", "on")
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "class")
    llm = make_llm("openai:smollm2-135m")
    assert llm.name == "openai:smollm2-135m"
    assert llm.generate([UserMessage("Say hello.")], []).output_tokens > 0


@pytest.fixture(scope="module")
def gemma_server():
    """Gemma 3 270M: of the shipped models, the one that calls a tool at temperature 0 on the course's question."""
    local = _started("gemma3-270m", max_tokens=64)
    yield local
    local.close()


def test_a_tool_call_round_trip_through_the_agent_over_loopback_http(gemma_server, tmp_path: Path):
    client = openai.OpenAI(api_key="class", base_url=gemma_server.base_url, max_retries=0, timeout=120)
    llm = OpenAILLM("gemma3-270m", client=client, temperature=0, seed=7)
    replies = []
    generate = llm.generate
    llm.generate = lambda *args: replies.append(generate(*args)) or replies[-1]  # what the server sent back
    trace = TraceRecorder(tmp_path / "run.jsonl")
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[trace], max_steps=2)
    try:
        agent.run({"question": QUESTION})
    except StepLimitReached:
        pass  # a tiny model may not finish: the round trip is what is checked, not the answer
    assert replies and replies[0].message.tool_calls  # real tool_calls, parsed by llama.cpp from our template
    tool_results = [m for m in agent.memory.messages() if m.role == "tool"]
    assert {m.tool_call_id for m in tool_results} >= {c.id for c in replies[0].message.tool_calls}
    events = [e["event"] for e in read_trace(tmp_path / "run.jsonl")]
    assert "tool_call" in events and events.count("step_start") == len(replies)


def test_a_call_cut_off_at_the_cap_goes_back_and_the_run_goes_on(gemma_server):
    # llama.cpp answers HTTP 500 to arguments that are not JSON; a call cut at --max-tokens is such a call.
    client = openai.OpenAI(api_key="class", base_url=gemma_server.base_url, max_retries=0, timeout=120)
    cut = ToolCall("call_1", "get_weather", '{"city": "Tok')
    messages = [SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION), AssistantMessage("", tool_calls=(cut,)),
                weather_registry().answer(cut)]
    assert messages[-1].is_error  # the agent has told the model what to fix
    reply = OpenAILLM("gemma3-270m", client=client, temperature=0, seed=7).generate(messages, weather_registry().tools)
    assert reply.output_tokens > 0


def test_the_serve_command_tells_the_class_what_to_export():
    import os
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "mingraph_lite", "serve", "--port", "0", "--parallel", "1"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        said = proc.stdout.readline() + proc.stdout.readline()
        base_url = said.split(" at ", 1)[1].split(" ", 1)[0]
        for _ in range(60):  # it says where it serves; it must answer there too
            try:
                urllib.request.urlopen(f"{base_url}/models", timeout=2)
                break
            except urllib.error.URLError:
                time.sleep(0.5)
        os.kill(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=60) == 0  # Ctrl-C stops it cleanly
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert said.startswith("serving gemma3-270m at http://127.0.0.1:")  # by default, the model that calls tools
    assert "OPENAI_BASE_URL=http://127.0.0.1:" in said and "MINGRAPH_LLM=openai:gemma3-270m" in said
