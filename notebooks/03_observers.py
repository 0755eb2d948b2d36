# %% [markdown]
# # 03 · The announcer and the platform
#
# **By the end of this notebook you will be able to**
#
# - explain the Observer pattern with one picture: a railway announcer who does not know who is on the platform;
# - write a listener with one method per announcement, and say why that beats one `hear(event, detail)` method;
# - plug in the package's three listeners (`ConsoleLogger`, `EventRecorder`, `TraceRecorder`) and read a trace
#   file back;
# - show that a run is the same with any listeners, none, or a broken one, and where that promise costs you;
# - watch a run live in the `FolderView` and `CardTimeline` widgets.
#
# Every run here uses a **scripted manager** (no model, no network), so the outputs are the same everywhere.

# %% [markdown]
# ## The picture: a railway station
#
# The announcer says "train 12627 arriving on platform 3". They don't know who is listening, or whether anyone
# is. A passenger picks up a bag, a tea seller walks over, a porter gets ready. With an empty platform the train
# still arrives on time, and no listener can change its timetable by hearing the announcement.
#
# Our agent loop is the announcer. "The model replied" and "an errand finished" are announcements. A logger, a
# test's recorder and a trace file are people on the platform. Let's build that in a few lines of plain Python
# first.

# %%
import io
import logging
from pathlib import Path

from IPython.display import display

from mingraph_lite import (Agent, ConsoleLogger, EventRecorder, Observer, SystemMessage, TraceRecorder,
                           UserMessage, read_trace)
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry

registry = weather_registry()
print("question:", QUESTION)
print("tools on the menu:", registry.names)
print("manager:", four_round_manager())


# %% [markdown]
# ## The naive announcer: one `hear(event, detail)` per listener
#
# The tiny loop below reads the folder to the manager, runs the errands on the slips, and after each thing that
# happens calls `announce(event, detail)`. Each listener has a single method, `hear`, and sorts the
# announcements itself.
#
# Two listeners sign up: a **supervisor** who prints what happens, and **accounts**, who only counts errands.
#
# **Predict first:** with the four-round manager (both lookups, then one conversion per round), how many errands
# will accounts count? Write your guess here: ...

# %%
def tiny_run(llm, registry, question, listeners=()):
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]

    def announce(event, detail):
        for listener in listeners:
            listener.hear(event, detail)

    for step in range(1, 11):
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        slips = [c.name for c in response.message.tool_calls]
        announce("manager replied", f"(asks for {', '.join(slips)})" if slips else response.message.content)
        if not slips:
            announce("call over", response.message.content)
            return folder
        for call in response.message.tool_calls:
            result = registry.run(call)
            folder.append(result)
            announce("errand done", f"{call.name}({call.arguments}) -> {result.content}")
    raise RuntimeError("no answer after 10 model calls")


class Supervisor:
    def hear(self, event, detail):
        if event == "errand done":
            print("  [supervisor] errand done:", detail)
        elif event == "manager replied":
            print("  [supervisor] manager replied:", detail)
        elif event == "call over":
            print("  [supervisor] call over")


class Accounts:
    def __init__(self):
        self.errands = 0

    def hear(self, event, detail):
        if event == "errand done":
            self.errands += 1


accounts = Accounts()
with_listeners = tiny_run(four_round_manager(), registry, QUESTION, [Supervisor(), accounts])
print("  [accounts] errands run:", accounts.errands)

print("--- empty platform ---")
empty = tiny_run(four_round_manager(), registry, QUESTION)
print("  (nothing printed: nobody was listening)")
print("same folder both times:", [m.to_dict() for m in with_listeners] == [m.to_dict() for m in empty])


# %% [markdown]
# The announcer never asked who was listening, and the empty platform changed nothing. That is the Observer
# pattern.
#
# But look inside each listener: `if event == ... elif event == ...`. That is the sticky-note rulebook from
# notebook 02 again, now copied into every listener. Here is what it costs. A third listener, written by a
# colleague, counts errands too, but spells the event the way they remember it:

# %%
class Auditor:
    def __init__(self):
        self.errands = 0

    def hear(self, event, detail):
        if event == "errand finished":      # the announcer says "errand done"
            self.errands += 1


auditor = Auditor()
tiny_run(four_round_manager(), registry, QUESTION, [auditor])
print("auditor counted errands:", auditor.errands)
print("errors raised: none. The list of announcements exists only as strings inside the announcer.")


