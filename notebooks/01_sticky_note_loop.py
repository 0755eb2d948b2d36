# %% [markdown]
# # 01 · The loop, by hand
#
# **At the end you can** write the JSON schema a model reads for a plain function (`schema_of`), spell a
# folder Ollama's way (`to_ollama`), script a manager of a given shape, name the four parts of a round, and
# write a loop with another ceiling (`errand_budget_loop`).
#
# **Prerequisites:** notebook 00 (how to run the course); Python functions, dicts, classes and
# `try`/`except`. **Time:** about 88 minutes (estimated from length and exercises).
#
# Everything runs offline, with **scripted managers**: replies written in advance, and labelled so.
#
# **Sources.** The phone-call picture: the article *The State and Observer Patterns
# in a Python Agent Loop*; the four parts of a round: *The Observe-Reason-Act-Evaluate Cycle* (neither names
# its author).

# %% [markdown]
# ## The picture: a manager on the phone
#
# As in 00, the model is a manager on the phone, with no access to files or services. You hand them a
# **menu** of errands (the tools). They either answer, or pass you a **slip**: "run
# `get_weather`, city = Paris", with a **ticket number**; you run the errand and hand back
# an **answer slip** with the same number. The manager forgets everything between calls, so each time you
# read them **the whole folder** from the top.
#
# | the picture says | the code says |
# |---|---|
# | manager | the model: one call is `llm.generate(folder, registry.tools)` |
# | errand | running a tool: `registry.run(slip)` |
# | slip | a `ToolCall` (name, arguments, id) in `message.tool_calls` |
# | ticket (number) | the tool call's id: `ToolCall.id`, echoed as `ToolMessage.tool_call_id` |
# | answer slip | a tool's result: a `ToolMessage` (role `"tool"`) |
# | folder | the messages read to the model on every call |
#
# The course's menu: two errands on fixed teaching data (not live weather).

# %%
import inspect
import json

from mingraph_lite import (Agent, CallModel, EventRecorder, RunTools, ScriptedLLM, Sequence, StepLimitReached, SystemMessage, UserMessage, word_count)
from lessons.exercises import check
from lessons.pictures import draw_loop, draw_rounds, round_rows
from lessons.predict import ending, reveal
from lessons.reference import reference
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, looping_manager, three_round_manager
from mingraph_lite.course.weather import make_get_weather, to_fahrenheit, weather_registry

registry, get_weather = weather_registry(), make_get_weather()
print("the menu:", registry.names, "| the question:", QUESTION)
print("get_weather('Paris'):", get_weather("Paris"), "| get_weather('Tokyo'):", get_weather("Tokyo"))

# %% [markdown]
# ## What the manager actually reads: the menu as JSON
#
# A model never sees your Python function, only a **JSON schema** of it. The list every provider gets:

# %%
print(json.dumps(registry.tools, indent=2, ensure_ascii=False))

# %%
print(inspect.signature(to_fahrenheit), inspect.get_annotations(to_fahrenheit, eval_str=True),
      inspect.getdoc(to_fahrenheit), f"to_fahrenheit(18), to_fahrenheit(24): {to_fahrenheit(18)}, {to_fahrenheit(24)}", sep="\n")

# %% [markdown]
# The name is the function's; the description is the docstring's text before `Args:`, on one line; each
# argument is a property with its JSON type and its `Args:` line; arguments without a default are
# `required`. This text is all the model knows of a tool.
#
# ### Exercise 01.1: a tool's JSON schema from a plain function
#
# Write `schema_of(fn)`: the spec for any plain function with `str`, `int`, `float` or `bool` arguments,
# shaped like one entry of `registry.tools`; the check compares with the package on functions this notebook
# never shows, whose docstrings may have other sections after `Args:` (the block ends at a blank line or the
# next section, such as `Returns:`). You need
# `inspect.signature`, `inspect.get_annotations(fn, eval_str=True)` and `inspect.getdoc`. JSON Schema's type
# names: `str` is `"string"`, `int` `"integer"`, `float` `"number"`, `bool` `"boolean"` (`"additionalProperties"`
# and `"default"` are optional). The check refuses handing the function to the package (`ToolRegistry().add`, ...).

# %%
def schema_of(fn):
    """The tool spec a provider receives for the plain function ``fn``."""
    raise NotImplementedError  # your code here


# %%
check("01.1", schema_of)

# %% [markdown]
# ## First instinct: a fixed list of steps
#
# The package has a step that calls the model (`CallModel`), one that runs the slips (`RunTools`), and a
# `Sequence` that runs steps in order. "Ask, run the errands, ask again" is three steps in a list:

