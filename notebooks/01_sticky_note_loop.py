# %% [markdown]
# # 01 · The sticky-note loop
#
# An agent is a model calling tools in a loop. In this notebook you write that loop by hand, the way most
# people write it first, look at exactly what travels to the model and back, and find out what the loop
# has to remember.
#
# **What you will be able to do at the end**
#
# - turn a plain Python function into the JSON schema a model reads (you write `schema_of` yourself);
# - read the request bodies that go to Ollama and to OpenAI for one round, and a raw reply, and spell a
#   folder the way Ollama wants it (you write `to_ollama`);
# - write the agent loop with a ceiling, and name its four parts: observe, reason, act, evaluate;
# - explain why *the model* decides how many rounds a question takes, and why your code only decides the
#   ceiling (`max_steps`);
# - recognise the "sticky note" version of the loop (`situation == ...`) and what it costs;
# - spot the shared mutable default trap, and fix it;
# - read recorded runs of two real (tiny) models and say what went wrong.
#
# **Prerequisites:** notebook 00 (how to run the course); Python functions, dicts, classes and
# `try`/`except`. **Time:** about 75 minutes, exercises included.
#
# Everything runs offline. The "model" is a **scripted manager** whose replies were written in advance
# (every scripted run says so), except in the last part, which replays recorded runs of real models.
#
# **Sources.** The story, the phone-call picture and the two reported runs come from the article
# *The State and Observer Patterns in a Python Agent Loop* (its author is not named in it); the four
# parts of a round from the article *The Observe-Reason-Act-Evaluate Cycle*, and the list of what a run
# has to remember from the article *Why an agent needs more than a message list* (no author is named in
# either).

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
import inspect
import json

from mingraph_lite import (Agent, CallModel, EventRecorder, KeepAll, RunTools, ScriptedLLM, ScriptExhausted,
                           Sequence, StepLimitReached, SystemMessage, UserMessage)
from lessons.exercises import check
from lessons.pictures import draw_loop, draw_rounds, round_rows
from mingraph_lite.course.scripts import (QUESTION, SYSTEM_PROMPT, four_round_manager, looping_manager,
                                          three_round_manager)
from mingraph_lite.course.weather import to_fahrenheit, weather_registry

registry = weather_registry()
print("the menu:", registry.names)
print("the question:", QUESTION)


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
# ## What the manager actually reads: the menu as JSON
#
# A model never sees your Python function. It sees a **JSON schema** of it: a name, a description, and
# the arguments with their JSON types. This is the exact list the package hands to every provider, for
# our two tools:

# %%
print(json.dumps(registry.tools, indent=2, ensure_ascii=False))

# %% [markdown]
# Every piece of it came from the plain function, which you can read yourself:

# %%
print("signature: ", inspect.signature(to_fahrenheit))
print("type hints:", inspect.get_annotations(to_fahrenheit, eval_str=True))
print("docstring:")
print(inspect.getdoc(to_fahrenheit))

# %% [markdown]
# The name is the function's name; the description is the docstring's text before `Args:`, on one line;
# each argument becomes a property with its JSON type and its line from the `Args:` block; arguments
# without a default are `required`. The model's only idea of what a tool does is this text, which is why
# a tool needs a docstring. The package refuses a function without one:

# %%
def mystery(city: str) -> str:
    return city


try:
    weather_registry().add(mystery)
except ValueError as e:
    print(f"{type(e).__name__}: {e}")

# %% [markdown]
#
# ### Exercise 01.1: a tool's JSON schema from a plain function
#
# Write `schema_of(fn)` that returns the spec for any plain function with `str`, `int`, `float` or `bool`
# arguments, shaped like one entry of `registry.tools` above. The check tries it on functions this
# notebook never shows (with defaults, several types, and a docstring with no `Args:` block) and compares
# with what the package builds. You need `inspect.signature`, `inspect.get_annotations(fn, eval_str=True)`
# and `inspect.getdoc`. Python's types have JSON Schema names: find them in the output above (and
# `bool` is `"boolean"`). `"additionalProperties": false` is optional here.

