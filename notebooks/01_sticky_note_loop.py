# %% [markdown]
# # 01 · The sticky-note loop
#
# An agent is a model calling tools in a loop. This notebook writes that loop by hand, the way most
# people write it first, and finds out what it has to remember.
#
# **What you will be able to do at the end**
#
# - write the plain `while True` agent loop in ten lines, and name its four parts:
#   observe, reason, act, evaluate;
# - explain why *the model* decides how many rounds a question takes, and why your code only decides the
#   ceiling (`max_steps`);
# - recognise the "sticky note" version of the loop (`situation == ...`) and what it costs;
# - list what a run has to remember (events, step count, run id, scratch pad, done);
# - spot the shared mutable default trap, and say why the package's `Agent` does not fall into it.
#
# Everything here runs offline: the "model" is a **scripted manager** whose replies were written in
# advance, and every scripted run says so.

# %% [markdown]
# ## The picture: a manager on the phone
#
# The model is a manager on a phone call. They can't reach any files or services. Before the call you
# hand them a **menu of errands** you can run. During the call they either answer, or pass you a **slip**:
# "run `get_weather`, city = Paris". Every slip carries a **ticket number** (providers call it the tool
# call id). You run the errand and hand back an **answer slip** with the same ticket number.
#
# The manager forgets everything between calls, so each time you read them **the whole folder** from the
# top: the standing instructions, the question, every slip and every answer slip so far.
#
# Here is the menu for the whole course: two errands on fixed teaching data (not live weather).

# %%
from mingraph_lite import (Agent, CallModel, KeepAll, RunTools, ScriptedLLM, ScriptExhausted, Sequence,
                           StepLimitReached, SystemMessage, UserMessage)
from mingraph_lite.course.scripts import (QUESTION, SYSTEM_PROMPT, looping_manager, three_round_manager,
                                          four_round_manager)
from mingraph_lite.course.weather import weather_registry

registry = weather_registry()
for spec in registry.tools:
    fn = spec["function"]
    print(f"{fn['name']:<14} {fn['description']}")
print()
print("question:", QUESTION)


# %%
def describe(message):
    """One line per message in the folder, the way a person would read it."""
    if getattr(message, "tool_calls", ()):
        slips = ", ".join(f"[{c.id}] {c.name}({c.arguments})" for c in message.tool_calls)
        return f"{message.role:<9} slips: {slips}"
    if message.role == "tool":
        return f"{message.role:<9} answer to [{message.tool_call_id}]: {message.content}"
    text = " ".join(message.content.split())
    return f"{message.role:<9} {text[:70] + '...' if len(text) > 70 else text}"


# %% [markdown]
# ## First instinct: a fixed list of steps
#
# The package already has a step that calls the model (`CallModel`) and a step that runs the slips
# (`RunTools`), and a `Sequence` that runs steps in order. The round trip "ask, run the errand, ask again"
# is three steps in a list. Let's try it with a scripted manager.

# %%
llm = four_round_manager()
fixed_plan = Sequence([CallModel(llm, registry, SYSTEM_PROMPT), RunTools(registry), CallModel(llm, registry)])
worksheet = fixed_plan.run({"question": QUESTION})

print("manager:", llm.name)
print("model calls:", len(llm.calls))
print("got an answer?", "answer" in worksheet)
for message in worksheet["messages"]:
    print(" ", describe(message))


# %% [markdown]
# The list ran out, and the manager was still passing slips: after two rounds they want a conversion.
# A list only goes forward. It can't draw the arrow from "run the errands" back to "call the model",
# and we can't know in advance how many times that arrow is taken. We need a loop.
#
# ## The plain `while True` loop
#
# This is the loop most people write first. Read it before running it: the comments name the four parts
# of one round.

