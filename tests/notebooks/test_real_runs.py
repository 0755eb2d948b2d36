"""The notebooks replay several real runs of the lab, each named with its model, variant and settings (issue 20).

Before, notebooks 01, 04 and 06 (now 08) all replayed one greedy SmolLM2 trace; now they replay runs that
``experiment run finish-right`` recorded, notebook 05 locates a real unit mistake in one of them, and notebook 02
also replays the first runs that finish right (the teacher's definition ``finish-right-3``).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from mingraph_lite import Agent, EventRecorder, KeepAll, ReplayLLM, read_trace
from mingraph_lite.course.classify import classify, stated_fahrenheit
from mingraph_lite.course.compare import wilson
from mingraph_lite.course.definition import load

ROOT = Path(__file__).resolve().parents[2]
FINISH = ROOT / "data" / "experiments" / "finish-right"
MODELS = {"smollm2-135m": "SmolLM2-135M", "gemma3-270m": "Gemma 3 270M"}
#: What each notebook replays, as data/runs/README.md lists it: (model folder, variant, run index).
REPLAYED = {"02_what_a_run_remembers": [("smollm2-135m", "zero-shot", 0), ("gemma3-270m", "zero-shot", 3)],
            "04_observers": [("gemma3-270m", "worked example", 10)],
            "05_reasoning_capture": [("gemma3-270m", "worked example", 10)],
            "09_agent_graph": [("smollm2-135m", "zero-shot", 12), ("gemma3-270m", "worked example", 12)]}
WORKS = ROOT / "data" / "experiments" / "finish-right-3"
#: The finish-right-3 runs notebook 02 replays: (model folder, variant, run index, seed, temperature).
REPLAYED_RIGHT = [("smollm2-135m", "named, T=0.1", 0, 300, "0.1"), ("gemma3-270m", "named, copy", 6, 306, "0.3")]


def rows(model: str, folder: Path = FINISH) -> list[dict[str, str]]:
    with (folder / model / "results.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def row(model: str, variant: str, index: int, folder: Path = FINISH) -> dict[str, str]:
    return next(r for r in rows(model, folder) if r["variant"] == variant and int(r["index"]) == index)


def replay(variant_name: str, trace: Path, definition) -> list[dict]:
    """One recorded run replayed through Agent with the variant's own folder, as `experiment run` built it."""
    variant = next(v for v in definition.variants if v.name == variant_name)
    folder = KeepAll(variant.system_prompt)
    for message in variant.messages:
        folder.add(message)
    recorder = EventRecorder()
    Agent(ReplayLLM.from_trace(trace), variant.registry(), variant.system_prompt, memory=folder,
          observers=[recorder], max_steps=6).run({"question": definition.question})
    return recorder.events


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
    verdict = classify(replay("worked example", trace, load("finish-right")))
    assert verdict.case == 3 and verdict.celsius_as_fahrenheit and not verdict.converted_with_tool
    assert (verdict.line, str(verdict.case), recorded["celsius_as_fahrenheit"]) == (int(recorded["line"]),
                                                                                   recorded["case"], "True")


def test_notebook_02_names_each_run_that_finishes_right_with_its_settings():
    text = (ROOT / "notebooks" / "02_what_a_run_remembers.py").read_text(encoding="utf-8")
    assert "finish-right-3" in text and "temperature 0.1" in text and "`max_steps=6`" in text
    for model, variant, index, seed, temperature in REPLAYED_RIGHT:
        recorded = row(model, variant, index, WORKS)
        assert (recorded["seed"], recorded["temperature"]) == (str(seed), temperature)
        assert (WORKS / model / recorded["trace"]).is_file() and recorded["outcome"] == "right"
        assert MODELS[model] in text and f'"{variant}"' in text and f"#{index}" in text and f"seed {seed}" in text
        assert Path(recorded["trace"]).name in text  # the trace the notebook replays is this row's


def test_what_notebook_02_says_about_the_finish_right_3_runs_holds():
    definition = load(WORKS.parent / "finish-right-3.toml")
    smol = [r for r in rows("smollm2-135m", WORKS) if r["variant"] == "named, T=0.1"]
    gemma = [r for r in rows("gemma3-270m", WORKS) if r["variant"] == "named, copy"]
    counts = {name: (sum(r["outcome"] == "right" for r in runs), len(runs)) for name, runs in
              (("smollm2", smol), ("gemma", gemma))}
    assert counts == {"smollm2": (14, 16), "gemma": (13, 16)}
    assert all(wilson(*n)[0] > 0.25 for n in counts.values())  # "even the interval's low end is above a quarter"
    first_line = "Paris: 18°C = 64°F, Tokyo: 24°C = 75°F"
    gemma_right = [r for r in rows("gemma3-270m", WORKS) if r["outcome"] == "right"]
    for r in gemma_right:  # every right Gemma reply: the right line, then stray text after it
        answer = [e for e in read_trace(WORKS / "gemma3-270m" / r["trace"]) if e["event"] == "finish"][-1]["answer"]
        assert answer.startswith(first_line) and answer.strip() != first_line
    assert len(gemma_right) == 13
    six = replay("named, copy", WORKS / "gemma3-270m" / row("gemma3-270m", "named, copy", 6, WORKS)["trace"],
                 definition)  # notebook 02's note on Gemma: run #6, read by the lab's classifier as right
    answer = [e["answer"] for e in six if e["event"] == "finish"][-1]
    assert answer.startswith(first_line) and len(answer) > 2 * len(first_line)
    assert stated_fahrenheit(answer) == {"Paris": 64.0, "Tokyo": 75.0}
    best = replay("named, T=0.1", WORKS / "smollm2-135m" / row("smollm2-135m", "named, T=0.1", 0, WORKS)["trace"],
                  definition)
    assert [e["answer"] for e in best if e["event"] == "finish"] == ["Paris: 64°F, Tokyo: 75°F"]
    assert [e["content"] for e in best if e["event"] == "tool_return"] == [
        "Paris: 18°C", "Tokyo: 24°C", "18°C = 64°F", "24°C = 75°F"]  # every number in the answer came from a tool
    for model in MODELS:  # and none of the zero-shot runs 02 replays first is right
        assert not [r for r in rows(model) if r["variant"] == "zero-shot" and r["outcome"] == "right"]


def test_data_runs_readme_lists_every_replayed_run_under_its_notebook():
    table = [line for line in (ROOT / "data" / "runs" / "README.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("| 0")]
    listed = [(model, variant, index) for model, variant, index, *_ in REPLAYED_RIGHT]
    for notebook, runs in [*REPLAYED.items(), ("02_what_a_run_remembers", listed)]:
        for model, variant, index in runs:
            assert any(line.startswith(f"| {notebook[:2]} |") and f'{MODELS[model]}, "{variant}" #{index}' in line
                       for line in table), (notebook, model, variant, index)


def test_the_capstones_two_recorded_runs_are_replayed_in_notebook_14_and_listed_under_it():
    readme = (ROOT / "data" / "runs" / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The capstone's task (notebooks 12 to 14)"):]
    notebook = (ROOT / "notebooks" / "14_capstone.py").read_text(encoding="utf-8")
    for name in ("capstone-smollm2-135m.jsonl", "capstone-gemma3-270m.jsonl"):
        assert f"| `{name}` |" in section and f'"{name}"' in notebook and (ROOT / "data" / "runs" / name).is_file()
    assert "capstone-" not in (ROOT / "notebooks" / "12_capstone_pieces.py").read_text(encoding="utf-8")
