"""Checker for notebook 01's exercise 01.3: a scripted manager of a given shape, run on the course question."""

from __future__ import annotations

import re
from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import number
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import StepLimitReached
from . import Hint, exercise


# --- 01.3: a manager of a given shape ---------------------------------------------------------------


def _slips(folder: list[Any]) -> list[list[tuple[str, dict[str, Any]]]]:
    """The slips of every model reply in a finished folder, in order (the answer has none)."""
    return [[(c.name, c.arguments) for c in m.tool_calls] for m in folder if m.role == "assistant"]


NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
SCRIPT_FORM = ('each reply in the script is a list of ("tool name", {arguments}) pairs, like '
               '[("get_weather", {"city": "Paris"})], or the answer as a string')


def _run_manager(make: Any) -> tuple[Any, Any, list[Any]]:
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
    from mingraph_lite.errors import ScriptExhausted

    llm = make()
    if not hasattr(llm, "generate"):
        raise Hint("one_city_at_a_time() returns a model: ScriptedLLM([...], name=...)")
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=8)
    try:
        answer = agent.run({"question": QUESTION})["answer"]
    except (ScriptExhausted, StepLimitReached):
        raise Hint("your manager ran out of replies or never answered: its last reply is the answer, a string") from None
    except (TypeError, ValueError):  # the script itself is misspelled
        raise Hint(SCRIPT_FORM) from None
    folder = agent.memory.messages()
    if any(not isinstance(c.arguments, dict) for m in folder for c in getattr(m, "tool_calls", ())):
        raise Hint(SCRIPT_FORM)
    return llm, answer, folder


@exercise("01.3", kind="code", title="a manager of a given shape")
def check_manager(make: Any) -> str:
    if not callable(make):
        raise Hint("hand in the function one_city_at_a_time itself")
    if make() is make():  # a manager that ran once has used up its replies
        raise Hint("one_city_at_a_time() must build a new ScriptedLLM on every call (build it inside the "
                   "function): the check runs your manager more than once")
    llm, text, folder = _run_manager(make)
    slips = _slips(folder)
    lookups = [[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})]]
    if slips[:2] != lookups:
        raise Hint("one city per reply: the first reply asks only for Paris's weather, the next only for Tokyo's")
    conversions = slips[2] if len(slips) > 2 else []
    if len(conversions) != 2 or len(slips) != 4 or slips[3]:
        raise Hint("the third reply asks for both conversions at once (two slips in one reply), and the fourth "
                   "is the answer")
    temperatures = [number(m.content) for m in folder if m.role == "tool" and m.name == "get_weather"]
    if any(not isinstance(a.get("celsius"), int | float) or isinstance(a.get("celsius"), bool)
           for _, a in conversions):
        raise Hint("get_weather returns text ('18'), and to_fahrenheit's celsius is a number: turn the "
                   "temperature into a number (18, not \"18\") when you write the conversion slip")
    if sorted(a.get("celsius") for _, a in conversions) != sorted(temperatures):
        raise Hint("convert the temperatures get_weather returned (they are in the output above), not others")
    fahrenheit = {number(m.content) for m in folder if m.role == "tool" and m.name == "to_fahrenheit"}
    named = {float(n) for n in NUMBER.findall(str(text))}
    if not fahrenheit <= named and set(temperatures) <= named:
        raise Hint("your answer gives the Celsius temperatures; the question asks for Fahrenheit, as "
                   "to_fahrenheit returned them")
    if not fahrenheit <= named:
        raise Hint("the answer names both Fahrenheit temperatures exactly as to_fahrenheit returned them "
                   "(whole degrees), not as your own arithmetic gives them")
    if any(city.lower() not in str(text).lower() for city in ("Paris", "Tokyo")):
        raise Hint("name each city in the answer, beside its own Fahrenheit temperature")
    if not _paired(str(text), _fahrenheit_of(folder)):
        raise Hint("your answer gives a city the other city's Fahrenheit: pair each city with the conversion of its "
                   "own Celsius (the conversions' answer slips come back in the order you asked for them)")
    return f"right: {len(llm.calls)} model calls, for the same 4 errands the three-round manager ran in 3"


def _fahrenheit_of(folder: list[Any]) -> dict[str, float]:
    """Each city looked up, with the Fahrenheit that to_fahrenheit gave for that city's Celsius."""
    tool_calls = {c.id: c for m in folder if m.role == "assistant" for c in m.tool_calls}
    celsius, fahrenheit = {}, {}
    for m in folder:
        if m.role == "tool" and m.tool_call_id in tool_calls:
            arguments = tool_calls[m.tool_call_id].arguments
            if m.name == "get_weather":
                celsius[arguments["city"]] = number(m.content)
            elif m.name == "to_fahrenheit":
                fahrenheit[float(arguments["celsius"])] = number(m.content)
    return {city: fahrenheit[float(c)] for city, c in celsius.items() if float(c) in fahrenheit}


def _paired(text: str, want: dict[str, float]) -> bool:
    """Whether each city's own number sits next to its name: right after it ("Paris: 64") or right before ("64 in
    Paris"). Every city is named in ``text``."""
    spots = sorted((text.lower().find(city.lower()), city) for city in want)

    def has(part: str, value: float) -> bool:
        return value in {float(n) for n in NUMBER.findall(part)}

    ends = [at for at, _ in spots[1:]] + [len(text)]
    starts = [0] + [at + len(city) for at, city in spots[:-1]]
    after = all(has(text[at:end], want[city]) for (at, city), end in zip(spots, ends, strict=True))
    before = all(has(text[start:at], want[city]) for (at, city), start in zip(spots, starts, strict=True))
    return after or before
