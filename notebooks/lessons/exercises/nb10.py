"""Notebook 10's checks: a window that keeps tool exchanges whole (10.1), how wide a window must be (10.2), and the
checked questions. 10.3 (a window trimmed by a token budget) is in ``nb10_budget.py``.

Both exercises are run on histories the notebook never shows (other tools, one to three slips per reply, every
window size, other question lists); the questions are checked against a fresh run of the conversation.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from mingraph_lite import memory as memory_module
from mingraph_lite.errors import ReplayMismatch
from mingraph_lite.memory import KeepAll, LastN, Summarise, safe_start
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.course.scripts import SYSTEM_PROMPT
from ..conversation import QUESTIONS, real_trace, replay_conversation, run_conversation, summariser_llm
from . import Hint, exercise
from ..calls import names_read
from .borrowing import borrowed


def _exchange(tag: str, slips: Sequence[tuple[str, dict, str]]) -> list[Message]:
    """One assistant reply asking for ``slips`` and their answer slips, in order."""
    calls = tuple(ToolCall(f"{tag}_{i}", name, args) for i, (name, args, _) in enumerate(slips, 1))
    answers = [ToolMessage(answer, tool_call_id=call.id, name=call.name)
               for call, (_, _, answer) in zip(calls, slips, strict=True)]
    return [AssistantMessage("", tool_calls=calls), *answers]


def histories() -> list[list[Message]]:
    """Conversations the notebook never shows: clocks, currencies and flights, one to three slips a reply."""
    first = [UserMessage("What time is it in Lima and in Nairobi?"),
             *_exchange("t1", [("get_time", {"city": "Lima"}, "09:10"), ("get_time", {"city": "Nairobi"}, "17:10")]),
             AssistantMessage("Lima 09:10, Nairobi 17:10."),
             UserMessage("How much is 40 euros in yen, rupees and pesos?"),
             *_exchange("c1", [("convert_currency", {"amount": 40, "to": c}, v)
                               for c, v in (("JPY", "6480"), ("INR", "3600"), ("MXN", "780"))]),
             AssistantMessage("6480 yen, 3600 rupees, 780 pesos."),
             UserMessage("Is flight QZ 7 on time?"),
             *_exchange("f1", [("lookup_flight", {"code": "QZ7"}, "delayed 20 min")]),
             *_exchange("f2", [("lookup_gate", {"code": "QZ7"}, "B12")]),
             AssistantMessage("Delayed 20 minutes, gate B12.")]
    waiting = [UserMessage("Book a taxi."), *_exchange("x1", [("book_taxi", {"to": "airport"}, "booked")]),
               UserMessage("And a hotel?"), AssistantMessage("", tool_calls=(ToolCall("h1_1", "book_hotel", {}),))]
    return [first, waiting, first[:9]]


def _ids(messages: Sequence[Message]) -> tuple[set[str], set[str]]:
    asked = {c.id for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls}
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    return asked, answered


def _shortest(history: list[Message], n: int) -> int:
    """How many messages the smallest whole-exchange window of at least ``n`` holds."""
    start = max(0, len(history) - n)
    while start > 0 and isinstance(history[start], ToolMessage):
        start -= 1
    return len(history) - start


_TOLD: set[str] = set()  # the kinds of mistake already shown once: the how comes with the second


def _said(kind: str, case: str, how: str) -> str:
    """The failing case first; the way to fix it only when the same mistake comes back."""
    told, _ = kind in _TOLD, _TOLD.add(kind)
    return f"{case}. Same mistake again, so the how: {how}" if told else f"{case}. Look at where your start fell"


def _labels(messages: Sequence[Message]) -> str:
    def one(m: Message) -> str:
        if isinstance(m, ToolMessage):
            return f"slip[{m.tool_call_id}]"
        if isinstance(m, AssistantMessage) and m.tool_calls:
            return "asks[" + ",".join(c.id for c in m.tool_calls) + "]"
        return type(m).__name__.removesuffix("Message").lower()
    return ", ".join(one(m) for m in messages)


def _whole_exchanges(kept: list[Message], history: list[Message], n: int) -> None:
    asked_all, answered_all = _ids(history)
    asked, answered = _ids(kept)
    orphans = sorted(answered - asked)
    seen = f"with n={n}, after the history ({_labels(history[-n - 3:])}) you kept ({_labels(kept)})"
    if orphans and len(history) < n:
        raise Hint(_said("short", f"{seen}, only {len(history)} messages so far: slip[{orphans[0]}] is kept without "
                         "the assistant message that asked for it", "with fewer messages than n, keep them all (a "
                         "start below 0 counts from the end in Python, so clamp it at 0)"))
    cut = len(history) - len(kept)
    if orphans and kept and 0 < cut < len(history) - n and isinstance(kept[0], ToolMessage):  # moved back, too little
        raise Hint(_said("one step", f"{seen}: you moved the start back, and it still sits on slip[{orphans[0]}] of "
                         "a reply that asked for more than one tool", "keep moving the start back WHILE it sits on "
                         "an answer slip, not just one step"))
    if orphans:
        raise Hint(_said("orphan", f"{seen}: slip[{orphans[0]}] is kept but not the assistant message that asked "
                         "for it", "move the start back to the message that asked"))
    unanswered = sorted((asked & answered_all) - answered)
    if unanswered:
        raise Hint(f"{seen}: the assistant message asking for [{unanswered[0]}] is kept but not its answer slip: an "
                   "exchange stays whole, slips and answers together")


def _shape(kept: list[Message], history: list[Message], n: int) -> None:
    if kept != history[len(history) - len(kept):]:
        raise Hint(f"with n={n}, the window is not the most recent messages in order: keep a slice from some "
                   "start to the end, skipping nothing")
    seen = f"with n={n}, after the history ({_labels(history[-n - 3:])}) you kept ({_labels(kept)})"
    if len(kept) < min(n, len(history)):
        raise Hint(_said("forward", f"{seen}: {len(kept)} messages, fewer than n", "when the start falls inside "
                         "an exchange, move it back (earlier), never forward"))
    if len(kept) > _shortest(history, n):
        raise Hint(_said("too far", f"{seen}: {len(kept)} messages where {_shortest(history, n)} keep every exchange "
                         "whole", "move the start back only as far as needed"))


PROMPT = "You help travellers."


def _read_after_each_message(cls: type) -> list[tuple[list[Message], int, list[Message]]]:
    """Feed every history to a fresh memory, message by message; keep what it would read the model each time."""
    seen = []
    for history in histories():
        for n in range(1, len(history) + 3):
            memory = cls(PROMPT, n)
            for count, message in enumerate(history, 1):
                memory.add(message)
                read = list(memory.messages())
                if not read or not isinstance(read[0], SystemMessage) or read[0].content != PROMPT:
                    raise Hint("messages() must start with the system prompt (a SystemMessage), then the window")
                seen.append((history[:count], n, read[1:]))
    return seen


def _leans_on(cls: type) -> bool:
    """Whether a fresh window keeps one of the package's memories inside it and hands the work to it."""
    window = cls(PROMPT, 2)
    return any(isinstance(value, (KeepAll, LastN, Summarise)) for value in getattr(window, "__dict__", {}).values())