# %%
def schema_of(fn):
    """The tool spec a provider receives for the plain function ``fn``."""
    raise NotImplementedError  # your code here


# %%
check("01.1", schema_of)

# %% [markdown]
# ## First instinct: a fixed list of steps
#
# The package has a step that calls the model (`CallModel`), a step that runs the slips (`RunTools`), and
# a `Sequence` that runs steps in order. The round trip "ask, run the errands, ask again" is three steps in
# a list. Let's try it with a scripted manager.

# %%
llm = four_round_manager()
fixed_plan = Sequence([CallModel(llm, registry, SYSTEM_PROMPT), RunTools(registry), CallModel(llm, registry)])
worksheet = fixed_plan.run({"question": QUESTION})

print("manager:", llm.name)
print("model calls:", len(llm.calls))
print("got an answer?", "answer" in worksheet)
for message in worksheet["messages"]:
    print(" ", describe(message))
assert "answer" not in worksheet  # the list ran out before the manager answered


# %% [markdown]
# The list ran out, and the manager was still passing slips: after two rounds they want a conversion.
# A list only goes forward. It can't draw the arrow from "run the errands" back to "call the model",
# and we can't know in advance how many times that arrow is taken. We need a loop.
#
# ## The plain `while True` loop
#
# This is the loop most people write first. Read it before running it: the comments name the four parts
# of one round, and the picture below draws them.

