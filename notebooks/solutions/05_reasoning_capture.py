"""Reference answers for notebook 05, plausible wrong ones (each with part of the hint it must get), and the
answers to its questions."""

from __future__ import annotations

import math

from mingraph_lite.course.classify import classify
from mingraph_lite.course.compare import wilson
from mingraph_lite.course.scripts import number


def made_up_lines(events):
    """The lines of every to_fahrenheit slip whose number no earlier get_weather answer slip held."""
    asked, celsius, lines = {}, [], []
    for line, e in enumerate(events, 1):
        if e["event"] == "tool_call":
            asked[e["id"]] = e["name"]
            if e["name"] == "to_fahrenheit" and e["arguments"].get("celsius") not in celsius:
                lines.append(line)
        elif e["event"] == "tool_return" and asked.get(e["tool_call_id"]) == "get_weather":
            celsius.append(number(e["content"]))
    return lines


def any_tool_number(events):
    """Wrong: accepts a number any tool returned, so converting 64°F again looks fine."""
    seen, lines = [], []
    for line, e in enumerate(events, 1):
        if e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and e["arguments"]["celsius"] not in seen:
            lines.append(line)
        if e["event"] == "tool_return":
            seen.append(number(e["content"]))
    return lines


def whole_run_lookups(events):
    """Wrong: collects every get_weather answer of the run first, so a number converted before its lookup passes."""
    asked = {e["id"]: e["name"] for e in events if e["event"] == "tool_call"}
    celsius = [number(e["content"]) for e in events
               if e["event"] == "tool_return" and asked.get(e["tool_call_id"]) == "get_weather"]
    return [line for line, e in enumerate(events, 1) if e["event"] == "tool_call"
            and e["name"] == "to_fahrenheit" and e["arguments"].get("celsius") not in celsius]


def via_importlib(events):
    """Wrong: reaches the classifier without naming it, through importlib and getattr."""
    import importlib

    judge = getattr(importlib.import_module("mingraph_lite.course.classify"), "clas" + "sify")
    verdict = judge(events)
    return [verdict.line] if verdict.case == 1 and "to_fahrenheit" in verdict.why else []


def answer_lines(events):
    """Wrong: points at the answer slips after the made-up calls, not the calls."""
    return [line + 1 for line in made_up_lines(events)]


def first_only(events):
    """Wrong: stops at the first made-up slip, as the classifier does."""
    return made_up_lines(events)[:1]


def via_classify(events):
    """Wrong: wraps the package's classifier, which stops at the first wrong line of any kind."""
    verdict = classify(events)
    return [verdict.line] if verdict.case == 1 and "to_fahrenheit" in verdict.why else []


def raw_text(events):
    """Wrong: compares the number asked for with the answer slip's text ("18" is not 18)."""
    held, lines = [], []
    for line, e in enumerate(events, 1):
        if e["event"] == "tool_return" and e["name"] == "get_weather":
            held.append(e["content"])
        elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and e["arguments"]["celsius"] not in held:
            lines.append(line)
    return lines


def every_call_has_celsius(events):
    """Wrong: reads `celsius` from every slip, get_weather's included."""
    return [line for line, e in enumerate(events, 1) if e["event"] == "tool_call" and e["arguments"]["celsius"] > 99]


Z = 1.96


def _surprised(p0, k, n, z=Z):
    """True when k of n runs would be more than z standard errors from a true share p0."""
    return abs(k / n - p0) > z * math.sqrt(p0 * (1 - p0) / n)


def _edge(inside, outside, k, n, z=Z):
    """Bisect between a share that is not surprised (inside) and one that is (outside)."""
    for _ in range(60):
        middle = (inside + outside) / 2
        inside, outside = (inside, middle) if _surprised(middle, k, n, z) else (middle, outside)
    return inside


def score_interval(k, n, z=Z):
    """Every share p0 that k of n runs would not surprise: its two ends, found by bisection."""
    p = k / n
    low = 0.0 if not _surprised(0.0, k, n, z) else _edge(p, 0.0, k, n, z)
    high = 1.0 if not _surprised(1.0, k, n, z) else _edge(p, 1.0, k, n, z)
    return low, high


def via_wilson(k, n):
    """Wrong: the package's finished function, not the definition."""
    return wilson(k, n)


def wald_interval(k, n):
    """Wrong: the textbook p ± 1.96·se with se at the observed share, a single point at 0 of 8."""
    p = k / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return max(0.0, p - half), min(1.0, p + half)


def ninety_percent(k, n):
    """Wrong: the definition with z for a 90% interval."""
    return score_interval(k, n, z=1.645)


