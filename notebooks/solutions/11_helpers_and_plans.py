"""Reference answers for notebook 11's exercises, and plausible wrong ones with the hint they should get."""

from __future__ import annotations


from mingraph_lite import Agent, StepLimitReached, SystemMessage, UserMessage, subagent_tool
from lessons.plan_execute import parse_plan


# 11.1 ---------------------------------------------------------------- a helper with a second chance
def _fresh(template, max_steps):
    return Agent(template.llm, template.registry, template.system_prompt, max_steps=max_steps)


def ask_twice(template, task):
    """The notebook's own answer to 11.1 (a reference answer, loaded unprinted)."""
    for max_steps in (template.max_steps, 2 * template.max_steps):
        try:
            return _fresh(template, max_steps).run({"question": task})["answer"]
        except StepLimitReached:
            continue  # the first time, one more try with room to finish
    return f"Error: the helper gave up on {task!r} twice, the second time after {2 * template.max_steps} steps"


def ask_once(template, task):
    """The notebook's inline version: no second chance."""
    try:
        return _fresh(template, template.max_steps).run({"question": task})["answer"]
    except StepLimitReached:
        return f"Error: the helper gave up on {task!r}"


def ask_twice_same_limit(template, task):
    for _ in range(2):
        try:
            return _fresh(template, template.max_steps).run({"question": task})["answer"]
        except StepLimitReached:
            continue
    return f"Error: the helper gave up on {task!r}"


def ask_twice_on_the_template(template, task):
    try:
        return template.run({"question": task})["answer"]
    except StepLimitReached:
        pass
    try:
        return _fresh(template, 2 * template.max_steps).run({"question": task})["answer"]
    except StepLimitReached:
        return f"Error: the helper gave up on {task!r}"


def ask_twice_then_raise(template, task):
    try:
        return _fresh(template, template.max_steps).run({"question": task})["answer"]
    except StepLimitReached:
        return _fresh(template, 2 * template.max_steps).run({"question": task})["answer"]


def ask_twice_catches_everything(template, task):
    """Catches every exception: a broken tool comes back as a note the manager can't act on."""
    for max_steps in (template.max_steps, 2 * template.max_steps):
        try:
            return _fresh(template, max_steps).run({"question": task})["answer"]
        except Exception:
            continue
    return f"Error: the helper gave up on {task!r}"


def ask_twice_silent_note(template, task):
    answer = ask_twice(template, task)
    return "Error: the helper gave up." if answer.startswith("Error:") else answer


def ask_three_times(template, task):
    for max_steps in (template.max_steps, 2 * template.max_steps, 4 * template.max_steps):
        try:
            return _fresh(template, max_steps).run({"question": task})["answer"]
        except StepLimitReached:
            continue
    return f"Error: the helper gave up on {task!r}"


def ask_through_the_package(template, task):
    return subagent_tool(template, "ask", "Ask the helper.")(task)


def ask_through_the_class_twice(template, task):
    """The class behind subagent_tool, called twice: the package still does the delegation."""
    import copy

    from mingraph_lite.subagents import SubagentTool

    answer = SubagentTool(template, "h", "helper")(task)
    if not answer.startswith("Error"):
        return answer
    roomier = copy.copy(template)
    roomier.max_steps = 2 * template.max_steps
    answer = SubagentTool(roomier, "h", "helper")(task)
    return answer if not answer.startswith("Error") else f"Error: gave up on {task}"


def ask_through_a_renamed_class(template, task):
    """The same class, reached without writing its name: only watching the delegation catches it."""
    import mingraph_lite.subagents as subagents

    answer = getattr(subagents, "Subagent" + "Tool")(template, "h", "helper")(task)
    return answer if not answer.startswith("Error") else f"Error: gave up on {task}"


# 11.2 ---------------------------------------------------------------- the router after the executor
MAX_REPLANS = 1


def route_after_execute(state):
    """The notebook's own answer to 11.2 (a reference answer, loaded unprinted)."""
    if state["failed"]:
        return "replan" if state["replans"] < MAX_REPLANS else "give up"
    return "next" if state["done"] < len(state["plan"]) else "done"


def route_gives_up_at_once(state):
    if state["failed"]:
        return "give up"
    return "next" if state["done"] < len(state["plan"]) else "done"


