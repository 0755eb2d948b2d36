"""Notebook 11's checks: a helper with a second chance, a plan reader, a re-plan node, and the checked questions.

Every check runs the learner's code on cases the notebook never shows: helpers that need more or fewer steps,
replies with a preamble or bullets, plans that fail at other steps. The questions are checked against runs of
the real code (the package's ``subagent_tool``, the scripted planner and executor).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.errors import ScriptExhausted, StepLimitReached
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import ToolMessage, UserMessage
from mingraph_lite.subagents import SubagentTool, subagent_tool
from mingraph_lite.tools import ToolRegistry
from ..plan_execute import EXECUTOR_PROMPT, PLANNER_PROMPT, executor_llm, parse_plan, planner_llm, step_question
from ..calls import names_read
from . import Hint, exercise


# --- 11.1: a helper with a second chance -------------------------------------------------------------------------

HELPER_CASES = (  # (the template's max_steps, answer slips the helper needs before it answers, the task)
    (2, 1, "What's the time in Lima?"),
    (2, 3, "Convert 40 euros to yen."),
    (3, 5, "Find flight QZ 7."),
    (2, 9, "Which city is the coldest?"),
)


def _helper_llm(need: int) -> ScriptedLLM:
    """A scripted helper that answers once its folder holds ``need`` answer slips: a used folder answers sooner."""
    def policy(messages, tools):
        slips = sum(isinstance(m, ToolMessage) for m in messages)
        task = next(m.content for m in messages if isinstance(m, UserMessage))
        return f"done: {task}" if slips >= need else [("get_weather", {"city": "Paris"})]
    return ScriptedLLM([policy] * 40, name="scripted: helper (check)")


class _SensorOffline(RuntimeError):
    """A helper's tool that broke: a fault the manager can't fix, so it must not come back as a note."""


def _check_broken_tool(fn: Any) -> None:
    def get_weather(city: str) -> str:
        """Get the temperature in a city.

        Args:
            city: The city.
        """
        raise _SensorOffline(f"the sensor in {city} is offline")

    registry = ToolRegistry()
    registry.add(get_weather)
    template = Agent(_helper_llm(1), registry, "You look up one thing.", max_steps=2)
    try:
        got = fn(template, "What's the temperature in Lima?")
    except _SensorOffline:
        return
    raise Hint(f"a helper whose tool raised came back as {got!r}: only the step limit becomes a note; a broken tool "
               "or an unreachable model must reach the manager, so catch StepLimitReached and nothing wider")


def _borrows_subagent(fn: Any) -> bool:
    code = getattr(fn, "__code__", None)
    return code is not None and bool({"subagent_tool", "SubagentTool", "SubAgent"} & names_read(code))


@contextmanager
def _delegations_watched(ran: list[str]) -> Iterator[None]:
    """While the check runs, note every delegation the package's SubagentTool makes, however it was reached."""
    original = SubagentTool.__call__

    def watched(self: Any, task: str) -> str:
        ran.append(task)
        return original(self, task)

    SubagentTool.__call__ = watched  # type: ignore[method-assign]
    try:
        yield
    finally:
        SubagentTool.__call__ = original  # type: ignore[method-assign]


