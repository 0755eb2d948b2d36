"""Messages: frozen values with one JSON spelling each (to_dict/from_dict) and readable reprs."""

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.messages import (
    AssistantMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UserMessage,
    message_from_dict,
)

NAMESPACE = {cls.__name__: cls
             for cls in (AssistantMessage, SystemMessage, ToolCall, ToolMessage, UserMessage)}

json_scalars = (st.none() | st.booleans() | st.integers() | st.text()
                | st.floats(allow_nan=False, allow_infinity=False))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(), inner, max_size=3), max_leaves=8)
arguments = st.dictionaries(st.text(), json_values, max_size=4) | st.text()  # a dict, or raw JSON text
tool_calls = st.builds(ToolCall, id=st.text(min_size=1), name=st.text(min_size=1), arguments=arguments)
messages = st.one_of(
    st.builds(SystemMessage, content=st.text()),
    st.builds(UserMessage, content=st.text()),
    st.builds(AssistantMessage, content=st.text(), tool_calls=st.lists(tool_calls, max_size=3).map(tuple)),
    st.builds(ToolMessage, content=st.text(), tool_call_id=st.text(min_size=1),
              name=st.none() | st.text(), is_error=st.booleans()),
)


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(messages)
def test_every_message_round_trips_through_its_dict_and_through_json(message):
    data = message.to_dict()
    assert message_from_dict(data) == message
    assert type(message).from_dict(data) == message
    assert message_from_dict(json.loads(json.dumps(data))) == message


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(tool_calls)
def test_tool_call_round_trips(call):
    assert ToolCall.from_dict(call.to_dict()) == call
    assert ToolCall.from_dict(json.loads(json.dumps(call.to_dict()))) == call


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(messages)
def test_repr_is_readable_and_rebuilds_the_message(message):
    text = repr(message)
    assert text.startswith(type(message).__name__ + "(")
    assert eval(text, dict(NAMESPACE)) == message  # the repr is the constructor call, nothing hidden


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(st.builds(LLMResponse, message=st.builds(AssistantMessage, content=st.text(),
                                                tool_calls=st.lists(tool_calls, max_size=2).map(tuple)),
                 input_tokens=st.none() | st.integers(0, 10**6),
                 output_tokens=st.none() | st.integers(0, 10**6),
                 reasoning=st.none() | st.text(), reasoning_tokens=st.none() | st.integers(0, 10**6),
                 model=st.none() | st.text()))
def test_llm_response_round_trips(response):
    assert LLMResponse.from_dict(json.loads(json.dumps(response.to_dict()))) == response


def test_roles_in_the_dicts():
    assert SystemMessage("s").to_dict() == {"role": "system", "content": "s"}
    assert UserMessage("u").to_dict() == {"role": "user", "content": "u"}
    call = ToolCall("call_1", "get_weather", {"city": "Paris"})
    assert AssistantMessage("", (call,)).to_dict() == {
        "role": "assistant", "content": "",
        "tool_calls": [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]}
    assert ToolMessage("18", "call_1", name="get_weather").to_dict() == {
        "role": "tool", "content": "18", "tool_call_id": "call_1", "name": "get_weather", "is_error": False}


@pytest.mark.parametrize("message", [SystemMessage("s"), UserMessage("u"), AssistantMessage("a"),
                                     ToolMessage("18", "call_1"), ToolCall("call_1", "get_weather")])
def test_values_are_frozen(message):
    field = dataclasses.fields(message)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(message, field, "changed")


def test_tool_calls_become_a_tuple():
    calls = [ToolCall("1", "a"), ToolCall("2", "b")]
    message = AssistantMessage("", tool_calls=calls)
    assert isinstance(message.tool_calls, tuple)
    calls.append(ToolCall("3", "c"))  # the list it was built from can't reach into the conversation
    assert len(message.tool_calls) == 2
    assert isinstance(message_from_dict(message.to_dict()).tool_calls, tuple)


def test_same_content_different_role_is_not_equal():
    assert SystemMessage("hi") != UserMessage("hi")
    assert UserMessage("hi") == UserMessage("hi")


def test_readable_reprs():
    assert repr(UserMessage("What's the weather?")) == "UserMessage(content=\"What's the weather?\")"
    assert repr(ToolMessage("18", "call_1", name="get_weather")) == (
        "ToolMessage(content='18', tool_call_id='call_1', name='get_weather', is_error=False)")
    assert "ToolCall(id='call_1', name='get_weather', arguments={'city': 'Paris'})" in repr(
        AssistantMessage("", (ToolCall("call_1", "get_weather", {"city": "Paris"}),)))


def test_unknown_role_is_a_value_error_naming_the_roles():
    with pytest.raises(ValueError, match="assistant"):
        message_from_dict({"role": "robot", "content": "beep"})


def test_raw_json_arguments_survive_as_text():
    call = ToolCall("1", "to_fahrenheit", '{"celsius": 18')  # malformed on purpose: the registry answers it
    assert ToolCall.from_dict(call.to_dict()).arguments == '{"celsius": 18'
