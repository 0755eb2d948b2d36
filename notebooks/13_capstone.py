# %% [markdown]
# # 13 · Capstone, part 2: the agent
#
# Notebook 12 set the price task and built its pieces: a window that pins the question, an errand that answers
# every `ToolCall`, a price log and a router. Here they become an agent:
#
# - the **agent**: a graph whose loop has a ceiling (notebook 01), checked on questions you have not seen and
#   against two recorded runs of real models;
# - an agent that **stops a repeated batch**, checked on one of those real runs;
# - a **reading** of the other real run's trace: where did it first go wrong?
#
# **Prerequisites:** notebooks 01 to 12. **Time:** about 83 minutes (estimated from length: see "How long" in 00).
#
# Every run here is **scripted** (no model, no network), except two recorded runs of real models, **replayed**
# from their trace files.

# %%
import json
import operator
import tempfile
from pathlib import Path
from typing import Annotated, TypedDict

from mingraph_lite import ReplayLLM, ScriptedLLM, UserMessage, read_trace  # noqa: F401 (13.3)
from mingraph_lite import AssistantMessage, SystemMessage, ToolMessage  # noqa: F401 (for 13.1 and 13.2)
from mingraph_lite.graph import END, START, StateGraph  # noqa: F401 (your graph in 13.1 needs them)
# your own notebook-12 pieces, pasted below, use these names: import them here so the paste runs
from mingraph_lite import Observer, ToolArgsError, ToolCall  # noqa: F401
from mingraph_lite.graph import Send  # noqa: F401
from lessons.capstone import QUESTION, SYSTEM_PROMPT, price_manager, price_tools
from lessons.exercises import check
from lessons.local_prompt import local_prompt
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
# 13.1's check runs it and asserts this listing): the two prices in one superstep, the two conversions in another,
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
# ## Exercise 13.1: the price agent
#
# Put the pieces together: `PriceAgent`, a `StateGraph(PriceState)` with a model node, `route` (12.4) after it,
# and `errand` (12.2) on each branch, joined back to the model. The check holds you to:
#
# - **Interface.** `PriceAgent(llm, registry, system_prompt, *, observers=(), max_steps=6, max_calls=8,
#   window=6)`; `run({"question": ...})` returns `{"answer": ..., "reason": ...}`.
# - **Reasons** a run ends with (unless it is `"answered"`, the answer is `None`):
#   - `"answered"`: a reply without `ToolCall`s; its text is the answer;
#   - `"step limit"`: `max_steps` model calls made and the last reply still asks for tools; its `ToolCall`s still
#     run, then the run stops instead of calling again;
#   - `"tool failed"`: a tool still broken after your errand's retry; the model is not called again;
#   - `"call budget"`: a reply whose `ToolCall`s would take `calls_left` below zero; none runs, and each gets an
#     error `ToolMessage` saying the call budget is spent.
# - **Reads.** Every call reads `pinned_window` (12.1) of the run at the agent's `window`, and `registry.tools`.
# - **Hooks**, on every observer (`self.tell(hook, ...)`), in this order:
#   1. `on_run_start` before the graph runs, with what the first call reads: the system prompt as a
#      `SystemMessage`, then the question;
#   2. per model call: `on_step_start(number)` (1 for the first) before it, `on_model_reply(response)` after it;
#   3. per `ToolCall` that runs: `on_tool_call(call)` before the errand, `on_tool_return(message)` after it;
#   4. per refused `ToolCall`: only `on_tool_return(message)`, as it never runs (as in the package's `Agent`);
#   5. `on_finish(answer, reason)` once, at the end.
# - **Supersteps.** The answered run above makes 3 model calls in `2*3-1` supersteps; a run stopped at the ceiling
#   also runs its last batch and then one model node that stops it: `2*max_steps+1` (the cell after the check counts
#   them). Give `compile(max_steps=...)` that room, as it counts supersteps, not model calls.

