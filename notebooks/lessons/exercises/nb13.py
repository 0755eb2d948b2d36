"""Notebook 13's three milestone checks on one class, and its checked questions. 13.1: the learner's agent on
held-out questions at two window sizes; 13.2: that again, then a model that never stops, a spent budget and a broken
tool; 13.3: all of it, then two replayed real runs and every hook. Expectations come from the package's ``Agent`` run
on the same cases (with the window rule as a memory), and from the recorded traces. The questions are in
nb13_questions; notebook 14's exercises on the finished agent are in nb14.
"""

from __future__ import annotations

from typing import Any

from mingraph_lite import (Agent, EventRecorder, ReplayLLM, ReplayMismatch, ScriptedLLM, ToolArgsError, ToolRegistry,
                           read_trace)
from mingraph_lite.agents import Agent as _PackageAgent
from ..capstone import HELD_OUT, QUESTION, SYSTEM_PROMPT, broken_tools, price_manager, price_tools, question_for
from . import Hint, NotDone, exercise
from .nb12 import REAL_RUNS, _counting_tools, _Leaned, _refusing
from .nb12_route import _Pinned


# --- 13.1: the whole agent ------------------------------------------------------------------------------


PIECES = {"pinned_window": "12.1", "errand": "12.2", "route": "12.4"}


def _stub_inside(error: BaseException | None) -> BaseException | None:
    """The stub's NotImplementedError, if it is the error or what caused it (an engine may wrap a node's error)."""
    for _ in range(10):
        if error is None or isinstance(error, NotImplementedError):
            return error
        error = error.__cause__ or error.__context__
    return None


def _stub_piece(error: BaseException) -> str | None:
    """Which earlier exercise's stub raised (``pinned_window`` -> "12.1"), or None for a method of the agent."""
    tb, name = error.__traceback__, None
    while tb is not None:
        name, tb = tb.tb_frame.f_code.co_name, tb.tb_next
    return PIECES.get(name or "")


def _stub_method(error: BaseException, cls: Any) -> str | None:
    """Which of the agent's own methods raised the stub's error, if one did."""
    tb, name = error.__traceback__, None
    while tb is not None:
        name, tb = tb.tb_frame.f_code.co_name, tb.tb_next
    return name if name and callable(getattr(cls, name, None)) else None


def _kinds(recorder: EventRecorder) -> list[str]:
    return [e["event"] for e in recorder.events]


def _run_yours(cls: Any, llm: Any, registry: ToolRegistry, question: str, recorder: EventRecorder | None = None,
               *, subclass: bool = False, **settings: Any) -> tuple[Any, list[str]]:
    """Run the learner's agent class once; ``subclass``: the exercise only adds methods to a finished agent, so a
    stub in one of its own methods means the exercise cell is not written yet."""
    recorder = recorder if recorder is not None else EventRecorder()
    from mingraph_lite.graph.agent_graph import AgentNodes
    try:
        with _refusing(_PackageAgent, "run"), _refusing(AgentNodes, "model"):
            result = cls(llm, registry, SYSTEM_PROMPT, observers=[recorder], **settings).run({"question": question})
    except _Leaned:
        raise Hint("that hands the run to the package's Agent (or its agent graph): build your own graph") from None
    except Exception as e:
        stub = _stub_inside(e)
        if stub is not None and _stub_piece(stub):
            raise Hint(f"your agent uses a piece that is still a stub: finish exercise {_stub_piece(stub)} "
                       "first (its function is called from your agent)") from None
        own = subclass and _stub_method(stub, cls) in vars(cls) if stub is not None else False
        if stub is not None and not own and _stub_method(stub, cls) not in (None, "run", "graph"):
            raise Hint(f"your graph runs, and your {_stub_method(stub, cls)} is still a stub: write it next "
                       "(the milestones 13.1 to 13.3 say which)") from None
        if stub is not None:
            raise NotDone from None
        why = ("; a branch let a ToolCall's error out: answer every ToolCall with your errand, which never raises"
               if isinstance(e, (ToolArgsError, ConnectionError)) else
               "; a replay hands back a real run's replies only while your agent sends what the recorded agent "
               "sent: the question word for word, then each reply followed by its ToolMessages, in its ToolCalls' order"
               if isinstance(e, ReplayMismatch) else
               "" if type(e).__name__ == "GraphStepLimit" else "")
        if type(e).__name__ == "GraphStepLimit":
            raise Hint(f"on {question!r} your graph hit its own superstep limit. compile(max_steps=...) counts "
                       "supersteps, not model calls: give it 2*max_steps+1") from None
        raise Hint(f"on {question!r} your agent raised {type(e).__name__}: {e}{why}") from None
    if not isinstance(result, dict) or "answer" not in result or "reason" not in result:
        raise Hint('run returns {"answer": ..., "reason": ...}')
    return result, _kinds(recorder)


