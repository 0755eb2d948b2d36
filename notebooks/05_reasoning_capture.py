# %% [markdown]
# # 05 · Reasoning capture: reading a trace, and why a tool result should carry its unit
#
# **By the end of this notebook you will be able to**
#
# - say which slot of `LLMResponse` holds a model's thinking and which its thinking-token count;
# - find where a run went wrong by reading its trace for the **first wrong line**, say whose problem it is (the
#   four cases), and write a trace rule the classifier does not have;
# - build a 95% interval for a share of runs from its definition, and say what 0 right out of 8 is worth;
# - run the `"18"` vs `"18°C"` experiment as a harness and compare result folders, an interval on every share;
# - tell apart a figure reported in an article, a scripted re-enactment, and runs of a real model.
#
# **Prerequisites:** notebooks 01 and 02 (the loop, the folder, slips and answer slips, what a run remembers)
# and 04 (listeners and trace files). Python: functions, dicts, list comprehensions.
#
# **Time:** about 88 minutes, exercises and questions included: an estimate, not a measurement, made with
# `scripts/pacing.py` from the notebook's words, lines of code, exercises and questions.
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
import re
import shutil
from collections import Counter
from dataclasses import fields
from pathlib import Path

from IPython.display import Image, display

from mingraph_lite import (Agent, ConsoleLogger, EventRecorder, LLMResponse, ReplayLLM, ScriptedLLM,
                           StepLimitReached, ToolCall, ToolRegistry, TraceRecorder, read_trace)
from mingraph_lite.course.compare import compare, reported_table
from lessons.exercises import check
from lessons.exercises.nb05 import london_manager, recorded, reconvert_manager
from lessons.predict import reveal
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
# Why is thinking on the envelope? It runs to hundreds of tokens per call, and **the two providers this course
# talks to** (Ollama, and OpenAI's Chat Completions) do not need it sent back. So listeners see it, and the
# folder does not pay for it again every round. Not every provider is like that: Anthropic's guide *Building with
# extended thinking* says a thinking block must go back, unchanged, with the tool call it led to, and OpenAI's
# cookbook *Better performance from reasoning models using the Responses API* recommends passing earlier
# reasoning back. An adapter for either would have to keep thinking in the folder.
#
#
# What each provider reports also differs. The article probed both SDKs directly and reported:
#
# | provider | thinking off? | thinking text | separate token count |
# |---|---|---|---|
# | Ollama, qwen3.5:2b | yes: 434 output tokens fell to 4 | full text | none (inside the output count) |
# | OpenAI, gpt-5-mini | no: turned down, `"none"` refused | none in Chat Completions | exact: `reasoning_tokens` |
#
# "Thinking off?" asks whether thinking can be switched off. With Ollama it can: in the article's probe, switching
# it off took a reply from 434 output tokens to 4. OpenAI's `reasoning_effort` can only be turned down: the value
# `"none"` was refused. Each provider gives the half the other doesn't, so the envelope has one slot for the text
# and one for the count, and a provider fills what it has; `None` means **not reported**, never an estimate.
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
# The author then built the trace recorder and re-ran the question six times: **none of the six got Tokyo
# wrong** (reported in the article). A mistake may not come back when you look for it, so the trace has to be
# recording already. Here is a **scripted re-enactment** of the 2b run (`wrong_tokyo_manager`: replies written in
# advance, with the 2b run's thinking), recorded to a trace file as it happens.
#
# **Predict first.** From the story above, how many model calls and how many tool calls will this run make?
# Write it in the next cell before you run the one after.

# %%
my_prediction = ...  # (model calls, tool calls), for example (2, 5)

# %%
TRACE = Path("traces/05_wrong_tokyo.jsonl")
TRACE.unlink(missing_ok=True)
agent = Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT,
              observers=[ConsoleLogger(), TraceRecorder(TRACE)])
answer = agent.run({"question": QUESTION})["answer"]
events = read_trace(TRACE)
kinds = Counter(e["event"] for e in events)
print(f"\nanswer: {answer}   (scripted re-enactment, not a model)")
reveal(my_prediction, (kinds["model_reply"], kinds["tool_call"]), "(model calls, tool calls)")

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
assert (kinds["model_reply"], kinds["tool_call"], kinds["tool_return"]) == (3, 3, 3)  # as the text above says

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
# ### Exercise 05.2 (reading): which case, which line?
#
# Apply the convention yourself before you meet the classifier. A scripted manager converted Paris's 18, then
# converted the *result*, 64, again, then Tokyo's 24. Which case is it (1 to 4), and which line is the first
# wrong one? The final reply is wrong too; by the convention, that does not decide. Answer as `(case, line)`.

