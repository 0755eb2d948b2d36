# %% [markdown]
# # 12 · Capstone: a price agent, built from your own pieces
#
# You build, for a task the course has not shown you, an agent made of pieces you write yourself:
#
# - a **memory window** that keeps the question in view and never splits a `ToolCall` from its `ToolMessage`
#   (notebook 09);
# - an **errand** that answers one `ToolCall` whatever goes wrong (notebook 03);
# - an **observer** whose hooks write this task's log as JSON Lines (notebook 04);
# - a **router** that sends each `ToolCall` down its own branch (notebooks 06 and 07);
# - the **agent**: a graph whose loop has a ceiling (notebook 01), checked on questions you have not seen and
#   against two recorded runs of real models.
#
# **Prerequisites:** notebooks 01 to 09. **Time:** about 114 minutes (estimated from length and exercises).
#
# Every run here is **scripted** (no model, no network), except two recorded runs of real models near the end,
# **replayed** from their trace files.

# %%
import json
import operator
from pathlib import Path
from typing import Annotated, TypedDict

from mingraph_lite import (Agent, ConsoleLogger, LastN, Observer, ReplayLLM, ScriptedLLM, ToolArgsError, ToolCall,
                           ToolMessage, ToolRegistry, UserMessage)
from mingraph_lite import SystemMessage  # noqa: F401 (your window in 12.1 needs it)
from mingraph_lite.graph import END, START, Send, StateGraph
from lessons.capstone import QUESTION, SYSTEM_PROMPT, get_price, price_manager, price_tools, to_usd
from lessons.exercises import check
from lessons.local_prompt import local_prompt
from lessons.predict import reveal
from lessons.reference import reference

# %% [markdown]
# ## The task: prices in other cities, in US dollars
#
# > *"What does a coffee cost in Rome and in Osaka, in US dollars?"*
#
# Two tools, on fixed teaching prices and rates (made up, so every run prints the same; not live data):
#
# - `get_price(item, city)` gives the local price **with its currency**: `"Osaka coffee: 450 JPY"`;
# - `to_usd(amount, currency)` converts an amount into US dollars, rounded to the cent: `"450 JPY = 2.97 USD"`.
#
# Each result repeats its input, as in notebook 02's right runs, so every number carries what it is about. The
# system prompt asks for a one-line answer and carries one worked example, on another item and other cities. The
# calls **chain**: a price must come back before it can be converted. And they **fan out**: one price per city, all
# in one reply. Here is what the model is handed: the system prompt, and each tool's schema as the registry writes
# it.

# %%
tools = price_tools()
print(SYSTEM_PROMPT, end="\n\n")
for spec in tools.tools:
    print(json.dumps(spec["function"]))
print()
print("get_price('coffee', 'Rome') ->", get_price("coffee", "Rome"))
print("to_usd(1.3, 'EUR')          ->", to_usd(1.3, "EUR"))

# %% [markdown]
# The course's scripted manager reads only the messages it is sent: it asks for every price in one reply, converts
# every price in the next, then answers in the prompt's one-line form (or says "I lost track of the prices." when
# it cannot tell which city a price came from).
#
# **Predict first:** how many model calls will the run below make?

# %%
my_guess_calls = ...  # a number

# %%
manager = price_manager("coffee", ("Rome", "Osaka"))
agent = Agent(manager, tools, SYSTEM_PROMPT, observers=[ConsoleLogger()])
print(agent.run({"question": QUESTION}))
reveal(my_guess_calls, len(manager.calls), "model calls")

# %% [markdown]
# ### Pieces you will need
#
# Signatures only, from earlier notebooks:
#
# - `ToolCall(id, name, arguments)`, one request for a tool; a reply's are `reply.tool_calls` (empty when it answers).
# - `ToolMessage(content, tool_call_id, name=None, is_error=False)`, the answer to one `ToolCall`.
# - `registry.run(call)` returns a `ToolMessage`, or raises: `ToolArgsError` for a `ToolCall` filled in wrong, the
#   tool's own exception when it breaks. `registry.tools` holds the schemas the model is handed.
# - `llm.generate(messages, tools)` returns a response; the reply itself is `response.message`.
# - `Observer` hooks, each returning nothing: `on_run_start(messages)`, `on_step_start(step)`,
#   `on_model_reply(response)`, `on_tool_call(call)`, `on_tool_return(result)`, `on_finish(answer, reason)`.
# - `StateGraph(State)` with `.add_node(name, fn)`, `.add_edge(a, b)`, `.add_conditional_edges(source, router,
#   [targets])` and `.compile(max_steps=N)` (N counts supersteps); `graph.invoke(state)` returns the last state.
#
# That run used the package's `Agent`. From here on you build your own, piece by piece, each checked on other
# items, cities and failures than the ones shown here.
#
# ## Piece 1 · A window that keeps the question
#
# Each model call reads every message of the run again (notebook 09), so a long run gets dearer call by call. A
# window reads only the newest messages. Here is the plainest one, on the run above (without its system prompt):

