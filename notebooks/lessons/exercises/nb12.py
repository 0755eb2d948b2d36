"""Notebook 12's checks (the capstone's pieces), 12.1 to 12.3: each piece on cases the notebook never shows (the router's
and the whole agent's are in nb12_route and nb13; notebook 14's in nb14).

Expected results come from the package (``Agent``, ``ToolRegistry``, ``EventRecorder``, ``ReplayLLM``) run on the
same cases, never from numbers written here.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mingraph_lite import (Agent, AssistantMessage, EventRecorder, Message, Observer, ScriptedLLM, StepLimitReached,
                           SystemMessage, ToolCall, ToolMessage, ToolRegistry, TraceRecorder)
from mingraph_lite.memory import LastN, safe_start
from mingraph_lite.tools import error_answer, fix_answer, unrun_answer
from ..capstone import HELD_OUT, SYSTEM_PROMPT, broken_tools, price_manager, price_tools, question_for
from .. import capstone
from . import Hint, exercise

RUNS = Path(__file__).resolve().parents[3] / "data" / "runs"
REAL_RUNS = {"SmolLM2-135M": RUNS / "capstone-smollm2-135m.jsonl", "Gemma 3 270M": RUNS / "capstone-gemma3-270m.jsonl"}

class _Leaned(BaseException):
    """Raised inside a check when the answer hands its work to the package's own version (a BaseException, so
    that the learner's ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def _refusing(owner: type, method: str) -> Iterator[None]:
    original = getattr(owner, method)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise _Leaned(f"{owner.__name__}.{method}")

    setattr(owner, method, refuse)
    try:
        yield
    finally:
        setattr(owner, method, original)


def _leaned(*args: Any, **kwargs: Any) -> Any:
    # Swapped into a package function, so it finds this module by import, not through its own globals.
    raise __import__("lessons.exercises.nb13", fromlist=["_Leaned"])._Leaned()


@contextlib.contextmanager
def _refusing_functions(*functions: Any) -> Iterator[None]:
    """Each function raises ``_Leaned`` inside the block, under whatever name the learner imported it."""
    saved = [(fn, fn.__code__) for fn in functions]
    try:
        for fn, _ in saved:
            fn.__code__ = _leaned.__code__
        yield
    finally:
        for fn, code in saved:
            fn.__code__ = code


# --- 12.1: the pinned window --------------------------------------------------------------------------


def _histories() -> list[list[Message]]:
    """Whole runs of held-out questions, as the agent's memory holds them (question first, no system prompt)."""
    runs = []
    for item, cities in HELD_OUT:
        agent = Agent(price_manager(item, cities), price_tools(), SYSTEM_PROMPT)
        agent.run({"question": question_for(item, cities)})
        runs.append(agent.memory.messages()[1:])
    return runs


def _whole(kept: list[Message], history: list[Message], n: int) -> None:
    asked = {c.id for m in kept if isinstance(m, AssistantMessage) for c in m.tool_calls}
    answered = {m.tool_call_id for m in kept if isinstance(m, ToolMessage)}
    answered_all = {m.tool_call_id for m in history if isinstance(m, ToolMessage)}
    if answered - asked:
        raise Hint(f"with n={n}, the window keeps a ToolMessage without the assistant message that asked for it: "
                   "move the start back to that message")
    if (asked & answered_all) - answered:
        raise Hint(f"with n={n}, the window keeps an assistant message asking for ToolCalls but not their ToolMessages: "
                   "an exchange stays whole")


def _shortest(rest: list[Message], n: int) -> int:
    start = max(0, len(rest) - n)
    while 0 < start < len(rest) and isinstance(rest[start], ToolMessage):
        start -= 1
    return len(rest) - start


