"""Memory decides what the model is read each round: the folder, as our code reads it out.

Three strategies behind one protocol (``add``, ``messages``). Every strategy keeps the system prompt
first, and no strategy ever separates an assistant message that asked for tools from its answer
slips: providers reject a folder with an answer to a slip they cannot see, or a slip with no answer.
"""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from .llms.base import LLM
from .messages import AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage


@runtime_checkable
class Memory(Protocol):
    """What the agent needs from a folder."""

    def add(self, message: Message) -> None: ...

    def messages(self) -> list[Message]: ...


class KeepAll:
    """Read the model everything, every round. Simple, faithful, and the cost grows each round."""

    def __init__(self, system_prompt: str) -> None:
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


def safe_start(history: Sequence[Message], start: int) -> int:
    """Move a window's first index back until it does not begin inside a tool-call exchange."""
    start = max(0, min(start, len(history)))
    while start > 0 and isinstance(history[start], ToolMessage):
        start -= 1  # back to the assistant message whose slips these answer
    return start


class LastN(KeepAll):
    """Read the system prompt and the last ``n`` messages.

    The window grows past ``n`` only when that is needed to keep a tool call together with its
    answer slips.
    """

    def __init__(self, system_prompt: str, n: int) -> None:
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"LastN needs n >= 1 (the number of recent messages to keep), got {n!r}")
        super().__init__(system_prompt)
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


class Summarise(KeepAll):
    """Keep the last ``keep_last`` messages word for word and a model-written summary of the rest.

    When more than ``trigger`` messages are unsummarised, the older ones are condensed by ``llm``
    (one extra model call, with its own cost, recorded in ``summary_responses``).
    """

    def __init__(self, system_prompt: str, llm: LLM, *, keep_last: int = 4, trigger: int = 8) -> None:
        if keep_last < 1 or trigger <= keep_last:
            raise ValueError(f"Summarise needs 1 <= keep_last < trigger, got keep_last={keep_last}, "
                             f"trigger={trigger}")
        super().__init__(system_prompt)
        self.llm, self.keep_last, self.trigger = llm, keep_last, trigger
        self.summary: str | None = None
        self._recent: list[Message] = []
        self.summary_responses: list = []

    def add(self, message: Message) -> None:
        super().add(message)
        self._recent.append(message)
        # Only condense at a quiet moment: never while slips are waiting for their answers.
        waiting = isinstance(message, AssistantMessage) and bool(message.tool_calls)
        if len(self._recent) > self.trigger and not waiting:
            self._condense()

    def _condense(self) -> None:
        cut = safe_start(self._recent, len(self._recent) - self.keep_last)
        older, self._recent = self._recent[:cut], self._recent[cut:]
        if not older:
            return
        earlier = f"Earlier summary: {self.summary}\n" if self.summary else ""
        response = self.llm.generate(
            [SystemMessage(SUMMARY_PROMPT), UserMessage(earlier + _transcript(older))], [])
        self.summary_responses.append(response)
        self.summary = response.message.content.strip()

    def messages(self) -> list[Message]:
        head: list[Message] = [self.system]
        if self.summary:
            head.append(SystemMessage(f"Summary of the conversation so far: {self.summary}"))
        return [*head, *self._recent]
