# %% [markdown]
# # 11 · Helpers and plans: an agent behind one tool, and plan-and-execute
#
# **By the end of this notebook you will be able to**
#
# - wrap a whole agent as one tool whose step limit comes back as a note, not a crash, and give it a second chance;
# - write the router that decides, after each step of a plan, what runs next;
# - read plan-and-execute as a graph (its planner and executor are given) and write its re-plan node.
#
# **Prerequisites:** notebooks 01 to 05 and 07 to 10.
# **Time:** about 88 minutes (estimated from length: see "How long" in 00).
#
# Every run here is **scripted**, and each scripted model says so in its name. The names ReAct and plan-and-execute,
# and plan-and-execute's three roles (planner, executor, re-planner), are those of "Decoding LLMs: Building AI Agents &
# Multi-Step Workflows (Part 4)" by Shahibur Rahman; the code here is the course's own.

# %%
import operator
from contextlib import suppress
from typing import Annotated, TypedDict

from mingraph_lite import (Agent, ConsoleLogger, ScriptedLLM, StepLimitReached, SystemMessage, ToolMessage,
                           ToolRegistry, UserMessage, subagent_tool)
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.scripts import looping_manager as looping_helper  # the never-stopping script, as a helper
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.graph import END, START, StateGraph
from lessons.exercises import check
from lessons.plan_execute import (EXECUTOR_PROMPT, PLANNER_PROMPT, compare_reads, dropping_replanner, executor_llm,
                                  parse_plan, path_hint, planner_llm, show_run, step_question)
from lessons.predict import reveal
from lessons.reference import reference

print("the running question:", QUESTION)

# %% [markdown]
# ## Part 1 · A helper agent behind one tool
#
# A helper is a second agent with its own tools, folder and step limit, asked through a tool function. This helper's scripted model
# (`looping_helper`) never stops asking for errands, so it hits its `max_steps=3`. **Predict first:** will the
# *manager's* run survive its helper running out of steps?

# %%
guess_manager_survives = ...  # your guess: True or False

# %%
stuck_helper = Agent(looping_helper(), weather_registry(), "You look up temperatures.", max_steps=3)


def ask_helper(task: str) -> str:
    """Ask the weather helper to do one task and return its answer.

    Args:
        task: The task, as one self-contained instruction.
    """
    return stuck_helper.run({"question": task})["answer"]


naive_registry = ToolRegistry()
naive_registry.add(ask_helper)
manager = Agent(ScriptedLLM([[("ask_helper", {"task": "What's the temperature in Paris?"})], "never reached"],
                            name="scripted: manager"), naive_registry, "You delegate weather questions.")
survived = True
try:
    manager.run({"question": "How warm is it in Paris?"})
except StepLimitReached as error:
    survived = False
    print(f"the manager's run crashed: {type(error).__name__}: {error}")
last = manager.memory.messages()[-1]  # the answer slip: the ToolMessage that answered the manager's call
print(f"the manager's last answer slip (the {type(last).__name__}):", last.content)
reveal(guess_manager_survives, survived, "the manager's run survived")


# %% [markdown]
# The helper's step limit travelled up as an exception and ended the **manager's** run (the "Error: tool failed"
# slip closes the open call). A tool that raises ends the run (notebook 03); only a bad argument
# (`ToolArgsError`) is answered for the model to fix.
#
# And the helper kept its folder. Give it a second task, and its first call reads the first task's leftovers; a
# fresh copy (same model, tools and prompt) reads only its prompt and the task:

# %%
calls = stuck_helper.llm.calls  # one entry per model call: (the messages it read, the tools it was offered)
fresh = Agent(stuck_helper.llm, stuck_helper.registry, stuck_helper.system_prompt, max_steps=3)
first_reads = []
for agent in (stuck_helper, fresh):  # both run out of steps; what matters is what their first call read
    n = len(calls)
    with suppress(StepLimitReached):
        agent.run({"question": "What's the temperature in Tokyo?"})
    first_reads.append(calls[n][0])
used_read, fresh_read = first_reads
# used: 12 = the system prompt, task 1, 3 rounds of (1 request for two temperatures + 2 answer slips), task 2
print(f"task 2's first read: used {len(used_read)} messages (2nd: {used_read[1].content!r}), fresh {len(fresh_read)}")
assert used_read[1].content == "What's the temperature in Paris?" and len(fresh_read) == 2 and len(used_read) == 12

