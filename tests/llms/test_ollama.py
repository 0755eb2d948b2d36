"""OllamaLLM against the real ``ollama`` client, answered by a mock transport in Ollama's wire format.

The replies below follow the documented ``POST /api/chat`` non-streaming response. We assert the
request bodies we send as well as how we read the replies.
"""

from __future__ import annotations

import httpx
import pytest

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms.ollama import OllamaLLM
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, ToolMessage, UserMessage

ollama = pytest.importorskip("ollama")

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Get the temperature for a city, in degrees Celsius.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
MESSAGES = [SystemMessage("You answer questions about the weather."), UserMessage("Paris and Tokyo?")]


def reply(message, prompt_eval_count=57, eval_count=21, model="qwen3:0.6b"):
    return {"model": model, "created_at": "2025-06-01T10:00:00.000000Z", "message": message,
            "done": True, "done_reason": "stop", "total_duration": 812000000, "load_duration": 21000000,
            "prompt_eval_count": prompt_eval_count, "prompt_eval_duration": 90000000,
            "eval_count": eval_count, "eval_duration": 700000000}


def adapter(wire, **kwargs):
    client = ollama.Client(host="http://ollama.test:11434", transport=wire.transport())
    return OllamaLLM(kwargs.pop("model", "qwen3:0.6b"), client=client, **kwargs)


def test_plain_answer_and_the_exact_request(wire_factory):
    wire = wire_factory(reply({"role": "assistant", "content": "Paris is 18 °C."}))
    llm = adapter(wire, options={"seed": 1, "temperature": 0})
    response = llm.generate(MESSAGES, TOOLS)

    assert response.message == AssistantMessage("Paris is 18 °C.")
    assert (response.input_tokens, response.output_tokens) == (57, 21)
    assert response.reasoning is None and response.reasoning_tokens is None
    assert response.model == "qwen3:0.6b"
    assert wire.requests[0].url.path == "/api/chat"
    assert wire.bodies == [{
        "model": "qwen3:0.6b",
        "messages": [{"role": "system", "content": "You answer questions about the weather."},
                     {"role": "user", "content": "Paris and Tokyo?"}],
        "tools": TOOLS, "stream": False, "options": {"seed": 1, "temperature": 0}}]


@pytest.mark.parametrize("sampling", [{}, {"temperature": 0.7}, {"seed": 4}, {"temperature": 0, "seed": 0}])
def test_temperature_and_seed_go_into_the_options_exactly_when_given(wire_factory, sampling):
    wire = wire_factory(reply({"role": "assistant", "content": "Hi."}), reply({"role": "assistant", "content": "Hi."}))
    llm = adapter(wire, **sampling)
    llm.generate(MESSAGES, TOOLS)
    llm.generate(MESSAGES, TOOLS)
    for body in wire.bodies:  # on every request, not only the first
        assert body.get("options", {}) == sampling


def test_sampling_joins_the_other_options(wire_factory):
    wire = wire_factory(reply({"role": "assistant", "content": "Hi."}))
    adapter(wire, options={"num_ctx": 4096, "seed": 1}, seed=9, temperature=0.2).generate(MESSAGES, TOOLS)
    assert wire.bodies[0]["options"] == {"num_ctx": 4096, "seed": 9, "temperature": 0.2}


def test_the_installed_client_has_the_private_method_replies_are_read_through():
    # OllamaLLM sends through the client but reads the raw reply itself (see read_reply): a release
    # that renames this private method must fail here, by name, before it reaches a learner.
    assert callable(getattr(ollama.Client, "_request_raw", None)), (
        "ollama.Client._request_raw is missing from the installed ollama client: OllamaLLM.generate calls it; "
        "adapt llms/ollama.py to the new client or keep the pin in pyproject.toml below this version")


def test_a_client_without_the_private_method_is_named_in_one_sentence(wire_factory, monkeypatch):
    monkeypatch.delattr(ollama.Client, "_request_raw")
    llm = adapter(wire_factory(reply({"role": "assistant", "content": "Hi."})))
    with pytest.raises(LLMUnavailable, match=r"ollama\.Client\._request_raw"):
        llm.generate(MESSAGES, TOOLS)