# %%
print_trace(recorded(reconvert_manager()))

# %%
case_and_line = ...  # (case, line)

# %%
check("05.2", case_and_line)

# %% [markdown]
# `classify(events)` in `mingraph_lite.course.classify` applies exactly these rules. On the re-enactment:

# %%
from mingraph_lite.course.classify import classify

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
    """Get the current temperature for a city, in degrees Celsius."""
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
# The check runs your rule on seven scripted runs (among them 05.2's run, one that converts 18 *before* the lookup
# that returns it, and one that asks about London before it makes a number up) and on one real recorded run of a
# small model. It refuses a rule that calls `classify`: that stops at the first wrong line of any kind.

# %%
def made_up_lines(events):
    raise NotImplementedError  # your rule here: return a list of line numbers


# %%
check("05.1", made_up_lines)

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
# gap between one inside and one outside (bisection). Mind the edges: at 0 of 8, is `p0 = 0` inside? The check
# wants those ends exactly, not within 0.002.
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
# A model right 45% of the time and one right 90% of the time could both have shown the article's 6 of 8, and
# 0 of 8 still allows a model right about one run in three. That is why every share below carries an interval.
#
# ## The experiment as a harness
#
# `run_experiment` (in `mingraph_lite.course.experiments`) runs N traced runs per variant into a folder; run
# `(variant, i)` uses seed `S + i`. Each run is classified and recorded the moment it ends: `results.csv`,
# `traces/`, `summary.json` (model, settings, versions). Running it again skips the runs already recorded, so an
# interrupted experiment resumes. From a terminal it is one command:
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
# **Predict first**, before any of their runs is shown. For these two models (135M and 270M parameters, against
# the article's 800M), which outcome do you expect most often with the bare `"18"`: right, a wrong slip
# (case 1), Celsius reported as Fahrenheit (case 3), or never finished (case 4)?

# %%
my_outcome_guess = ...  # "right", "wrong slip", "wrong final reasoning" or "never finished"

# %% [markdown]
# A recorded run can be **replayed**: `ReplayLLM` hands back the recorded replies in order (checking that the
# run asks what the recording asked), so the agent runs again exactly as it did, without the model. Here is the
# first `"18"` run of each model, replayed through the console logger, then classified:

