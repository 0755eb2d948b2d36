# %% [markdown]
# # 02 · What a run remembers
#
# Notebook 01 wrote the agent loop and gave it a ceiling. This one asks what the loop has to carry from one
# round to the next, and replays two real (tiny) models' recorded runs on it.
#
# **What you will be able to do at the end**
#
# - recognise the "sticky note" version of the loop (`situation == ...`) and what it costs;
# - keep what a run must remember in one record, and fix the shared mutable default trap;
# - read two real models' recorded runs, and find a made-up number in a run's events;
# - say why a real run's right numbers are not yet a clean answer.
#
# **Prerequisites:** notebook 01 (the loop and `max_steps`). **Time:** about 88 minutes (estimated from length: see "How long" in 00).
#
# **Sources.** The sticky note and the phone-call picture come from the article *The State and Observer
# Patterns in a Python Agent Loop*, and the list of what a run has to remember from the article *Why an
# agent needs more than a message list* (no author is named in either). The real runs are the course's own.

# %% [markdown]
# ## Setup
#
# Notebook 01's menu, question and managers. The words, from 01: the **manager** is the model; a **slip** is a
# tool call, an **answer slip** its result (`ToolMessage`), an **errand** running one slip; the **folder** is the
# message list; the **answer** is the model's final text.

# %%
from mingraph_lite import (Agent, EventRecorder, KeepAll, ScriptedLLM, StepLimitReached, SystemMessage,
                           UserMessage)
from lessons.exercises import check
from lessons.folders import show_folder
from lessons.pictures import draw_rounds
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, three_round_manager
from mingraph_lite.course.weather import weather_registry

registry = weather_registry()


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
# Look at its shape:
#
# - every rule for every situation lives in one block, and each one begins by checking the note;
# - the note, the step counter and the answer are loose variables that the branches must keep in sync
#   (nothing stops a branch from bumping `step` or forgetting to: question 5);
# - a new situation means editing that block and every check in it (notebook 03 has you do it).
#
# ## What a run has to remember
#
# What must survive from one round to the next:
#
# | what | why | in `sticky_note_loop` |
# |---|---|---|
# | **messages**: everything said so far | the model reads them every round; you debug from them | `folder` |
# | **step count** | the ceiling needs a counter | `step` |
# | **run id** | which run produced this line in a log? | nowhere yet (notebook 04: traces) |
# | **scratch pad** | values that are neither a message nor a tool result | nowhere yet (notebook 07: the worksheet) |
# | **done** | the answer, and the flag that stops the loop | `answer`, `situation == "hung up"` |
#
# One dataclass holds them all. Note `field(default_factory=...)`.

# %%
from dataclasses import dataclass, field


@dataclass
class RunContext:
    """What one run needs to remember (notebook 04 adds the run id)."""
    messages: list = field(default_factory=list)
    step: int = 0
    scratch: dict = field(default_factory=dict)
    answer: str | None = None

    @property
    def done(self) -> bool:
        return self.answer is not None


first, second = RunContext(), RunContext()
first.messages.append("user asked about Paris")
print("same list?", first.messages is second.messages, "| second run's messages:", second.messages,
      "| first done?", first.done)

# %% [markdown]
# `default_factory` is called once per object, so each `RunContext()` gets its own list. Write
# `messages: list = []` and `dataclasses` refuses: a default is built **once**, when Python reads the class,
# and would be shared by every object.

# %%
try:
    @dataclass
    class BadContext:
        messages: list = []
except ValueError as e:
    print(f"{type(e).__name__}: {e}")


# %% [markdown]
# ## The shared mutable default trap
#
# With no memory (folder) passed, the obvious default is a fresh `KeepAll`, as below. **Predict first:** two agents built without a memory; how many
# folders exist?

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
print(f"\nwhat the greeter's manager read on its FIRST call ({len(greeter_llm.calls[0][0])} messages):")
show_folder(greeter_llm.calls[0][0])