# %%
def plain_loop(llm, registry, question, *, show=True):
    """Call the manager until they answer instead of passing slips. No ceiling."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    while True:
        # OBSERVE: the folder holds the question and every answer slip so far
        # REASON: the manager reads it all, then answers or passes slips
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:  # no slips means "that's my answer"
            return response.message.content, folder
        # ACT: our code (not the model) runs each errand, and answers with the same ticket number
        for slip in response.message.tool_calls:
            answer_slip = registry.run(slip)
            if show:
                print(f"  [{slip.id}] {slip.name}({slip.arguments}) -> {answer_slip.content}")
            # EVALUATE: the answer slip goes into the folder, and the next round reads it
            folder.append(answer_slip)


draw_loop()

# %% [markdown]
# | part | in `plain_loop` | failure to watch for |
# |---|---|---|
# | **observe** | the folder: the question at first, then every answer slip | a vague or unit-less result misleads the next round |
# | **reason** | `llm.generate(folder, tools)`: slips, or an answer | the model makes up a result instead of asking for it |
# | **act** | `registry.run(slip)`: *our code* runs the errand | side effects you can't undo |
# | **evaluate** | answer slips into the folder; "should we go on?" | stopping too early, or never stopping |
#
# The ceiling box in the picture is not in `plain_loop` yet. Keep that in mind.
#
# ### Predict first
#
# Two scripted managers stand in for two real models. Both get the same question and the same two tools.
# One asks for both lookups, then one conversion per round; the other asks for both lookups, then both
# conversions in one reply. **How many model calls, and how many errands (tool calls), will each take?**
# Write your guess in the next cell before you run the one after it.

# %%
my_guess = {"four-round manager": {"model calls": ..., "errands": ...},
            "three-round manager": {"model calls": ..., "errands": ...}}

# %%
recorders = {}
for label, make_manager in (("four-round manager", four_round_manager),
                            ("three-round manager", three_round_manager)):
    llm = make_manager()
    print(llm.name)
    answer, folder = plain_loop(llm, registry, QUESTION)
    errands = sum(len(m.tool_calls) for m in folder if getattr(m, "tool_calls", ()))
    actual = {"model calls": len(llm.calls), "errands": errands}
    verdict = ("no guess written" if ... in my_guess[label].values()
               else "your guess was right" if my_guess[label] == actual else f"you guessed {my_guess[label]}")
    print(f"  -> {actual}, answer: {answer!r} ({verdict})\n")

# %% [markdown]
# Same tools, same question, same four errands, same answer; one manager asked for both conversions in one
# reply, the other one at a time. **The model decides how many rounds there are.** It reads each answer
# slip and only then decides whether it needs another errand. The loop's code never says "four".
#
# These two scripts are shaped after two real runs reported in *The State and Observer Patterns in a
# Python Agent Loop*: on exactly this question and these two tools, **gpt-5-mini took four rounds** (both
# lookups, then one conversion per round, then the answer) and **qwen3.5:2b took three**, because it
# asked for both conversions in one reply. We did not re-run those models; the scripts only replay the
# shape the article reports.
#
# ### The two runs as a timeline
#
# What does a round cost? Every model call reads **the whole folder** again. The scripted managers report
# no token counts (a script reads nothing), so here we count with a stated rule: one token per word of
# the folder (the menu is not counted). Real tokenizers count differently; the *shape* is the point.

# %%
from mingraph_lite import word_count

runs = {}
for make_manager in (four_round_manager, three_round_manager):
    llm = make_manager()
    llm.count_tokens = word_count  # the stated rule: one token per word read or written
    recorder = EventRecorder()
    Agent(llm, registry, SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    runs[llm.name] = recorder
    rows = round_rows(recorder)
    print(f"{llm.name:<22} words read per call: {[r['input_tokens'] for r in rows]}, "
          f"total {sum(r['input_tokens'] for r in rows)}")
totals = [sum(r["input_tokens"] for r in round_rows(run)) for run in runs.values()]
assert totals[0] > totals[1]  # the extra round re-reads the whole folder

draw_rounds(runs, unit="tokens (counted as words)")

# %% [markdown]
# Purple blocks are model calls, green ones tool calls, in the order they happened. The four-round run
# makes the same four tool calls but one more model call, and that call re-reads the whole folder: the
# folder grows every round, so each extra round costs more than the one before.
#
# ## The wire: what goes to Ollama and to OpenAI for one round
#
# `llm.generate(folder, tools)` hides an HTTP request. The two adapters spell the same folder differently.
# To see the exact bytes without a server, we hand each adapter's official client a **fake server**: a
# function that keeps the request it was sent and answers with a reply we wrote in that provider's
# documented format. The request is built by the adapters' own code; only the replies are ours (the
# token counts in them are invented, to show where the fields are).

# %%
import httpx
import ollama
import openai

from mingraph_lite import OllamaLLM, OpenAILLM


class FakeServer:
    """Keeps every request body it is sent and answers with the next prepared reply."""

    def __init__(self, *replies):
        self.replies, self.bodies = list(replies), []

    def __call__(self, request):
        self.bodies.append(json.loads(request.content))
        return httpx.Response(200, json=self.replies.pop(0))


def ollama_reply(message, prompt_tokens=0, output_tokens=0):
    return {"model": "qwen3.5:2b", "created_at": "2026-01-01T00:00:00Z", "message": message, "done": True,
            "done_reason": "stop", "prompt_eval_count": prompt_tokens, "eval_count": output_tokens}


def openai_reply(message, prompt_tokens=0, output_tokens=0):
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": "gpt-5-mini",
            "choices": [{"index": 0, "message": {"role": "assistant", **message},
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": output_tokens,
                      "total_tokens": prompt_tokens + output_tokens,
                      "completion_tokens_details": {"reasoning_tokens": 0}}}


raw_reply = ollama_reply({"role": "assistant", "content": "", "tool_calls": [
    {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
    {"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]}, 250, 40)
ollama_server = FakeServer(
    raw_reply,
    ollama_reply({"role": "assistant", "content": "(the second reply is not the point here)"}))
openai_server = FakeServer(
    openai_reply({"content": None, "tool_calls": [
        {"id": "call_A1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
        {"id": "call_A2", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Tokyo"}'}}]},
        250, 40),
    openai_reply({"content": "(the second reply is not the point here)"}))

on_ollama = OllamaLLM("qwen3.5:2b", client=ollama.Client(host="http://ollama.invalid:11434",
                                                          transport=httpx.MockTransport(ollama_server)))
on_openai = OpenAILLM("gpt-5-mini", client=openai.OpenAI(
    api_key="test", base_url="http://openai.invalid/v1", max_retries=0,
    http_client=httpx.Client(transport=httpx.MockTransport(openai_server))))

# %% [markdown]
# Round 1, to Ollama (`POST /api/chat`): the folder, the menu, and `"stream": false`.

# %%
folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION)]
from_ollama = on_ollama.generate(folder, registry.tools)
print(json.dumps(ollama_server.bodies[0], indent=2, ensure_ascii=False))

# %% [markdown]
# Look closely at `parameters`: it is the menu exactly as `registry.tools` holds it, `"additionalProperties":
# false` included, so the model is told "no other arguments". That is a choice the adapter makes: it
# writes Ollama's documented request body itself and reads the reply with its own bounded reader, instead
# of letting the client's typed `chat()` rebuild the body and parse the reply (that parser crashes on a
# badly formed reply before we could answer it as a fixable slip). Whatever the wire says, our registry
# still refuses an extra argument when the slip comes back.

# %%
sent = ollama_server.bodies[0]["tools"][0]["function"]["parameters"]
mine = registry.tools[0]["function"]["parameters"]
print("keys we handed over:", sorted(mine))
print("keys Ollama was sent:", sorted(sent))
assert mine.get("additionalProperties") is False and sent == mine

# %% [markdown]
# Round 1, to OpenAI (`POST /v1/chat/completions`): the same folder, the menu exactly as we handed it over,
# and no `stream` field.

# %%
from_openai = on_openai.generate(folder, registry.tools)
print(json.dumps(openai_server.bodies[0], indent=2, ensure_ascii=False))
assert openai_server.bodies[0]["tools"] == registry.tools
assert openai_server.bodies[0]["messages"] == ollama_server.bodies[0]["messages"]

# %% [markdown]
# A raw reply, as the Ollama server would send it, and what the adapter made of it. Ollama's tool calls
# carry **no ticket number**, so the adapter makes one from what the model read and wrote. OpenAI sends its
# own ids, and the arguments as JSON *text*, not an object.

# %%
print("raw Ollama reply (written by us in Ollama's format):")
print(json.dumps(raw_reply, indent=2))
print("\nwhat the Ollama adapter read:", from_ollama)
print("\nwhat the OpenAI adapter read:", from_openai)
assert "id" not in str(raw_reply["message"]["tool_calls"]) and from_ollama.message.tool_calls[0].id.startswith("call_")
assert [c.id for c in from_openai.message.tool_calls] == ["call_A1", "call_A2"]

# %% [markdown]
# Round 2 shows the real difference. We run the two slips and add the answer slips to the folder; here is
# how each adapter spells the new messages (the rest of the body is as in round 1).

# %%
round_two = [*folder, from_openai.message, *(registry.run(slip) for slip in from_openai.message.tool_calls)]
on_ollama.generate(round_two, registry.tools)
on_openai.generate(round_two, registry.tools)
print("to Ollama:")
print(json.dumps(ollama_server.bodies[1]["messages"][2:], indent=2, ensure_ascii=False))
print("\nto OpenAI:")
print(json.dumps(openai_server.bodies[1]["messages"][2:], indent=2, ensure_ascii=False))
to_ollama, to_openai = ollama_server.bodies[1]["messages"], openai_server.bodies[1]["messages"]
assert [m["tool_name"] for m in to_ollama[3:]] == ["get_weather", "get_weather"]
assert [m["tool_call_id"] for m in to_openai[3:]] == ["call_A1", "call_A2"]
assert isinstance(to_openai[2]["tool_calls"][0]["function"]["arguments"], str)
assert isinstance(to_ollama[2]["tool_calls"][0]["function"]["arguments"], dict)

# %% [markdown]
# Ollama pairs an answer slip with its call by **tool name and order** (`tool_name`); OpenAI by **ticket
# number** (`tool_call_id`), with the arguments sent back as JSON text. One folder, two spellings: that is
# the adapter's whole job.
#
# ### Exercise 01.2: the folder in Ollama's spelling
#
# Write `to_ollama(folder)`: the list of message dicts the Ollama adapter puts in `"messages"`, for any
# folder. System and user messages are their role and content; an assistant message is its role and content,
# plus `"tool_calls"` when it passed slips (each `{"function": {"name": ..., "arguments": {...}}}`); an answer
# slip is `{"role": "tool", "content": ..., "tool_name": ...}`. One catch: an answer slip may not say its
# tool's name (`message.name` is `None`), and then you find it by its ticket number among the earlier slips.
# The check compares with the adapter on a folder from another shop, with other tools.

# %%
def to_ollama(folder):
    raise NotImplementedError  # your code here


# %%
check("01.2", to_ollama)

# %% [markdown]
# ### Exercise 01.3: count the rounds
#
# A third manager asks for Paris's weather, then in the next round for Tokyo's, then for both conversions in
# one reply, then answers. **How many model calls does that take?** Replace `...` with a number. (The check
# builds this manager and runs it.)

# %%
rounds = ...  # your answer: how many model calls?

# %%
check("01.3", rounds)

# %% [markdown]
# ## The manager who never stops
#
# The plain loop stops only when the manager decides to. What if they never do? A real model can get
# stuck asking for the same errand again and again, and **every model call is a paid call**.
# `looping_manager(rounds=30)` asks for the same two lookups 30 times. A real model would not run out of
# replies; the script does, which is the only reason this cell ends.

# %%
llm = looping_manager(rounds=30)
try:
    plain_loop(llm, registry, QUESTION, show=False)
except ScriptExhausted as e:
    print(f"{type(e).__name__}: {e}")
print(f"model calls made: {len(llm.calls)}  (with a real model: no end, and a bill for each one)")
assert len(llm.calls) == 30  # every reply in the script was used: only running out stopped it


# %% [markdown]
# The fix is a ceiling. The model still decides the number of rounds; our code only decides the most we are
# willing to pay for. `max_steps` counts **model calls**, and running out is not an answer: the loop raises
# `StepLimitReached`, so no caller can mistake "I gave up" for a reply.
#
# ### Exercise 01.4: the loop with a ceiling
#
# Write `capped_loop(llm, registry, system_prompt, question, *, max_steps=10)`: the plain loop, but it makes
# at most `max_steps` model calls, returns the final text when the model answers, and raises
# `StepLimitReached(...)` when it runs out. The check runs it with another menu (an `add` tool), another
# question, and managers that answer or never stop, at several ceilings.

# %%
def capped_loop(llm, registry, system_prompt, question, *, max_steps=10):
    raise NotImplementedError  # your code here


# %%
check("01.4", capped_loop)


# %% [markdown]
# Here is the notebook's own version, which the rest of the notebook uses:

# %%
def loop_with_ceiling(llm, registry, question, *, max_steps=10):
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
        print(f"{llm.name:<22} answer: {loop_with_ceiling(llm, registry, QUESTION, max_steps=5)}")
    except StepLimitReached as e:
        print(f"{llm.name:<22} {type(e).__name__}: {e}")
    print(f"{'':<22} model calls: {len(llm.calls)}")

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
assert len(llm.calls) == agent.max_steps == 5


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
# - adding a situation, say "ask a human when a city is unknown", means editing that block and every check
#   in it. Notebook 03 makes you do exactly that, in both versions.
#
# ## What a run has to remember
#
# Watch the sticky-note loop and list what must survive from one round to the next:
#
# | what | why | in `sticky_note_loop` |
# |---|---|---|
# | **events**: everything that happened | the model is read it every round; you debug from it | `folder` (messages only) |
# | **step count** | the ceiling needs a counter | `step` |
# | **run id** | which run produced this line in a log? | nowhere yet (notebook 04: traces) |
# | **scratch pad** | values that are neither a message nor a tool result | nowhere yet (notebook 06: the worksheet) |
# | **done** | the answer, and the flag that stops the loop | `answer`, `situation == "hung up"` |
#
# One object that holds them all is easier to pass around; a dataclass does it in a few lines. Note
# `field(default_factory=...)`: it matters in a minute.

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
# Each `RunContext()` gets its own list, because `default_factory` is called once per object. Write
# `events: list = []` instead and `dataclasses` refuses: a default is built **once**, when Python reads the
# class, and a list built once would be shared by every object. That is the next trap.

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
# An agent needs a folder (a memory). If the caller passes none, the obvious default is a fresh `KeepAll`,
# and the obvious way to write that is below. **Predict first:** two agents built without a memory; how many
# folders exist? Write your guess (a number) in the next cell.

# %%
my_guess_folders = ...  # how many folders do the two agents have between them?


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
folders = len({id(weather_agent.memory), id(greeter.memory)})
print(f"folders: {folders}", "(no guess written)" if my_guess_folders is ... else f"(you guessed {my_guess_folders})")

greeter.run("Hi!")
read_out = greeter_llm.calls[0][0]
print(f"\nwhat the greeter's manager was read on its FIRST call ({len(read_out)} messages):")
for message in read_out:
    print(" ", describe(message))

# %% [markdown]
# `KeepAll(SYSTEM_PROMPT)` in the `def` line ran **once**, when Python read the class, not once per agent.
# Every agent built without a memory gets that same object. So the greeter's manager was read the weather
# agent's whole conversation, under the weather instructions, because the greeter's own system prompt did
# not exist yet when the folder was built.
#
# ### Exercise 01.5: fix the trap
#
# Write `FixedAgent`, a subclass of `NaiveAgent` whose `__init__` defaults `memory` to `None` and builds a
# fresh `KeepAll(system_prompt)` when none is given (a memory the caller hands in is used as it is).

# %%
class FixedAgent(NaiveAgent):
    def __init__(self, llm, registry, system_prompt, memory=None):
        raise NotImplementedError  # your code here


# %%
check("01.5", FixedAgent)

# %% [markdown]
# That is what the package's `Agent` does:

# %%
print("Agent's memory default:", inspect.signature(Agent).parameters["memory"].default)
greeter_llm = ScriptedLLM(["Hello! Ask me anything."], name="scripted: greeter")
greeter = Agent(greeter_llm, registry, "You greet people warmly.")
weather_agent = Agent(three_round_manager(), registry, SYSTEM_PROMPT)
weather_agent.run({"question": QUESTION})
greeter.run({"question": "Hi!"})
print("same folder object?", greeter.memory is weather_agent.memory)
print(f"the greeter's manager was read {len(greeter_llm.calls[0][0])} messages:")
for message in greeter_llm.calls[0][0]:
    print(" ", describe(message))

# %% [markdown]
# ## Real models on the same loop: two recorded runs, replayed
#
# So far every manager was scripted. Here are **real** ones: the two small models the course ships, run on
# this question with the two weather tools by the course's experiment command, each run recorded to a trace
# file (definition `finish-right`, variant "zero-shot": our system prompt and question, nothing else):
#
# | model | weights | run | settings |
# |---|---|---|---|
# | SmolLM2-135M-Instruct (135 million parameters) | Q4_1 GGUF | #0 | in-process llama.cpp (the `xllamacpp` runtime), sampling at temperature 0.7, seed 100, `max_steps=6` |
# | Gemma 3 270M (270 million parameters) | Q4_K_M GGUF | #3 | the same runtime and settings, seed 103 |
#
# Run #0 is SmolLM2's first; Gemma's #3 is one of the 9 of its 16 zero-shot runs that answered without a tool
# (the cells further down count them). No recorded run of either model answers this question right.
#
# `ReplayLLM` hands back the recorded replies in order, so these cells need no model and give the same
# result every time. It also checks that our run asks what the recording asked, and stops if it drifts.
#
# **Predict first:** will each model (a) answer right, (b) answer wrong, or (c) never answer?

# %%
my_guess_real = {"SmolLM2-135M": ..., "Gemma 3 270M": ...}  # "a", "b" or "c" each

# %%
from pathlib import Path

from mingraph_lite import ReplayLLM

RUNS = Path("..") / "data" / "experiments" / "finish-right"
RECORDED = {"SmolLM2-135M": RUNS / "smollm2-135m" / "traces" / "zero-shot-00.jsonl",
            "Gemma 3 270M": RUNS / "gemma3-270m" / "traces" / "zero-shot-03.jsonl"}
real = {}
for label, trace in RECORDED.items():
    real[label] = EventRecorder()
    agent = Agent(ReplayLLM.from_trace(trace), registry, SYSTEM_PROMPT, observers=[real[label]], max_steps=6)
    try:
        answer = agent.run({"question": QUESTION})["answer"]
        outcome = "a" if answer == "Paris: 64°F, Tokyo: 75°F" else "b"
    except StepLimitReached as e:
        outcome = f"c ({type(e).__name__}: {e})"
    print(f"{label} (recorded as {real[label].of('model_reply')[0]['model']!r})")
    for event in real[label].of("model_reply"):
        reply = event["message"]
        said = ", ".join(f"{c['name']}({c['arguments']})" for c in reply["tool_calls"]) or f"answer {reply['content'][:40]!r}..."
        print(f"  step {event['step']}: read {event['input_tokens']} tokens, wrote {event['output_tokens']}: {said}")
    guess = my_guess_real[label]
    print(f"  outcome: {outcome}", "(no guess written)" if guess is ... else f"(you guessed {guess!r})", "\n")

# %%
draw_rounds({f"{label} (recorded, replayed)": recorder for label, recorder in real.items()})

# %% [markdown]
# **SmolLM2-135M: a made-up number, six times.** Its very first slip asks to convert 30 °C. No `get_weather`
# had run, and neither the question nor the instructions contain a 30: the model **made up** the number.
# Then it sent the same slip five more times, each time reading the answer slip `86`, until the ceiling
# stopped it. The cell below checks each of those claims against the trace.

# %%
replies = real["SmolLM2-135M"].of("model_reply")
slips = [(c["name"], c["arguments"]) for e in replies for c in e["message"]["tool_calls"]]
assert not any(name == "get_weather" for name, _ in slips)              # it never looked anything up
assert all(slip == ("to_fahrenheit", {"celsius": 30.0}) for slip in slips)  # one slip, six times
assert "30" not in QUESTION and "30" not in SYSTEM_PROMPT                 # 30 came from nowhere
assert len(replies) == 6 and real["SmolLM2-135M"].of("finish")[0]["reason"] == "step limit"
growth = {b["input_tokens"] - a["input_tokens"] for a, b in zip(replies, replies[1:])}
print("first slip:", slips[0], "| identical slips:", len(slips), "| folder grew by", growth, "tokens a round")


# %% [markdown]
# Is this one unlucky run? The same variant was run 16 times per model (seeds 100 to 115, same runtime, same
# `max_steps=6`), and sampling makes each run different. The next cell reads all 32 traces.

# %%
from collections import Counter

from mingraph_lite import read_trace

sampled = RUNS


def first_slip_and_end(trace):
    events = read_trace(trace)
    calls = [(e["name"], e["arguments"]) for e in events if e["event"] == "tool_call"]
    finish = [e for e in events if e["event"] == "finish"][-1]
    return calls, finish


smol = [first_slip_and_end(t) for t in sorted((sampled / "smollm2-135m" / "traces").glob("zero-shot-*.jsonl"))]
starts = Counter(calls[0][0] for calls, _ in smol)
made_up = [f"{x:g}" for x in sorted({float(calls[0][1]["celsius"]) for calls, _ in smol
                                     if calls[0][0] == "to_fahrenheit"})]
assert len(smol) == 16 and starts["to_fahrenheit"] >= 15
assert all(finish["reason"] == "step limit" for _, finish in smol)
print(f"SmolLM2, {len(smol)} sampled runs: {starts['to_fahrenheit']} start with to_fahrenheit on a made-up number "
      f"({', '.join(made_up)}), {starts['get_weather']} with get_weather; all hit the step limit")

gem = [first_slip_and_end(t) for t in sorted((sampled / "gemma3-270m" / "traces").glob("zero-shot-*.jsonl"))]
no_tool = [finish["answer"] for calls, finish in gem if not calls]
echoes = [answer for answer in no_tool if "your answer" in answer.lower()]
assert len(gem) == 16 and len(echoes) > len(no_tool) / 2
assert all(finish["reason"] == "step limit" for calls, finish in gem if calls)
print(f"Gemma, {len(gem)} sampled runs: {len(no_tool)} answered at once without a tool, {len(echoes)} of them "
      f"echoing the reply format's placeholder; the other {len(gem) - len(no_tool)} never finished")

# %% [markdown]
# **Why, as far as a trace can say.** A 135M model is tiny. The local adapter forces it to write either an
# answer or a well-formed slip, so its slips always *parse*, but nothing forces them to make sense. One
# plausible reading (ours, not a measurement): the question ends with "in Fahrenheit?", and the model reached
# straight for the conversion tool, filling in a number that looks like a temperature. Each round the folder
# only grew by its own slip and the answer `86`, not enough to change its mind. From run to run the made-up
# number changes, but the mistake does not.
#
# **Gemma 3 270M: an answer that is not one.** Gemma called no tool at all. Its only reply is the text
# `<your answer>`, over and over, until the token cap cut it off mid-word. Where does that text come from?
# A local model has no JSON tool API: the adapter writes the menu *into the prompt* as text, with a reply
# format. Here is the exact prompt Gemma read, rebuilt by the adapter's own code:

# %%
from lessons.local_prompt import local_prompt

prompt = local_prompt([SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION)], registry.tools, "gemma3-270m")
print(prompt)
gemma = real["Gemma 3 270M"].of("model_reply")[0]["message"]["content"]
assert "<your answer>" in prompt and gemma.startswith("<your answer>") and not gemma.endswith(">")
assert not real["Gemma 3 270M"].of("tool_call") and real["Gemma 3 270M"].of("finish")[0]["reason"] == "answered"

# %% [markdown]
# The placeholder `<your answer>` is in the reply format we showed it, and the model copied it instead of
# filling it in: tiny models imitate the surface of their prompt. And look at what our loop did with it:
# no slips, so **evaluate** said "that's the answer", and the run ended after one call, "answered". The
# ceiling cannot catch this; the loop only checks *whether* the model answered, not *what* it answered.
#
# Two things did their job. For SmolLM2 the **ceiling** turned "never stops" into six paid calls and a
# `StepLimitReached`, with **no fake answer**: the caller knows it got nothing. For Gemma, nothing in the loop
# could help; only reading the trace shows the problem. Notebook 05 reads traces line by line and sorts
# mistakes like these.

# %% [markdown]
# ## Your model, same loop
#
# Everything above used scripted managers or a recording, so the counts are the same on every machine. Set
# `MINGRAPH_LLM` (see notebook 00) and this cell asks the same question of the model you picked.
# **Predict first:** how many model calls will *your* model need?

# %%
# NBVAL_IGNORE_OUTPUT
# (the output depends on the active model: MINGRAPH_LLM, scripted by default)
from mingraph_lite.course.scripts import make_llm

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
#   editing every branch. Notebook 03 gives each situation its own card, and has you add one to both.
# - **A tool that fails.** In every loop here, an errand that raises stops the run with a slip left
#   unanswered in the folder. Providers reject such a folder, so the *next* run would break too. Notebook 03
#   separates "the model filled in the slip wrong" (it can fix that) from "the service is down" (it can't).
# - **Watching.** The only view of a run is what we chose to `print` inside the loop, or a recorder handed
#   in. Notebook 04 is about listeners that watch without the loop knowing who they are.
# - **The run id and the scratch pad** have no home yet (notebooks 04 and 06).
# - **The folder carries over between runs** of one agent. For a chat assistant that is the point; for an
#   agent handed two unrelated tasks, the second task's folder still holds the first (notebook 08).
