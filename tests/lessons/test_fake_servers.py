"""The fake servers of notebook 01: each adapter's real request reaches them, and their replies are read back."""

import pytest

from lessons.fake_servers import FakeServer, ollama_on, ollama_reply, openai_on, openai_reply
from mingraph_lite import SystemMessage, UserMessage
from mingraph_lite.course.weather import weather_registry

FOLDER = [SystemMessage("You answer."), UserMessage("How warm is Paris?")]


def test_the_ollama_adapter_sends_its_body_to_the_fake_server_and_reads_the_reply():
    registry = weather_registry()
    server = FakeServer(ollama_reply({"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, 25, 4))
    response = ollama_on(server).generate(FOLDER, registry.tools)
    (body,) = server.bodies
    assert body["stream"] is False and body["tools"] == registry.tools
    assert [m["content"] for m in body["messages"]] == ["You answer.", "How warm is Paris?"]
    (slip,) = response.message.tool_calls
    assert (slip.name, slip.arguments) == ("get_weather", {"city": "Paris"}) and slip.id.startswith("call_")


def test_the_openai_adapter_sends_its_body_to_the_fake_server_and_keeps_the_servers_ids():
    registry = weather_registry()
    server = FakeServer(openai_reply({"content": None, "tool_calls": [
        {"id": "call_Z9", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}]}))
    response = openai_on(server).generate(FOLDER, registry.tools)
    (body,) = server.bodies
    assert body["model"] == "gpt-5-mini" and body["tools"] == registry.tools and "stream" not in body
    assert [(c.id, c.arguments) for c in response.message.tool_calls] == [("call_Z9", {"city": "Oslo"})]


def test_a_server_with_no_reply_left_says_so():
    server = FakeServer()
    with pytest.raises(RuntimeError, match="no reply left"):
        ollama_on(server).generate(FOLDER, weather_registry().tools)
    assert len(server.bodies) == 1
