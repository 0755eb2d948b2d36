# %% [markdown]
# # 05 · Reasoning capture: thinking, and the first wrong line of a trace
#
# **Read this first: the thinking in this notebook is one real line and a few scripted runs.** *Reasoning capture*
# keeps the thinking a model reports beside its reply: our adapters copy it into `LLMResponse.reasoning` (the text)
# and `reasoning_tokens` (the count), never sent back. Our recorded models (SmolLM2-135M, Gemma 3 270M) have no
# thinking channel (asked to think, they write noise) and no thinking model can be installed on this offline
# machine, so the real thinking is **one trace line of a qwen3.5:0.8b run that the article printed** (see
# Sources), quoted as printed; the rest is **scripted** (labelled re-enactments). With Ollama and `ollama pull qwen3:0.6b`, the last cell shows a real model's thinking.
#
# **By the end of this notebook you will be able to**
#
# - read a model's thinking and its token count from `LLMResponse`;
# - find a run's **first wrong line**, say whose problem it is, and count one mistake over many runs.
#
# How sure a count of runs is (6 of 8, say) is notebook 06's subject.
#
# **Prerequisites:** notebooks 01, 02 and 04; Python functions, dicts and list comprehensions.
#
# **Time:** about 82 minutes (estimated from length and exercises).
#
# **Sources.** The story, the four cases and the reported figures come from the article *The State and
# Observer Patterns in a Python Agent Loop* (our copy does not name its author); its figures are quoted as
# theirs. *Scripted* runs are written in advance; *recorded* runs are real runs of local models.

# %%
# %matplotlib inline
import os
import re  # noqa: F401  (for your answers to 05.1 and 05.3)
from collections import Counter
from dataclasses import fields
from pathlib import Path

from mingraph_lite import (Agent, ConsoleLogger, EventRecorder, KeepAll, LLMResponse, ReplayLLM, ToolCall,
                           TraceRecorder, read_trace)
from mingraph_lite.course.scripts import (QUESTION, SYSTEM_PROMPT, four_round_manager, looping_manager,
                                          wrong_tokyo_manager)
from mingraph_lite.course.weather import weather_registry
from lessons.exercises import check
from lessons.exercises.nb05 import doubling_registry, london_manager, recorded, show_05_2_run
from lessons.predict import reveal
from lessons.reference import reference
from lessons.trace_lines import brief, print_folder, print_live_run, print_trace

# %% [markdown]
# ## The envelope: where thinking goes
#
# A listener's `on_model_reply` receives an `LLMResponse`: the message (which goes into the **folder**, the
# messages sent to the model each round) inside an **envelope** of facts about the reply. Thinking rides on the
# envelope (question 1 asks why). Every reply the shipped local models recorded:

# %%
for f in fields(LLMResponse):
    print(f"{f.name:17} {str(f.type):18}", "the folder: read back every round" if f.name == "message" else "the envelope")

# %%
replies = [e for trace in sorted(Path("../data/experiments").rglob("traces/*.jsonl"))
           for e in read_trace(trace) if e["event"] == "model_reply"]
print(f"{len(replies)} recorded replies of SmolLM2-135M and Gemma 3 270M; with a reasoning text: {sum(e['reasoning'] is not None for e in replies)}, "
      f"with a thinking-token count: {sum(e['reasoning_tokens'] is not None for e in replies)}")

# %% [markdown]
# ## A real reply with thinking, as the article printed it
#
# The article's author ran our question on **qwen3.5:0.8b** through Ollama, thinking on, and printed one line of
# the trace. Here it is as printed (the `...` are their cuts); only the `message` wrapper is ours.

# %%
from lessons.exercises.nb05_thinking import ARTICLE_LINE as article_line  # the check reads this same line

for field, value in article_line.items():
    print(f"{field:17} {value!r}")

# %% [markdown]
# Three things to read in it:
#
# - **The text is real and says why.** The model took the bare `18` and `24` for Fahrenheit "based on the tool's
#   response format": both cities wrong. Neither the reply nor a count would have told you why.
# - **The count is missing, not zero.** Ollama returns thinking text and no thinking count: `reasoning_tokens` is
#   `None`. That the 80 output tokens include the thinking is **a guess**, from the article's probe of another
#   model (qwen3.5:2b: **434** output tokens with thinking on, **4** off; reported, not run here). An estimate
#   from the text's length would look like a measurement, so the envelope says `None`.
# - **OpenAI is the mirror image:** a count (`reasoning_tokens`) and no text.

