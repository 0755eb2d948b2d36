# %% [markdown]
# # 00 · Start here
#
# This course takes an LLM agent apart. An agent is a model calling tools in a loop; in notebooks 01 to 14
# you write that loop yourself, split it into the pieces a real framework has, learn to read what a run did,
# and build an agent for a new task from your own pieces.
#
# **What you will be able to do at the end of this notebook**
#
# - run the course offline, and switch it to a real model with one environment variable (also from Python);
# - check that your environment has everything;
# - predict how many messages a run leaves behind, then check against the run;
# - say which model is answering right now;
# - find the notebook for each idea on the course map.
#
# **Prerequisites:** Python you can write (functions, classes, dicts, `try`/`finally`); no machine-learning
# background.
# **Time:** about 44 minutes (estimated from length, as in every header: see "How long" below); the whole course
# takes about 20.2 hours by the same estimate, in fifteen notebooks: this one and 01 to 14.

# %% [markdown]
# ## How to run the course
#
# | you want to | type |
# |---|---|
# | open the course (builds `.venv` the first time) | `make lab` |
# | the same notebooks against a real model | `MINGRAPH_LLM=ollama:qwen3.5:2b make lab` |
# | ... or OpenAI (needs `OPENAI_API_KEY`) | `MINGRAPH_LLM=openai:gpt-5-mini make lab` |
# | ... or a tiny model in-process, no server | `MINGRAPH_LLM=local make lab` |
# | run every test and re-check every notebook | `make test` |
#
# Without `MINGRAPH_LLM`, every notebook runs with a **scripted** model: replies written in advance, no
# network, no key, the same output on every machine, and always labelled as scripted. With a real model,
# only cells marked `NBVAL_IGNORE_OUTPUT` (a comment that tells the notebook tests not to compare that cell's
# output) change their output: here the environment check and the "active
# model" cell; a few later notebooks (02, for one) have such a cell too.

# %% [markdown]
# ## Check your environment
#
# One row per thing the course needs: Python, each package, the optional extras (missing is fine: the row
# says how to add one), and whether the active model can answer. For Ollama it asks the server once, with a
# one-second timeout; the scripted default makes no network call.

# %%
# NBVAL_IGNORE_OUTPUT
# (versions and your model setting differ from machine to machine)
from lessons.envcheck import FAIL, check_environment, format_table

rows = check_environment()
print(format_table(rows))
problems = [row for row in rows if row.status == FAIL]
print()
print("all good" if not problems else f"{len(problems)} to fix: see the FAIL rows above")

# %% [markdown]
# ## The running example
#
# Every notebook uses the same question and the same two tools, on fixed teaching data (not live weather):
# `get_weather(city)` answers in degrees Celsius, and `to_fahrenheit(celsius)` converts.

# %%
from mingraph_lite import Agent, ConsoleLogger, EventRecorder
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, make_llm
from mingraph_lite.course.weather import get_weather, to_fahrenheit, weather_registry

print("question:      ", QUESTION)
print("system prompt: ", SYSTEM_PROMPT)
print("get_weather('Paris') ->", repr(get_weather("Paris")))
print("to_fahrenheit(18)    ->", repr(to_fahrenheit(18)))

# %% [markdown]
# The course uses a picture with a few words of its own; each has a name in the code:
#
# - **manager**: the model, on the phone, with no access to any file (the `llm` an `Agent` is given);
# - **errand**: one tool the manager asks you to run; the request itself is a `ToolCall` in its reply;
# - **folder**: every message of the run so far (`agent.memory`), read out to the manager on every call,
#   since the manager remembers nothing between calls.
#
# One round, in those words (the code names in brackets):
#
# ```text
#  folder ──read out──▶ manager ──reply: errands to run [ToolCall]──▶ you run each errand
#    ▲                                                                        │
#    └──────────── one result message per errand [ToolMessage] ◀──────────────┘
#  ... again, until the manager's reply is an answer instead of errands
# ```
#
# The folder holds the instructions (the system prompt), the question, each reply of the manager's (one
# asks for errands, the last is the answer), and one result message per errand. `docs/glossary.md` lists
# every such word with its name in the code.
#
# ## A run, before you predict one
#
# A scripted manager on a smaller question: one errand, then the answer. `ConsoleLogger` prints each step
# as it happens; then the folder, one line per message.

