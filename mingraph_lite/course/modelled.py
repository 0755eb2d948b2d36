"""Scripted managers modelling reported runs (not a real model), one behaviour mix per kind of variant.

The article asked qwen3.5:0.8b the Paris/Tokyo question 8 times per ``get_weather`` result style
(``REPORTED``); a probe in issue 20 gave SmolLM2-135M one worked example (4 runs). Offline, a seeded
``random.Random`` picks each run's behaviour with those frequencies: that shows how the harness works
and how much a few runs wobble; it measures nothing. A variant no report covers is refused.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..llms.base import LLMResponse
from ..llms.scripted import ScriptedLLM, scripted_calls
from ..messages import AssistantMessage
from .classify import CITIES
from .scripts import SYSTEM_PROMPT, number, results
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
#: The probe, runs out of 4: get_weather first in 3, then Tokyo skipped or a result converted twice (the
#: split of those 3 is not reported: modelled evenly); the fourth made its numbers up.
PROBED = {"skipped Tokyo": 1.5, "converted a converted number": 1.5, "made up numbers": 1}
#: What each mix is modelled on, for every run's label.
MODELLED_ON = {"18": 'the article\'s "18" runs', "18°C": 'the article\'s "18°C" runs',
               "worked example": "a probe of SmolLM2-135M with one worked example (4 runs)"}
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


def _paris_only(messages, tools):
    return _reply(calls=[("get_weather", {"city": "Paris"})], step=1)


def _guess_tokyo(messages, tools):
    return _reply(f"Paris: {to_fahrenheit(_celsius(messages)[-1])}°F, Tokyo: 75°F")


def _convert_again(messages, tools):
    return _reply(calls=[("to_fahrenheit", {"celsius": number(results(messages, "to_fahrenheit")[0])})], step=3)


_SCRIPTS = {
    "celsius as fahrenheit": [_lookups, _as_fahrenheit],
    "right, with to_fahrenheit": [_lookups, _convert_both, _final_from_tool],
    "right, own arithmetic": [_lookups, _own_arithmetic],
    "made up numbers": [_made_up, _final_from_tool],
    "kept asking (not described)": [_lookups] * 100,
    "skipped Tokyo": [_paris_only, _guess_tokyo],
    "converted a converted number": [_lookups, _convert_both, _convert_again, _final_from_tool],
}


def modelled_as(variant) -> str:
    """Which behaviour mix models ``variant`` (a ``Variant``, or a key of ``MODELLED``)."""
    if isinstance(variant, str):
        return variant
    return "worked example" if variant.messages else "18°C" if variant.weather_unit else "18"


def cannot_model(variant) -> str | None:
    """Why the scripted managers cannot stand in for ``variant`` (no report covers it), or None."""
    changed = ["system_prompt"] * (variant.system_prompt != SYSTEM_PROMPT) + ["named results"] * bool(variant.named) + [
        key for key in ("temperature", "last_n", "turn_format") if getattr(variant, key) is not None]
    if not changed:
        return None
    return (f"the scripted model cannot model variant {variant.name!r}: no reported run sets its "
            f"{', '.join(changed)}; run it on a real model (--llm local, ollama:MODEL or openai:MODEL)")


def modelled_manager(variant: str, rng: random.Random) -> tuple[str, ScriptedLLM]:
    """Pick one run's behaviour with the reported frequencies; return it and its scripted manager."""
    weights = {**MODELLED, "worked example": PROBED}[modelled_as(variant)]
    behaviour = rng.choices(list(weights), weights=list(weights.values()))[0]
    return behaviour, ScriptedLLM(_SCRIPTS[behaviour], name=f"scripted (modelled): {behaviour}")