# %%
def plain_loop(llm, registry, question, *, show=True):
    """Call the manager until they answer instead of passing slips. No ceiling."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    while True:
        # OBSERVE: the folder holds the question and every answer slip so far
        # REASON: the manager reads it all, then answers or passes slips
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        # EVALUATE: no slips means "that's my answer", and the loop ends
        if not response.message.tool_calls:
            return response.message.content, folder
        # ACT: our code (not the model) runs each errand, and answers with the same ticket number
        for slip in response.message.tool_calls:
            answer_slip = registry.run(slip)
            if show:
                print(f"  [{slip.id}] {slip.name}({slip.arguments}) -> {answer_slip.content}")
            folder.append(answer_slip)


# %% [markdown]
# ### Predict first
#
# Two scripted managers stand in for two real models. Both get the same question and the same two tools.
# The source article reports that gpt-5-mini and qwen3.5:2b took a different number of rounds on exactly
# this question; these scripts replay the *shape* of those two runs.
#
# **How many model calls will each manager take?** Write your guess here: four-round manager: ...,
# three-round manager: ... (the names give it away; the real question is *where the difference comes from*).

# %%
rows = []
for make_manager in (four_round_manager, three_round_manager):
    llm = make_manager()
    print(llm.name)
    answer, folder = plain_loop(llm, registry, QUESTION)
    slips = sum(len(m.tool_calls) for m in folder if getattr(m, "tool_calls", ()))
    rows.append((llm.name, len(llm.calls), slips, len(folder), answer))
    print()

print(f"{'manager':<24} {'model calls':>11} {'errands':>8} {'folder':>7}  answer")
for name, calls, slips, size, answer in rows:
    print(f"{name:<24} {calls:>11} {slips:>8} {size:>7}  {answer}")

# %% [markdown]
# Same tools, same question, same errands (four), same answer; one manager asked for both conversions in
# one reply, the other one at a time. **The model decides how many rounds there are.** It reads each
# answer slip and only then decides whether it needs another errand. The loop's code never says "four".
#
# ### Observe, reason, act, evaluate
#
# Each pass of the loop is one round of four parts:
#
# | part | in `plain_loop` | failure to watch for |
# |---|---|---|
# | **observe** | the folder: the question at first, then every answer slip | a vague or unit-less result misleads the next round |
# | **reason** | `llm.generate(folder, tools)`: slips, or an answer | the model makes up a result instead of asking for it |
# | **act** | `registry.run(slip)`: *our code* runs the errand | side effects you can't undo |
# | **evaluate** | "no slips?" ends it; otherwise the answer slips go into the folder | stopping too early, or never stopping |
#
# That last cell of the table is where our loop is weak.

# %% [markdown]
# ### Exercise 1: count the rounds
#
# A third manager (built in the check cell) asks for Paris's weather, then in the next round for Tokyo's,
# then for both conversions in one reply, then answers. **How many model calls does that take?**
# Replace `None` with your number and run the check.

# %%
answer_1 = None  # your guess: how many model calls?

# %%
from mingraph_lite.course.scripts import number, results

def _convert_both(messages, tools):
    return [("to_fahrenheit", {"celsius": number(r)}) for r in results(messages, "get_weather")]

def _final(messages, tools):
    paris, tokyo = (number(r) for r in results(messages, "to_fahrenheit"))
    return f"Paris: {paris}°F, Tokyo: {tokyo}°F"

one_city_at_a_time = ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                                  _convert_both, _final], name="scripted: one city at a time")
plain_loop(one_city_at_a_time, registry, QUESTION, show=False)
actual = len(one_city_at_a_time.calls)
if answer_1 is None:
    print("not answered yet: set answer_1 to a number, then run this cell again")
elif answer_1 == actual:
    print(f"correct: {actual} model calls")
else:
    print("not quite, hint: count the replies: each reply is one model call, and the last one is the answer")

# %% [markdown]
# ## The manager who never stops
#
# The plain loop stops only when the manager decides to. What if they never do? A real model can get
# stuck asking for the same errand again and again, and **every model call is a paid call**.
# `looping_manager(rounds=30)` is a script that asks for the same two lookups 30 times. A real model
# would not run out of replies; the script does, which is the only reason this cell ends.

# %%
llm = looping_manager(rounds=30)
try:
    plain_loop(llm, registry, QUESTION, show=False)
except ScriptExhausted as e:
    print(f"{type(e).__name__}: {e}")
print(f"model calls made: {len(llm.calls)}  (with a real model: no end, and a bill for each one)")


# %% [markdown]
# The fix is a ceiling. The model still decides the number of rounds; our code only decides the most we
# are willing to pay for. `max_steps` counts **model calls**, and running out is not an answer: the loop
# raises `StepLimitReached`, so no caller can mistake "I gave up" for a reply.

# %%
def capped_loop(llm, registry, question, *, max_steps=10):
    """The same loop with a ceiling on model calls."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    for step in range(1, max_steps + 1):
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for slip in response.message.tool_calls:
            folder.append(registry.run(slip))
    raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)


