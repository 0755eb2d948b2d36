# %% [markdown]
# # 05 · Reasoning capture: thinking, and the first wrong line of a trace
#
# A thinking model returns two things: its **reply**, which goes into the conversation, and its **thinking**,
# the working it wrote before replying. This notebook shows where each one goes, then reads traces for the first
# wrong line.
#
# *Reasoning capture* keeps the thinking beside the reply: our adapters copy it into `LLMResponse.reasoning` (the
# text) and `reasoning_tokens` (the count), never sent back. The cell before the questions runs a real thinking
# model where one is installed.
#
# **By the end of this notebook you will be able to**
#
# - read a model's thinking and its token count from `LLMResponse`;
# - find a run's **first wrong line**, say whose problem it is, and count one mistake over many runs.
#
# **Prerequisites:** notebooks 01, 02 and 04; Python functions, dicts and list comprehensions.
#
# **Time:** about 75 minutes (estimated from length and exercises).
#
# **Sources.** Neither recorded model (SmolLM2-135M, Gemma 3 270M) has a thinking mode, and no thinking model can
# be installed on this offline machine, so **the real thinking here is what the article printed: one trace line of
# a qwen3.5:0.8b run, and one sentence of a qwen3.5:2b run**; **the rest is scripted** (labelled). The story, the four cases and the reported figures come
# from the article *The State and Observer Patterns in a Python Agent Loop* (our copy does not name its author);
# its figures are quoted as theirs.

# %%
# %matplotlib inline
import os
import re  # noqa: F401  (for your answer to 05.3)
from collections import Counter
from pathlib import Path

from mingraph_lite import (Agent, ConsoleLogger, EventRecorder, KeepAll, ReplayLLM,
                           TraceRecorder, read_trace)
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, wrong_tokyo_manager
from mingraph_lite.course.weather import weather_registry
from lessons.exercises import check
from lessons.exercises.nb05 import (london_manager, recorded, show_05_2_run, show_one_run_per_case, show_run_10_input,
                                    reveal_run_10)
from lessons.trace_lines import print_envelope, print_live_run, print_trace

# %% [markdown]
# ## The envelope: where thinking goes
#
# A listener's `on_model_reply` receives an `LLMResponse`: the message (which goes into the **folder**, the
# messages sent to the model each round) inside an **envelope** of facts about the reply. Thinking rides on the
# envelope (question 1 asks why). Every reply the shipped local models recorded:

# %%
replies = print_envelope(Path("../data/experiments"))  # the fields, then every recorded reply's thinking
assert not any(e["reasoning"] or e["reasoning_tokens"] for e in replies)  # no recorded reply carries thinking

# %% [markdown]
# ## A real reply with thinking, as the article printed it
#
# The article's author ran our question on **qwen3.5:0.8b** through Ollama, thinking on, and printed one trace
# line, here as printed (the `...` are their cuts; the `message` wrapper is ours).

# %%
from lessons.exercises.nb05_thinking import ARTICLE_LINE as article_line  # the check reads this same line

for field, value in article_line.items():
    print(f"{field:17} {value!r}")

# %% [markdown]
# - **The text is real and says why.** The model took the bare `18` and `24` for Fahrenheit "based on the tool's
#   response format": both cities wrong. Neither the reply nor a count says why.
# - **The count is missing, not zero.** Ollama returns thinking text and no thinking count: `reasoning_tokens` is
#   `None`. That the 80 output tokens include the thinking is **a guess**, from the article's probe of qwen3.5:2b
#   (**434** output tokens with thinking on, **4** off; reported, not run here).
# - **OpenAI Chat Completions is the mirror image:** a count (`reasoning_tokens`) and no text (its Responses API
#   can return a summary of the thinking: OpenAI's cookbook *Better performance from reasoning models using the
#   Responses API*).

# %% [markdown]
# What providers report and want back:
#
# | provider | `reasoning` | `reasoning_tokens` | thinking sent back later? |
# |---|---|---|---|
# | Ollama, thinking model (qwen3) | `message.thinking` | `None` (inside the output count, by the article's probe: reported) | accepted |
# | OpenAI Chat Completions | `None` (no text returned) | `usage.completion_tokens_details.reasoning_tokens` | nothing to send |
# | Anthropic, thinking with tools | thinking blocks | inside the output count | required, unchanged, with the tool call it led to |
#
# Sources: Ollama's docs *Thinking*; OpenAI's Chat Completions API reference; Anthropic's *Building with extended thinking*, *Preserving thinking blocks*.