# %% [markdown]
# `KeepAll(SYSTEM_PROMPT)` in the `def` line ran **once**, when Python read the class: every agent built
# without a memory gets that one object. So the greeter's manager read the weather agent's whole
# conversation, under the weather instructions.
#
# ### Exercise 02.1: fix the trap
#
# Write `FixedAgent`, a subclass of `NaiveAgent` that keeps its `memory` parameter and its `run`, and behaves
# like this: two agents built without a memory never share a folder; each such folder starts with *that
# agent's own* system prompt; and a memory the caller hands in is used as it is, even a new, empty one. The
# check builds agents you have not seen, and refuses a `FixedAgent` that borrows the package's `Agent`.

# %%
class FixedAgent(NaiveAgent):
    def __init__(self, *args, **kwargs):  # your code here: the same parameters as NaiveAgent's __init__
        raise NotImplementedError


# %%
check("02.1", FixedAgent)

# %% [markdown]
# ### Exercise 02.2: a loop that keeps its run in one record
#
# Put the table above to work. Write `remembering_loop(llm, registry, system_prompt, question, *,
# max_steps=10)`: the capped loop of notebook 01, but everything the run must remember lives in **one new
# `RunContext` per run** (the dataclass above), and the loop returns that context:
#
# - `messages` is the folder: the system message, the question, then every reply and answer slip in order;
#   the model reads `ctx.messages` each round;
# - `step` is the number of model calls made so far;
# - `scratch["errands"]` counts the errands run so far, from 0, for the caller (the loop never reads it;
#   `step` counts model calls, and one call can send several errands);
# - `answer` is the model's final text. When the ceiling is reached first, the loop **returns the context
#   unfinished** (`answer` stays `None`, so `done` is `False`): the caller sees how far the run got.
#
# The check runs it with another menu and other managers, twice in a row (two runs must share nothing), and
# refuses a loop that hands the run to the package's `Agent` or its steps: the record is yours to keep.

# %%
def remembering_loop(llm, registry, system_prompt, question, *, max_steps=10):
    raise NotImplementedError  # your code here


# %%
check("02.2", remembering_loop)

# %% [markdown]
# ## Real models on the same loop: two recorded runs, replayed
#
# Now **real** managers: the course's two small models on this question and menu, with our system prompt
# only (definition `finish-right`, variant "zero-shot"). Each run was recorded to a trace file: the messages,
# steps and answer of the table above, one event each (02.3 reads them). The runs: SmolLM2-135M-Instruct #0
# and Gemma 3 270M #3, by llama.cpp at temperature 0.7, `max_steps=6`. `ReplayLLM` hands back the recorded
# replies in order: no model needed.
#
# **Predict first:** will each model (a) answer right, (b) answer wrong, or (c) hit the step limit without
# answering?

# %%
my_guess_real = {"SmolLM2-135M": ..., "Gemma 3 270M": ...}  # "a", "b" or "c" each

# %%
from pathlib import Path

from mingraph_lite import ReplayLLM
from lessons.replies import recorded_model, show_event_kinds, show_replies, show_sampled_runs

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
    print(f"{label} (the trace records model {recorded_model(trace)!r})")
    show_replies(real[label])
    print(f"  outcome: {outcome}", "(no guess written)" if my_guess_real[label] is ...
          else f"(you guessed {my_guess_real[label]!r})", "\n")

# %%
draw_rounds({f"{label} (recorded, replayed)": recorder for label, recorder in real.items()})

# %% [markdown]
# Bottom: the tokens each model call read. SmolLM2's climb by 40 a round (measured below), as it reads its
# whole folder each time: question 2 uses that.
#
# **SmolLM2-135M: a made-up number, six times.** Its first slip asks to convert 30 °C. No `get_weather`
# had run, and neither the question nor the instructions contain a 30: the model **made up** the number.
# It sent the same slip five more times, each time reading the answer slip `86`, until the ceiling
# stopped it. The next cell checks it.
#
# No zero-shot run of either model answers right; "A real run that works" replays one that does.

# %%
replies = real["SmolLM2-135M"].of("model_reply")
slips = [(c["name"], c["arguments"]) for e in replies for c in e["message"]["tool_calls"]]
assert all(slip == ("to_fahrenheit", {"celsius": 30.0}) for slip in slips)  # one slip, six times, no get_weather
assert "30" not in QUESTION and "30" not in SYSTEM_PROMPT                 # 30 came from nowhere
assert len(replies) == 6 and real["SmolLM2-135M"].of("finish")[0]["reason"] == "step limit"
growth = {b["input_tokens"] - a["input_tokens"] for a, b in zip(replies, replies[1:])}
assert {e["content"] for e in real["SmolLM2-135M"].of("tool_return")} == {"86"}  # every answer slip says 86
print("first slip:", slips[0], "| identical slips:", len(slips), "| folder grew by", growth, "tokens a round")


