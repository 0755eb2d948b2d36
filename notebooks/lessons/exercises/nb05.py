"""Notebook 05's exercises and checked questions: made-up conversions per variant over many runs, reading a
trace and the source of its wrong number, and questions checked against real runs of the code."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mingraph_lite.agents import Agent, StepLimitReached
from mingraph_lite.llms.replay import ReplayLLM
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import read_trace
from mingraph_lite.course import classify as rules
from mingraph_lite.course.classify import OUTCOMES, classify
from mingraph_lite.course.scripts import (QUESTION, SYSTEM_PROMPT, four_round_manager, looping_manager,
                                          wrong_tokyo_manager)
from mingraph_lite.course.weather import lookup, to_fahrenheit, weather_registry
from mingraph_lite.tools import ToolRegistry
from ..trace_lines import brief, print_trace
from . import Hint, exercise
from .package_guard import calls_package

_LOOKUPS = [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]
EXPERIMENTS = Path(__file__).resolve().parents[3] / "data" / "experiments"


# 05.2's run, recorded once from a scripted manager (converts Paris's 18, then its own 64 again, then Tokyo's
# 24): stored, so the manager that made it is not in a module the notebook imports (the test rebuilds it).
_SCRIPTED_05_2 = Path(__file__).resolve().parents[1] / "data" / "scripted-05_2-converts-its-own-64.jsonl"


def _reconvert_run() -> list[dict[str, Any]]:
    return list(read_trace(_SCRIPTED_05_2))


def made_up_manager() -> ScriptedLLM:
    """Skips get_weather and converts numbers of its own (the reported made-up run, scripted)."""
    return ScriptedLLM([[("to_fahrenheit", {"celsius": 10}), ("to_fahrenheit", {"celsius": 5})],
                        "Paris: 50°F, Tokyo: 41°F"], name="scripted: made-up numbers")


def london_manager() -> ScriptedLLM:
    """Looks up the wrong city first, then converts a number of its own: two different wrong slips."""
    return ScriptedLLM([[("get_weather", {"city": "London"})], [("to_fahrenheit", {"celsius": 30})],
                        "Paris: 86°F"], name="scripted: wrong city, then a made-up number")


def guess_first_manager() -> ScriptedLLM:
    """Converts 18 before any lookup (a lucky guess: the lookup that returns 18 comes after it), then looks up."""
    return ScriptedLLM([[("to_fahrenheit", {"celsius": 18})], _LOOKUPS, [("to_fahrenheit", {"celsius": 24})],
                        "Paris: 64°F, Tokyo: 75°F"], name="scripted: converts 18 before looking it up")


def float_manager() -> ScriptedLLM:
    """Converts 18.0 and 24.0 (numbers written as floats) after get_weather answered "18" and "24": all right."""
    return ScriptedLLM([_LOOKUPS, [("to_fahrenheit", {"celsius": 18.0}), ("to_fahrenheit", {"celsius": 24.0})],
                        "Paris: 64°F, Tokyo: 75°F"], name="scripted: converts 18.0 and 24.0")


def same_twice_manager() -> ScriptedLLM:
    """Converts Paris's 18 twice (a wasted call, not a wrong one), then Tokyo."""
    return ScriptedLLM([_LOOKUPS, [("to_fahrenheit", {"celsius": 18})], [("to_fahrenheit", {"celsius": 18})],
                        [("to_fahrenheit", {"celsius": 24})], "Paris: 64°F, Tokyo: 75°F"],
                       name="scripted: converts 18 twice")


def doubling_registry() -> ToolRegistry:
    """The weather menu with a planted bug: get_weather doubles every temperature (05's case 2)."""
    registry = ToolRegistry()

    @registry.add
    def get_weather(city: str) -> str:
        """Get the current temperature for a city, in degrees Celsius."""
        return str(lookup(city)["celsius"] * 2)  # the planted bug

    registry.add(to_fahrenheit)
    return registry


