"""Experiment definitions: TOML files naming the variants of the weather task a class compares.

A ``[[variant]]`` may set the prompt, worked ``examples``, ``temperature``, ``max_steps``, ``last_n``, ``turn_format``
and each tool's ``results`` form, as Paris's: bare, with a unit, or naming its input (``"Paris: 18°C"``, ``"18°C =
64.4°F"``); never the tools or the classification. Each mistake is one ``DefinitionError`` naming file and key.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the tomli backport, installed on 3.10 through a dependency marker
    import tomli as tomllib

from ..messages import AssistantMessage, Message, ToolCall, ToolMessage, UserMessage
from ..tools import ToolRegistry
from .classify import CITIES
from .scripts import QUESTION, SYSTEM_PROMPT
from .weather import lookup, make_get_weather, to_fahrenheit

SHIPPED = resources.files(__package__).joinpath("definitions")
DEFINITION_KEYS = {"name", "question", "variant"}
VARIANT_KEYS = {"name", "system_prompt", "examples", "results", "temperature", "max_steps", "last_n", "turn_format"}
#: Each tool's result forms, shown on Paris's numbers -> (whether the unit travels, whether the input is named).
RESULT_FORMS = {"get_weather": {"18": (False, False), "18°C": (True, False), "Paris: 18°C": (True, True)},
                "to_fahrenheit": {"64.4": (False, False), "64.4°F": (True, False), "64": (False, False),
                                  "64°F": (True, False), "18°C = 64.4°F": (True, True)}}
TURN_FORMATS = ("chatml", "gemma")
MAX_BYTES = 1_000_000


class DefinitionError(ValueError):
    """A definition file that cannot be run: the text names the file and the key."""


@dataclass(frozen=True)
class Variant:
    """One way of asking: everything a definition can set, ``None`` where the command line decides."""

    name: str
    system_prompt: str = SYSTEM_PROMPT
    examples: str = ""                       # a shipped example's name, "inline", or "" for none
    messages: tuple[Message, ...] = ()       # the worked example, placed before the question
    weather_unit: bool = False
    fahrenheit_unit: bool = False
    temperature: float | None = None
    max_steps: int | None = None
    last_n: int | None = None
    turn_format: str | None = None
    named: tuple[str, ...] = ()              # the tools whose results name their input (the city, the °C)

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-") or "variant"

    @property
    def results(self) -> dict[str, str]:
        return {tool: [f for f, how in RESULT_FORMS[tool].items() if how == (unit, tool in self.named)][0]
                for tool, unit in (("get_weather", self.weather_unit), ("to_fahrenheit", self.fahrenheit_unit))}

    def registry(self) -> ToolRegistry:
        return weather_tools(self.weather_unit, self.fahrenheit_unit, self.named)

    def described(self, temperature: float | None, max_steps: int) -> dict[str, Any]:
        """The effective settings, as summary.json and the CSV record them (command-line values filled in)."""
        return {"system_prompt": self.system_prompt, "examples": self.examples,
                "example_messages": [m.to_dict() for m in self.messages], "results": self.results,
                "temperature": self.temperature if self.temperature is not None else temperature,
                "max_steps": self.max_steps or max_steps, "last_n": self.last_n, "turn_format": self.turn_format}


@dataclass(frozen=True)
class Definition:
    name: str
    question: str
    variants: tuple[Variant, ...]
    source: str

    @property
    def digest(self) -> str:
        """Twelve hex digits that change with any setting of any variant: what pooling compares."""
        text = json.dumps([self.question, [{k: x for k, x in asdict(v).items() if x or k != "named"}  # as before
                                           | {"messages": [m.to_dict() for m in v.messages]} for v in self.variants]],
                          sort_keys=True, default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def weather_tools(weather_unit: bool = False, fahrenheit_unit: bool = False, named: tuple = ()) -> ToolRegistry:
    """The task's two tools, each answering in the form asked for (``named``: tools that name their input)."""
    registry, weather = ToolRegistry(), make_get_weather(weather_unit)
    @functools.wraps(weather)
    def get_weather(city: str) -> str:
        return f"{lookup(city)['city']}: {weather(city)}" if "get_weather" in named else weather(city)

    @functools.wraps(to_fahrenheit)
    def converted(celsius: float) -> str:
        answer = f"{to_fahrenheit(celsius)}{'°F' * fahrenheit_unit}"
        return f"{celsius:g}°C = {answer}" if "to_fahrenheit" in named else answer
    registry.add(get_weather)
    registry.add(converted, name="to_fahrenheit")
    return registry


