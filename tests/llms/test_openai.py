"""OpenAILLM against the real ``openai`` client, answered by a mock transport in the Chat Completions
wire format. We assert the request bodies we send as well as how we read the replies."""

from __future__ import annotations

import json

import httpx
import pytest

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms.openai import OpenAILLM
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, ToolMessage, UserMessage

openai = pytest.importorskip("openai")

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Get the temperature for a city, in degrees Celsius.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
MESSAGES = [SystemMessage("You answer questions about the weather."), UserMessage("Paris and Tokyo?")]


def completion(message, prompt=80, completion_tokens=40, reasoning=0, model="gpt-5-mini-2025-08-07"):
    return {"id": "chatcmpl-abc", "object": "chat.completion", "created": 1754000000, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "refusal": None, "annotations": [],
                                                  **message},
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion_tokens,
                      "total_tokens": prompt + completion_tokens,
                      "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
                      "completion_tokens_details": {"reasoning_tokens": reasoning, "audio_tokens": 0,
                                                    "accepted_prediction_tokens": 0,
                                                    "rejected_prediction_tokens": 0}},
            "service_tier": "default", "system_fingerprint": None}


def adapter(wire, base_url="https://api.openai.com/v1", **kwargs):
    client = openai.OpenAI(api_key="test-key", base_url=base_url, max_retries=0,
                           http_client=httpx.Client(transport=wire.transport()))
    return OpenAILLM(kwargs.pop("model", "gpt-5-mini"), client=client, **kwargs)


def test_plain_answer_with_reasoning_tokens_and_the_exact_request(wire_factory):
    wire = wire_factory(completion({"content": "Paris is 18 °C."}, 80, 150, reasoning=128))
    response = adapter(wire, reasoning_effort="low").generate(MESSAGES, TOOLS)

    assert response.message == AssistantMessage("Paris is 18 °C.")
    assert (response.input_tokens, response.output_tokens, response.reasoning_tokens) == (80, 150, 128)
    assert response.reasoning is None  # Chat Completions never returns the reasoning text
    assert response.model == "gpt-5-mini-2025-08-07"
    assert wire.requests[0].url.path == "/v1/chat/completions"
    assert wire.requests[0].headers["authorization"] == "Bearer test-key"
    assert wire.bodies == [{
        "model": "gpt-5-mini",
        "messages": [{"role": "system", "content": "You answer questions about the weather."},
                     {"role": "user", "content": "Paris and Tokyo?"}],
        "tools": TOOLS, "reasoning_effort": "low"}]