def recorded(llm: Any, unit_in_result: bool = False, *, tools: Any = None, max_steps: int = 10) -> list[dict[str, Any]]:
    """One run's events, as the notebook numbers them (line 1 is run_start); a run stopped by the ceiling keeps
    its trace, which ends with the finish line that says so (case 4 reads it)."""
    recorder = EventRecorder()
    agent = Agent(llm, tools or weather_registry(unit_in_result), SYSTEM_PROMPT, observers=[recorder],
                  max_steps=max_steps)
    try:
        agent.run({"question": QUESTION})
    except StepLimitReached:
        pass
    return recorder.events


def show_05_2_run() -> None:
    """Print 05.2's stored scripted run as numbered trace lines, and hand back nothing: no events to classify."""
    print("a scripted run (recorded once from a scripted manager), one numbered line per event:")
    print_trace(_reconvert_run())


def show_one_run_per_case() -> list[Any]:
    """Print one scripted run for each of the four cases (case 2's tool doubles every temperature: a planted bug)
    with its verdict and first wrong line; return the verdicts."""
    runs = [("asks about London", recorded(london_manager())),
            ("a buggy get_weather", recorded(four_round_manager(), tools=doubling_registry())),
            ("Tokyo already °F", recorded(wrong_tokyo_manager())), ("keeps asking", recorded(looping_manager(), max_steps=3))]
    verdicts = [classify(events) for _, events in runs]
    for (label, events), v in zip(runs, verdicts):
        print(f"{label:20} {v.outcome:22} case {v.case}, line {v.line:>2}:  {brief(events[v.line - 1])}")
    return verdicts


from .nb05_run10 import reveal_run_10, show_run_10_input, worked_example  # noqa: F401  (the notebook imports them here)


# --- 05.3: made-up conversions per variant, over many runs ---------------------------------------------