# %%
def results_rows(folder):
    import csv
    with (folder / "results.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def replay(folder, variant="18", index=0):
    row = next(r for r in results_rows(folder) if r["variant"] == variant and int(r["index"]) == index)
    recorder = EventRecorder()
    agent = Agent(ReplayLLM.from_trace(folder / row["trace"]), weather_registry(variant == "18°C"), SYSTEM_PROMPT,
                  observers=[ConsoleLogger(), recorder], max_steps=6)
    try:
        agent.run({"question": QUESTION})
    except Exception as error:  # a step limit or a failing tool: the trace says which
        print(f"(the run stopped: {type(error).__name__})")
    return recorder.events


for folder in SHIPPED:
    print(f"===== {folder.name}: replay of recorded run \"18\" #0 =====")
    v = classify(replay(folder))
    print(f"--> {v.outcome} (case {v.case}), first wrong line {v.line}: {v.why}\n")

# %% [markdown]
# Replays show one run at a time. Every recorded run of each model, classified from its trace, and what SmolLM2
# converted in two of its runs (`tests/notebooks/test_nb05_claims.py` checks each claim below on these traces):

# %%
for folder in SHIPPED:
    verdicts = Counter()
    for row in results_rows(folder):
        v = classify(read_trace(folder / row["trace"]))
        verdicts[f"case {v.case} at line {v.line}"] += 1
    print(f"{folder.name}: {dict(verdicts)}")
for run in ("bare-00", "bare-02"):
    trace = read_trace(Path("../data/experiments/smollm2-135m/traces") / f"{run}.jsonl")
    print(f'SmolLM2, "18" {run}, converted:', [e["arguments"]["celsius"] for e in trace if e["event"] == "tool_call"])

# %% [markdown]
# What the two tiny models got wrong, and why:
#
# - **SmolLM2-135M never looked up the weather.** In all 16 runs its first slip is `to_fahrenheit` with a number
#   it invented (30 in run 0, 39.59 in run 2): line 4, case 1. Then it asks again, for the same number (run 0:
#   30.0 six times) or for its own last answer (run 2: each number the conversion of the one before), until the
#   step limit. **Our guess**, which these traces cannot test: a model this small links "Fahrenheit" in the
#   question with the tool named `to_fahrenheit`, without learning that the tool needs a number from somewhere.
# - **Gemma 3 270M mostly answered at once, without any tool** (12 of 16 runs: case 1 at line 3, a reply about
#   cities no tool was asked about). Most of those replies copy the menu's reply format back (`<your answer> or
#   with one or more function calls...`): it repeated the instructions instead of following them. The other 4
#   runs looked the weather up again and again and never converted: case 4, never finished.
# - **Neither model got far enough for the unit to matter.** The article's mistake (case 3) needs a model that
#   looks up both cities first. SmolLM2 never saw what `get_weather` returns, so `"18"` and `"18°C"` could not
#   make a difference to it. (With a worked example in the folder, Gemma sometimes got that far: see below.)
#
# Run *i* of both variants uses the same seed, and the first prompt is the same in both (the variant only shows
# in `get_weather`'s answer), so each pair should start with the same first reply. All of SmolLM2's pairs did;
# four of Gemma's eight did not: on this runtime a seed makes runs *likely* to repeat, not certain to.
#
# ### All the recorded runs, compared

# %%
comparison = compare(SHIPPED)
print(comparison.table())
show(comparison.figure(title="Recorded runs of the shipped local models (8 per variant; temperature and "
                             "seeds in each folder's summary)"))
outcomes = Counter((f.name, r["variant"], r["outcome"]) for f in SHIPPED for r in results_rows(f))
for f in SHIPPED:
    top = Counter(r["outcome"] for r in results_rows(f) if r["variant"] == "18").most_common(1)[0][0]
    reveal(my_outcome_guess, top, f'{f.name}, most often with "18"')
assert not any(outcome == "right" for _, _, outcome in outcomes)  # the claims below
assert [outcomes["gemma3-270m", v, o] for o in ("wrong slip", "never finished") for v in ("18", "18°C")] == [5, 7, 3, 1]

# %% [markdown]
# How to read it: no run of this `unit` recording was right (0 of 8 per variant), and 0 of 8 still allows a true
# share of right runs up to about a third. The variants differ only for Gemma, in two counts out of 8: 5 vs 7
# wrong slips and 3 vs 1 runs that never finished. Both sit well inside overlapping intervals, so they say nothing about
# units. These models are too small to test the article's finding; a model of its size (qwen3.5:0.8b), served
# to a whole class, is the next step (see `data/experiments/README.md`).

# %% [markdown]
# ## A real unit mistake, found by its first wrong line
#
# Too small to test the finding is not too small to make the mistake. The lab then asked what it takes for these
# two models to finish right: the definition `finish-right` asks our question four ways (zero-shot, a worked
# example, units on every result, both), 16 sampled runs per variant per model, recorded by the same command.
# **No `finish-right` run is right; this is the closest.** (The first runs that finish right came later, from
# results that name their input: `finish-right-3`, replayed in notebook 02.) A real run, replayed, nothing edited:
#
# - model: **Gemma 3 270M**, Q4_K_M weights, run in-process by llama.cpp;
# - definition `finish-right`, variant **"worked example"**, run #10;
# - settings: temperature 0.7, seed from the results file (below), at most 6 model calls (`max_steps=6`).
#
# The variant places a **worked example** in the folder before the question: a short exchange on two other
# cities, showing both lookups, both conversions and the answer. The trace marks those messages `"example"`, so
# nobody mistakes them for the learner's question. The run's settings, then what the model read, in order:

# %%
FINISH = Path("../data/experiments/finish-right/gemma3-270m")
row = next(r for r in results_rows(FINISH) if r["variant"] == "worked example" and r["index"] == "10")
print({key: row[key] for key in ("model", "variant", "index", "seed", "temperature")})
assert json.loads(row["settings"])["max_steps"] == 6 and row["model"] == "gemma3-270m"
TRACE_10 = FINISH / row["trace"]
first = read_trace(TRACE_10)[0]
for m in first["messages"]:
    slips = ", ".join(f"{c['name']}({c['arguments']})" for c in m.get("tool_calls", []))
    tag = f"[example: {m['example']}]" if "example" in m else "[not an example]"
    print(f"{tag:28} {m['role']:9} {slips or repr(m['content'][:70])}")
assert [m["content"] for m in first["messages"] if m["role"] == "user"][-1] == QUESTION
assert "example" not in first["messages"][-1] and all("example" in m for m in first["messages"][1:-1])

# %% [markdown]
# **Predict first.** The model had the example's two conversions right in front of it. Which line of its trace
# will be the first wrong one, and which case?

# %%
my_line_and_case = ...  # (line, case)

# %% [markdown]
# To replay it, the folder must start as the recording's did: the system prompt, the worked example, then the
# question. The definition builds the example's messages and the tools (`load` reads the shipped definition).

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
print(f"results.csv, as the harness classified it when the run ended: case {row['case']}, line {row['line']}")
reveal(my_line_and_case, (real_verdict.line, real_verdict.case), "(line, case)")

# %% [markdown]
# Lines 1 to 8 are right: both lookups ask about the question's cities, and both answer slips hold the teaching
# data in Celsius. Line 9, the final reply, gives those same two numbers with **°F** after them and never calls
# `to_fahrenheit`: case 3, the reasoning. It is the article's 0.8b mistake (both cities reported as Fahrenheit),
# made by a real model a third that size. (The reply then runs on with made-up text until the token cap; the
# classifier reads only the number after each city's name.) The cell below checks these claims on the replay:

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
# the final reply (case 3), whether the classifier flagged a Celsius reading reported as Fahrenheit, and the
# first two temperatures each reply gives:

# %%
finish_rows = [(f.parent.name, r) for f in sorted(FINISH.parent.glob("*/summary.json")) for r in results_rows(f.parent)]
case_3 = [(model, r) for model, r in finish_rows if r["case"] == "3"]
for model, r in case_3:
    said = re.findall(r"(\w+): (\d+)°([CF])", r["answer"])[:2]
    print(f"{model}, \"{r['variant']}\" #{r['index']}: Celsius as Fahrenheit: {r['celsius_as_fahrenheit']}, says {said}")
right = sum(r["outcome"] == "right" for _, r in finish_rows)
print(f"runs: {len(finish_rows)}, right: {right}, case 3: {len(case_3)}")
assert right == 0 and {model for model, _ in case_3} == {"gemma3-270m"}
assert {r["variant"] for _, r in case_3} <= {"worked example", "both"}
with_units = {r["index"]: re.findall(r"(\w+): (\d+)°([CF])", r["answer"])[:2] for _, r in case_3 if r["variant"] == "both"}
assert with_units == {"10": [("Tokyo", "24", "C"), ("Paris", "18", "F")],
                      "12": [("London", "18", "C"), ("Tokyo", "24", "F")]}  # what the text below says

# %% [markdown]
# Four runs, all Gemma, all with the worked example in the folder: the only `finish-right` runs that reached
# the final reply with every slip right. Two of them also had units on every result (`"18°C"`), and each kept
# the unit for one number only: "both" #10 says Tokyo 24°C but Paris 18°F; #12 says Tokyo 24°F and puts Paris's
# 18°C under the name London. The unit on the slip did not stop the mistake in either run, nor did it fail
# everywhere. Two runs are far too few to say more.

# %% [markdown]
# ## Try it with a live model
#
# With `MINGRAPH_LLM` naming a real model (for example `ollama:qwen3.5:0.8b`, the model of the report), this
# cell runs 2 runs per variant of it into `traces/05_live` (run it again to add nothing: the runs are recorded).
# No seed is given, so one is drawn for you and kept in the folder: thirty students measure different runs, not
# the same ones thirty times. For a whole class, see `teachers_guide.md` beside the notebooks.

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
# - **Eight runs, small models.** Every interval above is wide. A class of 30 pools into 240 runs per variant
#   (`experiment compare` pools folders with the same model and settings; question 5 asks how many it takes).
# - **The classifier knows this one question.** A general "first wrong line" needs the truth for every tool and
#   a reply format you can check (structured output), not a regular expression.
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
# 3. Another scripted manager converts Paris's **18** twice (not its 64), then Tokyo's 24, then answers
#    "Paris: 64°F, Tokyo: 75°F". Which outcome does `classify` give?
# 4. Which line of your `made_up_lines` keeps a number that came back from `to_fahrenheit` from counting as
#    Celsius? What would your rule return on 05.2's run (the one that converts its own 64 again) without it?
# 5. A class pools its runs. With half of them right, what is the fewest runs, of 16, 32, 64, 128 or 256, for
#    which the 95% interval is narrower than 0.2 (20 points)?
# 6. What would happen if you replayed Gemma's run #10 without putting the worked example in the folder first:
#    the same verdict, another verdict, or a refusal?
# 7. What does the textbook interval `p ± 1.96·√(p(1−p)/n)` claim at 0 of 8, and why is that too strong?
# 8. Why could `"18"` versus `"18°C"` make no difference to SmolLM2-135M? Which count in its traces shows it?

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
