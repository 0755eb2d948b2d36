"""Notebook 05's exercises: a rule of the first-wrong-line classifier, reading a trace, an interval."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.course.classify import classify
from mingraph_lite.course.compare import wilson
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, wrong_tokyo_manager
from mingraph_lite.course.weather import weather_registry
from . import Hint, exercise

_LOOKUPS = [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]


def twice_manager() -> ScriptedLLM:
    """Converts Paris, then converts the *result* again (64 is Fahrenheit already), then Tokyo."""
    return ScriptedLLM([_LOOKUPS, [("to_fahrenheit", {"celsius": 18})], [("to_fahrenheit", {"celsius": 64})],
                        [("to_fahrenheit", {"celsius": 24})], "Paris: 147°F, Tokyo: 75°F"],
                       name="scripted: converts twice")


def made_up_manager() -> ScriptedLLM:
    """Skips get_weather and converts numbers of its own (the reported made-up run, scripted)."""
    return ScriptedLLM([[("to_fahrenheit", {"celsius": 10}), ("to_fahrenheit", {"celsius": 5})],
                        "Paris: 50°F, Tokyo: 41°F"], name="scripted: made-up numbers")


def recorded(llm: Any, unit_in_result: bool = False) -> list[dict[str, Any]]:
    """One scripted run's events, as the notebook numbers them (line 1 is run_start)."""
    recorder = EventRecorder()
    Agent(llm, weather_registry(unit_in_result), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    return recorder.events


def _calls(events: Sequence[dict[str, Any]], value: float) -> int:
    return next(n for n, e in enumerate(events, 1) if e.get("event") == "tool_call"
                and e.get("name") == "to_fahrenheit" and e["arguments"].get("celsius") == value)


@exercise("05.1", kind="code", title="a rule of the classifier: a made-up number for to_fahrenheit")
def check_made_up_rule(rule: Callable[[list[dict[str, Any]]], int | None]) -> str:
    twice = recorded(twice_manager())
    cases = [("the right run", recorded(four_round_manager()), None),
             ('the right run with "18°C" answers', recorded(four_round_manager(), True), None),
             ("the wrong-Tokyo run", recorded(wrong_tokyo_manager()), None),
             ("the made-up run", recorded(made_up_manager()), _calls(recorded(made_up_manager()), 10)),
             ("the converts-twice run", twice, _calls(twice, 64))]
    for label, events, expected in cases:
        got = rule(events)
        if got == expected:
            continue
        if expected is not None and got == expected + 1:
            raise Hint(f"{label}: you returned line {got}, the answer slip; the first wrong line is the slip "
                       "itself (the tool_call line)")
        if label == "the converts-twice run" and got is None:
            raise Hint("the converts-twice run: 64 came back from to_fahrenheit, so it is Fahrenheit already; "
                       "only numbers that get_weather returned are Celsius")
        if label.startswith("the right run with"):
            raise Hint(f'{label}: get_weather answered "18°C"; read its number with number(content)')
        raise Hint(f"{label}: expected {expected}, your rule returned {got!r}")
    return "your rule finds the made-up conversions, and only those, on all five runs"


@exercise("05.2", kind="reasoning", title="which case, which line: the converts-twice run")
def check_twice(answer: tuple[int, int]) -> str:
    truth = classify(recorded(twice_manager()))
    case, line = answer
    if (case, line) == (truth.case, truth.line):
        return f"right: case {truth.case} at line {truth.line} ({truth.why})"
    if case != truth.case:
        raise Hint("the first wrong line decides, not the last: the final reply is wrong too, but something "
                   "went wrong earlier; which to_fahrenheit slip asks about a number get_weather never returned?")
    if line == truth.line + 1:
        raise Hint("right case; count the tool_call line itself, not the tool_return that answers it")
    raise Hint("right case, wrong line: count every event from line 1 (run_start)")


@exercise("05.3", kind="code", title="a 95% interval for a share of runs (Wilson score)")
def check_wilson(interval: Callable[[int, int], tuple[float, float]]) -> str:
    for k, n in [(0, 8), (6, 8), (8, 8), (3, 20), (120, 240)]:
        low, high = interval(k, n)
        want_low, want_high = wilson(k, n)
        if math.isclose(low, want_low, abs_tol=2e-3) and math.isclose(high, want_high, abs_tol=2e-3):
            continue
        if k == 0 and high < 1e-9:
            raise Hint("at 0 of 8 your interval is [0, 0]: that is p ± z·se, which claims 8 runs prove "
                       "'never'; use the Wilson centre and half-width")
        if high - low < want_high - want_low - 2e-3:
            raise Hint(f"your interval for {k}/{n} is too narrow: for 95%, z = 1.96")
        raise Hint(f"for {k}/{n} expected about ({want_low:.3f}, {want_high:.3f}), got ({low:.3f}, {high:.3f})")
    return "your interval matches the Wilson score interval on five cases, 0/8 and 8/8 included"
