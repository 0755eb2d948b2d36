"""The menu of errands: plain functions, with schema and argument checks derived from their signatures.

The model only ever names a tool and fills in arguments. Names are looked up in a dict and the
arguments are validated by pydantic in strict mode; nothing the model sends is evaluated as code.
Whatever is wrong with a slip becomes a ``ToolArgsError`` whose text tells the model what to fix.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_type_hints

if TYPE_CHECKING:  # pydantic loads with the first tool, not with `import mingraph_lite`
    from pydantic import BaseModel, ValidationError

from .errors import ToolArgsError
from .messages import ToolCall, ToolMessage

# One encoder for results: json.dumps(..., ensure_ascii=False) builds a new encoder on every call.
_RESULT_JSON = json.JSONEncoder(ensure_ascii=False)
_PARAM_LINE = re.compile(r"^\s*(?:[-*]\s*)?(\w+)\s*(?:\([^)]*\))?\s*:\s*(.+)$")


def _describe(fn: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """Split a docstring into the tool description and per-argument descriptions.

    Understands the common ``Args:`` block (Google style); everything before it is the description.
    """
    doc = inspect.getdoc(fn) or ""
    head, _, args_block = doc.partition("\nArgs:")
    params: dict[str, str] = {}
    for line in args_block.splitlines():
        match = _PARAM_LINE.match(line)
        if match:
            params[match.group(1)] = match.group(2).strip()
    return " ".join(head.split()), params


@dataclass(frozen=True)
class Tool:
    """One errand on the menu: the function, its public name and its checked argument model."""

    name: str
    fn: Callable[..., Any]
    description: str
    args_model: type[BaseModel]
    # The parameters schema, generated once (pydantic takes ~0.4 ms per call) and kept as JSON text,
    # so each ``spec`` is a fresh dict that a caller may change without changing the tool.
    schema_json: str = field(default="", repr=False, compare=False)

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
            fields[param.name] = (hints[param.name],
                                  Field(default, description=param_docs.get(param.name)))
        # strict: "18" is not a number and True is not a number; no silent coercion of the model's slips.
        config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)
        model = create_model(f"{fn.__name__}_args", __config__=config, **fields)
        return cls(name=name or fn.__name__, fn=fn, description=description, args_model=model)


def _explain(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        if item["type"] == "missing":
            problems.append(f"missing argument {where!r}")
        elif item["type"] == "extra_forbidden":
            problems.append(f"unexpected argument {where!r}")
        else:
            problems.append(f"argument {where!r}: {item['msg']} (got {item.get('input')!r})")
    return "; ".join(problems)


def error_slip(call: ToolCall, text: str) -> ToolMessage:
    """An answer slip that reports a problem instead of a result (marked ``is_error``)."""
    return ToolMessage(f"Error: {text}", call.id, name=call.name, is_error=True)


def fix_slip(call: ToolCall, error: ToolArgsError) -> ToolMessage:
    """The answer to a badly filled-in slip: what was wrong, so the model can send a better one.

    The wording is LangGraph ToolNode's default, which sorts errors the same way.
    """
    return error_slip(call, f"{error}\n Please fix your mistakes.")


def failed_slips(calls: Sequence[ToolCall], index: int, error: BaseException) -> list[ToolMessage]:
    """Answers for a batch whose call ``index`` failed in the tool itself: that one, and every later one.

    Providers reject a folder with an unanswered slip, and the folder outlives the run.
    """
    failed = calls[index]
    return [error_slip(failed, f"tool failed: {error}"),
            *(error_slip(later, f"not run, because {failed.name} failed before it") for later in calls[index + 1:])]


class ToolRegistry:
    """The menu: ``add`` functions, hand ``tools`` to the model, ``run`` its slips."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}
        self._menu_json: str | None = None  # the whole menu as JSON text, made once per change

    def add(self, fn: Callable[..., Any] | None = None, *, name: str | None = None) -> Any:
        """Register ``fn`` as a tool; usable as ``registry.add(fn)`` or as a ``@registry.add`` decorator."""
        if fn is None:
            return lambda f: self.add(f, name=name)
        tool = Tool.from_function(fn, name)
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        self._menu_json = None
        return fn

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The menu as JSON-schema function specs, in registration order."""
        if self._menu_json is None:
            self._menu_json = json.dumps([tool.spec for tool in self._tools.values()])
        return json.loads(self._menu_json)  # a fresh copy each call: a caller may change it freely

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolRegistry({self.names})"

    def validate(self, call: ToolCall) -> dict[str, Any]:
        """Check one slip against the menu; return its arguments or raise ``ToolArgsError``."""
        tool = self._tools.get(call.name)
        if tool is None:
            raise ToolArgsError(f"unknown tool {call.name!r}; available tools: {', '.join(self.names) or 'none'}")
        args: Any = call.arguments
        if isinstance(args, str):
            try:
                args = json.loads(args) if args.strip() else {}
            except json.JSONDecodeError as e:
                raise ToolArgsError(f"arguments for {call.name!r} are not valid JSON ({e.msg}); "
                                    f"send a JSON object like {self._example(tool)}") from None
        if not isinstance(args, Mapping):
            raise ToolArgsError(f"arguments for {call.name!r} must be a JSON object like {self._example(tool)}, "
                                f"got {type(args).__name__}")
        # JSON can smuggle NaN/Infinity in as floats; pydantic's allow_inf_nan covers floats only.
        for key, value in args.items():
            if isinstance(value, float) and not math.isfinite(value):
                raise ToolArgsError(f"argument {key!r} of {call.name!r} must be a finite number, got {value!r}")
        try:
            checked = tool.args_model.model_validate(dict(args))
        except Exception as e:
            from pydantic import ValidationError  # imported only on the error path: runs stay cheap

            if not isinstance(e, ValidationError):
                raise
            raise ToolArgsError(f"bad arguments for {call.name!r}: {_explain(e)}; "
                                f"expected {self._example(tool)}") from None
        return dict(checked.__dict__)  # the field values; dict(model) would probe for .keys() first

    def run(self, call: ToolCall) -> ToolMessage:
        """Run one slip and return its answer slip. The tool's own exceptions propagate unchanged."""
        args = self.validate(call)
        result = self._tools[call.name].fn(**args)
        if isinstance(result, str):
            content = result
        elif type(result) in (int, float) and math.isfinite(result):
            content = repr(result)  # what JSON would write, without building an encoder (~5 us a call)
        else:
            content = _RESULT_JSON.encode(result)
        return ToolMessage(content, tool_call_id=call.id, name=call.name)

    def answer(self, call: ToolCall) -> ToolMessage:
        """Run one slip; a slip the model filled in badly is answered with what to fix, not raised."""
        try:
            return self.run(call)
        except ToolArgsError as e:
            return fix_slip(call, e)

    @staticmethod
    def _example(tool: Tool) -> str:
        props = tool.args_model.model_json_schema().get("properties", {})
        return "{" + ", ".join(f'"{k}": <{v.get("type", "value")}>' for k, v in props.items()) + "}"