@contextmanager
def _package_reads_watched(ran: list[str]) -> Iterator[None]:
    """While the check runs, note every time one of the package's memories reads out its folder, and every call of
    ``memory.safe_start`` (however it was reached: a plain, aliased or hidden import all look it up here)."""
    originals = {klass: vars(klass)["messages"] for klass in (KeepAll, LastN, Summarise)}

    def watched(klass: type) -> Any:
        def messages(self: Any) -> list[Message]:
            ran.append(f"{klass.__name__}.messages()")
            return originals[klass](self)
        return messages

    def watched_start(history: Sequence[Message], start: int) -> int:
        ran.append("memory.safe_start()")
        return safe_start(history, start)

    try:
        for klass in originals:
            klass.messages = watched(klass)  # type: ignore[method-assign]
        memory_module.safe_start = watched_start  # type: ignore[assignment]
        yield
    finally:
        memory_module.safe_start = safe_start  # type: ignore[assignment]
        for klass, original in originals.items():
            klass.messages = original  # type: ignore[method-assign]


HANDS_OVER = ("that hands the work to the package's LastN (or one of the package's memories): keep your own history "
              "and write messages() yourself")


def hands_over(cls: type) -> bool:
    """Whether the class is one of the package's cutting memories (10.1 and 10.3 alike: a ``KeepAll`` subclass that
    writes its own messages() is accepted, and the run-time watch catches one that calls the package's)."""
    return issubclass(cls, (LastN, Summarise))


def _calls_safe_start(cls: type) -> bool:
    """Whether a method of the class reaches ``memory.safe_start``, the package's own answer to this exercise."""
    for klass in cls.__mro__[:-1]:
        for value in vars(klass).values():
            code = getattr(value, "__code__", None)
            if code is None:
                continue
            bound = getattr(value, "__globals__", {})
            if "safe_start" in names_read(code) or any(bound.get(n) is safe_start for n in names_read(code)):
                return True
    return False