def _check_second_chance(fn: Any, max_steps: int, need: int, task: str) -> None:
    llm = _helper_llm(need)
    template = Agent(llm, weather_registry(), "You look up one thing.", max_steps=max_steps)
    try:
        got = fn(template, task)
    except StepLimitReached:
        raise Hint("a step limit escaped from your function: when the second try runs out of steps too, return a "
                   "note that starts with 'Error:' instead of raising") from None
    tries_needed = 1 if need + 1 <= max_steps else 2
    if tries_needed == 2 and len(llm.calls) == max_steps:
        raise Hint("no second chance: when the first try runs out of steps, try once more on a fresh folder, with "
                   "twice the template's max_steps")
    starts = sum(len(messages) == 2 for messages, _ in llm.calls)  # a fresh folder: the system prompt and the task
    if not llm.calls:
        raise Hint("the helper was never run: run a fresh Agent (the template's llm, registry, system prompt) on the "
                   "task")
    if len(template.memory) or starts < tries_needed:
        raise Hint("a try started on a folder that was not empty: run a fresh Agent (the template's llm, registry, "
                   "system prompt) for every try, never the template itself")
    if starts > tries_needed:
        raise Hint(f"the helper was run {starts} times where {tries_needed} would do: try again only when a try "
                   "ran out of steps, and at most twice in all")
    second = len(llm.calls) - max_steps
    if tries_needed == 2 and second != min(need + 1, 2 * max_steps):
        raise Hint(f"the second try made {second} model calls where it needed {need + 1}: give it twice the "
                   f"template's max_steps ({2 * max_steps}), no more and no less")
    if need + 1 <= 2 * max_steps and got != f"done: {task}":
        raise Hint(f"return the helper's answer when a try finishes; got {got!r} for a helper that needed "
                   f"{need + 1} model calls and a limit of {max_steps}, then {2 * max_steps}")
    if need + 1 > 2 * max_steps and not (isinstance(got, str) and got.startswith("Error:") and task in got):
        raise Hint("when both tries run out of steps, return a note that starts with 'Error:' and names the task, "
                   f"so the manager can say what could not be done; got {got!r}")


@exercise("11.1", kind="code", title="a helper behind one tool, with a second chance")
def second_chance(fn: Any) -> str:
    if not callable(fn):
        raise Hint("pass your function itself: ask_twice, without calling it")
    if _borrows_subagent(fn):
        raise Hint("that hands the work to the package's subagent_tool (or the SubagentTool class behind it), which "
                   "has no second chance and is not this exercise: build the fresh Agent yourself")
    ran: list[str] = []
    try:
        with _delegations_watched(ran):
            for case in HELPER_CASES:
                _check_second_chance(fn, *case)
            _check_broken_tool(fn)
    finally:  # the package doing the delegation is the fault to name, whatever else went wrong
        if ran:
            raise Hint("the package's SubagentTool ran the helper (called twice, it is still the package's "
                       "delegation, with limits that are not yours): build the fresh Agent for each try yourself")
    return (f"your helper answered, retried and gave up where it should on {len(HELPER_CASES)} helpers you had "
            "not seen, each try on a fresh folder, and let a broken tool through")


# --- 11.2: the router after the executor ---------------------------------------------------------------------

MAX_REPLANS = 1  # the notebook's budget: the cases below are read against it
ROUTE_CASES = (  # (what the state holds, plan length, done, failed, replans, the label the router should return)
    ("the first step done", 3, 1, None, 0, "next"),
    ("all but the last step done", 3, 2, None, 0, "next"),
    ("three steps of five done", 5, 3, None, 0, "next"),
    ("all but the last step of five done", 5, 4, None, 1, "next"),
    ("every step of five done", 5, 5, None, 0, "done"),
    ("a one-step plan, not started", 1, 0, None, 0, "next"),
    ("a one-step plan, done", 1, 1, None, 0, "done"),
    ("every step done after a re-plan", 3, 3, None, 1, "done"),
    ("step 2 failed, no re-plan used yet", 3, 1, "step 2 stopped without a result", 0, "replan"),
    ("step 1 failed, no re-plan used yet", 3, 0, "step 1 stopped without a result", 0, "replan"),
    ("step 4 of five failed, no re-plan used yet", 5, 3, "step 4 stopped without a result", 0, "replan"),
    ("step 2 failed again, the one re-plan used", 3, 1, "step 2 stopped without a result", 1, "give up"),
    ("the last step failed, the re-plan used", 3, 2, "step 3 stopped without a result", 1, "give up"),
)
BUDGET_OF_TWO = (  # the same router with MAX_REPLANS set to 2 while it runs: the budget is the constant, not 1
    ("step 2 failed, one of two re-plans used", 4, 1, "step 2 stopped without a result", 1, "replan"),
    ("step 2 failed, both re-plans used", 4, 1, "step 2 stopped without a result", 2, "give up"),
)


