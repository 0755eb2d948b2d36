"""What notebook 02 prints about the sampled zero-shot runs holds for the recorded traces."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

from lessons.replies import cut_arguments, first_slips_and_ends, show_event_kinds, show_sampled_runs
from mingraph_lite import Agent, EventRecorder
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, three_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.local import LocalLLM

RUNS = Path(__file__).resolve().parents[2] / "data" / "experiments" / "finish-right"


def test_the_sampled_runs_do_what_notebook_02_says():
    smol = first_slips_and_ends(RUNS / "smollm2-135m" / "traces")
    assert len(smol) == 16 and sum(calls[0][0] == "to_fahrenheit" for calls, _ in smol) == 15  # 02 says "15 of the 16"
    assert all(end["reason"] == "step limit" for _, end in smol)
    gem = first_slips_and_ends(RUNS / "gemma3-270m" / "traces")
    no_tool = [end["answer"] for calls, end in gem if not calls]
    assert len(gem) == 16 and len(no_tool) == 9
    assert sum("your answer" in answer.lower() for answer in no_tool) > len(no_tool) / 2  # "more than half"
    assert all(end["reason"] == "step limit" for calls, end in gem if calls)


def test_show_sampled_runs_prints_the_counts(capsys):
    show_sampled_runs(RUNS)
    out = capsys.readouterr().out
    assert "SmolLM2, 16 sampled runs:" in out and "16 hit the step limit" in out
    assert "Gemma, 16 sampled runs: 9 answered at once, without a tool; all of the other 7 hit the step limit" in out
    assert "placeholder '<your answer>': 9 of 9" in out  # notebook 02: "in 9 of its 9 answers without a tool"


def test_the_slips_kept_as_text_are_what_notebook_02_says():
    assert cut_arguments(RUNS / "smollm2-135m" / "traces") == (96, [])
    total, cut = cut_arguments(RUNS / "gemma3-270m" / "traces")
    assert (total, len(cut), len({run for run, _ in cut})) == (72, 17, 3)
    assert all(not arguments.rstrip().endswith("}") for _, arguments in cut)  # cut off before the closing brace
    assert all(re.search(r"\.\d*0{20,}$", arguments.rstrip()) for _, arguments in cut)  # a number, endless zeros
    assert all(set(json.loads(arguments + "}")) == {"celsius"} for _, arguments in cut)  # well-formed, only cut
    # notebook 02: the local adapter constrains arguments with the schema, and caps each piece at 96 tokens
    assert "json_schema=schema" in inspect.getsource(LocalLLM._calls)
    assert inspect.signature(LocalLLM).parameters["max_tokens"].default == 96


def test_show_event_kinds_prints_the_three_events_02_3_reads(capsys):
    recorder = EventRecorder()
    Agent(three_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    show_event_kinds(recorder)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    kinds = ("tool_return", "tool_call", "tool_return")
    assert all(f"'event': '{kind}'" in line for line, kind in zip(lines, kinds, strict=True))
    assert "'get_weather'" in lines[0] and "'get_weather'" not in lines[1] + lines[2]
    assert all("'to_fahrenheit'" in line for line in lines[1:])
