"""Notebook 01's claims about the wire, checked against the official client this course pins."""

import json

import httpx
import ollama
import pytest

from mingraph_lite.llms.ollama import to_ollama_messages
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, UserMessage


def test_the_official_ollama_client_drops_an_empty_content_as_the_adapter_does():
    sent = []

    def server(request):
        sent.append(json.loads(request.content))
        return httpx.Response(200, json={"model": "m", "message": {"role": "assistant", "content": "ok"}, "done": True})

    client = ollama.Client(host="http://fake", transport=httpx.MockTransport(server))
    slip = {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
    client.chat("m", messages=[{"role": "user", "content": "Hi"},
                               {"role": "assistant", "content": "", "tool_calls": [slip]}])
    assert sent[0]["messages"][1] == {"role": "assistant", "tool_calls": [slip]}  # no "content": ""
    tool_call = ToolCall("c1", "get_weather", {"city": "Paris"})
    folder = [SystemMessage("s"), UserMessage("Hi"), AssistantMessage("", tool_calls=(tool_call,))]
    assert "content" not in to_ollama_messages(folder)[2]  # the adapter agrees with the client


def test_the_prediction_hints_name_a_cause_only_for_values_the_runs_did_not_give():
    from lessons.by_hand import ROUNDS_HINTS, budget_hint, rounds_hint
    from lessons.predict import ending
    from lessons.reference import reference
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, three_round_manager
    from mingraph_lite.course.weather import weather_registry

    registry, llm = weather_registry(), three_round_manager()
    agent = __import__("mingraph_lite").Agent(llm, registry, SYSTEM_PROMPT)
    agent.run({"question": QUESTION})
    actual = {"model calls": len(llm.calls),
              "errands": sum(len(m.tool_calls) for m in agent.memory.messages() if m.role == "assistant")}
    assert all(actual[key] != value for key, value in ROUNDS_HINTS)  # no hint blames the right value
    assert "00's manager" in rounds_hint({"model calls": 4, "errands": 4})
    assert "one slip, not one reply" in rounds_hint({"model calls": 3, "errands": 2})
    outcomes = {b: ending(reference("01.4"), three_round_manager(), registry, SYSTEM_PROMPT, QUESTION, max_tool_calls=b)
                for b in (4, 3)}
    assert outcomes == {4: "answer", 3: "StepLimitReached"}  # what budget_hint's two causes say
    assert "spent exactly" in budget_hint({4: "StepLimitReached", 3: "StepLimitReached"})
    hint = budget_hint({4: "answer", 3: "answer"})
    assert "with 3" in hint and "with 4" not in hint
    assert "'stepLimitReached'" in budget_hint({4: "answer", 3: "stepLimitReached"})  # a typo is named


def test_the_print_only_cells_show_what_the_notebook_says(capsys):
    from lessons.by_hand import show_menu, show_timeline, show_wire
    from mingraph_lite.course.weather import weather_registry

    registry = weather_registry()
    show_menu(registry)
    to_ollama, to_openai = show_wire(registry)
    assert to_ollama["stream"] is False and "stream" not in to_openai and to_ollama["messages"] == to_openai["messages"]
    read = show_timeline(registry, shown=False)
    shown = capsys.readouterr().out
    assert "words read per call" not in shown and '"tool_name": "get_weather"' in shown and "to_fahrenheit(18)" in shown
    assert len(read) == 2
    assert all(later > earlier for r in read.values() for earlier, later in zip(r, r[1:], strict=False))


def test_q2_takes_the_pair_as_a_list_too():
    from lessons.exercises import Hint
    from lessons.exercises.nb01 import check_low_ceiling

    assert check_low_ceiling([3, False]).startswith("right")
    with pytest.raises(Hint, match="never turned into an answer"):
        check_low_ceiling([3, True])