# %% [markdown]
# The graph to build, as the package draws it (`graph.draw_ascii()`; the cell after the check asserts this drawing
# of the notebook's own agent). An arrow with a label is one `route` can take:
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
# **Yours to choose** (the check judges only what a run does): what each node returns (the graph needs a model
# node and the nodes your `route` names); in which order the model node tests its reasons to stop; how it learns
# that a tool failed (the state's `failed` field is there for it; a branch can tell a broken tool by its errand's
# text, which starts `"Error: tool failed twice"`); and what a refused `ToolMessage` says beyond the
# budget. The methods below are one way to split the work; merge or rename any but
# `__init__` and `run`.
#
# **A suggested order:** `graph` and `run` with a model node that only calls the model and stops on an answer;
# then `run_errand`, until `price_manager()` answers the coffee question; then the ceiling, the budget
# (`give_up`) and the broken tool; the hooks last. The check tests in this order, so its hint names the next step.
#
# The check runs your agent on unseen questions at two window sizes, recording every hook call and what each call
# read; on a model that never stops, a broken tool and a reply over budget; then it **replays two recorded runs of
# real models**: each recorded reply is handed back in order, and the replay stops your agent where what it sends
# differs from the recording (the first call in full, each later call on its newest messages; Q3 asks what this
# cannot see). An agent that wraps the package's `Agent` (or its agent graph) is refused.

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
# From here on, some cells use the notebook's own `PriceAgent` (`ours`), loaded from the solutions without being
# printed, so they run whether or not your exercises are done. Its run on the coffee question, with the superstep
# listing above, and its graph as drawn in 13.1's spec:

# %%
ours = reference("13_capstone")
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
assert graph.draw_ascii().strip() == DRAWN  # the drawing shown in 13.1's spec
print(graph.draw_ascii())

# %% [markdown]
# ## The real runs, replayed
#
# Both runs were recorded on this task, with these tools and this system prompt, by the project's demo command
# (`python -m mingraph_lite demo --task notebooks/lessons/capstone.py --llm local:MODEL --max-steps 6 --trace ...`):
# the package's `Agent`, greedy decoding (temperature 0, seed 7), in-process llama.cpp; `data/runs/README.md` names
# the exact commands and versions. Here they are replayed through the notebook's own `PriceAgent`, with a
# `PriceLog` (yours, if you pasted it above) listening; below, each run's log, a line per `ToolMessage` and one at
# the finish (cut at 120 characters).

# %%
RUNS, logs = Path("..") / "data" / "runs", Path(tempfile.mkdtemp())
replayed = {}
for label, name in (("SmolLM2-135M (recorded, replayed)", "capstone-smollm2-135m.jsonl"),
                    ("Gemma 3 270M (recorded, replayed)", "capstone-gemma3-270m.jsonl")):
    print(f"===== {label}: its price log =====")
    replay = ReplayLLM.from_trace(RUNS / name)
    result = ours.PriceAgent(replay, price_tools(), SYSTEM_PROMPT, observers=[PriceLog(logs / name)],
                             max_steps=6).run({"question": QUESTION})
    replayed[label] = (replay, result)
    for line in (logs / name).read_text(encoding="utf-8").splitlines():
        print(" ", line[:120])
    assert json.loads(line)["reason"] == result["reason"]  # the log's last line is the run's finish
smol_replay, smol_result = replayed["SmolLM2-135M (recorded, replayed)"]
asked = [(c.name, c.arguments) for m in smol_replay.responses for c in m.message.tool_calls]
assert smol_result == {"answer": None, "reason": "step limit"}
assert asked == [("to_usd", {"amount": 6, "currency": "PEN"})] * 6
assert '{"amount": 6, "currency": "PEN"}' in SYSTEM_PROMPT  # the worked example's conversion, copied
gemma_replay, gemma_result = replayed["Gemma 3 270M (recorded, replayed)"]
assert gemma_result["reason"] == "answered" and gemma_result["answer"].startswith("<your answer>")
assert "message:\n<your answer>" in local_prompt([], price_tools().tools)  # the format both models are shown