def _check_window(read: Any, history: list[Message], n: int) -> None:
    if not isinstance(read, list) or not read or not isinstance(read[0], SystemMessage) \
            or read[0].content != SYSTEM_PROMPT:
        raise Hint("return a list that starts with the system prompt as a SystemMessage")
    if len(read) < 2 or read[1] is not history[0]:
        raise Hint(f"with n={n}, the second message is not the question: pin the run's first message (the question) "
                   "right after the system prompt, whatever the window size")
    if sum(m is history[0] for m in read) > 1:
        raise Hint(f"with n={n}, the question is read twice: the window is taken from the messages after it")
    rest, kept = history[1:], read[2:]
    if kept != rest[len(rest) - len(kept):]:
        raise Hint(f"with n={n}, after the question the window is not the most recent messages in order")
    _whole(kept, history, n)
    forward = max(0, len(rest) - n)  # where a start moved forward past ToolMessages would land
    while forward < len(rest) and isinstance(rest[forward], ToolMessage):
        forward += 1
    if len(kept) < min(n, len(rest)) and len(kept) == _shortest(rest, n - 1) != len(rest) - forward:
        raise Hint(f"with n={n}, the window holds {len(kept)} messages after the question, not {n}: n counts the "
                   "messages after the question; the question is pinned on top of them, not one of them")
    if len(kept) < min(n, len(rest)):
        raise Hint(f"with n={n}, the window holds {len(kept)} messages after the question: when the start falls "
                   "inside an exchange, move it back (earlier), never forward")
    if len(kept) > _shortest(rest, n):
        raise Hint(f"with n={n}, the window keeps {len(kept)} messages after the question, but "
                   f"{_shortest(rest, n)} would keep every exchange whole: the start went back too far; stop at the "
                   "AssistantMessage whose ToolCall the first kept ToolMessage answers (a later start)")


@exercise("12.1", kind="code", title="a memory window that keeps the question")
def check_window(window: Any) -> str:
    if not callable(window):
        raise Hint("pass your function itself: pinned_window, without calling it")
    checked, histories = 0, _histories()
    with _refusing(LastN, "messages"), _refusing(LastN, "add"), _refusing_functions(safe_start):
        try:
            for history in histories:
                for size in range(1, len(history) + 1):
                    for n in range(1, size + 2):
                        _check_window(window(SYSTEM_PROMPT, list(history[:size]), n), history[:size], n)
                        checked += 1
        except _Leaned:
            raise Hint("that hands the window to the package's LastN (or its safe_start, which moves the start "
                       "back for it): write the rule yourself, it is the point of the exercise") from None
    return f"the question stayed pinned and every exchange whole in {checked} windows of runs you had not seen"


# --- 12.2: the errand for one slip, with this task's retry --------------------------------------------


def _counting_tools(fails: int = 0) -> tuple[ToolRegistry, Counter[str]]:
    """The task's tools, counting every run of each; ``to_usd`` raises TimeoutError on its first ``fails`` runs."""
    tries: Counter[str] = Counter()

    def get_price(item: str, city: str) -> str:
        """Get the local price of an item in a city, with its currency code."""
        tries["get_price"] += 1
        return capstone.get_price(item, city)

    def to_usd(amount: float, currency: str) -> str:
        """Convert an amount of money into US dollars, rounded to the cent."""
        tries["to_usd"] += 1
        if tries["to_usd"] <= fails:
            raise TimeoutError(f"the rate service did not answer (try {tries['to_usd']})")
        return capstone.to_usd(amount, currency)

    registry = ToolRegistry()
    registry.add(get_price)
    registry.add(to_usd)
    return registry, tries


