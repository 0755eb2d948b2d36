"""Notebook 05's envelope exercise: what share of each reply went to thinking, and which replies thought about a
number they did not use. Every trace here is scripted, but one: a line of a real run that the article printed."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import AssistantMessage, ToolCall
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.course.classify import classify
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry
from . import Hint, exercise
from .package_guard import calls_package

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
Report = tuple[dict[int, "float | None"], list[int]]


def _reply(text: str | None = "", calls: tuple[tuple[str, dict[str, Any]], ...] = (), *, thinking: str | None = None,
           thought: int | None = None, out: int | None = None) -> LLMResponse:
    slips = [ToolCall(f"c{i}", name, args) for i, (name, args) in enumerate(calls)]
    return LLMResponse(AssistantMessage(text, slips), output_tokens=out, reasoning=thinking,
                       reasoning_tokens=thought, model="scripted")


def scripted_trace(*replies: LLMResponse) -> list[dict[str, Any]]:
    """A scripted run of these replies, recorded as a trace (line 1 is run_start); labelled scripted, not a model."""
    recorder = EventRecorder()
    Agent(ScriptedLLM(list(replies), name="scripted: thinking"), weather_registry(), SYSTEM_PROMPT,
          observers=[recorder]).run({"question": QUESTION})
    return recorder.events


def _report(events: list[dict[str, Any]]) -> Report:
    shares, flagged = {}, []
    for line, e in enumerate(events, 1):
        if e["event"] != "model_reply":
            continue
        thought, out = e.get("reasoning_tokens"), e.get("output_tokens")
        shares[line] = thought / out if thought is not None and out else None
        said = (e["message"].get("content") or "") + json.dumps([c["arguments"] for c in e["message"]["tool_calls"]])
        used = {float(n) for n in NUMBER.findall(said)}
        if any(float(n) not in used for n in NUMBER.findall(e.get("reasoning") or "")):
            flagged.append(line)
    return shares, flagged


#: One line of a real run (qwen3.5:0.8b through Ollama, thinking on), as the article "The State and Observer
#: Patterns in a Python Agent Loop" printed it, its "..." cuts included; the field names are ours, the values theirs.
ARTICLE_LINE = {"run": 1, "step": 2, "event": "model_reply",
                "message": {"role": "assistant", "content": "...- **Paris:** 18°F\n- **Tokyo:** 24°F", "tool_calls": []},
                "reasoning": "...Paris returned 18, and Tokyo returned 24, which are already Fahrenheit temperatures "
                             "based on the tool's response format...",
                "input_tokens": 453, "output_tokens": 80, "reasoning_tokens": None}

LOOK = (("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"}))


def _shape_traps(divide: str) -> list[tuple[str, list[dict[str, Any]], str, str]]:
    """The two shapes a trace may hold that the spec names: content None, and arguments that stayed text."""
    return [
        ("a run whose request has no text (content None) and thinks of its lookups",
         scripted_trace(_reply(None, LOOK, thinking="Look up Paris and Tokyo first, then convert 2 numbers.",
                               thought=12, out=30),
                        _reply("Paris: 64°F, Tokyo: 75°F", thought=3, out=12)),
         divide, "content is None when a reply has no text: read it as no text (\"\"), not as a string to add to; "
                 "the 2 its thinking names is used nowhere, so flag that line"),
        ("a run whose to_fahrenheit arguments stayed text (their JSON did not parse)",
         scripted_trace(_reply("", LOOK, thought=5, out=20),
                        _reply("", (("to_fahrenheit", '{"celsius": 18'),), thinking="Paris is 18, convert it.",
                               thought=8, out=25),
                        _reply("Paris: 64°F, Tokyo: 75°F", thought=3, out=12)),
         divide, "a call's arguments may be the text itself, not a dict: its numbers ('{\"celsius\": 18' holds 18) "
                 "count as used, so nothing here is flagged"),
    ]


def _traps() -> list[tuple[str, list[dict[str, Any]], str, str]]:
    """(what the trace is, its events, the hint for wrong shares, the hint for wrong flags)."""
    divide = "share = reasoning_tokens / output_tokens: the output count already includes the thinking"
    return [
        ("a count-only run (as OpenAI reports: no text, a count)",
         scripted_trace(_reply("", LOOK, thought=20, out=80), _reply("Paris: 64°F, Tokyo: 75°F", thought=45, out=60)),
         divide, "a reply with no thinking text (reasoning None) mentions no number: flag nothing"),
        ("a text-only run (as Ollama reports: text, no count)",
         scripted_trace(_reply("", LOOK, thinking="I need both cities first.", out=40),
                        _reply("Paris: 64°F, Tokyo: 75°F", out=30)),
         "reasoning_tokens None means not reported: the share is None, never 0 and never a guess from the text",
         "this thinking holds no number, so there is nothing to flag: flag a reply only for a number its thinking "
         "names and the reply does not use, not for having thinking"),
        ("a run whose thinking names the number it converts",
         scripted_trace(_reply("", LOOK, thought=5, out=20),
                        _reply("", (("to_fahrenheit", {"celsius": 18}),), thinking="Paris is 18, convert it.",
                               thought=10, out=30),
                        _reply("Paris: 64°F", thinking="So Paris is 64.", thought=4, out=10)),
         divide, "a number the reply asks a tool about is used: look in its tool calls' arguments too, not only "
                 "its text"),
        ("a run whose thinking writes 64.0",
         scripted_trace(_reply("", LOOK), _reply("Paris: 64°F, Tokyo: 24°F",
                                                 thinking="Paris came back as 64.0, Tokyo as 24.")),
         "no count is reported here, so every share is None",
         "compare numbers, not text: 64.0 in the thinking is the 64 of the answer"),
        ("a run whose first reply reports 0 output tokens",
         scripted_trace(_reply("", LOOK, thought=0, out=0), _reply("Paris: 64°F, Tokyo: 75°F", thought=5, out=20)),
         "an output count of 0 gives no share: None (no share of nothing), never a division by 0",
         "a reply with no thinking text (reasoning None) mentions no number: flag nothing"),
        ("the article's mistake, re-enacted with thinking",
         scripted_trace(_reply("", LOOK, thought=9, out=30),
                        _reply("Paris: 64°F, Tokyo: 24°F", thinking="Paris 18 is 64. Tokyo 24 is already Fahrenheit.",
                               thought=70, out=90)),
         divide, "the final reply's thinking names 18, which its answer never uses: flag that reply's line"),
        *_shape_traps(divide),
        ("the article's real line (a trace of one line, as printed)", [dict(ARTICLE_LINE)],
         "Ollama reports no thinking count (reasoning_tokens None): the share is None, even with thinking text",
         "its thinking names 18 and 24 and its reply uses both: nothing to flag, wrong as the reply is"),
    ]


def _line_hint(got: Any, want: dict[int, Any]) -> str:
    keys = sorted(got) if isinstance(got, dict) else []
    if keys == [k - 1 for k in want]:
        return "your lines are one too low: line 1 is run_start, so number with enumerate(events, 1)"
    if keys == list(range(1, len(want) + 1)):
        return "you numbered the model replies only: a line is the reply's place among all the trace's events"
    return "key the shares by the line of each model_reply event (line 1 is run_start), one key per reply"


def _same(got: dict[int, Any], want: dict[int, Any]) -> bool:
    return all((got[k] is None) == (w is None) and (w is None or math.isclose(got[k], w)) for k, w in want.items())


@exercise("05.1", kind="code", title="the envelope: thinking's share of each reply, and numbers thought of but unused")
def check_thinking_report(report: Callable[[list[dict[str, Any]]], Report]) -> str:
    traps = _traps()
    if calls_package(report, (classify,), traps[-1][1]):
        raise Hint("your answer runs classify: it judges a run's first wrong line and never reads the envelope's "
                   "reasoning or reasoning_tokens; read the model_reply events yourself")
    for label, events, share_hint, flag_hint in traps:
        want = _report(events)
        try:
            got = report(events)
            shares, flagged = got
        except (NotImplementedError, Hint):
            raise
        except Exception as error:  # the learner's crash: name the trace and what is special in it
            raise Hint(f"on {label} your function raised {type(error).__name__}: {share_hint}; "
                       f"and {flag_hint}") from None
        if not isinstance(shares, dict) or sorted(shares) != sorted(want[0]):
            raise Hint(f"on {label}: {_line_hint(shares, want[0])}")
        if not _same(shares, want[0]):
            raise Hint(f"on {label} your shares are {shares}, expected {want[0]}: {share_hint}")
        if sorted(flagged) != want[1]:
            raise Hint(f"on {label} you flagged lines {sorted(flagged)}, expected {want[1]}: {flag_hint}")
    return f"right on {len(traps) - 1} scripted traces, each with its own trap, and on the article's real line"
