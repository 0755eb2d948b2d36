"""ReplayLLM: a recorded run re-runs exactly, and a run that drifts from the recording says where."""

from __future__ import annotations

import json

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import ReplayMismatch, ScriptExhausted, StepLimitReached
from mingraph_lite.llms.replay import ReplayLLM
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TraceRecorder
from mingraph_lite.tools import ToolRegistry


def dicts(messages):
    return [m.to_dict() for m in messages]


@pytest.fixture
def recorded(tmp_path):
    path = tmp_path / "run.jsonl"
    agent = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[TraceRecorder(path)])
    answer = agent.run({"question": QUESTION})["answer"]
    return path, agent, answer


def test_replay_reproduces_the_folder_and_the_answer(recorded):
    path, original, answer = recorded
    replay = ReplayLLM.from_trace(path)
    again = Agent(replay, weather_registry(), SYSTEM_PROMPT)
    assert again.run({"question": QUESTION})["answer"] == answer
    assert dicts(again.memory.messages()) == dicts(original.memory.messages())
    assert len(replay.calls) == 4
    assert all(r.model == "replay:scripted: four rounds" or r.model.startswith("replay:")
               for r in replay.responses)


def test_replay_works_from_recorded_events_too():
    recorder = EventRecorder()
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
          observers=[recorder]).run({"question": QUESTION})
    replay = ReplayLLM.from_events(recorder.events)
    assert Agent(replay, weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION})["answer"]


def test_a_different_first_folder_is_a_mismatch_at_step_1(recorded):
    path, _, _ = recorded
    agent = Agent(ReplayLLM.from_trace(path), weather_registry(), "Another system prompt.")
    with pytest.raises(ReplayMismatch, match="replay step 1"):
        agent.run({"question": QUESTION})


def test_different_tool_results_are_a_mismatch_at_step_2(recorded):
    path, _, _ = recorded
    tools = ToolRegistry()

    @tools.add
    def get_weather(city: str) -> str:
        """Get the temperature for a city, in degrees Celsius.

        Args:
            city: The city name.
        """
        return "99"  # not what was recorded

    @tools.add
    def to_fahrenheit(celsius: float) -> float:
        """Convert Celsius to Fahrenheit.

        Args:
            celsius: Degrees Celsius.
        """
        return celsius * 9 / 5 + 32

    with pytest.raises(ReplayMismatch, match="replay step 2") as info:
        Agent(ReplayLLM.from_trace(path), tools, SYSTEM_PROMPT).run({"question": QUESTION})
    assert "99" in str(info.value)


def test_asking_for_more_than_was_recorded_is_script_exhausted(tmp_path):
    path = tmp_path / "short.jsonl"
    agent = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, max_steps=2,
                  observers=[TraceRecorder(path)])
    with pytest.raises(StepLimitReached):
        agent.run({"question": QUESTION})
    replay = ReplayLLM.from_trace(path)
    longer = Agent(replay, weather_registry(), SYSTEM_PROMPT, max_steps=5)
    with pytest.raises(ScriptExhausted, match="replay step 3") as info:
        longer.run({"question": QUESTION})
    assert not isinstance(info.value, ReplayMismatch)


def test_picking_a_run_from_a_trace_with_several(tmp_path):
    path = tmp_path / "two.jsonl"
    recorder = TraceRecorder(path)
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
          observers=[recorder]).run({"question": QUESTION})
    short = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, max_steps=1, observers=[recorder])
    with pytest.raises(StepLimitReached):
        short.run({"question": QUESTION})
    run_ids = list(dict.fromkeys(json.loads(line)["run_id"] for line in path.read_text().splitlines()))
    assert len(run_ids) == 2
    assert len(ReplayLLM.from_trace(path).responses) == 1            # default: the latest run
    assert len(ReplayLLM.from_trace(path, run=1).responses) == 4
    assert len(ReplayLLM.from_trace(path, run=run_ids[0]).responses) == 4
    with pytest.raises(ValueError, match="2 run"):
        ReplayLLM.from_trace(path, run=3)


def test_a_trace_without_replies_is_refused(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text(json.dumps({"run_id": "r", "event": "run_start", "messages": []}) + "\n")
    with pytest.raises(ValueError, match="no model_reply"):
        ReplayLLM.from_trace(path)
