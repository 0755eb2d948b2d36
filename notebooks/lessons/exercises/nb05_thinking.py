"""Notebook 05's envelope exercise: what share of each reply went to thinking, and which replies carry thinking
text with no thinking count. Every trace here is scripted, but one: a line of a real run that the article printed."""

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
from mingraph_lite.course.compare import reported_table
from ..predict import reveal
from . import Hint, exercise
from .package_guard import calls_package

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
Report = tuple[dict[int, "float | None"], list[int]]


def _reply(text: str | None = "", calls: tuple[tuple[str, dict[str, Any]], ...] = (), *, thinking: str | None = None,
           thought: int | None = None, out: int | None = None) -> LLMResponse:
    slips = [ToolCall(f"c{i}", name, args) for i, (name, args) in enumerate(calls)]
    return LLMResponse(AssistantMessage(text, slips), output_tokens=out, reasoning=thinking,
                       reasoning_tokens=thought, model="scripted")


def scripted_trace(*replies: LLMResponse, unit: bool = False) -> list[dict[str, Any]]:
    """A scripted run of these replies, recorded as a trace (line 1 is run_start); labelled scripted, not a model.
    ``unit``: get_weather answers with the unit on ("18°C"), not bare ("18")."""
    recorder = EventRecorder()
    Agent(ScriptedLLM(list(replies), name="scripted: thinking"), weather_registry(unit), SYSTEM_PROMPT,
          observers=[recorder]).run({"question": QUESTION})
    return recorder.events


def _report(events: list[dict[str, Any]]) -> Report:
    shares, uncounted = {}, []
    for line, e in enumerate(events, 1):
        if e["event"] != "model_reply":
            continue
        thought, out = e.get("reasoning_tokens"), e.get("output_tokens")
        shares[line] = thought / out if thought is not None and out else None
        if e.get("reasoning") is not None and thought is None:  # thinking text, no count: its cost is unknown
            uncounted.append(line)
    return shares, uncounted


#: One line of a real run (qwen3.5:0.8b through Ollama, thinking on), as the article "The State and Observer
#: Patterns in a Python Agent Loop" printed it, its "..." cuts included; the field names are ours, the values theirs.
ARTICLE_LINE = {"run": 1, "step": 2, "event": "model_reply",
                "message": {"role": "assistant", "content": "...- **Paris:** 18°F\n- **Tokyo:** 24°F", "tool_calls": []},
                "reasoning": "...Paris returned 18, and Tokyo returned 24, which are already Fahrenheit temperatures "
                             "based on the tool's response format...",
                "input_tokens": 453, "output_tokens": 80, "reasoning_tokens": None}

#: The line the article printed "two lines up" from ARTICLE_LINE, in the same trace: what the model was holding.
ARTICLE_RETURN = {"event": "tool_return", "content": "18", "tool_call_id": "call_33577538..."}

LOOK = (("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"}))