# %%
def show(messages):
    for m in messages:
        if getattr(m, "tool_calls", None):
            text = "asks for " + ", ".join(f"{c.name}{c.arguments} [{c.id}]" for c in m.tool_calls)
        elif isinstance(m, ToolMessage):
            text = f"ToolMessage for [{m.tool_call_id}]: {m.content}"
        else:
            text = m.content
        print(f"  {m.role:<9} {text}")


def last_n(messages, n):
    return messages[-n:]


run_folder = agent.memory.messages()[1:]   # the question, then everything after it
print(f"the run: {len(run_folder)} messages; the plain window with n=3 keeps:")
show(last_n(run_folder, 3))

package_window = LastN(SYSTEM_PROMPT, 3)
for message in run_folder:
    package_window.add(message)
print("\nthe package's LastN, n=3, keeps:")
show(package_window.messages()[1:])
assert not isinstance(package_window.messages()[1], ToolMessage) and run_folder[0] not in package_window.messages()

# %% [markdown]
# Two things went wrong: the window starts with a `ToolMessage` whose `ToolCall` is gone (providers reject that),
# and the **question is gone**. The package's `LastN` fixes the first (it moves its start back to whole
# exchanges), not the second.
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
# `LastN` is not the answer (it pins nothing): the check refuses a window that uses it or its helper `safe_start`.
# It feeds your window whole runs of questions you have not seen, cut after every message, for every `n` from 1 to
# one larger than the cut run.

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
kyoto = ToolCall("k1", "get_price", {"item": "coffee", "city": "Kyoto"})
try:
    tools.run(kyoto)
except ToolArgsError as e:
    print("ToolArgsError:", e)

# %% [markdown]
# The model can fix that, if told what was wrong. Second, a tool that breaks: the `ToolCall` is fine, the service
# is not.

# %%
def closed_get_price(item: str, city: str) -> str:
    """Get the local price of an item in a city (this service is closed today).

    Args:
        item: What to price.
        city: The city.
    """
    raise TimeoutError("the price service did not answer")


closed = ToolRegistry()
closed.add(closed_get_price, name="get_price")
try:
    closed.run(ToolCall("k2", "get_price", {"item": "coffee", "city": "Rome"}))
except TimeoutError as e:
    print("TimeoutError:", e)

# %% [markdown]
# On a branch, an exception is worse than in notebook 03: when one node of a superstep raises, the graph merges
# nothing of that superstep, so the other branches' answers are lost too (piece 4 shows it). So the errand never
# raises. Third, new: a **flaky** service, which drops a request now and then; the same request a moment later works.

# %%
def flaky_to_usd(amount: float, currency: str) -> str:
    """Convert an amount of money into US dollars (this service drops every other request).

    Args:
        amount: How much money.
        currency: The three-letter currency code.
    """
    flaky_to_usd.tries += 1
    if flaky_to_usd.tries % 2:
        raise TimeoutError("the rate service did not answer")
    return to_usd(amount, currency)


flaky_to_usd.tries = 0
flaky = ToolRegistry()
flaky.add(flaky_to_usd, name="to_usd")
for attempt in (1, 2):
    try:
        print(f"try {attempt}:", flaky.run(ToolCall("k3", "to_usd", {"amount": 42, "currency": "NOK"})).content)
    except TimeoutError as e:
        print(f"try {attempt}: TimeoutError: {e}")

# %% [markdown]
# ### Exercise 12.2: `errand(registry, call)`, with this task's retry
#
# Return one `ToolMessage` for the `ToolCall` `call`, with its id and tool name:
#
# - if `registry.run(call)` works, its answer;
# - if it raises `ToolArgsError` (the model's mistake), answer at once, with no second try (the same call would
#   fail the same way): the text `f"Error: {error}\n Please fix your mistakes."`, with `is_error=True` (the
#   template of LangGraph's `ToolNode`, which fills it with `repr(error)`; we put in the plain text);
# - if it raises any other exception (the tool broke), run the call **once more**: if the second try works, its
#   answer; if it fails again, the text `f"Error: tool failed twice: {error}"` (the second error), with
#   `is_error=True`.
#
# The check refuses an errand that calls the package's `registry.answer` or its helpers `fix_answer` and
# `error_answer`. It counts how often your errand runs each tool, on `ToolCall`s you have not seen, a flaky service
# and a service that stays down.

