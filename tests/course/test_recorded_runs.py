"""The recorded real runs under data/runs/ say what their README says, and replay offline to the same folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from mingraph_lite import Agent, ReplayLLM, StepLimitReached, read_trace
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry

RUNS = Path(__file__).resolve().parents[2] / "data" / "runs"


def events(name: str, kind: str) -> list[dict]:
    return [e for e in read_trace(RUNS / f"weather-{name}.jsonl") if e["event"] == kind]


def test_smollm2_made_up_a_temperature_and_hit_the_step_limit():
    calls = events("smollm2-135m", "tool_call")
    assert len(calls) == 6 and all(c["name"] == "to_fahrenheit" and c["arguments"] == {"celsius": 30.0}
                                   for c in calls)
    assert [e["reason"] for e in events("smollm2-135m", "finish")] == ["step limit"]
    assert {e["model"] for e in events("smollm2-135m", "model_reply")} == {"smollm2-135m"}


def test_gemma_answered_with_the_format_placeholder_and_no_tool():
    assert events("gemma3-270m", "tool_call") == []
    [finish] = events("gemma3-270m", "finish")
    assert finish["reason"] == "answered" and finish["answer"].startswith("<your answer>")
    assert {e["model"] for e in events("gemma3-270m", "model_reply")} == {"gemma3-270m"}


@pytest.mark.parametrize("name", ["smollm2-135m", "gemma3-270m"])
def test_each_recorded_run_replays_offline_to_the_same_end(name):
    agent = Agent(ReplayLLM.from_trace(RUNS / f"weather-{name}.jsonl"), weather_registry(), SYSTEM_PROMPT,
                  max_steps=6)
    try:
        answer = agent.run({"question": QUESTION})["answer"]
    except StepLimitReached:
        answer = None
    assert answer == events(name, "finish")[0]["answer"]
