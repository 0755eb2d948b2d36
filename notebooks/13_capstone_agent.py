# %% [markdown]
# # 13 · Capstone, part 2: the agent
#
# Notebook 12 set the price task and built its pieces: a window that pins the question, an errand that answers
# every `ToolCall`, a price log and a router. Here they become the **agent**: a graph whose loop has a ceiling
# (notebook 01), built in three milestones on one class, each with its own check:
#
# - 13.1 **the loop**: it answers questions you have not seen, reading the pinned window;
# - 13.2 **the limits**: the ceiling, the call budget and a broken tool;
# - 13.3 **the hooks**, and two recorded runs of real models, replayed through your agent.
#
# Notebook 14 (part 3) then reads those real runs and changes the agent where they went wrong.
#
# **Prerequisites:** notebooks 01 to 12. **Time:** about 82 minutes (estimated from length: see "How long" in 00).
#
# Every run here is **scripted** (no model, no network), except, in 13.3's check, two recorded runs of real
# models, **replayed** from their trace files.

# %%
import json  # noqa: F401 (a pasted PriceLog needs it)
import operator
from typing import Annotated, TypedDict

from mingraph_lite import ConsoleLogger, ScriptedLLM, UserMessage
from mingraph_lite import AssistantMessage, SystemMessage, ToolMessage  # noqa: F401 (for your PriceAgent)
from mingraph_lite.graph import END, START, StateGraph  # noqa: F401 (your graph in 13.1 needs them)
# your own notebook-12 pieces, pasted below, use these names: import them here so the paste runs
from mingraph_lite import Observer, ToolArgsError, ToolCall  # noqa: F401
from mingraph_lite.graph import Send  # noqa: F401
from lessons.capstone import QUESTION, SYSTEM_PROMPT, price_manager, price_tools
from lessons.exercises import check
from lessons.local_prompt import local_prompt
from lessons.predict import reveal
from lessons.reference import reference

# %% [markdown]
# ## Your pieces
#
# The task is notebook 12's: *"What does a coffee cost in Rome and in Osaka, in US dollars?"*, with `get_price`
# and `to_usd`, the same system prompt and the same scripted manager. The cell below loads notebook 12's own
# versions of the window (12.1), the errand (12.2), the price log (12.3) and the router (12.4), unprinted, so this
# notebook works whether or not you finished those. To run yours, paste your four pieces into a cell after it.
#
# The calls the agent needs, all met before:
# - `response = llm.generate(messages, registry.tools)`; the reply is `response.message`;
# - `errand(registry, call)` answers a `ToolCall` with a `ToolMessage`, as `registry.run(call)` does;
# - you build a `ToolMessage` yourself as `ToolMessage(text, tool_call_id=call.id, name=call.name, is_error=True)`
#   (leave out `is_error` for a result that is not an error);
# - `pinned_window(system_prompt, messages, n)` (your 12.1) gives the messages a model call reads;
# - `route` returns `END`, `"give_up"` or one `Send("errand", {"call": call})` per `ToolCall` (the nodes it names);
# - `builder.compile(max_steps=...)` caps the supersteps; `.invoke(state)` returns the last state.

# %%
pinned_window, errand, PriceLog, route = reference("12.1"), reference("12.2"), reference("12.3"), reference("12.4")


# %% [markdown]
# The state, as in notebook 12: two fields **add**, so that the branches of one superstep can all write to them.

# %%
class PriceState(TypedDict):
    messages: Annotated[list, operator.add]  # the question, then every reply and ToolMessage; nodes only add
    failed: Annotated[list, operator.add]    # names of tools that broke; nodes only add
    model_calls: int                         # model calls made so far
    calls_left: int                          # how many more ToolCalls the run may make (the
                                             # "call budget"), once the latest reply's are counted
    stopped: str | None                      # None while running; then "answered", "step limit",
                                             # "tool failed" or "call budget"


# %% [markdown]
# ### A run, superstep by superstep
#
# Here are the supersteps of one run of the notebook's own `PriceAgent` on the coffee question (the cell after
# 13.3's check runs it and asserts this listing): the two prices in one superstep, the two conversions in another,
# each model call in a superstep of its own.
#
# ```
# superstep 1: model
# superstep 2: errand, errand
# superstep 3: model
# superstep 4: errand, errand
# superstep 5: model
# stopped: answered | answer: Rome: 1.40 USD, Osaka: 2.97 USD
# ```

