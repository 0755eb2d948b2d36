"""Scripted managers: the source article's runs, without a model; their replies read the tool results."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..llms.base import LLM, LLMResponse
from ..llms.factory import llm_from_spec, parse_spec
from ..llms.scripted import ScriptedLLM
from ..messages import AssistantMessage, Message, ToolMessage

QUESTION = "What's the temperature in Paris and in Tokyo, in Fahrenheit?"
SYSTEM_PROMPT = ("You answer questions about the weather. Use get_weather for temperatures and "
                 "to_fahrenheit for conversions; never do the arithmetic yourself.")


def results(messages: Sequence[Message], tool: str) -> list[str]:
    """The contents of ``tool``'s successful ToolMessages in ``messages``, in order."""
    return [m.content for m in messages if isinstance(m, ToolMessage) and m.name == tool and not m.is_error]


def number(text: str) -> float | int:
    """A tool result's number, after its last "=" ("18", "Paris: 18°C", "18°C = 64.4°F" -> 18, 18, 64.4)."""
    match = re.search(r"-?\d+(?:\.\d+)?", text.rpartition("=")[2])
    if match is None:
        raise ValueError(f"no number in {text!r}")
    value = float(match.group())
    return int(value) if value.is_integer() else value


def _ask_both_temperatures(messages, tools):
    return [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]


def _convert(index: int):
    def reply(messages, tools):
        return [("to_fahrenheit", {"celsius": number(results(messages, "get_weather")[index])})]
    return reply


def _convert_both(messages, tools):
    paris, tokyo = (number(r) for r in results(messages, "get_weather")[:2])
    return [("to_fahrenheit", {"celsius": paris}), ("to_fahrenheit", {"celsius": tokyo})]


def _final(messages, tools):
    paris, tokyo = (number(r) for r in results(messages, "to_fahrenheit")[:2])
    return f"Paris: {paris}°F, Tokyo: {tokyo}°F"


def four_round_manager() -> ScriptedLLM:
    """Four model calls: both lookups, then one conversion per round (as reported for gpt-5-mini)."""
    return ScriptedLLM([_ask_both_temperatures, _convert(0), _convert(1), _final], name="scripted: four rounds")


def three_round_manager() -> ScriptedLLM:
    """Three model calls: both lookups, both conversions in one reply (as reported for qwen3.5:2b)."""
    return ScriptedLLM([_ask_both_temperatures, _convert_both, _final], name="scripted: three rounds")


WRONG_TOKYO_THINKING = ("Paris returned 18 and Tokyo returned 24. Tokyo is already in Fahrenheit, "
                        "so I don't need to convert it.")


def wrong_tokyo_manager() -> ScriptedLLM:
    """Converts Paris, then answers Tokyo's Celsius number as Fahrenheit (the source article's qwen3.5 mistake)."""

    def wrong_final(messages, tools):
        paris = number(results(messages, "to_fahrenheit")[0])
        tokyo = number(results(messages, "get_weather")[1])
        return LLMResponse(AssistantMessage(f"Paris: {paris}°F, Tokyo: {tokyo}°F"),
                           reasoning=WRONG_TOKYO_THINKING, model="scripted: wrong Tokyo")

    return ScriptedLLM([_ask_both_temperatures, _convert(0), wrong_final], name="scripted: wrong Tokyo")


def looping_manager(rounds: int = 100) -> ScriptedLLM:
    """A scripted model that never stops asking for the same tool calls: the reason ``max_steps`` exists."""
    return ScriptedLLM([_ask_both_temperatures] * rounds, name="scripted: never stops")


def make_llm(spec: str | None = None, *, temperature: float | None = None, seed: int | None = None) -> LLM:
    """The model ``spec`` names, or ``$MINGRAPH_LLM``'s; ``scripted`` (the default) is ``four_round_manager``.
    ``temperature`` and ``seed`` reach a real model only; building one contacts nothing."""
    return llm_from_spec(parse_spec(spec), scripted=four_round_manager, temperature=temperature, seed=seed)