# %% [markdown]
# Neither model answered the question. SmolLM2 never asked for a price: it copied the worked example's conversion,
# `to_usd(amount=6, currency="PEN")`, into all six calls, and the ceiling ended the run with no answer. The agent
# bounded the loop, but let the model ask five times more for what it had already been given.
#
# ### Exercise 13.2: stop a repeated batch
#
# Write `StopRepeats`, a subclass of your `PriceAgent`, whose run ends as soon as a reply asks for exactly what the
# reply just before it asked for: the same tools with the same arguments, in the same order (the ids never repeat:
# a model writes new ones each time). The repeated batch does not run; the run ends with answer `None` and reason
# `"repeated"`, and `on_finish` hears both. Any other run ends as `PriceAgent`'s would.
#
# The check replays SmolLM2's run through your agent and counts its model calls and `ToolCall`s, then runs it on
# scripted models the notebook never shows, and on Gemma's replay. If your 13.1 is not done yet, subclass the
# notebook's own version: `class StopRepeats(reference("13.1")):`. Its `model(state)` returns the node's update
# (a dict you can read and change before returning it).

# %%
class StopRepeats(PriceAgent):
    def model(self, state):
        raise NotImplementedError  # your code here


# %%
check("13.2", StopRepeats)

# %% [markdown]
# ### Exercise 13.3: Gemma's first wrong step
#
# Gemma's run ended `"answered"`, but its answer is no answer. Read its price log above (or its trace:
# `read_trace(RUNS / "capstone-gemma3-270m.jsonl")`) and find the **first** `ToolCall` that did no work the
# question needs: a price not asked for or asked twice, or a conversion of an amount no price returned or that was
# already converted. Answer with the call that should have been made (the conversion the question still lacked),
# as `(name, arguments)`. The check walks the trace by that rule.

# %%
right_instead = ...  # a pair, such as ("get_price", {"item": "tea", "city": "Lima"})

# %%
check("13.3", right_instead)

# %% [markdown]
# Gemma's third reply, with no `ToolCall`s, is the placeholder `<your answer>`, copied from the reply format the
# local adapter shows after the tools (`message: <your answer>`). The agent counts any reply without `ToolCall`s
# as an answer, so that run ends `"answered"`: it could not tell Gemma's placeholder from an answer. A test that
# tells that blank from an answer:

# %%
def is_placeholder(text):  # the reply format's blank, copied instead of filled
    return "<your answer>" in text


assert is_placeholder(gemma_result["answer"]) and not is_placeholder("Rome: <1.50 USD, Osaka: 2.97 USD")

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
    ours.PriceAgent(llm, price_tools(), SYSTEM_PROMPT, max_steps=11, max_calls=20, window=window).run(
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
# - **Better models, better prompts.** Neither shipped model answered this question in its recorded run. To try
#   one that might, record a run with the demo command (`--task notebooks/lessons/capstone.py`, a model of your
#   choice), then replay it through your `PriceAgent` as above.
# - **Your own task.** A task file is a Python file that defines four names: `TOOLS` (a `ToolRegistry`),
#   `SYSTEM_PROMPT`, `QUESTION` and `SCRIPTED` (a function that returns its scripted model); `--task` reads
#   those four and nothing else. `notebooks/lessons/capstone.py` is one. Write one for a task you care about;
#   your agent, log and window work on it unchanged.

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
# 3. The replay compares each later call only on its newest messages. The notebook's agent passes the replay of
# SmolLM2's run with `window=6`: would it pass with `window=1` ("yes" or "no")? What could a replay of this kind
# never notice about a window?

# %%
q3 = ...  # "yes" or "no"

# %%
check("13.Q3", q3)

# %% [markdown]
# 4. Which piece would you change so that Gemma's placeholder reply no longer ends the run `"answered"`? Change
# it: write `RefusePlaceholders`, a subclass of your `PriceAgent` (or of `reference("13.1")`), whose run ends with
# answer `None` and reason `"placeholder"` when the reply that would end it `"answered"` is the placeholder
# (`is_placeholder`); `on_finish` hears the same (`None`, `"placeholder"`), as in 13.2. The check replays Gemma's
# run through it, and scripted runs that answer for real (one answer holds a `<`).

# %%
class RefusePlaceholders(PriceAgent):
    def model(self, state):
        raise NotImplementedError  # your code here


# %%
check("13.Q4", RefusePlaceholders)

# %% [markdown]
# 5. The final check replays two real runs on top of its scripted ones. What could an agent get wrong in the
# messages it sends that passes every scripted run but fails the replay?
