"""Notebook 10's exercise 10.3: ``summary_points(history, keep_last, trigger)``, when ``Summarise`` condenses.

The learner walks a history with ``Summarise``'s rule; the check compares the walk with the package's own
``Summarise`` fed the same messages, on the notebook's conversation and on ones it never shows, for several
``keep_last`` and ``trigger``. A wrong walk is compared with the likely slips (``>=`` for ``>``, no move back, a
condensation right after a reply asking for tools, counting every message) so the hint names the cause.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import combinations
from typing import Any

from mingraph_lite.memory import KeepAll, Summarise
from mingraph_lite.messages import AssistantMessage, Message, ToolMessage, UserMessage
from mingraph_lite.course.scripts import SYSTEM_PROMPT
from mingraph_lite.llms.scripted import ScriptedLLM
from ..conversation import QUESTIONS, run_conversation
from . import Hint, exercise
from .borrowing import borrowed
from .nb10 import histories

SETTINGS = ((4, 8), (4, 12), (2, 5), (1, 3), (3, 6), (2, 9))  # (keep_last, trigger)


def _truth(history: Sequence[Message], keep_last: int, trigger: int) -> list[int]:
    """The question number at each of the package's Summarise condensations, fed ``history`` message by message."""
    condense = ScriptedLLM([lambda messages, tools: "Earlier messages, condensed."] * len(history),
                           name="scripted: summariser")
    memory, points, asked = Summarise(SYSTEM_PROMPT, condense, keep_last=keep_last, trigger=trigger), [], 0
    for message in history:
        asked += isinstance(message, UserMessage)
        before = len(memory.summary_responses)
        memory.add(message)
        points += [asked] * (len(memory.summary_responses) - before)
    return points


def _walk(history: Sequence[Message], keep_last: int, trigger: int, *, more: int = 1, back: bool = True,
          waits: bool = True, counts_all: bool = False, empty: bool = False) -> list[int]:
    """A walk of the rule with one slip switched on: the likely wrong answers, to say which one a learner made."""
    recent, points, asked, seen = 0, [], 0, []
    for message in history:
        asked += isinstance(message, UserMessage)
        seen.append(message)
        recent += 1
        waiting = waits and isinstance(message, AssistantMessage) and bool(message.tool_calls)
        if recent >= trigger + more and not waiting:
            cut = len(seen) - keep_last
            while back and cut > len(seen) - recent and isinstance(seen[cut], ToolMessage):
                cut -= 1
            if cut > len(seen) - recent or empty:
                points.append(asked)
                recent = recent if counts_all else len(seen) - cut
    return points


SLIPS: tuple[tuple[dict, str], ...] = (
    ({"more": 0}, "it condenses when there are MORE than trigger unsummarised messages, not trigger or more"),
    ({"back": False}, "the cut moves back past answer slips to the reply that asked for them, so after such a "
                      "condensation more than keep_last messages stay unsummarised: count on from those"),
    ({"waits": False}, "it never condenses right after a reply that asks for tools (its answers are not in yet): "
                       "it waits for the next message"),
    ({"counts_all": True}, "after a condensation the count starts again from the messages kept (keep_last, or a "
                           "few more), not from every message so far"),
    ({"empty": True}, "when the cut, moved back, lands where the unsummarised messages start, nothing older is "
                      "left to condense, and the summariser does not run"),
)


def _the_conversation() -> list[Message]:
    memory = KeepAll(SYSTEM_PROMPT)
    run_conversation(memory, questions=QUESTIONS)
    return list(memory.history)


@contextmanager
def _condensations_watched(ran: list[str]) -> Iterator[None]:
    """While the learner's walk runs, note any condensation of the package's own Summarise."""
    original = Summarise._condense

    def watched(self: Any) -> None:
        ran.append("Summarise")
        original(self)

    Summarise._condense = watched  # type: ignore[method-assign]
    try:
        yield
    finally:
        Summarise._condense = original  # type: ignore[method-assign]


def _cases() -> list[tuple[str, list[Message], int, int]]:
    shown = [("the notebook's conversation", _the_conversation())]
    unseen = [(f"a conversation you have not seen (#{k})", h) for k, h in enumerate(histories(), 1)]
    return [(name, history, keep, trigger) for name, history in shown + unseen for keep, trigger in SETTINGS]


def _diagnose(answer: Any, case: tuple[str, list[Message], int, int], truth: list[int]) -> str:
    name, history, keep, trigger = case
    start = f"on {name}, keep_last={keep}, trigger={trigger}, your walk gives {answer}, the package {truth}: "
    for size in range(1, len(SLIPS) + 1):  # one slip first, then two at once (the rule's core with no exception)...
        for slips in combinations(SLIPS, size):
            if _walk(history, keep, trigger, **{k: v for slip, _ in slips for k, v in slip.items()}) == list(answer):
                return start + "; and ".join(why for _, why in slips)
    if answer and truth and [q - 1 for q in truth] == list(answer):
        return start + "question numbers count from 1: the first user message is question 1"
    return (start + "after every message added, count the unsummarised ones; with more than trigger, and the "
            "message not a reply asking for tools, cut all but the last keep_last, moved back past answer slips")


@exercise("10.3", kind="code", title="summary_points: when does Summarise condense?")
def summary_points(walk: Callable[..., Any]) -> str:
    if not callable(walk):
        raise Hint("pass the function itself, summary_points, not what it returns")
    used = borrowed(walk, {"Summarise", "safe_start", "run_conversation", "_condense"})
    if used:
        raise Hint(f"your walk calls the package's {used}: that is the package finding the cut (or doing the "
                   "counting) for you. Move the cut back past answer slips yourself")
    ran: list[str] = []
    for case in _cases():
        _, history, keep, trigger = case
        with _condensations_watched(ran):
            answer = walk(list(history), keep, trigger)
        if ran:
            raise Hint("while your walk ran, the package's Summarise condensed: it is doing the counting for you")
        if not isinstance(answer, list | tuple) or not all(isinstance(q, int) and not isinstance(q, bool)
                                                            for q in answer):
            raise Hint(f"return a list of whole question numbers, one per condensation, not {answer!r}")
        truth = _truth(history, keep, trigger)
        if list(answer) != truth:
            raise Hint(_diagnose(answer, case, truth))
    return (f"your walk agrees with Summarise on {len(_cases())} histories and settings, "
            "three conversations among them you had not seen")
