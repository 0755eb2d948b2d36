"""The agent: a model calling tools in a loop, written with the State pattern.

At any moment the run is in exactly one situation, and each situation is a card: ``_CallingModel``
(waiting on the manager), ``_RunningTools`` (running the errands on their slips), ``_Finished``
(hung up). Each card does its situation's work and hands back the next card, so the loop never asks
"where am I?". The folder (``memory``) only grows; the card in hand flips back and forth.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import StepLimitReached
from .llms.base import LLM
from .memory import KeepAll, Memory
from .messages import AssistantMessage, ToolMessage, UserMessage
from .observers.announce import announce
from .observers.base import Observer
from .tools import ToolRegistry, error_slip, failed_slips


@dataclass(frozen=True)
class _CallingModel:
    step: int

    def run(self, agent: Agent) -> _RunningTools | _Finished:
        if self.step > agent.max_steps:
            return _Finished(None, "step limit", self.step - 1)
        agent._announce("on_step_start", self.step)
        try:
            response = agent.llm.generate(agent.memory.messages(), agent._menu)
        except Exception:
            agent._announce("on_finish", None, "model failed")
            raise
        agent.memory.add(response.message)
        agent._announce("on_model_reply", response)
        if response.message.tool_calls:
            return _RunningTools(response.message, self.step)
        return _Finished(response.message.content, "answered", self.step)


@dataclass(frozen=True)
class _RunningTools:
    message: AssistantMessage
    step: int

    def run(self, agent: Agent) -> _CallingModel:
        calls = self.message.tool_calls
        for i, call in enumerate(calls):
            agent._announce("on_tool_call", call)
            try:  # a badly filled-in slip is answered with what to fix: the model can correct it
                result = agent.registry.answer(call)
            # Not the model's to fix: answer every slip anyway, then stop. BaseException too: a learner's
            # Ctrl-C in a slow tool must not leave the folder with a slip no provider will accept.
            except BaseException as e:
                agent._announce("on_tool_error", call, e)
                for answer in failed_slips(calls, i, e):
                    agent.memory.add(answer)
                    agent._announce("on_tool_return", answer)
                agent._announce("on_finish", None, "tool failed")
                raise
            agent.memory.add(result)
            agent._announce("on_tool_return", result)
        return _CallingModel(self.step + 1)


@dataclass(frozen=True)
class _Finished:
    answer: str | None
    reason: str
    steps: int

    def run(self, agent: Agent) -> None:
        agent._announce("on_finish", self.answer, self.reason)
        if self.answer is None:  # never a fake answer: the caller can't tell "I gave up" from a reply
            raise StepLimitReached(f"no answer after {self.steps} model calls (max_steps={agent.max_steps})",
                                   steps=self.steps)


def _answer_open_slips(memory: Memory, error: BaseException) -> None:
    """Answer any slip left without an answer when a run stops mid-round (e.g. a strict listener failed).

    The folder outlives the run, and providers reject a folder with an unanswered slip.
    """
    messages = memory.messages()
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, AssistantMessage) and message.tool_calls:
            answered = {m.tool_call_id for m in messages[index + 1:] if isinstance(m, ToolMessage)}
            for call in message.tool_calls:
                if call.id not in answered:
                    memory.add(error_slip(call, f"not run, because the run stopped: {type(error).__name__}"))
            return


class Agent:
    """A Step that answers ``{"question": ...}`` with ``{"answer": ...}`` by calling tools in a loop.

    ``max_steps`` counts model calls. ``memory=None`` builds a fresh ``KeepAll`` for this agent: a
    default built in the signature would be one folder shared by every agent. Observers hear every
    announcement and cannot change the run; with ``strict=True`` a failing observer stops it instead.
    """

    def __init__(self, llm: LLM, registry: ToolRegistry, system_prompt: str, *, memory: Memory | None = None,
                 observers: Iterable[Observer] = (), max_steps: int = 10, strict: bool = False) -> None:
        if not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps counts model calls and must be an int >= 1, got {max_steps!r}")
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt
        self.memory: Memory = memory if memory is not None else KeepAll(system_prompt)
        self.observers = tuple(observers)  # a tuple: nobody can sign up mid-run
        self.max_steps, self.strict = max_steps, strict
        self.cards: list[tuple[str, int]] = []  # (card, folder size) at each pick-up, for the last run

    def _announce(self, hook: str, *args: Any) -> None:
        if self.observers:  # an empty platform costs nothing: no call per announcement
            announce(self.observers, hook, *args, strict=self.strict)

    def run(self, state: Mapping[str, Any]) -> dict[str, Any]:
        question = state.get("question") if isinstance(state, Mapping) else None
        if not isinstance(question, str) or not question.strip():
            raise ValueError(f'Agent.run takes {{"question": "<text>"}}, got {state!r}')
        self.memory.add(UserMessage(question))
        self._announce("on_run_start", tuple(self.memory.messages()))
        self.cards = []
        self._menu = self.registry.tools  # one fresh copy of the menu per run
        card = _CallingModel(step=1)
        try:
            while card is not None:  # do what the card says; it hands back the next one
                self.cards.append((type(card).__name__.lstrip("_"), len(self.memory.messages())))
                last, card = card, card.run(self)
        except BaseException as e:
            _answer_open_slips(self.memory, e)
            raise
        return {"answer": last.answer}

    def __repr__(self) -> str:
        return f"Agent(llm={self.llm!r}, tools={self.registry.names}, max_steps={self.max_steps})"