# %%
def errand(registry, call):
    raise NotImplementedError  # your code here


# %%
check("12.2", errand)

# %% [markdown]
# ## Piece 3 · The price log
#
# An observer hears a run through its hooks (notebook 04): subclass `Observer`, override the hooks you care about.

# %%
class SayReturns(Observer):
    def on_tool_return(self, result):
        print(f"  heard: {result.name} -> {result.content}{'  (an error)' if result.is_error else ''}")


said = Agent(price_manager("coffee", ("Rome", "Kyoto")), tools, SYSTEM_PROMPT, observers=[SayReturns()]).run(
    {"question": "What does a coffee cost in Rome and in Kyoto, in US dollars?"})
print("answer:", said["answer"])

# %% [markdown]
# A `ToolMessage` holds the tool's text and its `ToolCall`'s id, not the arguments. These tools happen to repeat
# their input, but a log should not rest on a tool's wording: the arguments came earlier, in `on_tool_call`, under
# the same id.
#
# ### Exercise 12.3: `PriceLog(path)`, this task's log
#
# Write an observer that **appends** JSON Lines to the file at `path`, one line at a time (so a run that crashes
# keeps the lines it wrote):
#
# - for every `ToolMessage`: `{"tool": ..., "arguments": ..., "result": ..., "error": ...}`: the tool's name, the
#   arguments of the `ToolCall` with the same id (or `None` if no hook heard that call), the answer's text, and its
#   `is_error`;
# - when a run finishes: `{"answer": ..., "reason": ..., "model_calls": ...}`: the answer (or `None`), the reason,
#   and how many model replies **this** run had.
#
# One observer may hear several runs: each finish line counts its own. The check runs three unseen questions, a
# failing one among them, through the package's `Agent` with one `PriceLog` listening; a `PriceLog` that keeps the
# package's `EventRecorder` or `TraceRecorder` inside is refused.

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
# The agent is a graph over this state (notebook 06). Two fields **add** (a reducer), so that the branches of one
# superstep can all write to them.

# %%
class PriceState(TypedDict):
    messages: Annotated[list, operator.add]  # the question, then every reply and ToolMessage; nodes only add
    failed: Annotated[list, operator.add]    # names of tools that broke; nodes only add
    model_calls: int                         # model calls made so far
    slips_left: int                          # how many more ToolCalls the run may make (the
                                             # "slip budget"), once the latest reply's are counted
    stopped: str | None                      # None while running; then "answered", "step limit",
                                             # "tool failed" or "slip budget"


# %% [markdown]
# A router may return a label, or `Send(node, packet)` objects: the node then runs **once per packet**, on the
# packet instead of the state, all in one superstep (notebook 07). The branches' updates merge through the
# reducers, and the edge that leaves the node runs once, after all of them: the join. On a toy:

# %%
class Squares(TypedDict):
    numbers: list
    squares: Annotated[list, operator.add]


def spread(state):
    return [Send("square", {"n": n}) for n in state["numbers"]]


def square(packet):
    return {"squares": [packet["n"] ** 2]}


toy = StateGraph(Squares)
toy.add_node("square", square)
toy.add_conditional_edges(START, spread, ["square"])
toy.add_edge("square", END)
toy_graph = toy.compile()
print(toy_graph.invoke({"numbers": [3, 1, 4]}), "| supersteps:", toy_graph.steps)


# %% [markdown]
# And piece 2's promise: one branch raises. The branches for 3 and 4 ran, but their squares never reach the state.

# %%
def square_or_fail(packet):
    if packet["n"] == 1:
        raise TimeoutError("this branch's service did not answer")
    return {"squares": [packet["n"] ** 2]}


fragile = StateGraph(Squares)
fragile.add_node("square", square_or_fail)
fragile.add_conditional_edges(START, spread, ["square"])
fragile.add_edge("square", END)
reached = []
try:
    for values in fragile.compile().stream({"numbers": [3, 1, 4]}, stream_mode="values"):
        reached.append(values)