for make_manager in (three_round_manager, looping_manager):
    llm = make_manager()
    try:
        print(f"{llm.name:<24} answer: {capped_loop(llm, registry, QUESTION, max_steps=5)}")
    except StepLimitReached as e:
        print(f"{llm.name:<24} {type(e).__name__}: {e}")
    print(f"{'':<24} model calls: {len(llm.calls)}")

# %% [markdown]
# The ceiling of 5 did not make the three-round manager take 5 rounds: it is a ceiling, not a count.
# The package's `Agent` has the same ceiling (`max_steps`, default 10):

# %%
llm = looping_manager()
agent = Agent(llm, registry, SYSTEM_PROMPT, max_steps=5)
try:
    agent.run({"question": QUESTION})
except StepLimitReached as e:
    print(f"{type(e).__name__}: {e}")
    print(f"steps on the exception: {e.steps}, model calls made: {len(llm.calls)}")

# %% [markdown]
# ### Exercise 2: what does `max_steps` count?
#
# Pick one: `"a"` model calls, `"b"` errands run (tool calls), `"c"` messages in the folder.
# The check runs the looping manager with `max_steps=3` and counts all three.

# %%
answer_2 = None  # "a", "b" or "c"

# %%
llm = looping_manager()
agent = Agent(llm, registry, SYSTEM_PROMPT, max_steps=3)
try:
    agent.run({"question": QUESTION})
except StepLimitReached:
    pass
counts = {"a": len(llm.calls),
          "b": sum(len(m.tool_calls) for m in agent.memory.messages() if getattr(m, "tool_calls", ())),
          "c": len(agent.memory.messages())}
print(f"with max_steps=3: model calls={counts['a']}, errands={counts['b']}, folder messages={counts['c']}")
matching = [key for key, value in counts.items() if value == agent.max_steps]
if answer_2 is None:
    print("not answered yet: set answer_2 to 'a', 'b' or 'c'")
elif answer_2 in matching:
    print("correct: max_steps counts model calls, the thing you pay for")
else:
    print("not quite, hint: which of the three counts equals 3?")


# %% [markdown]
# ## The sticky-note version
#
# At any moment on the call you are in exactly one **situation**: waiting on the manager, running errands,
# or hung up. What you may do depends on which. The usual way to track it is a sticky note on the desk
# saying where you are, and one rulebook where every rule starts with "what does the note say?".

# %%
def sticky_note_loop(llm, registry, question, *, max_steps=10):
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    situation, step, answer = "waiting", 0, None            # the sticky note, and what it drags along
    while situation != "hung up":
        if situation == "waiting":
            if step == max_steps:
                situation = "hung up"
                continue
            step += 1
            response = llm.generate(folder, registry.tools)
            folder.append(response.message)
            if response.message.tool_calls:
                situation = "errands"
            else:
                answer, situation = response.message.content, "hung up"
        elif situation == "errands":
            for slip in folder[-1].tool_calls:
                folder.append(registry.run(slip))
            situation = "waiting"
        print(f"  note says: {situation:<8} | step {step} | folder has {len(folder)} messages")
    if answer is None:
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=step)
    return answer


llm = three_round_manager()
print(llm.name)
print("answer:", sticky_note_loop(llm, registry, QUESTION))