def _route_hint(what: str, state: dict, got: Any, want: str, budget: int) -> str:
    seen = (f"for {what} (done={state['done']} of {len(state['plan'])}, replans={state['replans']}, "
            f"MAX_REPLANS={budget}), you returned {got!r}")
    if budget != MAX_REPLANS and got != want:
        return (f"{seen}: the check set MAX_REPLANS to {budget} for this run, and your router did not follow it: "
                "compare state['replans'] with MAX_REPLANS itself, read when the router runs, not with its value 1")
    if want == "replan" and got == "give up":
        return f"{seen}: a first failure deserves a re-plan while replans < MAX_REPLANS; giving up at once wastes it"
    if want == "give up" and got == "replan":
        return (f"{seen}: the re-plan budget is spent (replans is MAX_REPLANS), so 'give up'; without that bound a "
                "step that always fails goes execute -> replan -> execute for ever")
    if state["failed"] and got in ("next", "done"):
        return (f"{seen}: read state['failed'] first; a failed step leaves done unchanged, so 'next' would run the "
                "same step again, and 'done' would finish with a gap nobody named")
    if want == "done":
        return (f"{seen}: when done reaches len(plan) there is no next step (plan[done] does not exist): return "
                "'done', or the executor is sent to a step that is not there")
    if want == "next" and got == "done" and state["done"] == len(state["plan"]) - 1:
        return (f"{seen}: done counts the steps carried out, so done = len(plan) - 1 still leaves the last step "
                "(plan[done]) to run; 'done' here would skip it: steps are left while done < len(plan)")
    if want == "next" and got == "done":
        return (f"{seen}: plans come in any length (a re-plan changes it), so read len(state['plan']) rather than "
                "a number written in")
    return f"{seen}: with no failure and steps left, return 'next' (one of 'next', 'done', 'replan', 'give up')"


def _route_state(plan_length: int, done: int, failed: str | None, replans: int) -> dict:
    return {"task": "Times in Lima and Oslo.", "plan": [f"Step {n}." for n in range(1, plan_length + 1)],
            "done": done, "results": ["ok"] * done, "failed": failed, "skipped": [], "replans": replans,
            "answer": None, "status": "working"}


@contextmanager
def _budget(route: Any, budget: int) -> Iterator[None]:
    """While the router runs, its module's MAX_REPLANS is ``budget`` (a router that reads the constant follows it)."""
    space = getattr(route, "__globals__", {})
    had, old = "MAX_REPLANS" in space, space.get("MAX_REPLANS")
    space["MAX_REPLANS"] = budget
    try:
        yield
    finally:
        if had:
            space["MAX_REPLANS"] = old
        else:
            del space["MAX_REPLANS"]


@exercise("11.2", kind="code", title="the router after the executor")
def route_check(route: Any) -> str:
    if not callable(route):
        raise Hint("pass your function itself: route_after_execute, without calling it")
    for budget, cases in ((MAX_REPLANS, ROUTE_CASES), (2, BUDGET_OF_TWO)):
        with _budget(route, budget):
            for what, plan_length, done, failed, replans, want in cases:
                state = _route_state(plan_length, done, failed, replans)
                got = route(state)
                if got != want:
                    raise Hint(_route_hint(what, state, got, want, budget))
    return (f"your router sent {len(ROUTE_CASES) + len(BUDGET_OF_TWO)} states the right way: plans of 1, 3, 4 and 5 "
            "steps, failures, and a re-plan budget of 1 and of 2")


REPLAN_CASES = (
    {"task": "Times in Lima, Atlantis and Oslo, then a summary.",
     "plan": ["Look up the time in Lima.", "Look up the time in Atlantis.", "Look up the time in Oslo.",
              "Write the summary."],
     "done": 1, "results": ["Lima is 09:10."], "replans": 0,
     "failed": "step 2 stopped without a result: no data for 'Atlantis'",
     "reply": "1. Look up the time in Oslo.\n2. Write the summary, saying Atlantis has no data."},
    {"task": "Convert 40 euros to yen and to the currency of Narnia.",
     "plan": ["Convert 40 euros to yen.", "Convert 40 euros to Narnian crowns."],
     "done": 1, "results": ["6480 yen."], "replans": 1,
     "failed": "step 2 stopped without a result: unknown currency 'Narnian crowns'",
     "reply": "- Say that Narnian crowns cannot be converted."},
    {"task": "Check flight QZ 7.", "plan": ["Look up flight QZ 7 by its old code ZZ 7.", "Report the status."],
     "done": 0, "results": [], "replans": 0, "failed": "step 1 stopped without a result: code ZZ 7 unknown",
     "reply": "1. Look up flight QZ 7.\n2. Report the status."},
)


