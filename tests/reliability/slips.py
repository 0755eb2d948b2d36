"""The hostile model and the careless classroom: hand-written tool calls, fault schedules, and the invariants.

Imported by the reliability tests beside it. ``HOSTILE_SLIPS`` are (label, name, arguments) triples,
each a different way a model has sent, or could send, a tool call; the tests run every one through the
registry, the ``Agent``, the agent graph and both adapters' parsers.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from mingraph_lite.llms.openai import to_openai_messages
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from mingraph_lite.tools import ToolRegistry


def _deep_dict(levels: int) -> dict:
    root: dict = {}
    node = root
    for _ in range(levels):
        node["a"] = {}
        node = node["a"]
    return root


def _deep_list(levels: int) -> list:
    root: list = []
    node = root
    for _ in range(levels):
        node.append([])
        node = node[0]
    return root


W, F = "get_weather", "to_fahrenheit"
NAMES = [  # a good argument object, with a bad name
    ("empty name", "", {"city": "Paris"}), ("blank name", " ", {"city": "Paris"}),
    ("trailing space", "get_weather ", {"city": "Paris"}), ("upper case", "GET_WEATHER", {"city": "Paris"}),
    ("python call", "__import__('os').system('id')", {}), ("eval", "eval", {"source": "1+1"}),
    ("exec", "exec", {"code": "print(1)"}), ("dotted", "os.system", {"command": "id"}),
    ("shell", "get_weather; rm -rf /", {"city": "Paris"}), ("path", "../get_weather", {"city": "Paris"}),
    ("nul", "get_weather\x00", {"city": "Paris"}), ("lone surrogate", "\ud800", {}),
    ("10k name", "a" * 10_000, {}), ("call syntax", "get_weather()", {"city": "Paris"}),
    ("dunder", "__class__", {}), ("registry method", "validate", {"call": "x"}),
    ("attribute", "getattr", {"o": "registry", "name": "run"}), ("none name", None, {"city": "Paris"}),
    ("number name", 5, {"city": "Paris"}), ("list name", ["get_weather"], {"city": "Paris"}),
    ("dict name", {"name": "get_weather"}, {"city": "Paris"}), ("functions prefix", "functions.get_weather", {}),
    ("unicode lookalike", "get_weathеr", {"city": "Paris"}), ("newline", "get_weather\nto_fahrenheit", {}),
]
NOT_OBJECTS = [
    ("none", W, None), ("empty list", W, []), ("list", W, ["Paris"]), ("text list", W, "[]"),
    ("text null", W, "null"), ("text number", W, "5"), ("text true", W, "true"), ("text string", W, '"Paris"'),
    ("int", W, 5), ("float", W, 1.5), ("bool", W, True), ("tuple", W, ("Paris",)), ("set", W, {"Paris"}),
    ("bytes not utf-8", W, b"\xff\xfe"), ("bytearray not utf-8", W, bytearray(b"\x80")),
    ("bytes list", W, b"[1]"), ("object", W, object()), ("exception", W, ValueError("x")),
]
BAD_JSON = [
    ("open brace", W, "{"), ("cut", W, '{"city":'), ("single quotes", W, "{'city': 'Paris'}"),
    ("bare words", W, "{city: Paris}"), ("trailing comma", W, '{"city": "Paris",}'),
    ("trailing text", W, '{"city": "Paris"} and more'), ("two objects", W, '{"city": "Paris"}{"city": "Tokyo"}'),
    ("python dict text", W, "{'city': 'Paris', 'x': None}"), ("markdown fence", W, '```json\n{"city": "Paris"}\n```'),
    ("comment", W, '{"city": "Paris" /* here */}'), ("nul byte", W, '{"city": "Paris"}\x00'),
    ("unterminated string", W, '{"city": "Paris}'), ("bad escape", W, '{"city": "\\x41"}'),
    ("lone surrogate text", W, '{"city": "\\ud800"}'), ("control char", W, '{"city": "Pa\nris"}'),
    ("just spaces inside", W, "{   "), ("10 MB text", W, "x" * 10_000_000),
    ("10 MB valid json", W, json.dumps({"city": "P" * 10_000_000})),
]
DEEP_AND_HUGE = [
    ("5000 nested lists text", W, "[" * 5000 + "]" * 5000),
    ("5000 nested objects text", W, '{"a":' * 5000 + "1" + "}" * 5000),
    ("nested value text", W, '{"city": ' + "[" * 5000 + "]" * 5000 + "}"),
    ("unclosed nesting", W, '{"city": ' + "[" * 100_000),
    ("deep dict", W, _deep_dict(5_000)), ("deep list value", W, {"city": _deep_list(5_000)}),
    ("20 levels", W, {"city": _deep_list(20)}), ("5000-digit int text", W, '{"city": 1' + "0" * 5000 + "}"),
    ("5000-digit int", W, {"city": 10**5000}), ("400-digit celsius text", F, '{"celsius": 1' + "0" * 400 + "}"),
    ("huge int celsius", F, {"celsius": 10**400}), ("negative huge int", F, '{"celsius": -' + "9" * 4400 + "}"),
    ("1e999", F, '{"celsius": 1e999}'), ("many keys", W, {f"k{i}": i for i in range(5000)}),
    ("long list", W, {"city": list(range(5000))}), ("1 MB string value", W, {"city": "P" * 1_000_000}),
    ("long key", W, {"c" * 100_000: "Paris"}), ("surrogate key", W, {"\udfff": "Paris"}),
]
DUPLICATES = [
    ("repeated key", W, '{"city": "Paris", "city": "Tokyo"}'),
    ("repeated same value", W, '{"city": "Paris", "city": "Paris"}'),
    ("repeated nested", W, '{"city": {"a": 1, "a": 2}}'), ("repeated celsius", F, '{"celsius": 18, "celsius": 24}'),
    ("repeated in list", W, '{"city": [{"x": 1, "x": 1}]}'), ("repeated empty key", W, '{"": 1, "": 2}'),
]
WRONG_VALUES = [
    ("city number", W, {"city": 5}), ("city null", W, {"city": None}), ("city list", W, {"city": ["Paris"]}),
    ("city object", W, {"city": {"name": "Paris"}}), ("extra argument", W, {"city": "Paris", "country": "FR"}),
    ("missing argument", W, {}), ("empty text", W, ""), ("wrong case key", W, {"City": "Paris"}),
    ("city bool", W, {"city": True}), ("city nan", W, {"city": float("nan")}), ("celsius text", F, {"celsius": "18"}),
    ("celsius bool", F, {"celsius": True}), ("celsius inf", F, {"celsius": float("inf")}),
    ("celsius -inf text", F, '{"celsius": -Infinity}'), ("celsius NaN text", F, '{"celsius": NaN}'),
    ("celsius 1e309", F, {"celsius": 1e309}), ("celsius list", F, {"celsius": [18]}), ("int key", W, {1: "Paris"}),
    ("none key", W, {None: "Paris"}), ("tuple key", W, {("city",): "Paris"}), ("city object()", W, {"city": object()}),
    ("lambda value", W, {"city": lambda: "Paris"}), ("mark value", W, {"city": "\ue000nested deeper than 16 levels"}),
    ("mark text", W, '{"city": "\ue000repeated key"}'), ("weather args to fahrenheit", F, {"city": "Paris"}),
    ("positional style", W, '["Paris"]'),
]
VALID = [  # careless but fine: these run, and nothing about them is an error
    ("plain", W, {"city": "Paris"}), ("as text", W, '{"city": "Tokyo"}'), ("as bytes", W, b'{"city": "Paris"}'),
    ("spaces around", W, '  {"city": "Paris"}  '), ("unicode city", W, {"city": "Zürich"}),
    ("nul in value", W, {"city": "Par\x00is"}), ("celsius int", F, {"celsius": 18}),
    ("celsius float text", F, '{"celsius": 18.5}'), ("celsius 100 digits", F, {"celsius": 10**99}),
    ("unicode escape", W, '{"city": "\\u00c9vry"}'), ("digits in a string", W, {"city": "1" * 5000}),
]
HOSTILE_SLIPS = NAMES + NOT_OBJECTS + BAD_JSON + DEEP_AND_HUGE + DUPLICATES + WRONG_VALUES
ALL_SLIPS = HOSTILE_SLIPS + VALID
VALID_LABELS = {label for label, _, _ in VALID}
# The tool calls a provider can carry as JSON text (OpenAI sends arguments as a string; Ollama as JSON).
TEXT_SLIPS = [(label, name, args) for label, name, args in ALL_SLIPS
              if isinstance(name, str) and isinstance(args, str)]

SYSTEM = "You answer questions about the weather."
QUESTION = "What's the temperature in Paris?"


def counting_registry(fault: Any = None) -> tuple[ToolRegistry, list]:
    """The course's two tools, counting each run; ``fault(name)`` may raise instead of answering."""
    ran: list = []
    registry = ToolRegistry()

    @registry.add
    def get_weather(city: str) -> str:
        """The temperature in a city, in degrees Celsius.

        Args:
            city: The city's name.
        """
        assert isinstance(city, str)  # no tool ever runs on an invalid tool call
        ran.append(("get_weather", city))
        if fault:
            fault("get_weather")
        return "18"

    @registry.add
    def to_fahrenheit(celsius: float) -> float:
        """Convert Celsius to Fahrenheit.

        Args:
            celsius: Degrees Celsius.
        """
        assert isinstance(celsius, (int, float)) and not isinstance(celsius, bool)
        ran.append(("to_fahrenheit", celsius))
        if fault:
            fault("to_fahrenheit")
        return celsius * 9 / 5 + 32

    return registry, ran