# %% [markdown]
# ## The agent, in three milestones
#
# Put the pieces together: `PriceAgent`, a `StateGraph(PriceState)` with a model node, `route` (12.4) after it,
# and `errand` (12.2) on each branch, joined back to the model. Its **interface** stays the same through the three
# milestones: `PriceAgent(llm, registry, system_prompt, *, observers=(), max_steps=6, max_calls=8, window=6)`, and
# `run({"question": ...})` returns `{"answer": ..., "reason": ...}`. You write the class once, in 13.1's cell, and
# each later milestone adds to it.
#
# The graph to build, as the package draws it (`graph.draw_ascii()`; the cell after 13.3's check asserts this
# drawing of the notebook's own agent). An arrow with a label is one `route` can take:
#
# ```
# [START]
#     -----> model
# [model]
#     --errand--> errand
#     --give_up--> give_up
#     --END--> END
# [errand]
#     -----> model
# [give_up]
#     -----> END
# [END]
# ```
#
# **What is given, and what is yours.** The state, the router and the graph's shape are given above, so most of
# the design is fixed: the work is the code inside the nodes, written so that each rule holds. Yours to decide:
# what each node returns, how the model node counts the budget and the calls, how a branch reports a broken tool,
# and what a refused `ToolMessage` says beyond naming the budget. The checks judge only what a run does. The
# stub's methods are one way to split the work; merge or rename any but `__init__` and `run`. An agent that wraps
# the package's `Agent` (or its agent graph) is refused.

# %% [markdown]
# ### Exercise 13.1: the loop
#
# Write `graph` and `run`, a model node that calls the model and stops on an answer, and `run_errand`, until the
# scripted `price_manager()` answers the coffee question. For now a run ends one way:
#
# - **`"answered"`**: a reply without `ToolCall`s; its text is the answer.
#
# **Reads.** Every model call reads `pinned_window` (12.1) of the run at the agent's `window`, and
# `registry.tools`. Leave `give_up` and the hooks for later: this milestone's runs never need them.
#
# The check runs your agent on three questions you have not seen, at windows of 6 and of 2, and compares each
# ending, answer and the number of messages each call read with what the rules give.

# %%
class PriceAgent:
    def __init__(self, llm, registry, system_prompt, *, observers=(), max_steps=6, max_calls=8, window=6):
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt
        self.observers, self.max_steps, self.max_calls, self.window = list(observers), max_steps, max_calls, window

    def tell(self, hook, *args):
        for observer in self.observers:
            getattr(observer, hook)(*args)

    def model(self, state):  # the model node: one call, or a reason to stop
        raise NotImplementedError  # your code here

    def run_errand(self, packet):  # one branch: answers packet["call"]
        raise NotImplementedError  # your code here

    def give_up(self, state):  # over the budget: every ToolCall of the last reply refused
        raise NotImplementedError  # your code here

    def graph(self):  # the StateGraph(PriceState), compiled
        raise NotImplementedError  # your code here

    def run(self, state):  # the first state, the graph, the answer and its reason
        raise NotImplementedError  # your code here


# %%
check("13.1", PriceAgent)

# %% [markdown]
# Watch your agent run the coffee question. Its `ConsoleLogger` prints nothing until your hooks tell it (13.3);
# the supersteps after the answer come from your graph. Nothing later uses this run.

# %%
try:
    watched = PriceAgent(price_manager("coffee", ("Rome", "Osaka")), price_tools(), SYSTEM_PROMPT,
                         observers=[ConsoleLogger()])
    your_graph = watched.graph()
    watched.graph = lambda: your_graph  # your run uses this graph, so its supersteps can be printed after it
    print(watched.run({"question": QUESTION}))
    for number, ran in enumerate(your_graph.steps, start=1):
        print(f"superstep {number}: {', '.join(ran)}")
except NotImplementedError:
    print("not written yet")

