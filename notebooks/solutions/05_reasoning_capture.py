"""Reference answers for notebook 05, and plausible wrong ones (each with part of the hint it must get)."""

from __future__ import annotations

import math

from mingraph_lite.course.scripts import number


def made_up_rule(events):
    """The line of the first to_fahrenheit slip whose number no earlier get_weather answer held."""
    calls, celsius = {}, []
    for line, e in enumerate(events, 1):
        if e["event"] == "tool_call":
            calls[e["id"]] = e["name"]
            if e["name"] == "to_fahrenheit" and e["arguments"].get("celsius") not in celsius:
                return line
        elif e["event"] == "tool_return" and calls.get(e["tool_call_id"]) == "get_weather":
            celsius.append(number(e["content"]))
    return None


def any_tool_number(events):
    """Wrong: accepts a number any tool returned, so converting 64°F again looks fine."""
    seen = []
    for line, e in enumerate(events, 1):
        if e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and e["arguments"]["celsius"] not in seen:
            return line
        if e["event"] == "tool_return":
            seen.append(number(e["content"]))
    return None


def answer_line(events):
    """Wrong: points at the answer slip after the made-up call, not the call."""
    line = made_up_rule(events)
    return None if line is None else line + 1


def wilson_interval(k, n):
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def wald_interval(k, n):
    """Wrong: the textbook p ± 1.96·se, which collapses to [0, 0] at 0 of 8."""
    p = k / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return max(0.0, p - half), min(1.0, p + half)


def ninety_percent(k, n):
    """Wrong: the Wilson formula with z for a 90% interval."""
    z = 1.645
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


SOLUTIONS = {"05.1": made_up_rule, "05.2": (1, 14), "05.3": wilson_interval}
WRONG = {
    "05.1": [(any_tool_number, "64 came back from to_fahrenheit"), (answer_line, "the slip itself")],
    "05.2": [((3, 20), "the first wrong line decides"), ((1, 15), "not the tool_return")],
    "05.3": [(wald_interval, "[0, 0]"), (ninety_percent, "z = 1.96")],
}