# %% [markdown]
# What providers report, and whether they want it back:
#
# | provider | `reasoning` | `reasoning_tokens` | thinking sent back later? |
# |---|---|---|---|
# | Ollama, thinking model (qwen3) | `message.thinking` | `None` (inside the output count) | accepted; with thinking on, its qwen3 template uses it for turns after the last user message |
# | OpenAI Chat Completions | `None` (no text returned) | `usage.completion_tokens_details.reasoning_tokens` | nothing to send |
# | Anthropic, thinking with tools | thinking blocks | inside the output count | required, unchanged, with the tool call it led to |
#
# Sources: Ollama's docs *Thinking*; for Ollama's count, the article's probe of qwen3.5:2b (reported, not run
# here); for the template, a public copy of `qwen3`'s (not tested here); OpenAI's Chat Completions API reference;
# Anthropic's *Building with extended thinking*, *Preserving thinking blocks*. `None` means **not reported**,
# never an estimate.

# %% [markdown]
# ## Record before you know there is a bug
#
# In the article, qwen3.5:2b with thinking on answered our question with **Tokyo: 24°F**; its thinking said
# *"Tokyo is already in Fahrenheit, so I don't need to convert it."* Re-run six times, it never got Tokyo wrong
# again (reported). A **scripted re-enactment** (`wrong_tokyo_manager`, with the 2b run's thinking), traced as it
# runs:

# %%
TRACE = Path("traces/05_wrong_tokyo.jsonl")
TRACE.unlink(missing_ok=True)
Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT,
      observers=[ConsoleLogger(), TraceRecorder(TRACE)]).run({"question": QUESTION})
events = read_trace(TRACE)

# %% [markdown]
# Three model calls and **three** tool calls: Tokyo was never converted. The trace, numbered from 1 (line 1 is
# `run_start`) as `enumerate(events, 1)` gives it. A **slip** is a `tool_call`, an **answer slip** a `tool_return`,
# a **request** a `model_reply` that asks for slips; each slip shows up twice, in its request and on its own line.

# %%
print_trace(events)
assert [sum(e["event"] == kind for e in events) for kind in ("model_reply", "tool_call", "tool_return")] == [3, 3, 3]

# %% [markdown]
# ### Exercise 05.1 (code): what the thinking cost, and Celsius written as °F
#
# A `model_reply` event carries the envelope: `reasoning` (text or `None`), `reasoning_tokens` and
# `output_tokens` (counts or `None`: not reported; here the output count includes the thinking). Its text is
# `e["message"]["content"]` (`None` when it has none), its slips `e["message"]["tool_calls"]`; a `tool_return`
# has `name` and `content`. Write `thinking_report(events)` returning `(shares, flagged)`:
#
# - `shares`: for each `model_reply`, keyed by its line, `reasoning_tokens / output_tokens`, or `None` when
#   either count is missing (an unreported count is not 0) or the output count is 0 (no share of nothing);
# - `flagged`: the lines of the **final replies** (no slips) that write as °F a number an earlier `get_weather`
#   answer slip gave: Celsius, bare (`"24"`) or with the unit (`"24°C"`). The unit the tool gave, not the number,
#   decides: a number `to_fahrenheit` answered is Fahrenheit already. Compare numbers, not text (`24.0` is 24);
#   `re.findall(r"-?\d+(?:\.\d+)?", text)` finds numbers, `re.findall(r"(-?\d+(?:\.\d+)?)\s*°F", text)` those
#   written as °F.
#
# The check runs it on **scripted** traces and on the article's real line (a trace of one line), and refuses
# `classify` (it judges a run; it never reads the envelope).

# %%
def thinking_report(events):
    raise NotImplementedError  # return (shares, flagged)


# %%
check("05.1", thinking_report)