# %% [markdown]
# ### Exercise 13.2: the limits
#
# Three more ways a run ends; unless it is `"answered"`, the answer is `None`:
#
# - **`"step limit"`**: `max_steps` model calls made and the last reply still asks for tools. Its `ToolCall`s still
#   run, then the run stops instead of calling again.
# - **`"tool failed"`**: a tool still broken after your errand's retry; the model is not called again. The state's
#   `failed` field is there for it: a branch can tell a broken tool by its errand's text, which starts
#   `"Error: tool failed twice"`.
# - **`"call budget"`**: a reply whose `ToolCall`s would take `calls_left` below zero. None of them runs: `give_up`
#   answers each with an error `ToolMessage` saying the call budget is spent. A batch that takes it to zero runs:
#   a budget spent exactly is not overspent.
#
# **Supersteps.** The answered run above makes 3 model calls in `2*3-1` supersteps. A run stopped at the ceiling
# also runs its last batch, then one model node that stops it: `2*max_steps+1`. Give `compile(max_steps=...)` that
# room, as it counts supersteps, not model calls.
#
# Add these to your `PriceAgent` above and re-run that cell, then this check. It runs 13.1's questions again, then a
# model that never stops (`max_steps=3`, counting the `ToolCall`s that run), a rate service that is down, the coffee
# question at `max_calls=4` (its four `ToolCall`s spend the budget exactly), and five `ToolCall`s in one reply against
# `max_calls=4`.

# %%
check("13.2", PriceAgent)

# %% [markdown]
# ### Exercise 13.3: the hooks, and two real runs
#
# **Hooks**, on every observer (`self.tell(hook, ...)`), in this order:
#
# 1. `on_run_start` before the graph runs, with what the first call reads: the system prompt as a `SystemMessage`,
#    then the question;
# 2. per model call: `on_step_start(number)` (1 for the first) before it, `on_model_reply(response)` after it;
# 3. per `ToolCall` that runs: `on_tool_call(call)` before the errand, `on_tool_return(message)` after it;
# 4. per refused `ToolCall`: only `on_tool_return(message)`, as it never runs (as the package's `Agent` does for the calls a stopped run leaves unrun);
# 5. `on_finish(answer, reason)` once, at the end.
#
# Add them to your `PriceAgent` above and re-run that cell, then this check. It runs everything 13.1 and 13.2 ran,
# recording every hook call. Then it **replays two recorded runs of real models**: each recorded reply is handed
# back in order, and the replay stops your agent where what it sends differs from the recording (the first call in
# full, each later call on its newest messages). Notebook 14 reads those two runs.

# %%
check("13.3", PriceAgent)

# %% [markdown]
# From here on, cells use the notebook's own `PriceAgent` (`ours`), loaded from the solutions without being
# printed, so they run whether or not your exercises are done. Its run on the coffee question, with the superstep
# listing above, its graph as drawn above, and a run stopped at the ceiling with `max_steps=3`:

# %%
ours = reference("13_capstone_agent")
graph = ours.PriceAgent(price_manager("coffee", ("Rome", "Osaka")), price_tools(), SYSTEM_PROMPT).graph()
final = graph.invoke({"messages": [UserMessage(QUESTION)], "failed": [], "model_calls": 0, "calls_left": 8,
                      "stopped": None})
assert [", ".join(ran) for ran in graph.steps] == ["model", "errand, errand", "model", "errand, errand", "model"]
assert (final["stopped"], final["messages"][-1].content) == ("answered", "Rome: 1.40 USD, Osaka: 2.97 USD")
never_stops = ScriptedLLM([[("get_price", {"item": "tea", "city": "Lima"})]] * 9, name="scripted: never stops")
stuck = ours.PriceAgent(never_stops, price_tools(), SYSTEM_PROMPT, max_steps=3).graph()  # stopped at the ceiling: 2*3+1
stuck.invoke({"messages": [UserMessage(QUESTION)], "failed": [], "model_calls": 0, "calls_left": 8, "stopped": None})
assert [", ".join(ran) for ran in stuck.steps][-3:] == ["model", "errand", "model"] and len(stuck.steps) == 2 * 3 + 1
DRAWN = """[START]
    -----> model
[model]
    --errand--> errand
    --give_up--> give_up
    --END--> END
[errand]
    -----> model
[give_up]
    -----> END
[END]"""
assert graph.draw_ascii().strip() == DRAWN  # the drawing shown above
print(graph.draw_ascii())

