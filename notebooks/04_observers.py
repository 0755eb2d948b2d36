# %% [markdown]
# # 04 · The announcer and the platform
#
# **By the end of this notebook you will be able to**
#
# - explain the Observer pattern with a railway announcer;
# - write listeners with one method per announcement, and say why;
# - keep a run in a JSON Lines file, and read a trace back;
# - say what the agent guarantees against a broken listener;
# - watch a run live in the `FolderView` and `CardTimeline` widgets.
#
# **Prerequisites:** notebooks 01 to 03.
# **Time:** about 88 minutes (estimated from length: see "How long" in 00).
#
# Every run here uses a **scripted manager**, so outputs are the same everywhere. The
# railway picture, the rule for broken listeners and the trace file come from the article "The State and Observer
# Patterns in a Python Agent Loop" (author not named in our copy).

# %% [markdown]
# ## The picture: a railway station
#
# The announcer says "train 12627 arriving on platform 3", not knowing who listens. An empty platform does not delay the
# train, and hearing the announcement does not change its timetable (tested below). Our
# agent loop is the announcer; "the model replied" is an announcement; a logger, a recorder and a trace file are
# people on the platform.

# %%
# %matplotlib inline
import io
from pathlib import Path

import matplotlib.pyplot as plt
from IPython.display import display

from mingraph_lite import (Agent, CardTimeline, ConsoleLogger, EventRecorder, FolderView, Observer, ScriptedLLM,
                           SystemMessage, TraceRecorder, UserMessage, read_trace, HOOKS)
from lessons.exercises import check
from lessons.platform import (SlowManager, draw_platform, listener_warnings, recorded_outcome, show_events, show_hooks,
                              show_waits)
from lessons.predict import reveal
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry

registry = weather_registry()
print("question:", QUESTION, "\ntools on the menu:", registry.names, "| manager:", four_round_manager())


# %% [markdown]
# ## The naive announcer: one `hear(event, detail)` per listener
#
# The tiny loop below calls `announce(event, detail)` after each step. Each listener's one method, `hear`, sorts
# the announcements itself: a **supervisor** prints what happens, **accounts** counts errands.
#
# **Predict first:** with the four-round manager (both lookups in round 1, then one conversion per round), how many
# errands will accounts count?

# %%
guess_errands = ...  # your guess: a whole number


# %%
def tiny_run(llm, registry, question, listeners=()):
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]

    def announce(event, detail):
        for listener in listeners:
            listener.hear(event, detail)

    for _ in range(10):
        reply = llm.generate(folder, registry.tools).message
        folder.append(reply)
        announce("manager replied", [call.name for call in reply.tool_calls] or reply.content)
        if not reply.tool_calls:
            return folder
        for call in reply.tool_calls:
            folder.append(registry.run(call))
            announce("errand done", f"{call.name}({call.arguments}) -> {folder[-1].content}")
    raise RuntimeError("no answer after 10 model calls")


class Supervisor:
    def hear(self, event, detail):
        print(f"  [supervisor] {event}:", detail)


class Accounts:
    def __init__(self):
        self.errands = 0

    def hear(self, event, detail):
        if event == "errand done":
            self.errands += 1


accounts = Accounts()
with_listeners = tiny_run(four_round_manager(), registry, QUESTION, [Supervisor(), accounts])
empty = tiny_run(four_round_manager(), registry, QUESTION)  # the empty platform: nothing is printed
print("same folder both times:", [m.to_dict() for m in with_listeners] == [m.to_dict() for m in empty])
reveal(guess_errands, accounts.errands, "errands accounts counted")


# %% [markdown]
# The announcer never asked who listens; the empty platform changed nothing. That is the Observer pattern. But each listener sorts with `if event == ...`, notebook 02's sticky-note rulebook
# copied into every listener. The cost: a colleague's counter that misspells the event.

# %%
class Auditor(Accounts):
    def hear(self, event, detail):
        if event == "errand finished":      # the announcer says "errand done"
            self.errands += 1


auditor = Auditor()
tiny_run(four_round_manager(), registry, QUESTION, [auditor])  # no exception: nothing complains
print("auditor counted errands:", auditor.errands)


# %% [markdown]
# Zero, and nothing complained: the announcements are mere strings.
#
# ## The idea, inline: one method per announcement
#
# Give the platform a base class with one do-nothing method per announcement; a listener overrides the ones it
# cares about. With the announcements listed in one place, a typo *can* be found: `unknown_hooks` compares a
# listener's `on_` methods with the base class's.

# %%
class Listener:
    def on_errand_done(self, detail): pass
    def on_manager_replied(self, detail): pass


class ErrandCounter(Listener):
    def __init__(self):
        self.errands = 0

    def on_errand_done(self, detail):      # the only announcement it cares about
        self.errands += 1