# %% [markdown]
# Zero, and nothing complained. Worse, when the announcer learns a new announcement ("errand failed"), every
# listener that cares has to grow one more `elif`, and nobody can find out which announcements exist without
# reading the announcer's code.
#
# ## The idea, inline: one method per announcement
#
# Give the platform a base class with one method per announcement, each doing nothing. A listener overrides only
# what it cares about. The announcer calls the method by name. Now the list of announcements lives in one place
# (the base class), and a typo can be found mechanically.

# %%
class Listener:
    def on_errand_done(self, detail): pass
    def on_manager_replied(self, detail): pass
    def on_call_over(self, detail): pass


class ErrandCounter(Listener):
    def __init__(self):
        self.errands = 0

    def on_errand_done(self, detail):      # the only announcement it cares about
        self.errands += 1


class TypoCounter(Listener):
    def on_errand_finished(self, detail):  # the same typo as before
        pass


def unknown_hooks(listener):
    return [n for n in vars(type(listener)) if n.startswith("on_") and not hasattr(Listener, n)]


def method_announce(listeners, event, detail):
    for listener in listeners:
        getattr(listener, "on_" + event.replace(" ", "_"))(detail)


counter = ErrandCounter()
for line in ["errand done", "errand done", "manager replied", "call over"]:
    method_announce([counter, TypoCounter()], line, "...")
print("errands counted:", counter.errands)
print("hooks the base class doesn't have, per listener:",
      {type(x).__name__: unknown_hooks(x) for x in (counter, TypoCounter())})

# %% [markdown]
# ## The package's version: `Observer`
#
# `mingraph_lite.Observer` is that base class, with one no-op method per announcement of an agent run (and two
# more for graph runs, in notebook 05). The `Agent` announces in this order: `on_run_start`, then per model call
# `on_step_start` and `on_model_reply`, then per slip `on_tool_call` and `on_tool_return` (or `on_tool_error`
# for a tool that failed), and finally `on_finish(answer, reason)`.

# %%
from mingraph_lite.observers.base import HOOKS

for hook in HOOKS:
    print(f"{hook:16} {getattr(Observer, hook).__doc__}")

# %% [markdown]
# ## Listener 1: `ConsoleLogger`, for a person reading along
#
# **Predict first:** how many `[step ...]` lines will the four-round run print? Write your guess here: ...

# %%
agent = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[ConsoleLogger()])
result = agent.run({"question": QUESTION})
print("\nanswer:", result["answer"])

# %% [markdown]
# `tokens in=? out=? thinking=?`: a scripted manager reports no token counts, and the logger prints `?` rather
# than guess a number. (Notebook 04 is about who reports what.)
#
# ## Listener 2: `EventRecorder`, events as data (for tests and plots)
#
# A test does not want printed text; it wants the exact order of events, as data.

# %%
recorder = EventRecorder()
Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
print(recorder, "\n")
print(" ".join(recorder.names()), "\n")


def detail(e):
    """What a reader wants from one event, in a few words."""
    if e["event"] == "model_reply":
        slips = [c["name"] for c in e["message"]["tool_calls"]]
        return f"asks for {', '.join(slips)}" if slips else repr(e["message"]["content"])
    if e["event"] == "tool_call":
        return f"{e['name']} {e['arguments']}"
    if e["event"] == "tool_return":
        return f"{e['name']} -> {e['content']!r}"
    if e["event"] == "finish":
        return f"{e['reason']}: {e['answer']!r}"
    return ""


print(f"{'step':>4}  {'event':12}  detail")
for e in recorder.events:
    print(f"{e['step'] or '-':>4}  {e['event']:12}  {detail(e)}")

# %% [markdown]
# ## Listener 3: `TraceRecorder`, a file that outlives the run
#
# A model's mistake may happen once and never again, so the recording has to be running *before* you know there
# is a bug. `TraceRecorder(path)` appends one JSON object per announcement, one per line (JSON Lines), opening
# and closing the file for each line: a crash keeps every line written before it. `read_trace(path)` reads it
# back.

# %%
TRACE = Path("traces/03_three_rounds.jsonl")
TRACE.unlink(missing_ok=True)             # start afresh, so re-running this cell gives the same file

traced = Agent(three_round_manager(), registry, SYSTEM_PROMPT, observers=[TraceRecorder(TRACE)])
traced.run({"question": QUESTION})
events = read_trace(TRACE)
print(f"{len(events)} lines in {TRACE}")
print("keys on every line:", sorted(set.intersection(*(set(e) for e in events)) - {"event"}))
print("(run_id and ts differ on every run, so they are not printed here)\n")