def _errand_cases() -> list[tuple[str, int, ToolCall, int]]:
    """(what, how many first runs of to_usd fail, the slip, how many runs of its tool are due)."""
    return [("a good ToolCall", 0, ToolCall("e1", "get_price", {"item": "bread", "city": "Lima"}), 1),
            ("a city with no prices", 0, ToolCall("e2", "get_price", {"item": "tea", "city": "Atlantis"}), 1),
            ("an amount sent as text", 0, ToolCall("e3", "to_usd", {"amount": "35", "currency": "NOK"}), 0),
            ("a tool not on the menu", 0, ToolCall("e4", "get_weather", {"city": "Oslo"}), 0),
            ("a rate service that failed once, then worked", 1,
             ToolCall("e5", "to_usd", {"amount": 90, "currency": "KES"}), 2),
            ("a rate service that is down", 99, ToolCall("e6", "to_usd", {"amount": 35, "currency": "NOK"}), 2)]


def _expected_answer(fails: int, slip: ToolCall) -> ToolMessage:
    registry, _ = _counting_tools(fails)
    for _ in range(2):
        try:
            return registry.answer(slip)
        except TimeoutError as e:
            error = e
    return ToolMessage(f"Error: tool failed twice: {error}", slip.id, name=slip.name, is_error=True)


def _run_errand(errand: Any, what: str, fails: int, slip: ToolCall) -> tuple[Any, Counter[str]]:
    registry, tries = _counting_tools(fails)
    try:
        return errand(registry, slip), tries
    except _Leaned:
        raise Hint("that hands the ToolCall to the package (registry.answer, or its fix_answer / error_answer): "
                   "write the answers yourself, with registry.run; the retry is this task's own rule") from None
    except NotImplementedError:
        raise
    except Exception as e:
        raise Hint(f"for {what}, your errand raised {type(e).__name__}: in a fan-out one branch must not "
                   "take the others down; answer the ToolCall with an error ToolMessage instead") from None


@exercise("12.2", kind="code", title="the errand for one ToolCall, with this task's retry")
def check_errand(errand: Any) -> str:
    if not callable(errand):
        raise Hint("pass your function itself: errand, without calling it")
    cases = [(what, fails, slip, due, _expected_answer(fails, slip)) for what, fails, slip, due in _errand_cases()]
    with _refusing_functions(ToolRegistry.answer, fix_answer, error_answer, unrun_answer):
        for what, fails, slip, due, want in cases:
            got, tries = _run_errand(errand, what, fails, slip)
            if tries[slip.name] != due:
                said = {0: "never ran the tool", 1: "ran the tool once", 2: "ran the tool twice"}
                ran = said.get(tries[slip.name], f"ran the tool {tries[slip.name]} times")
                raise Hint(f"for {what}, your errand {ran} where {said[due].replace('ran the tool', 'running it')} "
                           "is due: "
                           + ("a ToolCall the model filled in wrong fails the same way again, so answer it at once"
                              if due == 1 else "a broken tool gets one more try, and only one"))
            _compare_answer(what, got, want)
    return f"your errand answered {len(cases)} ToolCalls you had not seen, each once, and retried only a broken tool"


def _compare_answer(what: str, got: Any, want: ToolMessage) -> None:
    if not isinstance(got, ToolMessage) or got.tool_call_id != want.tool_call_id or got.name != want.name:
        raise Hint(f"for {what}, return a ToolMessage with the ToolCall's id and tool name")
    if isinstance(got.content, ToolMessage) or str(got.content).startswith("ToolMessage("):
        raise Hint(f"for {what}, your ToolMessage holds another ToolMessage: registry.run already returns a "
                   "ToolMessage, so return it as it is")
    if got.content != want.content:
        if not want.is_error:
            raise Hint(f"for {what}, your errand answered {got.content!r}: a tool that fails with anything but "
                       "ToolArgsError is tried once more, and a second try that works gives the ToolCall its answer")
        if want.content.startswith("Error: tool failed twice"):
            raise Hint(f'for {what}, the answer should read "Error: tool failed twice: <the second error>", with '
                       "the text of the SECOND failure, the one that ended the retry, not the first")
        raise Hint(f'for {what}, the answer should read {want.content!r}: the words the model needs to fix it')
    if got.is_error != want.is_error:
        raise Hint(f"for {what}, set is_error={want.is_error}: the agent and its listeners tell a failure by it")


