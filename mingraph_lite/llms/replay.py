"""Re-run a recorded run: the model's replies come from a trace instead of a model.

A trace records, per run, the folder the first model call read (``run_start``), every reply
(``model_reply``) and every answer slip (``tool_return``). Replaying hands back the replies in
order, and checks on the way that the run asks what the recording asked: the same first folder,
and later the same newest messages (the previous reply and its answer slips). A run that drifts
(other tools, other data, another memory) stops with ``ReplayMismatch`` naming the step, instead
of silently pairing old replies with new questions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mingraph_lite.errors import ReplayMismatch, ScriptExhausted
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.messages import Message, message_from_dict


@dataclass(frozen=True)
class _Expected:
    """What the run sent at one step, as far as the trace recorded it."""

    folder: tuple[dict[str, Any], ...] | None = None   # the whole folder (first call only)
    tail: tuple[dict[str, Any], ...] = ()              # the newest messages (later calls)


def _pick_run(events: list[Mapping[str, Any]], run: int | str | None) -> list[Mapping[str, Any]]:
    key = "run_id" if any("run_id" in e for e in events) else "run"
    ids = list(dict.fromkeys(e.get(key) for e in events))
    if not ids:
        raise ValueError("the trace holds no events")
    if run is None:
        chosen = ids[-1]                         # the latest run, as a notebook would expect
    elif isinstance(run, str):
        if run not in ids:
            raise ValueError(f"no run with run_id {run!r} in the trace; it holds {ids}")
        chosen = run
    else:
        if run == 0 or not -len(ids) <= run <= len(ids):
            raise ValueError(f"run={run} but the trace holds {len(ids)} run(s): use 1..{len(ids)} or -1")
        chosen = ids[run - 1] if run > 0 else ids[run]
    return [e for e in events if e.get(key) == chosen]


@dataclass
class ReplayLLM:
    """Hands back recorded replies in order; ``.calls`` records what it was sent, like ScriptedLLM."""

    responses: Sequence[LLMResponse]
    expected: Sequence[_Expected] = ()
    calls: list[tuple[list[Message], list[Mapping[str, Any]]]] = field(default_factory=list)

    @property
    def name(self) -> str:
        """Says that the replies are replayed, the way a scripted model says it is scripted."""
        return f"replay ({len(self.responses)} recorded replies)"

    def __repr__(self) -> str:
        return f"ReplayLLM({len(self.responses)} recorded replies, {len(self.calls)} used)"

    @classmethod
    def from_trace(cls, path: str | Path, run: int | str | None = None) -> ReplayLLM:
        """Replay run ``run`` of a JSON Lines trace: 1-based, -1 for the last, or a ``run_id``."""
        from mingraph_lite.observers.trace import read_trace  # here, not on top: observers import llms

        return cls.from_events(read_trace(Path(path)), run=run)

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]], run: int | str | None = None) -> ReplayLLM:
        """The same from event dicts (``EventRecorder().events``, or ``read_trace``)."""
        chosen = _pick_run(list(events), run)
        responses, expected = [], []
        folder = next((tuple(e["messages"]) for e in chosen if e.get("event") == "run_start"), None)
        tail: list[dict[str, Any]] = []
        for e in chosen:
            if e.get("event") == "model_reply":
                expected.append(_Expected(folder=folder) if not responses else _Expected(tail=tuple(tail)))
                response = LLMResponse.from_dict(e)
                # Say where the reply came from, the way a scripted reply says it is scripted.
                responses.append(replace(response, model=f"replay:{response.model}"))
                tail = [response.message.to_dict()]
            elif e.get("event") == "tool_return":
                tail.append(message_from_dict({**_only_message(e), "role": "tool"}).to_dict())
        if not responses:
            raise ValueError("the chosen run has no model_reply events: nothing to replay")
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
        if want.folder is not None and tuple(sent) != want.folder:
            raise ReplayMismatch(f"replay step {step}: the run sent a different folder than recorded "
                                 f"({len(sent)} messages, recorded {len(want.folder)}); first difference: "
                                 f"{_first_difference(sent, list(want.folder))}")
        if want.tail and tuple(sent[-len(want.tail):]) != want.tail:
            raise ReplayMismatch(f"replay step {step}: the newest messages differ from the recording: "
                                 f"{_first_difference(sent[-len(want.tail):], list(want.tail))}")


def _only_message(event: Mapping[str, Any]) -> dict[str, Any]:
    return {k: event[k] for k in ("content", "tool_call_id", "name", "is_error") if k in event}


def _first_difference(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> str:
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"message {i}: got {g!r}, recorded {w!r}"
    return f"got {len(got)} messages, recorded {len(want)}"
