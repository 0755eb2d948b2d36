# %% [markdown]
# # 04 · Reasoning capture: reading a trace, and why a tool result should carry its unit
#
# **By the end of this notebook you will be able to**
#
# - say which slot of `LLMResponse` holds the model's thinking and which its thinking-token count, and which
#   provider fills which;
# - find where a run went wrong by reading its trace top to bottom for the **first wrong line**, and say from
#   that line whose problem it is (the four cases);
# - run the `18` vs `18°C` experiment as a harness: many traced runs per variant, each classified, a table and a
#   plot;
# - tell a reported figure, a scripted re-enactment and a live measurement apart.
#
# Teaching runs are **scripted** (no model, no network) and say so. Cells marked *live* use the model named by
# `MINGRAPH_LLM`; with the default (`scripted`) they say there is no live model.

# %%
import io
import re
from dataclasses import fields
from pathlib import Path

from IPython.display import Image, display

from mingraph_lite import (Agent, ConsoleLogger, EventRecorder, LLMResponse, ScriptedLLM, StepLimitReached,
                           SystemMessage, ToolCall, ToolRegistry, TraceRecorder, UserMessage, make_llm,
                           read_trace)
from mingraph_lite.course.experiments import (MODELLED, classify, is_live, model_name, reported_table,
                                              run_experiment, versus_reported)
from mingraph_lite.course.scripts import (QUESTION, SYSTEM_PROMPT, four_round_manager, looping_manager,
                                          wrong_tokyo_manager)
from mingraph_lite.course.weather import lookup, to_fahrenheit, weather_registry
from mingraph_lite.plots import plot_experiment



