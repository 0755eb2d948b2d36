"""A subagent behind one tool: answers come back, a step limit becomes an error answer, the rest propagates."""

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import ScriptExhausted, StepLimitReached, ToolArgsError
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.memory import LastN
from mingraph_lite.messages import ToolCall, ToolMessage, UserMessage
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.subagents import SubagentRun, SubagentTool, subagent_tool
from mingraph_lite.tools import ToolRegistry

HELPER_PROMPT = "You look up one temperature."


def helper(replies, max_steps=3, **kw):
    return Agent(ScriptedLLM(replies), weather_registry(), HELPER_PROMPT, max_steps=max_steps, **kw)


def parent_registry(tool):
    registry = ToolRegistry()
    registry.add(tool)
    return registry


def test_the_tool_has_one_task_argument_and_the_given_name_and_description():
    fn = subagent_tool(helper(["x"]), "ask_helper", "Ask the weather helper one question.")
    spec = parent_registry(fn).tools[0]["function"]
    assert spec["name"] == "ask_helper"
    assert spec["description"] == "Ask the weather helper one question."
    assert list(spec["parameters"]["properties"]) == ["task"]
    assert spec["parameters"]["required"] == ["task"]
    assert spec["parameters"]["properties"]["task"]["type"] == "string"
    assert isinstance(fn.subagent, SubagentTool)


def test_an_answer_comes_back_as_the_tool_result_and_the_run_is_recorded():
    fn = subagent_tool(helper([[("get_weather", {"city": "Paris"})], "Paris is 18°C."]), "ask_helper", "Ask.")
    registry = parent_registry(fn)
    result = registry.run(ToolCall("c1", "ask_helper", {"task": "Temperature in Paris?"}))
    assert result == ToolMessage("Paris is 18°C.", "c1", name="ask_helper")
    assert fn.subagent.runs == [SubagentRun("Temperature in Paris?", "Paris is 18°C.", 2)]


def test_each_call_runs_on_a_fresh_folder():
    llm = ScriptedLLM(["first answer", "second answer"])
    tool = SubagentTool(Agent(llm, weather_registry(), HELPER_PROMPT), "ask_helper", "Ask.")
    assert tool("task one") == "first answer"
    assert tool("task two") == "second answer"
    second_folder = llm.calls[1][0]
    assert [m.content for m in second_folder if isinstance(m, UserMessage)] == ["task two"]
    assert len(second_folder) == 2  # system prompt + this task only


def test_the_template_agent_is_left_untouched():
    template = helper(["done"])
    SubagentTool(template, "ask_helper", "Ask.")("a task")
    assert len(template.memory) == 0


def test_the_memory_factory_is_used_for_each_fresh_folder():
    seen = []

    def window(prompt):
        seen.append(LastN(prompt, 2))
        return seen[-1]

    tool = SubagentTool(helper(["a", "b"]), "ask_helper", "Ask.", memory=window)
    tool("one"), tool("two")
    assert len(seen) == 2 and seen[0] is not seen[1]


def test_a_step_limit_becomes_an_error_answer_and_the_parent_run_goes_on():
    looping = helper([[("get_weather", {"city": "Paris"})]] * 5, max_steps=2)
    fn = subagent_tool(looping, "ask_helper", "Ask.")
    parent_llm = ScriptedLLM([[("ask_helper", {"task": "Paris?"})], "The helper could not finish."])
    parent = Agent(parent_llm, parent_registry(fn), "You delegate.", max_steps=3)
    assert parent.run({"question": "What about Paris?"}) == {"answer": "The helper could not finish."}
    answer = parent_llm.calls[1][0][-1]
    assert isinstance(answer, ToolMessage)
    assert answer.content.startswith("Error: the subagent stopped without an answer after 2 model calls")
    assert fn.subagent.runs == [SubagentRun("Paris?", None, 2, stopped="step limit")]


def test_an_empty_task_is_the_parents_slip_to_fix():
    fn = subagent_tool(helper(["x"]), "ask_helper", "Ask.")
    with pytest.raises(ToolArgsError, match="non-empty 'task'"):
        parent_registry(fn).run(ToolCall("c1", "ask_helper", {"task": "  "}))
    assert fn.subagent.runs == []


def test_other_failures_propagate_unchanged():
    fn = subagent_tool(helper([]), "ask_helper", "Ask.")  # a script with no replies
    parent = Agent(ScriptedLLM([[("ask_helper", {"task": "Paris?"})], "never read"]),
                   parent_registry(fn), "You delegate.")
    with pytest.raises(ScriptExhausted):
        parent.run({"question": "Paris?"})
    assert parent.memory.messages()[-1].content.startswith("Error: tool failed")


def test_a_parent_with_its_own_step_limit_still_raises():
    fn = subagent_tool(helper(["fine"] * 3), "ask_helper", "Ask.")
    parent = Agent(ScriptedLLM([[("ask_helper", {"task": "x"})]] * 3), parent_registry(fn), "P", max_steps=2)
    with pytest.raises(StepLimitReached):
        parent.run({"question": "q"})


def test_the_subagents_listeners_hear_each_call():
    recorder = EventRecorder()
    fn = subagent_tool(helper(["one", "two"], observers=[recorder]), "ask_helper", "Ask.")
    fn("a"), fn("b")
    assert recorder.names().count("run_start") == 2
    assert [e["answer"] for e in recorder.of("finish")] == ["one", "two"]


@pytest.mark.parametrize("name, description, error", [("not a name", "d", ValueError),
                                                      ("ok", "  ", ValueError)])
def test_bad_construction_names_the_fix(name, description, error):
    with pytest.raises(error):
        SubagentTool(helper(["x"]), name, description)


def test_only_an_agent_can_be_wrapped():
    with pytest.raises(TypeError, match="wraps an Agent"):
        SubagentTool(lambda q: q, "ask", "Ask.")
