"""What a sixth fresh reader found in notebooks 10 and 09 stays fixed (issue 21): the scripted reader's first-city
rule is the one 08 states, and subagent_tool lets a broken tool through, as 09 says ("Like yours")."""

from __future__ import annotations

import pytest

from lessons.conversation import reader_policy
from mingraph_lite import (
    Agent,
    AssistantMessage,
    ScriptedLLM,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolRegistry,
    UserMessage,
    subagent_tool,
)


def test_the_first_city_is_read_from_a_question_not_from_a_tool_call():
    paris = ToolCall("p1", "get_weather", {"city": "Paris"})
    folder = [SystemMessage("You help."), AssistantMessage("", tool_calls=(paris,)),
              ToolMessage("18", tool_call_id="p1", name="get_weather"), AssistantMessage("Paris is 18°C."),
              UserMessage("And in Tokyo?"), AssistantMessage("Tokyo is 24°C."),
              UserMessage("Which city did I ask about first?")]
    assert reader_policy(folder, []) == "The first city you asked about is Tokyo."


class _Broken(RuntimeError):
    pass


def test_subagent_tool_lets_a_broken_tool_end_the_managers_run():
    def get_weather(city: str) -> str:
        """Get the temperature in a city.

        Args:
            city: The city.
        """
        raise _Broken("sensor offline")

    tools = ToolRegistry()
    tools.add(get_weather)
    helper = Agent(ScriptedLLM([[("get_weather", {"city": "Lima"})], "never"], name="scripted: helper (test)"),
                   tools, "You help.")
    registry = ToolRegistry()
    registry.add(subagent_tool(helper, "ask", "Ask the helper."))
    manager = Agent(ScriptedLLM([[("ask", {"task": "Lima?"})], "never"], name="scripted: manager (test)"), registry,
                    "You delegate.")
    with pytest.raises(_Broken):
        manager.run({"question": "How warm is Lima?"})
