# %% [markdown]
# # 12 · Capstone, part 1: the pieces
#
# The capstone is an agent for a new task, made of pieces you write. This notebook, part 1 of 3, builds the
# pieces; notebook 13 joins them; 14 replays real runs:
#
# - a **memory window** that keeps the question in view and never splits a `ToolCall` from its `ToolMessage`
#   (notebook 10);
# - an **errand** that answers one `ToolCall` whatever goes wrong (notebook 03);
# - an **observer** whose hooks write this task's log as JSON Lines (notebook 04);
# - a **router** that sends each `ToolCall` down its own branch (notebooks 07 and 08).
#
# **Prerequisites:** notebooks 01 to 10. **Time:** about 89 minutes (estimated from length: see "How long" in 00).
#
# Every run here is **scripted**.

# %%
import json
import operator
from typing import Annotated, TypedDict

from mingraph_lite import Agent, ConsoleLogger, LastN, Observer, ToolCall, ToolMessage, ToolRegistry
from mingraph_lite import SystemMessage  # noqa: F401 (your window in 12.1 needs it)
from mingraph_lite import ToolArgsError  # noqa: F401 (your errand in 12.2 needs it)
from mingraph_lite.graph import END, START, Send, StateGraph
from lessons.capstone import (QUESTION, SYSTEM_PROMPT, broken_tools, price_manager, price_tools,
                              show_messages, show_tries, to_usd)
from lessons.exercises import check
from lessons.predict import reveal

# %% [markdown]
# ## The task: prices in other cities, in US dollars
#
# > *"What does a coffee cost in Rome and in Osaka, in US dollars?"*
#
# Two tools, on made-up teaching prices and rates:
#
# - `get_price(item, city)` gives the local price **with its currency**: `"Osaka coffee: 450 JPY"`;
# - `to_usd(amount, currency)` converts an amount into US dollars, rounded to the cent: `"450 JPY = 2.97 USD"`.
#
# The calls **chain**: a price must come back before it can be converted. And they **fan out**: one price per city, all
# in one reply. What the model is handed, the system prompt (with a worked example) and each tool's schema:

# %%
tools = price_tools()
print(SYSTEM_PROMPT, end="\n\n")
for spec in tools.tools:
    print(json.dumps(spec["function"]))

# %% [markdown]
# The scripted manager reads only the messages it is sent: it asks for every price in one reply, converts
# every price in the next, then answers in the prompt's one-line form (or says "I lost track of the prices." when
# it cannot tell which city a price came from).
#
# **Predict first:** how many ToolMessages will the run below add to its messages?

# %%
my_guess_results = ...  # a number

# %%
manager = price_manager("coffee", ("Rome", "Osaka"))
agent = Agent(manager, tools, SYSTEM_PROMPT, observers=[ConsoleLogger()])
print(agent.run({"question": QUESTION}))
reveal(my_guess_results, sum(isinstance(m, ToolMessage) for m in agent.memory.messages()), "ToolMessages")

# %% [markdown]
# ### Pieces you will need
#
# Signatures met before:
#
# - `ToolCall(id, name, arguments)`, one request for a tool; a reply's are `reply.tool_calls`.
# - `ToolMessage(content, tool_call_id, name=None, is_error=False)`, the answer to one `ToolCall`.
# - `registry.run(call)` returns a `ToolMessage`, or raises: `ToolArgsError` for a `ToolCall` filled in wrong, the
#   tool's own exception when it breaks.
# - `Observer` hooks, each returning nothing: `on_run_start(messages)`, `on_step_start(step)`,
#   `on_model_reply(response)`, `on_tool_call(call)`, `on_tool_return(result)`, `on_finish(answer, reason)`.
# - `StateGraph(State)` with `.add_node(name, fn)`, `.add_edge(a, b)`, `.add_conditional_edges(source, router,
#   [targets])` and `.compile(max_steps=N)` (N counts supersteps); `graph.invoke(state)` returns the last state.
#
# ## Piece 1 · A window that keeps the question
#
# The plainest window keeps the newest messages (notebook 10); on the run above, without its system prompt:

# %%
run_folder = agent.memory.messages()[1:]   # the question, then everything after it
print(f"the run: {len(run_folder)} messages; the plain window with n=3 keeps:")
show_messages(run_folder[-3:])  # the last n messages

package_window = LastN(SYSTEM_PROMPT, 3)
for message in run_folder:
    package_window.add(message)
print("\nthe package's LastN, n=3, keeps:")
show_messages(package_window.messages()[1:])
assert not isinstance(package_window.messages()[1], ToolMessage) and run_folder[0] not in package_window.messages()