# --- 12.3: the price log listener ------------------------------------------------------------------------


def _log_runs() -> list[tuple[Any, ToolRegistry, str, int]]:
    looping = ScriptedLLM([[("get_price", {"item": "tea", "city": "Oslo"})]] * 10, name="scripted: never stops")
    three = ("Rome", "Atlantis", "Oslo")
    return [(price_manager("tea", three), price_tools(), question_for("tea", three), 6),
            (looping, price_tools(), "What does tea cost in Oslo?", 3),
            (price_manager("bread", ("Oslo", "Lima")), broken_tools(), question_for("bread", ("Oslo", "Lima")), 6),
            (ScriptedLLM([[("get_price", {"item": "milk", "city": "Lima"})], _drop], name="scripted: drops call 2"),
             price_tools(), "What does milk cost in Lima?", 6)]


def _drop(messages: Any, tools: Any) -> Any:
    """A model service that does not answer: a step begins that no reply ends."""
    raise ConnectionError("the model service did not answer")


def _expected_lines(events: list[dict[str, Any]], stale: list[Any] | None = None) -> list[dict[str, Any]]:
    """The log's lines; ``stale`` gets, per line, what a wrong log would write: for a ToolMessage the arguments
    of a log that never forgot earlier runs' ids (ids start again each run), for a finish the run's count of
    steps begun and of ToolCalls."""
    asked, ever, calls, steps, lines, stale = {}, {}, 0, 0, [], [] if stale is None else stale
    for e in events:
        if e["event"] == "run_start":
            asked, calls, steps = {}, 0, 0
        elif e["event"] == "step_start":
            steps += 1
        elif e["event"] == "model_reply":
            calls += 1
        elif e["event"] == "tool_call":
            asked[e["id"]] = ever[e["id"]] = e["arguments"]
        elif e["event"] == "tool_return":
            lines.append({"tool": e["name"], "arguments": asked.get(e["tool_call_id"]), "result": e["content"],
                          "error": e["is_error"]})
            stale.append(ever.get(e["tool_call_id"]))
        elif e["event"] == "finish":
            lines.append({"answer": e["answer"], "reason": e["reason"], "model_calls": calls})
            stale.append((steps, len(asked)))
    return lines


class _FileWatch(Observer):
    """Listens right after the learner's log and counts the file's lines as the run goes, as a crash would
    leave them: a log that holds its lines until later has fewer on disk than hook calls heard."""

    def __init__(self, path: Path, held: int) -> None:
        self.path, self.heard, self.behind, self.held = path, held, None, held

    def _look(self, what: str) -> None:
        self.heard += 1
        on_disk = len(self.path.read_text(encoding="utf-8").splitlines()) if self.path.exists() else 0
        if on_disk < self.heard and self.behind is None:
            held = f"{on_disk - self.held} new line" + "s" * (on_disk - self.held != 1)
            self.behind = (f"right after hook call {self.heard - self.held} ({what}), the file held {held}, "
                           f"not {self.heard - self.held}")

    def on_tool_return(self, result: ToolMessage) -> None:
        self._look("a ToolMessage")

    def on_finish(self, answer: str | None, reason: str) -> None:
        self._look("a run's finish")


_BEFORE = {"note": "a line written before these runs"}


def _run_logged(listener: Any, recorder: EventRecorder, watch: _FileWatch) -> None:
    for llm, registry, question, ceiling in _log_runs():
        with contextlib.suppress(StepLimitReached, ConnectionError):
            Agent(llm, registry, SYSTEM_PROMPT, observers=[listener, watch, recorder], max_steps=ceiling,
                  strict=True).run({"question": question})


