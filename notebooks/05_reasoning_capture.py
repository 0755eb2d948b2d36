# %% [markdown]
# # 05 · Reasoning capture: reading a trace, and why a tool result should carry its unit
#
# **By the end of this notebook you will be able to**
#
# - say which slot of `LLMResponse` holds a model's thinking and which its thinking-token count, and which
#   provider fills which;
# - find where a run went wrong by reading its trace top to bottom for the **first wrong line**, say from that
#   line whose problem it is (the four cases), and write a trace rule the classifier does not have;
# - build a 95% interval for a share of runs from its definition, and say what 0 right out of 8 is worth;
# - run the `"18"` vs `"18°C"` experiment as a harness (many traced runs, each classified, resumable) from
#   Python or from a terminal, and compare result folders with an interval on every share;
# - tell apart a figure reported in an article, a scripted re-enactment, and runs of a real model.
#
# **Prerequisites:** notebooks 01 and 02 (the loop, the folder, slips and answer slips, what a run remembers)
# and 04 (listeners and trace files). Python: functions, dicts, list comprehensions.
#
# **Time:** about 85 minutes, exercises and questions included. This is our estimate, not a measurement: about
# 3,700 words of text at 200 words a minute (19 minutes), the code cells and what they print (25), three
# predictions (5), three exercises (28) and nine questions (8).
#
# **Sources.** The story, the four cases and the reported figures come from the article *The State and
# Observer Patterns in a Python Agent Loop* (its author is not named in our copy); we quote its figures as
# theirs. Runs marked *scripted* are written in advance, not a model. Runs marked *recorded* are real runs of
# the small local models the course ships, replayed from their trace files.

# %%
import io
import json
import math
import os
import shutil
from collections import Counter
from dataclasses import fields
from pathlib import Path

from IPython.display import Image, display

from mingraph_lite import (Agent, ConsoleLogger, EventRecorder, LLMResponse, ReplayLLM, ScriptedLLM,
                           StepLimitReached, ToolCall, ToolRegistry, TraceRecorder, read_trace)
from mingraph_lite.course.classify import classify
from mingraph_lite.course.compare import compare, reported_table
from lessons.exercises import check
from lessons.exercises.nb05 import london_manager, recorded, twice_manager
from mingraph_lite.course.experiments import run_experiment
from mingraph_lite.course.scripts import (QUESTION, SYSTEM_PROMPT, four_round_manager, looping_manager, number,
                                          wrong_tokyo_manager)
from mingraph_lite.course.weather import lookup, to_fahrenheit, weather_registry