# %% [markdown]
# Two things went wrong: the window starts with a `ToolMessage` whose `ToolCall` is gone (OpenAI's API refuses
# such a request: a message of role `tool` must answer an earlier one with `tool_calls`), and the **question is
# gone**. The package's `LastN` fixes the first (it starts on a whole exchange), not the second.
#
# ### Exercise 12.1: a window that pins the question
#
# Write `pinned_window(system_prompt, messages, n)`. `messages` is the run so far: the question first, then
# everything after it (no system prompt). Return what the model should read:
#
# 1. `SystemMessage(system_prompt)`, then the question (the first message, exactly once);
# 2. then at least `n` of the most recent later messages (all of them, if there are fewer), in order;
# 3. where the start would fall on a `ToolMessage`, move it back to the reply that holds its `ToolCall`, and no
#    further.
#
# `LastN` is not the answer (it pins nothing): `LastN` and its helpers are refused.
# It feeds your window unseen runs, cut after every message, for every `n`.

# %%
def pinned_window(system_prompt, messages, n):
    raise NotImplementedError  # your code here


# %%
check("12.1", pinned_window)

# %% [markdown]
# ## Piece 2 · The errand for one `ToolCall`
#
# In a graph, each `ToolCall` runs on a branch whose one job is to give it **exactly one `ToolMessage`**, whatever
# happens. Three things can go wrong. First (notebook 03), a `ToolCall` the model filled in wrong:

# %%
show_tries(tools, ToolCall("k1", "get_price", {"item": "coffee", "city": "Kyoto"}))  # prints what it raises

# %% [markdown]
# Second, a tool that breaks: the `ToolCall` is fine, the rate service is not.

# %%
show_tries(broken_tools(), ToolCall("k2", "to_usd", {"amount": 1.3, "currency": "EUR"}))

# %% [markdown]
# On a branch, an exception is worse than in notebook 03 (piece 4 shows why), so the errand never raises.
#
# Third, new: a **flaky** service, which drops a request now and then; the same request a moment later works.

# %%
requests = []  # one entry per request the service gets


def flaky_to_usd(amount: float, currency: str) -> str:
    """Convert an amount of money into US dollars (this service drops every other request).

    Args:
        amount: How much money.
        currency: The three-letter currency code.
    """
    requests.append(currency)
    if len(requests) % 2:
        raise TimeoutError("the rate service did not answer")
    return to_usd(amount, currency)


flaky = ToolRegistry()
flaky.add(flaky_to_usd, name="to_usd")
show_tries(flaky, ToolCall("k3", "to_usd", {"amount": 42, "currency": "NOK"}), tries=2)  # lessons/capstone.py

# %% [markdown]
# ### Exercise 12.2: `errand(registry, call)`, with this task's retry
#
# Return one `ToolMessage` for the `ToolCall` `call`, with its id and tool name:
#
# - if `registry.run(call)` works, its answer;
# - if it raises `ToolArgsError` (the model's mistake), answer at once, with no second try (the same call would
#   fail the same way): the text `f"Error: {error}\n Please fix your mistakes."`, with `is_error=True` (LangGraph's
#   `ToolNode` template, with the plain text for its `repr(error)`);
# - if it raises any other exception (the tool broke), run the call **once more**: if the second try works, its
#   answer; if it fails again, the text `f"Error: tool failed twice: {error}"` (the second error), with
#   `is_error=True`.
#
# The check refuses an errand that calls the package's `registry.answer` or its helpers `fix_answer` and
# `error_answer`. It counts how often your errand runs each tool, on unseen `ToolCall`s, a flaky service
# and one that stays down.

# %%
def errand(registry, call):
    raise NotImplementedError  # your code here


# %%
check("12.2", errand)

# %% [markdown]
# ## Piece 3 · The price log
#
# A `ToolMessage` holds the tool's text and its `ToolCall`'s id, not the arguments: those came earlier, in
# `on_tool_call`, under the same id.
#
# ### Exercise 12.3: `PriceLog(path)`, this task's log
#
# Write an observer that writes JSON Lines to the file at `path`:
#
# - **one line per `ToolMessage`**, errors too: `{"tool": ..., "arguments": ..., "result": ..., "error": ...}`:
#   its `name`, the arguments (a dict) of the `ToolCall` with the same id (`None` if no hook heard that call), its
#   text and its `is_error`;
# - **one line per finish**: `{"answer": ..., "reason": ..., "model_calls": ...}`: the answer (or `None`), the
#   reason, and how many model replies **this** run had;
# - **append per line**: open, write one line, close, so a crash keeps the lines written and old lines stay;
# - **reset per run**: one observer may hear several runs, and `ToolCall` ids start again each run (`call_1_1`
#   can come back with other arguments).
#
# The check starts from a file that holds a line and runs four unseen questions, one with a broken tool, one whose
# model never answers. Keeping `EventRecorder` or `TraceRecorder` inside is refused.

