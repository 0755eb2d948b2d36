# %% [markdown]
# # 01 · The loop, by hand
#
# **At the end you can** write a tool's JSON schema, spell a folder Ollama's way, script a manager, name the
# four parts of a round, and write a loop with another ceiling.
#
# **Prerequisites:** notebook 00; Python functions, dicts, classes and `try`/`except`. **Time:** about 83 minutes (estimated from length: see "How long" in 00).
#
# Everything runs offline, with **scripted managers** (replies written in advance, labelled so). Why "sticky
# note" in the file name: this loop keeps its state in loose variables; notebook 02 puts it on a sticky note.
#
# **Sources.** The phone-call picture: the article *The State and Observer Patterns
# in a Python Agent Loop*; the four parts of a round: *The Observe-Reason-Act-Evaluate Cycle* (neither names
# its author).

# %% [markdown]
# ## The picture: a manager on the phone
#
# As in 00, the model is a manager on the phone. You hand them a **menu** of errands; they answer, or pass
# **slips** ("run `get_weather`, city = Paris", with a **ticket** number); you run each errand and hand back an
# **answer slip** with that number. They forget everything between calls, so each call reads **the whole
# folder**. Code comments use the code names:
#
# | picture | code |
# |---|---|
# | manager | the model, `llm.generate(messages, registry.tools)` |
# | menu | `registry.tools` |
# | slip | a `ToolCall` in `message.tool_calls` |
# | ticket | `ToolCall.id` = `ToolMessage.tool_call_id` |
# | errand | `registry.run(tool_call)` |
# | answer slip | a `ToolMessage` (role `"tool"`) |
# | folder | the list of messages, `messages` |
#
# ## What the manager reads: the menu as JSON
#
# A model never sees your Python function, only a **JSON schema** of it. The menu, then the plain function
# behind `to_fahrenheit`:

# %%
from mingraph_lite import CallModel, RunTools, ScriptedLLM, Sequence, StepLimitReached, SystemMessage, UserMessage
from lessons.by_hand import budget_hint, rounds_hint, show_menu, show_timeline, show_wire
from lessons.exercises import check
from lessons.pictures import draw_loop
from lessons.predict import ending, reveal
from lessons.reference import reference
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, looping_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry

registry = weather_registry()
show_menu(registry)

# %% [markdown]
# Name: the function's. Description: the docstring before `Args:`, on one line. Each argument: a property with
# its JSON type and `Args:` line; those without a default are `required`.
#
# ### Exercise 01.1: a tool's JSON schema from a plain function
#
# Write `schema_of(fn)`: one entry of `registry.tools` for any plain function with `str`, `int`, `float` or
# `bool` arguments; the check uses functions you have not seen, whose docstrings may go on after `Args:` (the
# block ends at a blank line or the next section, such as `Returns:`). Use `inspect.signature`,
# `inspect.get_annotations(fn, eval_str=True)` and `inspect.getdoc`. JSON types: `str` `"string"`, `int`
# `"integer"`, `float` `"number"`, `bool` `"boolean"`. An argument with no `Args:` line gets no `"description"`;
# `"additionalProperties"` is optional. Handing the function to the package is refused.

# %%
def schema_of(fn):
    """The tool spec a provider receives for the plain function ``fn``."""
    raise NotImplementedError  # your code here


# %%
check("01.1", schema_of)

# %% [markdown]
# ## First instinct: a fixed list of steps
#
# `CallModel` calls the model, `RunTools` runs the slips, `Sequence` runs steps in order. "Ask, run the
# errands, ask again":

# %%
llm = four_round_manager()
worksheet = Sequence([CallModel(llm, registry, SYSTEM_PROMPT), RunTools(registry), CallModel(llm, registry)]).run({"question": QUESTION})
print(f"{llm.name}: {len(llm.calls)} model calls; the last still passed:", worksheet["messages"][-1].tool_calls)
assert "answer" not in worksheet  # the list ran out before the model answered (no tool_calls)


# %% [markdown]
# A list only goes forward, and nobody knows in advance how many rounds the manager wants. A loop; its comments
# name the four parts of a round:

# %%
def plain_loop(llm, registry, question):
    """Call the manager until they answer instead of passing slips. No ceiling."""
    messages = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    while True:  # the "go on?" of EVALUATE (below): `while True` always says yes, so there is no ceiling
        # OBSERVE: the messages so far: instructions, question, every reply and ToolMessage
        # REASON: the model reads them all, judges the results so far, then answers or returns tool_calls
        response = llm.generate(messages, registry.tools)
        messages.append(response.message)
        if not response.message.tool_calls:  # no tool_calls means "that's my answer": the way out
            return response.message.content, messages
        # ACT: our code (not the model) runs each ToolCall; each ToolMessage carries its ToolCall.id
        tool_messages = [registry.run(call) for call in response.message.tool_calls]
        # EVALUATE, here, only decides whether to go on: keep the results and go back to the `while` line.
        # Judging them is the model's job, in its next REASON step.
        messages.extend(tool_messages)


draw_loop()

# %% [markdown]
# | part | failure to watch for |
# |---|---|
# | **observe** (`messages`) | a vague or unit-less result misleads the next round |
# | **reason** (`llm.generate`) | the model makes up a result instead of asking for it |
# | **act** (`registry.run`: our code) | side effects you can't undo |
# | **evaluate** (`messages.extend`, the `while` line: "go on?") | stopping too early, or never stopping |
#
# ### Predict first
#
# 00's manager converted one temperature per round. The three-round manager asks for both lookups, then
# **both conversions in one reply**. **How many model calls, and how many errands (tool calls)?**

# %%
my_guess = ...  # for the three-round manager: {"model calls": <a number>, "errands": <a number>}

# %%
llm = three_round_manager()
answer, messages = plain_loop(llm, registry, QUESTION)
actual = {"model calls": len(llm.calls), "errands": sum(len(m.tool_calls) for m in messages if m.role == "assistant")}
reveal(my_guess, actual, "the three-round manager", gated=True, hint=rounds_hint(my_guess))
assert answer == plain_loop(four_round_manager(), registry, QUESTION)[0]  # 00's four_round_manager: same answer

# %% [markdown]
# Same answer as 00's manager (the cell checks): **the model decides how many rounds there are**.
#
# ### The two runs as a timeline
#
# Every call re-reads **the whole folder**. We count one token per word of it (scripts report none; the menu
# not counted). It shows once your guess is right.

# %%
read = show_timeline(registry, shown=my_guess == actual)
assert sum(read[four_round_manager().name]) > sum(read[three_round_manager().name])  # the extra round re-reads

# %% [markdown]
# Purple: model calls; green: tool calls. Each extra round re-reads a grown folder.
#
# ## The wire: what goes to Ollama and to OpenAI
#
# `llm.generate` hides an HTTP request. Each adapter's official client talks to a **fake server** that keeps
# the request and answers with a reply we wrote in the provider's format: round 1 both lookups, round 2 on.

# %%
to_ollama_body, to_openai_body = show_wire(registry)
assert to_ollama_body["tools"] == registry.tools and all(to_openai_body[k] == to_ollama_body[k] for k in ("tools", "messages"))

# %% [markdown]
# Same messages and menu to both (checked). In the `ollama` client this course pins (below 0.7) a tool call has
# **no ticket**, so the adapter makes one; OpenAI sends its own, and the arguments as JSON *text*. In round 2 an
# answer slip carries, to Ollama, only its **tool's name** (`tool_name`), so two answers of one tool differ
# only by order; to OpenAI, its **ticket** (`tool_call_id`). The empty assistant text: Ollama's adapter **left
# `content` out**, as Ollama's official client would too (it drops every empty field: a test checks);
# OpenAI's sent `"content": null`. One folder, two spellings: an adapter's whole job.
#
# ### Exercise 01.2: the folder in Ollama's spelling
#
# Write `to_ollama(messages)`: the dicts the Ollama adapter puts in `"messages"`. System and user: role and
# content. Assistant: role, `"content"` only when not empty, `"tool_calls"` only when it has some (each
# `{"function": {"name": ..., "arguments": {...}}}`). A `ToolMessage`: `{"role": "tool", "content": ...,
# "tool_name": ...}`; when its `name` is `None`, find it by `tool_call_id` among the earlier `ToolCall`s. The
# check uses another folder and refuses calls to the adapter's `to_ollama_messages`.

# %%
def to_ollama(messages):
    raise NotImplementedError  # your code here


# %%
check("01.2", to_ollama)

# %% [markdown]
# ## Writing a manager yourself
#
# A scripted manager is a list of replies, one per model call: a list of `(tool name, arguments)` pairs
# passes those slips; a string is the answer:

# %%
paris_only = ScriptedLLM([[("get_weather", {"city": "Paris"})], "Paris: 18°C"], name="scripted: Paris only")
print("answer:", plain_loop(paris_only, registry, "How warm is it in Paris?")[0], "| model calls:", len(paris_only.calls))

# %% [markdown]
# The script's author wrote "18°C" before `get_weather` ran: a teaching tool, never a stand-in for a model.
#
# ### Exercise 01.3: a manager of a given shape
#
# Write `one_city_at_a_time()`, returning a new `ScriptedLLM` on every call (a script that ran is used up):
# Paris's weather, then in the **next** reply Tokyo's, then **both conversions in one reply** (of the
# temperatures `get_weather` gave), then an answer naming each city with its Fahrenheit as `to_fahrenheit` returned it.

# %%
def one_city_at_a_time():
    raise NotImplementedError  # your code here: return ScriptedLLM([...], name="scripted: one city at a time")


# %%
check("01.3", one_city_at_a_time)

# %% [markdown]
# ## The manager who never stops
#
# A real model can ask for the same errand again and again, and **every model call costs**.
# `looping_manager()` asks for the same two lookups in every reply; `plain_loop` would call it until its script
# ran out. The fix is a ceiling: `max_steps` counts
# **model calls**, and running out raises `StepLimitReached`, so no caller mistakes "I gave up" for a reply:

# %%
def capped_loop(llm, registry, question, *, max_steps=10):
    messages = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    for step in range(1, max_steps + 1):  # EVALUATE's "go on?" now ends: at most max_steps model calls
        response = llm.generate(messages, registry.tools)
        messages.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        messages.extend(registry.run(call) for call in response.message.tool_calls)  # one ToolMessage per ToolCall
    raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)


for llm in (three_round_manager(), looping_manager()):  # ending(): "answer", or the name of the exception raised
    print(f"{llm.name:<22} {ending(capped_loop, llm, registry, QUESTION, max_steps=5)}, model calls: {len(llm.calls)}")
draw_loop(ceiling=True)  # the round again, now with the ceiling's way out

# %% [markdown]
# A ceiling, not a count: the three-round manager still took 3 calls. `Agent` has the same (`max_steps`).

# %% [markdown]
# ### Exercise 01.4: a ceiling on errands
#
# An errand can cost money too, or be impossible to undo (a mail sent). Write
# `errand_budget_loop(llm, registry, system_prompt, question, *, max_tool_calls=6)`: a ceiling on **errands**,
# not model calls. It runs `ToolCall`s one at a time; the one that would be errand `max_tool_calls + 1` is
# **not run**: the loop raises `StepLimitReached(..., steps=<model calls made>)`. An answer is returned, even
# with the budget all spent. Handing the run to `Agent` (its ceiling counts model calls) is refused.

# %%
def errand_budget_loop(llm, registry, system_prompt, question, *, max_tool_calls=6):
    raise NotImplementedError  # your code here


# %%
check("01.4", errand_budget_loop)

# %% [markdown]
# **Predict first** (the notebook's own version runs, unprinted): the three-round manager runs four errands,
# two per reply. With a budget of 4, and of 3, does it answer or raise?

# %%
my_budget_guess = ...  # {4: "answer" or "StepLimitReached", 3: the same choice}

# %%
budgeted = reference("01.4")
outcomes = {b: ending(budgeted, three_round_manager(), registry, SYSTEM_PROMPT, QUESTION, max_tool_calls=b) for b in (4, 3)}
reveal(my_budget_guess, outcomes, "what each budget did", gated=True, hint=budget_hint(my_budget_guess))

# %% [markdown]
# ## Questions
#
# Answers: `notebooks/solutions/01_sticky_note_loop.py`; the cells below check 1, 2 and 5 against runs.
#
# 1. How many steps would the fixed list `Sequence([CallModel, RunTools, CallModel, ...])` need for the
#    four-round manager to answer?
# 2. `Agent(four_round_manager(), ..., max_steps=3)`: how many model calls are made, and does the caller get
#    an answer?
# 3. What could go wrong if our loop sent Ollama two answer slips of one tool in the wrong order, and why
#    not OpenAI?
# 4. Take `messages.extend(tool_messages)` out of `plain_loop`: what could a real model do next, and which
#    failures of the table would you see?
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