def shipped_names() -> list[str]:
    return sorted(p.name[:-5] for p in SHIPPED.iterdir() if p.name.endswith(".toml") and p.name != "examples.toml")


def load(name_or_path: str | Path) -> Definition:
    """A shipped definition by name (``unit``) or a TOML file by path."""
    path = Path(name_or_path)
    if path.suffix != ".toml" and str(name_or_path) in shipped_names():
        return parse(SHIPPED.joinpath(f"{name_or_path}.toml").read_text(encoding="utf-8"), str(name_or_path))
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)  # a definition is a page of text: never read a huge file whole
    except OSError as e:
        raise DefinitionError(f"{name_or_path}: cannot read the definition ({e.strerror}); give a .toml file "
                              f"or a shipped name: {', '.join(shipped_names())}") from None
    if len(raw) > MAX_BYTES:
        raise DefinitionError(f"{path}: over {MAX_BYTES:,} bytes, too large for a definition file")
    try:
        return parse(raw.decode("utf-8"), str(path))
    except UnicodeDecodeError as e:
        raise DefinitionError(f"{path}: not UTF-8 text (byte {e.start}); save the definition as UTF-8") from None


def parse(text: str, source: str) -> Definition:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DefinitionError(f"{source}: not valid TOML ({e})") from None
    _known(data, DEFINITION_KEYS, source, "")
    name = _get(data, "name", f"{source}: key '", "a non-empty string", _is_text, "")
    question = _get(data, "question", f"{source}: key '", "a non-empty string", _is_text, QUESTION)
    if not all(city.lower() in question.lower() for city in CITIES):
        raise DefinitionError(f"{source}: key 'question' must still ask about {' and '.join(CITIES)}: the "
                              "classification is defined on the weather task, a definition cannot change it")
    tables = data.get("variant")
    if not isinstance(tables, list) or not tables:
        raise DefinitionError(f"{source}: key 'variant' is missing or empty: add at least one [[variant]] table")
    variants = tuple(_variant(t, f"variant[{i}]", source) for i, t in enumerate(tables))
    for i, variant in enumerate(variants):
        if variant.slug in [v.slug for v in variants[:i]]:
            raise DefinitionError(f"{source}: key 'variant[{i}].name' repeats {variant.name!r}: give each its own name")
    return Definition(name, question, variants, source)


def _known(table: Any, allowed: set[str], source: str, where: str) -> None:
    if not isinstance(table, dict):
        raise DefinitionError(f"{source}: key '{where}' must be a table")
    for key in table:
        if key not in allowed:
            raise DefinitionError(f"{source}: unknown key '{where}{key}': use one of {', '.join(sorted(allowed))}")


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _get(table: dict, key: str, at: str, what: str, ok: Callable[[Any], bool], default: Any = None) -> Any:
    """``table[key]`` (``default`` when absent), or the error naming the key and what it must be."""
    value = table.get(key, default)
    if value is not None and not ok(value):
        raise DefinitionError(f"{at}{key}' must be {what}, got {value!r}")
    return value