def test_several_tool_calls_with_thinking_get_stable_distinct_ids(wire_factory):
    message = {"role": "assistant", "content": "", "thinking": "I need both cities first.",
               "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
                              {"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]}
    wire = wire_factory(reply(message, 60, 35), reply(message, 60, 35))
    llm = adapter(wire, think=True)
    first = llm.generate(MESSAGES, TOOLS)
    again = llm.generate(MESSAGES, TOOLS)

    assert [(c.name, dict(c.arguments)) for c in first.message.tool_calls] == [
        ("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]
    ids = [c.id for c in first.message.tool_calls]
    assert len(set(ids)) == 2 and all(i.startswith("call_") for i in ids)
    assert [c.id for c in again.message.tool_calls] == ids  # same messages, same ids
    assert first.reasoning == "I need both cities first."
    assert first.reasoning_tokens is None  # Ollama reports no separate count: not an estimate
    assert (first.input_tokens, first.output_tokens) == (60, 35)
    assert wire.bodies[0]["think"] is True
    assert "options" not in wire.bodies[0]


def test_ids_differ_when_the_messages_differ(wire_factory):
    message = {"role": "assistant", "content": "",
               "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}
    wire = wire_factory(reply(message), reply(message))
    llm = adapter(wire)
    a = llm.generate(MESSAGES, TOOLS).message.tool_calls[0].id
    b = llm.generate([*MESSAGES, UserMessage("again")], TOOLS).message.tool_calls[0].id
    assert a != b


def test_the_messages_go_back_with_calls_and_named_answers(wire_factory):
    calls = (ToolCall("call_a", "get_weather", {"city": "Paris"}),
             ToolCall("call_b", "get_weather", {"city": "Tokyo"}))
    messages = [*MESSAGES, AssistantMessage("", tool_calls=calls),
              ToolMessage("18", "call_a", name="get_weather"),
              ToolMessage("24", "call_b")]  # no name: found through the call id
    wire = wire_factory(reply({"role": "assistant", "content": "Paris 18, Tokyo 24."}))
    adapter(wire).generate(messages, TOOLS)

    assert wire.bodies[0]["messages"][2:] == [
        {"role": "assistant",  # the client drops the empty content
         "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
                        {"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]},
        {"role": "tool", "content": "18", "tool_name": "get_weather"},
        {"role": "tool", "content": "24", "tool_name": "get_weather"}]


def test_no_tools_sends_an_empty_tools_list_and_no_think(wire_factory):
    wire = wire_factory(reply({"role": "assistant", "content": "Hello."}))
    response = adapter(wire).generate(MESSAGES, [])
    assert response.message == AssistantMessage("Hello.")
    assert wire.bodies[0]["tools"] == [] and "think" not in wire.bodies[0]


def test_a_model_that_cannot_think_says_what_to_do(wire_factory):
    wire = wire_factory((400, {"error": '"gemma3:1b" does not support thinking'}))
    with pytest.raises(LLMUnavailable, match="think=None"):
        adapter(wire, model="gemma3:1b", think=True).generate(MESSAGES, TOOLS)


def test_a_missing_model_says_pull_it(wire_factory):
    wire = wire_factory((404, {"error": "model 'qwen9' not found"}))
    with pytest.raises(LLMUnavailable, match="ollama pull qwen9"):
        adapter(wire, model="qwen9").generate(MESSAGES, TOOLS)


def test_other_server_errors_pass_through_unchanged(wire_factory):
    wire = wire_factory((500, {"error": "out of memory"}))
    with pytest.raises(ollama.ResponseError, match="out of memory"):
        adapter(wire).generate(MESSAGES, TOOLS)


def test_connection_refused_says_run_ollama_serve(wire_factory):
    wire = wire_factory(httpx.ConnectError("[Errno 111] Connection refused"))
    with pytest.raises(LLMUnavailable, match="ollama serve"):
        adapter(wire).generate(MESSAGES, TOOLS)


@pytest.mark.parametrize("arguments, problem", [
    (None, "must be a JSON object, got null"), ([1, 2], "must be a JSON object, got list"),
    (5, "must be a JSON object, got int"), ("Paris", "are not valid JSON"),
])
def test_a_reply_whose_arguments_are_not_an_object_is_read_and_answered(wire_factory, arguments, problem):
    # The official client's own parse refuses such a reply whole; read by us, the call is answerable.
    from mingraph_lite.course.weather import weather_registry

    wire = wire_factory(reply({"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "get_weather", "arguments": arguments}}]}))
    (call,) = adapter(wire).generate(MESSAGES, TOOLS).message.tool_calls
    answer = weather_registry().answer(call)
    assert answer.is_error and problem in answer.content


def test_deep_huge_and_repeated_arguments_in_a_raw_reply_become_answerable_calls():
    from mingraph_lite.course.weather import weather_registry
    from mingraph_lite.llms.ollama import read_reply

    def body(arguments):
        return ('{"model": "m", "done": true, "message": {"role": "assistant", "content": "", "tool_calls": '
                '[{"function": {"name": "get_weather", "arguments": ' + arguments + "}}]}}")

    for raw, problem in [('{"city": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper than 16 levels"),
                         ('{"city": 1' + "0" * 5000 + "}", "a number with 5001 digits"),
                         ('{"city": "Paris", "city": "Tokyo"}', "repeat the key 'city'")]:
        message, _ = read_reply(body(raw).encode(), [])
        answer = weather_registry().answer(message.tool_calls[0])
        assert answer.is_error and problem in answer.content, answer.content