class TypoCounter(Listener):
    def on_errand_finished(self, detail): pass  # the same typo as before


def unknown_hooks(listener, base=Listener):
    return [n for n in vars(type(listener)) if n.startswith("on_") and not hasattr(base, n)]


counter = ErrandCounter()
for event in ["errand done", "errand done", "manager replied"]:
    for listener in [counter, TypoCounter()]:
        getattr(listener, "on_" + event.replace(" ", "_"))("...")  # the announcer calls the method by name
print("counted:", counter.errands, "| unknown:", {type(x).__name__: unknown_hooks(x) for x in (counter, TypoCounter())})
assert counter.errands == 2 and unknown_hooks(TypoCounter()) == ["on_errand_finished"]  # the typo, found

# %% [markdown]
# ## The package's version: `Observer`
#
# `mingraph_lite.Observer` is that base class, with one no-op method per announcement; `HOOKS` lists them. An
# agent run announces `on_run_start`, then per model call `on_step_start` and `on_model_reply`, then per slip
# `on_tool_call` and `on_tool_return`, and finally `on_finish(answer, reason)`; `on_tool_error` (below) and
# `on_memory_call` (notebook 10) come later. Only a graph (notebook 07) announces the other two, `on_node_start`
# and `on_node_end`: an agent run has 8 announcements, the 8 the platform picture below draws.

# %%
show_hooks()  # each of HOOKS with its arguments and docstring's first line, then fields (lessons/platform.py)
assert len(HOOKS) == 10 and len([hook for hook in HOOKS if not hook.startswith("on_node")]) == 8

# %% [markdown]
# Does the package catch such a typo? The `Auditor`'s typo, on the package's `Observer`:

# %%
class ReturnCounter(Observer):
    def __init__(self):
        self.returns = 0

    def on_tool_returned(self, result):   # the package announces on_tool_return
        self.returns += 1


typo = ReturnCounter()
with listener_warnings() as warned:
    Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[typo]).run({"question": QUESTION})
print("returns counted:", typo.returns, "| warnings:", len(warned), "| unknown:", unknown_hooks(typo, Observer))
assert typo.returns == 0 and not warned and unknown_hooks(typo, base=Observer) == ["on_tool_returned"]

# %% [markdown]
# Zero, and no warning: **the package does not check**; `unknown_hooks` names the typo (and checks your 04.1).
#
# ## Listener 1: `ConsoleLogger`, for a person reading along
#
# **Predict first:** how many `[step ...]` lines will the four-round run print?

# %%
guess_step_lines = ...  # your guess: a whole number

# %%
printed = io.StringIO()
Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[ConsoleLogger(stream=printed)]).run({"question": QUESTION})
print(printed.getvalue())
step_lines = [line for line in printed.getvalue().splitlines() if line.startswith("[step")]
reveal(guess_step_lines, len(step_lines), "[step ...] lines printed (one per model call)")

# %% [markdown]
# ## Listener 2: `EventRecorder`, events as data

# %%
recorder = EventRecorder()
Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
print(" ".join(recorder.names()), "\n")
show_events(recorder.events)  # each event's step, name and a few of its fields (lessons/platform.py)

# %% [markdown]
# ### When a tool fails: more announcements for its slip
#
# A third tool, `get_humidity`, is down; the scripted manager asks for it, then for Paris's weather, in one reply.

# %%
failing_menu = weather_registry()


@failing_menu.add
def get_humidity(city: str) -> str:
    """Get the relative humidity for a city, in percent (its service is down today)."""
    raise ConnectionError("humidity service down")


failed_run = EventRecorder()
humid = ScriptedLLM([[("get_humidity", {"city": "Paris"}), ("get_weather", {"city": "Paris"})]], name="scripted")
try:
    Agent(humid, failing_menu, SYSTEM_PROMPT, observers=[failed_run]).run({"question": "How humid is Paris?"})
except ConnectionError as error:
    print(f"the caller hears: {type(error).__name__}: {error}\n")
after_reply = failed_run.events[failed_run.names().index("tool_call"):]
show_events(after_reply)
assert [e["event"] for e in after_reply] == ["tool_call", "tool_error", "tool_return", "tool_return", "finish"]