def _variant(table: Any, where: str, source: str) -> Variant:
    _known(table, VARIANT_KEYS, source, f"{where}.")
    at = f"{source}: key '{where}."
    results = table.get("results", {})
    _known(results, set(RESULT_FORMS), source, f"{where}.results.")
    forms = {tool: RESULT_FORMS[tool][_get(results, tool, f"{at}results.", f"one of {', '.join(RESULT_FORMS[tool])} "
                                           "(Paris's answer: bare, with its unit, or naming its input)",
                                           RESULT_FORMS[tool].__contains__)] for tool in results}
    variant = Variant(_get(table, "name", at, "a non-empty string", _is_text, ""),
                      _get(table, "system_prompt", at, "a non-empty string", _is_text, SYSTEM_PROMPT),
                      weather_unit=forms.get("get_weather", (False,))[0], named=tuple(t for t in forms if forms[t][1]),
                      fahrenheit_unit=forms.get("to_fahrenheit", (False,))[0],
                      temperature=_get(table, "temperature", at, "a number from 0 to 2",
                                       lambda v: type(v) in (int, float) and 0 <= v <= 2),
                      max_steps=_get(table, "max_steps", at, "a whole number from 1 to 100",
                                     lambda v: type(v) is int and 1 <= v <= 100),
                      last_n=_get(table, "last_n", at, "a whole number >= 1", lambda v: type(v) is int and v >= 1),
                      turn_format=_get(table, "turn_format", at, f"one of {', '.join(TURN_FORMATS)}",
                                       TURN_FORMATS.__contains__))
    value = table.get("examples")
    if value is None:
        return variant
    named = {} if isinstance(value, list) else tomllib.loads(SHIPPED.joinpath("examples.toml").read_text("utf-8"))
    if not isinstance(value, list) and value not in named:
        raise DefinitionError(f"{at}examples' names no shipped example ({value!r}): use one of "
                              f"{', '.join(named)}, or write the messages inline")
    raw = value if isinstance(value, list) else named[value]
    messages = example_messages(raw, variant.registry(), f"{at}examples")
    return Variant(**{**asdict(variant), "examples": value if named else "inline", "messages": messages})


def example_messages(raw: list, registry: ToolRegistry, where: str) -> tuple[Message, ...]:
    """A worked example as messages: a user turn, calls each answered in order (a tool turn without
    ``content`` gets the variant's own answer), a final answer; never on the question's cities."""
    messages: list[Message] = []
    waiting: list[ToolCall] = []
    for i, turn in enumerate(raw):
        at = f"{where}[{i}]'"
        if not isinstance(turn, dict) or turn.get("role") not in ("user", "assistant", "tool"):
            raise DefinitionError(f"{at}: each message needs a role: user, assistant or tool")
        if any(city.lower() in json.dumps(turn).lower() for city in CITIES):
            raise DefinitionError(f"{at}: a worked example on {' or '.join(CITIES)} gives the question's answer "
                                  "away; use other cities")
        role = turn["role"]
        if waiting and role != "tool":
            raise DefinitionError(f"{at}: the call to {waiting[0].name} has no tool answer before this {role} turn")
        if role == "tool":
            messages.append(_answer(turn, waiting, registry, at))
        elif role == "user" or not turn.get("calls"):
            content = turn.get("content")
            if not isinstance(content, str) or not content.strip():
                raise DefinitionError(f"{at}: a {role} turn needs its text in 'content'")
            messages.append(UserMessage(content) if role == "user" else AssistantMessage(content))
        else:
            waiting = [_call(c, registry, f"{where}[{i}].calls[{j}]'", f"example_{i}_{j}")
                       for j, c in enumerate(turn["calls"])]
            messages.append(AssistantMessage(str(turn.get("content", "")), tuple(waiting)))
    if not messages or not isinstance(messages[0], UserMessage):
        raise DefinitionError(f"{where}': a worked example starts with a user turn")
    if waiting or not isinstance(messages[-1], AssistantMessage) or messages[-1].tool_calls:
        raise DefinitionError(f"{where}': a worked example ends with the assistant's answer (no open call)")
    return tuple(messages)


def _call(raw: Any, registry: ToolRegistry, at: str, ticket: str) -> ToolCall:
    if not isinstance(raw, dict) or raw.get("name") not in registry.names:
        raise DefinitionError(f"{at}: a call names one of the task's tools ({', '.join(registry.names)}), got {raw!r}")
    return ToolCall(ticket, raw["name"], raw.get("arguments", {}))


def _answer(turn: dict, waiting: list[ToolCall], registry: ToolRegistry, at: str) -> ToolMessage:
    if not waiting:
        raise DefinitionError(f"{at}: a tool answer with no call before it")
    call = waiting.pop(0)
    answer = registry.answer(call)  # a badly filled-in call comes back as an error answer, never raised
    if answer.is_error:
        raise DefinitionError(f"{at}: the call {call.name}({call.arguments}) is refused by the tool: {answer.content}")
    return ToolMessage(str(turn.get("content", answer.content)), call.id, call.name)
