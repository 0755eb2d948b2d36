"""Scripted managers modelling the unit experiment the source article reported (not a real model).

The article asked qwen3.5:0.8b the Paris/Tokyo question 8 times per ``get_weather`` result style
(``REPORTED``). Offline, a seeded ``random.Random`` picks each run's behaviour with the reported
frequencies: that shows how the harness works and how much 8 runs wobble; it measures nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..llms.base import LLMResponse
from ..llms.scripted import ScriptedLLM, scripted_calls
from ..messages import AssistantMessage
from .classify import CITIES
from .scripts import number, results
from .weather import to_fahrenheit


@dataclass(frozen=True)
class Reported:
    """One row of the source article's table (qwen3.5:0.8b, same agent and question)."""

    variant: str
    runs: int
    right_numbers: int
    celsius_as_fahrenheit: int


REPORTED = (Reported("18", 8, 0, 6), Reported("18°C", 8, 6, 0))
REPORTED_SOURCE = ('reported in the article "The State and Observer Patterns in a Python Agent Loop": '
                   "qwen3.5:0.8b, 8 runs per variant")
REPORTED_NOTES = ('Of the 6 right "18°C" runs, only 2 called to_fahrenheit; 4 did the arithmetic themselves. '
                  "One run skipped get_weather, made up 10°C and 5°C and answered 50°F and 41°F.")

#: Behaviour -> runs out of 8, per variant; runs the article does not describe keep asking.
MODELLED = {
    "18": {"celsius as fahrenheit": 6, "kept asking (not described)": 2},
    "18°C": {"right, with to_fahrenheit": 2, "right, own arithmetic": 4, "made up numbers": 1,
             "kept asking (not described)": 1},
}
MODELLED_LABEL = "scripted managers modelling the reported behaviour, not a real model"


def _reply(content: str = "", calls: Sequence[tuple[str, dict]] = (), reasoning: str | None = None,
           step: int = 0) -> LLMResponse:
    return LLMResponse(AssistantMessage(content, scripted_calls(calls, step)), reasoning=reasoning,
                       model="scripted (modelled)")


def _lookups(messages, tools):
    return _reply(calls=[("get_weather", {"city": c}) for c in CITIES], step=1)


def _celsius(messages) -> list[float | int]:
    return [number(r) for r in results(messages, "get_weather")[-2:]]


def _as_fahrenheit(messages, tools):
    paris, tokyo = _celsius(messages)
    return _reply(f"Paris: {paris}°F, Tokyo: {tokyo}°F", reasoning=(
        f"Paris returned {paris} and Tokyo returned {tokyo}; going by the tool's result these are "
        "already Fahrenheit, so no conversion is needed."))


def _convert_both(messages, tools):
    return _reply(calls=[("to_fahrenheit", {"celsius": c}) for c in _celsius(messages)], step=2)


def _final_from_tool(messages, tools):
    paris, tokyo = (number(r) for r in results(messages, "to_fahrenheit")[-2:])
    return _reply(f"Paris: {paris}°F, Tokyo: {tokyo}°F")


def _own_arithmetic(messages, tools):
    paris, tokyo = (to_fahrenheit(c) for c in _celsius(messages))
    return _reply(f"Paris: {paris}°F, Tokyo: {tokyo}°F", reasoning="Easy enough to convert these myself.")


def _made_up(messages, tools):
    return _reply(calls=[("to_fahrenheit", {"celsius": 10}), ("to_fahrenheit", {"celsius": 5})], step=1)


_SCRIPTS = {
    "celsius as fahrenheit": [_lookups, _as_fahrenheit],
    "right, with to_fahrenheit": [_lookups, _convert_both, _final_from_tool],
    "right, own arithmetic": [_lookups, _own_arithmetic],
    "made up numbers": [_made_up, _final_from_tool],
    "kept asking (not described)": [_lookups] * 100,
}


def modelled_manager(variant: str, rng: random.Random) -> tuple[str, ScriptedLLM]:
    """Pick one run's behaviour with the reported frequencies; return it and its scripted manager."""
    weights = MODELLED[getattr(variant, "name", variant)]
    behaviour = rng.choices(list(weights), weights=list(weights.values()))[0]
    return behaviour, ScriptedLLM(_SCRIPTS[behaviour], name=f"scripted (modelled): {behaviour}")
