# %% [markdown]
# # 04 · The announcer and the platform
#
# **By the end of this notebook you will be able to**
#
# - explain the Observer pattern with one picture: a railway announcer who does not know who is on the platform;
# - write a listener with one method per announcement, and say why that beats one `hear(event, detail)` method;
# - write a listener that keeps a run in a JSON Lines file, use the package's `ConsoleLogger`, `EventRecorder`
#   and `TraceRecorder`, and read a trace back;
# - say exactly what the agent guarantees against a listener (its `Exception`s are logged, its edits stay in its
#   own copy) and what it does not (Ctrl-C, reaching into the agent, being slow, `strict=True`);
# - watch a run live in the `FolderView` and `CardTimeline` widgets, and keep a picture of it in the notebook.
#
# **Prerequisites:** notebooks 01 and 02 (the loop and its sticky note) and 03 (the cards and the folder).
# **Time:** about 110 minutes (estimated from length and exercises).
#
# Every run here uses a **scripted manager** (no model, no network), so the outputs are the same everywhere; each
# scripted manager says so in its name. The railway picture, the rule for broken listeners and the trace file come
# from the article "The State and Observer Patterns in a Python Agent Loop" (its author is not named in the copy
# this course was built from).

# %% [markdown]
# ## The picture: a railway station
#
# The announcer says "train 12627 arriving on platform 3", not knowing who is listening. A passenger picks up a
# bag, a porter gets ready. With an empty platform the train still arrives on time, and hearing the announcement
# does not change its timetable (a section below tests how far that holds).
#
# Our agent loop is the announcer; "the model replied" and "an errand finished" are announcements; a logger, a
# test's recorder and a trace file are people on the platform. First, in a few lines of plain Python.

# %%
# %matplotlib inline
import io
import time
from pathlib import Path

import matplotlib.pyplot as plt
from IPython.display import display

from mingraph_lite import (Agent, CardTimeline, ConsoleLogger, EventRecorder, FolderView, Observer, ScriptedLLM,
                           SystemMessage, TraceRecorder, UserMessage, read_trace)
from lessons.exercises import check
from lessons.platform import draw_platform, listener_warnings
from lessons.predict import reveal
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
# **Predict first:** with the four-round manager (both lookups in round 1, then one conversion per round), how many
# errands will accounts count? Write your guess in the next cell, then run the one after it.

# %%
guess_errands = ...  # your guess: a whole number


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
reveal(guess_errands, accounts.errands, "errands accounts counted")


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
# Zero, and nothing complained. And a new announcement ("errand failed") means one more `elif` in every listener
# that cares, while nobody can list the announcements without reading the announcer's code.
#
# ## The idea, inline: one method per announcement
#
# Give the platform a base class with one method per announcement, each doing nothing. A listener overrides what it
# cares about; the announcer calls the method by name. The list of announcements now lives in one place, so a typo
# *can* be found mechanically: `unknown_hooks` below compares a listener's `on_` methods with the base class's.

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


def unknown_hooks(listener, base=Listener):
    return [n for n in vars(type(listener)) if n.startswith("on_") and not hasattr(base, n)]


def method_announce(listeners, event, detail):
    for listener in listeners:
        getattr(listener, "on_" + event.replace(" ", "_"))(detail)


counter = ErrandCounter()
for line in ["errand done", "errand done", "manager replied", "call over"]:
    method_announce([counter, TypoCounter()], line, "...")
print("errands counted:", counter.errands)
print("hooks the base class doesn't have, per listener:",
      {type(x).__name__: unknown_hooks(x) for x in (counter, TypoCounter())})
assert counter.errands == 2 and unknown_hooks(TypoCounter()) == ["on_errand_finished"]  # the typo, found

# %% [markdown]
# ## The package's version: `Observer`
#
# `mingraph_lite.Observer` is that base class, with one no-op method per announcement of an agent run (and more
# for graph runs, in notebooks 06 and 07). The `Agent` announces in this order: `on_run_start`, then per model call
# `on_step_start` and `on_model_reply`, then per slip `on_tool_call` and `on_tool_return`, and finally
# `on_finish(answer, reason)`. A tool that fails adds one announcement, it does not replace one: its slip gets
# `on_tool_error` *and then* `on_tool_return` (with the error answer slip the agent puts in the folder), and the
# slips after it in the same reply each get an `on_tool_return` ("not run") without ever getting `on_tool_call`.
# The recorder section below shows it on a run.