# %%
class PriceLog(Observer):
    def __init__(self, path):
        self.path = path

    def on_tool_return(self, result):
        raise NotImplementedError  # your code here, and in the other hooks you need


# %%
check("12.3", PriceLog)

# %% [markdown]
# ## Piece 4 · The router: one branch per `ToolCall`
#
# The agent is a graph over this state (notebook 07); two fields **add** (a reducer), so that one superstep's
# branches can all write to them.

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
# A router may return a label, or `Send(node, packet)` objects: the node then runs **once per packet**, on the
# packet instead of the state, all in one superstep (notebook 08). The branches' updates merge through the
# reducers, and the edge that leaves the node runs once, after all of them: the join. On a toy:

# %%
class Squares(TypedDict):
    numbers: list
    squares: Annotated[list, operator.add]


def spread(state):
    return [Send("square", {"n": n}) for n in state["numbers"]]


def square(packet):
    return {"squares": [packet["n"] ** 2]}


def build_toy(square_node):
    toy = StateGraph(Squares)
    toy.add_node("square", square_node)
    toy.add_conditional_edges(START, spread, ["square"])
    toy.add_edge("square", END)
    return toy.compile()


toy_graph = build_toy(square)
print(toy_graph.invoke({"numbers": [3, 1, 4]}), "| supersteps:", toy_graph.steps)


# %% [markdown]
# And piece 2's promise: one branch raises, the one for 1. **Predict first:** which squares does the last state
# reached hold?

# %%
guess_squares = ...  # a list


# %%
def square_or_fail(packet):
    if packet["n"] == 1:
        raise TimeoutError("this branch's service did not answer")
    return {"squares": [packet["n"] ** 2]}


reached = []
try:
    # "values" yields the state: the input first, then after each superstep that wrote something
    for values in build_toy(square_or_fail).stream({"numbers": [3, 1, 4]}, stream_mode="values"):
        reached.append(values)
except TimeoutError as e:
    print("TimeoutError:", e)
reveal(guess_squares, reached[-1]["squares"], "the squares of the last state reached", gated=True)

# %% [markdown]
# When one node of a superstep raises, the graph merges nothing of that superstep: the squares of 3 and 4 are lost
# with the failed branch.

# %% [markdown]
# ### Exercise 12.4: `route(state)`, after the model node
#
# Notebook 13's graph; `route` picks the way out of `model`:
#
# ```
# START -> model -> route: END (stopped) | give_up -> END (over budget)
#                         | Send("errand", ...) x k, one per ToolCall
# errand (k branches, one superstep) -> model
# ```
#
# The model node (yours, in notebook 13) sets `stopped` when the run is over and takes each reply's `ToolCall`s off
# `calls_left`. Write the router that runs after it:
#
# - if `state["stopped"]` is set: return `END`;
# - if `calls_left` is below zero, the batch does not fit the budget: return `"give_up"` (a budget spent exactly
#   is not overspent);
# - otherwise, one `Send("errand", {"call": call})` per `ToolCall` of the last message, in their order.
#
# The check hands your router unseen states, some with earlier exchanges.

# %%
def route(state):
    raise NotImplementedError  # your code here


# %%
check("12.4", route)

# %% [markdown]
# ## Questions
#
# Answer in a sentence or two; three of them have a check cell. The answers are in the solutions.
#
# 1. The question "What does tea cost in Oslo and in Rome and in Osaka, in US dollars?", asked of an agent
# whose window is your pinned window at `n=2`, with the scripted manager above. Its final answer? **A:**
# `"Oslo: 3.29 USD, Rome: 2.70 USD, Osaka: 2.51 USD"`; **B:** `"I lost track of the prices."`; **C:** it asks for
# the prices again. Reason it out, without running it (the check runs it).

# %%
q1 = ...  # "A", "B" or "C"

# %%
check("12.Q1", q1)

# %% [markdown]
# 2. Your errand is handed three `to_usd` `ToolCall`s, one after the other, on a rate service that drops its
# 1st, 2nd and 5th requests (counting from 1) and answers the others. How many requests does the service get, in all?

# %%
q2 = ...  # a number

# %%
check("12.Q2", q2)

# %% [markdown]
# 3. Piece 4's first toy, every branch working, with one more node after the join (`square` → `audit` → `END`);
# `audit` raises. Which squares does the last state reached hold? **A:** `[9, 1, 16]`; **B:** `[]`; **C:** `[9, 1]`.

# %%
q3 = ...  # "A", "B" or "C"

# %%
check("12.Q3", q3)

# %% [markdown]
# 4. Two errand branches of one superstep both add a `ToolMessage` to `messages`. Why does neither overwrite
# the other? Which line of `PriceState` makes that so?
#
# 5. What would happen if your window kept a `ToolMessage` but not the reply that holds its `ToolCall`?
#
# **Next:** notebook 13 builds the agent; 14 replays real runs through it.
