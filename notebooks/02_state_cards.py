# %% [markdown]
# # 02 · State cards
#
# Notebook 01 ended with a loop that asks "what does the sticky note say?" before every move. This
# notebook tears that rulebook into **cards**, one per situation, and then makes the run survive the two
# ways a call goes wrong.
#
# **What you will be able to do at the end**
#
# - write the card loop (the State pattern) in a few small classes, and read the package's `Agent` as
#   the same thing;
# - tell apart the two things called "state": **the folder** (what has happened; it only grows) and
#   **the card** (where the run is; it flips back and forth);
# - explain why a run that hits `max_steps` raises `StepLimitReached` instead of returning a made-up answer;
# - sort a failure by who can fix it: `ToolArgsError` (the model filled in a slip wrong, and can fix it)
#   versus a tool that fails (the service is down, and no slip will bring it back), and say why the
#   folder must stay valid for the next run.
#
# All runs are scripted (no model, no network); every scripted manager says so in its name.

# %%
from dataclasses import dataclass

from mingraph_lite import (Agent, AssistantMessage, ConsoleLogger, ScriptedLLM, StepLimitReached, SystemMessage,
                           ToolArgsError, ToolCall, ToolRegistry, UserMessage)
from mingraph_lite.course.scripts import (QUESTION, SYSTEM_PROMPT, looping_manager, number, results,
                                          three_round_manager, four_round_manager)
from mingraph_lite.course.weather import get_weather, to_fahrenheit, weather_registry

registry = weather_registry()


def describe(message):
    """One line per message in the folder."""
    if getattr(message, "tool_calls", ()):
        slips = ", ".join(f"[{c.id}] {c.name}({c.arguments})" for c in message.tool_calls)
        return f"{message.role:<9} slips: {slips}"
    if message.role == "tool":
        return f"{message.role:<9} answer to [{message.tool_call_id}]: {' '.join(message.content.split())}"
    text = " ".join(message.content.split())
    return f"{message.role:<9} {text[:70] + '...' if len(text) > 70 else text}"


def unanswered(folder):
    """Ticket numbers of slips in the folder with no answer slip: a provider rejects such a folder."""
    asked = [c.id for m in folder for c in getattr(m, "tool_calls", ())]
    answered = {m.tool_call_id for m in folder if m.role == "tool"}
    return [ticket for ticket in asked if ticket not in answered]


# %% [markdown]
# ## From a sticky note to cards
#
# In the sticky-note loop, every rule for every situation sat in one block, each one starting with a check
# of the note. The State pattern keeps the rules and drops the checking: **each situation becomes a card**
# with its own rules on it, and the last rule on each card says which card to pick up next.
#
# - **Waiting** (calling the model): "read the folder out; if they passed slips, pick up *Errands*; if they
#   answered, pick up *Hung up*."
# - **Errands** (running tools): "run every slip, put the answer slips in the folder, pick up *Waiting*."
# - **Hung up**: "nothing more to do."
#
# Your only habit: *do what the card says, then pick up the card it hands you.* Each card also carries its
# own data (the step number), so there is no shared counter for three branches to keep in sync.
#
# First, the desk: what every card may read and write.

# %%
class Desk:
    """What the cards work with: the manager, the menu, the folder and the ceiling."""

    def __init__(self, llm, registry, system_prompt, *, max_steps=10):
        self.llm, self.registry, self.max_steps = llm, registry, max_steps
        self.folder = [SystemMessage(system_prompt)]


@dataclass(frozen=True)
class Waiting:
    step: int

    def run(self, desk):
        if self.step > desk.max_steps:
            return HungUp(None)
        response = desk.llm.generate(desk.folder, desk.registry.tools)
        desk.folder.append(response.message)
        if response.message.tool_calls:
            return Errands(response.message, self.step)
        return HungUp(response.message.content)


@dataclass(frozen=True)
class Errands:
    message: AssistantMessage
    step: int

    def run(self, desk):
        for slip in self.message.tool_calls:
            desk.folder.append(desk.registry.run(slip))
        return Waiting(self.step + 1)


@dataclass(frozen=True)
class HungUp:
    answer: str | None

    def run(self, desk):
        return None  # no next card: the loop ends


# %% [markdown]
# And the loop that holds them. It never asks where it is: the card in hand already is the answer.
# It prints both kinds of "state" each time it picks up a card: the card, and the folder's size.
#
# **Predict first:** with the three-round manager, how many times will you pick up the *Waiting* card?
# Write your guess here: ...

# %%
def card_loop(desk, question, *, show=True):
    desk.folder.append(UserMessage(question))
    card = Waiting(step=1)
    while card is not None:
        if show:
            print(f"  holding: {type(card).__name__:<8} | folder has {len(desk.folder)} messages")
        last, card = card, card.run(desk)   # do what the card says; it hands back the next one
    return last.answer


