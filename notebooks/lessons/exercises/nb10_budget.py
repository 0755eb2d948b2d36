"""Notebook 10's exercise 10.3: ``TokenWindow(system_prompt, budget, count)``, a window trimmed by a token budget.

The learner's memory is fed conversations the notebook never shows (one to three answer slips a reply, a reply
still waiting for its slips), message by message, under two token estimates and every budget from 0 to past the
whole history; after each message its ``messages()`` is compared with the one right window: the system prompt, then
the longest run of the most recent messages whose counts add up to at most the budget, its start moved FORWARD past
answer slips whose request did not fit. A wrong window gets the hint of the first rule it breaks: an exact fit, a
start moved back (over budget), an orphan slip, a count of its own, the package's memories.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mingraph_lite.memory import KeepAll, LastN, Summarise
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage
from . import Hint, exercise
from .nb10 import HANDS_OVER, _calls_safe_start, _package_reads_watched, hands_over, histories

PROMPT = "You help travellers."


def words(message: Message) -> int:
    """One token a word of content (a reply that only asks for tools has none)."""
    return len(message.content.split())


def chunks(message: Message) -> int:
    """A second estimate, unlike words: one token a started 6 characters, and 2 for every message."""
    return 2 + -(-len(message.content) // 6)


COUNTS: tuple[tuple[str, Callable[[Message], int]], ...] = (("one token a word", words),
                                                             ("2 a message plus 1 per 6 characters", chunks))


def _fitting_start(history: Sequence[Message], budget: int, count: Callable[[Message], int]) -> int:
    """Where the longest tail whose counts add up to at most ``budget`` starts."""
    start, total = len(history), 0
    while start > 0 and total + count(history[start - 1]) <= budget:
        start -= 1
        total += count(history[start])
    return start


def right_window(history: Sequence[Message], budget: int, count: Callable[[Message], int]) -> list[Message]:
    """The longest fitting tail, moved forward past answer slips (moving back would break the budget)."""
    start = _fitting_start(history, budget, count)
    while start < len(history) and isinstance(history[start], ToolMessage):
        start += 1
    return list(history[start:])


def _charges_prompt(cls: type) -> bool:
    """Whether the window counts the system prompt against the budget: 4 words fit a budget of 5, 3 + 4 do not."""
    try:
        memory = cls(PROMPT, 5, words)
        memory.add(UserMessage("one two three four"))
        return list(memory.messages())[1:] == []
    except Exception:  # a probe only chooses the hint
        return False


def _why(kept: list[Message], history: list[Message], budget: int, count: Callable[[Message], int],
         how: str, charges_prompt: bool = False) -> str:
    right = right_window(history, budget, count)
    where = f"with budget={budget} (counting {how}), after {len(history)} messages of a conversation you have not seen"
    if kept != history[len(history) - len(kept):]:
        return f"{where}, the window is not the most recent messages in order: keep a slice from some start to the end"
    used = sum(count(m) for m in kept)
    if used > budget:
        cut, fits = len(history) - len(kept), _fitting_start(history, budget, count)
        stepped_back = cut < fits < len(history) and isinstance(history[fits], ToolMessage) and \
            isinstance(history[cut], AssistantMessage) and all(isinstance(m, ToolMessage) for m in history[cut + 1:fits])
        if stepped_back:
            return (f"{where}, your window counts {used}: it moved its start BACK to the reply that asked for the "
                    "slips, past the budget. Under a budget the start moves forward instead: drop the answer slips "
                    "whose request does not fit")
        return (f"{where}, your window counts {used}, more than the budget: add up count(message) for the messages "
                "you keep, with the count you are given")
    if kept and isinstance(kept[0], ToolMessage):
        return (f"{where}, the window starts on an answer slip [{kept[0].tool_call_id}] whose request did not fit: "
                "drop those slips too (move the start forward past them), never keep an answer without its call")
    if len(kept) < len(right):
        if charges_prompt:
            return (f"{where}, you keep {len(kept)} messages where {len(right)} fit: your window counts the system "
                    "prompt against the budget. It is always kept, and the budget is for the messages after it")
        if sum(count(m) for m in right) == budget:
            return (f"{where}, {len(right)} messages fit exactly (they count {budget}) and you keep {len(kept)}: a "
                    "window whose total EQUALS the budget fits (<=, not <)")
    return (f"{where}, you keep {len(kept)} messages where {len(right)} fit: take messages from the end while the "
            "total, by the count you are given, stays within the budget; then move the start forward only past "
            "answer slips")


def _leans_on(window: Any) -> bool:
    return any(isinstance(value, (KeepAll, LastN, Summarise)) for value in getattr(window, "__dict__", {}).values())


@exercise("10.3", kind="code", title="TokenWindow: the most recent messages that fit a token budget")
def token_window(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (TokenWindow), not an instance of it")
    if hands_over(cls) or _leans_on(cls(PROMPT, 10, words)):
        raise Hint(HANDS_OVER)
    if _calls_safe_start(cls):
        raise Hint("that uses the package's memory.safe_start, which moves a start BACK: under a budget the start "
                   "moves forward, and that is yours to write")
    ran: list[str] = []
    checked = 0
    with _package_reads_watched(ran):
        for history in histories():
            for how, count in COUNTS:
                for budget in range(0, sum(count(m) for m in history) + 2):
                    memory = cls(PROMPT, budget, count)
                    for n, message in enumerate(history, 1):
                        memory.add(message)
                        read = list(memory.messages())
                        if ran:
                            raise Hint(f"while your window was read, the package's {ran[0]} ran: the "
                                       "package is choosing the window for you. Write the cut yourself")
                        if not read or not isinstance(read[0], SystemMessage) or read[0].content != PROMPT:
                            raise Hint("messages() must start with the system prompt (a SystemMessage), always, "
                                       "whatever the budget: the budget is for the messages after it")
                        if read[1:] != right_window(history[:n], budget, count):
                            raise Hint(_why(read[1:], history[:n], budget, count, how, _charges_prompt(cls)))
                        checked += 1
    return (f"your window was right in all {checked} reads: every budget, two token counts, conversations you had "
            "not seen")
