"""Re-run a recorded run from its trace; a run that asks other than what was recorded stops (``ReplayMismatch``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mingraph_lite.errors import ReplayError, ReplayMismatch, ScriptExhausted
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.messages import Message, message_from_dict
from mingraph_lite.observers.base import safe_json
from mingraph_lite.observers.trace import pick_run, read_trace
from mingraph_lite.redaction import secret_values


@dataclass(frozen=True)
class _Expected:
    """What the run sent at one step, as far as the trace recorded it."""

    first: tuple[dict[str, Any], ...] | None = None    # every message (first call only)
    tail: tuple[dict[str, Any], ...] = ()              # the newest messages (later calls)


@dataclass
class ReplayLLM:
    """Hands back recorded replies in order; ``.calls`` records what it was sent, like ScriptedLLM."""

    responses: Sequence[LLMResponse]
    expected: Sequence[_Expected] = ()
    calls: list[tuple[list[Message], list[Mapping[str, Any]]]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"replay ({len(self.responses)} recorded replies)"

    def __repr__(self) -> str:
        return f"ReplayLLM({len(self.responses)} recorded replies, {len(self.calls)} used)"

    @classmethod
    def from_trace(cls, path: str | Path, run: int | str | None = None) -> ReplayLLM:
        """Replay run ``run`` of a JSON Lines trace: 1-based, -1 for the last (default), or a ``run_id``."""
        trace = read_trace(Path(path))
        if not trace:
            raise ReplayError(f"{path} holds no events: nothing to replay; record a run with TraceRecorder")
        return cls._build(pick_run(trace, run), str(path))

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]], run: int | str | None = None) -> ReplayLLM:
        """The same from event dicts (``EventRecorder().events``, or ``read_trace``)."""
        events = list(getattr(events, "events", events))
        if not events:
            raise ReplayError("the events are empty: nothing to replay; record a run first")
        return cls._build(pick_run(events, run), "the events")

    @classmethod
    def _build(cls, chosen: Any, source: str) -> ReplayLLM:
        where = [chosen.where(i) for i in range(len(chosen))]
        _check_whole(chosen, where)
        responses, expected, first, tail = [], [], None, []
        for event, at in zip(chosen, where, strict=True):
            name = event.get("event")
            if name == "run_start":
                first = _read(at, name, lambda e: tuple(m.to_dict() for m in _messages(e["messages"])), event)
            elif name == "model_reply":
                response = _read(at, name, _response, event)
                expected.append(_Expected(first=first) if not responses else _Expected(tail=tuple(tail)))
                # Say where the reply came from, the way a scripted reply says it is scripted.
                responses.append(replace(response, model=f"replay:{response.model}"))
                tail = [response.message.to_dict()]
            elif name == "tool_return":
                tail.append(_read(at, name, _tool_message, event).to_dict())
        if not responses:
            raise ReplayError(f"{source}: the chosen run has no model_reply events: nothing to replay; "
                              f"pick another run")
        return cls(responses=responses, expected=expected)

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        step = len(self.calls) + 1
        self.calls.append((list(messages), list(tools)))
        if step > len(self.responses):
            raise ScriptExhausted(f"replay step {step}: the recording holds only {len(self.responses)} "
                                  f"model replies, and the run asked for another")
        if step <= len(self.expected):
            self._check(step, [m.to_dict() for m in messages], self.expected[step - 1])
        return self.responses[step - 1]

    @staticmethod
    def _check(step: int, sent: list[dict[str, Any]], want: _Expected) -> None:
        sent = _as_stored(sent)  # a trace stores secrets as ***: compare both sides in that form
        if want.first is not None and sent != (recorded := _as_stored(want.first)):
            raise ReplayMismatch(f"replay step {step}: the run sent other messages than recorded ({len(sent)} "
                                 f"messages, recorded {len(recorded)}); first difference: "
                                 f"{_first_difference(sent, recorded)}")
        recorded = _as_stored(want.tail)
        if recorded and sent[-len(recorded):] != recorded:
            raise ReplayMismatch(f"replay step {step}: the newest messages differ from the recording: "
                                 f"{_first_difference(sent[-len(recorded):], recorded)}")


def _as_stored(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return safe_json(list(messages), secret_values())


def _read(where: str, name: str, read: Callable[[Mapping[str, Any]], Any], event: Mapping[str, Any]) -> Any:
    try:
        return read(event)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReplayError(f"{where}: this {name} event cannot be replayed ({type(exc).__name__}: {exc}); "
                          f"the trace is damaged or was not written by TraceRecorder") from None


def _text(value: Any, what: str) -> str:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{what} is {type(value).__name__}, not text")
    return value or ""


def _messages(data: Any) -> list[Message]:
    if not isinstance(data, list) or not all(isinstance(m, Mapping) for m in data):
        raise TypeError("messages is not a list of message objects")
    for m in data:
        _text(m.get("content"), "a message's content")
    return [message_from_dict(m) for m in data]


def _response(event: Mapping[str, Any]) -> LLMResponse:
    message = event["message"]
    if not isinstance(message, Mapping):
        raise TypeError("message is not an object")
    _text(message.get("content"), "the reply's content")
    calls = message.get("tool_calls") or []
    if not isinstance(calls, list) or not all(isinstance(c, Mapping) for c in calls):
        raise TypeError("tool_calls is not a list of objects")
    for key in ("input_tokens", "output_tokens", "reasoning_tokens"):
        if event.get(key) is not None and (type(event[key]) is not int):
            raise TypeError(f"{key} is not a whole number")
    _text(event.get("reasoning"), "reasoning")
    return LLMResponse.from_dict(event)


def _tool_message(event: Mapping[str, Any]) -> Message:
    fields = {k: event[k] for k in ("content", "tool_call_id", "name", "is_error") if k in event}
    if "tool_call_id" not in fields:
        raise KeyError("tool_call_id")
    _text(fields.get("content"), "the answer's content")
    return message_from_dict({**fields, "role": "tool"})


def _check_whole(events: list[Mapping[str, Any]], where: list[str]) -> None:
    """Refuse a run that lost a line: replaying it would pair replies with the wrong questions."""
    seqs = [e.get("seq") for e in events]
    if not all(type(s) is int for s in seqs):
        return  # hand-written events carry no sequence numbers
    if events[0].get("event") != "run_start" and seqs[0] != 1:
        raise ReplayError(f"{where[0]}: the run's first lines are missing (it starts at seq {seqs[0]}, "
                          f"not with run_start); the trace is torn there, so this run cannot be replayed")
    for before, after, at in zip(seqs, seqs[1:], where[1:], strict=False):
        if after != before + 1:
            raise ReplayError(f"{at}: a line of this run is missing just before it (seq {before} then {after}), "
                              f"a torn or lost line; this run cannot be replayed, pick another")


def _first_difference(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> str:
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"message {i}: got {g!r}, recorded {w!r}"
    return f"got {len(got)} messages, recorded {len(want)}"