# %% [markdown]
# It works, and it prints nicely. But look at its shape:
#
# - every rule for every situation lives in one block, and each one begins by checking the note;
# - the note, the step counter and the answer are loose variables that every branch must keep in sync
#   (`step` is bumped in one branch and read in another);
# - adding a situation, say "ask a human before running an errand", means editing that block and every
#   check in it.
#
# Notebook 02 tears this rulebook into cards, one per situation. Before that: what does a run have to
# keep, besides the note?

# %% [markdown]
# ## What a run has to remember
#
# Watch the sticky-note loop and list what must survive from one round to the next:
#
# | what | why | in `sticky_note_loop` |
# |---|---|---|
# | **events**: everything that happened | the model is read it every round; you debug from it | `folder` (messages only) |
# | **step count** | the ceiling needs a counter | `step` |
# | **run id** | which run produced this line in a log? | nowhere yet (notebook 03: `TraceRecorder`) |
# | **scratch pad** | values that are neither a message nor a tool result | nowhere yet (notebook 05: the worksheet) |
# | **done** | the answer, and the flag that stops the loop | `answer`, `situation == "hung up"` |
#
# Passing five loose variables into every function gets noisy fast. One object that holds them all is
# easier; a dataclass does it in a few lines. Note `field(default_factory=...)`: it matters in a minute.

# %%
from dataclasses import dataclass, field
from uuid import uuid4


@dataclass
class RunContext:
    """Everything one run needs to remember."""
    run_id: str = field(default_factory=lambda: uuid4().hex)
    events: list = field(default_factory=list)
    step: int = 0
    scratch: dict = field(default_factory=dict)
    answer: str | None = None

    @property
    def done(self) -> bool:
        return self.answer is not None


first, second = RunContext(), RunContext()
first.events.append("user asked about Paris")
print("same run id?", first.run_id == second.run_id)
print("second run's events:", second.events)
print("done?", first.done)

# %% [markdown]
# Each `RunContext()` gets its own list, because `default_factory` is called once per object. Try writing
# `events: list = []` instead and `dataclasses` refuses. It knows that a default is built **once**, when
# Python reads the class, and that a list built once would be shared by every object. That is the next trap.

# %%
try:
    @dataclass
    class BadContext:
        events: list = []
except ValueError as e:
    print(f"{type(e).__name__}: {e}")


# %% [markdown]
# ## The shared mutable default trap
#
# An agent needs a folder (a memory). If the caller passes none, the obvious default is a fresh `KeepAll`.
# The obvious way to write that is below. **Predict first:** two agents built without a memory, how many
# folders are there? Write your guess here: ...

# %%
class NaiveAgent:
    """The capped loop as a class, with the obvious default. (Don't copy this.)"""

    def __init__(self, llm, registry, system_prompt, memory=KeepAll(SYSTEM_PROMPT)):
        self.llm, self.registry, self.system_prompt, self.memory = llm, registry, system_prompt, memory

    def run(self, question, *, max_steps=10):
        self.memory.add(UserMessage(question))
        for step in range(1, max_steps + 1):
            response = self.llm.generate(self.memory.messages(), self.registry.tools)
            self.memory.add(response.message)
            if not response.message.tool_calls:
                return response.message.content
            for slip in response.message.tool_calls:
                self.memory.add(self.registry.run(slip))
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)


weather_agent = NaiveAgent(three_round_manager(), registry, SYSTEM_PROMPT)
print("weather agent:", weather_agent.run(QUESTION))

greeter_llm = ScriptedLLM(["Hello! Ask me anything."], name="scripted: greeter")
greeter = NaiveAgent(greeter_llm, registry, "You greet people warmly.")
print("same folder object?", greeter.memory is weather_agent.memory)
print("greeter's folder before its first run:", len(greeter.memory), "messages")

greeter.run("Hi!")
read_out = greeter_llm.calls[0][0]
print(f"\nwhat the greeter's manager was read on its FIRST call ({len(read_out)} messages):")
for message in read_out:
    print(" ", describe(message))