# %%
import inspect

from mingraph_lite import HOOKS  # the one list of announcements

for hook in HOOKS:
    method = getattr(Observer, hook)
    arguments = str(inspect.signature(method)).replace("(self, ", "(").replace("(self)", "()").replace("'", "")
    print(f"{hook}{arguments}\n    {method.__doc__.splitlines()[0]}")  # each docstring's first line

# %% [markdown]
# Does the package run that comparison for you? A listener with the `Auditor`'s typo, on the package's `Observer`:

# %%
class ReturnCounter(Observer):
    def __init__(self):
        self.returns = 0

    def on_tool_returned(self, result):   # the package announces on_tool_return
        self.returns += 1


typo = ReturnCounter()
with listener_warnings() as warned:
    Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[typo]).run({"question": QUESTION})
print("tool returns counted:", typo.returns, "| warnings:", len(warned))
print("our unknown_hooks, against Observer:", unknown_hooks(typo, base=Observer))
assert typo.returns == 0 and not warned and unknown_hooks(typo, base=Observer) == ["on_tool_returned"]

# %% [markdown]
# Zero, and no warning. **The package does not check**: nothing looks for a method that is never called. But the
# check *can* be written, in one line: `unknown_hooks` against the package's base class names the typo (a cell
# after exercise 04.1 runs it on yours). Against a `hear(event, detail)` listener no such line exists.

# %% [markdown]
# ## Listener 1: `ConsoleLogger`, for a person reading along
#
# **Predict first:** how many `[step ...]` lines will the four-round run print?

# %%
guess_step_lines = ...  # your guess: a whole number

# %%
printed = io.StringIO()
agent = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[ConsoleLogger(stream=printed)])
result = agent.run({"question": QUESTION})
print(printed.getvalue())
print("answer:", result["answer"])
step_lines = [line for line in printed.getvalue().splitlines() if line.startswith("[step")]
reveal(guess_step_lines, len(step_lines), "[step ...] lines printed (one per model call)")

# %% [markdown]
# `tokens in=? out=? thinking=?`: a scripted manager reports no token counts, and the logger prints `?` rather
# than guess a number. (Notebook 05 is about who reports what.)
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
        return f"{e['name']} -> {e['content']!r}" + ("  (an error answer slip)" if e.get("is_error") else "")
    if e["event"] == "tool_error":
        return f"{e['call']['name']} raised {e['error_type']}: {e['error']}"
    if e["event"] == "finish":
        return f"{e['reason']}: {e['answer']!r}"
    return ""


print(f"{'step':>4}  {'event':12}  detail")
for e in recorder.events:
    print(f"{e['step'] or '-':>4}  {e['event']:12}  {detail(e)}")

# %% [markdown]
# ### When a tool fails: two announcements for its slip
#
# The same recorder on a run whose first tool fails. A third tool, `get_humidity`, joins the menu, and its service
# is down; the scripted manager asks for it first, then for Paris's temperature, in one reply.

# %%
failing_menu = weather_registry()


@failing_menu.add
def get_humidity(city: str) -> str:
    """Get the relative humidity for a city, in percent (its service is down today).

    Args:
        city: The city name.
    """
    raise ConnectionError("humidity service down")


failed_run = EventRecorder()
humid = ScriptedLLM([[("get_humidity", {"city": "Paris"}), ("get_weather", {"city": "Paris"})]],
                    name="scripted: asks for a tool that fails")
try:
    Agent(humid, failing_menu, SYSTEM_PROMPT, observers=[failed_run]).run({"question": "How humid is Paris?"})
except ConnectionError as error:
    print(f"the caller hears: {type(error).__name__}: {error}\n")
for e in failed_run.events[failed_run.names().index("tool_call"):]:
    print(f"{e['step'] or '-':>4}  {e['event']:12}  {detail(e)}")
after_reply = failed_run.names()[failed_run.names().index("tool_call"):]
assert after_reply == ["tool_call", "tool_error", "tool_return", "tool_return", "finish"]

# %% [markdown]
# The failing slip is announced three times: `tool_call`, `tool_error` (with the exception), then `tool_return`
# with the error answer slip that keeps the folder valid. The `get_weather` slip was never started: no `tool_call`
# line, only its "not run" answer slip. So a listener that counts `on_tool_call` does not count every slip the
# model wrote.

