"""Sentences of data/experiments/README.md about the shipped `unit` experiment (SmolLM2-135M and Gemma 3 270M, 16
runs each), checked on their traces. Each test's docstring quotes the sentence it backs."""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from mingraph_lite import read_trace
from mingraph_lite.course.classify import classify

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
    """The README: "SmolLM2 never called `get_weather`: every run starts with `to_fahrenheit` on a number it made
    up and keeps converting until the step limit (case 1 at line 4)."
    """
    counts, _ = smollm2
    assert counts["runs"] == counts["first: to_fahrenheit"] == counts["case 1 at line 4"] == 16
    assert counts["get_weather at all"] == 0 and counts["step limit"] == 16


def test_gemma_mostly_answers_at_once_copying_the_menus_format_and_otherwise_never_converts(gemma):
    """The README: "Gemma answered at once without any tool in 12 runs, mostly by copying the reply format ...
    and in the other 4 it looked the weather up again and again and never converted (case 4)."
    """
    counts, _ = gemma
    assert counts["first: no tool"] == counts["case 1 at line 3"] == 12
    assert counts["copies '<your answer>'"] > 12 / 2  # "most of those replies"
    assert counts["get_weather at all"] == counts["runs"] - 12 and counts["to_fahrenheit at all"] == 0
    assert counts["case 4"] == 4


def test_gemma_answers_before_any_lookup_copy_the_menus_placeholder():
    """The README: "mostly by copying the reply format from the tool menu back": 10 of the 12 copy its
    `<your answer>`."""
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
    """The README: "No run of either model was right", and Gemma's rows of the comparison table (5 and 7 wrong
    slips, 3 and 1 never finished)."""
    outcomes = Counter((model, row["variant"], row["outcome"]) for model in ("smollm2-135m", "gemma3-270m")
                       for row in _rows(EXPERIMENTS / model))
    assert not any(outcome == "right" for _, _, outcome in outcomes)
    gemma = [outcomes["gemma3-270m", v, o] for o in ("wrong slip", "never finished") for v in ("18", "18°C")]
    assert gemma == [5, 7, 3, 1]