# %% [markdown]
# **Predict.** A simpler flag, `thought_but_unused`, marks a reply whose *thinking* names a number the reply does
# not use. Would it catch the article's mistake, or the re-enactment's? Write the lines it flags on each.

# %%
from lessons.exercises.nb05_thinking import thought_but_unused

my_flags = ...  # (lines on [article_line], lines on the re-enactment's events)
simple = (thought_but_unused([article_line]), thought_but_unused(events))
reveal(my_flags, simple, "(article, re-enactment)", gated=True, hint="list each reply's thinking numbers and its reply's")
if my_flags == simple:  # why, once your guess is right
    print("Silent on the article (its reply uses 18 and 24 both); line 13 for Paris's 18, rightly given as 64°F, "
          "not for Tokyo's 24: a hint, not a verdict. Your 05.1 flag reads the unit the tool gave instead:")
    print("05.1's rule (the reference) on each:", reference("05.1")([article_line])[1], reference("05.1")(events)[1])
assert reference("05.1")([article_line]) == ({1: None}, []) and reference("05.1")(events)[1] == [13]

# %% [markdown]
#
# ## The first wrong line
#
# **The convention.** Number the lines as above, read top to bottom, and stop at the **first** line that is
# wrong; later lines are often wrong *because* of it, so they don't count. What "wrong" means, line by line:
#
# - a **slip** (`tool_call`) is wrong if it names a tool not on the **menu** (the tool descriptions sent), or asks `get_weather` about a city
#   the question did not ask about, or asks `to_fahrenheit` about a number that **no `get_weather` answer slip
#   returned**. Only `get_weather`'s numbers are Celsius: a number from `to_fahrenheit` is Fahrenheit already;
# - a **request** (`model_reply` that asks for slips) is never the wrong line itself: each slip it carries is
#   judged on its own `tool_call` line just below;
# - an **answer slip** (`tool_return`) is wrong if it differs from the teaching data (Paris 18°C, Tokyo 24°C)
#   or from the right conversion;
# - the **final reply** is wrong if it does not give each city's Fahrenheit (within 1°); a final reply before
#   both lookups is wrong too: its numbers came from nowhere;
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
# A scripted manager converted Paris's 18, then the *result*, 64, again, then Tokyo's 24. Which case (1 to 4),
# which line is the first wrong one, and which line's answer slip handed the model the wrong number? Answer as
# `(case, line, source)`.

# %%
show_05_2_run()  # prints the stored scripted run; the notebook never holds its events

# %%
case_and_line = ...  # (case, line, source)

# %%
check("05.2", case_and_line)

# %% [markdown]
# `classify(events)` in `mingraph_lite.course.classify` applies exactly these rules. On the re-enactment:

# %%
from mingraph_lite.course.classify import classify

verdict = classify(events)
print(f"outcome: {verdict.outcome} (case {verdict.case}), first wrong line: {verdict.line}; why: {verdict.why}")
assert verdict.case == 3 and "24" in [e["content"] for e in events if e["event"] == "tool_return"]

# %% [markdown]
# Case 3, the reasoning. One scripted run for each case (case 2's tool has a planted bug: it doubles every
# temperature); `recorded(llm, tools=..., max_steps=...)` returns one run's events:

# %%
buggy = doubling_registry()  # get_weather returns str(lookup(city)["celsius"] * 2): the planted bug
runs = [("asks about London", recorded(london_manager())), ("a buggy get_weather", recorded(four_round_manager(), tools=buggy)),
        ("Tokyo already °F", recorded(wrong_tokyo_manager())), ("keeps asking", recorded(looping_manager(), max_steps=3))]
verdicts = [classify(events) for _, events in runs]
for (label, events), v in zip(runs, verdicts):
    print(f"{label:20} {v.outcome:22} case {v.case}, line {v.line:>2}:  {brief(events[v.line - 1])}")
assert [v.case for v in verdicts] == [1, 2, 3, 4]  # one run for each case, as the table promised

# %% [markdown]
# ### Counting one mistake over many runs
#
# `classify` stops at the first wrong line. "How often does each variant ask about the wrong city?" needs every
# such line, in every run. A `tool_call` event has `id`, `name` and `arguments` (a dict); a `tool_return` has
# `tool_call_id`, `name` and `content` (text such as `"18"` or `"18°C"`). One rule, for `get_weather`, counted per
# variant over a list of `(variant, events)` runs:

# %%
def wrong_city_lines(events):
    """The line of every get_weather slip about a city the question did not ask about."""
    return [line for line, e in enumerate(events, 1)
            if e["event"] == "tool_call" and e["name"] == "get_weather"
            and e["arguments"].get("city", "").lower() not in {"paris", "tokyo"}]  # the question's cities


def wrong_cities_per_variant(runs):
    counts = Counter({variant: 0 for variant, _ in runs})  # every variant gets a count, 0 included
    for variant, events in runs:
        counts[variant] += len(wrong_city_lines(events))
    return dict(counts)


print(wrong_cities_per_variant([("scripted A", recorded(london_manager())), ("scripted A", recorded(four_round_manager())),
                                ("scripted B", recorded(four_round_manager()))]))

# %% [markdown]
# Each slip is judged on its own there. The `to_fahrenheit` rule needs memory: whether a number is made up
# depends on what `get_weather` answered *earlier in the same run*.
#
# ### Exercise 05.3 (code): made-up numbers, per variant
#
# Write `made_up_counts(runs)`: given a list of `(variant, events)` runs, return a dict with one key per
# variant seen, counting **every** `to_fahrenheit` slip whose `celsius` is not a number that an earlier
# `get_weather` answer slip *of the same run* returned. The rules of 02.3 hold:
#
# - compare numbers, not text: `"Paris: 18°C"` holds 18, and `re.findall(r"-?\d+(?:\.\d+)?", text)` finds it;
# - a number that came back from `to_fahrenheit` is Fahrenheit already;
# - arguments that stayed text (their JSON did not parse) count as made up, and so does a `celsius` with no
#   number in it: `{"celsius": "18"}` gives 18, `{"celsius": "eighteen"}` gives none. This count asks only where
#   the number came from, so it keeps a number sent as text; `classify` and the tool judge the slip as sent (the
#   tool wants a number), so both refuse `{"celsius": "18"}`: the right number in the wrong type.
#
# The check runs it on scripted traps, then on the 224 recorded runs of `finish-right-2` and `finish-right-3`
# (held out). It refuses `classify` and its rule helpers: they stop at a run's first wrong line.

# %%
def made_up_counts(runs):
    raise NotImplementedError  # return {variant: number of made-up to_fahrenheit slips}


# %%
check("05.3", made_up_counts)

# %% [markdown]
# ## The trace pointed at the tool
#
# The article's 0.8b run took both bare numbers for Fahrenheit "based on the tool's response format". The unit is
# on the menu, once, far from the numbers; `weather_registry(unit_in_result=True)` makes it travel with the result:

# %%
print("on the menu:", weather_registry().tools[0]["function"]["description"])
for unit in (False, True):
    slip = weather_registry(unit_in_result=unit).run(ToolCall("t1", "get_weather", {"city": "Paris"}))
    print(f"unit_in_result={unit!s:5}  get_weather('Paris') answers {slip.content!r}")

# %% [markdown]
# Notebook 06 re-runs the article's test of that change.
#
# ## A run with a worked example, read line by line
#
# The definition `finish-right` asks our question four ways, 16 sampled runs per variant per model. Nine of its 128 runs looked up both cities
# (`test_nine_of_the_128_finish_right_runs_looked_up_both_cities_and_gemma_run_10_is_one_of_them` in
# tests/notebooks/test_nb05_claims.py counts them). One of the nine, replayed, nothing edited:
#
# - model: **Gemma 3 270M**, Q4_K_M weights, run in-process by llama.cpp;
# - definition `finish-right`, variant **"worked example"**, run #10;
# - settings: temperature 0.7, seed from the results file (below), at most 6 model calls (`max_steps=6`).
#
# The **worked example** (two other cities, before the question) is marked `"example"`. What the model read:

# %%
from mingraph_lite.course.results_folder import read_results