# %% [markdown]
# ### Exercise 11.1: a helper with a second chance
#
# The fix has two parts you have now seen: a fresh copy of the helper for every task, and the step limit caught
# (`except StepLimitReached`) and turned into a note the manager can read. Some tasks also need only a few more steps
# than the limit allows. Write `ask_twice(template, task)`:
#
# 1. run a fresh copy of the `template` agent (its `llm`, `registry` and `system_prompt`, on an empty folder) on
#    `task` with the template's `max_steps`, and return its answer;
# 2. if that try runs out of steps, try once more, on another fresh folder, with **twice** the template's `max_steps`;
# 3. if the second try runs out of steps too, return a note that starts with `"Error:"` and names the task. The step
#    limit never escapes, and nothing else is caught: a broken tool or an unreachable model must end the run.
#
# The check uses helpers not shown here (one has a broken tool) and refuses the package's `subagent_tool` (below) or
# its `SubagentTool` class: they give no second chance.

# %%
def ask_twice(template, task):
    raise NotImplementedError  # your code here


# %%
check("11.1", ask_twice)

# %% [markdown]
# A second chance is a bet. The notebook's own `ask_twice` (loaded unshown) on two helpers: one never finishes, one
# needs a call more than its limit.

# %%
notebook_ask_twice = reference("11.1")
hopeless = Agent(looping_helper(), weather_registry(), "You look up temperatures.", max_steps=3)


def three_lookups(messages, tools):  # answers once its folder holds 3 answer slips: 4 calls from an empty folder
    enough = sum(isinstance(m, ToolMessage) for m in messages) >= 3
    return "Paris is 18°C." if enough else [("get_weather", {"city": "Paris"})]


nearly = Agent(ScriptedLLM([three_lookups] * 10, name="scripted: helper, answers after 3 lookups"),
               weather_registry(), "You look up temperatures.", max_steps=3)
for agent in (hopeless, nearly):
    print(notebook_ask_twice(agent, "What's the temperature in Paris?"), "| model calls:", len(agent.llm.calls))
# never finishes: 3 + 6, both tries used up; nearly there: the first try stops at 3, the second answers on its 4th
assert len(hopeless.llm.calls) == 3 + 6 and len(nearly.llm.calls) == 3 + 4

# %% [markdown]
# Twice the steps helps a helper that was nearly there (3 + 4 calls), and **triples** the bill of one
# that never finishes (3 + 6 calls against 3).
#
# The package's version of the first idea is `subagent_tool(agent, name, description)`: every call runs a fresh copy
# of the template agent on an empty folder, and `.subagent.runs` records each delegation. Of the helper's failures,
# it turns only the step limit into a note, as yours does.
#
# Now a manager that delegates two tasks. The helper's script answers the first and gets stuck on the second.
# **Predict first:** how many model calls in total (manager plus helper) will this run take?

# %%
guess_total_calls = ...  # your guess: a whole number

# %%
helper_llm = ScriptedLLM([[("get_weather", {"city": "Paris"})], "Paris is 18°C."]
                         + [[("get_weather", {"city": "Tokyo"})]] * 3, name="scripted: helper, stuck on Tokyo")
helper = Agent(helper_llm, weather_registry(), "You look up one temperature.", max_steps=3)
ask = subagent_tool(helper, "ask_weather_helper", "Ask the weather helper to look up one temperature.")
delegations = [[("ask_weather_helper", {"task": f"What's the temperature in {city}?"})] for city in ("Paris", "Tokyo")]
manager_llm = ScriptedLLM(delegations + ["Paris is 18°C. I could not get Tokyo's temperature: the helper gave up."],
                          name="scripted: manager")
registry = ToolRegistry()
registry.add(ask)
manager = Agent(manager_llm, registry, "You delegate weather questions to a helper.", observers=[ConsoleLogger()])
result = manager.run({"question": "How warm are Paris and Tokyo?"})

# %%
for run in ask.subagent.runs:  # one record per delegation
    print(f"{run.task:<34} answer: {run.answer!s:<16} model calls: {run.model_calls} | stopped: {run.stopped or '-'}")