# %%
llm = four_round_manager()
fixed_plan = Sequence([CallModel(llm, registry, SYSTEM_PROMPT), RunTools(registry), CallModel(llm, registry)])
worksheet = fixed_plan.run({"question": QUESTION})

print(f"{llm.name}: {len(llm.calls)} model calls, then the list ended; the last reply still passed slips:")
print(" ", [f"{slip.name}({slip.arguments})" for slip in worksheet["messages"][-1].tool_calls])
assert "answer" not in worksheet  # the list ran out before the manager answered


# %% [markdown]
# The list ran out while the manager was still passing slips. A list only goes forward: it can't go back
# from "run the errands" to "call the model", and nobody knows in advance how often. We need a loop.
#
# ## The plain `while True` loop
#
# The loop most people write first; its comments name the four parts of a round.

# %%
def plain_loop(llm, registry, question):
    """Call the manager until they answer instead of passing slips. No ceiling."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    while True:  # the "go on?" of EVALUATE (below): `while True` always says yes, so there is no ceiling
        # OBSERVE: the folder holds the instructions, the question, every reply and answer slip so far
        # REASON: the manager reads it all, then answers or passes slips
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:  # no slips means "that's my answer": the way out
            return response.message.content, folder
        # ACT: our code (not the model) runs each errand; each answer slip carries its slip's ticket number
        answer_slips = [registry.run(slip) for slip in response.message.tool_calls]
        # EVALUATE: the results go into the folder for the next round to judge; then back to the `while` line
        folder.extend(answer_slips)


draw_loop()

# %% [markdown]
# | part | in `plain_loop` | failure to watch for |
# |---|---|---|
# | **observe** | the folder: instructions, question, every reply and answer slip | a vague or unit-less result misleads the next round |
# | **reason** | `llm.generate(folder, tools)`: slips, or an answer (no slips: the loop returns it) | the model makes up a result instead of asking for it |
# | **act** | `registry.run(slip)`: *our code* runs the errand | side effects you can't undo |
# | **evaluate** | answer slips into the folder; "should we go on?" (the `while` line) | stopping too early, or never stopping |
#
# The way out on an answer is the model's; evaluate's "go on?" is ours, and `while True` always says yes.
#
# ### Predict first
#
# 00's demo manager converted one temperature per round. The three-round manager asks
# for both lookups, then **both conversions in one reply**. **How many model calls, and how many errands
# (tool calls), will it take?**

# %%
my_guess = ...  # for the three-round manager: {"model calls": <a number>, "errands": <a number>}

# %%
llm = three_round_manager()
answer, folder = plain_loop(llm, registry, QUESTION)
actual = {"model calls": len(llm.calls), "errands": sum(len(m.tool_calls) for m in folder if m.role == "assistant")}
reveal(my_guess, actual, "the three-round manager", gated=True,  # the run shows once your guess is right
       hint="count the replies: one with both lookups, one with both conversions, one answer")
assert answer == plain_loop(four_round_manager(), registry, QUESTION)[0]  # 00's manager: same answer

# %% [markdown]
# Same answer as 00's manager (the cell checks). **The model decides how many rounds there are**: it
# reads each answer slip, then decides whether it needs another errand.
#
# ### The two runs as a timeline
#
# Every model call reads **the whole folder** again. Scripts report no token counts, so we count one token
# per word of the folder (the menu not counted). Real tokenizers differ; the *shape* is the point. It gives
# the prediction away, so it waits for your right guess.

# %%
runs, read = {}, {}
for make_manager in (four_round_manager, three_round_manager):
    llm = make_manager()
    llm.count_tokens = word_count  # the stated rule: one token per word read or written
    runs[llm.name] = recorder = EventRecorder()
    Agent(llm, registry, SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    read[llm.name] = [row["input_tokens"] for row in round_rows(recorder)]
assert sum(read[four_round_manager().name]) > sum(read[three_round_manager().name])  # the extra round re-reads
if my_guess == actual:
    print(*(f"{name:<22} words read per call: {r}, total {sum(r)}" for name, r in read.items()), sep="\n")
    draw_rounds(runs, unit="tokens (counted as words)")

# %% [markdown]
# Purple blocks are model calls, green ones tool calls. An extra round re-reads a folder that has grown:
# each costs more than the one before.
#
# ## The wire: what goes to Ollama and to OpenAI for one round
#
# `llm.generate(folder, tools)` hides an HTTP request. To see its bytes without a server, each adapter's
# official client gets a **fake server** (`lessons/fake_servers.py`) that keeps the request and answers with
# a reply we wrote in the provider's documented format (token counts invented): in round 1, both lookups.

# %%
from lessons.fake_servers import ollama_on, openai_on, show_sent, two_lookups

raw_reply, ollama_server, openai_server = two_lookups()  # round 1's reply on each: both lookups, Paris and Tokyo
on_ollama, on_openai = ollama_on(ollama_server), openai_on(openai_server)

# %% [markdown]
# Round 1, to Ollama (`POST /api/chat`): the model's name, the folder, the menu (checked to be exactly
# `registry.tools`), and `"stream": false`. To OpenAI (`POST /v1/chat/completions`): the same folder and
# menu (checked), so only the rest prints: no `stream` field.

# %%
folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION)]
from_ollama, from_openai = on_ollama.generate(folder, registry.tools), on_openai.generate(folder, registry.tools)
sent_to_ollama, sent_to_openai = ollama_server.bodies[0], openai_server.bodies[0]
assert sent_to_ollama["tools"] == registry.tools and all(sent_to_openai[k] == sent_to_ollama[k] for k in ("tools", "messages"))
print(json.dumps({**sent_to_ollama, "tools": "<registry.tools, exactly>"}, indent=2, ensure_ascii=False))
print("to OpenAI:", json.dumps({k: v for k, v in sent_to_openai.items() if k not in ("tools", "messages")}))

# %% [markdown]
# A raw Ollama reply and what each adapter read. In the `ollama` client this course pins (below 0.7), a
# tool call has only a `function` field, **no ticket number**, so the adapter makes one; OpenAI sends its
# own ids, and the arguments as JSON *text*.

# %%
print("raw Ollama reply (written by us in Ollama's format):", *(f"{k}: {json.dumps(v)}" for k, v in raw_reply.items()), sep="\n  ")
print("\nwhat the Ollama adapter read:", from_ollama)
print("\nwhat the OpenAI adapter read:", from_openai)

# %% [markdown]
# Round 2, with the two answer slips in the folder, shows the real difference:

# %%
round_two = [*folder, from_openai.message, *(registry.run(slip) for slip in from_openai.message.tool_calls)]
on_ollama.generate(round_two, registry.tools), on_openai.generate(round_two, registry.tools)
show_sent(1, Ollama=ollama_server, OpenAI=openai_server)  # each one's round-2 messages after the question

# %% [markdown]
# To Ollama an answer slip carries only its **tool's name** (`tool_name`): two answers of one tool are told
# apart only by their order. To OpenAI it carries the **ticket number** (`tool_call_id`). The assistant message's text was empty: the Ollama adapter **left `content` out**, its own
# choice (Ollama's official client drops only fields that are `None`, so it would send `"content": ""`);
# the OpenAI adapter sent `"content": null`. One folder, two spellings: that is an adapter's whole job.
#
# ### Exercise 01.2: the folder in Ollama's spelling
#
# Write `to_ollama(folder)`: the message dicts the Ollama adapter puts in `"messages"`, for any folder.
# System and user messages: role and content. An assistant message: its role, `"content"` only when its
# text is not empty, `"tool_calls"` only when it passed slips (each `{"function": {"name": ..., "arguments":
# {...}}}`). An answer slip (`ToolMessage`): `{"role": "tool", "content": ..., "tool_name": ...}`; when its
# `message.name` is `None`, find the name by its ticket number (`tool_call_id`) among the earlier slips (the
# `ToolCall` whose `id` matches). The check compares with the adapter on another folder, and refuses calls to its
# `to_ollama_messages`.

# %%
def to_ollama(folder):
    raise NotImplementedError  # your code here


# %%
check("01.2", to_ollama)

# %% [markdown]
# ## Writing a manager yourself
#
# A scripted manager is a list of replies handed back in order, one per model call: a list of `(tool name,
# arguments)` pairs passes those slips; a string is the answer. A manager that only cares about Paris:

# %%
paris_only = ScriptedLLM([[("get_weather", {"city": "Paris"})], "Paris: 18°C"], name="scripted: Paris only")
print("answer:", plain_loop(paris_only, registry, "How warm is it in Paris?")[0], "| model calls:", len(paris_only.calls))

# %% [markdown]
# The script wrote "18°C" before `get_weather` ran: a scripted manager does not read its answer slips; its
# author did: a teaching tool, never a stand-in for a model.
#
# ### Exercise 01.3: a manager of a given shape
#
# Write `one_city_at_a_time()`, returning a new `ScriptedLLM` on every call (a script that ran is used up),
# for the course question: Paris's weather, then in the **next** reply
# Tokyo's, then **both conversions in one reply** (of the temperatures `get_weather` gave, converted above),
# then an answer with both Fahrenheit temperatures as `to_fahrenheit` returned them.

# %%
def one_city_at_a_time():
    raise NotImplementedError  # your code here: return ScriptedLLM([...], name="scripted: one city at a time")


# %%
check("01.3", one_city_at_a_time)

# %% [markdown]
# ## The manager who never stops
#
# A real model can get stuck asking for the same
# errand again and again, and **every model call costs**. `looping_manager()` asks for
# the same two lookups in every reply; `plain_loop` would call it until its script ran out.
#
# The fix is a ceiling. The model still decides the number of rounds; our code decides the most we will pay
# for. `max_steps` counts **model calls**, and running out is not an answer: the loop raises
# `StepLimitReached`, so no caller can mistake "I gave up" for a reply. `while True` becomes a `for`:

# %%
def capped_loop(llm, registry, question, *, max_steps=10):
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    for step in range(1, max_steps + 1):  # EVALUATE's "go on?" now ends: at most max_steps model calls
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        folder.extend(registry.run(slip) for slip in response.message.tool_calls)
    raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)


for llm in (three_round_manager(), looping_manager()):  # ending(): "answer", or the name of the exception raised
    print(f"{llm.name:<22} {ending(capped_loop, llm, registry, QUESTION, max_steps=5)}, model calls: {len(llm.calls)}")
draw_loop(ceiling=True)  # the round again, now with the ceiling's way out

# %% [markdown]
# A ceiling, not a count: the three-round manager did not take 5 rounds. The package's `Agent` has the same
# one (`max_steps`; question 2 tries it).

# %% [markdown]
# ### Exercise 01.4: a ceiling on errands
#
# An errand can cost money too, or be impossible to take back (a mail sent). Write
# `errand_budget_loop(llm, registry, system_prompt, question, *, max_tool_calls=6)`: the loop with a ceiling
# on **errands** instead of model calls. It runs slips (`ToolCall`s) one at a time; the slip that would be
# errand number `max_tool_calls + 1` is **not run**: the loop raises `StepLimitReached(..., steps=<model calls
# made so far>)` instead. When the model answers, the loop returns its text, even with the budget all spent. The
# check refuses a loop that hands the run to `Agent` (its ceiling counts model calls) or drops `system_prompt`.

# %%
def errand_budget_loop(llm, registry, system_prompt, question, *, max_tool_calls=6):
    raise NotImplementedError  # your code here


# %%
check("01.4", errand_budget_loop)

# %% [markdown]
# Below runs the notebook's own version, unprinted. **Predict first:**
# the three-round manager runs four errands, two per reply. With a budget of 4 errands, and of 3, does it
# answer or raise?

# %%
my_budget_guess = ...  # {4: "answer" or "StepLimitReached", 3: the same choice}

# %%
budgeted = reference("01.4")
outcomes = {b: ending(budgeted, three_round_manager(), registry, SYSTEM_PROMPT, QUESTION, max_tool_calls=b) for b in (4, 3)}
reveal(my_budget_guess, outcomes, "what each budget did", gated=True,
       hint="the budget is checked before each errand: count the errands each reply brings")

# %% [markdown]
# ## What is still open
#
# Our loops keep the folder, a step count and the answer in loose variables: notebook 02 puts them on a
# "sticky note" and replays real runs of two small models.

# %% [markdown]
# ## Questions
#
# Answers: `notebooks/solutions/01_sticky_note_loop.py`; the cells after the list check 1, 2 and 5 against
# runs of the code.
#
# 1. How many steps would the fixed list `Sequence([CallModel, RunTools, CallModel, ...])` need for the
#    four-round manager to answer?
# 2. `Agent(four_round_manager(), ..., max_steps=3)`: how many model calls are made, and does the caller get
#    an answer?
# 3. What could go wrong if our loop sent Ollama two answer slips of one tool in the wrong order, and why
#    not OpenAI?
# 4. Take `folder.extend(answer_slips)` out of `plain_loop`: what could a real model do next, and which
#    failures of the four-part table would you see?
# 5. With `errand_budget_loop(..., max_tool_calls=5)` and a manager that passes one slip a reply and never
#    answers, how many model calls are made before the loop stops?

# %%
answer_q1 = ...  # how many steps in the fixed list, e.g. 5
answer_q2 = ...  # (model calls, answered?), e.g. (4, True)
answer_q5 = ...  # a number of model calls

# %%
check("01.Q1", answer_q1)
check("01.Q2", answer_q2)
check("01.Q5", answer_q5)