def _check_held_out(cls: Any) -> list[tuple[Any, ...]]:
    """The runs' endings, reads and answers; returns what each run's listeners heard, for the hooks' stage."""
    heard = []
    for item, cities in HELD_OUT:
        for window in (6, 2):
            question, recorder = question_for(item, cities), EventRecorder()
            package = Agent(price_manager(item, cities), price_tools(), SYSTEM_PROMPT,
                            memory=_Pinned(SYSTEM_PROMPT, window), observers=[recorder])
            want = package.run({"question": question})["answer"]
            llm = price_manager(item, cities)
            mine = EventRecorder()
            got, kinds = _run_yours(cls, llm, price_tools(), question, mine, max_steps=6, max_calls=8,
                                    window=window)
            _same_ending(got, len(llm.calls), len(package.llm.calls), question)
            read = [len(messages) for messages, _ in llm.calls]
            allowed = [len(messages) for messages, _ in package.llm.calls]
            if read != allowed and _read_twice(llm.calls):
                raise Hint(f"with window={window}, one model call read the same message twice, so your state holds "
                           "it twice. A node returns only its new messages: PriceState's messages reducer "
                           "(operator.add) appends them")
            if read != allowed:
                raise Hint(f"with window={window}, your agent read the model {read} messages per call where the "
                           f"pinned window allows {allowed}: read it the window, not the whole run")
            if got["answer"] != want:
                raise Hint(f"on {question!r} (window={window}) your agent returned {got['answer']!r}; expected "
                           f"{want!r}: the answer is the text of the model's last reply")
            heard.append((kinds, _announced(mine.events), _announced(recorder.events), question))
    return heard


def _read_twice(calls: list[tuple[list[Any], Any]]) -> bool:
    """Whether a call read one message twice (the same object, or an equal one): a state that holds a run twice."""
    return any(m is other or m == other for messages, _ in calls
               for i, m in enumerate(messages) for other in messages[:i])


def _check_hooks(heard: list[tuple[Any, ...]]) -> None:
    for kinds, mine, want, question in heard:
        if not kinds:
            raise Hint("your agent called no hook on its listeners: tell each one in observers what happens "
                       "(on_run_start, on_step_start, on_model_reply, on_tool_call, on_tool_return, on_finish)")
        _same_announcements(mine, want, question)


def _same_ending(got: dict[str, Any], calls: int, due: int, question: str) -> None:
    if (got["reason"], calls) == ("answered", due):
        return
    why = (": a ToolCall filled in wrong (a ToolArgsError, such as a city with no prices) is the model's to fix, so "
           "the run goes on; only a tool still broken after your errand's retry ends it 'tool failed'"
           if got["reason"] == "tool failed" else "")
    raise Hint(f"on {question!r} your run ended {got['reason']!r} after {calls} model calls; expected 'answered' "
               f"after {due}{why}")