desk = Desk(three_round_manager(), registry, SYSTEM_PROMPT)
print(desk.llm.name)
print("answer:", card_loop(desk, QUESTION))

# %% [markdown]
# Read the two columns. The left one **flips back and forth**: Waiting, Errands, Waiting, Errands, Waiting,
# HungUp. The right one **only climbs**. They are two different things, and both get called "state":
#
# | | the folder | the card |
# |---|---|---|
# | in the package's `Agent` | `agent.memory` (`KeepAll` by default) | `_CallingModel`, `_RunningTools`, `_Finished` |
# | answers | what has happened so far? | where am I, so what do I do now? |
# | changes | on every message, and only grows | when something happens; flips back and forth |
# | in a graph (notebook 05) | the worksheet's `messages` | which node runs next |
#
# The package's `steps.State` is the *worksheet* (a dict of what we've got), the left column; the State
# *pattern* is about the right column. Keep the two apart and most of the confusion goes away.
#
# A note on a look-alike: the errand runner picking a tool function from the slip's name is the Strategy
# pattern: *you* pick the object from outside. In the State pattern, *each card picks the next card*.

# %% [markdown]
# ## The package's `Agent`: the same cards
#
# The package's `Agent` is this loop, with the cards named `_CallingModel`, `_RunningTools` and `_Finished`
# (its whole `run` loop is three lines: see `mingraph_lite/agents.py`). After a run, `agent.cards` lists
# each card picked up and the folder's size at that moment, so we can print the same two columns.

# %%
agent = Agent(four_round_manager(), registry, SYSTEM_PROMPT)
answer = agent.run({"question": QUESTION})["answer"]
print(agent.llm.name, "->", answer)
print()
print(f"{'card in hand':<14} | folder")
for card, size in agent.cards:
    print(f"{card:<14} | {size:>2} messages  " + "#" * size)

# %% [markdown]
# ### Watch it happen (optional)
#
# `LiveRun` (from the widgets module, the subject of notebook 03) draws both columns while the run is
# going: the card in hand on the left, the folder on the right. The next cell prints the same picture as
# plain text.

# %%
from IPython.display import display
from mingraph_lite import LiveRun

view = LiveRun()
display(view)
_ = Agent(three_round_manager(), registry, SYSTEM_PROMPT, observers=[view]).run({"question": QUESTION})

# %%
print(view.text())

# %% [markdown]
# ### Exercise 1: predict the cards
#
# Write the card sequence the package's `Agent` will pick up with the **three-round** manager, as a list of
# names from `"CallingModel"`, `"RunningTools"`, `"Finished"`. Leave `None` to skip.

# %%
answer_1 = None  # e.g. ["CallingModel", "RunningTools", ...]

# %%
checked = Agent(three_round_manager(), registry, SYSTEM_PROMPT)
checked.run({"question": QUESTION})
actual = [card for card, _ in checked.cards]
if answer_1 is None:
    print("not answered yet: set answer_1 to a list of card names, then run this cell again")
elif list(answer_1) == actual:
    print(f"correct: {len(actual)} cards, {actual.count('CallingModel')} of them CallingModel")
elif len(answer_1) != len(actual):
    print(f"not quite, hint: you listed {len(answer_1)} cards; each model call is one CallingModel card, "
          "and every reply with slips is followed by a RunningTools card")
else:
    print("not quite, hint: right length, wrong order; what does each card hand back?")

# %% [markdown]
# ## When the manager never answers: no fake answers
#
# Our inline `Waiting` card returns `HungUp(None)` at the ceiling, so `card_loop` hands back `None`. A
# tempting "improvement" is to put a note in the answer slot instead:

# %%
fake_answer = "Stopped: reached the step limit."
print(f"the weather brief says: {fake_answer}")
print("a caller checking 'is there an answer?' sees:", isinstance(fake_answer, str) and bool(fake_answer))

# %% [markdown]
# Whoever reads that slot next (another step, or a parent agent reading a subagent's reply) cannot tell
# "Paris is 64°F" from "I gave up" without parsing the words. The package's `_Finished` card **raises**
# `StepLimitReached` when it holds no answer. Note the cards: the run still ends on `Finished`, and the
# exception carries the number of model calls.
#
# **Predict first:** with `max_steps=3`, how many model calls before it stops? Write your guess here: ...

# %%
stuck = Agent(looping_manager(), registry, SYSTEM_PROMPT, max_steps=3)
try:
    stuck.run({"question": QUESTION})
except StepLimitReached as e:
    print(f"{type(e).__name__}: {e}")
    print("steps:", e.steps, "| model calls made:", len(stuck.llm.calls))
