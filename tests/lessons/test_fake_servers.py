"""The fake servers of notebook 01: each adapter's real request reaches them, and their replies are read back."""

import pytest

from lessons.fake_servers import FakeServer, ollama_on, ollama_reply, openai_on, openai_reply, show_sent, two_lookups
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


def test_notebook_01s_round_one_asks_for_paris_and_tokyo_on_both_servers():
    raw, ollama_server, openai_server = two_lookups()
    registry = weather_registry()
    from_ollama = ollama_on(ollama_server).generate(FOLDER, registry.tools)
    from_openai = openai_on(openai_server).generate(FOLDER, registry.tools)
    for response in (from_ollama, from_openai):
        assert [c.arguments["city"] for c in response.message.tool_calls] == ["Paris", "Tokyo"]
        assert (response.input_tokens, response.output_tokens) == (250, 40)
    assert "id" not in str(raw["message"]["tool_calls"]) and from_ollama.message.tool_calls[0].id.startswith("call_")
    assert [c.id for c in from_openai.message.tool_calls] == ["call_A1", "call_A2"]
    assert ollama_server.replies and openai_server.replies  # a second reply is left for round 2


def test_notebook_01s_round_two_spells_the_answer_slips_two_ways():
    """What 01 says of round 2: Ollama pairs answers by tool name, OpenAI by id; arguments a dict vs JSON text;
    the empty text of the reply that passed slips is left out by the Ollama adapter."""
    _, ollama_server, openai_server = two_lookups()
    on_ollama, on_openai, registry = ollama_on(ollama_server), openai_on(openai_server), weather_registry()
    from_openai = on_openai.generate(FOLDER, registry.tools)
    on_ollama.generate(FOLDER, registry.tools)
    round_two = [*FOLDER, from_openai.message, *(registry.run(slip) for slip in from_openai.message.tool_calls)]
    on_ollama.generate(round_two, registry.tools)
    on_openai.generate(round_two, registry.tools)
    ollama_wire, openai_wire = ollama_server.bodies[1]["messages"], openai_server.bodies[1]["messages"]
    assert [m["tool_name"] for m in ollama_wire[3:]] == ["get_weather"] * 2
    assert [m["tool_call_id"] for m in openai_wire[3:]] == ["call_A1", "call_A2"]
    assert isinstance(openai_wire[2]["tool_calls"][0]["function"]["arguments"], str)
    assert isinstance(ollama_wire[2]["tool_calls"][0]["function"]["arguments"], dict)
    assert from_openai.message.content == "" and "content" not in ollama_wire[2]
    assert openai_wire[2]["content"] is None


def test_show_sent_prints_each_servers_messages_after_the_first_two(capsys):
    server = FakeServer()
    server.bodies.append({"messages": [{"role": "system"}, {"role": "user"}, {"role": "tool", "content": "18°C"}]})
    show_sent(0, Ollama=server)
    assert capsys.readouterr().out.splitlines() == ["to Ollama, one message a line:",
                                                    '  {"role": "tool", "content": "18°C"}']