# %% [markdown]
# ## Listener 3, by your hand: a file that outlives the run
#
# A model's mistake may not happen twice, so the recording must run *before* you know of a bug, and
# outlive the kernel. The format is **JSON Lines**, one JSON object per line, with three rules:
#
# 1. **one line per announcement**, each a JSON object with an `"event"` key: the hook's name without `on_`
#    (`"run_start"`, `"step_start"`, `"model_reply"`, `"tool_call"`, `"tool_return"`, `"tool_error"`, `"finish"`);
# 2. **written when it is announced**: open the file, write the line, close it, so a crash at step 3 leaves every
#    earlier line in the file;
# 3. **appended, never overwritten**: a second run on the same file adds its lines after the first run's.
#
# ### Exercise 04.1: a listener that writes its own JSON Lines file
#
# Write `JsonLinesListener(path)`: an `Observer` that follows the three rules. Besides `"event"`, a `step_start`
# line carries `"step"`; a `tool_call` line `"name"` and `"arguments"`; a `tool_return` line `"name"` and
# `"content"`; a `finish` line `"answer"` and `"reason"`; a `tool_error` line needs only its `"event"`.
# (`json.dumps(a_dict)` makes a dict one line of text; the hooks' arguments and fields are printed above.) The check runs your listener on unseen runs, peeking at the file mid-run. It refuses lines
# spelled by a package recorder or its `event_dict`.

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
# `TraceRecorder(path)` follows the same three rules, writing every field of each announcement plus a format version `v`, a `run_id` unique across processes, a timestamp `ts` and a sequence number
# `seq`. `read_trace(path)` reads it back (and skips a last line torn by a crash).

# %%
TRACE = Path("traces/04_three_rounds.jsonl")
TRACE.unlink(missing_ok=True)             # start afresh, so re-running this cell gives the same file
Agent(three_round_manager(), registry, SYSTEM_PROMPT, observers=[TraceRecorder(TRACE)]).run({"question": QUESTION})
events = read_trace(TRACE)
print(f"{len(events)} lines in {TRACE}:", " ".join(e["event"] for e in events))
print("keys on every line:", sorted(set.intersection(*(set(e) for e in events)) - {"event"}))

# %% [markdown]
# ### Exercise 04.2: predict the lines, then run your listener
#
# The trace above came from the **three-round** manager (both lookups in round 1, both conversions in round 2,
# the answer in round 3). A **five-round** manager asks for one thing per round: Paris, Tokyo, one conversion, the
# other, then the answer. How many lines will your `JsonLinesListener` write for it? Count on paper; the
# check runs your 04.1.

# %%
five_round_lines = ...  # your prediction: a whole number

# %%
check("04.2", (five_round_lines, JsonLinesListener))

# %% [markdown]
# ## A listener that breaks, or meddles: the run unchanged
#
# Listeners are someone else's code, so the agent calls each inside its own `try ... except Exception`, logging a
# failure as a warning.
#
# **Predict first:** this listener raises on *every* announcement. Will the run still give the same answer, with
# the same folder?

# %%
guess_broken_same = ...  # your guess: True or False

# %%
class Broken(Observer):
    def _boom(self, *args):
        raise RuntimeError("this listener is broken")

    on_run_start = on_step_start = on_model_reply = on_tool_call = on_tool_return = on_tool_error = on_finish = _boom


def folder_of(agent):
    return [m.to_dict() for m in agent.memory.messages()]


calm = Agent(four_round_manager(), registry, SYSTEM_PROMPT)
shaken = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[Broken()])
calm_answer = calm.run({"question": QUESTION})["answer"]
with listener_warnings() as warned:  # the warnings, one short line each (the full ones carry tracebacks)
    shaken_answer = shaken.run({"question": QUESTION})["answer"]
print(f"answers: {calm_answer!r} without listeners, {shaken_answer!r} with a broken one; warnings: {len(warned)}")
reveal(guess_broken_same, (calm_answer, folder_of(calm)) == (shaken_answer, folder_of(shaken)), "same answer and folder")

# %% [markdown]
# Editing is the other way to meddle: a slip's `arguments` is a plain dict a listener could rewrite before the
# tool runs, were the slip the agent's own. The agent hands **each listener its own
# deep copy** instead (`tests/observers/test_announce.py`).
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
print("answer with a meddler:", meddled_answer, "| the next listener heard:",
      [e["arguments"]["city"] for e in heard.events if e.get("name") == "get_weather" and e["event"] == "tool_call"])
same = folder_of(calm) == folder_of(meddled) and meddled_answer == calm_answer
reveal(guess_meddled_same, same, "same answer and same folder")
assert same and "Cairo" not in str(heard.events)  # the copy is the meddler's

# %% [markdown]
# Beyond that, nothing is promised: a `BaseException` such as `KeyboardInterrupt` stops the run, so Ctrl-C works;
# a listener holding the agent can reach into its memory and change the run; a **slow** listener slows it (all
# three in `tests/notebooks/test_nb04_claims.py`). A broken *recorder* loses its part of the record with only a
# warning, so for an audit log the agent has a `strict` switch (LangChain's `raise_error`):

# %%
strict = Agent(four_round_manager(), registry, SYSTEM_PROMPT, observers=[Broken()], strict=True)
with listener_warnings():  # a warning logged while the run stops is caught as above, not printed
    try:
        strict.run({"question": QUESTION})
    except RuntimeError as error:
        print(f"strict=True: the run stopped: {type(error).__name__}: {error}")