# %% [markdown]
# Most lines are bookkeeping. The lines that matter for "is the answer right?" are the answer slips and the
# final reply:

# %%
for e in events:
    if e["event"] == "tool_return":
        print(f"seq {e['seq']:>2}  step {e['step']}  tool_return  {e['name']} answered {e['content']!r}")
    elif e["event"] == "model_reply" and not e["message"]["tool_calls"]:
        print(f"seq {e['seq']:>2}  step {e['step']}  model_reply  {e['message']['content']!r}")

# %% [markdown]
# ### Exercise 1: how many lines?
#
# The trace above came from the **three-round** manager (both lookups in round 1, both conversions in round 2,
# the answer in round 3) and has 16 lines. How many lines will one run of the **four-round** manager write (one
# conversion per round)? Count the announcements: one `run_start`, then per model call ..., per slip ..., one
# `finish`.

# %%
trace_lines = None  # your answer, e.g. 12


# %%
def check_trace_lines(answer):
    path = Path("traces/03_exercise.jsonl")
    path.unlink(missing_ok=True)
    agent = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[TraceRecorder(path)])
    agent.run({"question": QUESTION})
    truth = len(read_trace(path))
    if answer is None:
        return "not answered yet"
    if answer == truth:
        return "correct"
    return ("not quite, hint: 1 run_start + 4 model calls x (step_start + model_reply) "
            "+ 4 slips x (tool_call + tool_return) + 1 finish")


print(check_trace_lines(trace_lines))


# %% [markdown]
# ## A broken listener, and the run unchanged
#
# Listeners are someone else's code, and code has bugs. If a listener's exception travelled up through the loop,
# a listener could stop the run, which means a listener could change it. So the agent calls each listener inside
# its own `try`: the failure is logged as a warning and the run goes on. A passenger trips on the platform; the
# train doesn't stop.
#
# **Predict first:** this listener raises on *every* announcement. Will the run still answer? With the same
# folder?

# %%
class Broken(Observer):
    def _boom(self, *args):
        raise RuntimeError("this listener is broken")

    on_run_start = on_step_start = on_model_reply = _boom
    on_tool_call = on_tool_return = on_tool_error = on_finish = _boom


class CountWarnings(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        listener, hook = record.args[:2]
        self.messages.append(f"{type(listener).__name__} failed in {hook}, skipped")


# Catch the warnings ourselves: they carry tracebacks with machine-specific paths.
announce_log = logging.getLogger("mingraph_lite.observers.announce")
caught = CountWarnings()
announce_log.addHandler(caught)
announce_log.propagate = False
try:
    calm = Agent(four_round_manager(), registry, SYSTEM_PROMPT)
    shaken = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[Broken()])
    calm_answer = calm.run({"question": QUESTION})["answer"]
    shaken_answer = shaken.run({"question": QUESTION})["answer"]
finally:
    announce_log.removeHandler(caught)
    announce_log.propagate = True

print("answer without listeners:  ", calm_answer)
print("answer with a broken one:  ", shaken_answer)
same = [m.to_dict() for m in calm.memory.messages()] == [m.to_dict() for m in shaken.memory.messages()]
print("same folder:", same)
print(f"warnings logged: {len(caught.messages)}, the first: {caught.messages[0]}")

# %% [markdown]
# The cost of that rule: a broken *recorder* silently loses its part of the record, and the only sign is a
# warning in the logs. An audit log that must record every tool call needs the opposite rule, so the agent has a
# `strict` switch:

# %%
strict = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[Broken()], strict=True)
try:
    strict.run({"question": QUESTION})
except RuntimeError as error:
    print(f"strict=True: the run stopped: {type(error).__name__}: {error}")

# %% [markdown]
# ## With and without listeners: the same folder
#
# All the listeners of this notebook on one platform (the console print captured in a string, so it doesn't fill
# the page), against an empty platform:

# %%
Path("traces/03_all.jsonl").unlink(missing_ok=True)
printed = io.StringIO()
everyone = [ConsoleLogger(stream=printed), EventRecorder(), TraceRecorder("traces/03_all.jsonl"), Broken()]

announce_log.disabled = True   # the broken listener's warnings were shown above
try:
    busy = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=everyone)
    busy_answer = busy.run({"question": QUESTION})
finally:
    announce_log.disabled = False
silent = Agent(four_round_manager(), registry, SYSTEM_PROMPT)
silent_answer = silent.run({"question": QUESTION})

