"""The agent: a model calling tools in a loop, written with the State pattern.

At any moment the run is in exactly one situation, and each situation is a card: ``_CallingModel``
(waiting on the manager), ``_RunningTools`` (running the errands on their slips), ``_Finished``
(hung up). Each card does its situation's work and hands back the next card, so the loop never asks
"where am I?". The folder (``memory``) only grows; the card in hand flips back and forth.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import StepLimitReached
from .llms.base import LLM
from .memory import KeepAll, Memory
from .messages import AssistantMessage, Message, UserMessage
from .observers.announce import announce
from .observers.base import Observer
from .tools import ToolRegistry, error_slip, fix_slip, open_calls, shared_id_error, shared_ids, unrun_slip

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _CallingModel:
    step: int

    def run(self, agent: Agent) -> _RunningTools | _Finished:
        if self.step > agent.max_steps:
            return _Finished(None, "step limit", self.step - 1)
        agent._announce("on_step_start", self.step)
        agent._why = "model failed"  # if generate raises, this is how the run ended
        response = agent.llm.generate(agent.memory.messages(), agent._menu)
        agent._why = None
        agent._file(response.message, "on_model_reply", response)
        if response.message.tool_calls:
            return _RunningTools(response.message, self.step)
        return _Finished(response.message.content, "answered", self.step)


@dataclass(frozen=True)
class _RunningTools:
    message: AssistantMessage
    step: int

    def run(self, agent: Agent) -> _CallingModel:
        calls = self.message.tool_calls
        shared, done = shared_ids(calls), set()
        for call in calls:
            if call.id in done:  # one answer per ticket number: the first call with it took it
                continue
            done.add(call.id)
            agent._announce("on_tool_call", call)
            if call.id in shared:  # two slips, one ticket: neither runs, the model can renumber them
                result = fix_slip(call, shared_id_error(call, shared[call.id]))
            else:
                result = self._answer(agent, call)
            agent._file(result, "on_tool_return", result)
        return _CallingModel(self.step + 1)

    @staticmethod
    def _answer(agent: Agent, call) -> Any:
        try:  # a badly filled-in slip is answered with what to fix: the model can correct it
            return agent.registry.answer(call)
        # Not the model's to fix: answer this slip, let the clean-up answer the rest, then stop.
        # BaseException too: a learner's Ctrl-C in a slow tool must not leave a slip unanswered.
        except BaseException as e:
            agent._error, agent._why, agent._unrun = e, "tool failed", f"{call.name} failed before it"
            agent._announce("on_tool_error", call, e)
            failed = error_slip(call, f"tool failed: {e}")
            agent._file(failed, "on_tool_return", failed)
            raise


@dataclass(frozen=True)
class _Finished:
    answer: str | None
    reason: str
    steps: int

    def run(self, agent: Agent) -> None:
        agent._finish(self.answer, self.reason)
        if self.answer is None:  # never a fake answer: the caller can't tell "I gave up" from a reply
            raise StepLimitReached(f"no answer after {self.steps} model calls (max_steps={agent.max_steps})",
                                   steps=self.steps)


class Agent:
    """A Step that answers ``{"question": ...}`` with ``{"answer": ...}`` by calling tools in a loop.

    ``max_steps`` counts model calls. ``memory=None`` builds a fresh ``KeepAll`` for this agent: a
    default built in the signature would be one folder shared by every agent. Observers hear every
    announcement and cannot change the run; with ``strict=True`` a failing observer stops it instead.

    Whichever way a run ends (an answer, the step limit, a failing tool, model, listener or memory,
    Ctrl-C), every slip in the folder has exactly one answer, every message in the folder was
    announced once, the error raised is the one that stopped the run, and the agent can run again
    (its memory carries the conversation on: a new question is read with the folder so far; build a
    new ``Agent`` for a fresh folder).
    """

    def __init__(self, llm: LLM, registry: ToolRegistry, system_prompt: str, *, memory: Memory | None = None,
                 observers: Iterable[Observer] = (), max_steps: int = 10, strict: bool = False) -> None:
        if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1:
            raise ValueError(f"max_steps counts model calls and must be an int >= 1, got {max_steps!r}")
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt
        self.memory: Memory = memory if memory is not None else KeepAll(system_prompt)
        self.observers = tuple(observers)  # a tuple: nobody can sign up mid-run
        self.max_steps, self.strict = max_steps, strict
        self.cards: list[tuple[str, int]] = []  # (card, folder size) at each pick-up, for the last run
        self._reset()

    def _reset(self) -> None:
        self._error: BaseException | None = None  # the error stopping the run, once there is one
        self._why: str | None = None  # the finish reason to announce if the run stops on an error
        self._unrun = "the run stopped"  # why slips still open when it stops never ran
        self._finished = False

    def _announce(self, hook: str, *args: Any) -> None:
        if self.observers:  # an empty platform costs nothing: no call per announcement
            # Once an error stops the run, a strict listener's failure is logged, not raised: the
            # caller must see the error that stopped the run, and the clean-up must finish.
            announce(self.observers, hook, *args, strict=self.strict, stopping=self._error is not None)

    def _file(self, message: Message, hook: str, *args: Any) -> None:
        """The one way into the folder: add ``message``, then announce it (each message exactly once).

        With no ``args`` the announcement carries the whole folder (how a run's start is announced).
        """
        try:
            self.memory.add(message)
        except Exception:
            folder = self.memory.messages()
            if folder and folder[-1] is message:  # added before the memory failed: still announce it
                self._announce(hook, *(args or (tuple(folder),)))
            if self._error is None:
                raise
            logger.warning("memory failed to add %r while the run was stopping", message, exc_info=True)
            return
        if self.observers:
            self._announce(hook, *(args or (tuple(self.memory.messages()),)))

    def _finish(self, answer: str | None, reason: str) -> None:
        self._finished = True
        self._announce("on_finish", answer, reason)

    def _stop(self, error: BaseException) -> None:
        """The clean-up on every way out by error: answer the slips still open, then say it finished."""
        self._error = self._error or error
        reason = self._unrun if self._why == "tool failed" else f"the run stopped ({type(error).__name__})"
        for _ in range(2):  # a memory that failed once may take the answer on a second try
            for call in open_calls(self.memory.messages()):
                answer = unrun_slip(call, reason)
                self._file(answer, "on_tool_return", answer)
        if not self._finished:
            self._finish(None, self._why or "stopped")

    def run(self, state: Mapping[str, Any]) -> dict[str, Any]:
        question = state.get("question") if isinstance(state, Mapping) else None
        if not isinstance(question, str) or not question.strip():
            raise ValueError(f'Agent.run takes {{"question": "<text>"}}, got {state!r}')
        self._reset()
        self.cards = []
        self._menu = self.registry.tools  # one fresh copy of the menu per run
        card: Any = _CallingModel(step=1)
        try:
            self._file(UserMessage(question), "on_run_start")  # announced with the folder it starts
            while card is not None:  # do what the card says; it hands back the next one
                self.cards.append((type(card).__name__.lstrip("_"), len(self.memory.messages())))
                last, card = card, card.run(self)
        except BaseException as e:
            self._stop(e)
            raise
        return {"answer": last.answer}

    def __repr__(self) -> str:
        return f"Agent(llm={self.llm!r}, tools={self.registry.names}, max_steps={self.max_steps})"