def coarse_grid(k, n):
    """Wrong: scans the candidates in steps of 0.01."""
    inside = [i / 100 for i in range(101) if not _surprised(i / 100, k, n)]
    return min(inside), max(inside)


def strict_inside(k, n):
    """Wrong: 'within' read as a strict <, which leaves p0 = 0 out at 0 of n (gap 0, reach 0)."""
    inside = [i / 10000 for i in range(10001)
              if abs(k / n - i / 10000) < Z * math.sqrt(i / 10000 * (1 - i / 10000) / n)]
    return min(inside), max(inside)


def divides_by_observed_se(k, n):
    """Wrong: measures distance in standard errors at the observed share, which is 0 at 0 of n."""
    p = k / n
    se = math.sqrt(p * (1 - p) / n)
    inside = [i / 10000 for i in range(10001) if abs(p - i / 10000) / se <= Z]
    return min(inside), max(inside)


SOLUTIONS = {"05.1": made_up_lines, "05.2": (1, 14), "05.3": score_interval,
             "05.Q2": "same", "05.Q3": "right", "05.Q5": 128, "05.Q6": "refused"}
WRONG = {
    "05.1": [(any_tool_number, "64 came back from to_fahrenheit"), (answer_lines, "the slip itself"),
             (first_only, "every one"), (via_classify, "classify stops at the first wrong line"),
             (raw_text, "number(content)"), (every_call_has_celsius, "not every event has every key"),
             (whole_run_lookups, "only answer slips EARLIER than the slip count"),
             (via_importlib, "your answer runs classify")],
    "05.2": [((3, 21), "it is not the first wrong line"), ((2, 15), "every answer slip here is right"),
             ((1, 15), "the answer slip"), ((1, 10), "that is right"), ((1, 21), "after the first wrong one"),
             ((1, 3), "so is every line before it"),
             ("case 1", "two whole numbers")],
    "05.3": [(via_wilson, "build the interval from its definition"), (wald_interval, "a single point"),
             (ninety_percent, "z = 1.96"), (coarse_grid, "steps of 0.001 or less"),
             (strict_inside, "a strict < leaves it out"),
             (divides_by_observed_se, "k = 0 and k = n are the edges")],
    "05.Q2": [("different", "written in advance"), ("maybe", "answer with one of")],
    "05.Q3": [("wrong slip", "do not count wasted calls")],
    "05.Q5": [(64, "the fewest runs under 0.2"), (256, "the fewest runs under 0.2")],
    "05.Q6": [("same verdict", "the first request already differs")],
}

QUESTIONS = {
    "05.Q1": "Because the two providers this course talks to (Ollama and OpenAI's Chat Completions) do not need it "
             "sent back, and it runs to hundreds of tokens a call that the folder would pay for again every round. "
             "A provider that needs its thinking returned with a tool call (Anthropic with tools, OpenAI's "
             "Responses API) would force the adapter to keep it in the folder.",
    "05.Q2": "The same verdict (case 3 at the same line): a scripted manager's replies are written in advance, so "
             "the unit on the answer slip cannot change what it says. Only a model that reads the slips can "
             "react to the unit; that is why the experiment needs real models.",
    "05.Q3": "right: both slips ask about 18, a number get_weather returned, so neither is a wrong line; the final "
             "reply gives the right Fahrenheit. The rules judge lines, they do not count wasted calls.",
    "05.Q4": "The line that keeps an answer slip's number as Celsius only when it answers a get_weather slip "
             "(checked by the tool_return's name, or by its tool_call_id against the slips asked). Keeping every "
             "tool's answer would accept 64 from to_fahrenheit as Celsius, and on 05.2's run (which converts its own "
             "64 again) the rule would return [] instead of the line of that slip.",
    "05.Q5": "128 (at half right: 64 runs give about 0.24, 128 about 0.17). The width shrinks with the square root "
             "of the number of runs, so halving it takes four times the runs.",
    "05.Q6": "ReplayLLM refuses at the first request (ReplayMismatch): the run sends the system prompt and the "
             "question, the recording sent the worked example too. A replay is only valid for the same folder.",
    "05.Q7": "The interval [0, 0]: it claims 8 failures prove the model is never right. Its standard error is "
             "computed at the observed share 0, where it is 0; a model right one run in five would still show 0 "
             "of 8 about one time in six (0.8 to the 8th).",
    "05.Q8": "It never called get_weather in any run (the count in the traces), so it never saw an answer slip "
             "with or without the unit; its first wrong line is its first slip, a to_fahrenheit with a number of "
             "its own.",
}