@exercise("10.1", kind="code", title="a memory window that never separates a tool call from its answers")
def safe_window(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (SafeWindow), not an instance of it")
    if hands_over(cls) or _leans_on(cls):
        raise Hint(HANDS_OVER)
    if _calls_safe_start(cls):
        raise Hint("that hands the cut to the package's memory.safe_start, which is this exercise's answer "
                   "already written: moving the start back past answer slips is the part to write yourself")
    ran: list[str] = []
    try:
        with _package_reads_watched(ran):
            seen = _read_after_each_message(cls)
    except Hint:
        if not ran:
            raise
        seen = []
    if ran:
        raise Hint(f"while your window was read, the package's {ran[0]} ran: the package is choosing the "
                   "window for you (however it was reached). Write the cut on your own history")
    # First the rule of the exercise on every window, then the window's shape: the hint names the worse fault.
    for history, n, kept in seen:
        _whole_exchanges(kept, history, n)
    for history, n, kept in seen:
        _shape(kept, history, n)
    return (f"every exchange stayed whole in all {len(seen)} windows, read after each message of conversations "
            "you had not seen")


def _conversation(questions: Sequence[str]) -> list[Message]:
    memory = KeepAll(SYSTEM_PROMPT)
    run_conversation(memory, questions=questions)
    return list(memory.history)


def _reads_first_answer(history: list[Message], n: int) -> bool:
    """Whether LastN(n), at the last model call (all but the final answer added), still reads the first answer slip."""
    first = next(m for m in history if isinstance(m, ToolMessage))
    window = LastN(SYSTEM_PROMPT, n)
    for message in history[:-1]:
        window.add(message)
    return any(m is first for m in window.messages())


def _smallest_hint(name: str, got: int, truth: int, history: list[Message]) -> Hint:
    first = next(i for i, m in enumerate(history) if isinstance(m, ToolMessage))
    if got == len(history) - 1:
        return Hint(f"on {name} your n={got} reaches back to the first question; the first answer slip comes "
                    "after it, so a smaller window still reads it")
    if got == len(history) - first:  # counting the final answer and counting the asking reply give this same n
        return Hint(f"on {name} your n={got} is one too many. Either it counts the final answer, which is added "
                    "after the last model call, or it counts the reply that asked for the first slip, which a "
                    "window starting on that slip reaches by moving back by itself: count neither")
    if got > truth:
        return Hint(f"on {name} your n={got} works, but {truth} works too: a window whose start lands on a later "
                    "answer slip of the same reply moves back to that reply, so it still reads the first slip")
    return Hint(f"on {name} with n={got} the last call no longer reads the first answer slip: the window starts "
                "after it, on a message that is not an answer slip, so it does not move back")


def smallest_cases() -> list[tuple[str, list[Message]]]:
    """10.2's conversations. Each ends with its final answer, as the exercise says, so an answer that drops the last
    message always and one that drops it only when it is a final answer both read the same history."""
    unseen = [_conversation(QUESTIONS[:5]), _conversation(QUESTIONS[3:9]), histories()[0], histories()[0][5:]]
    return [("the notebook's conversation", _conversation(QUESTIONS)),
            *((f"a conversation you have not seen (#{k})", h) for k, h in enumerate(unseen, 1))]


@exercise("10.2", kind="code", title="smallest_n(history): how wide must the window be?")
def smallest_window(smallest_n: Any) -> str:
    if not callable(smallest_n):
        raise Hint("pass the function itself, smallest_n, not a number")
    used = borrowed(smallest_n, {"LastN", "KeepAll", "Summarise", "run_conversation", "safe_start"})
    if used:
        raise Hint(f"your function calls the package's {used}: that tries the package's windows. Work it out from "
                   "the history itself, or try windows with a rule you write")
    cases = smallest_cases()
    for name, history in cases:
        ran: list[str] = []
        with _package_reads_watched(ran):
            got = smallest_n(list(history))
        if ran:
            raise Hint(f"while your function ran, the package's {ran[0]} ran: a package memory "
                       "is choosing for you. Work it out from the history, or try windows with a rule you write")
        if not isinstance(got, int) or isinstance(got, bool):
            raise Hint(f"return a whole number of messages, not {got!r}")
        truth = next(n for n in range(1, len(history) + 1) if _reads_first_answer(history, n))
        if got != truth:
            raise _smallest_hint(name, got, truth, history)
    return (f"right on {len(cases)} conversations: the last call reads every message but the final answer, and a "
            "window may start on any answer slip of the first reply, since LastN moves its start back to the reply")


# Questions ---------------------------------------------------------------------------------------------------------

def _window_after_four(n: int) -> int:
    """How many messages LastN(n) reads after the system prompt, on the folder after the first four questions."""
    folder = KeepAll(SYSTEM_PROMPT)
    run_conversation(folder, questions=QUESTIONS[:4])
    window = LastN(SYSTEM_PROMPT, n)
    for message in folder.history:
        window.add(message)
    return len(window.messages()) - 1


@exercise("10.Q2", kind="reasoning", title="how much does LastN(7) read?")
def window_of_seven(answer: Any) -> str:
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of messages (after the system prompt)")
    truth = _window_after_four(7)
    if answer == 7:
        raise Hint("7 would start the window on an answer slip: the start moves back to the assistant message that "
                   "asked for it, so the window holds more than n")
    if answer != truth:
        raise Hint(f"not {answer}: walk the folder's last messages back from the end, 7 of them, then move the start "
                   "back while it sits on an answer slip")
    return f"right: {truth} messages, one more than n, because the 7th from the end was an answer slip"


def _summarise_run(keep_last: int) -> Any:
    return run_conversation(Summarise(SYSTEM_PROMPT, summariser_llm(), keep_last=keep_last, trigger=8))


def _lost(run: Any) -> list[int]:
    """The questions whose answer says the model could no longer see the question."""
    return [q for q, answer in enumerate(run.answers, 1) if "can't see your question" in answer]


@exercise("10.Q4", kind="reasoning", title="keep fewer messages word for word: cheaper or dearer?")
def keep_fewer(answer: Any) -> str:
    choices = ("keep_last=2", "keep_last=4", "same")
    if answer not in choices:
        raise Hint(f"answer with one of {choices}")
    two_run, four_run = _summarise_run(2), _summarise_run(4)
    two, four = two_run.total_tokens, four_run.total_tokens
    truth = choices[0] if two < four else choices[1] if four < two else choices[2]
    lost = _lost(two_run)
    if answer == "same" and truth != answer:
        raise Hint("not the same: the two keep a different number of messages word for word, so every agent call "
                   "after the first condensation reads a different folder, and the summariser runs a different "
                   "number of times; a tie would need those two differences to cancel exactly")
    if answer != truth:
        runs2, runs4 = len(two_run.summary_calls), len(four_run.summary_calls)
        fewer = ("fewer" if runs2 < runs4 else "more" if runs2 > runs4 else "as many")
        raise Hint("the run says otherwise: keep_last=4 leaves more messages to be read word for word on every agent "
                   f"call, and keep_last=2 even needs {fewer} summariser runs ({runs2} against {runs4}, "
                   f"{two_run.summary_tokens} summary tokens against {four_run.summary_tokens}): each condensation "
                   "takes more at once" if truth == choices[0] else "the run says otherwise: weigh what every agent "
                   "call reads word for word against how often the summariser runs")
    return (f"right on the bill: {two} tokens against {four}. Now the answers: under keep_last=2, question(s) "
            f"{lost} got \"I can't see your question any more\": the summariser condensed the question away while "
            f"its tools were still being called (keep_last=4 lost {_lost(four_run) or 'none'}). Cheaper, and worse")


def _replay_ends(trigger: int) -> str:
    """What replaying the recorded Summarise conversation through ``Summarise(keep_last=2, trigger)`` does."""
    try:
        replay_conversation(real_trace("summarise-2-4"), "summarise-2-4",
                            lambda llm: Summarise(SYSTEM_PROMPT, llm, keep_last=2, trigger=trigger))
    except ReplayMismatch:
        return "ReplayMismatch"
    return "finish"


@exercise("10.Q5", kind="reasoning", title="replay a real conversation through another memory")
def replay_other_memory(answer: Any) -> str:
    if answer not in ("finish", "ReplayMismatch"):
        raise Hint('answer "finish" or "ReplayMismatch"')
    truth = _replay_ends(6)
    if answer != truth and truth == "ReplayMismatch":
        raise Hint("a replay checks what each question's first call reads against the recording: with trigger=6 "
                   "the summary comes later, so some question's folder differs from the one recorded")
    if answer != truth:
        raise Hint("in this recording the later trigger never changes what a first call reads, so the recorded "
                   "folders come out the same")
    return f"right: the replay ends with {truth}; a replay is also a check that the memory reads what was recorded"