# %% [markdown]
# ## Listener 3, by your hand: a file that outlives the run
#
# A model's mistake may happen once and never again, so the recording has to run *before* you know there is a
# bug, and outlive the kernel. The format is **JSON Lines**: one JSON object per line. Three rules make it
# trustworthy:
#
# 1. **one line per announcement**, each a JSON object with an `"event"` key: the hook's name without `on_`
#    (`"run_start"`, `"step_start"`, `"model_reply"`, `"tool_call"`, `"tool_return"`, `"tool_error"`, `"finish"`);
# 2. **written when it is announced**: open the file, write the line, close it. If the program crashes at step 3,
#    every line before the crash is already with the operating system and stays in the file (a power cut can
#    still lose it, unless each write ends with `os.fsync`);
# 3. **appended, never overwritten**: a second run on the same file adds its lines after the first run's.
#
# ### Exercise 04.1: a listener that writes its own JSON Lines file
#
# Write `JsonLinesListener(path)`: an `Observer` that follows the three rules. Besides `"event"`, a `step_start`
# line carries `"step"`; a `tool_call` line `"name"` and `"arguments"`; a `tool_return` line `"name"` and
# `"content"`; a `finish` line `"answer"` and `"reason"`. (`import json`, then `json.dumps(a_dict)` turns a dict into
# one line of text; each hook's arguments are in the `HOOKS` printout above.) The check runs your listener on a run
# this notebook never shows, peeks at the file while the model is being called, reads the file back, then runs a
# second listener on the same file through a run whose tool fails. It refuses a listener that lets the package's
# `EventRecorder` or `TraceRecorder` hear the run, or has the package's `event_dict` (the helper `TraceRecorder`
# writes with) spell each line: the file would be right, but choosing what each line says is the exercise.

# %%
class JsonLinesListener(Observer):
    def __init__(self, path):
        self.path = Path(path)

    # your hooks here: def on_run_start(self, messages): ..., def on_step_start(self, step): ..., ...


# %%
check("04.1", JsonLinesListener)

# %%
assert not unknown_hooks(JsonLinesListener("traces/04_unused.jsonl"), base=Observer), "a hook the agent never calls"

# %% [markdown]
# ## The package's version: `TraceRecorder`
#
# `TraceRecorder(path)` follows the same three rules, writing every field of each announcement, plus four of its
# own on each line: a format version `v`, a `run_id` unique across processes, a timestamp `ts` and a sequence number
# `seq`. `read_trace(path)` reads it back (and skips a last line torn by a crash).

# %%
TRACE = Path("traces/04_three_rounds.jsonl")
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
# ### Exercise 04.2: how many lines?
#
# The trace above came from the **three-round** manager (both lookups in round 1, both conversions in round 2,
# the answer in round 3). Now picture a **five-round** manager that asks for one thing per round: Paris's
# temperature, then Tokyo's, then one conversion, then the other, then the answer. How many lines will one run of it
# write to a trace? Predict before running anything: count the announcements on paper (running a five-round
# manager would give the number, and teach nothing).

# %%
five_round_lines = ...  # your answer: a whole number

# %%
check("04.2", five_round_lines)

# %% [markdown]
# ## A listener that breaks, or meddles: the run unchanged
#
# Listeners are someone else's code, and code has bugs. If a listener's exception travelled up through the loop,
# a listener could stop the run. So the agent calls each listener inside its own `try ... except Exception`: the
# failure is logged as a warning and the run goes on. A passenger trips on the platform; the train doesn't stop.
#
# **Predict first:** this listener raises on *every* announcement. Will the run still give the same answer, with
# the same folder?

# %%
guess_broken_same = ...  # your guess: True or False

# %%
class Broken(Observer):
    def _boom(self, *args):
        raise RuntimeError("this listener is broken")

    on_run_start = on_step_start = on_model_reply = _boom
    on_tool_call = on_tool_return = on_tool_error = on_finish = _boom


calm = Agent(four_round_manager(), registry, SYSTEM_PROMPT)
shaken = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[Broken()])
calm_answer = calm.run({"question": QUESTION})["answer"]
with listener_warnings() as warned:  # the warnings, one short line each (the full ones carry tracebacks)
    shaken_answer = shaken.run({"question": QUESTION})["answer"]