def _state(case: dict) -> dict:
    return {key: (list(value) if isinstance(value, list) else value) for key, value in case.items() if key != "reply"}


def _check_replan(node: Any, case: dict) -> None:
    state, replanner = _state(case), ScriptedLLM([case["reply"]], name="scripted: re-planner (check)")
    try:
        update = node(state, replanner)
    except ScriptExhausted:
        raise Hint("the re-planner was called more than once (its script holds one reply): call it once, with the "
                   "failed step and why, and read the steps out of that one reply") from None
    before = _state(case)
    changed = sorted(key for key in before.keys() | state.keys() if state.get(key) != before.get(key))
    if changed:
        raise Hint(f"your node changed the state it was given ({', '.join(changed)}): build a new list, return it "
                   "in the update and leave state as it was; the graph merges only what a node returns (each node "
                   "reads its own copy), so a change in place does nothing there but mislead a reader")
    if not isinstance(update, dict):
        raise Hint("a node returns a dict of the fields it changed (plan, failed, replans)")
    if len(replanner.calls) != 1:
        raise Hint(f"the re-planner was called {len(replanner.calls)} times; call it once, with what went wrong")
    read = " ".join(m.content for m in replanner.calls[0][0])
    failed_step = case["plan"][case["done"]]
    if failed_step not in read or case["failed"] not in read:
        raise Hint("the re-planner was not told which step failed and why: put the failed step and "
                   "state['failed'] in the message you send it")
    if "results" in update or "done" in update:
        raise Hint("a re-plan changes the plan, not the results or the count of steps done: leave "
                   "results and done out of the update (results is appended to, so it would grow twice)")
    plan = update.get("plan")
    done = case["done"]
    if not isinstance(plan, list) or plan[:done] != case["plan"][:done]:
        raise Hint("the steps already done changed: keep plan[:done] as it was, and replace only what comes after")
    if failed_step in plan[done:]:
        raise Hint("the failed step is still in the plan, so it would run again: keep only plan[:done] (the steps "
                   "done), then the re-planner's steps")
    if plan[done:] != parse_plan(case["reply"]):
        raise Hint(f"after the steps already done, the plan should be the re-planner's steps, numbering removed "
                   f"(parse_plan of its reply); got {plan[done:]}")
    if update.get("failed", "missing") is not None:
        raise Hint("failed is still set after the re-plan: set it to None, or after the next step the router "
                   "still reads a failure, whatever that step did, and re-plans again or gives up")
    if update.get("replans") != case["replans"] + 1:
        raise Hint("count the re-plans (replans + 1): the router uses that count to stop re-planning for ever")


@exercise("11.3", kind="code", title="a re-plan node for plan-and-execute")
def replan_node(node: Any) -> str:
    if not callable(node):
        raise Hint("pass your function itself: replan, without calling it")
    for case in REPLAN_CASES:
        _check_replan(node, case)
    return f"your re-plan node handled {len(REPLAN_CASES)} failures you had not seen, keeping what was done"


# Questions ---------------------------------------------------------------------------------------------------------

def _delegation_calls(max_steps: int) -> int:
    """Part 2's run, manager and helper, with the helper's step limit at ``max_steps``: model calls in all."""
    helper_llm = ScriptedLLM([[("get_weather", {"city": "Paris"})], "Paris is 18°C."]
                             + [[("get_weather", {"city": "Tokyo"})]] * 3, name="scripted: helper (check)")
    helper = Agent(helper_llm, weather_registry(), "You look up one temperature.", max_steps=max_steps)
    registry = ToolRegistry()
    registry.add(subagent_tool(helper, "ask_weather_helper", "Ask the weather helper to look up one temperature."))
    manager_llm = ScriptedLLM([[("ask_weather_helper", {"task": "What's the temperature in Paris?"})],
                               [("ask_weather_helper", {"task": "What's the temperature in Tokyo?"})],
                               "Paris is 18°C; the helper could not get Tokyo."], name="scripted: manager (check)")
    Agent(manager_llm, registry, "You delegate weather questions to a helper.").run({"question": "How warm?"})
    return len(manager_llm.calls) + len(helper_llm.calls)


