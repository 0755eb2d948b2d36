"""Notebook 04's checks: a JSON Lines listener, a tool ledger, counting a trace's lines, and its questions.

Each check runs the learner's code on runs the notebook never shows (other cities, other rounds),
so nothing printed above the exercise answers it.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from mingraph_lite.agents import Agent
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import ToolCall
from mingraph_lite.observers.base import HOOKS, Observer, RecordingObserver, event_dict
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.tools import ToolRegistry
from mingraph_lite.observers.trace import TraceRecorder, read_trace
from mingraph_lite.course.scripts import SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry
from ..platform import listener_warnings
from . import Hint, NotDone, exercise
from .nb03 import calls_seen

#: The fields each kind of line must carry, beside "event" (the hook's name without "on_").
REQUIRED = {"step_start": ("step",), "tool_call": ("name", "arguments"), "tool_return": ("name", "content"),
            "finish": ("answer", "reason")}


def _own_hooks(cls: type) -> list[str]:
    return [h for h in HOOKS if getattr(cls, h, None) is not None and getattr(cls, h) is not getattr(Observer, h)]


_STUB = {"__module__", "__qualname__", "__doc__", "__init__", "__dict__", "__weakref__", "__firstlineno__",
         "__static_attributes__", "__annotations__"}


def _not_done_or_no_hooks(cls: type) -> NotDone | Hint:
    """A class with no hook of its own is the stub, unless it brought other code: then say why none counts."""
    extra = sorted(name for name in vars(cls) if name not in _STUB)
    if not extra:
        return NotDone()
    return Hint(f"your class defines {', '.join(extra)} but none of Observer's hooks as a method of its own "
                "(def on_run_start(self, messages): ..., def on_tool_call(self, call): ...): write one per "
                "announcement you need; a class that hands the hooks on through __getattr__ or __getattribute__ "
                "writes no line of its own")


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
    if len(names) == 1 < len(expected) and names == expected[-1:]:
        raise Hint(f"the file holds only the run's last line, {names}: each write replaced the file: open it "
                   "with 'a' (appending), not 'w', so every line stays")
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
    if issubclass(cls, RecordingObserver):
        raise Hint("that is one of the package's recorders; write your own listener, hook by hook")
    if not _own_hooks(cls):
        raise _not_done_or_no_hooks(cls)
    try:
        return _json_lines_runs(cls)
    except _Refused:
        raise Hint("your listener hands the announcements to the package's TraceRecorder or EventRecorder and "
                   "writes what it records: the file comes out right, but none of its lines is yours; the "
                   "exercise is choosing, hook by hook, what each line says") from None
    except TypeError as e:
        if "JSON serializable" not in str(e):
            raise _heard_badly(e) from None
        raise Hint(f"json.dumps takes plain data ({e}): write the fields the exercise lists (call.name, "
                   "call.arguments, result.content, ...), not the message objects themselves") from None
    except (AttributeError, KeyError, NameError, ValueError) as e:
        raise _heard_badly(e) from None


def _heard_badly(error: Exception) -> Hint:
    if isinstance(error, NameError):
        return Hint(f"your listener uses a name it never defined or imported ({error}): import what it needs in "
                    "the exercise cell (for example `import json`), and reach the listener's own data through self")
    return Hint(f"your listener raised {type(error).__name__} ({error}) while hearing an announcement: check each "
                "hook's arguments in the HOOKS printout above: on_model_reply gets an LLMResponse (.message.tool_calls), "
                "on_tool_call a ToolCall (.name, .arguments), on_tool_return a ToolMessage (.name, .content, "
                ".is_error), on_finish the answer and the reason")


class _Refused(BaseException):  # not an Exception: the agent's strict listeners must not turn it into another one
    pass


@contextmanager
def _no_recorders() -> Iterator[None]:
    """While the learner's listener hears a run, a package recorder hearing anything is refused: a listener that
    keeps an EventRecorder or a TraceRecorder inside is caught by what it runs, whatever it is called."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise _Refused

    with mock.patch.object(RecordingObserver, "_hear", refuse):
        yield


def _second_fails() -> ScriptedLLM:
    return ScriptedLLM([[("get_weather", {"city": "Oslo"}), ("get_humidity", {"city": "Oslo"}),
                         ("to_fahrenheit", {"celsius": 7})]], name="scripted: the second tool fails")


def _heard(llm: ScriptedLLM, observer: Any, question: str) -> None:
    """One run on a menu whose get_humidity fails; a failing tool's own error ends the run, nothing else."""
    agent = Agent(llm, _with_failing_humidity(), SYSTEM_PROMPT, observers=[observer], strict=True)
    try:
        agent.run({"question": question})
    except ConnectionError:
        pass