print("\nthe manager answered:", result["answer"])
reveal(guess_total_calls, len(manager_llm.calls) + len(helper_llm.calls), "model calls, manager and helper")

# %% [markdown]
# A delegation is cheap to read (one slip per task), not to run.
#
# ## Part 2 · Plan first, then execute
#
# The loop from notebook 01 is what the source article calls **ReAct**: the model decides the next step each round
# from everything so far. **Plan-and-execute** splits that: a *planner* writes all the steps up front, an *executor*
# carries them out one by one, and a *re-planner* updates the remaining steps when a result is unexpected (here: a
# step fails). A written plan can be read and bounded before anything runs.
#
# A graph on notebook 07's engine; the plan is data in its worksheet:

# %%
class PlanState(TypedDict):
    task: str
    plan: list[str]                                 # replaced whole: by the planner, then by a re-plan
    done: int                                       # steps carried out; also the index of the next one
    results: Annotated[list[str], operator.add]     # one per step carried out, in order
    failed: str | None                              # why the current step stopped without a result
    skipped: Annotated[list[str], operator.add]     # steps that could not be done
    replans: int                                    # how many times the plan was revised
    answer: str | None
    status: str                                     # "working", "finished", "needs_attention" or "refused"


def start(task):
    return {"task": task, "plan": [], "done": 0, "results": [], "failed": None, "skipped": [], "replans": 0,
            "answer": None, "status": "working"}


# %% [markdown]
# The **planner** node asks a model once for a numbered list and reads it with the course's `parse_plan`. It strips
# the numbering from every line and keeps every line that is not blank, so a chatty preamble ("Sure! Here is the
# plan:") would become a step; our scripted planner writes none. The **executor** node gives one step to a fresh small
# agent, which reads only the task, the results so far and its step (`step_question`); a step that runs out of steps
# is recorded with why.

# %%
print(step_question({"task": QUESTION, "plan": ["Look up the temperature in Paris.", "Look up the temperature in Tokyo."],
                     "done": 1, "results": ["Paris is 18°C."]}))  # what step 2's agent is asked


# %%
def planner_node(planner):
    def plan(state):
        reply = planner.generate([SystemMessage(PLANNER_PROMPT), UserMessage(state["task"])], [])
        return {"plan": parse_plan(reply.message.content)}
    return plan


def executor_node(executor, max_steps=3):
    def execute(state):
        step = state["plan"][state["done"]]
        agent = Agent(executor, weather_registry(), EXECUTOR_PROMPT, max_steps=max_steps)
        try:
            answer = agent.run({"question": step_question(state)})["answer"]
        except StepLimitReached as stop:
            return {"failed": f"step {state['done'] + 1} stopped without a result: {stop}", "skipped": [step]}
        return {"done": state["done"] + 1, "results": [answer]}
    return execute


def finish(state):
    gaps = f" (could not be done: {'; '.join(state['skipped'])})" if state["skipped"] else ""
    return {"answer": state["results"][-1] + gaps, "status": "finished"}


def stop(state):
    return {"answer": None, "status": "needs_attention"}


def refuse(state):  # the caller's approve(plan) said no: nothing has run
    return {"answer": None, "status": "refused"}


# %% [markdown]
# ### Exercise 11.2: the router after the executor
#
# After every visit to the executor, a router reads the worksheet and returns a label; the graph's edges (below)
# turn the label into the next node. Write `route_after_execute(state)`. It returns
#
# - `"next"` when no step failed and steps are left (`done` counts the steps carried out);
# - `"done"` when no step failed and every step is done;
# - `"replan"` when the current step failed (`state["failed"]` is set) and fewer than `MAX_REPLANS` re-plans were
#   used (`state["replans"]`);
# - `"give up"` when a step failed and the re-plan budget is spent.
#
# The check reads your router on states this notebook never builds: plans of other lengths, and `MAX_REPLANS` set
# to 2 for a run.

# %%
MAX_REPLANS = 1


def route_after_execute(state):
    raise NotImplementedError  # your code here


# %%
check("11.2", route_after_execute)

# %% [markdown]
# The graph below uses the notebook's own router (loaded unshown), so the runs after it do not depend on yours.