print("answer without listeners:  ", calm_answer)
print("answer with a broken one:  ", shaken_answer)
same = [m.to_dict() for m in calm.memory.messages()] == [m.to_dict() for m in shaken.memory.messages()]
print("same folder:", same)
print(f"warnings logged: {len(warned)}, the first: {warned[0]}")
reveal(guess_broken_same, same and calm_answer == shaken_answer, "same answer and same folder")

# %% [markdown]
# Raising is one way to meddle; editing is the other. `on_tool_call` hands a listener the slip, whose `arguments`
# is a plain dict. Were it the agent's own object, a listener could rewrite the city before the tool runs. The
# agent hands **each listener its own deep copy** instead (`tests/observers/test_announce.py`).
#
# **Predict first:** this listener moves every lookup to Cairo. Same answer as the run without listeners?

# %%
guess_meddled_same = ...  # your guess: True or False


# %%
class Meddler(Observer):
    def on_tool_call(self, call):          # hears each slip just before it runs...
        call.arguments["city"] = "Cairo"   # ...and rewrites its copy


heard = EventRecorder()                    # a listener after the meddler: which city does it hear?
meddled = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[Meddler(), heard])
meddled_answer = meddled.run({"question": QUESTION})["answer"]
print("answer with a meddler:", meddled_answer)
print("the next listener heard:", [e["arguments"]["city"] for e in heard.events if e.get("name") == "get_weather"
                                   and e["event"] == "tool_call"])
same = [m.to_dict() for m in calm.memory.messages()] == [m.to_dict() for m in meddled.memory.messages()]
reveal(guess_meddled_same, same and meddled_answer == calm_answer, "same answer and same folder")
assert same and meddled_answer == calm_answer and "Cairo" not in str(heard.events)  # the copy is the meddler's

# %% [markdown]
# The guarantee, exactly: an exception derived from `Exception` is logged, and edits to what a listener is told
# stay in its copy. A `BaseException` such as `KeyboardInterrupt` goes up and stops the run, so Ctrl-C still works;
# a listener that keeps a reference to the agent and reaches into it (its memory, say) changes the run (both in
# `tests/notebooks/test_nb04_claims.py`). A listener can also be **slow**: the agent waits for each in turn. And a
# broken *recorder* silently loses its part of the record, with only a warning in the logs. An audit log that must
# record every tool call needs the opposite rule, so the agent has a `strict` switch:

# %%
strict = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[Broken()], strict=True)
with listener_warnings():  # a warning logged while the run stops is caught as above, not printed
    try:
        strict.run({"question": QUESTION})
    except RuntimeError as error:
        print(f"strict=True: the run stopped: {type(error).__name__}: {error}")

# %% [markdown]
# The agent keeps its listeners in a **tuple**, made when it is built: nobody can sign up in the middle of a run.

# %%
print("the agent keeps its listeners in a", type(strict.observers).__name__)
try:
    strict.observers.append(EventRecorder())
except AttributeError as error:
    print("signing one up later:", error)
assert isinstance(strict.observers, tuple)

# %% [markdown]
# LangChain's `BaseCallbackHandler` is the same pattern (`on_llm_start`, `on_tool_start`, ...), and its
# `raise_error` flag is our `strict` (`tests/notebooks/test_nb04_claims.py`).

# %% [markdown]
# ## With and without listeners: the same folder
#
# Everybody on one platform: the console logger (its print caught in a string, so it doesn't fill the page), the
# recorder, a trace file, a listener that only counts errands, and the broken one. The picture first: the announcer
# on the left with its announcements, and an arrow to each listener for each announcement it overrides.

# %%
class ErrandsRun(Observer):
    """The accounts department again, now with one method: it hears tool returns and nothing else."""

    def __init__(self):
        self.errands = 0

    def on_tool_return(self, result):
        self.errands += 1


Path("traces/04_all.jsonl").unlink(missing_ok=True)
printed = io.StringIO()
errands, everyone_recorder = ErrandsRun(), EventRecorder()
broken = Broken()
everyone = [ConsoleLogger(stream=printed), everyone_recorder, TraceRecorder("traces/04_all.jsonl"), errands, broken]
draw_platform(everyone, broken=[broken])
plt.show()

# %%
busy = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=everyone)
with listener_warnings() as warned:
    busy_answer = busy.run({"question": QUESTION})