except TimeoutError as e:
    print("TimeoutError:", e)
print("the last state reached:", reached[-1])
assert reached[-1]["squares"] == []

# %% [markdown]
# ### Exercise 12.4: `route(state)`, after the model node
#
# The model node (yours, in 12.5) sets `stopped` when the run is over and takes each reply's `ToolCall`s off
# `slips_left`. Write the router that runs after it:
#
# - if `state["stopped"]` is set, the run is over: return `END`;
# - if `slips_left` is below zero, the batch does not fit the budget: return `"give_up"` (a budget spent exactly
#   is not overspent);
# - otherwise, one `Send("errand", {"slip": call})` per `ToolCall` of the last message, in their order (the packet's
#   key is `"slip"`, the course's old word for a `ToolCall`).
#
# The check hands your router states you have not seen, some with earlier exchanges in `messages`.

# %%
def route(state):
    raise NotImplementedError  # your code here


# %%
check("12.4", route)

# %% [markdown]
# ### A run, superstep by superstep
#
# From here on, some cells use the notebook's own version of the pieces, loaded from the solutions without being
# printed, so they run whether or not your exercises are done. Here are the supersteps of one run: the two prices
# in one superstep, the two conversions in another, each model call in a superstep of its own.

# %%
ours = reference("12_capstone")
example = ours.PriceAgent(price_manager("coffee", ("Rome", "Osaka")), price_tools(), SYSTEM_PROMPT)
graph = example.graph()
final = graph.invoke({"messages": [UserMessage(QUESTION)], "failed": [], "model_calls": 0, "slips_left": 8,
                      "stopped": None})
for number, ran in enumerate(graph.steps, 1):
    print(f"  superstep {number}: {', '.join(ran)}")
print("stopped:", final["stopped"], "| answer:", final["messages"][-1].content)
assert graph.steps[1] == ("errand", "errand") == graph.steps[3] and graph.steps[-1] == ("model",)

# %% [markdown]
# ## The capstone · Exercise 12.5: the price agent
#
# Put the pieces together: `PriceAgent`, a `StateGraph(PriceState)` with a model node, your `route` after it, and
# your `errand` on each branch, joined back to the model. The check holds you to:
#
# - **Interface.** `PriceAgent(llm, registry, system_prompt, *, observers=(), max_steps=6, max_slips=8,
#   window=6)`; `run({"question": ...})` returns `{"answer": ..., "reason": ...}`.
# - **Reasons** a run ends with (unless it is `"answered"`, the answer is `None`):
#   - `"answered"`: a reply without `ToolCall`s; its text is the answer;
#   - `"step limit"`: `max_steps` model calls made and the last reply still asks for tools; its `ToolCall`s still
#     run, then the run stops instead of calling again;
#   - `"tool failed"`: a tool still broken after your errand's retry; the model is not called again;
#   - `"slip budget"`: a reply whose `ToolCall`s would take `slips_left` below zero; none runs, and each gets an
#     error `ToolMessage` saying the slip budget is spent.
# - **Reads.** Every call reads your `pinned_window` of the run at the agent's `window`, and `registry.tools`.
# - **Hooks**, on every observer (`self.tell(hook, ...)`), in this order:
#   1. `on_run_start` before the graph runs, with what the first call reads: the system prompt as a
#      `SystemMessage`, then the question;
#   2. per model call: `on_step_start(number)` (1 for the first) before it, `on_model_reply(response)` after it;
#   3. per `ToolCall` that runs: `on_tool_call(call)` before the errand, `on_tool_return(message)` after it;
#   4. per refused `ToolCall`: only `on_tool_return(message)`, as it never runs (as in the package's `Agent`);
#   5. `on_finish(answer, reason)` once, at the end.

# %% [markdown]
# **Yours to choose** (the check judges only what a run does): what each node returns (the graph needs a model
# node and the nodes your `route` names); in which order the model node tests its reasons to stop; how it learns
# that a tool failed (the state's `failed` field is there for it); what a refused `ToolMessage` says beyond the
# budget; and how much room `compile(max_steps=...)` gets: it counts supersteps, not model calls (count them above
# for a run of `max_steps` calls). The methods below are one way to split the work; merge or rename any but
# `__init__` and `run`.
#
# The check runs your agent on unseen questions at two window sizes, recording every hook call and what each call
# read; on a model that never stops, a broken tool and a reply over budget; then it **replays two recorded runs of
# real models**: each recorded reply is handed back in order, and the replay stops your agent where what it sends
# differs from the recording (the first call in full, each later call on its newest messages; Q6 asks what this
# cannot see). An agent that wraps the package's `Agent` (or its agent graph) is refused.