Runs = list[tuple[str, list[dict[str, Any]]]]
RULE_HELPERS = (rules._tool_call, rules._tool_return, rules._final_reply, rules._finish)  # what classify runs
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _celsius(event: dict[str, Any]) -> float | None:
    """As classify reads it: a number (int or float), never text; arguments that stayed text hold none."""
    value = event["arguments"].get("celsius") if isinstance(event["arguments"], dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _made_up_counts(runs: Runs) -> dict[str, int]:
    """classify's wrong-slip rule for to_fahrenheit, applied to every slip of every run: a slip is made up when no
    get_weather answer slip on an earlier line of the same run returned its number."""
    counts: dict[str, int] = {}
    for variant, events in runs:
        counts.setdefault(variant, 0)
        returned: set[float] = set()
        for e in events:
            if e["event"] == "tool_return" and e["name"] == "get_weather":
                returned |= {float(n) for n in _NUMBER.findall(e["content"])[:1]}
            elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and _celsius(e) not in returned:
                counts[variant] += 1
    return counts


def _text_arguments_run() -> list[dict[str, Any]]:
    from mingraph_lite.messages import ToolCall

    return recorded(ScriptedLLM([_LOOKUPS, [ToolCall("c1", "to_fahrenheit", '{"celsius": 18.0000')], "Paris: 64°F"],
                                name="scripted: arguments cut off"))


def _text_values_run() -> list[dict[str, Any]]:
    return recorded(ScriptedLLM([_LOOKUPS, [("to_fahrenheit", {"celsius": "18"})],
                                 [("to_fahrenheit", {"celsius": "eighteen"})], "Paris: 64°F"],
                                name="scripted: numbers written as text"))


def recorded_runs(experiment: str, model: str = "*") -> Runs:
    """(variant, events) for every recorded run of one model (or of all) under one experiment folder."""
    runs = []
    for results in sorted((EXPERIMENTS / experiment).glob(f"{model}/results.csv")):
        with results.open(encoding="utf-8") as handle:
            runs += [(row["variant"], read_trace(results.parent / row["trace"])) for row in csv.DictReader(handle)]
    return runs


def _each_run_starts_afresh(right: list[dict[str, Any]]) -> list[tuple[str, Runs, str]]:
    """Traps for numbers carried from one run into the next, in the same variant or another."""
    return [
        ("a right run, then a run in the same variant that converts 18 and 24 without looking them up",
         [("A", right), ("A", recorded(ScriptedLLM([[("to_fahrenheit", {"celsius": 18}),
                                                      ("to_fahrenheit", {"celsius": 24})], "Paris: 64°F"])))],
         "each run starts with nothing looked up: the numbers of one run do not carry into the next"),
        ("run A looks up Paris (18) and converts it; run B looks up only Tokyo, then converts 18",
         [("A", recorded(ScriptedLLM([[_LOOKUPS[0]], [("to_fahrenheit", {"celsius": 18})], "Paris: 64°F"]))),
          ("B", recorded(ScriptedLLM([[_LOOKUPS[1]], [("to_fahrenheit", {"celsius": 18})], "Tokyo: 64°F"])))],
         "each run starts with nothing looked up: run A's 18 came back in run A, so run B, "
         "which never looked up Paris, made its 18 up; reset the numbers for every run"),
        ("run A looks up Paris (18); run B, in the same variant, looks up only Tokyo, then converts 18",
         [("A", recorded(ScriptedLLM([[_LOOKUPS[0]], [("to_fahrenheit", {"celsius": 18})], "Paris: 64°F"]))),
          ("A", recorded(ScriptedLLM([[_LOOKUPS[1]], [("to_fahrenheit", {"celsius": 18})], "Tokyo: 64°F"])))],
         "each run starts with nothing looked up, even in the same variant: the second run never looked up "
         "Paris, so its 18 is made up; reset the numbers for every run, not for every variant"),
    ]


def _made_up_groups() -> list[tuple[str, Runs, str]]:
    """(what the runs are, the runs, the hint when an answer gets them wrong): traps first, then held-out runs."""
    right, made_up = recorded(four_round_manager()), recorded(made_up_manager())
    return [("one right run", [("A", right)], "nothing is made up there: every variant gets a count, 0 included"),
            ('a right run with "18°C" answers', [("A", recorded(four_round_manager(), True))],
             "compare numbers, not text: '18°C' holds the number 18"),
            ('a run that converts 18.0 after get_weather answered "18"', [("A", recorded(float_manager()))],
             "compare numbers, not text: 18.0 and '18' are the same number, though str(18.0) is '18.0'"),
            ("a run that converts 64, which came back from to_fahrenheit", [("A", _reconvert_run())],
             "64 came back from to_fahrenheit, so it is Fahrenheit already: only get_weather's numbers count"),
            ("a run that converts 18 before the lookup that returns it", [("A", recorded(guess_first_manager()))],
             "only answer slips EARLIER than the slip count: build the set of numbers as you read"),
            ("a run that makes two numbers up in one reply", [("A", made_up)],
             "count every made-up slip, not the runs that made one up"),
            ("a run whose to_fahrenheit arguments stayed text", [("A", _text_arguments_run())],
             "arguments that are text, not a dict, gave no number: count the slip as made up, as in 02.3"),
            ('a run that converts "18" after looking it up, then "eighteen"', [("A", _text_values_run())],
             'a celsius written as text ("18") is not a number: classify calls that slip made up, and so does '
             'this count, even when float() would read 18'),
            *_each_run_starts_afresh(right),
            ("a run that converts 18 in the same reply as the lookup that returns it",
             [("A", recorded(ScriptedLLM([[_LOOKUPS[0], _LOOKUPS[1], ("to_fahrenheit", {"celsius": 18})],
                                          [("to_fahrenheit", {"celsius": 24})], "Paris: 64°F, Tokyo: 75°F"],
                                         name="scripted: converts in the lookup's reply")))],
             "get_weather's answer 18 sits on an earlier line than to_fahrenheit(18): judged by line, as classify "
             "judges it, that 18 was returned; the reply or step does not matter"),
            ("two variants", [("A", right), ("B", recorded(london_manager()))],
             "count per variant: a dict with one key per variant seen"),
            ("every recorded run of finish-right-2 (held out)", recorded_runs("finish-right-2"),
             "read the held-out runs again: the traps above are all in them"),
            ("every recorded run of finish-right-3 (held out)", recorded_runs("finish-right-3"),
             "results there name their input ('Paris: 18°C', '18°C = 64.4°F')")]


@exercise("05.3", kind="code", title="made-up conversions per variant, over many recorded runs")
def check_made_up_counts(count: Callable[[Runs], dict[str, int]]) -> str:
    groups = _made_up_groups()
    if calls_package(count, (classify, *RULE_HELPERS), groups[-1][1]):
        raise Hint("your answer runs classify or the rule helpers it reads a run with: classify stops at the first "
                   "wrong line of each run, and this count needs every made-up slip; read the events yourself")
    for label, runs, hint in groups:
        try:
            got = count(runs)
        except (NotImplementedError, Hint):
            raise
        except Exception as error:  # a learner's crash on one group: say which, and what is special in it
            raise Hint(f"on {label} your function raised {type(error).__name__}: {hint}") from None
        want = _made_up_counts(runs)
        if isinstance(got, dict) and sorted(got) == sorted(want) and hint.endswith("0 included"):
            hint = ("nothing is made up there: each to_fahrenheit slip converts a number get_weather returned; "
                    "compare numbers, not text (float('18') == 18.0, though str(18.0) is '18.0')")
        if not isinstance(got, dict) or got != want:
            raise Hint(f"on {label} you returned {got!r}, expected {want}: {hint}")
    held_out = sum(len(runs) for label, runs, _ in groups if "(held out)" in label)
    return (f"right on {len(groups)} groups, {sum(len(r) for _, r, _ in groups)} runs, {held_out} of them recorded "
            "and held out")


def _twice_line_hint(events: Sequence[dict[str, Any]], line: int, truth: int) -> Hint:
    if line == truth + 1:
        return Hint(f"right case; line {line} is the answer slip: the wrong line is the slip that asked for it")
    if not 1 <= line <= len(events):
        return Hint(f"right case; the trace has lines 1 to {len(events)}")
    event = events[line - 1]
    if event["event"] == "tool_call" and line < truth:
        why = ("a city the question asks about" if event["name"] == "get_weather"
               else "its number came from get_weather")
        return Hint(f"right case; line {line} asks {event['name']}({event['arguments']}), and that is right: "
                    f"{why}; read on to the first slip that is not")
    if event["event"] == "model_reply" and line < truth:
        return Hint(f"right case; line {line} is a request (model_reply): a request is never the wrong line itself, "
                    "each slip it carries is judged on its own tool_call line just below it")
    where = "comes after the first wrong one" if line > truth else "is right, and so is every line before it"
    return Hint(f"right case; line {line} is a {event['event']} line, and it {where}: find the earliest "
                "to_fahrenheit slip whose number get_weather never returned")


def _source_hint(events: Sequence[dict[str, Any]], source: int, wrong: float) -> Hint:
    if not 1 <= source <= len(events):
        return Hint(f"the trace has lines 1 to {len(events)}: which of them handed the model the {wrong:g}?")
    event = events[source - 1]
    if event["event"] != "tool_return":
        return Hint(f"line {source} is a {event['event']} line: a number reaches the model in an answer slip "
                    f"(tool_return); which answer slip returned the {wrong:g} it converted again?")
    return Hint(f"line {source}'s answer slip returned {event['content']!r}, not {wrong:g}: which answer slip "
                "handed the model the number it converted again?")


def _twice_case_hint(case: int) -> str:
    if case == 3:
        return ("the final reply is wrong, but it is not the first wrong line; case 3 needs every slip before "
                "it right: check each to_fahrenheit slip's number against what get_weather returned")
    if case == 2:
        return ("every answer slip here is right: to_fahrenheit answers each number it is given correctly "
                "(64 gives 147); the mistake is in what it was asked, so whose problem is that?")
    return "the run finished (its last line is finish, 'answered'), so not case 4; cases are 1 to 4"


@exercise("05.2", kind="reasoning", title="which case, which line, and where its number came from")
def check_twice(answer: tuple[int, int, int]) -> str:
    events = _reconvert_run()
    truth = classify(events)
    try:
        case, line, source = (int(x) for x in answer)
    except (TypeError, ValueError):
        raise Hint("answer with three whole numbers, (case, line, source), for example (2, 7, 5)") from None
    wrong = float(events[truth.line - 1]["arguments"]["celsius"])
    sources = [n for n, e in enumerate(events[:truth.line - 1], 1) if e["event"] == "tool_return"
               and wrong in {float(x) for x in _NUMBER.findall(e["content"])}]
    if (line, case) == (truth.case, truth.line):
        raise Hint("did you swap them? answer (case, line, source): the case (1 to 4) first, then the line")
    case_hint = _twice_case_hint(case) if case != truth.case else ""
    if source != sources[-1]:  # the source is what classify does not say; a wrong case is named beside it
        raise Hint(f"{_source_hint(events, source, wrong)}" + (f"; and your case: {case_hint}" if case_hint else ""))
    if case_hint:
        raise Hint(case_hint)
    if line != truth.line:
        raise _twice_line_hint(events, line, truth.line)
    return (f"right: case {truth.case} at line {truth.line} ({truth.why}); its {wrong:g} came from line "
            f"{source}, {events[source - 1]['name']}'s answer slip")


def _choice(answer: Any, options: Sequence[Any]) -> Any:
    """The answer as one of the options: text in any case, a whole number as text or number."""
    if isinstance(answer, str):
        answer = answer.strip().lower()
        answer = int(answer) if answer.isdigit() and all(isinstance(o, int) for o in options) else answer
    if answer not in options:
        raise Hint(f"answer with one of {', '.join(map(repr, options))}")
    return answer


@exercise("05.Q2", kind="reasoning", title='does "18°C" change the scripted re-enactment\'s verdict?')
def check_unit_on_script(answer: Any) -> str:
    bare, unit = classify(recorded(wrong_tokyo_manager())), classify(recorded(wrong_tokyo_manager(), True))
    truth = "same" if (bare.outcome, bare.line) == (unit.outcome, unit.line) else "different"
    if _choice(answer, ("same", "different")) != truth:
        raise Hint("weather_registry(True) is the same tools with get_weather answering '18°C' instead of '18': "
                   "run wrong_tokyo_manager with it and classify the run; the script reads the answer slips, but "
                   "only their number (number('18°C') is 18), and its logic ignores the unit")
    return (f"right: {truth} verdict ({unit.outcome} at line {unit.line}); the script reads only the number on each "
            "answer slip and ignores the unit; a real model might not")


_SAME_TWICE_HINTS = {
    "wrong slip": "both slips ask about 18, a number get_weather returned, so neither is a wrong slip; the rules "
                  "judge each line, they do not count wasted calls",
    "wrong tool result": "every answer slip is right: get_weather gives the teaching data and to_fahrenheit "
                         "converts 18 to 64 both times",
    "wrong final reasoning": "the final reply is not wrong: 64 and 75 are Paris's and Tokyo's right Fahrenheit",
    "never finished": "it finished: the run ends with the final reply 'Paris: 64°F, Tokyo: 75°F' (finish, "
                      "'answered')",
}


@exercise("05.Q3", kind="reasoning", title="converting 18 twice: what does the classifier say?")
def check_same_twice(answer: Any) -> str:
    truth = classify(recorded(same_twice_manager()))
    if _choice(answer, OUTCOMES) != truth.outcome:
        raise Hint(_SAME_TWICE_HINTS.get(_choice(answer, OUTCOMES), "look again"))
    return f"right: {truth.outcome} ({truth.why}); a wasted call is not a wrong line"


@exercise("05.Q4", kind="reasoning", title="replay the Gemma run without its worked example")
def check_replay_without_example(answer: Any) -> str:
    from mingraph_lite.course.definition import load

    trace = EXPERIMENTS / "finish-right" / "gemma3-270m" / "traces" / "worked-example-10.jsonl"
    worked = next(v for v in load("finish-right").variants if v.name == "worked example")
    agent = Agent(ReplayLLM.from_trace(trace), worked.registry(), worked.system_prompt, max_steps=6)
    try:
        agent.run({"question": QUESTION})
        truth = "same verdict"
    except Exception as error:  # what the replay raises is the fact this question asks about
        truth = "refused" if type(error).__name__ == "ReplayMismatch" else type(error).__name__
    if _choice(answer, ("same verdict", "another verdict", "refused")) != truth:
        raise Hint("a replay hands back the recorded replies only while the run sends what the recording sent; "
                   "without the example, the first request already differs")
    return "right: ReplayLLM refuses at the first request (ReplayMismatch): the folder differs from the recording"