silent = Agent(four_round_manager(), registry, SYSTEM_PROMPT)
silent_answer = silent.run({"question": QUESTION})

busy_folder = [m.to_dict() for m in busy.memory.messages()]
silent_folder = [m.to_dict() for m in silent.memory.messages()]
print(f"{'':24}{'5 listeners':>12}{'none':>8}")
print(f"{'messages in folder':24}{len(busy_folder):>12}{len(silent_folder):>8}")
print(f"{'console lines':24}{printed.getvalue().count(chr(10)):>12}{0:>8}")
print(f"{'recorded events':24}{len(everyone_recorder.events):>12}{0:>8}")
print(f"{'trace lines':24}{len(read_trace('traces/04_all.jsonl')):>12}{0:>8}")
print(f"{'errands counted':24}{errands.errands:>12}{'-':>8}")
print(f"{'warnings (broken one)':24}{len(warned):>12}{0:>8}")
assert busy_answer == silent_answer and busy_folder == silent_folder
print("same answer:", busy_answer == silent_answer, "| same folder:", busy_folder == silent_folder)


# %% [markdown]
# ### Exercise 04.3: a ledger of what was asked for, and what came back
#
# Whoever runs the tools wants two numbers per tool: how many slips the model **asked for** (every slip it wrote,
# whether it ran, failed, was refused or was never run), and how many came back with a **result** (an answer slip
# that is not an error). Write `ToolLedger`, a listener that keeps both, by tool name, in `self.asked` and
# `self.results`; for the failed run above they would be `{"get_humidity": 1, "get_weather": 1}` and `{}`.
# Choose the announcements that carry each number; the hooks and their arguments are listed above. The check runs
# fresh ledgers on three runs this notebook does not show: an ordinary one, one with a bad slip and a tool that
# fails before the last slip, and one where the model gives two slips the same ticket number (the agent refuses
# both with one answer slip). It refuses a ledger that lets one of the package's recorders hear the run and counts
# from its record (the check sees a recorder run): the point is to know which announcement says what.

# %%
class ToolLedger(Observer):
    def __init__(self):
        self.asked = {}    # tool name -> slips the model wrote for it
        self.results = {}  # tool name -> slips answered with a result, not an error

    # your hooks here


# %%
check("04.3", ToolLedger)

# %% [markdown]
# ## Watching a run live: `FolderView` and `CardTimeline`
#
# Two ordinary listeners draw the two meanings of "state" from notebook 03 as the run happens: `FolderView` is the
# folder (it only grows), `CardTimeline` is the card in hand (calling the model, running tools, finished).
#
# The manager below waits a quarter of a second before each reply, so you can watch the cards flip (in a running
# notebook; a saved copy shows no live widget, so the cell after it keeps a picture).
#
# **Predict first:** the three-round manager again. How many cards will the timeline hold when the run is over,
# counted in time order, the last one included?

# %%
guess_timeline_cards = ...  # your guess: a whole number


# %%
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

# %% [markdown]
# What the widgets showed at the end, kept as a snapshot: the timeline in time order (each card as long as it was
# in hand, with its duration and the folder size when it was picked up), the cards, and the folder. The durations
# are this machine's: the model calls are the quarter-second waits (the cell after it checks), the tools take almost
# no time.

# %%
display(timeline.snapshot(), folder_view.snapshot())

# %%
spans = timeline.snapshot(png=False).spans  # the timeline as data: one entry per card, in time order
print("cards in hand:", " -> ".join(span.kind for span in spans))
print("folder size when each card was picked up:", [span.message_count for span in spans])
reveal(guess_timeline_cards, len(spans), "cards on the timeline")
assert [span.kind for span in spans].count("calling-model") == 3  # three model calls: the three-round manager
sizes = [span.message_count for span in spans]
assert sizes == sorted(sizes) and all(span.seconds >= 0 for span in spans)  # the folder never shrinks
assert all(span.seconds >= 0.25 for span in spans if span.kind == "calling-model")  # each model call waited 0.25 s

