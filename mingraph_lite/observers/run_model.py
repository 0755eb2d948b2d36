"""One run, folded from its events: the messages so far and the cards (states) it went through.

A live view and a plot read the same model: ``RunModel.apply(event)`` takes the event dicts that
``RecordingObserver`` makes during a run, or that ``read_trace`` reads back afterwards, so a past
run is drawn by the same code as a live one. Pure data: no widgets, no matplotlib.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MessageRow:
    """One message of the run, as a viewer needs it."""

    role: str
    content: str
    tool_calls: tuple[Mapping[str, Any], ...] = ()  # an assistant message's calls: id, name, arguments
    tool_call_id: str | None = None                   # a tool message: the call it answers
    name: str | None = None                           # a tool message: the tool's name
    is_error: bool = False
    reasoning: str | None = None                      # an assistant message: the thinking, when reported
    reasoning_tokens: int | None = None


@dataclass(frozen=True)
class Card:
    """The card (state) the run held from event number ``at`` on, and how many messages it had then."""

    kind: str          # "calling-model" | "running-tools" | "finished" | "node"
    label: str         # "calling model", "running tools", "finished (answered)", or the node's name
    step: int | None
    at: int            # index of the event that put this card in hand (0-based, within the run)
    message_count: int


def _start_rows(event: Mapping[str, Any]) -> list[MessageRow]:
    return [MessageRow(m.get("role", "?"), m.get("content") or "", tuple(m.get("tool_calls") or ()),
                       m.get("tool_call_id"), m.get("name"), bool(m.get("is_error")))
            for m in event.get("messages", ())]


def _reply_row(event: Mapping[str, Any]) -> MessageRow:
    message = event.get("message") or {}
    return MessageRow("assistant", message.get("content") or "", tuple(message.get("tool_calls") or ()),
                      reasoning=event.get("reasoning"), reasoning_tokens=event.get("reasoning_tokens"))


def _tool_row(event: Mapping[str, Any]) -> MessageRow:
    return MessageRow("tool", event.get("content") or "", tool_call_id=event.get("tool_call_id"),
                      name=event.get("name"), is_error=bool(event.get("is_error")))


class RunModel:
    """The messages and the cards of one run, folded from event dicts (live or from a trace)."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.rows: list[MessageRow] = []
        self.cards: list[Card] = []
        self.sizes: list[int] = []       # how many messages after each event
        self.finish: tuple[str | None, str] | None = None
        self.tool_error: str | None = None
        self._graph = False              # a graph run: its cards are its nodes

    @classmethod
    def of(cls, events: Iterable[Mapping[str, Any]]) -> RunModel:
        """The model of one finished run's events."""
        model = cls()
        for event in events:
            model.apply(event)
        return model

    def _card(self, kind: str, label: str, step: int | None) -> None:
        self.cards.append(Card(kind, label, step, len(self.sizes), len(self.rows)))

    def apply(self, event: Mapping[str, Any]) -> None:
        kind, step = event.get("event"), event.get("step")
        if kind == "run_start":
            self._reset()  # a new run: the messages as the first model call will read them
            self.rows = _start_rows(event)
        elif kind == "step_start" and not self._graph:
            self._card("calling-model", "calling model", step)
        elif kind == "model_reply":
            self.rows.append(_reply_row(event))
        elif kind == "tool_call" and not self._graph:
            if not self.cards or self.cards[-1].kind != "running-tools":
                self._card("running-tools", "running tools", step)
        elif kind == "tool_return":
            self.rows.append(_tool_row(event))
        elif kind == "tool_error":
            # No row: the agent announces the failed call's tool message (and any skipped ones') after this.
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
            why = f": {self.tool_error}" if self.tool_error else ""
            return f"finished ({self.finish[1]}){why}"
        if not self.cards:
            return "waiting to start" if not self.rows else "started"
        card = self.cards[-1]
        return card.label + (f" (step {card.step})" if card.step is not None and card.kind != "node" else "")

    def answers(self) -> dict[str, MessageRow]:
        """Tool messages by the call they answer, to show each one beside its call."""
        return {row.tool_call_id: row for row in self.rows if row.role == "tool" and row.tool_call_id is not None}