def _truth(llm: ScriptedLLM) -> list[dict[str, Any]]:
    recorder = EventRecorder()  # a separate run: the learner's run has no package recorder in it
    _heard(llm, recorder, "?")
    return recorder.events


def _own_lines(run: Any, *args: Any) -> None:
    """``run(*args)``, refusing a listener that has the package's ``event_dict`` spell its lines."""
    _, spelled = calls_seen(run, args, lambda code: code is event_dict.__code__)
    if spelled:
        raise Hint("your listener has the package's event_dict write each line: the file comes out right, but "
                   "choosing what each line carries is the exercise (event_dict is how TraceRecorder spells "
                   "its lines, so with it you would be writing TraceRecorder again); build each dict yourself")


def _json_lines_runs(cls: type) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path, seen = Path(folder) / "run.jsonl", []
        with _no_recorders():
            _own_lines(_heard, _oslo_cairo(peek=lambda: seen.append(len(_lines(path)))), cls(path), "Oslo and Cairo?")
        first = _lines(path)
        _compare(_parse(first), _truth(_oslo_cairo()))
        if seen and seen[0] < 2:
            raise Hint("when the model was first called, the file did not yet hold the run_start and step_start "
                       "lines: write (and close or flush) each line when it is announced, so a crash keeps them")
        with _no_recorders():
            _own_lines(_heard, _second_fails(), cls(path), "And Oslo's humidity?")
        both = _lines(path)
        if both[:len(first)] != first:
            raise Hint("a second run with a new listener on the same file wiped the first run's lines: open the "
                       "file for appending, so earlier runs stay")
        truth = _truth(_second_fails())
        if "tool_error" not in [line.get("event") for line in _parse(both[len(first):])]:
            raise Hint("the second run had a tool that failed, and the file holds no tool_error line for it: "
                       "a failure is an announcement of its own (on_tool_error), and it needs its line too")
        _compare(_parse(both[len(first):]), truth)
    return (f"your file held all {len(first)} announcements of a run you had not seen, line by line, then a second "
            "run's after them, a failing tool included")


def _london_sydney_new_york() -> ScriptedLLM:
    return ScriptedLLM([[("get_weather", {"city": c}) for c in ("London", "Sydney", "New York")],
                        [("to_fahrenheit", {"celsius": 14}), ("count_log_errors", {"day": "2026-12-01"})],
                        "London is 57°F."], name="scripted: three cities")


def _with_failing_humidity() -> ToolRegistry:
    registry = weather_registry()

    @registry.add
    def get_humidity(city: str) -> str:
        """Get the relative humidity for a city, in percent (its service is down in this check)."""
        raise ConnectionError("humidity service down")

    return registry


def _with_error_log() -> ToolRegistry:
    registry = weather_registry()

    @registry.add
    def count_log_errors(day: str) -> str:
        """Count the errors in the weather service's log for a day (YYYY-MM-DD)."""
        return "Error count: 0 (a clean day)"  # a result, not an error, that starts with "Error"

    return registry


#: (what the run is, its manager, its menu, asked for, answered with a result), each run unseen in the notebook.
def _ledger_runs() -> list[tuple[str, ScriptedLLM, ToolRegistry, dict[str, int], dict[str, int]]]:
    shared = (ToolCall("t1", "get_weather", {"city": "Oslo"}), ToolCall("t1", "get_weather", {"city": "Cairo"}))
    return [
        ("three lookups, one conversion and a log count", _london_sydney_new_york(), _with_error_log(),
         {"get_weather": 3, "to_fahrenheit": 1, "count_log_errors": 1},
         {"get_weather": 3, "to_fahrenheit": 1, "count_log_errors": 1}),
        ("a bad slip, then a tool that fails with one slip still after it",
         ScriptedLLM([[("get_weather", {"city": "Oslo"}), ("to_fahrenheit", {"celsius": "7"}),
                       ("get_humidity", {"city": "Oslo"}), ("get_weather", {"city": "Cairo"})]], name="scripted"),
         _with_failing_humidity(), {"get_weather": 2, "to_fahrenheit": 1, "get_humidity": 1}, {"get_weather": 1}),
        ("two slips that share one ticket number", ScriptedLLM([list(shared), "No answer."], name="scripted"),
         weather_registry(), {"get_weather": 2}, {}),
    ]


