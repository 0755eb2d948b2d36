"""Claims notebook 02 states in prose about the recorded zero-shot runs, now that their cells are gone."""

from __future__ import annotations

import csv
from pathlib import Path

from mingraph_lite import read_trace
from mingraph_lite.course.classify import classify

RUNS = Path(__file__).resolve().parents[2] / "data" / "experiments" / "finish-right"


def _gemma_zero_shot():
    return [read_trace(t) for t in sorted((RUNS / "gemma3-270m" / "traces").glob("zero-shot-*.jsonl"))]


def test_gemmas_tool_less_answers_are_filed_as_wrong_slip_in_the_summary():
    runs = _gemma_zero_shot()
    answered = [events for events in runs if events[-1]["reason"] == "answered"]
    assert len(answered) == 9 and all(classify(events).outcome == "wrong slip" for events in answered)
    with open(RUNS / "comparison.csv", encoding="utf-8") as table:
        summary = {row["outcome"]: int(row["runs"]) for row in csv.DictReader(table)
                   if row["model"] == "local:gemma3-270m" and row["variant"] == "zero-shot"}
    assert summary.get("right", 0) == 0
    assert summary["wrong slip"] == sum(classify(events).outcome == "wrong slip" for events in runs)


def test_every_event_of_a_recorded_run_carries_a_time_stamp():
    assert all("ts" in event for events in _gemma_zero_shot() for event in events)
