"""ReplayLLM: a recorded run re-runs exactly, and a run that drifts from the recording says where."""

from __future__ import annotations

import functools
import json
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mingraph_lite
from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import MingraphError, ReplayError, ReplayMismatch, ScriptExhausted, StepLimitReached
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
    with pytest.raises(ReplayMismatch, match="replay step 1") as info:
        agent.run({"question": QUESTION})
    # A drifted run is a replay problem, not a script that ran out: it sits on the replay branch.
    assert isinstance(info.value, ReplayError) and not isinstance(info.value, ScriptExhausted)


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
    with pytest.raises(ReplayError, match="empty.jsonl: the chosen run has no model_reply"):
        ReplayLLM.from_trace(path)
    path.write_text("")
    with pytest.raises(ReplayError, match="empty.jsonl holds no events"):
        ReplayLLM.from_trace(path)
    with pytest.raises(ReplayError, match="the events are empty"):
        ReplayLLM.from_events([])


def lines_of(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path, events):
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


# a four-round trace: run_start on line 1, model_reply on 3, 9, 13, 17, tool_return on 5, 7, 11, 15
BREAKS = {
    "1": lambda e: {**e, "messages": "not a list"},
    "3": lambda e: {k: v for k, v in e.items() if k != "message"},
    "9": lambda e: {**e, "message": ["a", "list"]},
    "13": lambda e: {**e, "message": {**e["message"], "content": 42}},
    "13b": lambda e: {**e, "message": {**e["message"], "tool_calls": [{"id": "x"}]}},
    "7": lambda e: {k: v for k, v in e.items() if k != "tool_call_id"},
    "15": lambda e: {**e, "content": ["not", "text"]},
    "17": lambda e: {**e, "input_tokens": "many"},
    "1b": lambda e: {**e, "messages": [{"role": "robot", "content": "hi"}]},
}


@pytest.mark.parametrize("line", sorted(BREAKS))
def test_a_malformed_event_is_a_replay_error_naming_file_and_line(recorded, line):
    path, _, _ = recorded
    events = lines_of(path)
    number = int(line.rstrip("b"))
    events[number - 1] = BREAKS[line](events[number - 1])
    write_lines(path, events)
    with pytest.raises(ReplayError, match=rf"run.jsonl, line {number}: this \w+ event cannot be replayed") as info:
        ReplayLLM.from_trace(path)
    assert isinstance(info.value, MingraphError) and isinstance(info.value, ValueError)
    assert mingraph_lite.ReplayError is ReplayError  # exported at the top, as DESIGN draws it


def test_a_wrong_version_is_a_replay_error_naming_file_and_line(recorded):
    path, _, _ = recorded
    events = lines_of(path)
    events[5]["v"] = 7
    write_lines(path, events)
    with pytest.raises(ReplayError, match="run.jsonl, line 6: trace format version 7"):
        ReplayLLM.from_trace(path)


@pytest.mark.filterwarnings("ignore::mingraph_lite.observers.trace.TornLineWarning")
def test_a_line_lost_inside_the_run_is_a_replay_error_naming_where(recorded):
    path, _, answer = recorded
    data = path.read_bytes().split(b"\n")
    torn = data[:6] + [data[6][:30]] + data[7:]        # line 7 (the second answer slip) torn
    path.write_bytes(b"\n".join(torn))
    with pytest.raises(ReplayError, match=r"run.jsonl, line 8: a line of this run is missing just before it"):
        ReplayLLM.from_trace(path)
    path.write_bytes(b"\n".join(data[1:]))              # the run_start lost
    with pytest.raises(ReplayError, match=r"line 1: the run's first lines are missing"):
        ReplayLLM.from_trace(path)
    path.write_bytes(b"\n".join(data)[:-30])            # only the last line torn: the run before it replays
    replay = ReplayLLM.from_trace(path)
    assert len(replay.responses) == 4
    assert Agent(replay, weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION})["answer"] == answer


def test_a_key_in_the_question_replays_although_the_trace_stored_stars(tmp_path, monkeypatch):
    key = "hf_pastedKey0123456789"
    monkeypatch.setenv("HF_TOKEN", key)
    question = f"{QUESTION} My token is {key}."
    path = tmp_path / "secret.jsonl"
    answer = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                   observers=[TraceRecorder(path)]).run({"question": question})["answer"]
    assert key not in path.read_text(encoding="utf-8")
    replay = ReplayLLM.from_trace(path)
    assert Agent(replay, weather_registry(), SYSTEM_PROMPT).run({"question": question})["answer"] == answer
    with pytest.raises(ReplayMismatch, match="replay step 1"):  # another question is still a mismatch
        Agent(ReplayLLM.from_trace(path), weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION})


damage = st.lists(st.tuples(st.sampled_from(["cut", "drop", "flip", "insert"]), st.integers(0, 10**6),
                            st.binary(min_size=1, max_size=8)), min_size=1, max_size=4)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(damage=damage)
def test_a_damaged_trace_replays_or_says_where_never_a_raw_error(damage):
    """Cut, drop, flip or insert bytes anywhere: ReplayLLM either builds or raises ReplayError."""
    data = bytearray(_four_round_trace())
    for kind, at, junk in damage:
        at %= max(len(data), 1)
        if kind == "cut":
            del data[at:]
        elif kind == "drop":
            del data[at:at + len(junk) * 7]
        elif kind == "flip":
            data[at:at + len(junk)] = junk
        else:
            data[at:at] = junk
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = Path(folder) / "damaged.jsonl"
        path.write_bytes(bytes(data))
        try:
            replay = ReplayLLM.from_trace(path)
        except ReplayError as error:
            assert "damaged.jsonl" in str(error)
        else:
            assert all(isinstance(r.message.content, str) for r in replay.responses)


@functools.cache
def _four_round_trace() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.jsonl"
        Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
              observers=[TraceRecorder(path)]).run({"question": QUESTION})
        return path.read_bytes()