def _ledger_hint(what: str, asked: dict[str, int], results: dict[str, int], want: tuple[dict, dict]) -> Hint:
    if asked != want[0]:
        if what.startswith("a bad slip") and sum(asked.values()) < sum(want[0].values()):
            return Hint(f"{what}: your ledger says asked={asked}, but the slips after a failing tool are never "
                        "started, so no announcement about starting or running a slip comes for them; the model "
                        "still wrote them. Which announcement shows every slip the model wrote, before any runs?")
        if what.startswith("two slips"):
            return Hint(f"{what}: your ledger says asked={asked}; the model wrote 2 slips, but slips that share one "
                        "ticket number are refused unstarted, with one answer slip between them: an announcement "
                        "about running or answering slips sees one slip where the model wrote two")
        return Hint(f"{what}: your ledger says asked={asked}, the model asked for {want[0]}: count by the tool's "
                    "name, one per slip the model wrote")
    if not results.get("count_log_errors") and want[1].get("count_log_errors"):
        return Hint(f"{what}: your ledger says results={results}, but count_log_errors answered 'Error count: 0 "
                    "(a clean day)', a result whose text starts with 'Error': read the answer slip's is_error, "
                    "not its text")
    return Hint(f"{what}: your ledger says results={results}, but only {want[1]} came back with a result: an answer "
                "slip with is_error=True is not a result (a bad slip answered with what to fix, a failed tool, a "
                "slip not run)")


_ON_A_RECORDER = ("your ledger lets one of the package's recorders hear the run and counts from its record: write "
                  "the hooks yourself: the exercise is knowing which announcement carries what")


@exercise("04.3", kind="code", title="a ledger: what the model asked for, and what came back")
def tool_ledger(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (ToolLedger), not an instance of it")
    if issubclass(cls, RecordingObserver):
        raise Hint(_ON_A_RECORDER)
    if not _own_hooks(cls):
        raise _not_done_or_no_hooks(cls)
    one, two = cls(), cls()
    if not all(isinstance(getattr(x, name, None), dict) for x in (one, two) for name in ("asked", "results")):
        raise Hint("keep the two dicts the exercise cell makes in __init__: self.asked and self.results")
    if one.asked is two.asked or one.results is two.results:
        raise Hint("two fresh ledgers share one pair of dicts: make them in __init__, not in the class body")
    for what, llm, menu, *want in _ledger_runs():
        ledger = cls()
        try:
            with _no_recorders():
                Agent(llm, menu, SYSTEM_PROMPT, observers=[ledger], strict=True).run({"question": "Please."})
        except ConnectionError:
            pass  # the failing tool's own error: the run stops, the ledger has heard everything before it
        except _Refused:
            raise Hint(_ON_A_RECORDER) from None
        except (AttributeError, KeyError, NameError, TypeError, ValueError) as e:  # strict: a hook's crash comes up
            raise _heard_badly(e) from None
        asked, results = ({k: v for k, v in d.items() if v} for d in (ledger.asked, ledger.results))
        if (asked, results) != tuple(want):
            raise _ledger_hint(what, asked, results, tuple(want))
    return f"right on {len(_ledger_runs())} runs you had not seen, a failing tool and a refused slip included"


def _five_rounds() -> ScriptedLLM:
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18})], [("to_fahrenheit", {"celsius": 24})],
                        "Paris: 64°F, Tokyo: 75°F"], name="scripted: five rounds")


@exercise("04.2", kind="reasoning", title="how many lines will your listener write?")
def trace_lines(answer: Any) -> str:
    prediction, listener = answer if isinstance(answer, tuple) and len(answer) == 2 else (answer, None)
    if prediction is ...:
        raise NotDone()
    if not isinstance(prediction, int) or isinstance(prediction, bool):
        raise Hint("predict with a whole number of lines")
    if not (isinstance(listener, type) and issubclass(listener, Observer)):
        raise Hint("pass your prediction and your 04.1 class: check(\"04.2\", (five_round_lines, JsonLinesListener))")
    if listener.__module__.startswith("mingraph_lite"):
        raise Hint(f"{listener.__name__} is the package's listener: the check wants yours, your 04.1 class")
    with tempfile.TemporaryDirectory() as folder, listener_warnings():  # a crashing hook writes fewer lines
        ours, yours = Path(folder) / "five.jsonl", Path(folder) / "yours.jsonl"
        Agent(_five_rounds(), weather_registry(), SYSTEM_PROMPT, observers=[TraceRecorder(ours), listener(yours)]
              ).run({"question": "What's the temperature in Paris and in Tokyo, in Fahrenheit?"})
        truth, wrote = len(read_trace(ours)), len(_lines(yours))
    if wrote != truth:
        raise Hint("your JsonLinesListener did not write one line per announcement on the five-round run: pass "
                   "04.1 first, then run this check again with the same prediction")
    if prediction != truth:
        if prediction == truth - 2:
            raise Hint("two lines short: you seem to have counted the lines of each model call and each slip; a "
                       "run also writes two lines once: run_start at the start and finish at the end")
        side = "more" if prediction < truth else "fewer"
        raise Hint(f"your listener wrote {side} lines than that: one per announcement. Go back to the three-round "
                   "trace above: which lines came once per run, which once per model call, which once per slip? "
                   "Then count the five-round run's model calls and slips")
    return f"right: your listener wrote {truth} lines on the five-round run, one per announcement, as you predicted"