# %% [markdown]
# Is this one unlucky run? Each model ran this variant 16 times (seeds 100 to 115); the next cell reads all 32
# traces.

# %%
show_sampled_runs(RUNS)  # tests/lessons/test_replies.py checks these counts against the traces

# %% [markdown]
# The made-up number changes; the mistake comes back in 15 of the 16 SmolLM2 runs. Some of
# Gemma's slips arrive cut short, their arguments kept as text: 02.3 has to handle those.

# %% [markdown]
# **Gemma 3 270M: an answer that is not one.** Gemma called no tool at all. Its only reply is the text
# `<your answer>`, repeated until the token cap cut it off mid-word. Where does that text come from?
# Our local adapter has no JSON tool API: it writes the menu *into the prompt* as text, with a reply
# format. The prompt Gemma read, rebuilt by the adapter's code:

# %%
from lessons.local_prompt import local_prompt

prompt = local_prompt([SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION)], registry.tools, "gemma3-270m")
print(prompt)
gemma = real["Gemma 3 270M"].of("model_reply")[0]["message"]["content"]
assert "<your answer>" in prompt and gemma.startswith("<your answer>") and not gemma.endswith(">")
assert not real["Gemma 3 270M"].of("tool_call") and real["Gemma 3 270M"].of("finish")[0]["reason"] == "answered"

# %% [markdown]
# The model copied the placeholder `<your answer>` instead of filling it in. No slips, so the loop ended
# after one call. The ceiling cannot catch this: the loop checks *whether* the model answered, not *what*.

# %% [markdown]
# ### Exercise 02.3: find the made-up number in any run
#
# Write `first_made_up(events)`: given a run's events (dicts from an `EventRecorder` or `read_trace(path)`),
# return the `step` of the first `to_fahrenheit` slip (`e["event"] == "tool_call"`, with `step`, `name`,
# `arguments`) whose `celsius` **no `get_weather` had returned** before it:
#
# - `None` when the run made up no number;
# - known numbers come from `"tool_return"` events of `get_weather` of an *earlier* step only;
# - a slip in the same reply as its `get_weather` is a guess, even a lucky one;
# - compare numbers, not text (`"18"`, `18`, `18.0` are one); `re.findall(r"-?\d+(?:\.\d+)?", text)` finds them;
# - arguments kept as text (not a dict) count as made up: no number was read from them.
#
# SmolLM2's run above gives `1`. The check runs it on scripted runs and the 30 recorded runs not replayed here.
# The events the rules read, from notebook 01's **scripted** three-round manager (it made up nothing):

# %%
scripted = EventRecorder()
Agent(three_round_manager(), registry, SYSTEM_PROMPT, observers=[scripted]).run({"question": QUESTION})
show_event_kinds(scripted)

# %%
def first_made_up(events):
    raise NotImplementedError  # your code here


# %%
check("02.3", first_made_up)

# %% [markdown]
# ## A real run that works
#
# The same model can finish right. `data/experiments/finish-right-3.toml` changed what the model reads and
# how it samples, never the loop or weights: a system prompt that spells out the steps, tool results that
# name their input (`Paris: 18°C`), three worked examples on other cities before the question, a one-line
# answer, temperature 0.1. The run replayed here, unedited, is SmolLM2's #0 of "named, T=0.1" (seed 300).

# %%
import csv

from mingraph_lite.course.definition import load

WORKS = Path("..") / "data" / "experiments" / "finish-right-3"
named = {v.name: v for v in load(WORKS.parent / "finish-right-3.toml").variants}


def replay_named(model, variant, trace):
    """One finish-right-3 run replayed through Agent, its folder starting with the variant's worked examples."""
    folder = KeepAll(named[variant].system_prompt)
    for message in named[variant].messages:
        folder.add(message)
    recorder = EventRecorder()
    Agent(ReplayLLM.from_trace(WORKS / model / "traces" / trace), named[variant].registry(),
          named[variant].system_prompt, memory=folder, observers=[recorder], max_steps=6).run({"question": QUESTION})
    return recorder