# %% [markdown]
# ## Everybody on one platform
#
# Every listener above, an arrow per announcement it overrides:

# %%
broken = Broken()
draw_platform([ConsoleLogger(), EventRecorder(), TraceRecorder("traces/04_all.jsonl"), Meddler(), broken], broken=[broken])
plt.show()


# %% [markdown]
# ### Exercise 04.3: a ledger of what was asked for, and what came back
#
# Write `ToolLedger`, a listener that keeps two counts per tool name:
#
# - `self.asked`: the slips the model **asked for**: every slip it wrote, run or not;
# - `self.results`: the slips that came back with a **result**, not an error;
# - for the failed run above they would be `{"get_humidity": 1, "get_weather": 1}` and `{}`.
#
# Choose the announcements that carry each number. The check runs fresh ledgers on three unseen runs:
#
# - three lookups, a conversion, and a tool whose result text starts with "Error";
# - a bad slip and a failing tool;
# - two slips sharing a ticket number (their `id`), which the agent refuses with one answer slip.
#
# It refuses counts read from a package recorder.

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
# Two listeners draw notebook 03's two meanings of "state" as the run happens: `FolderView` the folder (it only
# grows), `CardTimeline` the card in hand. `SlowManager` waits a quarter second before each
# reply, so you can watch the cards flip.
#
# **Predict first:** how many cards will the timeline hold when the run is over, the last one included?

# %%
guess_timeline_cards = ...  # your guess: a whole number


# %%
folder_view, timeline = FolderView(), CardTimeline()
display(timeline, folder_view)
watched = Agent(SlowManager(three_round_manager(), 0.25), registry, SYSTEM_PROMPT, observers=[timeline, folder_view])
watched_answer = watched.run({"question": QUESTION})

# %% [markdown]
# As a snapshot a saved notebook can show:

# %%
display(timeline.snapshot(), folder_view.snapshot())

# %%
spans = timeline.snapshot(png=False).spans  # the timeline as data: one entry per card, in time order
sizes = [span.message_count for span in spans]
print("cards in hand:", " -> ".join(span.kind for span in spans), "| folder size at each:", sizes)
reveal(guess_timeline_cards, len(spans), "cards on the timeline")
assert [span.kind for span in spans].count("calling-model") == 3 and sizes == sorted(sizes)  # the folder only grows
assert all(span.seconds >= 0.25 for span in spans if span.kind == "calling-model")  # each model call waited 0.25 s

# %% [markdown]
# ## A real run, read back from its trace
#
# `CardTimeline.from_trace(path)` draws a recorded run from its timestamps. This trace is a **real** run of
# **Gemma 3 270M**: run #10 of the experiment `finish-right`, variant "worked example", temperature 0.7.

# %%
REAL = Path("../data/experiments/finish-right/gemma3-270m/traces/worked-example-10.jsonl")
display(CardTimeline.from_trace(REAL, run=1, widget=False).snapshot())

# %%
real_events = read_trace(REAL, run=1)
model_waits, tool_waits = show_waits(real_events)  # each model call's and tool's time, printed (lessons/platform.py)
assert max(tool_waits) < 0.001 and min(model_waits) > 1  # seconds a model call, under a millisecond a tool
assert len(real_events[0]["messages"]) == 10 and real_events[-1]["reason"] == "answered"

# %% [markdown]
# The folder held 10 messages from the start: the system prompt, a worked example's 8 (an exchange on two other
# cities), and the question. "answered" is why the loop stopped, not a verdict: the
# experiment's `results.csv` records this answer as wrong.

# %%
recorded = recorded_outcome(REAL)  # its answer, then its row in the experiment's results.csv (lessons/platform.py)
assert recorded["outcome"].startswith("wrong") and recorded["answer"] == real_events[-1]["answer"]


# %% [markdown]
# ## Questions
#
# Questions 1 to 3 are checked against a run.
#
# 1. One reply holds three slips: `get_weather`, then `get_humidity` (whose service is down), then
#    `to_fahrenheit`. Write the events the `EventRecorder` holds from the first `tool_call` to the end, in order.
# 2. A listener raises in `on_model_reply` only, and the four-round manager runs with `strict=False`. How many
#    warnings does the agent log?
# 3. The same four-round run with `strict=True` and a listener that raises in `on_tool_return` only. How many
#    tools actually run before the run stops?
# 4. Why is one method per announcement better than one `hear(event, detail)` method? Name two things it buys.
# 5. Which two announcements would you use to measure how long each model call took?

# %%
answer_q1 = ...  # a list of event names, e.g. ["tool_call", ...]
check("04.Q1", answer_q1)

# %%
answer_q2 = ...  # a number of warnings
check("04.Q2", answer_q2)

# %%
answer_q3 = ...  # a number of tools that ran
check("04.Q3", answer_q3)