# %%
from mingraph_lite import ScriptedLLM

# one item per reply: a list of (tool, arguments) is a reply asking for errands; a string is the answer
paris_only = ScriptedLLM([[("get_weather", {"city": "Paris"})], "Paris: 18°C."], name="scripted: Paris only")
small = Agent(paris_only, weather_registry(), SYSTEM_PROMPT, observers=[ConsoleLogger()])
small.run({"question": "How warm is it in Paris?"})
print()
for message in small.memory.messages():
    asks = [f"{call.name}({call.arguments})" for call in getattr(message, "tool_calls", ())]
    text = " ".join(message.content.split())
    print(f"  {message.role:<9} {'asks for ' + ', '.join(asks) if asks else text[:60]}")
print("messages:", len(small.memory.messages()), "| read on the last call:", len(paris_only.calls[-1][0]))

# %% [markdown]
# `tokens in=? out=? thinking=?`: a scripted manager reports no token counts, so the logger prints `?`; a real
# model's reply carries them (the Ollama and OpenAI adapters read them from the response). `thinking` counts
# the tokens a reasoning model spent thinking before it replied (notebook 05).

# %% [markdown]
# ### Exercise 00.1: predict the folder, then run the demo
#
# The demo below runs a scripted manager on the course question. It asks for **both lookups in its first
# reply**, then for **one conversion per reply**, and answers when it has both. How many messages will the
# folder hold when the run ends, and how many did the manager read on its **last** call? Write both as whole
# numbers and run the check (it runs the same manager and compares). The demo shows the run only after a
# right prediction.

# %%
from lessons.exercises import check

answer_1 = {"messages at the end": ..., "read on the last call": ...}

# %%
check("00.1", answer_1)

# %% [markdown]
# The demo: `ConsoleLogger` prints each step as it happens; `agent.memory` is the folder.

# %%
from lessons.exercises import verdict

result_1 = verdict("00.1", answer_1)  # the demo prints the true counts: it waits for a right prediction
if not result_1.passed:
    print("00.1 first: the demo shows the run once your prediction is right. The check says:")
    print(result_1)
else:
    print("your prediction, checked first:", result_1, "\n")
    manager = four_round_manager()
    agent = Agent(manager, weather_registry(), SYSTEM_PROMPT, observers=[ConsoleLogger()])
    answer = agent.run({"question": QUESTION})["answer"]
    print()
    print("answer:", answer)
    print("model calls:", len(manager.calls), "| manager:", manager.name)
    print("messages at the end:", len(agent.memory.messages()), "| read on the last call:", len(manager.calls[-1][0]))

# %% [markdown]
# ## The active model
#
# `make_llm()` builds the model named by `MINGRAPH_LLM` (default: scripted). Notebooks *about* a live model
# use it; teaching runs keep named scripted managers so that their outputs stay the same. This cell runs the
# question through the active model; with a real model its output differs from run to run.

# %%
# NBVAL_IGNORE_OUTPUT
# (the active model is whatever MINGRAPH_LLM says)
import os

print("MINGRAPH_LLM =", os.environ.get("MINGRAPH_LLM") or "(unset: scripted)")
recorder = EventRecorder()
try:
    llm = make_llm()
    result = Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    replies = recorder.of("model_reply")
    print(f"answered by: {replies[-1].get('model')}  ({llm.name})")
    if result_1.passed:  # the scripted default's counts would give 00.1 away: shown once it is right
        print("model calls:", len(replies), "| errands:", len(recorder.of("tool_call")))
    print("answer:", result["answer"])
