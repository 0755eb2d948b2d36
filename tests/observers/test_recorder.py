"""EventRecorder: every announcement kept as data, in order, with its run and step."""

import json

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.messages import AssistantMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.observers.base import HOOKS, Observer, event_dict
from mingraph_lite.observers.recorder import EventRecorder


def test_events_in_the_order_announced_with_run_and_step():
    recorder = EventRecorder()
    agent = Agent(three_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder])
    agent.run({"question": QUESTION})
    events = recorder.events
    assert events[0]["event"] == "run_start" and events[0]["step"] is None
    assert [m["role"] for m in events[0]["messages"]] == ["system", "user"]
    assert [(e["event"], e["step"]) for e in events[1:4]] == [("step_start", 1), ("model_reply", 1),
                                                             ("tool_call", 1)]
    assert events[3] == {"run": 1, "step": 1, "event": "tool_call", "id": "call_1_1", "name": "get_weather",
                         "arguments": {"city": "Paris"}}
    assert events[4] == {"run": 1, "step": 1, "event": "tool_return", "role": "tool", "content": "18",
                         "tool_call_id": "call_1_1", "name": "get_weather", "is_error": False}
    reply = recorder.of("model_reply")[-1]
    assert reply["message"]["content"] == "Paris: 64°F, Tokyo: 75°F" and reply["model"] == "scripted"
    assert reply["input_tokens"] is None  # scripted: not reported, never guessed
    assert all(e["run"] == 1 for e in events)
    json.loads(json.dumps(events))  # plain data all the way down


def test_runs_are_numbered_and_clear_empties():
    recorder = EventRecorder()
    for manager in (four_round_manager, three_round_manager):
        Agent(manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    assert [e["run"] for e in recorder.of("run_start")] == [1, 2]
    assert [e["run"] for e in recorder.of("finish")] == [1, 2]
    assert len(recorder.of("step_start")) == 4 + 3
    assert "EventRecorder(34 events)" == repr(recorder)
    recorder.clear()
    assert recorder.events == [] and recorder.names() == []


def test_every_hook_has_one_event_spelling():
    call = ToolCall("c1", "get_weather", {"city": "Paris"})
    args = {
        "on_run_start": ([UserMessage("q")],),
        "on_step_start": (1,),
        "on_model_reply": (LLMResponse(AssistantMessage("hi"), model="scripted"),),
        "on_tool_call": (call,),
        "on_tool_return": (ToolMessage("18", "c1"),),
        "on_tool_error": (call, ValueError("broken")),
        "on_finish": ("hi", "answered"),
        "on_node_start": ("fetch", {"cities": ("Paris",), "msg": UserMessage("q")}),
        "on_node_end": ("fetch", {"temps": {"Paris": 18}}),
        "on_memory_call": (LLMResponse(AssistantMessage("a summary"), input_tokens=9, output_tokens=2),),
    }
    assert set(args) == set(HOOKS)
    recorder = EventRecorder()
    for hook in HOOKS:
        getattr(recorder, hook)(*args[hook])
        assert getattr(Observer(), hook)(*args[hook]) is None  # the base hooks do nothing
    assert recorder.names() == [h.removeprefix("on_") for h in HOOKS]
    assert recorder.of("tool_error")[0]["error_type"] == "ValueError"
    assert recorder.of("node_start")[0]["state"] == {"cities": ["Paris"],
                                                     "msg": {"role": "user", "content": "q"}}
    json.dumps(recorder.events)
    assert event_dict("on_finish", None, "step limit") == {"event": "finish", "answer": None,
                                                           "reason": "step limit"}
