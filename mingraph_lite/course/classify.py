"""The first-wrong-line classifier: read one run's trace top to bottom and stop at the first wrong line.

Four cases, in the order a run can go wrong: (1) a wrong slip (a call the question did not ask for, or
a number no tool returned), (2) a wrong tool result, (3) wrong final reasoning (every slip and result
right, the reply still wrong), (4) never finished. A pure function of the events: re-run it any time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .scripts import number
from .weather import WEATHER, to_fahrenheit

OUTCOMES = ("right", "wrong slip", "wrong tool result", "wrong final reasoning", "never finished")
CASES = {"wrong slip": 1, "wrong tool result": 2, "wrong final reasoning": 3, "never finished": 4}
CITIES = ("Paris", "Tokyo")  # the two the question asks about


@dataclass(frozen=True)
class Verdict:
    """Where a run first went wrong: ``line`` is the 1-based position of that event in the run."""

    outcome: str
    line: int | None
    why: str
    celsius_as_fahrenheit: bool = False   # the reply gave a city's Celsius number as its Fahrenheit
    converted_with_tool: bool = False     # to_fahrenheit was called (the prompt asks for it)

    @property
    def case(self) -> int | None:
        return CASES.get(self.outcome)


_TEMP = re.compile(r"(-?\d+(?:\.\d+)?)\s*(°\s*[CF]\b|degrees?\s+(?:celsius|fahrenheit)|[CF]\b)?", re.I)


def stated_fahrenheit(text: str, cities: Sequence[str] = CITIES) -> dict[str, float | None]:
    """The Fahrenheit number a reply gives after each city's name: °F first, else a bare number, never °C."""
    mentions = sorted((m.start(), city) for city in cities for m in re.finditer(re.escape(city), text, re.I))
    marked: dict[str, list[float]] = {c: [] for c in cities}
    bare: dict[str, list[float]] = {c: [] for c in cities}
    for match in _TEMP.finditer(text):
        owners = [city for pos, city in mentions if pos < match.start()]
        if not owners:
            continue
        unit = (match.group(2) or "").lower()
        if "f" in unit:
            marked[owners[-1]].append(float(match.group(1)))
        elif not unit:
            bare[owners[-1]].append(float(match.group(1)))
    return {c: (marked[c] or bare[c] or [None])[0] for c in cities}


def _args(raw: Any) -> dict[str, Any]:
    if isinstance(raw, Mapping):
        return dict(raw)
    try:
        parsed = json.loads(raw)
    except (TypeError, ValueError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass
class _Reading:
    """What the reader has seen so far in one run."""

    cities: Sequence[str]
    calls: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    looked_up: set[str] = field(default_factory=set)
    received: list[float] = field(default_factory=list)  # the Celsius numbers get_weather returned
    converted: list[float] = field(default_factory=list)  # the Fahrenheit numbers to_fahrenheit returned
    used_tool: bool = False
    final_ok: bool = False

    def verdict(self, outcome: str, line: int | None, why: str, as_f: bool = False) -> Verdict:
        return Verdict(outcome, line, why, celsius_as_fahrenheit=as_f, converted_with_tool=self.used_tool)


def _known(city: Any) -> str | None:
    return {c.lower(): c for c in WEATHER}.get(str(city or "").strip().lower())


def _tool_call(state: _Reading, event: Mapping[str, Any], line: int) -> Verdict | None:
    name, args = event.get("name"), _args(event.get("arguments"))
    state.calls[str(event.get("id"))] = (name, args)
    if name == "get_weather":
        if _known(args.get("city")) not in state.cities:
            return state.verdict("wrong slip", line, f"get_weather({args.get('city')!r}): not a city "
                                 "the question asks about")
    elif name == "to_fahrenheit":
        state.used_tool = True
        value = args.get("celsius")
        if not _is_number(value) or not any(abs(value - r) < 0.01 for r in state.received):
            reused = _is_number(value) and any(abs(value - r) < 0.01 for r in state.converted)
            return state.verdict("wrong slip", line, f"to_fahrenheit({value!r}): no get_weather returned "
                                 "that number, " + ("it came back from to_fahrenheit, so it is Fahrenheit "
                                                    "already" if reused else "so the model made it up"))
    else:
        return state.verdict("wrong slip", line, f"{name!r} is not on the menu")
    return None


def _tool_return(state: _Reading, event: Mapping[str, Any], line: int) -> Verdict | None:
    name, args = state.calls.get(str(event.get("tool_call_id")), (event.get("name"), {}))
    content = str(event.get("content", ""))
    try:
        got: float | None = float(number(content))
    except ValueError:
        got = None
    if name == "get_weather":
        city = _known(args.get("city"))
        if city is None:
            return None  # an answer slip whose slip isn't in this trace: nothing to check it against
        expected = float(WEATHER[city]["celsius"])  # type: ignore[arg-type]
    else:
        city, expected = None, float(to_fahrenheit(args.get("celsius", 0)))
    if event.get("is_error") or got is None or abs(got - expected) > 0.5:
        return state.verdict("wrong tool result", line, f"{name}({args}) answered {content!r}, "
                             f"expected {expected:g}")
    if city is not None:
        state.looked_up.add(city)
        state.received.append(got)
    else:
        state.converted.append(got)
    return None


def _final_reply(state: _Reading, event: Mapping[str, Any], line: int) -> Verdict | None:
    missing = [c for c in state.cities if c not in state.looked_up]
    if missing:
        return state.verdict("wrong slip", line, f"answered without get_weather for {', '.join(missing)}: "
                             "those numbers did not come from a tool")
    celsius = {c: float(WEATHER[c]["celsius"]) for c in state.cities}  # type: ignore[arg-type]
    stated = stated_fahrenheit(str((event.get("message") or {}).get("content", "")), state.cities)
    wrong = {c: v for c, v in stated.items() if v is None or abs(v - to_fahrenheit(celsius[c])) > 1}
    if wrong:
        as_f = any(v is not None and abs(v - celsius[c]) < 0.5 for c, v in wrong.items())
        said = ", ".join(f"{c} {'nothing' if v is None else f'{v:g}°F'}" for c, v in wrong.items())
        return state.verdict("wrong final reasoning", line, f"every answer slip right, but the reply says {said}",
                             as_f)
    state.final_ok = True
    return None


def _finish(state: _Reading, event: Mapping[str, Any], line: int) -> Verdict:
    if event.get("reason") == "answered" and state.final_ok:
        how = "with to_fahrenheit" if state.used_tool else "doing the arithmetic itself"
        return state.verdict("right", None, f"right numbers, converted {how}")
    return state.verdict("never finished", line, f"the run ended with {event.get('reason')!r}")


def classify(events: Iterable[Mapping[str, Any]], cities: Sequence[str] = CITIES) -> Verdict:
    """Read one run's events top to bottom and stop at the first wrong line (right: each city's °F within 1°)."""
    state = _Reading(tuple(cities))
    for line, event in enumerate(events, 1):
        kind = event.get("event")
        found: Verdict | None = None
        if kind == "tool_call":
            found = _tool_call(state, event, line)
        elif kind == "tool_return":
            found = _tool_return(state, event, line)
        elif kind == "tool_error":
            call = event.get("call") or {}
            found = state.verdict("wrong tool result", line, f"{call.get('name')} failed: "
                                  f"{event.get('error_type')}: {event.get('error')}")
        elif kind == "model_reply" and not (event.get("message") or {}).get("tool_calls"):
            found = _final_reply(state, event, line)
        elif kind == "finish":
            found = _finish(state, event, line)
        if found is not None:
            return found
    return state.verdict("never finished", None, "the trace stops before the run finished")
