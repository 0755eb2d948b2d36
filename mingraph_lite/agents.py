"""The agent: a model calling tools in a loop, in the State pattern: each situation is a class that returns the next."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import StepLimitReached
from .llms.base import LLM, LLMResponse
from .memory import KeepAll, Memory
from .messages import AssistantMessage, Message, ToolCall, ToolMessage, UserMessage
from .observers.announce import announce
from .observers.base import Observer
from .tools import ToolRegistry, answer_once, error_answer, open_calls, unrun_answer

logger = logging.getLogger(__name__)


@dataclass
class _Run:
    """What a situation may use: the memory, the tool specs handed to the model, the model, the registry."""

    memory: Memory
    tools: list[dict[str, Any]]
    llm: LLM
    registry: ToolRegistry
    max_steps: int
    announce: Callable[..., None]

    def add(self, message: Message, hook: str, *args: Any) -> None:
        """The one way into memory: add ``message``, announce it once, then any model call memory made."""
        replies: Sequence[LLMResponse] = getattr(self.memory, "summary_responses", ())  # Summarise's own calls
        made, error = len(replies), None
        try:
            self.memory.add(message)
        except Exception as e:
            messages = self.memory.messages()
            if not messages or messages[-1] is not message:  # not added: nothing to announce
                raise
            error = e  # added before the memory failed: announced all the same, then raised
        self.announce(hook, *(args or (tuple(self.memory.messages()),)))  # no args: a run's start
        for response in replies[made:]:  # its own event: not a model reply of the run
            self.announce("on_memory_call", response)
        if error is not None:
            raise error


class _Stopped(BaseException):
    """A run that cannot go on: the error, the finish reason, why open calls never ran, the failed call."""

    def __init__(self, error: BaseException, reason: str, unrun: str | None = None, failed: ToolCall | None = None):
        super().__init__(reason)
        self.error, self.reason, self.failed = error, reason, failed
        self.unrun = unrun or f"the run stopped ({type(error).__name__})"


@dataclass(frozen=True)
class _CallingModel:
    model_call: int  # 1-based: the number ``max_steps`` bounds

    def run(self, run: _Run) -> _RunningTools | _Finished:
        if self.model_call > run.max_steps:
            return _Finished(None, "step limit", self.model_call - 1)
        run.announce("on_step_start", self.model_call)
        try:
            response = run.llm.generate(run.memory.messages(), run.tools)
        except BaseException as e:
            raise _Stopped(e, "model failed") from None
        run.add(response.message, "on_model_reply", response)
        if response.message.tool_calls:
            return _RunningTools(response.message, self.model_call)
        return _Finished(response.message.content, "answered", self.model_call)


@dataclass(frozen=True)
class _RunningTools:
    message: AssistantMessage
    model_call: int

    def run(self, run: _Run) -> _CallingModel:
        for call, refused in answer_once(self.message.tool_calls):
            run.announce("on_tool_call", call)
            try:  # a badly filled-in call is answered with what to fix: the model can correct it
                result = refused or run.registry.answer(call)
            except BaseException as e:  # not the model's to fix; Ctrl-C in a slow tool too
                raise _Stopped(e, "tool failed", f"{call.name} failed before it", failed=call) from None
            run.add(result, "on_tool_return", result)
        return _CallingModel(self.model_call + 1)


@dataclass(frozen=True)
class _Finished:
    answer: str | None
    reason: str
    model_calls: int

    def run(self, run: _Run) -> None:
        run.announce("on_finish", self.answer, self.reason)
        if self.answer is None:  # never a fake answer: the caller can't tell "I gave up" from a reply
            raise StepLimitReached(f"no answer after {self.model_calls} model calls (max_steps={run.max_steps})",
                                   steps=self.model_calls)


class Agent:
    """A Step that answers ``{"question": ...}`` with ``{"answer": ...}`` by calling tools in a loop; ``max_steps``
    counts model calls. However a run ends, every tool call in memory has one answer."""

    def __init__(self, llm: LLM, registry: ToolRegistry, system_prompt: str, *, memory: Memory | None = None,
                 observers: Iterable[Observer] = (), max_steps: int = 10, strict: bool = False) -> None:
        if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1:
            raise ValueError(f"max_steps counts model calls and must be an int >= 1, got {max_steps!r}")
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt
        self.memory: Memory = memory if memory is not None else KeepAll(system_prompt)
        self.observers = tuple(observers)  # a tuple: nobody can sign up mid-run
        self.max_steps, self.strict = max_steps, strict
        self.cards: list[tuple[str, int]] = []  # (situation, message count) as each began, for the last run
        self._stopping = False

    def _announce(self, hook: str, *args: Any) -> None:
        if self.observers:
            # While stopping, a strict listener's failure is only logged: the run's own error is the one raised.
            announce(self.observers, hook, *args, strict=self.strict, stopping=self._stopping)

    def run(self, state: Mapping[str, Any]) -> dict[str, Any]:
        question = state.get("question") if isinstance(state, Mapping) else None
        if not isinstance(question, str) or not question.strip():
            raise ValueError(f'Agent.run takes {{"question": "<text>"}}, got {state!r}')
        self.cards, self._stopping = [], False
        run = _Run(self.memory, self.registry.tools, self.llm, self.registry, self.max_steps, self._announce)
        situation: Any = _CallingModel(1)
        try:
            run.add(UserMessage(question), "on_run_start")
            while situation is not None:  # each situation does its work and returns the next one
                self.cards.append((type(situation).__name__.lstrip("_"), len(self.memory.messages())))
                last, situation = situation, situation.run(run)
        except BaseException as e:
            stop = e if isinstance(e, _Stopped) else _Stopped(e, "stopped")
            self._stop(run, stop, finished=isinstance(situation, _Finished))
        else:
            return {"answer": last.answer}
        raise stop.error  # outside the handler, so the traceback is the error's own

    def _stop(self, run: _Run, stop: _Stopped, finished: bool) -> None:
        """The clean-up on every way out by error: answer every open call, then announce the finish."""
        self._stopping = True
        if stop.failed is not None:
            run.announce("on_tool_error", stop.failed, stop.error)
            self._add_answer(run, error_answer(stop.failed, f"tool failed: {stop.error}"))
        for _ in range(2):  # a memory that failed once may take the answer on a second try
            for call in open_calls(self.memory.messages()):
                self._add_answer(run, unrun_answer(call, stop.unrun))
        if not finished:
            run.announce("on_finish", None, stop.reason)

    @staticmethod
    def _add_answer(run: _Run, answer: ToolMessage) -> None:
        try:
            run.add(answer, "on_tool_return", answer)
        except Exception:  # the run already stops on its own error, the one the caller must see
            logger.warning("memory failed to add %r while the run was stopping", answer, exc_info=True)

    def __repr__(self) -> str:
        return f"Agent(llm={self.llm!r}, tools={self.registry.names}, max_steps={self.max_steps})"