def _not_json(constant: str):
    raise AssertionError(f"{constant} is not JSON: a strict server refuses it")


def assert_conversation_valid(messages: list) -> None:
    """The conversation as a provider takes it: every call answered exactly once, right after its message."""
    wire = to_openai_messages(messages)
    json.dumps(wire)  # it can be sent at all
    for entry in to_openai_messages(messages, objects_only=True):  # and a server that parses arguments takes it
        for call in entry.get("tool_calls") or ():
            assert isinstance(json.loads(call["function"]["arguments"], parse_constant=_not_json), dict), call
    i = 0
    while i < len(wire):
        entry = wire[i]
        assert entry["role"] != "tool", f"an answer with no call before it at {i}: {entry}"
        i += 1
        if entry["role"] == "assistant" and entry.get("tool_calls"):
            ids = {c["id"] for c in entry["tool_calls"]}
            answered = []
            while i < len(wire) and wire[i]["role"] == "tool":
                answered.append(wire[i]["tool_call_id"])
                i += 1
            counts = Counter(answered)
            assert set(counts) == ids and all(n == 1 for n in counts.values()), (ids, answered)


def conversation(messages: list) -> list:
    """The conversation without its system prompts: what a run adds."""
    return [m for m in messages if not isinstance(m, SystemMessage)]


class Heard:
    """A listener that keeps each message announced, to compare with the conversation."""

    def __init__(self) -> None:
        self.messages: list = []
        self.finishes: list = []

    def on_run_start(self, messages):
        self.messages.append(messages[-1])  # the question that starts the run; the rest was heard before

    def on_model_reply(self, response):
        self.messages.append(response.message)

    def on_tool_return(self, message):
        self.messages.append(message)

    def on_finish(self, answer, reason):
        self.finishes.append(reason)


def bounded_answers(messages: list, limit: int = 2_500) -> None:
    for m in messages:
        if isinstance(m, ToolMessage):
            assert len(m.content) <= limit, f"an answer of {len(m.content):,} characters"


__all__ = ["ALL_SLIPS", "AssistantMessage", "HOSTILE_SLIPS", "Heard", "QUESTION", "SYSTEM", "TEXT_SLIPS",
           "UserMessage", "VALID_LABELS", "assert_conversation_valid", "bounded_answers", "conversation",
           "counting_registry"]