print("cards:", " -> ".join(card for card, _ in stuck.cards))

# %% [markdown]
# ## When an errand goes wrong: who can fix it?
#
# Two failures look alike from the loop (an exception while running a slip), and they need opposite
# handling:
#
# 1. **The slip is filled in wrong**: a string where a number is due, a tool that isn't on the menu, a
#    missing argument. The manager *can* fix that, if you tell them what was wrong. The registry raises
#    `ToolArgsError` for every such mistake, and the agent answers the slip with the error text and goes on.
# 2. **The slip is fine, the service is down.** A corrected slip won't bring it back. The agent answers the
#    slip anyway, then lets the tool's own exception go up to the caller.
#
# ### 1. A bad slip the model fixes
#
# This scripted manager sends `{"celsius": "18"}`: a string, not a number. The registry checks arguments
# strictly (it does not quietly turn `"18"` into `18`), so the manager gets an answer slip saying what to
# fix, and sends the right slip next round. `ConsoleLogger` prints each step (notebook 03 explains listeners).
#
# **Predict first:** how many model calls will this run take? Write your guess here: ...

# %%
print("the right slip, checked:", registry.validate(ToolCall("t1", "to_fahrenheit", {"celsius": 18})))
try:
    registry.validate(ToolCall("t2", "to_fahrenheit", {"celsius": "18"}))
except ToolArgsError as e:
    print(f"{type(e).__name__}: {e}")

# %%
fixer = ScriptedLLM([
    [("get_weather", {"city": "Paris"})],
    [("to_fahrenheit", {"celsius": "18"})],     # the mistake: a string
    [("to_fahrenheit", {"celsius": 18})],       # the fix, after reading the error slip
    lambda messages, tools: f"Paris: {number(results(messages, 'to_fahrenheit')[0])}°F",
], name="scripted: fixes its slip")

agent = Agent(fixer, registry, SYSTEM_PROMPT, observers=[ConsoleLogger()])
result = agent.run({"question": "What's the temperature in Paris, in Fahrenheit?"})
print()
print("answer:", result["answer"], "| model calls:", len(fixer.calls))
error_slips = [m for m in agent.memory.messages() if m.role == "tool" and m.is_error]
print("error slips in the folder:", len(error_slips))
print(" ", describe(error_slips[0]))

# %% [markdown]
# ### 2. A tool that fails
#
# Now the weather service is down. We build a registry whose `get_weather` raises `ConnectionError`
# while a switch says the service is down. No slip the manager could write would fix that.
#
# Before the package's version, watch our inline `Errands` card meet it. It has no `try`, so the exception
# flies out of the middle of the card, and look what it leaves in the folder:

# %%
service = {"up": False}


def flaky_get_weather(city: str) -> str:
    """Get the current temperature for a city, in degrees Celsius (fixed teaching data).

    Args:
        city: The city name, for example "Paris".
    """
    if not service["up"]:
        raise ConnectionError("weather service down")
    return get_weather(city)


flaky = ToolRegistry()
flaky.add(flaky_get_weather, name="get_weather")
flaky.add(to_fahrenheit)

desk = Desk(three_round_manager(), flaky, SYSTEM_PROMPT)
try:
    card_loop(desk, QUESTION, show=False)
except ConnectionError as e:
    print(f"{type(e).__name__}: {e}")
print("slips without an answer slip:", unanswered(desk.folder))


# %% [markdown]
# The folder now ends with two slips and no answer slips. Providers reject a conversation like that, and
# the folder outlives the run: the **next** question to this desk would fail too, for a reason that has
# nothing to do with it.
#
# The package's `_RunningTools` card answers **every** slip before it lets the exception go: the failing
# one with `Error: tool failed: ...`, any later ones with "not run". Then the tool's own exception goes up
# unchanged, so the caller sees exactly what failed.
#
# This manager's script covers two questions: the first run (service down) and a second run on the
# **same agent** after the service comes back.

# %%
def weather_slips(messages, tools):
    return [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]


def convert_both(messages, tools):
    # the last two good lookups: a failed run's error slips are not results
    return [("to_fahrenheit", {"celsius": number(r)}) for r in results(messages, "get_weather")[-2:]]


def final(messages, tools):
    paris, tokyo = (number(r) for r in results(messages, "to_fahrenheit")[-2:])
    return f"Paris: {paris}°F, Tokyo: {tokyo}°F"


manager = ScriptedLLM([weather_slips,                       # run 1: the service is down here
                       weather_slips, convert_both, final], # run 2: the same agent, service back
                      name="scripted: two questions")
service["up"] = False
agent = Agent(manager, flaky, SYSTEM_PROMPT)
try:
    agent.run({"question": QUESTION})
except ConnectionError as e:
    print(f"run 1: {type(e).__name__}: {e}")