# %%
class PriceAgent:
    def __init__(self, llm, registry, system_prompt, *, observers=(), max_steps=6, max_slips=8, window=6):
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt
        self.observers, self.max_steps, self.max_slips, self.window = list(observers), max_steps, max_slips, window

    def tell(self, hook, *args):
        for observer in self.observers:
            getattr(observer, hook)(*args)

    def model(self, state):  # the model node: one call, or a reason to stop
        raise NotImplementedError  # your code here

    def run_errand(self, packet):  # one branch: answers packet["slip"]
        raise NotImplementedError  # your code here

    def give_up(self, state):  # over the budget: every ToolCall of the last reply refused
        raise NotImplementedError  # your code here

    def graph(self):  # the StateGraph(PriceState), compiled
        raise NotImplementedError  # your code here

    def run(self, state):  # the first state, the graph, the answer and its reason
        raise NotImplementedError  # your code here


# %%
check("12.5", PriceAgent)

# %% [markdown]
# Here is the graph the notebook's version declares, as the package draws it.

# %%
print(graph.draw_ascii())

# %% [markdown]
# ## Questions
#
# Answer in a sentence or two; three of them have a check cell. The answers are in the solutions.
#
# 1. The notebook's `PriceAgent`, at its defaults, runs the scripted manager on coffee in Rome, Osaka and Lima
# while the rate service is down: every run of `to_usd` raises `TimeoutError`. How many times does `to_usd` run,
# in all, before the run ends?

# %%
q1 = ...  # a number

# %%
check("12.Q1", q1)

# %% [markdown]
# 2. The notebook's `PriceAgent`, at its defaults (`max_slips=8`, `max_steps=6`), runs the scripted manager on
# five cities instead of two. How does the run end? **A:** `"answered"`, after three model calls, like the
# package's `Agent`; **B:** `"slip budget"`, after two model calls, with no price converted; **C:** `"step limit"`.

# %%
q2 = ...  # "A", "B" or "C"

# %%
check("12.Q2", q2)

# %% [markdown]
# 3. The question "What does tea cost in Oslo and in Rome and in Osaka, in US dollars?", asked of an agent
# whose window is your pinned window at `n=2`. The scripted manager answers only from what it reads. What is its
# final answer? **A:** `"Oslo: 3.29 USD, Rome: 2.70 USD, Osaka: 2.51 USD"`; **B:** `"I lost track of the
# prices."`; **C:** it asks for the prices again.

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
# 6. The replay compares each later call only on its newest messages. Your agent passed the replay of SmolLM2's
# run with `window=6`: would it pass with `window=1`? What could a replay of this kind never notice about a window?
#
# 7. A model that repeats the very same `ToolCall` round after round wastes the whole ceiling. Which of your pieces
# would you change to stop it after the second repeat, and what would it return?
#
# ## The real runs, replayed
#
# Both runs were recorded on this task, with these tools and this system prompt, by the project's demo command
# (`python -m mingraph_lite demo --task notebooks/lessons/capstone.py --llm local:MODEL --max-steps 6 --trace ...`):
# the package's `Agent`, greedy decoding (temperature 0, seed 7), in-process llama.cpp; `data/runs/README.md` names
# the exact commands and versions. Here they are replayed through the notebook's own `PriceAgent`. The token counts
# shown are the recording's, whose agent read the model the whole run each time.

# %%
RUNS = Path("..") / "data" / "runs"
replayed = {}
for label, name in (("SmolLM2-135M (recorded, replayed)", "capstone-smollm2-135m.jsonl"),
                    ("Gemma 3 270M (recorded, replayed)", "capstone-gemma3-270m.jsonl")):
    print(f"===== {label} =====")
    replay = ReplayLLM.from_trace(RUNS / name)
    result = ours.PriceAgent(replay, price_tools(), SYSTEM_PROMPT, observers=[ConsoleLogger()], max_steps=6).run(
        {"question": QUESTION})
    replayed[label] = (replay, result)
    print("result:", {**result, "answer": result["answer"] and result["answer"][:40] + "..."}, "\n")
