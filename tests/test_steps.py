"""Steps: a state passed down a list; CallModel and RunTools as single steps."""

import pytest

from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.steps import CallModel, RunTools, Sequence, Step


class Add:
    def __init__(self, key, value):
        self.key, self.value = key, value

    def run(self, state):
        return {self.key: self.value, "seen": [*state.get("seen", []), self.key]}


class Vandal:
    """Tries to change the state in place instead of returning an update."""

    def run(self, state):
        state["a"] = "vandalised"
        state.clear()
        return {}


def test_sequence_runs_in_order_and_merges_updates():
    result = Sequence([Add("a", 1), Add("b", 2), Add("a", 3)]).run({"start": True})
    assert result == {"start": True, "a": 3, "b": 2, "seen": ["a", "b", "a"]}


def test_a_step_changes_the_worksheet_only_by_returning():
    start = {"a": 1}
    assert Sequence([Vandal(), Add("b", 2)]).run(start) == {"a": 1, "b": 2, "seen": ["b"]}
    assert start == {"a": 1}  # the caller's dict is untouched too


def test_sequence_checks_its_steps():
    with pytest.raises(TypeError, match="run"):
        Sequence([Add("a", 1), "not a step"])

    class ReturnsList:
        def run(self, state):
            return ["a"]

    with pytest.raises(TypeError, match="dict of updates"):
        Sequence([ReturnsList()]).run({})


def test_steps_are_steps():
    for step in (Add("a", 1), Sequence([]), CallModel(ScriptedLLM([])), RunTools(weather_registry())):
        assert isinstance(step, Step)
    assert repr(Sequence([Add("a", 1), RunTools(weather_registry())])) == "Sequence([Add, RunTools])"


def test_call_model_starts_from_the_question():
    llm = ScriptedLLM(["Hello."])
    update = CallModel(llm, weather_registry(), SYSTEM_PROMPT).run({"question": "Hi?"})
    assert update["messages"] == [SystemMessage(SYSTEM_PROMPT), UserMessage("Hi?"),
                                  AssistantMessage("Hello.")]
    assert update["answer"] == "Hello."
    assert update["reply"].model == "scripted"
    sent, tools = llm.calls[0]
    assert sent == [SystemMessage(SYSTEM_PROMPT), UserMessage("Hi?")]
    assert [t["function"]["name"] for t in tools] == ["get_weather", "to_fahrenheit"]


def test_call_model_with_slips_has_no_answer_and_no_registry_means_no_menu():
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"})]])
    update = CallModel(llm).run({"question": "Paris?"})
    assert "answer" not in update
    assert update["messages"][-1].tool_calls[0].name == "get_weather"
    assert llm.calls[0] == ([UserMessage("Paris?")], [])


def test_call_model_needs_a_question_or_messages():
    with pytest.raises(ValueError, match="question"):
        CallModel(ScriptedLLM(["x"])).run({})


def test_run_tools_answers_each_slip_bad_ones_with_what_to_fix():
    calls = (ToolCall("a", "get_weather", {"city": "Paris"}),
             ToolCall("b", "to_fahrenheit", {"celsius": "18"}),
             ToolCall("c", "get_temperature", {"city": "Tokyo"}))
    state = {"messages": [UserMessage("q"), AssistantMessage("", calls)]}
    messages = RunTools(weather_registry()).run(state)["messages"]
    assert messages[:2] == state["messages"]
    assert messages[2] == ToolMessage("18", "a", name="get_weather")
    assert messages[3].tool_call_id == "b" and messages[3].is_error and "celsius" in messages[3].content
    assert messages[4].tool_call_id == "c" and messages[4].is_error and "get_weather" in messages[4].content
    assert len(state["messages"]) == 2  # the input list was not appended to


@pytest.mark.parametrize("messages", [[], [UserMessage("q")], [UserMessage("q"), AssistantMessage("done")]])
def test_run_tools_needs_slips_to_run(messages):
    with pytest.raises(ValueError, match="tool calls"):
        RunTools(weather_registry()).run({"messages": messages})


def test_a_list_of_steps_goes_only_forward():
    """Written out for the three-round manager it works; the four-round one needs one more pair: a list
    can't know how many rounds a model takes, which is why the agent is a loop."""
    registry = weather_registry()

    def pipeline(llm):
        return Sequence([CallModel(llm, registry, SYSTEM_PROMPT), RunTools(registry),
                         CallModel(llm, registry), RunTools(registry), CallModel(llm, registry)])

    assert pipeline(three_round_manager()).run({"question": QUESTION})["answer"] == "Paris: 64°F, Tokyo: 75°F"
    result = pipeline(four_round_manager()).run({"question": QUESTION})
    assert "answer" not in result and result["messages"][-1].tool_calls


def test_run_tools_answers_each_ticket_number_once():
    from mingraph_lite.course.weather import weather_registry
    from mingraph_lite.messages import AssistantMessage, ToolCall, ToolMessage
    from mingraph_lite.steps import RunTools

    calls = (ToolCall("a", "get_weather", {"city": "Paris"}), ToolCall("a", "get_weather", {"city": "Tokyo"}),
             ToolCall("b", "get_weather", {"city": "Paris"}))
    out = RunTools(weather_registry()).run({"messages": [AssistantMessage("", calls)]})["messages"]
    answers = [m for m in out if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in answers] == ["a", "b"]
    assert answers[0].is_error and "share the id" in answers[0].content and not answers[1].is_error