def show(fig):
    """Show a matplotlib figure as a PNG (its text form, which nbval compares, then never changes)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    display(Image(buffer.getvalue()))


print("question:", QUESTION)

# %% [markdown]
# ## The envelope: where thinking goes
#
# A listener's `on_model_reply` receives an `LLMResponse`: the message (which goes into the folder) inside an
# envelope of facts about the reply. Thinking runs to hundreds of tokens per call and no provider needs it sent
# back, so it lives on the envelope, where listeners see it, and the folder doesn't pay for it again every
# round.

# %%
for f in fields(LLMResponse):
    where = "the folder: read back to the model every round" if f.name == "message" else "the envelope only"
    print(f"{f.name:17} {str(f.type):18} {where}")

# %% [markdown]
# Providers differ in what they report. The source article probed both SDKs directly (seed 000, "the model's
# reasoning had nowhere to go"); what it reported:

# %%
PROBE = [  # reported in the source article (seed 000), from probing each provider's SDK
    ("Ollama, qwen3.5:2b", "real: 434 output tokens -> 4", "full text", "none (inside the output count)"),
    ("OpenAI, gpt-5-mini", 'turn down only; "none" refused', "none in Chat Completions",
     "exact: reasoning_tokens"),
]
head = ("provider", "off switch", "thinking text", "separate token count")
widths = [max(len(row[i]) for row in [head, *PROBE]) for i in range(4)]
for row in [head, *PROBE]:
    print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)))

# %% [markdown]
# Each gives the half the other doesn't. So the switch stays on each adapter in its own terms (`OllamaLLM(model,
# think=True)`, `OpenAILLM(model, reasoning_effort="low")`), and the envelope has one slot for the text and one
# for the count. A provider fills what it has; `None` means **not reported**, never an estimate:

# %%
slots = ["reasoning", "reasoning_tokens", "input_tokens", "output_tokens"]
filled = {  # what each adapter puts in the slot
    "Ollama": ["thinking text", "None", "count", "count (thinking included)"],
    "OpenAI": ["None", "count", "count", "count (thinking included)"],
    "scripted": ["when the script says", "None", "None", "None"],
}
print(f"{'slot':17}" + "".join(f"{name:27}" for name in filled))
for i, slot in enumerate(slots):
    print(f"{slot:17}" + "".join(f"{values[i]:27}" for values in filled.values()))

# %% [markdown]
# *Live cell.* The active model (`make_llm()`, from `MINGRAPH_LLM`) answers the question's first round once, and
# we print which slots it filled. With a live model the output changes from run to run, so nbval skips it.

# %%
# NBVAL_IGNORE_OUTPUT
llm = make_llm()
print("active model:", model_name(llm), "(live)" if is_live(llm) else
      "(scripted; try MINGRAPH_LLM=ollama:qwen3.5:2b or openai:gpt-5-mini)")
response = llm.generate([SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION)], weather_registry().tools)
print("answered by:", response.model)
for slot in ("input_tokens", "output_tokens", "reasoning", "reasoning_tokens"):
    value = getattr(response, slot)
    print(f"  {slot:17} {'not reported' if value is None else repr(value)[:90]}")
print("  slips:", [(c.name, c.arguments) for c in response.message.tool_calls])

# %% [markdown]
# ## The run that got Tokyo wrong
#
# In the source article, qwen3.5:2b with thinking on was asked our question. Both lookups came back right (18
# and 24, Celsius), Paris was converted to 64°F, and the final answer said **Tokyo: 24°F**. The console logger
# printed the step-3 thinking, which said why.
#
# Below is a **scripted re-enactment** of that run (`wrong_tokyo_manager`, not a model), recorded to a trace
# file.
#
# **Predict first:** the run makes three model calls and four tool calls. Which line of its trace will be the
# first wrong one? Write your guess here (an event name): ...

# %%
TRACE = Path("traces/04_wrong_tokyo.jsonl")
TRACE.unlink(missing_ok=True)
agent = Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT,
              observers=[ConsoleLogger(), TraceRecorder(TRACE)])
answer = agent.run({"question": QUESTION})["answer"]
print("\nanswer:", answer, " <- scripted re-enactment, not a model")


# %% [markdown]
# ### Reading the trace by hand
#
# Read top to bottom, checking each line against what you know (the teaching data: Paris 18°C, Tokyo 24°C), and
# stop at the first line that is wrong. First as a few lines of plain Python:

# %%
def brief(e):
    """One trace line, shortened to what a reader checks."""
    if e["event"] == "model_reply":
        m = e["message"]
        slips = [(c["name"], c["arguments"]) for c in m["tool_calls"]]
        said = f"asks for {slips}" if slips else repr(m["content"])
        thinking = f"   thinking: {e['reasoning'][:60]!r}..." if e.get("reasoning") else ""
        return f"model_reply   {said}{thinking}"
    if e["event"] == "tool_call":
        return f"tool_call     {e['name']}({e['arguments']})"
    if e["event"] == "tool_return":
        return f"tool_return   {e['name']} answered {e['content']!r}"
    if e["event"] == "finish":
        return f"finish        {e['reason']}"
    return e["event"]


events = read_trace(TRACE)
for n, e in enumerate(events, 1):
    print(f"{n:>2}  step {e['step'] or '-'}  {brief(e)}")

# %%
celsius = {"Paris": 18, "Tokyo": 24}          # the teaching data, the truth to check against


def first_wrong_by_hand(events):
    for n, e in enumerate(events, 1):
        is_lookup = e["event"] == "tool_return" and e["name"] == "get_weather"
        if is_lookup and int(e["content"]) not in celsius.values():
            return n, "a lookup returned a number that isn't in the data"
        if e["event"] == "model_reply" and not e["message"]["tool_calls"]:
            for city, c in celsius.items():
                if f"{city}: {round(c * 9 / 5 + 32)}°F" not in e["message"]["content"]:
                    return n, f"the reply's {city} is not {round(c * 9 / 5 + 32)}°F"
    return None, "nothing wrong"


print(first_wrong_by_hand(events))

# %% [markdown]
# The hand-written check only knows this one script's phrasing. The package's `classify(events)` does the same
# walk with checks that don't depend on phrasing: every slip must be for a city asked about (or a number a tool
# returned), every answer slip must match the teaching data, and the final reply must give each city's
# Fahrenheit.

# %%
verdict = classify(events)
print(f"outcome: {verdict.outcome} (case {verdict.case}), first wrong line: {verdict.line}")
print("why:", verdict.why)
print("said a Celsius number as Fahrenheit:", verdict.celsius_as_fahrenheit)

# %% [markdown]
# The line that matters, and what the model was holding when it went wrong:

# %%
wrong = events[verdict.line - 1]
print(f"line {verdict.line}: step {wrong['step']}, {wrong['event']}")
print("  content:  ", repr(wrong["message"]["content"]))
print("  reasoning:", repr(wrong["reasoning"]))
held = [(n, e) for n, e in enumerate(events, 1) if e["event"] == "tool_return" and e["name"] == "get_weather"]
for n, e in held:
    print(f"line {n}: tool_return {e['name']} answered {e['content']!r}")

# %% [markdown]
# Every answer slip was right; the final reply was wrong; the thinking says why. That is case 3. But look at
# what the model held for Tokyo: a bare `"24"`. We come back to that below.
#
# ## The four cases of "first wrong line"
#
# Where the first wrong line sits tells you whose problem it is:
#
# | case | the first wrong line | whose problem | where to look |
# |---|---|---|---|
# | 1 | a **wrong slip**: wrong tool, wrong/made-up arguments, tool skipped | the request | prompt, tool menu |
# | 2 | a right slip but a **wrong answer slip** | the tool | the tool's code |
# | 3 | every answer slip right, the **final reply wrong** | the reasoning | its thinking, what it held |
# | 4 | it **never finished** | the limit | what it kept asking for |
#
# One scripted run for each (the tool in case 2 has a planted bug: it doubles every temperature):

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

wrong_city = ScriptedLLM([[("get_weather", {"city": "London"})], "London: 57°F"],
                         name="scripted: wrong city")
runs = [("asks about London", wrong_city, weather_registry(), 10),
        ("a buggy get_weather", four_round_manager(), buggy, 10),
        ("Tokyo already °F", wrong_tokyo_manager(), weather_registry(), 10),
        ("keeps asking", looping_manager(), weather_registry(), 3)]

print(f"{'scripted run':20} {'outcome':22} {'case':>4} {'line':>4}  first wrong line")
case_events = {}
for label, llm, tools, limit in runs:
    recorder = EventRecorder()
    try:
        Agent(llm, tools, SYSTEM_PROMPT, observers=[recorder], max_steps=limit).run({"question": QUESTION})
    except StepLimitReached:
        pass  # case 4: the trace shows what it kept asking for
    v = classify(recorder.events)
    case_events[label] = recorder.events
    print(f"{label:20} {v.outcome:22} {v.case:>4} {v.line:>4}  {brief(recorder.events[v.line - 1])}")


# %% [markdown]
# ### Exercise 1: which case?
#
# A scripted manager converted Paris, and then converted the result *again*. Here is its trace. Which case is it
# (1 to 4), and which line is the first wrong one? (The final reply is wrong too; that is not the question.)

# %%
def _twice(messages, tools):
    return [("to_fahrenheit", {"celsius": 64})]


twice = ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})],
                     [("to_fahrenheit", {"celsius": 18})], _twice, [("to_fahrenheit", {"celsius": 24})],
                     "Paris: 147°F, Tokyo: 75°F"], name="scripted: converts twice")
exercise = EventRecorder()
Agent(twice, weather_registry(), SYSTEM_PROMPT, observers=[exercise]).run({"question": QUESTION})
for n, e in enumerate(exercise.events, 1):
    print(f"{n:>2}  step {e['step'] or '-'}  {brief(e)}")

# %%
answer_case = None   # 1, 2, 3 or 4
answer_line = None   # the line number


# %%
def check_case(case, line):
    truth = classify(exercise.events)
    if case is None or line is None:
        return "not answered yet"
    if (case, line) == (truth.case, truth.line):
        return f"correct: {truth.why}"
    if case != truth.case:
        return ("not quite, hint: the *first* wrong line decides, not the last. "
                "Which tool_call asks for a number no get_weather returned?")
    return "right case, wrong line: count to the tool_call line itself, not its answer"


print(check_case(answer_case, answer_line))

# %% [markdown]
# ## The trace pointed at the tool
#
# Back to the wrong-Tokyo run. The easy conclusion is "small models are bad at this". But the model's reasoning
# in the source article's trace said the numbers were "already Fahrenheit temperatures **based on the tool's
# response format**", and two lines up the model was holding a bare `"18"`.
#
# The unit *was* on the menu: `get_weather`'s description says "in degrees Celsius". But the menu is read once,
# at the start; rounds later the manager holds a slip that just says 18. `weather_registry(unit_in_result=True)`
# makes the unit travel with the result:

# %%
print("on the menu:", weather_registry().tools[0]["function"]["description"])
for unit in (False, True):
    slip = weather_registry(unit_in_result=unit).run(ToolCall("t1", "get_weather", {"city": "Paris"}))
    print(f"unit_in_result={unit!s:5}  get_weather('Paris') answers {slip.content!r}")

# %% [markdown]
# The source article tested exactly that change on the smallest model: same agent, same question, only the
# result format different. Its figures:

# %%
print(reported_table())

# %% [markdown]
# With the unit in the result, the "already Fahrenheit" mistake disappeared. The traces also showed that the 6
# right runs were messier than the count: most skipped `to_fahrenheit` (against the prompt), and one made its
# numbers up, which only the trace gives away. Eight runs on one tiny model: the direction is solid, the exact
# numbers are not.
#
# ## The experiment as a harness
#
# `run_experiment` in `mingraph_lite.course.experiments` repeats it: N runs per variant, a progress bar over the
# runs, each run traced (one trace file per variant), each run classified by `classify`, and a table per
# variant.
#
# **Offline there is no model to measure**, so it runs **scripted managers modelling the reported behaviour**:
# for each run a seeded `random.Random` picks a behaviour with the reported frequencies (out of 8). What the
# article didn't describe is modelled as a manager that keeps asking until the step limit. This shows the
# harness and how much 8 runs wobble; it measures nothing.

# %%
for variant, weights in MODELLED.items():
    print(f'"{variant}":', ", ".join(f"{behaviour} {n}/8" for behaviour, n in weights.items()))

# %% [markdown]
# **Predict first:** with 8 modelled runs per variant, how many `"18°C"` runs will get the right numbers this
# time? Write your guess here: ...
#
# (The progress bar's output shows timings, so nbval skips this cell; the next cell prints the results.)

# %%
# NBVAL_IGNORE_OUTPUT
results = run_experiment(trace_dir="traces/04_experiment", runs=8, seed=1, progress=True)

# %%
print(results.table())

# %%
print(f"{'variant':8} {'run':>3}  {'outcome':22} {'line':>4}  why")
for r in results.runs:
    print(f"{r.variant:8} {r.run:>3}  {r.outcome:22} {r.line or '-':>4}  {r.why[:80]}")

# %%
title = "18 vs 18°C: scripted managers modelling the report (not a model)"
show(plot_experiment(results.counts(), title=title))

# %% [markdown]
# How does this re-run compare with the report?

# %%
print(versus_reported(results))

# %% [markdown]
# The modelled bare variant can never be right (the report had 0 of 8), but the other counts wobble around the
# reported ones from seed to seed: 8 runs are few. That is why the article calls its direction solid and its
# exact numbers unsure, and why a live re-run (below) is a measurement and this one is not.
#
# ### Exercise 2: right, but how?
#
# In the `"18°C"` runs above, how many got the right numbers **without** calling `to_fahrenheit` (doing the
# arithmetic themselves, against the prompt)? Careful: the table's "used to_fahrenheit" column is not the whole
# story.

# %%
own_arithmetic = None   # a number of runs


# %%
def check_own_arithmetic(answer):
    unit_runs = [r for r in results.runs if r.variant == "18°C"]
    truth = sum(r.outcome == "right" and not r.converted_with_tool for r in unit_runs)
    if answer is None:
        return "not answered yet"
    if answer == truth:
        return "correct"
    return ("not quite, hint: a made-up run also calls to_fahrenheit; read the 'why' column of the per-run "
            "table for the right runs")


print(check_own_arithmetic(own_arithmetic))

# %% [markdown]
# *Live cell.* With `MINGRAPH_LLM` naming a real model (for example `ollama:qwen3.5:0.8b`, the model of the
# report), the same harness runs for real: 8 runs per variant, traces and a CSV saved under
# `data/experiments/<model>/`. Its output depends on the model, so nbval skips it.

# %%
# NBVAL_IGNORE_OUTPUT
llm = make_llm()
if is_live(llm):
    out_dir = Path("..") / "data" / "experiments" / re.sub(r"[^A-Za-z0-9.]+", "-", model_name(llm)).strip("-")
    live = run_experiment(llm, trace_dir=out_dir, runs=8, progress=True)
    print(live.table())
    print("saved:", live.to_csv(out_dir / "results.csv"), "and one trace per variant beside it")
    show(plot_experiment(live.counts(), title=f"18 vs 18°C, live: {model_name(llm)}"))
else:
    print(f"active model: {model_name(llm)} (scripted), so there is nothing to measure here.")
    print("Run with MINGRAPH_LLM=ollama:qwen3.5:0.8b (or another live model) to measure.")

# %% [markdown]
# *Recorded live runs.* Live runs saved earlier under `data/experiments/` (one folder per model; the repository
# ships one from the local SmolLM2-135M model, run with `MINGRAPH_LLM=local`, greedy decoding, so its runs repeat
# each other). What is on disk depends on what was run, so nbval skips this cell.

# %%
# NBVAL_IGNORE_OUTPUT
import csv

recorded = sorted(Path("../data/experiments").glob("*/results.csv"))
for path in recorded:
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    print(f"{path.parent.name}: {len(rows)} live runs recorded")
    for row in rows:
        print(f'  "{row["variant"]}" run {row["run"]}: {row["outcome"]:22} line {row["line"] or "-":>3}  '
              f'{row["why"][:70]}')
if not recorded:
    print("no live run recorded under data/experiments/ yet")

# %% [markdown]
# ## What is still open
#
# - **Eight runs, one tiny model.** The reported effect's direction is solid; its size is not, and nobody has
#   checked whether larger models make the bare-number mistake (gpt-5-mini was right in the two runs the article
#   made).
# - **The classifier knows this one question.** It checks against the teaching data and reads numbers out of
#   free text after each city's name. A general "first wrong line" needs the truth for every tool and a reply
#   format you can check (structured output), not a regular expression.
# - **OpenAI's thinking text** needs the Responses API (reasoning summaries), which is close to a new adapter;
#   Chat Completions gives only the count.
# - **Right for the wrong reasons.** Four of the six right runs ignored "never do the arithmetic yourself". An
#   outcome count can't see that; only the trace does, so the harness keeps every trace.
