"""Notebook 10 replays one real conversation under each memory (issue 20): what it says about it holds.

The traces were recorded once by ``scripts/record_conversation.py`` with a shipped local model; these tests
never run a model, they read and replay the recordings.
"""

from __future__ import annotations

import json

import pytest

from lessons.conversation import (
    REAL_MAX_STEPS,
    REAL_MODEL,
    REAL_QUESTIONS,
    REAL_STRATEGIES,
    RUNS,
    real_trace,
    replay_conversation,
)
from mingraph_lite import read_trace

ABOUT = RUNS / f"conversation-{REAL_MODEL}.json"


def about() -> dict:
    return json.loads(ABOUT.read_text(encoding="utf-8"))


def test_the_recording_names_its_model_settings_seed_and_command():
    described = about()
    assert described["model"] == f"local:{REAL_MODEL}" and described["weights"].endswith(".gguf")
    assert described["settings"]["temperature"] == 0.7 and described["settings"]["seed"] == 100
    assert described["settings"]["max_steps"] == REAL_MAX_STEPS
    assert "scripts/record_conversation.py" in described["command"] and described["packages"]["xllamacpp"]
    assert described["strategies"] == REAL_STRATEGIES and set(described["runs"]) == set(REAL_STRATEGIES)


@pytest.mark.parametrize("strategy", sorted(REAL_STRATEGIES))
def test_each_trace_is_a_real_run_of_the_named_model(strategy):
    events = read_trace(real_trace(strategy))
    replies = [e for e in events if e["event"] in ("model_reply", "memory_call")]
    assert replies and {e["model"] for e in replies} == {REAL_MODEL}
    assert all(type(e["input_tokens"]) is int and e["input_tokens"] > 0 for e in replies)
    assert sum(e["event"] == "run_start" for e in events) == len(REAL_QUESTIONS)


@pytest.mark.parametrize("strategy", sorted(REAL_STRATEGIES))
def test_the_replay_reads_what_was_recorded_and_gives_back_its_counts_and_answers(strategy):
    run, ends = replay_conversation(real_trace(strategy), strategy)
    events = read_trace(real_trace(strategy))
    assert [c[1] for c in run.agent_calls] == [e["input_tokens"] for e in events if e["event"] == "model_reply"]
    assert [c[1] for c in run.summary_calls] == [e["input_tokens"] for e in events if e["event"] == "memory_call"]
    finished = [e for e in events if e["event"] == "finish"]
    assert list(run.answers) == [e["answer"] for e in finished]
    assert ends == ["answered" if e["reason"] == "answered" else e["reason"] for e in finished]


def _events(strategy: str) -> list[dict]:
    return list(read_trace(real_trace(strategy)))


def _tool_numbers() -> set[str]:
    return {e["content"] for s in REAL_STRATEGIES for e in _events(s) if e["event"] == "tool_return"}


def test_the_model_answered_no_question_and_made_up_its_first_conversion():
    assert {e["reason"] for s in REAL_STRATEGIES for e in _events(s) if e["event"] == "finish"} == {"step limit"}
    firsts = [next(e for e in _events(s) if e["event"] == "model_reply") for s in REAL_STRATEGIES]
    assert all(f["message"] == firsts[0]["message"] for f in firsts)  # same folder, seed and temperature
    calls = firsts[0]["message"]["tool_calls"]
    assert [c["name"] for c in calls] == ["get_weather", "to_fahrenheit", "to_fahrenheit"]
    assert all(c["arguments"] == {"celsius": 30} for c in calls[1:]) and "30" not in _tool_numbers()


def test_keep_all_reads_more_every_call_while_the_window_stays_flat_and_loses_the_question():
    keep = [e["input_tokens"] for e in _events("keep-all") if e["event"] == "model_reply"]
    window = [e["input_tokens"] for e in _events("last-4") if e["event"] == "model_reply"]
    assert all(90 <= b - a <= 120 for a, b in zip(keep, keep[1:], strict=False)) and keep[-1] > 5 * keep[0]
    assert 300 <= min(window[3:]) and max(window[3:]) < 330  # flat from the second question on
    cities = {s: {e["arguments"]["city"] for e in _events(s) if e["event"] == "tool_call"
                  and e["name"] == "get_weather"} for s in ("keep-all", "last-4")}
    assert cities == {"keep-all": {"Paris", "Tokyo", "Cairo"}, "last-4": {"Paris"}}
    read: list = []
    replay_conversation(real_trace("last-4"), "last-4", read=read)
    in_view = [[any(m.role == "user" and m.content == q for m in folder) for folder in calls]
               for q, calls in zip(REAL_QUESTIONS, read, strict=True)]
    assert all(calls[0] and not calls[-1] for calls in in_view)


def test_the_models_first_summary_states_a_temperature_no_tool_returned():
    summaries = [e["message"]["content"] for e in _events("summarise-2-4") if e["event"] == "memory_call"]
    assert summaries and "35 degrees Fahrenheit" in summaries[0] and "35" not in _tool_numbers()


def test_the_first_summary_states_numbers_no_tool_returned():
    """Backs notebook 10's gated prediction: the model's own summary holds numbers no tool ever returned."""
    from lessons.conversation import first_summary_numbers

    stated, returned = first_summary_numbers()
    assert "35" in stated and returned and not stated <= returned