def route_ignores_budget(state):
    if state["failed"]:
        return "replan"
    return "next" if state["done"] < len(state["plan"]) else "done"


def route_budget_off_by_one(state):
    if state["failed"]:
        return "replan" if state["replans"] <= MAX_REPLANS else "give up"
    return "next" if state["done"] < len(state["plan"]) else "done"


def route_never_stops(state):
    if state["failed"]:
        return "replan" if state["replans"] < MAX_REPLANS else "give up"
    return "next"


def route_reads_done_first(state):
    if state["done"] < len(state["plan"]):
        return "next"
    if state["failed"]:
        return "replan" if state["replans"] < MAX_REPLANS else "give up"
    return "done"



def route_skips_last_step(state):
    """Off by one: with done = len(plan) - 1 the last step is still to run, and this calls the plan done."""
    if state["failed"]:
        return "replan" if state["replans"] < MAX_REPLANS else "give up"
    return "next" if state["done"] < len(state["plan"]) - 1 else "done"


def route_for_three_steps(state):
    """Built for the notebook's plans only: three steps and one re-plan, written in as numbers."""
    if state["failed"]:
        return "replan" if state["replans"] == 0 else "give up"
    return "next" if state["done"] < 3 else "done"


def route_budget_written_in(state):
    """Reads the plan's length, but writes the budget's value in instead of reading MAX_REPLANS."""
    if state["failed"]:
        return "replan" if state["replans"] < 1 else "give up"
    return "next" if state["done"] < len(state["plan"]) else "done"

# 11.3 ---------------------------------------------------------------- a re-plan node
REPLAN_PROMPT = "A step of the plan failed. Write the remaining steps as a numbered list, one per line."


def _report(state):
    done = state["done"]
    finished = "\n".join(f"- {step} -> {result}" for step, result in zip(state["plan"][:done], state["results"]))
    after = "\n".join(f"{i}. {step}" for i, step in enumerate(state["plan"][done + 1:], 1))
    return (f"Task: {state['task']}\nDone so far:\n{finished or '(nothing yet)'}\n"
            f"Failed step: {state['plan'][done]}\nWhy: {state['failed']}\nSteps after it:\n{after}")


def replan(state, replanner):
    """The notebook's own answer to 11.3 (a reference answer, loaded unprinted)."""
    reply = replanner.generate([SystemMessage(REPLAN_PROMPT), UserMessage(_report(state))], [])
    done = state["done"]
    return {"plan": state["plan"][:done] + parse_plan(reply.message.content), "failed": None,
            "replans": state["replans"] + 1}


def replan_whole_plan(state, replanner):
    reply = replanner.generate([SystemMessage(REPLAN_PROMPT), UserMessage(_report(state))], [])
    return {"plan": parse_plan(reply.message.content), "failed": None, "replans": state["replans"] + 1}


def replan_keeps_failed(state, replanner):
    update = replan(state, replanner)
    return {**update, "failed": state["failed"]}


def replan_without_the_reason(state, replanner):
    reply = replanner.generate([SystemMessage(REPLAN_PROMPT), UserMessage(state["task"])], [])
    done = state["done"]
    return {"plan": state["plan"][:done] + parse_plan(reply.message.content), "failed": None,
            "replans": state["replans"] + 1}


def replan_uncounted(state, replanner):
    update = replan(state, replanner)
    return {"plan": update["plan"], "failed": None}


def replan_keeps_failed_step(state, replanner):
    update = replan(state, replanner)
    return {**update, "plan": state["plan"][:state["done"] + 1] + update["plan"][state["done"]:]}


def replan_in_place(state, replanner):
    """Cuts and extends the plan it was given, then returns that same list."""
    update = replan(state, replanner)
    del state["plan"][state["done"]:]
    state["plan"].extend(update["plan"][state["done"]:])
    return {**update, "plan": state["plan"]}


def replan_with_results(state, replanner):
    return {**replan(state, replanner), "results": state["results"]}


# a reply is not a plan until its numbering is removed
def replan_asks_twice(state, replanner):
    """Asks once for the steps and once more to check them: the second call finds the script used up."""
    update = replan(state, replanner)
    replanner.generate([SystemMessage("Check this plan."), UserMessage("\n".join(update["plan"]))], [])
    return update


