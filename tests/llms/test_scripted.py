"""ScriptedLLM, the default model: replies in order, labelled scripted, and errors that say what to do."""

from __future__ import annotations

import pytest

from mingraph_lite.errors import ScriptExhausted
from mingraph_lite.llms.base import LLM, LLMResponse
from mingraph_lite.llms.scripted import ScriptedLLM, word_count
from mingraph_lite.messages import AssistantMessage, ToolCall, ToolMessage, UserMessage

MENU = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
ASKED = [UserMessage("What's the temperature in Paris?")]


def test_a_string_is_a_final_answer_labelled_scripted():
    response = ScriptedLLM(["It's 18°C in Paris."]).generate(ASKED, MENU)
    assert response == LLMResponse(AssistantMessage("It's 18°C in Paris."), model="scripted")


def test_tuples_become_tool_calls_with_stable_ids():
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})],
                       [("get_weather", {"city": "Cairo"})]])
    first, second = llm.generate(ASKED, MENU), llm.generate(ASKED, MENU)
    assert [(c.id, c.arguments["city"]) for c in first.message.tool_calls] == [("call_1_1", "Paris"),
                                                                                ("call_1_2", "Tokyo")]
    assert second.message.tool_calls == (ToolCall("call_2_1", "get_weather", {"city": "Cairo"}),)
    assert first.message.content == "" and first.model == "scripted"


def test_calls_messages_and_envelopes_pass_through():
    call = ToolCall("mine", "get_weather", {"city": "Oslo"})
    envelope = LLMResponse(AssistantMessage("done"), input_tokens=3, model="recorded")
    llm = ScriptedLLM([[call], AssistantMessage("as is"), envelope])
    assert llm.generate(ASKED, MENU).message.tool_calls == (call,)
    assert llm.generate(ASKED, MENU) == LLMResponse(AssistantMessage("as is"), model="scripted")
    assert llm.generate(ASKED, MENU) is envelope


def test_a_callable_reads_what_the_model_would_read():
    seen = []

    def reply(messages, tools):
        seen.append((messages, tools))
        return f"I was read {len(messages)} messages and {len(tools)} tools."

    llm = ScriptedLLM([reply])
    assert llm.generate(ASKED, MENU).message.content == "I was read 1 messages and 1 tools."
    assert seen == [(ASKED, MENU)] and llm.calls == [(ASKED, MENU)]


def test_calls_are_recorded_and_remaining_counts_down():
    llm = ScriptedLLM(["a", "b"])
    assert llm.remaining == 2
    llm.generate(ASKED, [])
    assert llm.remaining == 1 and llm.calls == [(ASKED, [])]


def test_running_out_raises_script_exhausted_naming_the_counts():
    llm = ScriptedLLM(["only one"])
    llm.generate(ASKED, MENU)
    with pytest.raises(ScriptExhausted, match="the script has 1 replies and call 2 asked for another"):
        llm.generate(ASKED, MENU)
    assert len(llm.calls) == 1  # the failed call is not recorded as read


@pytest.mark.parametrize("reply, error, text", [
    (42, TypeError, "cannot script a reply from int: use a str, a list of tool calls"),
    ([], ValueError, "a scripted reply with no tool calls should be a final-answer string"),
    ([("get_weather",)], TypeError, "a scripted tool call must be a ToolCall or a (name, arguments) tuple"),
    ([42], TypeError, "got 42"),
])
def test_a_reply_that_cannot_be_scripted_says_what_to_use(reply, error, text):
    with pytest.raises(error) as info:
        ScriptedLLM([reply]).generate(ASKED, MENU)
    assert text in str(info.value)


def test_a_callable_that_returns_something_unscriptable_fails_the_same_way():
    with pytest.raises(TypeError, match="cannot script a reply from float"):
        ScriptedLLM([lambda messages, tools: 1.5]).generate(ASKED, MENU)


def test_no_token_counts_unless_a_stated_rule_is_given():
    plain = ScriptedLLM(["one two three"]).generate(ASKED, MENU)
    assert (plain.input_tokens, plain.output_tokens) == (None, None)
    counted = ScriptedLLM(["one two three"], count_tokens=word_count).generate(ASKED, MENU)
    assert (counted.input_tokens, counted.output_tokens) == (5, 3)  # five words read, three written
    assert counted.model == "scripted (tokens counted as words)"


def test_word_count_counts_calls_and_answers_too():
    reply = AssistantMessage("", (ToolCall("c1", "get_weather", {"city": "Paris"}),))
    read = [UserMessage("two words"), reply, ToolMessage("18", "c1", name="get_weather")]
    assert word_count(read, AssistantMessage("Paris is 18°C.")) == (2 + 3 + 1, 3)


def test_it_keeps_the_model_contract_and_says_it_is_scripted():
    llm = ScriptedLLM(["x"], name="scripted: a test")
    assert isinstance(llm, LLM) and llm.name == "scripted: a test"
    assert repr(llm) == "ScriptedLLM(1 replies, 0 used, scripted)"


def test_the_scripted_id_scheme_is_one_helper_the_modelled_managers_share():
    import random

    from mingraph_lite.course.modelled import modelled_manager
    from mingraph_lite.llms.scripted import scripted_calls

    mine = ToolCall("mine", "get_weather", {"city": "Oslo"})
    assert [c.id for c in scripted_calls([("get_weather", {"city": "Paris"}), mine], 3)] == ["call_3_1", "mine"]
    _, manager = modelled_manager("18", random.Random(1))
    first = manager.generate(ASKED, MENU).message.tool_calls
    assert [c.id for c in first] == [c.id for c in scripted_calls([(c.name, c.arguments) for c in first], 1)]