# %%
notebook_route = reference("11.2")


def build_plan_graph(planner, executor, replan_node=None, approve=None):
    """plan -> (approve?) -> execute, one step a visit -> finish; a failed step goes to replan, or to stop."""
    builder = (StateGraph(PlanState)
               .add_node("plan", planner_node(planner)).add_node("execute", executor_node(executor))
               .add_node("finish", finish).add_node("stop", stop).add_node("refuse", refuse)
               .add_edge(START, "plan").add_edge("finish", END).add_edge("stop", END).add_edge("refuse", END))
    approved = (lambda state: "go") if approve is None else (lambda state: "go" if approve(state["plan"]) else "no")
    builder.add_conditional_edges("plan", approved, {"go": "execute", "no": "refuse"})
    # with no re-planner, a failed step stops the plan
    routes = {"next": "execute", "done": "finish", "give up": "stop", "replan": "stop"}
    if replan_node is not None:
        builder.add_node("replan", replan_node).add_edge("replan", "execute")
        routes["replan"] = "replan"
    return builder.add_conditional_edges("execute", notebook_route, routes).compile(max_steps=16)


# %% [markdown]
# The scripted planner writes a four-step plan; the scripted executor asks for every tool a step needs in one call
# and answers in the next (a step with no tools answers at once). **Predict first:** the four-round loop from notebook 01 answers
# this question in 4 model calls. How many model calls will plan-and-execute make (planner plus every step's agent)?

# %%
guess_plan_calls = ...  # your guess: a whole number

# %%
planner, executor = planner_llm(), executor_llm()
plan_graph = build_plan_graph(planner, executor)
final = plan_graph.invoke(start(QUESTION))
show_run(final, plan_graph.path)  # each step with its result, the path, the status
reveal(guess_plan_calls, len(planner.calls) + len(executor.calls), "model calls, planner and executor", gated=True)

# %% [markdown]
# Twice the loop's calls. Does each call at least read less? Words read per call (notebook 10's `word_count`):

# %%
react_llm = four_round_manager()
Agent(react_llm, weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION})
react_reads, plan_reads = compare_reads(react_llm, planner, executor)  # each call's input words, as a table
assert len(executor.calls) == 2 * 3 + 1  # three steps with tools (two calls each), one without
assert len(plan_reads) == 2 * len(react_reads) and max(plan_reads) > max(react_reads)

# %% [markdown]
# On a task this small the plan loses: each step's agent re-reads the task, its instructions and the
# results so far, so even its largest read is bigger than the loop's. What it buys is not tokens (question 5).
#
# Here the planner puts a city with no teaching data second; that step's agent tries until its `max_steps`, and
# there is no re-planner. **Predict first:** which nodes will the run visit, in order?

# %%
guess_atlantis_path = ...  # your guess: a list of node names, such as ["plan", "execute"]

# %%
ATLANTIS_TASK = "What's the temperature in Paris, Atlantis and Tokyo, in Fahrenheit?"
ATLANTIS_PLAN = ("1. Look up the temperature in Paris.\n2. Look up the temperature in Atlantis.\n"
                 "3. Look up the temperature in Tokyo.\n4. Convert both temperatures to Fahrenheit.\n"
                 "5. Write the answer from the results.")
stuck_graph = build_plan_graph(planner_llm(ATLANTIS_PLAN), executor_llm())
stopped = stuck_graph.invoke(start(ATLANTIS_TASK))
reveal(guess_atlantis_path, list(stuck_graph.path), "the path", gated=True,
       hint=path_hint(guess_atlantis_path, list(stuck_graph.path)))  # where your guess first differs
print(f"status: {stopped['status']}\nwhy:    {stopped['failed']}\nkept:   {stopped['results']}")

# %% [markdown]
# A caller who had read that plan could have refused it: `approve` sees the plan and says whether it may run; a
# refused plan ends the run `refused` before any step's agent is called.

# %%
refusing_executor = executor_llm()
refused = build_plan_graph(planner_llm(ATLANTIS_PLAN), refusing_executor,  # a caller's rule: two cities at most
                           approve=lambda plan: sum(step.startswith("Look up") for step in plan) <= 2
                           ).invoke(start(ATLANTIS_TASK))