CONVERT = (("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24}))


def _traps() -> list[tuple[str, list[dict[str, Any]], str, str, str]]:
    """(what the trace is, its events, the hint for wrong shares, the hint for wrong uncounted lines, what is
    special in it: the hint for a crash on it)."""
    divide = "share = reasoning_tokens / output_tokens: the output count already includes the thinking"
    counted = "every reply with thinking text here has a count too: list none"
    return [
        ("a count-only run (as OpenAI reports: no text, a count)",
         scripted_trace(_reply("", LOOK, thought=20, out=80), _reply("", CONVERT, thought=10, out=40),
                        _reply("Paris: 64°F, Tokyo: 75°F", thought=45, out=60)),
         divide, "no reply here has thinking text (reasoning is None): list none, a missing text is not a missing "
                 "count", "reasoning is None here (no thinking text)"),
        ("a text-only run (as Ollama reports: text, no count)",
         scripted_trace(_reply("", LOOK, thinking="I need both cities first.", out=40), _reply("", CONVERT, out=30),
                        _reply("Paris: 64°F, Tokyo: 75°F", out=30)),
         "reasoning_tokens None means not reported: the share is None, never 0 and never a guess from the text",
         "only the first reply has thinking text (reasoning not None); the others have no count but no thinking "
         "either: list the first reply's line only", "reasoning_tokens is None here: no count reported"),
        ("a run whose last reply has thinking text and a count",
         scripted_trace(_reply("", LOOK, thought=5, out=20), _reply("", CONVERT, thought=10, out=30),
                        _reply("Paris: 18°C is 64°F, Tokyo: 24°C is 75°F", thinking="Paris 18 is 64.", thought=4,
                               out=10)), divide, counted, "its last reply has thinking text and a count"),
        ("a run whose first reply reports 0 output tokens",
         scripted_trace(_reply("", LOOK, thought=0, out=0), _reply("", CONVERT, thought=2, out=9),
                        _reply("Paris: 64°F, Tokyo: 75°F", thought=5, out=20)),
         "an output count of 0 gives no share: None (no share of nothing), never a division by 0",
         "no reply here has thinking text: list none",
         "output_tokens is 0 on its first reply: no share of nothing, so None, never a division"),
        ("a run whose thinking reply reports 0 thinking tokens",
         scripted_trace(_reply("", LOOK, thinking="Both cities.", thought=0, out=12),
                        _reply("Paris: 64°F, Tokyo: 75°F", out=9)),
         "a reported 0 is a count: its share is 0.0, not None; an unreported count (None) gives None",
         "a reported count of 0 is a count (0 is not None): the thinking reply is counted, list none",
         "reasoning_tokens is 0, a reported count, on its first reply"),
        ("the article's real line (a trace of one line, as printed)", [dict(ARTICLE_LINE)],
         "Ollama reports no thinking count (reasoning_tokens None): the share is None, even with thinking text",
         "the article's line has thinking text and reasoning_tokens None: list its line, 1",
         "the article's line is a trace of one model_reply"),
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


@exercise("05.1", kind="code", title="the envelope: thinking's share of each reply, and the thinking nobody counted")
def check_thinking_report(report: Callable[[list[dict[str, Any]]], Report]) -> str:
    traps = _traps()
    if calls_package(report, (classify,), traps[-1][1]):
        raise Hint("your answer runs classify: it judges a run's first wrong line and never reads the envelope's "
                   "reasoning or reasoning_tokens; read the model_reply events yourself")
    for label, events, share_hint, flag_hint, special in traps:
        want = _report(events)
        try:
            got = report(events)
            shares, flagged = got
        except (NotImplementedError, Hint):
            raise
        except Exception as error:  # the learner's crash: name the trace and what is special in it, only
            raise Hint(f"on {label} your function raised {type(error).__name__}: {special}") from None
        if isinstance(flagged, dict) and not isinstance(shares, dict):
            raise Hint(f"on {label} your tuple is swapped: return (shares, uncounted), the dict of shares first")
        if not isinstance(shares, dict) or sorted(shares) != sorted(want[0]):
            raise Hint(f"on {label}: {_line_hint(shares, want[0])}")
        if not _same(shares, want[0]):
            if _same({k: v / 100 if isinstance(v, (int, float)) else v for k, v in shares.items()}, want[0]):
                raise Hint(f"on {label} your shares are {shares}: give a share as a fraction, not a percent "
                           f"(expected {want[0]})")
            raise Hint(f"on {label} your shares are {shares}, expected {want[0]}: {share_hint}")
        if isinstance(flagged, (set, frozenset, tuple)):
            raise Hint(f"on {label} you returned uncounted as a {type(flagged).__name__}: return a list of lines, "
                       "in order")
        if not isinstance(flagged, list) or sorted(flagged) != want[1]:
            raise Hint(f"on {label} you listed lines {flagged}, expected {want[1]}: {flag_hint}")
    return f"right on {len(traps) - 1} scripted traces, each with its own trap, and on the article's real line"


#: (b) what the phrase points at, and (c) the one change to test: labelled choices; "C" and "X" are the article's.
POINTS_AT = {"A": 'the question: "... in Fahrenheit?"',
             "B": "get_weather's description on the menu: \"in degrees Celsius\"",
             "C": "get_weather's answer slip: " + json.dumps(ARTICLE_RETURN),
             "D": 'the system prompt: "never do the arithmetic yourself"'}
FIXES = {"W": "use a bigger model", "X": 'get_weather answers "18°C", the unit on the number',
         "Y": 'say "in degrees Celsius" twice in get_weather\'s description',
         "Z": 'repeat "never do the arithmetic yourself" at the end of the prompt'}


def _why_hint(guess: Any) -> str:
    """The first part of (phrase, points at, fix) that is wrong, and why; "" when all three are right."""
    if not (isinstance(guess, tuple) and len(guess) == 3 and isinstance(guess[0], str)):
        return 'answer (phrase, letter, letter), for example ("...", "A", "W")'
    phrase = guess[0].strip(" .\"'").lower()
    if not phrase or phrase not in ARTICLE_LINE["reasoning"].lower():
        return "quote a phrase of the thinking exactly as printed (its reasoning field), a few words"
    if "response format" not in phrase and "already fahrenheit" not in phrase:
        return ("that phrase says what came back, not why the model took it for Fahrenheit: find the words that "
                "give its reason")
    if str(guess[1]).upper() != "C":
        return ("the phrase names the tool's response: which of the four did the tool send back, in the run? "
                "The menu and the prompt are read once, at the start")
    if str(guess[2]).upper() != "X":
        return ("test the change that puts the missing fact where the phrase looked: in the tool's response; the "
                "other three leave the bare number as it is")
    return ""


def reveal_why(guess: Any) -> None:
    """The gated reading of the article's real thinking: which phrase explains the mistake, which earlier line it
    points at, and the change to test; then the article's reported experiment, only once all three are right."""
    hint = _why_hint(guess)
    if hint or guess is ...:
        print_choices()
    reveal(guess, guess if not hint else "(gated)", "(phrase, points at, fix)", gated=True, hint=hint)
    if hint or guess is ...:
        return
    bare = ARTICLE_RETURN["content"]
    assert NUMBER.fullmatch(bare) and ARTICLE_RETURN["event"] == "tool_return"  # a number, no unit: the "format"
    print(f"The answer slip said a bare {bare!r}; the unit was only on the menu, read once.\n{reported_table()}\n"
          "Notebook 06 asks how sure 6 of 8 is, and sets the two recorded models beside it.")


def print_choices() -> None:
    """The labelled choices of the prediction on the article's thinking: (b) what it points at, (c) the fix."""
    print("(b) what the phrase points at:")
    for letter, text in POINTS_AT.items():
        print(f"  {letter}  {text}")
    print("(c) the one change to test:")
    for letter, text in FIXES.items():
        print(f"  {letter}  {text}")


def show_article_line() -> None:
    """Print the article's real trace line, one field a line."""
    for name, value in ARTICLE_LINE.items():
        print(f"{name:17} {value!r}")
