"""One run folded from its event dicts: its messages and its situations (``Card``), for the views and plots."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: One colour per kind of situation, for every view and figure that draws them.
CARD_COLOURS = {"calling-model": "#6a3d9a", "running-tools": "#2e7d32", "finished": "#555555", "node": "#1f5fa8"}


@dataclass(frozen=True)
class MessageRow:
    """One message of the run, as a view shows it."""

    role: str
    content: str
    tool_calls: tuple[Mapping[str, Any], ...] = ()  # an assistant message's calls: id, name, arguments
    tool_call_id: str | None = None                   # a tool message: the call it answers
    name: str | None = None                           # a tool message: the tool's name
    is_error: bool = False
    reasoning: str | None = None
    reasoning_tokens: int | None = None


@dataclass(frozen=True)
class Card:
    """The situation the run was in from event number ``at`` on, and how many messages it had then."""

    kind: str          # "calling-model" | "running-tools" | "finished" | "node"
    label: str         # "calling model", "running tools", "finished (answered)", or the node's name
    step: int | None
    at: int            # index, within the run, of the event that began it
    message_count: int

    @property
    def title(self) -> str:
        """The label with its model step, as the views and the timeline write it."""
        return self.label + (f" (step {self.step})" if self.step is not None and self.kind != "finished" else "")


def _row(message: Mapping[str, Any], **extra: Any) -> MessageRow:
    return MessageRow(message.get("role", "?"), message.get("content") or "", tuple(message.get("tool_calls") or ()),
                      message.get("tool_call_id"), message.get("name"), bool(message.get("is_error")), **extra)


class RunModel:
    """The messages and the situations of one run, folded from its event dicts."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.rows: list[MessageRow] = []
        self.cards: list[Card] = []
        self.sizes: list[int] = []       # how many messages after each event
        self.finish: tuple[str | None, str] | None = None
        self.tool_error: str | None = None
        self._graph = False              # in a graph run, the situations are its nodes

    @classmethod
    def of(cls, events: Iterable[Mapping[str, Any]]) -> RunModel:
        model = cls()
        for event in events:
            model.apply(event)
        return model

    def _card(self, kind: str, label: str, step: int | None) -> None:
        self.cards.append(Card(kind, label, step, len(self.sizes), len(self.rows)))

    def apply(self, event: Mapping[str, Any]) -> None:
        kind, step = event.get("event"), event.get("step")
        if kind == "run_start":
            self._reset()
            self.rows = [_row(m) for m in event.get("messages", ())]
        elif kind == "step_start" and not self._graph:
            self._card("calling-model", "calling model", step)
        elif kind == "model_reply":
            self.rows.append(_row({**(event.get("message") or {}), "role": "assistant"},
                                  reasoning=event.get("reasoning"), reasoning_tokens=event.get("reasoning_tokens")))
        elif kind == "tool_call" and not self._graph:
            if not self.cards or self.cards[-1].kind != "running-tools":
                self._card("running-tools", "running tools", step)
        elif kind == "tool_return":
            self.rows.append(_row({**event, "role": "tool"}))
        elif kind == "tool_error":
            # No row: the agent announces the failed call's ToolMessage after this.
            call = event.get("call") or {}
            self.tool_error = f"{call.get('name')} raised {event.get('error_type')}: {event.get('error')}"
        elif kind == "node_start":
            self._graph = True
            self._card("node", str(event.get("node")), step)
        elif kind == "finish":
            self.finish = (event.get("answer"), str(event.get("reason")))
            self._card("finished", f"finished ({event.get('reason')})", step)
        self.sizes.append(len(self.rows))

    @property
    def status(self) -> str:
        if self.finish is not None:
            return f"finished ({self.finish[1]})" + (f": {self.tool_error}" if self.tool_error else "")
        if not self.cards:
            return "waiting to start" if not self.rows else "started"
        return self.cards[-1].label if self.cards[-1].kind == "node" else self.cards[-1].title

    def answers(self) -> dict[str, MessageRow]:
        """Tool messages by the call they answer, to show each one beside its call."""
        return {row.tool_call_id: row for row in self.rows if row.role == "tool" and row.tool_call_id is not None}