except Exception as e:  # a missing server, key or package: show the reason instead of a traceback
    print(f"the active model could not answer: {type(e).__name__}: {e}")

# %% [markdown]
# ## The course map
#
# Each notebook opens with what you will be able to do and closes with what is still open and, from 01 on,
# a few questions. In its exercises you write the code (a loop, a card, a listener, a node, a memory), and
# a check cell right below runs it on cases of its own and says whether it works, or what to look at next;
# it refuses an answer that only calls the package's own version (or the notebook's, loaded for later
# cells). Stuck? Reference answers live in `notebooks/solutions/`, in a file with the notebook's name (a test
# checks there is one for each notebook): try first, then compare.
#
# **How long.** A header's time is worked out from the notebook's length: 130 words and 7 lines of code a minute,
# 12 minutes an exercise, 3 a question. Those rates were fitted to the times reviewers gave after working the
# notebooks as learners (agents asked for a learner's time: nobody has timed a person yet). In the newest full
# reading they took 40 to 115 minutes a notebook, 8 more than the headers on average: read a header as a floor.

# %%
from lessons.exercises.nb00 import COURSE

for name, idea in COURSE.items():
    print(f"{name:<27} {idea}")
assert len(COURSE) == 1 + 14  # this notebook and the fourteen after it, 01 to 14, as the introduction says
from pathlib import Path

assert sorted(p.stem for p in Path(".").glob("[0-9][0-9]_*.ipynb")) == sorted(COURSE)  # the notebooks beside this one

# %% [markdown]
# ### Exercise 00.2: switch the model for one block
#
# The table at the top switches the model from the shell, before Jupyter starts. To try another model for a
# few cells only, write `using_model(spec)`, for `with using_model(spec) as llm: ...`: on entering, it sets
# the environment variable that picks the model (the table names it) to `spec` and gives the model that is
# then active (built with `make_llm()`); on leaving, even by an error, it puts back what the variable held before
# (unset stays unset). `contextlib.contextmanager` around a `try`/`finally` is one way to write it.
# The check runs it with two specs, in sessions launched with and without the variable set (building touches
# no network), then puts your environment back. Notebooks 02, 05 and 10 each have a cell that runs the
# active model: with your `using_model` pasted there, it tries another model without restarting Jupyter.

# %%
def using_model(spec):
    raise NotImplementedError  # your code here


# %%
check("00.2", using_model)

# %% [markdown]
# ## Where the ideas come from
#
# The course is inspired by these articles, retold in its own words and code (their figures are quoted as
# theirs). Only the last names its author and where it appeared; the copies we worked from of the others
# give neither: search for them by title.
#
# - "The State and Observer Patterns in a Python Agent Loop" (about the `mingraph` project): the manager on
#   the phone, the folder (notebooks 01 and 02), the cards (03), the railway announcer (04), the `18` vs `18°C`
#   experiment (05 and 06).
# - "The Observe-Reason-Act-Evaluate Cycle": one loop iteration dissected.
# - "Why an agent needs more than a message list": what a run has to remember.
# - "Stage 03: The Brief Is Written. Why Can't We Deliver It Yet? — Making State and Control Flow Explicit"
#   (a story about Lin's travel-practice page; Lin is a character in it, not its author): the weather brief
#   as a graph.
# - "Decoding LLMs: Building AI Agents & Multi-Step Workflows (Part 4)" by Shahibur Rahman (DEV Community):
#   ReAct, plan-and-execute, memory strategies, validated tool arguments.
#
# ## What is still open
#
# - We ran an agent, but haven't seen its loop: notebook 01 writes it by hand.
# - A scripted manager always takes the same number of rounds; a real model decides for itself (set
#   `MINGRAPH_LLM` and re-run the "active model" cell).
# - The environment check says a model *can* be reached, not that it answers well; later notebooks show how
#   to tell from a trace.