# %% [markdown]
# ## A real run, read back from its trace
#
# `CardTimeline.from_trace(path)` draws a run recorded earlier, with durations from the trace's timestamps. The
# course ships traces of **real** runs of its local models under `data/experiments/`; nothing in them is scripted.
# This one is **Gemma 3 270M** (Q4_K_M weights, run in-process by llama.cpp). Its definition is `finish-right`,
# variant "worked example": a short exchange on two other cities sits in the folder before the question. It is
# run #10: temperature 0.7, seed 110, at most 6 model calls. It looked up both cities and asked for no conversion.
# Notebook 05 reads its answer line by line. No run of definition `finish-right` answers right.

# %%
REAL = Path("../data/experiments/finish-right/gemma3-270m/traces/worked-example-10.jsonl")
print("trace:", REAL.name)
display(CardTimeline.from_trace(REAL, run=1, widget=False).snapshot())

# %% [markdown]
# Read the timeline, then check it against the trace itself: the time between a `step_start` and its `model_reply`
# is the model at work, the time between a `tool_call` and its `tool_return` is the tool (and the listeners writing
# their lines).

# %%
from datetime import datetime


def seconds_between(a, b):
    return (datetime.fromisoformat(b["ts"]) - datetime.fromisoformat(a["ts"])).total_seconds()


real_events = read_trace(REAL, run=1)
pairs = list(zip(real_events, real_events[1:]))
model_waits = [seconds_between(a, b) for a, b in pairs if b["event"] == "model_reply"]
tool_waits = [seconds_between(a, b) for a, b in pairs if b["event"] == "tool_return"]
slips = [f"{c['name']}({c['arguments']})" for e in real_events if e["event"] == "model_reply"
         for c in e["message"]["tool_calls"]]
model = next(e["model"] for e in real_events if e["event"] == "model_reply")
print("model:", model, "| the run ended:", real_events[-1]["reason"])
print(f"model calls: {len(model_waits)}, each took {min(model_waits):.1f} s to {max(model_waits):.1f} s")
print(f"tool calls: {len(tool_waits)}, the slowest took {max(tool_waits) * 1000:.0f} ms")
print("slips, in order:", ", ".join(slips))
assert min(model_waits) > max(tool_waits)  # the paragraph below says so
assert [c.split("(")[0] for c in slips] == ["get_weather", "get_weather"]  # both cities, no conversion
first_card = CardTimeline.from_trace(REAL, run=1, widget=False).snapshot(png=False).spans[0]
assert first_card.message_count == len(real_events[0]["messages"]) == 10  # prompt, example (8), question
assert real_events[-1]["reason"] == "answered"

# %% [markdown]
# The time went into the model: each call took seconds, while a tool and the listeners writing their lines took
# milliseconds. The folder was already 10 messages long at the first card: the system prompt, the worked example's
# 8, and the question. To record your own model, build the `Agent` on `make_llm()` (from
# `mingraph_lite.course.scripts`, with `MINGRAPH_LLM` set) and give it a `TraceRecorder`.

# %% [markdown]
# ## What is still open
#
# A slow listener slows the run (a background writer fixes that, and loses lines when the process dies). Graph runs
# announce more: `on_node_start` and `on_node_end` (notebooks 06 and 07).

# %% [markdown]
# ## Questions
#
# Answer in a sentence or two, from what you ran above; the answers are in the course's solutions. Questions 1,
# 2 and 3 have a cell below: the check runs the code and compares your answer with what happened.
#
# 1. One reply holds three slips: `get_weather`, then `get_humidity` (whose service is down), then
#    `to_fahrenheit`. Write the events the `EventRecorder` holds from the first `tool_call` to the end, in order.
# 2. A listener raises in `on_model_reply` only, and the four-round manager runs with `strict=False`. How many
#    warnings does the agent log?
# 3. The same four-round run with `strict=True` and a listener that raises in `on_tool_return` only. How many
#    tools actually run before the run stops?
# 4. Why is one method per announcement better than one `hear(event, detail)` method? Name two things it buys.
# 5. Why does a trace listener open and close the file for every line, instead of once per run?
# 6. Which two announcements would you use to measure how long each model call took?
# 7. The agent keeps its listeners in a tuple. What could go wrong if a listener could sign up another listener
#    in the middle of a run?

# %%
answer_q1 = ...  # a list of event names, e.g. ["tool_call", ...]
check("04.Q1", answer_q1)

# %%
answer_q2 = ...  # a number of warnings
check("04.Q2", answer_q2)

# %%
answer_q3 = ...  # a number of tools that ran
check("04.Q3", answer_q3)