# %% [markdown]
# ## Record before you know there is a bug
#
# In the article, qwen3.5:2b with thinking on answered our question with **Tokyo: 24°F**; its thinking said
# *"Tokyo is already in Fahrenheit, so I don't need to convert it."* Re-run six times, it never got Tokyo wrong
# again (reported). A **scripted re-enactment** (`wrong_tokyo_manager`, with the 2b run's thinking), traced:

# %%
TRACE = Path("traces/05_wrong_tokyo.jsonl")
TRACE.unlink(missing_ok=True)
Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT,
      observers=[ConsoleLogger(), TraceRecorder(TRACE)]).run({"question": QUESTION})
events = read_trace(TRACE)

# %% [markdown]
# Three model calls and **three** tool calls: Tokyo was never converted. The trace, numbered from 1 (line 1 is
# `run_start`) as `enumerate(events, 1)` gives it. A **slip** is a tool call (`tool_call`), an **answer slip** its
# result (`tool_return`), a **request** a `model_reply` that asks for slips.

# %%
print_trace(events)
assert [sum(e["event"] == kind for e in events) for kind in ("model_reply", "tool_call", "tool_return")] == [3, 3, 3]

# %% [markdown]
# ### Exercise 05.1 (code): what the thinking cost, and what nobody counted
#
# A `model_reply` event carries the envelope: `reasoning` (text or `None`), `reasoning_tokens` and
# `output_tokens` (counts or `None`: not reported; here the output count includes the thinking). Write
# `thinking_report(events)` returning `(shares, uncounted)`:
#
# - `shares`: for each `model_reply`, keyed by its line, `reasoning_tokens / output_tokens`, or `None` when
#   either count is missing (an unreported count is not 0) or the output count is 0 (no share of nothing);
# - `uncounted`: the lines of the replies that carry thinking text but no thinking count: what they cost is unknown.
#
# The check runs it on **scripted** traces and on the article's real line, and refuses `classify` (it never
# reads the envelope).

# %%
def thinking_report(events):
    raise NotImplementedError  # return (shares, uncounted)


# %%
check("05.1", thinking_report)

# %% [markdown]
# **Predict.** A simple flag, `thought_but_unused`, marks a reply whose *thinking* names a number the reply does
# not use. Which lines does it flag on the article's line, and on the re-enactment?

# %%
from lessons.exercises.nb05_thinking import reveal_thought_but_unused

my_flags = ...  # (lines on [article_line], lines on the re-enactment's events)
reveal_thought_but_unused(my_flags, events)  # runs thought_but_unused on both; says why once your guess is right

# %% [markdown]
#
# ## The first wrong line
#
# **The convention.** Read the numbered lines top to bottom and stop at the **first** wrong one; later lines are
# often wrong *because* of it. What "wrong" means:
#
# - a **slip** (`tool_call`) is wrong if it names a tool not on the **menu**, or asks `get_weather` about a city
#   the question did not ask about, or asks `to_fahrenheit` about a number that **no `get_weather` answer slip
#   returned**. Only `get_weather`'s numbers are Celsius: a number from `to_fahrenheit` is Fahrenheit already;
# - a **request** (`model_reply` that asks for slips) is never the wrong line itself: each slip it carries is
#   judged on its own `tool_call` line just below;
# - an **answer slip** (`tool_return`) is wrong if it differs from the teaching data (Paris 18°C, Tokyo 24°C)
#   or from the right conversion;
# - the **final reply** is wrong if it does not give each city's Fahrenheit (within 1°); a final reply before
#   both lookups is case 1, its numbers made up, and the wrong line is that reply;
# - a run that ends without an answer never finished.
#
# Where it sits says whose problem it is:
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
# `classify(events)` in `mingraph_lite.course.classify` applies exactly these rules. Its case 3 also catches
# Celsius written as °F (`celsius_as_fahrenheit`). On the re-enactment:

# %%
from mingraph_lite.course.classify import classify

verdict = classify(events)
print(f"outcome: {verdict.outcome} (case {verdict.case}), first wrong line: {verdict.line}; why: {verdict.why}; "
      f"Celsius written as °F: {verdict.celsius_as_fahrenheit}")
assert verdict.case == 3 and verdict.celsius_as_fahrenheit and "24" in [e["content"] for e in events if e["event"] == "tool_return"]

# %% [markdown]
# One scripted run for each case (case 2's `get_weather` has a planted bug: it doubles
# every temperature):

# %%
verdicts = show_one_run_per_case()  # each run's verdict and its first wrong line
assert [v.case for v in verdicts] == [1, 2, 3, 4]  # one run for each case, as the table promised