# %% [markdown]
# `KeepAll(SYSTEM_PROMPT)` in the `def` line ran **once**, when Python read the class, not once per agent.
# Every agent built without a memory gets that same object. So the greeter's manager was read the weather
# agent's whole conversation, and under the weather instructions, because the greeter's own system prompt
# did not exist yet when the folder was built.
#
# The fix: default to `None`, and build the folder inside the constructor, where this agent's system prompt
# exists. That is what the package's `Agent` does:

# %%
import inspect

print("Agent's memory default:", inspect.signature(Agent).parameters["memory"].default)

weather_agent = Agent(three_round_manager(), registry, SYSTEM_PROMPT)
print("weather agent:", weather_agent.run({"question": QUESTION})["answer"])

greeter_llm = ScriptedLLM(["Hello! Ask me anything."], name="scripted: greeter")
greeter = Agent(greeter_llm, registry, "You greet people warmly.")
print("same folder object?", greeter.memory is weather_agent.memory)

greeter.run({"question": "Hi!"})
read_out = greeter_llm.calls[0][0]
print(f"\nwhat the greeter's manager was read on its first call ({len(read_out)} messages):")
for message in read_out:
    print(" ", describe(message))

# %% [markdown]
# ### Exercise 3: fix the trap yourself
#
# Write `FixedAgent`, a subclass of `NaiveAgent` whose `__init__` defaults `memory` to `None` and builds a
# fresh `KeepAll(system_prompt)` when none is given. Leave `FixedAgent = None` to skip.
#
# ```python
# class FixedAgent(NaiveAgent):
#     def __init__(self, llm, registry, system_prompt, memory=None):
#         ...
# ```

# %%
FixedAgent = None  # replace with your class

# %%
if FixedAgent is None:
    print("not answered yet: write the FixedAgent class above, then run this cell again")
else:
    one = FixedAgent(ScriptedLLM(["one"]), registry, "You are agent one.")
    two = FixedAgent(ScriptedLLM(["two"]), registry, "You are agent two.")
    one.run("Hello?")
    own_prompt = two.memory.messages()[0].content == "You are agent two."
    if one.memory is two.memory or len(two.memory) != 0:
        print("not quite, hint: the two agents still share a folder; build it inside __init__")
    elif not own_prompt:
        print("not quite, hint: build the folder from this agent's system_prompt")
    else:
        print("correct: each agent has its own folder, with its own system prompt")

# %% [markdown]
# ## Your model, same loop
#
# Everything above used scripted managers, so the counts are the same on every machine. Set
# `MINGRAPH_LLM` (see notebook 00) and this cell asks the same question of the model you picked.
# **Predict first:** how many model calls will *your* model need? A small local model may never stop
# asking; that is the ceiling's job.

# %%
# NBVAL_IGNORE_OUTPUT
# (the output depends on the active model: MINGRAPH_LLM, scripted by default)
from mingraph_lite import EventRecorder, StepLimitReached, make_llm

llm = make_llm()
recorder = EventRecorder()
mine = Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[recorder], max_steps=6)
try:
    outcome = mine.run({"question": QUESTION})["answer"]
except StepLimitReached as e:
    outcome = f"no answer: {e}"
print(f"model: {llm.name}")
print(f"model calls: {len(recorder.of('step_start'))}, errands: {len(recorder.of('tool_call'))}")
print(f"outcome: {outcome}")

# %% [markdown]
# ## What is still open
#
# - **The rulebook.** The sticky-note loop checks "where am I?" on every turn, and a new situation means
#   editing every branch. Notebook 02 gives each situation its own card.
# - **A tool that fails.** In every loop here, an errand that raises stops the run with a slip left
#   unanswered in the folder. Providers reject such a folder, so the *next* run would break too. Notebook 02
#   separates "the model filled in the slip wrong" (it can fix that) from "the service is down" (it can't).
# - **Watching.** The only view of a run is what we chose to `print` inside the loop. Notebook 03 lets
#   listeners watch without the loop knowing who they are.
# - **The run id and the scratch pad** have no home yet (notebooks 03 and 05).
# - **The folder carries over between runs** of one agent. For a chat assistant that is the point; for an
#   agent handed two unrelated tasks, the second task's folder still holds the first (notebook 06).