smol_replay, smol_result = replayed["SmolLM2-135M (recorded, replayed)"]
asked = [(c.name, c.arguments) for m in smol_replay.responses for c in m.message.tool_calls]
assert smol_result == {"answer": None, "reason": "step limit"}
assert asked == [("to_usd", {"amount": 6, "currency": "PEN"})] * 6
assert '{"amount": 6, "currency": "PEN"}' in SYSTEM_PROMPT  # the worked example's conversion, copied
gemma_replay, gemma_result = replayed["Gemma 3 270M (recorded, replayed)"]
gemma_asked = [[(c.name, c.arguments) for c in m.message.tool_calls] for m in gemma_replay.responses]
assert gemma_asked == [[("get_price", {"item": "coffee", "city": city}) for city in ("Rome", "Osaka")],
                       [("to_usd", {"amount": 450, "currency": "JPY"})] * 2, []]
assert gemma_result["reason"] == "answered" and gemma_result["answer"].startswith("<your answer>")
assert "message:\n<your answer>" in local_prompt([], price_tools().tools)  # the format both models are shown

# %% [markdown]
# Neither model answered the question. SmolLM2 never asked for a price: it copied the worked example's conversion,
# `to_usd(amount=6, currency="PEN")`, into all six calls, and the ceiling ended the run with no answer. Gemma asked
# for both prices, then both conversions, but converted Osaka's `450 JPY` twice and Rome's `1.3 EUR` never; its
# third reply, with no `ToolCall`s, is the placeholder `<your answer>`, copied from the reply format the local
# adapter shows after the tools (`message: <your answer>`). The agent counts any reply without `ToolCall`s as an
# answer, so that run ends `"answered"`. The agent bounded SmolLM2's loop and made up nothing, but it could not tell
# Gemma's placeholder from an answer. To refuse one, the model node could test the reply's text before ending
# `"answered"`:

# %%
def is_placeholder(text):  # the reply format's blank, copied instead of filled
    return "<" in text and ">" in text


assert is_placeholder(gemma_result["answer"]) and not is_placeholder("Coffee costs 1.42 USD in Rome.")

# %% [markdown]
# Did the window save much? On runs this short, little: the system prompt and the tool schemas are read on every
# call, and a run of a few calls never outgrows a window of 6. A longer run, **scripted**: a model that asks for
# one price a call, ten calls, then answers, run by the notebook's `PriceAgent` with the whole run in view and with
# a window of 6. Each call's reading is measured as the characters of the prompt the local adapter would write
# (`local_prompt`, the code that wrote the real runs' prompts).

# %%
cities = ("Rome", "Osaka", "Lima", "Oslo", "Nairobi")
one_a_call = [[("get_price", {"item": item, "city": city})] for item in ("coffee", "tea") for city in cities]


def prompt_sizes(window):
    llm = ScriptedLLM(one_a_call + ["That is every price."], name="scripted: one price a call")
    ours.PriceAgent(llm, price_tools(), SYSTEM_PROMPT, max_steps=11, max_slips=20, window=window).run(
        {"question": QUESTION})
    return [len(local_prompt(messages, tools)) for messages, tools in llm.calls]


whole, windowed = prompt_sizes(10_000), prompt_sizes(6)
print("characters read per call, whole run:  ", whole)
print("characters read per call, window of 6:", windowed)
saved = {calls: 1 - sum(windowed[:calls]) / sum(whole[:calls]) for calls in (3, 6, 11)}
for calls, share in saved.items():
    print(f"over the first {calls:>2} calls the window reads {share:.0%} fewer characters")
assert saved[3] == 0 < saved[6] < 0.05 and 0.12 < saved[11] < 0.2  # the figures the text below states
assert max(windowed) - min(windowed[3:]) < 0.02 * max(windowed) and whole == sorted(set(whole))

# %% [markdown]
# Over three calls, the length of a run that goes right, the window saves nothing; over six, a few per cent; over
# eleven, about a sixth, and more with every further call: the whole run's prompt grows by one exchange a call
# while the window's stays about the same size.

# %% [markdown]
# ## What is still open
#
# - **Repeats.** SmolLM2 asked for the same conversion six times; your model node could notice a repeated batch
#   and stop early (Q7).
# - **Better models, better prompts.** Neither shipped model answered this question in its recorded run. A model
#   that does needs no change to your agent: run the demo command with `--task notebooks/lessons/capstone.py` and a
#   model of your choice.
# - **Your own task.** A task file is small: tools, a system prompt, a question and a scripted model. Write one for
#   a task you care about; your agent, log and window work on it unchanged.