# %% [markdown]
# Did the window save much? On runs as short as the coffee question's, little: the system prompt and the tool schemas are read on every
# call, and a run of a few calls never outgrows a window of 6. A longer run, **scripted**: a model that asks for
# one price a call, ten calls, then answers, run by the notebook's `PriceAgent` with the whole run in view and with
# a window of 6. Each call's reading is measured as the characters of the prompt the local adapter would write
# (`local_prompt`, the code that wrote the real runs' prompts).
#
# **Predict first:** over all eleven calls, what share of the characters does the window of 6 save?
# **A:** under 5 per cent; **B:** 5 to 10 per cent; **C:** 10 to 25 per cent; **D:** more than 25 per cent.
# The figures show once your guess is right.

# %%
guess_share = ...  # "A", "B", "C" or "D"

# %%
cities = ("Rome", "Osaka", "Lima", "Oslo", "Nairobi")
one_a_call = [[("get_price", {"item": item, "city": city})] for item in ("coffee", "tea") for city in cities]


def prompt_sizes(window):
    llm = ScriptedLLM(one_a_call + ["That is every price."], name="scripted: one price a call")
    ours.PriceAgent(llm, price_tools(), SYSTEM_PROMPT, max_steps=11, max_calls=20, window=window).run(
        {"question": QUESTION})
    return [len(local_prompt(messages, tools)) for messages, tools in llm.calls]


whole, windowed = prompt_sizes(10_000), prompt_sizes(6)
saved = {calls: 1 - sum(windowed[:calls]) / sum(whole[:calls]) for calls in (3, 6, 11)}
assert saved[3] == 0 < saved[6] < 0.05 and 0.12 < saved[11] < 0.2  # the figures the text below states
assert max(windowed) - min(windowed[3:]) < 0.02 * max(windowed) and whole == sorted(set(whole))
assert 2 * whole[0] > max(whole)  # the first call's prompt, read again by every call, is most of each (the hint)
share = "ABCD"[sum(saved[11] >= edge for edge in (0.05, 0.10, 0.25))]  # the band the measured share falls in
reveal(guess_share, share, "the band of the share saved over eleven calls", gated=True,
       hint="more: the whole run's prompt grows by one exchange a call, and the window's stops growing"
       if guess_share in ("A", "B") else "less: the system prompt and the tool schemas, read by every call, are "
       "most of each prompt")
if guess_share == share:
    print("characters read per call, whole run:  ", whole)
    print("characters read per call, window of 6:", windowed)
    for calls, part in saved.items():
        print(f"over the first {calls:>2} calls the window reads {part:.0%} fewer characters")

# %% [markdown]
# Over three calls, the length of a run that goes right, the window saves nothing; over six, a few per cent; over
# eleven, about a sixth, and more with every further call: the whole run's prompt grows by one exchange a call
# while the window's stays about the same size.

# %% [markdown]
# ## Questions
#
# Answer in a sentence or two; four of them have a check cell. The answers are in the solutions.
#
# 1. The notebook's `PriceAgent`, at its defaults, runs the scripted manager on coffee in Rome, Osaka and Lima
# while the rate service is down: every run of `to_usd` raises `TimeoutError`. How many times does `to_usd` run,
# in all, before the run ends?

# %%
q1 = ...  # a number

# %%
check("13.Q1", q1)

# %% [markdown]
# 2. The notebook's `PriceAgent`, at its defaults (`max_calls=8`, `max_steps=6`), runs the scripted manager on
# five cities instead of two. How does the run end? **A:** `"answered"`, after three model calls, like the
# package's `Agent`; **B:** `"call budget"`, after two model calls, with no price converted; **C:** `"step limit"`.

# %%
q2 = ...  # "A", "B" or "C"

# %%
check("13.Q2", q2)

# %% [markdown]
# 3. The model that never stops, run by the notebook's `PriceAgent` with `max_steps=4` (and enough call budget):
# how many supersteps does its graph run?

# %%
q3 = ...  # a number

# %%
check("13.Q3", q3)

# %% [markdown]
# 4. The five-city run of question 2, with `max_calls=4`: the first reply asks for five prices, more than the
# budget. After that reply's `on_model_reply`, which hooks does a listener hear, in order?

# %%
q4 = ...  # a list of hook names, such as ["on_step_start", "on_finish"]

# %%
check("13.Q4", q4)

# %% [markdown]
# 5. Why does the model node test its reasons to stop before it calls the model, and not after?
#
# 6. `give_up` answers every refused `ToolCall` with an error `ToolMessage`. Why not simply end the run?