print("status:", refused["status"], "| plan:", refused["plan"], "| executor calls:", len(refusing_executor.calls))
assert refused["status"] == "refused" and refused["results"] == [] and refusing_executor.calls == []

# %% [markdown]
# ### Exercise 11.3: a re-plan node
#
# Tokyo could still have been done. Write the node that revises the plan instead:
# `replan(state, replanner)` (the graph will call it with the state; `replanner` is a model, used like the planner
# above). It must
#
# 1. tell the re-planner, in **one** call, what went wrong: at least the failed step (`state["plan"][state["done"]]`)
#    and the reason (`state["failed"]`); the task, the results so far and the steps after the failed one help it too;
# 2. return an update: `plan` = the steps already done, unchanged, followed by the re-planner's steps (its reply read
#    into steps with `parse_plan`); `failed` = `None`; `replans` = one more than
#    before. Leave `results` and `done` alone, and change nothing in `state` itself (build a new list).
#
# The check gives your node failures this notebook never shows.

# %%
REPLAN_PROMPT = ("A step of the plan failed. Write the steps that should follow the ones already done, as a "
                 "numbered list, one per line.")


def replan(state, replanner):
    raise NotImplementedError  # your code here


# %%
check("11.3", replan)


# %% [markdown]
# The notebook's own re-plan node (loaded unshown) with a scripted re-planner that answers the steps after the
# Atlantis one, whatever it is sent. The graph now has a way back: `execute -> replan -> execute`, bounded by
# `MAX_REPLANS`.

# %%
notebook_replan = reference("11.3")
replanner = dropping_replanner(ATLANTIS_PLAN, "Atlantis")
replan_graph = build_plan_graph(planner_llm(ATLANTIS_PLAN), executor_llm(),
                                lambda state: notebook_replan(state, replanner))  # a node gets the state only
revised = replan_graph.invoke(start(ATLANTIS_TASK))
show_run(revised, replan_graph.path, replanner)  # first what the re-planner was read
assert revised["status"] == "finished" and "Tokyo" in revised["answer"] and "Atlantis" in revised["answer"]

# %% [markdown]
# The answer names what could not be done; without `skipped` and `finish`, a re-plan would quietly narrow the task.

# %% [markdown]
# ## What is still open
#
# - **A helper's note is only as good as the manager that reads it.** The course has no recorded real run of a
#   manager with a helper (`data/runs/` holds none), so whether a real manager reports the gap or makes up the
#   number is not shown here.
# - **A re-planner is a model too.** Ours only drops a step; a real one may rewrite good steps, plan the failing step
#   again (hence `MAX_REPLANS`), or narrow the task; judging its plans is not built.
#
# **Next, notebook 12:** the capstone, a new task built from your own pieces (notebook 13 puts them together).

# %% [markdown]
# ## Questions
#
# Answers are in `notebooks/solutions/11_helpers_and_plans.py`; 1, 2 and 3 are checked below against a run of the
# real code.
#
# 1. In Part 1, if the helper were built with `max_steps=2` instead of 3, how many model calls (manager and helper
#    together) would the two delegations take?
# 2. A manager asks the helper behind `subagent_tool` for an empty task (`task=""`). What does the manager's next
#    model call read last? A: nothing, there is no next call: the run ends with an exception; B: an answer slip
#    starting "Error" about the argument, the helper never run; C: the helper's answer to an empty question.
#    (The module `mingraph_lite.subagents`'s docstring names the error; Part 1 says which errors are answered.)
# 3. A plan of three steps (Paris, Atlantis, Tokyo), run with no re-planner: how many model calls do the planner and
#    the executor make in all before the graph stops?
# 4. What would happen to the Atlantis run if the re-plan node left `failed` set? Which line decides it?
# 5. On the running question plan-and-execute makes twice the calls of the loop. Name three things it buys, and the
#    node or line where each lives.

# %%
answer_q1 = ...  # a whole number of model calls
check("11.Q1", answer_q1)

# %%
answer_q2 = ...  # "A", "B" or "C"
check("11.Q2", answer_q2)

# %%
answer_q3 = ...  # a whole number of model calls
check("11.Q3", answer_q3)