@exercise("12.3", kind="code", title="a listener that writes this task's price log")
def check_price_log(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (PriceLog), not an instance of it")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "prices.jsonl"
        path.write_text(json.dumps(_BEFORE) + "\n", encoding="utf-8")  # a log that held a line before __init__
        listener, recorder = cls(str(path)), EventRecorder()
        if any(isinstance(v, (EventRecorder, TraceRecorder)) for v in vars(listener).values()):
            raise Hint("that keeps the package's EventRecorder (or TraceRecorder) inside: write the lines yourself")
        watch = _FileWatch(path, held=1)
        _run_logged(listener, recorder, watch)
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not lines or lines[0] != _BEFORE:
        raise Hint("the line the file held before the runs is gone: open the file to append (\"a\"), never to "
                   'write ("w"), which empties it first (in __init__ too: a file that held lines keeps them)')
    stale: list[Any] = []
    want = _expected_lines(recorder.events, stale)
    _compare_lines(lines[1:], want, stale)
    if watch.behind:
        raise Hint(f"{watch.behind}: write each line when its hook is called (open the file to append, "
                   "write, close), so a run that crashes keeps the lines it wrote")
    return (f"your log kept the line it held and added the {len(want)} lines of four runs you had not seen, "
            "one whose tool broke and one whose model did not answer")


def _same_but(got: Any, expected: dict[str, Any], key: str) -> bool:
    return isinstance(got, dict) and {k: v for k, v in got.items() if k != key} == \
        {k: v for k, v in expected.items() if k != key}


def _compare_lines(lines: list[Any], want: list[dict[str, Any]], stale: list[Any]) -> None:
    if len(lines) < len(want):
        held = f"{len(lines)} line" + "s" * (len(lines) != 1)
        raise Hint(f"after four runs the file holds {held} after the one from before, not {len(want)}: open it to append "
                   '("a"), once per line, so every run adds to what is there')
    first_finish = next(i for i, line in enumerate(want) if "reason" in line)
    for index, (got, expected) in enumerate(zip(lines, want, strict=False)):
        if got == expected:
            continue
        if "reason" in expected and _same_but(got, expected, "model_calls"):
            steps, slips = stale[index]
            fix = ("count model replies (on_model_reply), not steps begun (on_step_start): a step whose model "
                   "call raises has no reply" if got.get("model_calls") == steps
                   else "count model replies (on_model_reply), not tool calls"
                   if got.get("model_calls") == slips or index == first_finish
                   else "start counting again at each run (on_run_start)")
            raise Hint(f"a finish line counts {got.get('model_calls')} model calls where the run made "
                       f"{expected['model_calls']}: {fix}")
        if expected.get("error") and lines[index + 1:index + 2] == [expected]:
            raise Hint(f"one line too many before the line for {expected['result']!r}: on_tool_return already "
                       "wrote this failure (its ToolMessage has is_error); on_tool_error must not write another")
        if _same_but(got, expected, "error"):
            raise Hint("a line's error flag is wrong: copy the ToolMessage's is_error")
        if "tool" in expected and _same_but(got, expected, "arguments") and isinstance(got.get("arguments"), str):
            raise Hint(f"the line for {expected['result']!r} stores its arguments as the text "
                       f"{got['arguments']!r}: store the dict, not its JSON text")
        if "tool" in expected and _same_but(got, expected, "arguments") \
                and got.get("arguments") == stale[index]:
            raise Hint(f"the line for {expected['result']!r} has the arguments {got.get('arguments')} of an earlier "
                       "run's call: ToolCall ids start again each run (call_1_1, ...), so forget the calls of earlier "
                       "runs in on_run_start")
        if "tool" in expected and _same_but(got, expected, "arguments"):
            raise Hint(f"the line for {expected['result']!r} has the arguments {got.get('arguments')}, not "
                       f"{expected['arguments']}: find the call by the answer's tool_call_id (a call that was "
                       "never reached on_tool_call gets None)")
        raise Hint(f"expected the line {expected}, your file has {got}")
    if len(lines) > len(want):
        raise Hint(f"the file holds {len(lines)} lines where the runs made {len(want)} hook calls")
