"""Notebook 05's claims about the shipped real runs of SmolLM2-135M and Gemma 3 270M, checked on their traces.

The notebook shows a short tally; these are the counts behind each sentence of its "what the two tiny models got
wrong" bullets, the seeds and its finish-right runs (issue 21: every claim backed by a cell or a test that would fail).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest

from mingraph_lite import read_trace
from mingraph_lite.course.classify import classify
from mingraph_lite.course.weather import to_fahrenheit

EXPERIMENTS = Path(__file__).resolve().parents[2] / "data" / "experiments"


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