FINISH = Path("../data/experiments/finish-right/gemma3-270m")
row = next(r for r in read_results(FINISH) if r.variant == "worked example" and r.index == 10)
print(f"variant {row.variant!r}, run #{row.index}, seed {row.seed}, temperature {row.temperature}")
TRACE_10 = FINISH / row.trace
print_folder(read_trace(TRACE_10)[0]["messages"])

# %% [markdown]
# **Predict first.** The model had the example's two conversions right in front of it. Which case will its run be
# (4 if you think it never finished), and which line of its trace the first wrong one?

# %%
my_case_and_line = ...  # (case, line), as in 05.2

# %% [markdown]
# The replay's folder must start as the recording's did: the prompt, the worked example, then the question.

# %%
from mingraph_lite.course.definition import load

worked = next(v for v in load("finish-right").variants if v.name == row.variant)
example_folder = KeepAll(worked.system_prompt)
for message in worked.messages:  # the worked example, before the question
    example_folder.add(message)
recorder = EventRecorder()
Agent(ReplayLLM.from_trace(TRACE_10), worked.registry(), worked.system_prompt, memory=example_folder,
      observers=[recorder], max_steps=6).run({"question": QUESTION})
real_verdict = classify(recorder.events)
print_trace(recorder.events, width=96)  # read top to bottom, stop at the first wrong line
reveal(my_case_and_line, (real_verdict.case, real_verdict.line), "(case, line)", gated=True,
       hint="check each line against the rules above: slips, answer slips, then the final reply's numbers")
if my_case_and_line == (real_verdict.case, real_verdict.line):  # the verdict shows once your guess is right
    print(f"--> {real_verdict.outcome}: {real_verdict.why}; results.csv said case {row.case}, line {row.line}")
    print("Lines 1 to 8 are right (both lookups, both answer slips); no to_fahrenheit slip; the final reply writes "
          "Celsius as °F. One run of a tiny sampled model shows what it wrote, not why.")

# %% [markdown]
# No `finish-right` run is right. The only `finish-right` runs whose first wrong line is the final reply are four
# of Gemma's, all with the worked example in the folder (both claims are tested in
# `tests/notebooks/test_nb05_claims.py`).

# %% [markdown]
# ## Try it with a live model
#
# For thinking text: install Ollama, `ollama pull qwen3:0.6b`, set `MINGRAPH_LLM=ollama:qwen3:0.6b` (or uncomment
# the cell's first line). For a count only: `OPENAI_API_KEY` and `MINGRAPH_LLM=openai:gpt-5-mini`. Clients:
# `pip install 'mingraph-lite[ollama]'` or `'mingraph-lite[openai]'`.

# %%
# NBVAL_IGNORE_OUTPUT
# os.environ["MINGRAPH_LLM"] = "ollama:qwen3:0.6b"
print_live_run(os.environ.get("MINGRAPH_LLM", ""))  # each reply's reasoning_tokens and thinking, then the verdict

# %% [markdown]
# ## Questions
#
# Answer in your own words first (the answers are in the solutions file). Questions 2 to 4 have a cell below
# that checks yours against a run of the code.
#
# 1. Why does `LLMResponse` keep a model's thinking on the envelope and not in the folder? Which kind of
#    provider would force an adapter to keep it in the folder?
# 2. What would happen to the verdict of the scripted re-enactment (`wrong_tokyo_manager`) if `get_weather`
#    answered `"18°C"` instead of `"18"`: the same verdict, or a different one? Why?
# 3. Another scripted manager converts Paris's **18** twice (not its 64), then Tokyo's 24, then answers
#    "Paris: 64°F, Tokyo: 75°F". Which outcome does `classify` give?
# 4. What would happen if you replayed Gemma's run #10 without putting the worked example in the folder first:
#    the same verdict, another verdict, or a refusal?
# 5. `wrong_city_lines` finds no line in a run that `classify` calls a wrong slip. How can both be right?

# %%
answer_q2 = ...  # "same" or "different"
check("05.Q2", answer_q2)

# %%
answer_q3 = ...  # "right", "wrong slip", "wrong tool result", "wrong final reasoning" or "never finished"
check("05.Q3", answer_q3)

# %%
answer_q4 = ...  # "same verdict", "another verdict" or "refused"
check("05.Q4", answer_q4)