def test_several_tool_calls_keep_their_ids_and_malformed_arguments_stay_text(wire_factory):
    wire = wire_factory(completion({"content": None, "tool_calls": [
        {"id": "call_P", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
        {"id": "call_T", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city": "Tok'}}]}))
    response = adapter(wire).generate(MESSAGES, TOOLS)

    assert response.message.content == ""
    assert response.message.tool_calls == (ToolCall("call_P", "get_weather", {"city": "Paris"}),
                                           ToolCall("call_T", "get_weather", '{"city": "Tok'))
    assert "reasoning_effort" not in wire.bodies[0]


# OpenAI takes unparsed arguments as the text the model wrote; llama.cpp's server (a class's `serve`) answers
# HTTP 500 to arguments that are not JSON, so it gets them inside an object that still shows what was written.
@pytest.mark.parametrize("base_url, sent_back", [
    ("https://api.openai.com/v1", '{"bad'),
    ("http://127.0.0.1:8080/v1", '{"_unparsed": "{\\"bad"}'),
])
def test_the_messages_go_back_with_calls_and_answers(wire_factory, base_url, sent_back):
    calls = (ToolCall("call_P", "get_weather", {"city": "Paris"}), ToolCall("call_T", "get_weather", '{"bad'))
    messages = [*MESSAGES, AssistantMessage("", tool_calls=calls),
              ToolMessage("18", "call_P", name="get_weather"),
              ToolMessage("Error: bad arguments", "call_T", name="get_weather", is_error=True)]
    wire = wire_factory(completion({"content": "Paris is 18 °C."}))
    adapter(wire, base_url).generate(messages, TOOLS)

    assert wire.bodies[0]["messages"][2:] == [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_P", "type": "function", "function": {"name": "get_weather",
                                                                "arguments": json.dumps({"city": "Paris"})}},
            {"id": "call_T", "type": "function", "function": {"name": "get_weather", "arguments": sent_back}}]},
        {"role": "tool", "tool_call_id": "call_P", "content": "18"},
        {"role": "tool", "tool_call_id": "call_T", "content": "Error: bad arguments"}]


def test_a_served_model_gets_strict_json_back_even_for_numbers_python_reads(wire_factory):
    # Python's JSON reader takes Infinity; llama.cpp refused it with HTTP 500 in the class benchmark.
    call = {"id": "c1", "type": "function", "function": {"name": "to_fahrenheit", "arguments": '{"celsius": Infinity}'}}
    wire = wire_factory(completion({"content": None, "tool_calls": [call]}), completion({"content": "done"}))
    llm = adapter(wire, "http://127.0.0.1:8080/v1")
    reply = llm.generate(MESSAGES, TOOLS).message
    llm.generate([*MESSAGES, reply, ToolMessage("Error", "c1", name="to_fahrenheit", is_error=True)], TOOLS)
    sent = wire.bodies[1]["messages"][2]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(sent) == {"_unparsed": '{"celsius": Infinity}'}


def test_no_tools_sends_no_tools_key(wire_factory):
    wire = wire_factory(completion({"content": "Hello."}))
    adapter(wire).generate(MESSAGES, [])
    assert "tools" not in wire.bodies[0]


@pytest.mark.parametrize("sampling", [{}, {"temperature": 0.7}, {"seed": 4}, {"temperature": 0, "seed": 0}])
def test_temperature_and_seed_are_sent_exactly_when_given(wire_factory, sampling):
    wire = wire_factory(completion({"content": "Hello."}), completion({"content": "Hello."}))
    llm = adapter(wire, **sampling)
    llm.generate(MESSAGES, TOOLS)
    llm.generate(MESSAGES, TOOLS)
    for body in wire.bodies:  # on every request, not only the first
        assert {k: body[k] for k in ("temperature", "seed") if k in body} == sampling


def test_a_refused_temperature_says_how_to_leave_it_unset(wire_factory):
    text = "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) is supported."
    wire = wire_factory((400, {"error": {"message": text, "type": "invalid_request_error",
                                         "param": "temperature", "code": "unsupported_value"}}))
    with pytest.raises(LLMUnavailable, match="temperature=None"):
        adapter(wire, model="gpt-5-mini", temperature=0.7).generate(MESSAGES, TOOLS)


def test_reasoning_effort_on_a_model_that_cannot_reason_says_what_to_do(wire_factory):
    text = "Unsupported parameter: 'reasoning_effort' is not supported with this model."
    error = {"error": {"message": text,
                       "type": "invalid_request_error", "param": "reasoning_effort",
                       "code": "unsupported_parameter"}}
    wire = wire_factory((400, error))
    with pytest.raises(LLMUnavailable, match="reasoning_effort=None"):
        adapter(wire, model="gpt-4o-mini", reasoning_effort="low").generate(MESSAGES, TOOLS)


def test_a_rejected_key_names_the_variable(wire_factory):
    wire = wire_factory((401, {"error": {"message": "Incorrect API key provided",
                                         "type": "invalid_request_error", "param": None,
                                         "code": "invalid_api_key"}}))
    with pytest.raises(LLMUnavailable, match="OPENAI_API_KEY"):
        adapter(wire).generate(MESSAGES, TOOLS)


def test_connection_refused_is_unavailable(wire_factory):
    wire = wire_factory(httpx.ConnectError("[Errno 111] Connection refused"))
    with pytest.raises(LLMUnavailable, match="cannot reach the OpenAI API"):
        adapter(wire).generate(MESSAGES, TOOLS)


def test_a_missing_key_names_the_variable(monkeypatch):
    monkeypatch.setenv("MINGRAPH_REAL_MODELS", "on")  # get past the guard to the key check
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMUnavailable, match="OPENAI_API_KEY is not set"):
        OpenAILLM("gpt-5-mini").generate(MESSAGES, TOOLS)


@pytest.mark.parametrize("arguments, problem", [
    ('{"city": "Paris", "city": "Tokyo"}', "repeat the key 'city'"),
    ('{"city": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper than 16 levels"),
    ('{"city": 1' + "0" * 5000 + "}", "a number with 5001 digits"),
    ("null", "must be a JSON object, got null"), ("[1]", "must be a JSON object, got list"),
])
def test_hostile_arguments_text_stays_text_and_is_answered_with_what_to_fix(wire_factory, arguments, problem):
    from mingraph_lite.course.weather import weather_registry

    wire = wire_factory(completion({"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}]}))
    (call,) = adapter(wire).generate([UserMessage("q")], []).message.tool_calls
    assert call.arguments == arguments  # kept as the model wrote it, for the registry to judge
    answer = weather_registry().answer(call)
    assert answer.is_error and problem in answer.content and len(answer.content) < 800