works = replay_named("smollm2-135m", "named, T=0.1", "named-t-0-1-00.jsonl")
show_replies(works)
print("answer:", works.of("finish")[0]["answer"], "| the trace records model",
      repr(recorded_model(WORKS / "smollm2-135m" / "traces" / "named-t-0-1-00.jsonl")))
assert works.of("finish")[0]["answer"] == "Paris: 64°F, Tokyo: 75°F" and len(works.of("model_reply")) == 3
assert not any(city in str(named["named, T=0.1"].messages) for city in ("Paris", "Tokyo"))  # examples: other cities
assert "For each city, call get_weather" in named["named, T=0.1"].system_prompt and "each city" not in SYSTEM_PROMPT

# %% [markdown]
# One run is not a rate: `data/experiments/README.md` (section `finish-right-3`) gives each variant's rate
# over 16 seeds, with 95% intervals.
#
# Gemma 3 270M got the numbers right in 13 of 16 runs with the answer form "named, copy", and in none with
# the other two forms; all 13 replies (#6, seed 306, `named-copy-06.jsonl`, is one) run on past the answer
# line with stray text (checked below). Right numbers and a clean answer are two checks.

# %%
right = [r for r in csv.DictReader(open(WORKS / "gemma3-270m" / "results.csv", encoding="utf-8")) if r["outcome"] == "right"]
line = "Paris: 18°C = 64°F, Tokyo: 24°C = 75°F"  # the 13 right runs: all "named, copy", none clean
assert len(right) == 13 and all(r["variant"] == "named, copy" and r["answer"].strip() != line for r in right)
assert all(r["answer"].startswith(line) for r in right)

# %% [markdown]
# ## Your model, same loop
#
# Set `MINGRAPH_LLM` (see notebook 00) and this cell asks the same question of the model you picked.

# %%
# NBVAL_IGNORE_OUTPUT
# (the output depends on the active model: MINGRAPH_LLM, scripted by default)
from mingraph_lite.course.scripts import make_llm

recorder = EventRecorder()
mine = Agent(make_llm(), weather_registry(), SYSTEM_PROMPT, observers=[recorder], max_steps=6)
try:
    outcome = mine.run({"question": QUESTION})["answer"]
except StepLimitReached as e:
    outcome = f"no answer: {e}"
print(f"model: {mine.llm.name} | model calls: {len(recorder.of('step_start'))}, "
      f"errands: {len(recorder.of('tool_call'))} | outcome: {outcome}")

# %% [markdown]
# ## What is still open
#
# - **The rulebook**: a new situation means editing every branch of the sticky-note loop (notebook 03: cards).
# - **A tool that fails** leaves a slip unanswered in the folder, and the *next* run breaks too (notebook 03).
# - **The folder carries over between runs** of one agent, unrelated tasks included (notebook 10).

# %% [markdown]
# ## Questions
#
# Answers are in the solutions; the cells below check questions 1 to 3.
#
# 1. After the trap section's two `NaiveAgent`s (weather, then greeter) ran, a third is built without a
#    memory and asked "Hi!". How many messages does its manager read on its first call?
# 2. SmolLM2's folder grew by the same number of tokens every round. Had the ceiling been 10 instead of 6 and
#    the model kept sending the same slip, how many tokens would its tenth call have read?
# 3. SmolLM2's run #0 replayed through `Agent` with `max_steps=3` instead of 6: how many errands run, and does the caller
#    get an answer?
# 4. Why can the ceiling catch SmolLM2's failure but not Gemma's? What would you add to the loop to catch
#    Gemma's?
# 5. In `sticky_note_loop`, the "waiting" branch both bumps `step` and checks it against the ceiling. Would
#    moving `step += 1` into the "errands" branch break the ceiling? Which one-line change would?

# %%
answer_q1 = ...  # a number of messages
answer_q2 = ...  # a number of tokens
answer_q3 = ...  # (errands, answered?), e.g. (2, True)

# %%
check("02.Q1", answer_q1)
check("02.Q2", answer_q2)
check("02.Q3", answer_q3)