# %% [markdown]
# ### Counting one mistake over many runs
#
# `classify` stops at the first wrong line; "how often does each variant ask about the wrong city?" needs every
# such line. A `tool_call` event has `name` and `arguments` (a dict); a `tool_return` has `name` and `content`
# (text such as `"18"` or `"18°C"`). One rule, counted per variant over `(variant, events)` runs:

# %%
def wrong_city_lines(events):  # every get_weather slip about a city the question did not ask about
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
# The `to_fahrenheit` rule needs memory: what `get_weather` answered *earlier in the same run*.
#
# ### Exercise 05.3 (code): made-up numbers, per variant
#
# Write `made_up_counts(runs)`: given a list of `(variant, events)` runs, return a dict with one key per
# variant seen, counting **every** `to_fahrenheit` slip whose `celsius` is not a number that an earlier
# `get_weather` answer slip *of the same run* returned. The rules of 02.3 hold:
#
# - a slip in the **same reply** as its `get_weather` is a guess, even a lucky one: the model wrote it before it
#   saw the answer. Only answer slips of an **earlier reply** (an earlier `step`) count, not of an earlier line
#   (`classify`, which reads lines, lets such a slip pass);
# - compare numbers, not text: `"Paris: 18°C"` holds 18, and `re.findall(r"-?\d+(?:\.\d+)?", text)` finds it;
# - a number that came back from `to_fahrenheit` is Fahrenheit already;
# - arguments that stayed text (their JSON did not parse) count as made up, and so does a `celsius` with no
#   number in it: `{"celsius": "18"}` gives 18 (this count asks only where the number came from),
#   `{"celsius": "eighteen"}` gives none.
#
# The check runs it on scripted traps, then on the 224 recorded runs of `finish-right-2` and `finish-right-3`
# (held out). It refuses `classify` and its rule helpers: they stop at a run's first wrong line.

# %%
def made_up_counts(runs):
    raise NotImplementedError  # return {variant: number of made-up to_fahrenheit slips}


# %%
check("05.3", made_up_counts)

# %% [markdown]
# ## A run with a worked example, read line by line
#
# The definition `finish-right` asks our question four ways, 16 sampled runs per variant per model. Nine of its
# 128 runs looked up both cities (a test in tests/notebooks/test_nb05_claims.py counts them). One of the nine,
# replayed, nothing edited: **Gemma 3 270M** (Q4_K_M, llama.cpp), variant **"worked example"**,
# run #10, temperature 0.7, at most 6 model calls (`max_steps=6`).
#
# The **worked example** (two other cities, before the question) is marked `"example"`. What the model read:

# %%
row, TRACE_10 = show_run_10_input()  # the run's settings and the folder it read, as recorded

# %% [markdown]
# **Predict first.** The model had the example's two conversions right in front of it. Which case will its run be
# (4 if you think it never finished), and which line of its trace the first wrong one?

# %%
my_case_and_line = ...  # (case, line), as in 05.2

# %% [markdown]
# Build the folder as the recording had it: the prompt, the worked example, then the question.

# %%
from mingraph_lite.course.definition import load

worked = next(v for v in load("finish-right").variants if v.name == row.variant)
example_folder = KeepAll(worked.system_prompt)
for message in worked.messages:  # the worked example, before the question
    example_folder.add(message)
recorder = EventRecorder()
Agent(ReplayLLM.from_trace(TRACE_10), worked.registry(), worked.system_prompt, memory=example_folder,
      observers=[recorder], max_steps=6).run({"question": QUESTION})
print_trace(recorder.events, width=96)  # read top to bottom, stop at the first wrong line
reveal_run_10(my_case_and_line, recorder.events, row)  # classify's verdict; what it means once your guess is right

# %% [markdown]
# ## Try it with a live model
#
# For thinking text: Ollama, `ollama pull qwen3:0.6b`, `MINGRAPH_LLM=ollama:qwen3:0.6b` (or uncomment the cell's
# first line). For a count only: `OPENAI_API_KEY` and `MINGRAPH_LLM=openai:gpt-5-mini`.

# %%
# NBVAL_IGNORE_OUTPUT
# os.environ["MINGRAPH_LLM"] = "ollama:qwen3:0.6b"
print_live_run(os.environ.get("MINGRAPH_LLM", ""))  # each reply's reasoning_tokens and thinking, then the verdict

# %% [markdown]
# ## Questions
#
# Answer in your own words first (answers in the solutions file); 2 to 4 are checked below against a run of the code.
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
