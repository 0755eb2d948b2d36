"""The folder's contents: the messages a model is read, and the slips it passes back.

Every value is a frozen dataclass: a message that is in the folder can't be edited behind the
model's back. JSON crosses the edges (traces, provider payloads) through one ``to_dict`` /
``from_dict`` pair per type, so there is exactly one spelling of each message on disk.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Union


@dataclass(frozen=True)
class ToolCall:
    """A slip from the model: run tool ``name`` with ``arguments``; ``id`` is the ticket number.

    ``arguments`` is normally a dict. It may also be the raw JSON text a provider sent, or whatever
    else a model put there (``None``, a list, a number): kept as sent, so that the registry answers
    it as the model's mistake instead of an adapter crashing on it.
    """

    id: str
    name: str
    arguments: Any = field(default_factory=dict)

    def __deepcopy__(self, memo: dict) -> ToolCall:
        # Only the arguments can be changed from outside; the rest is frozen text. Copied without
        # recursion: a hostile slip nested thousands of levels deep must not crash a graph's state copy.
        if isinstance(self.arguments, (str, bytes)):
            return self
        return ToolCall(self.id, self.name, _copy_tree(self.arguments, memo))

    def to_dict(self) -> dict[str, Any]:
        args = dict(self.arguments) if isinstance(self.arguments, Mapping) else self.arguments
        return {"id": self.id, "name": self.name, "arguments": args}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolCall:
        args = data.get("arguments", {})
        return cls(id=str(data["id"]), name=str(data["name"]),
                   arguments=dict(args) if isinstance(args, Mapping) else args)


def _copy_tree(value: Any, memo: dict) -> Any:
    """A deep copy of dicts and lists made with a loop instead of recursion; other values via deepcopy."""
    def fresh(item: Any) -> Any:
        if isinstance(item, dict):
            return {}
        if isinstance(item, list):
            return []
        return item if isinstance(item, (str, int, float, bool, type(None))) else deepcopy(item, memo)

    root = fresh(value)
    stack = [(value, root)]
    while stack:
        source, target = stack.pop()
        if isinstance(source, dict):
            for key, child in source.items():
                target[key] = copy = fresh(child)
                if isinstance(child, (dict, list)):
                    stack.append((child, copy))
        elif isinstance(source, list):
            for child in source:
                target.append(copy := fresh(child))
                if isinstance(child, (dict, list)):
                    stack.append((child, copy))
    return root


@dataclass(frozen=True)
class _Message:
    role: ClassVar[str] = ""
    content: str

    def __deepcopy__(self, memo: dict) -> _Message:
        # Frozen, with only str/bool/None fields: nothing in it can change, so a copy would be identical.
        # (A graph hands each node a deep copy of its state; this keeps that copy cheap for folders.)
        return self

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        return message_from_dict(data)


@dataclass(frozen=True)
class SystemMessage(_Message):
    """The standing instructions, read to the model at the top of every round."""

    role: ClassVar[str] = "system"


@dataclass(frozen=True)
class UserMessage(_Message):
    """What the person asked."""

    role: ClassVar[str] = "user"


@dataclass(frozen=True)
class AssistantMessage(_Message):
    """The model's reply: an answer (``content``), slips (``tool_calls``), or both."""

    role: ClassVar[str] = "assistant"
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()

    def __post_init__(self) -> None:
        # A list would make the frozen message mutable through the back door.
        if not isinstance(self.tool_calls, tuple):
            object.__setattr__(self, "tool_calls", tuple(self.tool_calls))

    def __deepcopy__(self, memo: dict) -> AssistantMessage:
        if not self.tool_calls:
            return self
        return AssistantMessage(self.content, tuple(deepcopy(c, memo) for c in self.tool_calls))

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content,
                "tool_calls": [c.to_dict() for c in self.tool_calls]}


@dataclass(frozen=True)
class ToolMessage(_Message):
    """An answer slip: the result of one tool call, carrying the same ticket number.

    ``is_error`` marks an answer slip that reports a failure (a bad slip or a tool that
    failed), so that viewers and traces can show it without parsing the text.
    """

    role: ClassVar[str] = "tool"
    tool_call_id: str
    name: str | None = None
    is_error: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content, "tool_call_id": self.tool_call_id,
                "name": self.name, "is_error": self.is_error}


Message = Union[SystemMessage, UserMessage, AssistantMessage, ToolMessage]

_BY_ROLE: dict[str, type] = {"system": SystemMessage, "user": UserMessage,
                             "assistant": AssistantMessage, "tool": ToolMessage}


def message_from_dict(data: Mapping[str, Any]) -> Message:
    """Rebuild any message from its ``to_dict`` form; the ``role`` key picks the type."""
    role = data.get("role")
    if role not in _BY_ROLE:
        raise ValueError(f"unknown message role {role!r}; expected one of {sorted(_BY_ROLE)}")
    content = data.get("content") or ""
    if role == "assistant":
        calls = tuple(ToolCall.from_dict(c) for c in data.get("tool_calls") or ())
        return AssistantMessage(content=content, tool_calls=calls)
    if role == "tool":
        return ToolMessage(content=content, tool_call_id=str(data.get("tool_call_id", "")),
                           name=data.get("name"), is_error=bool(data.get("is_error", False)))
    return _BY_ROLE[role](content=content)
