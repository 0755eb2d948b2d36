"""Notebook 04's checks: a JSON Lines listener, a tool tally, and counting a trace's lines.

Each check runs the learner's code on runs the notebook never shows (other cities, other rounds),
so nothing printed above the exercise answers it.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.observers.base import HOOKS, Observer
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TraceRecorder, read_trace
from mingraph_lite.course.scripts import SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry
from . import Hint, NotDone, exercise

#: The fields each kind of line must carry, beside "event" (the hook's name without "on_").
REQUIRED = {"step_start": ("step",), "tool_call": ("name", "arguments"), "tool_return": ("name", "content"),
            "finish": ("answer", "reason")}


def _own_hooks(cls: type) -> list[str]:
    return [h for h in HOOKS if getattr(cls, h, None) is not None and getattr(cls, h) is not getattr(Observer, h)]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def _oslo_cairo(peek=None) -> ScriptedLLM:
    """Oslo and Cairo, one conversion, then the answer: a run the notebook never shows."""

    def first(messages, tools):
        if peek is not None:
            peek()
        return [("get_weather", {"city": "Oslo"}), ("get_weather", {"city": "Cairo"})]

    return ScriptedLLM([first, [("to_fahrenheit", {"celsius": 7})], "Oslo is 45°F and Cairo is 31°C."],
                       name="scripted: Oslo and Cairo")


def _parse(lines: list[str]) -> list[dict[str, Any]]:
    parsed = []
    for number, line in enumerate(lines, 1):
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            raise Hint(f"line {number} of the file is not JSON ({line[:40]!r}): write json.dumps(...) of a "
                       "dict, then a newline, once per announcement") from None
        if not isinstance(value, dict):
            raise Hint(f"line {number} is JSON but not an object: write one dict per line")
        parsed.append(value)
    return parsed


def _compare(lines: list[dict[str, Any]], truth: list[dict[str, Any]]) -> None:
    names, expected = [line.get("event") for line in lines], [e["event"] for e in truth]
    if names != expected:
        raise Hint(f"the file's events are {names}; a run announces {len(expected)} times, and each "
                   "announcement needs its own line, with \"event\" = the hook's name without on_")
    for line, event in zip(lines, truth, strict=True):
        for field in REQUIRED.get(event["event"], ()):
            if line.get(field) != event[field]:
                raise Hint(f"a {event['event']} line has {field}={line.get(field)!r}, but the run announced "
                           f"{event[field]!r}; each {event['event']} line needs {', '.join(REQUIRED[event['event']])}")


@exercise("04.1", kind="code", title="a listener that writes its own JSON Lines file")
def json_lines_listener(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (JsonLinesListener), not an instance of it")
    if issubclass(cls, TraceRecorder):
        raise Hint("that is the package's TraceRecorder; write your own listener, hook by hook")
    if not _own_hooks(cls):
        raise NotDone
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.jsonl"
        listener, recorder, seen = cls(path), EventRecorder(), []
        agent = Agent(_oslo_cairo(peek=lambda: seen.append(len(_lines(path)))), weather_registry(),
                      SYSTEM_PROMPT, observers=[listener, recorder], strict=True)
        agent.run({"question": "How cold is Oslo in Fahrenheit, and how hot is Cairo?"})
        _compare(_parse(_lines(path)), recorder.events)
        if seen and seen[0] < 2:
            raise Hint("when the model was first called, the file did not yet hold the run_start and step_start "
                       "lines: write (and close or flush) each line when it is announced, so a crash keeps them")
        first = len(_lines(path))
        again = Agent(_oslo_cairo(), weather_registry(), SYSTEM_PROMPT, observers=[cls(path)], strict=True)
        again.run({"question": "And once more?"})
        if len(_lines(path)) != 2 * first:
            raise Hint(f"after a second run with a new listener on the same file it holds {len(_lines(path))} "
                       f"lines, not {2 * first}: open the file for appending, so earlier runs stay")
    return f"your file held all {first} announcements of a run you had not seen, line by line, and kept both runs"


def _london_sydney_new_york() -> ScriptedLLM:
    return ScriptedLLM([[("get_weather", {"city": c}) for c in ("London", "Sydney", "New York")],
                        [("to_fahrenheit", {"celsius": 14})], "London is 57°F."], name="scripted: three cities")


@exercise("04.3", kind="code", title="a listener that only cares about tools")
def tool_tally(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (ToolTally), not an instance of it")
    hooks = _own_hooks(cls)
    if not hooks:
        raise NotDone
    first, second = cls(), cls()
    Agent(_london_sydney_new_york(), weather_registry(), SYSTEM_PROMPT, observers=[first], strict=True).run(
        {"question": "Three cities, please."})
    if first.counts != {"get_weather": 3, "to_fahrenheit": 1}:
        raise Hint(f"on a run with three lookups and one conversion your tally says {first.counts}: count by "
                   "the tool's name (call.name), one per slip")
    Agent(ScriptedLLM([[("get_weather", {"city": "Oslo"})], "7°C."]), weather_registry(), SYSTEM_PROMPT,
          observers=[second], strict=True).run({"question": "Oslo?"})
    if second.counts != {"get_weather": 1}:
        raise Hint(f"a second, fresh tally heard one lookup but says {second.counts}: do two listeners share "
                   "one dict? Make it in __init__, not in the class body")
    if len(hooks) > 1:
        raise Hint(f"right counts, but you overrode {hooks}: one announcement is enough for this")
    return f"right on runs you had not seen, overriding only {hooks[0]}"


def _five_rounds() -> ScriptedLLM:
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18})], [("to_fahrenheit", {"celsius": 24})],
                        "Paris: 64°F, Tokyo: 75°F"], name="scripted: five rounds")


@exercise("04.2", kind="reasoning", title="how many lines will the trace hold?")
def trace_lines(answer: Any) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "five.jsonl"
        Agent(_five_rounds(), weather_registry(), SYSTEM_PROMPT, observers=[TraceRecorder(path)]).run(
            {"question": "What's the temperature in Paris and in Tokyo, in Fahrenheit?"})
        truth = len(read_trace(path))
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of lines")
    if answer != truth:
        raise Hint("count the announcements: one run_start; per model call a step_start and a model_reply; "
                   "per slip a tool_call and a tool_return; one finish. How many model calls and slips here?")
    return f"{truth} lines: the trace has one line per announcement, nothing more"
