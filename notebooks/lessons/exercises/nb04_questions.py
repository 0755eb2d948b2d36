"""Notebook 04's questions checked against a run: the order of announcements when a tool fails, a broken
listener's warnings, and what strict=True stops."""

from __future__ import annotations

from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.observers.base import Observer
from mingraph_lite.tools import ToolRegistry
from mingraph_lite.course.scripts import SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import WEATHER, to_fahrenheit, weather_registry
from ..platform import listener_warnings
from . import Hint, exercise
from .nb04 import _second_fails, _truth


def _second_of_three_fails() -> list[str]:
    names = [event["event"] for event in _truth(_second_fails())]
    return names[names.index("tool_call"):]


@exercise("04.Q1", kind="reasoning", title="the announcements when the second of three tools fails")
def check_failure_order(answer: Any) -> str:
    truth = _second_of_three_fails()
    if not isinstance(answer, list) or not all(isinstance(name, str) for name in answer):
        raise Hint('answer with a list of event names, like ["tool_call", "tool_return", ...]')
    if answer != truth:
        if answer.count("tool_return") < truth.count("tool_return"):
            raise Hint("every slip of the reply gets its answer slip, announced with on_tool_return: the failing "
                       "one (after on_tool_error) gets on_tool_return too, and so does the third slip, which "
                       "is never started")
        raise Hint("walk the slips in order: which are started (tool_call), which fail (tool_error), and which "
                   "get an answer slip (tool_return); the run's finish comes last")
    return "right: " + ", ".join(truth)


class _RaisesOnReply(Observer):
    def on_model_reply(self, response: Any) -> None:
        raise RuntimeError("this listener is broken")


class _RaisesOnReturn(Observer):
    def on_tool_return(self, result: Any) -> None:
        raise RuntimeError("this listener is broken")


@exercise("04.Q2", kind="reasoning", title="how many warnings from a listener broken in on_model_reply?")
def check_warnings(answer: Any) -> str:
    with listener_warnings() as warned:
        Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[_RaisesOnReply()]).run(
            {"question": "What's the temperature in Paris and in Tokyo, in Fahrenheit?"})
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of warnings")
    if answer < len(warned):
        raise Hint("the agent catches the listener's exception at every announcement it fails on, not only the "
                   "first: how many times is on_model_reply announced in a four-round run?")
    if answer != len(warned):
        raise Hint("only on_model_reply raises, and it is announced once per model call, not at every announcement "
                   "of the run: how many model calls does a four-round run make?")
    return f"right: {len(warned)} warnings, one per model reply; the run answered as if nobody were listening"


@exercise("04.Q3", kind="reasoning", title="strict, and a listener broken in on_tool_return")
def check_strict_stop(answer: Any) -> str:
    ran: list[str] = []

    def get_weather(city: str) -> str:
        """Get the current temperature for a city, in degrees Celsius (counted in this check).

        Args:
            city: The city name.
        """
        ran.append(city)
        return str(WEATHER[city]["celsius"])

    counted = ToolRegistry()
    counted.add(get_weather)
    counted.add(to_fahrenheit)
    with listener_warnings():
        try:
            Agent(four_round_manager(), counted, SYSTEM_PROMPT, observers=[_RaisesOnReturn()], strict=True).run(
                {"question": "What's the temperature in Paris and in Tokyo, in Fahrenheit?"})
        except RuntimeError:
            pass
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of tools run")
    if answer != len(ran):
        raise Hint("with strict=True a listener's exception is not caught: it stops the run at the first "
                   "announcement it fails on. Which announcement comes right after the first tool has run?")
    return f"right: {len(ran)} tool ran, then the listener's error stopped the run before the next one"