@exercise("11.Q1", kind="reasoning", title="a tighter step limit for the helper")
def tighter_helper(answer: Any) -> str:
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of model calls, manager and helper together")
    truth, before = _delegation_calls(2), _delegation_calls(3)
    if answer == before:
        raise Hint(f"{before} is the count at max_steps=3: at 2, the stuck Tokyo task stops one call sooner")
    if answer != truth:
        raise Hint("count per task: the Paris task needs a call and an answer; the Tokyo task asks until its step "
                   "limit; the manager makes one call per delegation and one to answer")
    return f"right: {truth} calls; the Paris task still fits in 2 steps, the Tokyo task stops one call sooner"


def _empty_task_ending() -> tuple[str, str]:
    """Which choice a manager's empty task for ``subagent_tool`` leads to, and what the next call reads last."""
    helper = Agent(ScriptedLLM(["never reached"], name="scripted: helper (check)"), weather_registry(), "You help.")
    registry = ToolRegistry()
    registry.add(subagent_tool(helper, "ask_helper", "Ask the helper."))
    manager_llm = ScriptedLLM([[("ask_helper", {"task": ""})], "I could not ask."], name="scripted: manager (check)")
    try:
        Agent(manager_llm, registry, "You delegate.").run({"question": "Help?"})
    except Exception as error:
        return "A", str(error)
    slip = manager_llm.calls[1][0][-1]
    if helper.llm.calls:
        return "C", slip.content
    return ("B" if isinstance(slip, ToolMessage) and slip.content.startswith("Error") else "C"), slip.content


@exercise("11.Q2", kind="reasoning", title="an empty task for the helper")
def empty_task(answer: Any) -> str:
    if answer not in ("A", "B", "C"):
        raise Hint('answer with one letter: "A", "B" or "C"')
    truth, read = _empty_task_ending()
    if answer != truth:
        raise Hint("the run says otherwise: find what kind of error an empty task is (import "
                   "mingraph_lite.subagents and read its docstring), then Part 1's sentence on which kind of error "
                   "the loop answers for the model to fix instead of ending the run")
    return f"right: the manager's next call reads {read!r}, and the helper is never run"


def _atlantis_calls() -> int:
    """Model calls of the Atlantis plan with no re-planner: the planner, then a fresh agent per step until one fails."""
    plan = ("1. Look up the temperature in Paris.\n2. Look up the temperature in Atlantis.\n"
            "3. Look up the temperature in Tokyo.")
    planner, executor = planner_llm(plan), executor_llm()
    state = {"task": "Paris, Atlantis and Tokyo?", "done": 0, "results": [],
             "plan": parse_plan(planner.generate([UserMessage(PLANNER_PROMPT)], []).message.content)}
    try:
        while True:
            agent = Agent(executor, weather_registry(), EXECUTOR_PROMPT, max_steps=3)
            state["results"].append(agent.run({"question": step_question(state)})["answer"])
            state["done"] += 1
    except StepLimitReached:
        return len(planner.calls) + len(executor.calls)


@exercise("11.Q3", kind="reasoning", title="how many model calls before the plan stops?")
def atlantis_calls(answer: Any) -> str:
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of model calls, planner and executor together")
    truth = _atlantis_calls()
    if answer == truth - 1:
        raise Hint("count the planner too: it is one model call before any step runs")
    if answer != truth:
        raise Hint("count per node: one planner call; the Paris step's agent asks for a tool and then answers; "
                   "the Atlantis step's agent asks until its max_steps=3; Tokyo never runs")
    return f"right: {truth} calls, and the step after the failure is never started"
