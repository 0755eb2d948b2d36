"""Notebook 05's claims about the shipped real runs of SmolLM2-135M and Gemma 3 270M, checked on their traces.

The notebook shows a short tally; these are the counts behind each sentence of its "what the two tiny models got
wrong" bullets, the seeds and its finish-right runs (issue 21: every claim backed by a cell or a test that would fail).
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from mingraph_lite import Agent, EventRecorder, KeepAll, ReplayLLM, read_trace
from mingraph_lite.course.classify import classify
from mingraph_lite.course.compare import wilson
from mingraph_lite.course.definition import load
from mingraph_lite.course.scripts import QUESTION
from mingraph_lite.course.weather import lookup, to_fahrenheit

EXPERIMENTS = Path(__file__).resolve().parents[2] / "data" / "experiments"


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "results.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def tally(model: str) -> tuple[Counter, dict[str, list[str]]]:
    """Counts over every recorded run of one model, and each run index's first replies (one per variant)."""
    counts, firsts = Counter(), {}
    with (EXPERIMENTS / model / "results.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        trace = read_trace(EXPERIMENTS / model / row["trace"])
        tools = Counter(e["name"] for e in trace if e["event"] == "tool_call")
        first = next(e for e in trace if e["event"] == "model_reply")["message"]
        firsts.setdefault(row["index"], []).append(json.dumps(first, sort_keys=True))
        verdict = classify(trace)
        counts["runs"] += 1
        counts["get_weather at all"] += tools["get_weather"] > 0
        counts["to_fahrenheit at all"] += tools["to_fahrenheit"] > 0
        counts["first: to_fahrenheit"] += any(c["name"] == "to_fahrenheit" for c in first["tool_calls"])
        counts["first: no tool"] += not first["tool_calls"]
        counts["copies '<your answer>'"] += "your answer" in first["content"].lower()
        counts["step limit"] += trace[-1].get("reason") == "step limit"
        counts[f"case {verdict.case} at line {verdict.line}"] += 1
        counts[f"case {verdict.case}"] += 1
    return counts, firsts


@pytest.fixture(scope="module")
def smollm2():
    return tally("smollm2-135m")


@pytest.fixture(scope="module")
def gemma():
    return tally("gemma3-270m")


def test_smollm2_never_looked_up_and_its_first_slip_is_always_an_invented_conversion(smollm2):
    counts, _ = smollm2
    assert counts["runs"] == counts["first: to_fahrenheit"] == counts["case 1 at line 4"] == 16
    assert counts["get_weather at all"] == 0 and counts["step limit"] == 16


def test_smollm2_repeats_30_in_run_0_and_after_100_converts_its_own_answers_in_run_2():
    def converted(run):
        return [e["arguments"]["celsius"] for e in read_trace(EXPERIMENTS / "smollm2-135m" / "traces" / run)
                if e["event"] == "tool_call"]
    chain = converted("bare-02.jsonl")
    assert converted("bare-00.jsonl") == [30.0] * 6 and chain[:2] == [39.59, 100]
    assert round(to_fahrenheit(39.59)) == 103  # the answer it got, not the 100 it asked about next
    # from its second slip on, each number is the conversion of the one before
    assert all(abs(to_fahrenheit(a) - b) < 0.5 for a, b in zip(chain[1:], chain[2:], strict=False))


def test_gemma_mostly_answers_at_once_copying_the_menus_format_and_otherwise_never_converts(gemma):
    counts, _ = gemma
    assert counts["first: no tool"] == counts["case 1 at line 3"] == 12
    assert counts["copies '<your answer>'"] > 12 / 2  # "most of those replies"
    assert counts["get_weather at all"] == counts["runs"] - 12 and counts["to_fahrenheit at all"] == 0
    assert counts["case 4"] == 4


def test_the_same_seed_gives_the_same_first_reply_for_smollm2_but_not_for_four_gemma_pairs(smollm2, gemma):
    differ = {model: sorted(int(i) for i, pair in firsts.items() if pair[0] != pair[1])
              for model, (_, firsts) in (("smollm2-135m", smollm2), ("gemma3-270m", gemma))}
    assert differ == {"gemma3-270m": [0, 5, 6, 7], "smollm2-135m": []}


def test_the_only_finish_right_runs_wrong_first_at_the_final_reply_are_four_gemma_runs_with_the_example():
    case_3 = []
    for model in ("smollm2-135m", "gemma3-270m"):
        with (EXPERIMENTS / "finish-right" / model / "results.csv").open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        assert not any(row["outcome"] == "right" for row in rows)
        case_3 += [(model, row["variant"]) for row in rows
                   if classify(read_trace(EXPERIMENTS / "finish-right" / model / row["trace"])).case == 3]
    assert len(case_3) == 4 and {model for model, _ in case_3} == {"gemma3-270m"}
    assert {variant for _, variant in case_3} <= {"worked example", "both"}  # both = the example and units


def test_no_recorded_reply_holds_thinking_text_or_a_thinking_token_count():
    replies = [e for trace in sorted(EXPERIMENTS.rglob("traces/*.jsonl")) for e in read_trace(trace)
               if e["event"] == "model_reply"]
    assert len(replies) == 1214  # the figure the notebook's first screen gives
    assert all(e["reasoning"] is None and e["reasoning_tokens"] is None for e in replies)


def test_gemma_answers_before_any_lookup_copy_the_menus_placeholder():
    at_once = []
    for row in _rows(EXPERIMENTS / "gemma3-270m"):
        trace = read_trace(EXPERIMENTS / "gemma3-270m" / row["trace"])
        first = next(e for e in trace if e["event"] == "model_reply")["message"]
        at_once += [first["content"]] if not first["tool_calls"] else []
    placeholder = sum("<your answer>" in text.lower() for text in at_once)
    format_line = sum("or with one or more function calls" in text for text in at_once)
    cities = sum(bool(re.search(r"paris|tokyo", text, re.I)) for text in at_once)
    assert (len(at_once), placeholder, format_line, cities) == (12, 10, 7, 3)


def test_no_shipped_unit_run_is_right_and_gemmas_variants_differ_only_by_a_few_runs():
    outcomes = Counter((model, row["variant"], row["outcome"]) for model in ("smollm2-135m", "gemma3-270m")
                       for row in _rows(EXPERIMENTS / model))
    assert not any(outcome == "right" for _, _, outcome in outcomes)
    gemma = [outcomes["gemma3-270m", v, o] for o in ("wrong slip", "never finished") for v in ("18", "18°C")]
    assert gemma == [5, 7, 3, 1]


def test_the_intervals_the_notebook_quotes_for_6_of_8_and_0_of_8():
    assert wilson(6, 8)[0] < 0.45 and wilson(6, 8)[1] > 0.9 and 0.3 < wilson(0, 8)[1] < 0.35


def _replay_gemma_run_10():
    finish = EXPERIMENTS / "finish-right" / "gemma3-270m"
    row = next(r for r in _rows(finish) if r["variant"] == "worked example" and r["index"] == "10")
    worked = next(v for v in load("finish-right").variants if v.name == row["variant"])
    folder = KeepAll(worked.system_prompt)
    for message in worked.messages:
        folder.add(message)
    recorder = EventRecorder()
    Agent(ReplayLLM.from_trace(finish / row["trace"]), worked.registry(), worked.system_prompt, memory=folder,
          observers=[recorder], max_steps=6).run({"question": load("finish-right").question})
    return row, finish / row["trace"], recorder.events


def test_gemma_run_10_reads_the_example_then_the_question():
    row, trace, _ = _replay_gemma_run_10()
    assert json.loads(row["settings"])["max_steps"] == 6 and row["model"] == "gemma3-270m"
    first = read_trace(trace)[0]
    assert [m["content"] for m in first["messages"] if m["role"] == "user"][-1] == QUESTION
    assert "example" not in first["messages"][-1] and all("example" in m for m in first["messages"][1:-1])


def test_gemma_run_10_looks_up_right_never_converts_and_writes_celsius_as_fahrenheit_at_line_9():
    row, trace, events = _replay_gemma_run_10()
    verdict = classify(events)
    returns = {e["content"] for e in events if e["event"] == "tool_return" and e["name"] == "get_weather"}
    assert returns == {str(lookup(city)["celsius"]) for city in ("Paris", "Tokyo")}
    assert not any(e["name"] == "to_fahrenheit" for e in events if e["event"] == "tool_call")
    assert (verdict.line, verdict.case, verdict.celsius_as_fahrenheit) == (9, 3, True)
    assert events[8]["message"]["content"].startswith("Tokyo: 24°F, Paris: 18°F")
    assert (verdict.line, verdict.case) == (int(row["line"]), int(row["case"]))  # as the harness recorded it
    assert verdict == classify(read_trace(trace))  # the replay equals the recording
