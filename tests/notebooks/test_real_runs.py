"""The notebooks replay several real runs of the lab, each named with its model, variant and settings (issue 20).

Before, notebooks 01, 04 and 06 (now 07) all replayed one greedy SmolLM2 trace; now they replay runs that
``experiment run finish-right`` recorded, and notebook 05 locates a real unit mistake in one of them.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from mingraph_lite import Agent, EventRecorder, KeepAll, ReplayLLM, read_trace
from mingraph_lite.course.classify import classify
from mingraph_lite.course.definition import load

ROOT = Path(__file__).resolve().parents[2]
FINISH = ROOT / "data" / "experiments" / "finish-right"
MODELS = {"smollm2-135m": "SmolLM2-135M", "gemma3-270m": "Gemma 3 270M"}
#: What each notebook replays, as data/runs/README.md lists it: (model folder, variant, run index).
REPLAYED = {"02_what_a_run_remembers": [("smollm2-135m", "zero-shot", 0), ("gemma3-270m", "zero-shot", 3)],
            "04_observers": [("gemma3-270m", "worked example", 10)],
            "05_reasoning_capture": [("gemma3-270m", "worked example", 10)],
            "07_parallel_and_agent_graph": [("smollm2-135m", "zero-shot", 12), ("gemma3-270m", "worked example", 10)]}


def row(model: str, variant: str, index: int) -> dict[str, str]:
    with (FINISH / model / "results.csv").open(encoding="utf-8") as handle:
        return next(r for r in csv.DictReader(handle) if r["variant"] == variant and int(r["index"]) == index)


def test_no_notebook_replays_the_single_greedy_trace_any_more():
    texts = {p.stem: p.read_text(encoding="utf-8") for p in (ROOT / "notebooks").glob("0[1-5]_*.py")}
    assert not [name for name, text in texts.items() if "weather-smollm2" in text or "data/runs" in text]
    assert len({run for runs in REPLAYED.values() for run in runs}) >= 3


@pytest.mark.parametrize("notebook", sorted(REPLAYED))
def test_each_replayed_run_is_recorded_and_named_with_its_settings(notebook):
    text = (ROOT / "notebooks" / f"{notebook}.py").read_text(encoding="utf-8")
    assert "finish-right" in text and "temperature 0.7" in text
    for model, variant, index in REPLAYED[notebook]:
        recorded = row(model, variant, index)
        assert (FINISH / model / recorded["trace"]).is_file() and recorded["temperature"] == "0.7"
        assert MODELS[model] in text and f'"{variant}"' in text and f"#{index}" in text


def test_the_real_unit_mistake_replays_to_case_3_with_its_worked_example_marked():
    recorded = row("gemma3-270m", "worked example", 10)
    trace = FINISH / "gemma3-270m" / recorded["trace"]
    messages = read_trace(trace)[0]["messages"]
    assert "example" not in messages[0] and "example" not in messages[-1]  # the prompt and the question
    assert all(m.get("example") == "london-oslo" for m in messages[1:-1])
    definition = load("finish-right")
    variant = next(v for v in definition.variants if v.name == "worked example")
    folder = KeepAll(variant.system_prompt)
    for message in variant.messages:
        folder.add(message)
    recorder = EventRecorder()
    Agent(ReplayLLM.from_trace(trace), variant.registry(), variant.system_prompt, memory=folder,
          observers=[recorder], max_steps=6).run({"question": definition.question})
    verdict = classify(recorder.events)
    assert verdict.case == 3 and verdict.celsius_as_fahrenheit and not verdict.converted_with_tool
    assert (verdict.line, str(verdict.case), recorded["celsius_as_fahrenheit"]) == (int(recorded["line"]),
                                                                                   recorded["case"], "True")
