"""Tools: plain functions, with schema and argument checks derived from their signatures."""

from __future__ import annotations

import inspect
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_type_hints

if TYPE_CHECKING:  # pydantic loads with the first tool, not with `import mingraph_lite`
    from pydantic import BaseModel, ValidationError

from .errors import ToolArgsError
from .messages import AssistantMessage, Message, ToolCall, ToolMessage
from .wire import quote, read_arguments, shorten

_PARAM_LINE = re.compile(r"^\s*(?:[-*]\s*)?(\w+)\s*(?:\([^)]*\))?\s*:\s*(.+)$")


def _describe(fn: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """The tool description and per-argument descriptions (a Google-style ``Args:`` block)."""
    doc = inspect.getdoc(fn) or ""
    head, _, args_block = doc.partition("\nArgs:")
    params = {m.group(1): m.group(2).strip() for m in map(_PARAM_LINE.match, args_block.splitlines()) if m}
    return " ".join(head.split()), params


@dataclass(frozen=True)
class Tool:
    """One tool: the function, its public name and its checked argument model."""

    name: str
    fn: Callable[..., Any]
    description: str
    args_model: type[BaseModel]
    schema_json: str = field(default="", repr=False, compare=False)  # text: each ``spec`` is a fresh dict

    def __post_init__(self) -> None:
        if not self.schema_json:
            schema = self.args_model.model_json_schema()
            schema.pop("title", None)
            for prop in schema.get("properties", {}).values():
                prop.pop("title", None)
            object.__setattr__(self, "schema_json", json.dumps(schema))

    @property
    def spec(self) -> dict[str, Any]:
        """The function spec as providers take it (OpenAI and Ollama share this shape); a fresh copy."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": json.loads(self.schema_json)}}

    @classmethod
    def from_function(cls, fn: Callable[..., Any], name: str | None = None) -> Tool:
        if not callable(fn):
            raise TypeError(f"a tool must be a function, got {fn!r}")
        from pydantic import ConfigDict, Field, create_model

        description, param_docs = _describe(fn)
        if not description:
            raise ValueError(f"tool {fn.__name__!r} needs a docstring: it is the model's only description of it")
        hints = get_type_hints(fn)
        fields: dict[str, Any] = {}
        for param in inspect.signature(fn).parameters.values():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise TypeError(f"tool {fn.__name__!r}: *args/**kwargs cannot be described to a model")
            if param.name not in hints:
                raise TypeError(f"tool {fn.__name__!r}: argument {param.name!r} needs a type hint")
            default = ... if param.default is param.empty else param.default
            fields[param.name] = (hints[param.name], Field(default, description=param_docs.get(param.name)))
        # strict: "18" and True are not numbers; the model's mistakes are not silently coerced.
        config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)
        model = create_model(f"{fn.__name__}_args", __config__=config, **fields)
        return cls(name=name or fn.__name__, fn=fn, description=description, args_model=model)


def _explain(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        if item["type"] == "missing":
            problems.append(f"missing argument {quote(where)}")
        elif item["type"] == "extra_forbidden":
            problems.append(f"unexpected argument {quote(where)}")
        else:
            problems.append(f"argument {quote(where)}: {item['msg']} (got {quote(item.get('input'))})")
    return "; ".join(problems)


ERROR_CHARS = 1_000  # how much of an error answer may be text we did not write (a tool's exception)


def error_answer(call: ToolCall, text: str) -> ToolMessage:
    """A ``ToolMessage`` reporting a problem instead of a result (``is_error``), kept short."""
    return ToolMessage(f"Error: {shorten(text, ERROR_CHARS)}", call.id, name=call.name, is_error=True)


def fix_answer(call: ToolCall, error: ToolArgsError) -> ToolMessage:
    """The answer to a badly filled-in call, in LangGraph ToolNode's default words."""
    return error_answer(call, f"{error}\n Please fix your mistakes.")


def unrun_answer(call: ToolCall, reason: str) -> ToolMessage:
    """The answer to a call that will never run: providers reject a conversation with a call left open."""
    return error_answer(call, f"not run, because {reason}")


def answer_once(calls: Sequence[ToolCall]) -> list[tuple[ToolCall, ToolMessage | None]]:
    """Each call id once, with its first call and None, or, when several calls share the id, the answer due."""
    if len({call.id for call in calls}) == len(calls):  # every id its own: nothing to refuse
        return [(call, None) for call in calls]
    counts = Counter(call.id for call in calls)
    first: dict[str, ToolCall] = {}
    for call in calls:
        first.setdefault(call.id, call)
    return [(call, None if counts[call.id] == 1 else fix_answer(call, ToolArgsError(
        f"{counts[call.id]} calls share the id {quote(call.id)}, so none of them ran; send each call with its own id")))
        for call in first.values()]


def open_calls(messages: Sequence[Message]) -> list[ToolCall]:
    """The calls of the last assistant message with tool calls that still wait for an answer, one per id."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, AssistantMessage) and message.tool_calls:
            answered = {m.tool_call_id for m in messages[index + 1:] if isinstance(m, ToolMessage)}
            return [call for call, _ in answer_once(message.tool_calls) if call.id not in answered]
    return []


def _result_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    if type(result) in (int, float) and math.isfinite(result):  # repr is JSON here, and the loop benchmark needs it
        return repr(result)
    return json.dumps(result, ensure_ascii=False)


class ToolRegistry:
    """``add`` functions, hand their ``tools`` specs to the model, ``run`` or ``answer`` its tool calls."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}

    def add(self, fn: Callable[..., Any] | None = None, *, name: str | None = None) -> Any:
        """Register ``fn`` as a tool; usable as ``registry.add(fn)`` or as a ``@registry.add`` decorator."""
        if fn is None:
            return lambda f: self.add(f, name=name)
        tool = Tool.from_function(fn, name)
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        return fn

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    @property
    def tools(self) -> list[dict[str, Any]]:
        """JSON-schema function specs, in registration order; a fresh copy each call."""
        return [tool.spec for tool in self._tools.values()]

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolRegistry({self.names})"

    def validate(self, call: ToolCall) -> dict[str, Any]:
        """Check one tool call: its arguments, or ``ToolArgsError`` whatever the model sent; nothing runs."""
        tool = self._tools.get(call.name) if isinstance(call.name, str) else None
        if tool is None:
            raise ToolArgsError(f"unknown tool {quote(call.name)}; available tools: {', '.join(self.names) or 'none'}")
        try:
            args = read_arguments(call.arguments)
        except ToolArgsError as e:
            raise ToolArgsError(f"the arguments for {call.name!r} {e}; send a JSON object like "
                                f"{self._example(tool)}") from None
        # JSON can smuggle NaN/Infinity in as floats; pydantic's allow_inf_nan covers float fields only.
        for key, value in args.items():
            if isinstance(value, float) and not math.isfinite(value):
                raise ToolArgsError(f"argument {key!r} of {call.name!r} must be a finite number, got {value!r}")
        from pydantic import ValidationError

        try:
            checked = tool.args_model.model_validate(args)
        except ValidationError as e:
            raise ToolArgsError(f"bad arguments for {call.name!r}: {_explain(e)}; "
                                f"expected {self._example(tool)}") from None
        return dict(checked.__dict__)  # the field values, as pydantic keeps them

    def run(self, call: ToolCall) -> ToolMessage:
        """Run one tool call; the tool's own exceptions propagate unchanged."""
        args = self.validate(call)
        result = self._tools[call.name].fn(**args)
        return ToolMessage(_result_text(result), tool_call_id=call.id, name=call.name)

    def answer(self, call: ToolCall) -> ToolMessage:
        """Run one tool call; one the model filled in badly is answered with what to fix, not raised."""
        try:
            return self.run(call)
        except ToolArgsError as e:
            return fix_answer(call, e)

    @staticmethod
    def _example(tool: Tool) -> str:
        props = json.loads(tool.schema_json).get("properties", {})
        return "{" + ", ".join(f'"{k}": <{v.get("type", "value")}>' for k, v in props.items()) + "}"
