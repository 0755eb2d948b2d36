"""Memory decides what the model reads; no strategy splits a tool call from its answer (providers reject either)."""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from .llms.base import LLM, LLMResponse
from .messages import AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage


@runtime_checkable
class Memory(Protocol):
    """What the agent needs from a memory."""

    def add(self, message: Message) -> None: ...

    def messages(self) -> list[Message]: ...


class KeepAll:
    """Read the model everything, every round. Simple, faithful, and the cost grows each round."""

    def __init__(self, system_prompt: str) -> None:
        if not isinstance(system_prompt, str):
            raise TypeError(f"{type(self).__name__} takes the system prompt as text first, got {system_prompt!r}")
        self.system = SystemMessage(system_prompt)
        self._history: list[Message] = []

    def add(self, message: Message) -> None:
        self._history.append(message)

    @property
    def history(self) -> list[Message]:
        """Everything ever added, whatever the strategy reads out."""
        return list(self._history)

    def messages(self) -> list[Message]:
        return [self.system, *self._history]

    def __len__(self) -> int:
        return len(self._history)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self._history)} messages)"


def _count(owner: str, name: str, value: object, fix: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{owner} needs {name} as a whole number >= 1 ({fix}), got {value!r}")


def safe_start(history: Sequence[Message], start: int) -> int:
    """Move a window's first index back until it does not begin inside a tool-call exchange."""
    start = max(0, min(start, len(history)))
    while start > 0 and isinstance(history[start], ToolMessage):
        start -= 1  # back to the assistant message whose tool calls these answer
    return start


class LastN(KeepAll):
    """Read the system prompt and the last ``n`` messages (more only to keep a tool call with its answers)."""

    def __init__(self, system_prompt: str, n: int) -> None:
        super().__init__(system_prompt)
        _count("LastN", "n", n, f"the number of recent messages to keep, e.g. LastN({system_prompt!r}, 6)")
        self.n = n

    def messages(self) -> list[Message]:
        start = safe_start(self._history, len(self._history) - self.n)
        return [self.system, *self._history[start:]]


def _transcript(messages: Sequence[Message]) -> str:
    lines = []
    for m in messages:
        if isinstance(m, AssistantMessage) and m.tool_calls:
            calls = ", ".join(f"{c.name}({c.arguments})" for c in m.tool_calls)
            lines.append(f"assistant asked for: {calls}" + (f" and said: {m.content}" if m.content else ""))
        elif isinstance(m, ToolMessage):
            lines.append(f"tool {m.name or ''} returned: {m.content}".replace("  ", " "))
        else:
            lines.append(f"{m.role}: {m.content}")
    return "\n".join(lines)


SUMMARY_PROMPT = ("Condense this conversation into a few sentences. Keep every fact, number and unit "
                  "that a later answer may need; drop the chit-chat.")


def _usable_summary(response) -> str:
    message = getattr(response, "message", None)
    if not isinstance(message, AssistantMessage):
        raise ValueError(f"the summariser must return an LLMResponse, got {type(response).__name__}; "
                         f"the history was kept whole")
    if message.tool_calls:
        raise ValueError("the summariser asked for tools instead of writing a summary; the history was kept "
                         "whole (give it no tools and a plain instruction)")
    text = (message.content or "").strip()
    if not text:
        raise ValueError("the summariser returned an empty summary; the history was kept whole")
    return text


class Summarise(KeepAll):
    """Keep the last ``keep_last`` messages and a model-written summary of the rest, made past ``trigger``. A
    summariser that fails leaves the history whole, and its error surfaces from ``add``."""

    def __init__(self, system_prompt: str, llm: LLM, *, keep_last: int = 4, trigger: int = 8) -> None:
        super().__init__(system_prompt)
        _count("Summarise", "keep_last", keep_last, "the messages kept word for word, e.g. keep_last=4")
        _count("Summarise", "trigger", trigger, "how many unsummarised messages start a summary, e.g. trigger=8")
        if trigger <= keep_last:
            raise ValueError(f"Summarise needs keep_last < trigger (a summary must have something to condense), "
                             f"got keep_last={keep_last}, trigger={trigger}")
        if not isinstance(llm, LLM):
            missing = " and no ".join(part for part in ("name", "generate") if part not in dir(llm))
            raise TypeError(f"Summarise needs a model (an LLM: a name and generate(messages, tools)); "
                            f"{llm!r} has no {missing}")
        self.llm, self.keep_last, self.trigger = llm, keep_last, trigger
        self.summary: str | None = None
        self._recent: list[Message] = []
        self.summary_responses: list[LLMResponse] = []

    def add(self, message: Message) -> None:
        super().add(message)
        self._recent.append(message)
        waiting = isinstance(message, AssistantMessage) and bool(message.tool_calls)  # never mid-exchange
        if len(self._recent) > self.trigger and not waiting:
            self._condense()

    def _condense(self) -> None:
        cut = safe_start(self._recent, len(self._recent) - self.keep_last)
        older = self._recent[:cut]
        if not older:
            return
        earlier = f"Earlier summary: {self.summary}\n" if self.summary else ""
        response = self.llm.generate([SystemMessage(SUMMARY_PROMPT), UserMessage(earlier + _transcript(older))], [])
        self.summary_responses.append(response)
        self.summary, self._recent = _usable_summary(response), self._recent[cut:]  # cut only with a good one

    def messages(self) -> list[Message]:
        head: list[Message] = [self.system]
        if self.summary:
            head.append(SystemMessage(f"Summary of the conversation so far: {self.summary}"))
        return [*head, *self._recent]
