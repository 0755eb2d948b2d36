"""The messages a model reads and writes, and the tool calls it sends: frozen, each with one spelling on disk."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Union


@dataclass(frozen=True)
class ToolCall:
    """The model asks to run tool ``name``; ``arguments`` is kept as sent, so a bad one is the model's to fix."""

    id: str
    name: str
    arguments: Any = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        args = dict(self.arguments) if isinstance(self.arguments, Mapping) else self.arguments
        return {"id": self.id, "name": self.name, "arguments": args}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolCall:
        args = data.get("arguments", {})
        return cls(id=str(data["id"]), name=str(data["name"]),
                   arguments=dict(args) if isinstance(args, Mapping) else args)


@dataclass(frozen=True)
class _Message:
    role: ClassVar[str] = ""
    content: str

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
    """The model's reply: an answer (``content``), ``tool_calls``, or both."""

    role: ClassVar[str] = "assistant"
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.tool_calls, tuple):  # a list would make the frozen message mutable
            object.__setattr__(self, "tool_calls", tuple(self.tool_calls))

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content, "tool_calls": [c.to_dict() for c in self.tool_calls]}


@dataclass(frozen=True)
class ToolMessage(_Message):
    """The answer to one tool call, with its ``id``; ``is_error`` marks a reported failure."""

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