def _announced(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Each hook call, with what the rules fix: the messages of on_run_start and the number of on_step_start."""
    def one(e: dict[str, Any]) -> tuple[Any, ...]:
        if e["event"] == "run_start":
            return ("run_start", tuple((m.get("role"), m.get("content")) for m in e["messages"]))
        return ("step_start", e["step"]) if e["event"] == "step_start" else (e["event"],)
    return [one(e) for e in events]


def _same_announcements(mine: list[tuple[Any, ...]], want: list[tuple[Any, ...]], question: str) -> None:
    if mine == want:
        return
    at = next((i for i, (a, b) in enumerate(zip(mine, want, strict=False)) if a != b), min(len(mine), len(want)))
    said = f"on_{mine[at][0]}" if at < len(mine) else "nothing more"
    due = f"on_{want[at][0]}" if at < len(want) else "nothing more"
    if said == due == "on_run_start":
        raise Hint(f"on {question!r}, on_run_start got {[role for role, _ in mine[at][1]]} messages that are not "
                   "what the first call reads: the system prompt as a SystemMessage, then the question, word for word")
    if said == due == "on_step_start":
        raise Hint(f"on {question!r}, hook call {at + 1} was on_step_start({mine[at][1]}) where "
                   f"on_step_start({want[at][1]}) is due: number the model calls from 1")
    raise Hint(f"on {question!r}, hook call {at + 1} of your run was {said} where {due} is due: a run "
               "calls on_run_start, then per model call on_step_start and on_model_reply, per ToolCall "
               "on_tool_call and on_tool_return, and on_finish once at the end")


def _check_stops(cls: Any) -> tuple[list[str], EventRecorder]:
    looping = ScriptedLLM([[("get_price", {"item": "tea", "city": "Lima"})]] * 20, name="scripted: never stops")
    counting, tries = _counting_tools()
    try:
        got, _ = _run_yours(cls, looping, counting, "What does tea cost in Lima?", max_steps=3, max_calls=20,
                            window=6)
    except Hint as hint:
        if len(looping.calls) > 3:  # the graph's own limit only caught a ceiling that let a fourth call through
            raise Hint(f"your model node called the model {len(looping.calls)} times at max_steps=3: the ceiling "
                       "is tested before the call (model_calls >= max_steps) and ends the run with 'step limit'") from None
        raise Hint(f"a model that never stops, with max_steps=3, was called {len(looping.calls)} times and then "
                   f"{hint}: the ceiling counts model calls and ends the run with 'step limit'") from None
    if len(looping.calls) != 3 or got["reason"] != "step limit":
        raise Hint(f"a model that never stops was called {len(looping.calls)} times with max_steps=3 and the run "
                   f"ended {got['reason']!r}: the ceiling counts model calls and ends the run with 'step limit'")
    if got["answer"] is not None:
        raise Hint("a run that did not finish must answer None, never a made-up sentence: the caller has to tell "
                   "'I gave up' from an answer")
    if tries["get_price"] != 3:
        raise Hint(f"at the ceiling (max_steps=3) your agent ran {tries['get_price']} of the 3 ToolCalls asked for: "
                   "the last reply's ToolCalls still run before the run stops at the ceiling")
    budget = _check_budget(cls)
    broken = price_manager("bread", ("Oslo", "Lima"))
    got, _ = _run_yours(cls, broken, broken_tools(), question_for("bread", ("Oslo", "Lima")), max_steps=6, window=6)
    if got != {"answer": None, "reason": "tool failed"} or len(broken.calls) != 2:
        raise Hint(f"when the rate service is down the run ended {got} after {len(broken.calls)} model calls: the "
                   "model cannot fix a broken tool, so after that round the run ends 'tool failed', no more calls")
    return budget


def _check_budget(cls: Any) -> tuple[list[str], EventRecorder]:
    exact = price_manager("coffee", ("Rome", "Osaka"))  # two prices, then two conversions: four ToolCalls
    got, _ = _run_yours(cls, exact, price_tools(), QUESTION, max_steps=6, max_calls=4, window=6)
    if got["reason"] != "answered" or len(exact.calls) != 3:
        raise Hint(f"the coffee question's four ToolCalls against max_calls=4 ended {got['reason']!r} after "
                   f"{len(exact.calls)} model calls; expected 'answered' after 3: a budget spent exactly is not "
                   "overspent (calls_left may reach zero; only a batch that takes it below zero is refused)")
    cities = ("Rome", "Osaka", "Lima", "Oslo", "Nairobi")
    greedy, recorder = price_manager("coffee", cities), EventRecorder()
    got, kinds = _run_yours(cls, greedy, price_tools(), question_for("coffee", cities), recorder, max_steps=6,
                            max_calls=4, window=6)
    if got != {"answer": None, "reason": "call budget"}:
        raise Hint(f"five ToolCalls in one reply against max_calls=4 ended {got}: a batch that would take "
                   "calls_left below zero runs not at all, and the run ends 'call budget' with no answer")
    return kinds, recorder


def _check_budget_hooks(kinds: list[str], recorder: EventRecorder) -> None:
    if "tool_call" in kinds:
        raise Hint(f"over the budget, your agent called on_tool_call {kinds.count('tool_call')} times: those "
                   "ToolCalls are refused, never run, so no listener should hear them as calls; call only "
                   "on_tool_return, with the error ToolMessage that refuses each")
    replies = [e["message"] for e in recorder.events if e["event"] == "model_reply"]
    asked = [c["id"] for c in replies[-1]["tool_calls"]] if replies else []
    heard = [e for e in recorder.events if e["event"] == "tool_return"]
    if [e["tool_call_id"] for e in heard] != asked or not all(e["is_error"] for e in heard):
        raise Hint(f"over the budget, your listeners heard {len(heard)} answers to the {len(asked)} refused "
                   "ToolCalls: a ToolCall left unanswered makes the conversation invalid for any later call, so "
                   "answer each, in order, with an error ToolMessage (is_error=True) and pass it to "
                   "on_tool_return, so a PriceLog writes its line")
    if not all("budget" in str(e["content"]).lower() for e in heard):
        raise Hint(f"a refused ToolCall was answered {heard[0]['content']!r}: say that the call budget is spent, "
                   "so the model and the log learn why it never ran")


def _check_replays(cls: Any, hooks: bool = False) -> list[str]:
    """The replayed runs' endings; with hooks, also what their listeners heard of each ToolCall. Returns how each
    replayed run ended, for the pass message."""
    endings = []
    for model, path in REAL_RUNS.items():
        events, recorder = read_trace(path), EventRecorder()
        replay = ReplayLLM.from_trace(path)
        question = events[0]["messages"][-1]["content"]
        got, _ = _run_yours(cls, replay, price_tools(), question, recorder, max_steps=6, max_calls=8, window=6)
        want = [(e["event"], e.get("name"), e.get("arguments"), e.get("content")) for e in events
                if e["event"] in ("tool_call", "tool_return")]
        mine = [(e["event"], e.get("name"), e.get("arguments"), e.get("content")) for e in recorder.events
                if e["event"] in ("tool_call", "tool_return")]
        replies = sum(e["event"] == "model_reply" for e in events)
        if len(replay.calls) != replies or (got["answer"], got["reason"]) != (events[-1]["answer"],
                                                                             events[-1]["reason"]) or (
                                                                             hooks and mine != want):
            rule = ("; the last reply's ToolCalls still run before the run stops at the ceiling"
                    if hooks and events[-1]["reason"] == "step limit" and len(mine) < len(want) else "")
            told = (f" and {len(mine) // 2} ToolMessages", f" and {len(want) // 2}, with the same ToolCalls and "
                    "ToolMessages") if hooks else ("", "")
            raise Hint(f"the recorded {model} run, replayed, ended {got['reason']!r} after {len(replay.calls)} model "
                       f"calls{told[0]}; the recording: {events[-1]['reason']!r} after {replies}{told[1]}{rule}")
        endings.append(f"{model} ended {got['reason']!r} after {replies} model calls")
    return endings


def _is_class(cls: Any) -> None:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (PriceAgent), not an instance of it")


MAY_USE = ("12.1", "12.2", "12.4")


@exercise("13.1", kind="code", title="the price agent, part 1: the loop that answers", may_use=MAY_USE)
def check_loop(cls: Any) -> str:
    _is_class(cls)
    _check_held_out(cls)
    return (f"your agent answered {len(HELD_OUT)} unseen questions at two window sizes, reading the pinned window "
            "each call: now its limits (13.2)")


@exercise("13.2", kind="code", title="the price agent, part 2: the ceiling, the call budget, a broken tool",
          may_use=MAY_USE)
def check_limits(cls: Any) -> str:
    _is_class(cls)
    _check_held_out(cls)  # 13.1's behaviour still holds
    _check_stops(cls)
    return ("your agent still answers the unseen questions, and stops at the ceiling, at the call budget (not at a "
            "budget spent exactly) and on a broken tool: now its hooks and the real runs (13.3)")


@exercise("13.3", kind="code", title="the price agent, part 3: the hooks, and two replayed real runs",
          may_use=MAY_USE)
def check_agent(cls: Any) -> str:
    _is_class(cls)
    # in the order of the milestones: the loop, its stops, the real runs; the hooks last
    heard = _check_held_out(cls)
    budget = _check_stops(cls)
    _check_replays(cls)
    _check_hooks(heard)
    _check_budget_hooks(*budget)
    endings = _check_replays(cls, hooks=True)
    return (f"your agent answered {len(HELD_OUT)} held-out questions at two window sizes, stopped at the ceiling, "
            f"the call budget and a broken tool, told its listeners every step, and ran {len(REAL_RUNS)} recorded "
            f"real runs, replayed, as they ran when recorded: {'; '.join(endings)}")