def replan_unparsed(state, replanner):
    reply = replanner.generate([SystemMessage(REPLAN_PROMPT), UserMessage(_report(state))], [])
    done = state["done"]
    return {"plan": state["plan"][:done] + reply.message.content.splitlines(), "failed": None,
            "replans": state["replans"] + 1}


SOLUTIONS = {"11.1": ask_twice, "11.2": route_after_execute, "11.3": replan, "11.Q1": 7, "11.Q2": "B", "11.Q3": 6}

QUESTIONS = {
    "11.Q1": "7: the manager makes 3 calls (two delegations and the answer); the Paris task needs 2 (a call and "
             "its answer), which still fits; the Tokyo task stops at its limit after 2 instead of 3.",
    "11.Q2": "B. An empty task is the manager's mistake and one it can fix, so subagent_tool answers it with an "
             "error ToolMessage (ToolArgsError) naming the argument, and the manager's next call reads that slip "
             "last; the helper's model is never called.",
    "11.Q3": "6: one planner call; the Paris step's agent asks for get_weather and then answers (2 calls); the "
             "Atlantis step's agent asks until its max_steps of 3; the Tokyo step is never started.",
    "11.Q4": "The run does not go straight back to replan: the edge replan -> execute is fixed, so the new plan's "
             "first step (Tokyo) runs and succeeds. But route_after_execute checks state['failed'] first, and it "
             "is still set, so it reads that success as a failure: with replans already at MAX_REPLANS it routes "
             "to 'give up'. Path: plan -> execute -> execute -> replan -> execute -> stop; status needs_attention, "
             "no answer, Paris and Tokyo kept in results (tests/notebooks/test_nb10_11_third_reader.py runs it). "
             "The line: `if state[\"failed\"]:` in route_after_execute.",
    "11.Q5": "A plan that can be read and refused before any step runs (the planner node's output, "
             "state['plan'], and the approve check on the edge after it, which sends a refused plan to refuse); "
             "a failed step that is named, not hidden: the executor node records it in state['skipped'] and the "
             "finish node writes it into the answer (\"could not be done: ...\", the notebook's last run shows it); "
             "and a clear place to stop, with what was done kept (route_after_execute and the stop node). The "
             "step limit is not one of them: the loop's Agent has max_steps too.",
}

WRONG = {
    "11.1": [(ask_once, "no second chance"), (ask_twice_same_limit, "twice the template's max_steps"),
             (ask_twice_on_the_template, "never the template itself"), (ask_twice_then_raise, "a step limit escaped"),
             (ask_twice_silent_note, "names the task"),
             (ask_twice_catches_everything, "only the step limit becomes a note"), (ask_three_times, "at most twice"),
             (ask_through_the_package, "package's subagent_tool"),
             (ask_through_the_class_twice, "package's subagent_tool"),
             (ask_through_a_renamed_class, "package's SubagentTool ran the helper")],
    "11.2": [(route_gives_up_at_once, "giving up at once"), (route_ignores_budget, "the re-plan budget is spent"),
             (route_budget_off_by_one, "the re-plan budget is spent"), (route_never_stops, "there is no next step"),
             (route_reads_done_first, "read state['failed'] first"),
             (route_skips_last_step, "still leaves the last step"), (route_for_three_steps, "plans come in any length"),
             (route_budget_written_in, "MAX_REPLANS itself")],
    "11.3": [(replan_whole_plan, "the steps already done changed"), (replan_keeps_failed, "failed is still set"),
             (replan_without_the_reason, "not told which step failed"), (replan_uncounted, "count the re-plans"),
             (replan_with_results, "leave results and done out"),
             (replan_keeps_failed_step, "the failed step is still in the plan"),
             (replan_in_place, "changed the state it was given (plan)"), (replan_unparsed, "numbering removed"),
             (replan_asks_twice, "called more than once")],
    "11.Q1": [(8, "at max_steps=3"), (6, "count per task")],
    "11.Q2": [("A", "the run says otherwise"), ("C", "the run says otherwise"), ("b", "one letter")],
    "11.Q3": [(5, "count the planner too"), (9, "count per node")],
}