def show(fig):
    """Show a matplotlib figure as a PNG image."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    display(Image(buffer.getvalue()))


print("question:", QUESTION)

# %% [markdown]
# ## The envelope: where thinking goes
#
# A listener's `on_model_reply` receives an `LLMResponse`: the message (which goes into the folder) inside an
# envelope of facts about the reply.

# %%
for f in fields(LLMResponse):
    where = "the folder: read back to the model every round" if f.name == "message" else "the envelope only"
    print(f"{f.name:17} {str(f.type):18} {where}")

# %% [markdown]
# Why is thinking on the envelope and not in the folder? Thinking runs to hundreds of tokens per call, and
# **the two providers this course talks to** (Ollama, and OpenAI's Chat Completions) do not need it sent back:
# the next round works without it. So listeners see it, and the folder does not pay for it again every round.
#
# That is a fact about these two, not about every provider. Anthropic's guide *Building with extended thinking*
# says that when Claude thinks and then calls a tool, the thinking block must go back, unchanged, in the same
# assistant turn as the tool call. OpenAI's cookbook *Better performance from reasoning models using the
# Responses API* recommends passing the reasoning items of earlier turns back (Responses API, not the Chat
# Completions API used here). An adapter for either would have to keep thinking in the folder.
#
# What each provider reports also differs. The article probed both SDKs directly; what it reported:

# %%
PROBE = [  # reported in "The State and Observer Patterns in a Python Agent Loop", from probing each SDK
    ("Ollama, qwen3.5:2b", "real: 434 output tokens -> 4", "full text", "none (inside the output count)"),
    ("OpenAI, gpt-5-mini", 'turn down only; "none" refused', "none in Chat Completions",
     "exact: reasoning_tokens"),
]
head = ("provider", "off switch", "thinking text", "separate token count")
widths = [max(len(row[i]) for row in [head, *PROBE]) for i in range(4)]
for row in [head, *PROBE]:
    print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)))

# %% [markdown]
# Each gives the half the other doesn't, so the envelope has one slot for the text and one for the count, and
# a provider fills what it has; `None` means **not reported**, never an estimate. Even where OpenAI does show
# something (a reasoning *summary*, through the Responses API), it is a summary written for you, not the
# reasoning itself: read it as a hint, not as a record.
#
# | slot | Ollama (thinking on) | OpenAI Chat Completions | scripted | local models here |
# |---|---|---|---|---|
# | `reasoning` | the thinking text | `None` | when the script says | `None` (they don't think aloud) |
# | `reasoning_tokens` | `None` (counted in the output) | the count | `None` | `None` |
#
# ## Record before you know there is a bug
#
# In the article, qwen3.5:2b with thinking on was asked our question. Both lookups came back right (18 and 24,
# Celsius), Paris was converted to 64°F, and the final answer said **Tokyo: 24°F**. Its step-3 thinking,
# printed by the console logger, said why: *"Tokyo is already in Fahrenheit, so I don't need to convert it."*
#
# The author then built the trace recorder and re-ran the same question six times, all recorded: **none of the
# six got Tokyo wrong** (reported in the article). A model's mistake may not come back when you look for it, so
# the trace has to be recording already. With recording on, a smaller model (qwen3.5:0.8b) made a related
# mistake on its first try, this time in a file; we come to it below.
#
# Here is a **scripted re-enactment** of the 2b run (`wrong_tokyo_manager`: replies written in advance, with the
# 2b run's thinking), recorded to a trace file as it happens.
#
# **Predict first.** How many model calls and how many tool calls will this run make, and which event (by name)
# will be the first wrong line of its trace? Write it in the next cell before you run the one after.

# %%
my_prediction = "..."  # e.g. "3 model calls, 4 tool calls, first wrong: tool_return"

# %%
TRACE = Path("traces/05_wrong_tokyo.jsonl")
TRACE.unlink(missing_ok=True)
agent = Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT,
              observers=[ConsoleLogger(), TraceRecorder(TRACE)])
answer = agent.run({"question": QUESTION})["answer"]
events = read_trace(TRACE)
kinds = Counter(e["event"] for e in events)
print(f"\nanswer: {answer}   (scripted re-enactment, not a model)")
print(f"model calls: {kinds['model_reply']}, tool calls: {kinds['tool_call']}")
assert (kinds["model_reply"], kinds["tool_call"]) == (3, 3)  # what the text below says


# %% [markdown]
# Three model calls and **three** tool calls: two lookups, then one conversion (Paris). Tokyo was never
# converted. Now the trace, numbered, one line per event:

# %%
def brief(e):
    """One trace line, shortened to what a reader checks."""
    if e["event"] == "model_reply":
        m = e["message"]
        slips = [(c["name"], c["arguments"]) for c in m["tool_calls"]]
        said = f"asks for {slips}" if slips else repr(m["content"])
        thinking = f"   thinking: {e['reasoning'][:55]!r}..." if e.get("reasoning") else ""
        return f"model_reply   {said}{thinking}"
    if e["event"] == "tool_call":
        return f"tool_call     {e['name']}({e['arguments']})"
    if e["event"] == "tool_return":
        return f"tool_return   {e['name']} answered {e['content']!r}"
    if e["event"] == "finish":
        return f"finish        {e['reason']}"
    return e["event"]


def print_trace(events):
    for n, e in enumerate(events, 1):
        print(f"{n:>2}  {brief(e)}")


print_trace(events)

# %% [markdown]
# ## The first wrong line
#
# **The convention.** Number the events of one run from 1 (line 1 is `run_start`). Read top to bottom, checking
# each line against what you know, and stop at the **first** line that is wrong; later lines are often wrong
# *because* of it, so they don't count. What "wrong" means, line by line:
#
# - a **slip** (`tool_call`) is wrong if it names a tool not on the menu, asks `get_weather` about a city the
#   question did not ask about, or asks `to_fahrenheit` about a number that **no `get_weather` answer slip
#   returned** (only `get_weather`'s numbers are Celsius: a number that came back from `to_fahrenheit` is
#   Fahrenheit already). A final reply before both lookups is wrong too: its numbers came from nowhere;
# - an **answer slip** (`tool_return`) is wrong if it differs from the teaching data (Paris 18°C, Tokyo 24°C)
#   or from the right conversion;
# - the **final reply** is wrong if it does not give each city's Fahrenheit (within 1°);
# - a run that ends without an answer never finished.
#
# Where the first wrong line sits tells you whose problem it is:
#
# | case | the first wrong line | whose problem | where to look |
# |---|---|---|---|
# | 1 | a **wrong slip** | the request | the prompt, the tool menu |
# | 2 | a right slip but a **wrong answer slip** | the tool | the tool's code |
# | 3 | every answer slip right, the **final reply wrong** | the reasoning | its thinking, what it held |
# | 4 | it **never finished** | the limit | what it kept asking for |
#
# `classify(events)` in `mingraph_lite.course.classify` applies exactly these rules:

# %%
verdict = classify(events)
print(f"outcome: {verdict.outcome} (case {verdict.case}), first wrong line: {verdict.line}")
print("why:", verdict.why)
wrong = events[verdict.line - 1]
print(f"\nline {verdict.line}: thinking = {wrong['reasoning']!r}")
for n, e in enumerate(events, 1):
    if e["event"] == "tool_return" and e["name"] == "get_weather":
        print(f"line {n}: what it held: get_weather answered {e['content']!r}")
assert verdict.case == 3 and "24" in [e["content"] for e in events if e["event"] == "tool_return"]

# %% [markdown]
# Every answer slip was right and the final reply was wrong: case 3, the reasoning. But look at what the model
# was holding for Tokyo: a bare `"24"`. We come back to that.
#
# One scripted run for each case (the tool in case 2 has a planted bug: it doubles every temperature):

# %%
buggy = ToolRegistry()


@buggy.add
def get_weather(city: str) -> str:
    """Get the current temperature for a city, in degrees Celsius (fixed teaching data).

    Args:
        city: The city name, for example "Paris".
    """
    return str(lookup(city)["celsius"] * 2)   # the planted bug


buggy.add(to_fahrenheit)
wrong_city = ScriptedLLM([[("get_weather", {"city": "London"})], "London: 57°F"], name="scripted: wrong city")
runs = [("asks about London", wrong_city, weather_registry(), 10),
        ("a buggy get_weather", four_round_manager(), buggy, 10),
        ("Tokyo already °F", wrong_tokyo_manager(), weather_registry(), 10),
        ("keeps asking", looping_manager(), weather_registry(), 3)]
print(f"{'scripted run':20} {'outcome':22} {'case':>4} {'line':>4}  first wrong line")
cases = []
for label, llm, tools, limit in runs:
    recorder = EventRecorder()
    try:
        Agent(llm, tools, SYSTEM_PROMPT, observers=[recorder], max_steps=limit).run({"question": QUESTION})
    except StepLimitReached:
        pass  # case 4: the trace shows what it kept asking for
    v = classify(recorder.events)
    print(f"{label:20} {v.outcome:22} {v.case:>4} {v.line:>4}  {brief(recorder.events[v.line - 1])}")
    cases.append(v.case)
assert cases == [1, 2, 3, 4]  # one run for each case, as the table promised

# %% [markdown]
# ### One rule, written out
#
# `classify` stops at the first wrong line, which is what "whose problem is it?" needs. A reviewer asking "how
# often does this model ask about the wrong city?" needs every such line instead. Here is that rule for
# `get_weather`, on the events as the trace holds them: a `tool_call` has `id`, `name` and `arguments` (a
# dict); a `tool_return` has `tool_call_id` (the ticket of its slip), `name` and `content` (text such as
# `"18"` or `"18°C"`).

# %%
ASKED_ABOUT = {"paris", "tokyo"}  # the question's cities


def wrong_city_lines(events):
    """The line of every get_weather slip about a city the question did not ask about."""
    return [line for line, e in enumerate(events, 1)
            if e["event"] == "tool_call" and e["name"] == "get_weather"
            and e["arguments"].get("city", "").lower() not in ASKED_ABOUT]


print("asks about London, then converts 30:", wrong_city_lines(recorded(london_manager())))
print("the right run:                     ", wrong_city_lines(recorded(four_round_manager())))

# %% [markdown]
# One pass, no memory: each slip is judged on its own. The `to_fahrenheit` rule needs memory, because whether
# a number is made up depends on what came back *earlier*.
#
# ### Exercise 05.1 (code): every made-up number
#
# Write `made_up_lines(events)`: the line numbers (1-based, as above) of **every** `to_fahrenheit` slip whose
# `celsius` argument is not a number that an earlier `get_weather` answer slip returned, in order; `[]` if
# there is none. A number that came back from `to_fahrenheit` is Fahrenheit already, so it does not count.
# `number` (imported at the top) reads the number out of an answer slip's text:

# %%
print(number("18°C"), number("18"), number("64.4"))

# %% [markdown]
# The check runs your rule on six scripted runs (among them one that converts its own result again, one that
# makes its numbers up, and one that asks about London *before* it makes a number up) and on one real recorded
# run of a small model. It refuses a rule that calls `classify`: that stops at the first wrong line of any kind.

# %%
def made_up_lines(events):
    raise NotImplementedError  # your rule here: return a list of line numbers


# %%
check("05.1", made_up_lines)

# %% [markdown]
# ### Exercise 05.2 (reading): which case, which line?
#
# A scripted manager converted Paris, then converted the *result* again, then Tokyo. Which case is it (1 to 4),
# and which line is the first wrong one? The final reply is wrong too; by the convention above, that does not
# decide. Answer as `(case, line)`.

# %%
print_trace(recorded(twice_manager()))

# %%
case_and_line = ...  # (case, line)

# %%
check("05.2", case_and_line)

# %% [markdown]
# ## The trace pointed at the tool
#
# The 0.8b run the article recorded ended with **both** cities as Fahrenheit (Paris 18°F, Tokyo 24°F), and its
# thinking said the numbers were "already Fahrenheit temperatures based on the tool's response format"
# (quoted from the article). Two lines up, the model was holding a bare `"18"`.
#
# The unit *was* on the menu: `get_weather`'s description says "in degrees Celsius". But the menu is read once,
# at the top of the folder; rounds later the manager holds a slip that just says 18.
# `weather_registry(unit_in_result=True)` makes the unit travel with the result:

# %%
print("on the menu:", weather_registry().tools[0]["function"]["description"])
assert "in degrees Celsius" in weather_registry().tools[0]["function"]["description"]
for unit in (False, True):
    slip = weather_registry(unit_in_result=unit).run(ToolCall("t1", "get_weather", {"city": "Paris"}))
    print(f"unit_in_result={unit!s:5}  get_weather('Paris') answers {slip.content!r}")

# %% [markdown]
# The article tested exactly that change on qwen3.5:0.8b: same agent, same question, only the result format
# different. Its figures, quoted as theirs:

# %%
print(reported_table())

# %% [markdown]
# ## How sure is 6 of 8?
#
# The article calls the direction of its effect solid and its exact numbers unsure. How unsure is "6 right out
# of 8"? Turn the question round: for which **true shares** `p0` of right runs would seeing 6 of 8 be
# unsurprising? A model right 75% of the time, surely; one right 30% of the time, hardly.
#
# **The definition** (the score interval, Wilson, 1927). Eight runs of a model whose true share is `p0` give an
# observed share that wobbles around `p0` by about one standard error, `√(p0(1−p0)/n)`. A candidate `p0` is
# **inside** the 95% interval when the share we saw, `k/n`, lies within 1.96 of those standard errors of it:
#
# |k/n − p0| ≤ 1.96 · √(p0 (1 − p0) / n)
#
# Notice whose standard error it is: the candidate's, not the observed share's. Testing four candidates for 6
# of 8 by hand:

# %%
k, n = 6, 8
for p0 in (0.30, 0.40, 0.75, 0.95):
    gap, reach = abs(k / n - p0), 1.96 * math.sqrt(p0 * (1 - p0) / n)
    print(f"p0 = {p0:.2f}: gap {gap:.3f}, 1.96 standard errors {reach:.3f} -> {'inside' if gap <= reach else 'outside'}")

# %% [markdown]
# ### Exercise 05.3 (code): the interval, from its definition
#
# Write `interval(k, n)` returning `(low, high)`: the smallest and the largest `p0` between 0 and 1 that are
# inside, each to within 0.002. Any method that works is fine: try candidates in small steps, or halve the
# gap between one inside and one outside (bisection). Mind the edges: at 0 of 8, is `p0 = 0` inside?
#
# The check compares your ends with the package's own interval on 13 cases, from 0 of 8 to 239 of 240, and
# refuses an answer that calls the package's function: the point is to build it.

# %%
def interval(k, n):
    raise NotImplementedError  # return (low, high)


# %%
check("05.3", interval)

# %% [markdown]
# What the package's version says about the two counts this notebook keeps meeting:

# %%
from mingraph_lite.course.compare import wilson

for k, n in ((6, 8), (0, 8)):
    low, high = wilson(k, n)
    print(f"{k} of {n}: the true share could be anywhere from {low:.0%} to {high:.0%}")
assert wilson(6, 8)[0] < 0.45 and wilson(6, 8)[1] > 0.9 and 0.3 < wilson(0, 8)[1] < 0.35

# %% [markdown]
# A model right 45% of the time and one right 90% of the time could both have shown the article's 6 of 8. One
# batch of 8 runs can tell a 0-of-8 variant from a 6-of-8 one, but not 60% from 80%; and 0 of 8 still allows a
# model that is right about one run in three. That is why every share below carries an interval.
#
# ## The experiment as a harness
#
# `run_experiment` (in `mingraph_lite.course.experiments`) runs N traced runs per variant into a folder. Run
# `(variant, i)` uses seed `S + i`. Each run is classified by its first wrong line and recorded the moment it
# ends: `results.csv` (one row per run), `traces/` (one trace file per run), `summary.json` (model, settings,
# package version, dates). Running the same call again skips the runs already recorded, so an interrupted
# experiment resumes. From a terminal it is one command:
#
# ```
# python -m mingraph_lite experiment unit --llm local:gemma3-270m --runs 8 --seed 0 --temperature 0.7 --out DIR
# python -m mingraph_lite experiment compare DIR1 DIR2 ...
# ```
#
# Offline, with no model named, it runs the scripted managers modelling the report, and says so:

# %%
FOLDER = Path("traces/05_experiment")
shutil.rmtree(FOLDER, ignore_errors=True)  # start afresh, so this notebook shows the same runs every time
results = run_experiment(out=FOLDER, runs=8, seed=1, progress=False)
print(results.table())
print("\nin the folder:", sorted(p.name for p in FOLDER.iterdir()))
print("first row:", (FOLDER / "results.csv").read_text(encoding="utf-8").splitlines()[1][:110], "...")

# %% [markdown]
# ## Real runs: the local models the course ships
#
# The repository ships runs of the two small local models (run in-process, no server), recorded by the command
# above: 8 runs per variant each, with sampling on. Their settings, from each folder's `summary.json`:

# %%
SHIPPED = sorted(p.parent for p in Path("../data/experiments").glob("*/summary.json"))
for folder in SHIPPED:
    s = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    seeds = f"{s['settings']['seed']}..{s['settings']['seed'] + s['runs_per_variant'] - 1}"
    print(f"{folder.name}: {s['model']}, temperature {s['settings']['temperature']}, seeds {seeds} "
          f"(run i of each variant uses seed {s['settings']['seed']}+i), {s['runs_recorded']} runs, "
          f"at most {s['settings']['max_steps']} model calls per run, package {s['package_version']}")

# %% [markdown]
# A recorded run can be **replayed**: `ReplayLLM` hands back the recorded replies in order (checking that the
# run asks what the recording asked), so the agent runs again exactly as it did, without the model. Here is the
# first `"18"` run of each model, replayed through the console logger, then classified:

# %%
def replay(folder, variant="18", index=0):
    rows = [r for r in results_rows(folder) if r["variant"] == variant and int(r["index"]) == index]
    trace = folder / rows[0]["trace"]
    recorder = EventRecorder()
    agent = Agent(ReplayLLM.from_trace(trace), weather_registry(variant == "18°C"), SYSTEM_PROMPT,
                  observers=[ConsoleLogger(), recorder], max_steps=6)
    try:
        agent.run({"question": QUESTION})
    except Exception as error:  # a step limit or a failing tool: the trace says which
        print(f"(the run stopped: {type(error).__name__})")
    return recorder.events


def results_rows(folder):
    import csv
    with (folder / "results.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


for folder in SHIPPED:
    print(f"===== {folder.name}: replay of recorded run \"18\" #0 =====")
    replayed = replay(folder)
    v = classify(replayed)
    print(f"--> {v.outcome} (case {v.case}), first wrong line {v.line}: {v.why}\n")

# %% [markdown]
# Replays show one run at a time. Counting over all recorded runs of each model, from the traces:

# %%
tallies, firsts = {}, {}
for folder in SHIPPED:
    tally = Counter()
    for row in results_rows(folder):
        trace = read_trace(folder / row["trace"])
        tools = Counter(e["name"] for e in trace if e["event"] == "tool_call")
        first = next(e for e in trace if e["event"] == "model_reply")["message"]
        firsts.setdefault((folder.name, row["index"]), []).append(json.dumps(first, sort_keys=True))
        verdict = classify(trace)
        tally["runs"] += 1
        tally["called get_weather at all"] += tools["get_weather"] > 0
        tally["called to_fahrenheit at all"] += tools["to_fahrenheit"] > 0
        tally["first reply: a to_fahrenheit slip"] += any(c["name"] == "to_fahrenheit" for c in first["tool_calls"])
        tally["first reply: an answer, no tool"] += not first["tool_calls"]
        tally["  ... holding the menu's '<your answer>'"] += "your answer" in first["content"].lower()
        tally["ended at the step limit"] += trace[-1].get("reason") == "step limit"
        tally[f"case {verdict.case} at line {verdict.line}"] += 1
    tallies[folder.name] = tally
    print(f"{folder.name}:\n  " + "\n  ".join(f"{k}: {v}" for k, v in tally.items()))

smollm2 = Path("../data/experiments/smollm2-135m")
run_0 = [e["arguments"]["celsius"] for e in read_trace(smollm2 / "traces/bare-00.jsonl") if e["event"] == "tool_call"]
chain = [e["arguments"]["celsius"] for e in read_trace(smollm2 / "traces/bare-02.jsonl") if e["event"] == "tool_call"]
print('SmolLM2, "18" run 0, what it converted:', run_0)
print('SmolLM2, "18" run 2, what it converted:', chain)
assert all(abs(to_fahrenheit(a) - b) < 0.5 for a, b in zip(chain[1:], chain[2:]))  # each, the one before converted
assert run_0 == [30.0] * 6 and chain[0] == 39.59
# the claims below, checked against these counts
small, gemma = tallies["smollm2-135m"], tallies["gemma3-270m"]
assert small["runs"] == small["first reply: a to_fahrenheit slip"] == small["case 1 at line 4"] == 16
assert small["called get_weather at all"] == 0 and small["ended at the step limit"] == 16
assert gemma["first reply: an answer, no tool"] == gemma["case 1 at line 3"] == 12
assert gemma["  ... holding the menu's '<your answer>'"] > 12 / 2
assert gemma["called get_weather at all"] == gemma["runs"] - 12 and gemma["called to_fahrenheit at all"] == 0
assert sum(v for k, v in gemma.items() if k.startswith("case 4")) == 4
differ = {model: sorted(int(i) for (m, i), pair in firsts.items() if m == model and pair[0] != pair[1])
          for model in tallies}
print("pairs of runs (same seed, both variants) whose first replies differ:", differ)
assert differ == {"gemma3-270m": [0, 5, 6, 7], "smollm2-135m": []}

# %% [markdown]
# What the two tiny models got wrong, and why (read from the traces above and the table below):
#
# - **SmolLM2-135M never looked up the weather.** In every one of its 16 runs the very first slip is
#   `to_fahrenheit` with a number it invented (30 in run 0, 39.59 in run 2): the first wrong line is line 4, case 1.
#   Then it asks again, for the same number (run 0: 30.0 six times) or for its own last answer (run 2: 39.59,
#   then 100 → 212 → 414 → 777 → 1431, each the conversion of the one before), until the step limit. **Our
#   guess**, which these traces cannot test: a model this small has learned that a question with "Fahrenheit"
#   in it goes with the tool named `to_fahrenheit`, without learning that the tool needs a number from
#   somewhere. Testing it would take other runs, for example a question that never says "Fahrenheit".
# - **Gemma 3 270M mostly answered at once, without any tool** (12 of 16 runs: case 1, because the first wrong
#   line is a reply about cities no tool was asked about, whether or not it holds numbers). Most of those
#   answers are the reply format from the tool menu copied back (`<your answer> or with one or more function
#   calls...`): it repeated the instructions instead of following them. The other 4 runs looked the weather
#   up, again and again, and never converted: case 4, never finished.
# - **Neither model got far enough for the unit to matter.** The article's mistake (case 3: right lookups, then
#   Celsius read as Fahrenheit) needs a model that looks up both cities first. SmolLM2 never saw what
#   `get_weather` returns, so `"18"` and `"18°C"` could not make a difference to it, and they didn't. (With a
#   worked example in the folder, Gemma sometimes did get that far: see "A real unit mistake" below.)
#
# Notice the seeds: run *i* of both variants uses the same seed, so the two variants start from the same first
# reply whenever the first prompt is the same (it is: the variant only shows in `get_weather`'s answer). That
# held for all of SmolLM2's runs. For Gemma it did not hold in four of its eight pairs (runs 0, 5, 6 and 7): on
# this runtime, a seed makes runs *likely* to repeat, not certain to.
#
#
# ### All the recorded runs, compared
#
# **Predict first.** For the two shipped models, which outcome do you expect most often with the bare `"18"`:
# right, a wrong slip (case 1), or Celsius reported as Fahrenheit (case 3)?

# %%
my_outcome_guess = ...  # "right", "wrong slip", "wrong final reasoning" or "never finished"

# %%
comparison = compare(SHIPPED)
print(comparison.table())
show(comparison.figure(title="Recorded runs of the shipped local models (8 per variant; temperature and "
                             "seeds in each folder's summary)"))
outcomes = Counter((f.name, r["variant"], r["outcome"]) for f in SHIPPED for r in results_rows(f))
assert not any(outcome == "right" for _, _, outcome in outcomes)  # the claims below
assert [outcomes["gemma3-270m", v, "wrong slip"] for v in ("18", "18°C")] == [5, 7]

# %% [markdown]
# How to read it: no run of either model was right (0 of 8 per variant), and the intervals say what 0 of 8 is
# worth: the true share of right runs could still be anywhere up to about a third. The one difference between
# variants in the table (Gemma: 5 vs 7 wrong slips out of 8) sits well inside overlapping intervals, so it
# says nothing about units. These two models are too small to test the article's finding; a model of the
# article's size (qwen3.5:0.8b), served to a whole class, is the next step (see `data/experiments/README.md`).
# The article's own figures stay in their own table above: they are another model, run by someone else.

# %% [markdown]
# ## A real unit mistake, found by its first wrong line
#
# Too small to test the finding is not too small to make the mistake. The lab then asked what it takes for these
# two models to finish right: the definition `finish-right` asks our question four ways (zero-shot, a worked
# example, units on every result, both), 16 sampled runs per variant per model, recorded by the same command
# (`data/experiments/README.md` gives the commands). **No recorded run is right; this is the closest.** It is a
# real run, replayed, nothing edited:
#
# - model: **Gemma 3 270M**, Q4_K_M weights, run in-process by llama.cpp;
# - definition `finish-right`, variant **"worked example"**, run #10;
# - settings: temperature 0.7, seed from the results file (below), at most 6 model calls (`max_steps=6`).
#
# First its row in the folder's `results.csv`, as the harness classified it when the run ended:

# %%
FINISH = Path("../data/experiments/finish-right/gemma3-270m")
row = next(r for r in results_rows(FINISH) if r["variant"] == "worked example" and r["index"] == "10")
for key in ("model", "variant", "index", "seed", "temperature", "outcome", "case", "line", "celsius_as_fahrenheit"):
    print(f"{key:22} {row[key]}")
assert json.loads(row["settings"])["max_steps"] == 6 and row["model"] == "gemma3-270m"

# %% [markdown]
# The variant places a **worked example** in the folder before the question: a short exchange on two other
# cities, showing both lookups, both conversions and the answer. The trace marks those messages `"example"`, so
# nobody mistakes them for the learner's question. Here is what the model read, in order:

# %%
TRACE_10 = FINISH / row["trace"]
first = read_trace(TRACE_10)[0]
for m in first["messages"]:
    slips = ", ".join(f"{c['name']}({c['arguments']})" for c in m.get("tool_calls", []))
    tag = f"[example: {m['example']}]" if "example" in m else "[not an example]"
    print(f"{tag:28} {m['role']:9} {slips or repr(m['content'][:70])}")
assert [m["content"] for m in first["messages"] if m["role"] == "user"][-1] == QUESTION
assert "example" not in first["messages"][-1] and all("example" in m for m in first["messages"][1:-1])

# %% [markdown]
# To replay it, the folder must start as the recording's did: the system prompt, the worked example, then the
# question. The definition builds the example's messages and the tools (`load` reads the shipped definition).
#
# **Predict first.** The model had the example's two conversions right in front of it. Which line of its trace
# will be the first wrong one, and which case?

# %%
from mingraph_lite import KeepAll
from mingraph_lite.course.definition import load

finish_right = load("finish-right")
worked = next(v for v in finish_right.variants if v.name == row["variant"])
example_folder = KeepAll(worked.system_prompt)
for message in worked.messages:  # the worked example, before the question
    example_folder.add(message)
recorder = EventRecorder()
Agent(ReplayLLM.from_trace(TRACE_10), worked.registry(), worked.system_prompt, memory=example_folder,
      observers=[recorder], max_steps=6).run({"question": finish_right.question})
real_verdict = classify(recorder.events)
for n, e in enumerate(recorder.events[:real_verdict.line], 1):  # read top to bottom, stop at the first wrong line
    print(f"{n:>2}  {brief(e)[:96]}")
print(f"\n--> {real_verdict.outcome} (case {real_verdict.case}), first wrong line {real_verdict.line}: {real_verdict.why}")

# %% [markdown]
# Reading it as the method says: lines 1 to 8 are right. Both lookups asked about the question's cities, and both
# answer slips hold the teaching data, Paris `"18"` and Tokyo `"24"`, in Celsius. Line 9, the final reply, gives
# those same two numbers with **°F** after them and never calls `to_fahrenheit`: case 3, the reasoning. It is the
# article's 0.8b mistake (both cities reported as Fahrenheit), made by a real model a third that size. After the
# answer the reply runs on with made-up text until the token cap; the classifier reads only the number after
# each city's name. The cell below checks every one of those claims against the replay:

# %%
returns = {e["content"] for e in recorder.events if e["event"] == "tool_return" and e["name"] == "get_weather"}
assert returns == {str(lookup(city)["celsius"]) for city in ("Paris", "Tokyo")}      # every answer slip right
assert not any(e["name"] == "to_fahrenheit" for e in recorder.events if e["event"] == "tool_call")
assert real_verdict.case == 3 and real_verdict.celsius_as_fahrenheit                # the unit mistake
assert (real_verdict.line, real_verdict.case) == (int(row["line"]), int(row["case"]))  # as recorded
assert real_verdict == classify(read_trace(TRACE_10))                                # replay = recording
print("checked: right lookups, no conversion, Celsius reported as Fahrenheit, as the run recorded it")

# %% [markdown]
# Was it one odd run? Over all 128 recorded `finish-right` runs of both models, the ones whose first wrong line is
# the final reply (case 3), and whether the classifier flagged a Celsius reading reported as Fahrenheit:

# %%
finish_rows = [(f.parent.name, r) for f in sorted(FINISH.parent.glob("*/summary.json")) for r in results_rows(f.parent)]
case_3 = [(model, r) for model, r in finish_rows if r["case"] == "3"]
for model, r in case_3:
    print(f"{model}, \"{r['variant']}\" #{r['index']} (seed {r['seed']}): "
          f"Celsius as Fahrenheit: {r['celsius_as_fahrenheit']}, reply: {r['answer'].splitlines()[0][:26]!r}")
right = sum(r["outcome"] == "right" for _, r in finish_rows)
print(f"runs: {len(finish_rows)}, right: {right}, case 3: {len(case_3)}, "
      f"flagged: {sum(r['celsius_as_fahrenheit'] == 'True' for _, r in case_3)}")
assert right == 0 and {model for model, _ in case_3} == {"gemma3-270m"}
assert {r["variant"] for _, r in case_3} <= {"worked example", "both"}
with_units = [r for _, r in case_3 if r["variant"] == "both"]
assert len(with_units) == 2 and all(r["celsius_as_fahrenheit"] == "True" for r in with_units)

# %% [markdown]
# Four runs, all Gemma, all with the worked example in the folder: the only runs of either model that reached
# the final reply with every slip right. Two of them also had units on every result (`"18°C"`), and both were
# still flagged: in these runs the unit on the slip did not prevent the mistake. Two runs in sixteen per variant
# are far too few to say more; a bigger model, or a whole class's runs pooled, is the next step.

# %% [markdown]
# ## Try it with a live model
#
# With `MINGRAPH_LLM` naming a real model (for example `ollama:qwen3.5:0.8b`, the model of the report), this
# cell runs 2 runs per variant of it into `traces/05_live` (run it again to add nothing: the runs are recorded).
# The scripted run above used a fixed seed, so every copy of this notebook prints the same; here no seed is
# given, so one is drawn for you and kept in the folder: thirty students in a class each measure different
# runs, never the same ones thirty times. For a whole class, see the teacher's guide (`teachers_guide.md`
# beside the notebooks). Its output depends on the model, so the saved notebook does not fix it.

# %%
# NBVAL_IGNORE_OUTPUT
spec = os.environ.get("MINGRAPH_LLM", "scripted")
if spec.strip().lower() in ("", "scripted") or spec.startswith("replay"):
    print(f"MINGRAPH_LLM={spec!r}: no live model, nothing to measure here")
else:
    live = run_experiment(spec, out=Path("traces/05_live"), runs=2, seed=None, progress=False)  # seed: drawn
    print(f"your seeds: {sorted({r.seed for r in live.runs})} (drawn once, recorded in traces/05_live)")
    print(live.table())
    show(compare([Path("traces/05_live")]).figure())

# %% [markdown]
# ## What is still open
#
# - **Eight runs, small models.** Every interval above is wide. A class of 30 each running 8 runs per variant
#   pools into 240 per variant, and much narrower intervals (`experiment compare` pools folders with the same
#   model and settings; question 5 below asks how many runs a narrow interval takes).
# - **The classifier knows this one question.** It checks against the teaching data and reads numbers out of
#   free text after each city's name. A general "first wrong line" needs the truth for every tool and a reply
#   format you can check (structured output), not a regular expression.
# - **Thinking that must go back.** An adapter for a provider that needs its thinking returned (Anthropic with
#   tools, OpenAI's Responses API) would have to keep it in the folder, and the folder would pay for it.
# - **Right for the wrong reasons.** In the article, four of the six right `"18°C"` runs ignored "never do the
#   arithmetic yourself". An outcome count can't see that; only the trace does, so the harness keeps every
#   trace.

# %% [markdown]
# ## Questions
#
# Answer in your own words first; the answers are in the solutions file beside the notebooks. Four of them
# (2, 3, 5 and 6) have a cell below that checks your answer against a run of the code.
#
# 1. Why does `LLMResponse` keep a model's thinking on the envelope and not in the folder? Which kind of
#    provider would force an adapter to keep it in the folder?
# 2. What would happen to the verdict of the scripted re-enactment (`wrong_tokyo_manager`) if `get_weather`
#    answered `"18°C"` instead of `"18"`: the same verdict, or a different one? Why?
# 3. A scripted manager converts Paris's 18 twice, then Tokyo's 24, then answers "Paris: 64°F, Tokyo: 75°F".
#    Which outcome does `classify` give?
# 4. Which line of your `made_up_lines` keeps a number that came back from `to_fahrenheit` from counting as
#    Celsius? What would the converts-twice run look like without it?
# 5. A class pools its runs. With half of them right, what is the fewest runs, of 16, 32, 64, 128 or 256, for
#    which the 95% interval is narrower than 0.2 (20 points)?
# 6. What would happen if you replayed Gemma's run #10 without putting the worked example in the folder first:
#    the same verdict, another verdict, or a refusal?
# 7. What does the textbook interval `p ± 1.96·√(p(1−p)/n)` claim at 0 of 8, and why is that too strong?
# 8. Why could `"18"` versus `"18°C"` make no difference to SmolLM2-135M? Which count in its traces shows it?
# 9. Why must the trace be recording *before* you know there is a bug?

# %%
answer_q2 = ...  # "same" or "different"
check("05.Q2", answer_q2)

# %%
answer_q3 = ...  # "right", "wrong slip", "wrong tool result", "wrong final reasoning" or "never finished"
check("05.Q3", answer_q3)

# %%
answer_q5 = ...  # 16, 32, 64, 128 or 256
check("05.Q5", answer_q5)

# %%
answer_q6 = ...  # "same verdict", "another verdict" or "refused"
check("05.Q6", answer_q6)