print("cards:", " -> ".join(card for card, _ in agent.cards))
print("the folder after run 1:")
for message in agent.memory.messages()[1:]:
    print(" ", describe(message))
print("slips without an answer slip:", unanswered(agent.memory.messages()) or "none")

# %% [markdown]
# Every slip has its answer slip, so the folder is still a valid conversation. The service comes back;
# ask the **same agent** again. Its manager is read the whole folder, failed run included, and carries on.

# %%
service["up"] = True
print("run 2:", agent.run({"question": QUESTION})["answer"])
print("cards:", " -> ".join(card for card, _ in agent.cards))
print("folder now holds", len(agent.memory.messages()), "messages;",
      "unanswered slips:", unanswered(agent.memory.messages()) or "none")

# %% [markdown]
# ### Exercise 2: who can fix it?
#
# For each failure below, write `"model"` if it should go back to the model as a `ToolArgsError` answer
# slip, or `"caller"` if the tool's exception should go up to whoever called `agent.run`.
# The check runs each slip through the registries above to see which one it really is.

# %%
answer_2 = {
    "to_fahrenheit with celsius=true": None,         # "model" or "caller"
    "a tool called get_forecast": None,
    "get_weather while the service is down": None,
    "get_weather for Atlantis": None,
}


# %%
def who_fixes(reg, call):
    try:
        reg.run(call)
    except ToolArgsError:
        return "model"
    except Exception:
        return "caller"
    return "nobody: it worked"


service["up"] = False
cases = {
    "to_fahrenheit with celsius=true": (registry, ToolCall("x1", "to_fahrenheit", {"celsius": True})),
    "a tool called get_forecast": (registry, ToolCall("x2", "get_forecast", {"city": "Paris"})),
    "get_weather while the service is down": (flaky, ToolCall("x3", "get_weather", {"city": "Paris"})),
    "get_weather for Atlantis": (registry, ToolCall("x4", "get_weather", {"city": "Atlantis"})),
}
truth = {case: who_fixes(reg, call) for case, (reg, call) in cases.items()}
service["up"] = True

given = {case: guess for case, guess in answer_2.items() if guess is not None}
if not given:
    print("not answered yet: fill in answer_2, then run this cell again")
else:
    for case, guess in given.items():
        verdict = "correct" if guess == truth.get(case) else "not quite, hint: could a better slip fix it?"
        print(f"{case:<40} you: {str(guess):<7} {verdict}")

# %% [markdown]
# ### Exercise 3: the folder's size
#
# With the **four-round** manager and the package's `Agent`, how many messages does the folder hold when the
# run ends (system prompt included)? Count: the system prompt, the question, each reply, each answer slip.

# %%
answer_3 = None  # a number

# %%
counted = Agent(four_round_manager(), registry, SYSTEM_PROMPT)
counted.run({"question": QUESTION})
size = len(counted.memory.messages())
if answer_3 is None:
    print("not answered yet: set answer_3 to a number, then run this cell again")
elif answer_3 == size:
    print(f"correct: {size} messages")
else:
    print("not quite, hint: 1 system + 1 question + 4 replies + one answer slip per errand")

# %% [markdown]
# ## Your model, same cards
#
# With `MINGRAPH_LLM` set to a live model, the same two columns for *its* run. The cards follow the
# same rules; only the number of flips changes.

# %%
# NBVAL_IGNORE_OUTPUT
# (the output depends on the active model: MINGRAPH_LLM, scripted by default)
from mingraph_lite import make_llm

llm = make_llm()
mine = Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=6)
try:
    outcome = mine.run({"question": QUESTION})["answer"]
except StepLimitReached as e:
    outcome = f"no answer: {e}"
print(f"model: {llm.name}")
for card, size in mine.cards:
    print(f"{card:<14} | {size:>2} messages")
print(f"outcome: {outcome}")

# %% [markdown]
# ## What is still open
#
# - **Nobody can watch.** We printed the cards by reading `agent.cards` after the run, and `ConsoleLogger`
#   was handed in without the agent knowing what it does. Notebook 03 is about those listeners: one method
#   per announcement, and a broken listener that cannot change the run.
# - **Retrying a tool that failed** for operational reasons (the service is down) is not built: the run
#   stops and the caller decides.
# - **A subagent that hits its limit** raises `StepLimitReached` into its parent. Right for a direct caller;
#   a parent agent calling a subagent as a tool has to catch it (notebook 06).
# - **The folder carries over between runs**: here that is what let run 2 continue after run 1 failed. For
#   unrelated tasks it is baggage, and it is read (and paid for) every round (notebook 06).
# - **Cards or arrows?** LangChain's agent does not use cards: it is a graph whose "what comes next" sits
#   on the arrows between nodes. Notebook 05 builds that version.