busy_folder = [m.to_dict() for m in busy.memory.messages()]
silent_folder = [m.to_dict() for m in silent.memory.messages()]
print(f"{'':22}{'4 listeners':>14}{'none':>8}")
print(f"{'messages in folder':22}{len(busy_folder):>14}{len(silent_folder):>8}")
print(f"{'console lines':22}{printed.getvalue().count(chr(10)):>14}{0:>8}")
print(f"{'recorded events':22}{len(everyone[1].events):>14}{0:>8}")
print("same answer:", busy_answer == silent_answer, "| same folder:", busy_folder == silent_folder)


# %% [markdown]
# ### Exercise 2: a listener that only cares about tools
#
# Write `ToolTally`, a listener that counts how often each tool was *asked for*, by name, in `self.counts`
# (`{"get_weather": ..., "to_fahrenheit": ...}`). Override only the one hook you need, and nothing else.

# %%
class ToolTally(Observer):
    def __init__(self):
        self.counts = {}

    # your hook here: def on_...(self, ...):


tally = ToolTally()
tallied = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[tally]).run({"question": QUESTION})


# %%
def check_tally(listener):
    own = [n for n in vars(type(listener)) if n.startswith("on_")]
    if not own:
        return "not answered yet"
    if listener.counts == {"get_weather": 2, "to_fahrenheit": 2} and own == ["on_tool_call"]:
        return "correct"
    if listener.counts == {"get_weather": 2, "to_fahrenheit": 2}:
        return f"right counts; hint: you overrode {own}, but on_tool_call alone is enough"
    return f"not quite (got {listener.counts}), hint: on_tool_call(self, call) gets a ToolCall with .name"


print(check_tally(tally))

# %% [markdown]
# ## Watching a run live: `FolderView` and `CardTimeline`
#
# Two listeners draw the two meanings of "state" from notebook 02 while the run happens: `FolderView` is the
# folder (every message the manager is read; it only grows), `CardTimeline` is the card in hand (calling the
# model, running tools, finished; it flips back and forth). They are ordinary listeners: the agent doesn't know
# they are there.
#
# The manager below waits a quarter of a second before each reply, so you can watch the cards flip. The next
# cell prints the same views as plain text.

# %%
import time

from mingraph_lite import CardTimeline, FolderView


class SlowManager:
    """A scripted manager that takes its time, like a real one."""

    def __init__(self, llm, seconds):
        self.llm, self.seconds = llm, seconds

    def generate(self, messages, tools):
        time.sleep(self.seconds)
        return self.llm.generate(messages, tools)


folder_view, timeline = FolderView(), CardTimeline()
display(timeline, folder_view)
watched = Agent(SlowManager(three_round_manager(), 0.25), registry, SYSTEM_PROMPT,
                observers=[timeline, folder_view])
watched_answer = watched.run({"question": QUESTION})

# %%
print(timeline.text())
print()
print(folder_view.text())

# %% [markdown]
# ## Your model, on the record
#
# With `MINGRAPH_LLM` set to a live model, record its run before you know whether anything goes wrong:
# a model's mistake may not come back on the next try. The trace lands in `traces/03_your_model.jsonl`.

# %%
# NBVAL_IGNORE_OUTPUT
# (the output depends on the active model: MINGRAPH_LLM, scripted by default)
from mingraph_lite import StepLimitReached, make_llm

llm = make_llm()
yours = Path("traces/03_your_model.jsonl")
yours.unlink(missing_ok=True)
try:
    Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[TraceRecorder(yours)], max_steps=6).run(
        {"question": QUESTION})
except StepLimitReached as stop:
    print(f"no answer: {stop}")
print(f"model: {llm.name}")
for e in read_trace(yours):  # the same reading as the recorder's events above: one format everywhere
    print(f"{e['step'] or '-':>4}  {e['event']:12}  {detail(e)[:80]}")

# %% [markdown]
# ## What is still open
#
# - **A broken listener loses data quietly.** The run is protected, the record is not; only a warning says the
#   trace has gaps. `strict=True` flips the rule for audit logs, at the price of a listener being able to stop
#   the run.
# - **Run numbers restart per listener.** Runs appended to one trace file from several processes are told apart
#   by `run_id` (unique across processes) and time, not by the `run` number.
# - **Listeners see the envelope, not just the message.** `on_model_reply` receives the whole `LLMResponse`:
#   token counts and, when the provider sends it, the model's thinking. Notebook 04 uses that to find *why* a
#   run went wrong, and the trace file to find *where*.
# - **Graph runs announce more.** `on_node_start` and `on_node_end` exist for notebook 05; the same listeners
#   plug in there unchanged.
