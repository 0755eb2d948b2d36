# %% [markdown]
# # 05 · Reasoning capture: thinking, and the first wrong line of a trace
#
# A thinking model returns its **reply**, which goes into the conversation, and its **thinking**, the working it
# wrote first. *Reasoning capture* keeps the thinking beside the reply: our adapters copy it into
# `LLMResponse.reasoning` (the text) and `reasoning_tokens` (the count), never sent back.
#
# **By the end of this notebook you will be able to**
#
# - read a model's thinking and its token count from `LLMResponse`;
# - find a run's **first wrong line**, say whose problem it is, and read the thinking for why;
# - count one mistake over many runs.
#
# **Prerequisites:** notebooks 01, 02 and 04; Python functions, dicts and list comprehensions.
#
# **Time:** about 73 minutes (estimated from length: see "How long" in 00).
#
# **Sources.** The recorded models (SmolLM2-135M, Gemma 3 270M) cannot think and no thinking model installs
# offline, so **the only real thinking here is what the article printed: one trace line of a qwen3.5:0.8b run,
# one sentence of a qwen3.5:2b run**; **the rest is scripted** (labelled). The story, the cases and the
# reported figures come from the article *The State and Observer Patterns in a Python Agent Loop*.

# %%
# %matplotlib inline
import os
import re  # noqa: F401  (for your answer to 05.3)
from collections import Counter
from pathlib import Path

from mingraph_lite import Agent, ConsoleLogger, EventRecorder, KeepAll, ReplayLLM, TraceRecorder, read_trace
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, wrong_tokyo_manager
from mingraph_lite.course.weather import weather_registry
from lessons.exercises import check
from lessons.exercises.nb05 import (london_manager, recorded, show_05_2_run, show_one_run_per_case, show_run_10_input,
                                    reveal_run_10)
from lessons.exercises.nb05_thinking import ARTICLE_LINE as article_line, reveal_thought_but_unused
from lessons.trace_lines import print_envelope, print_live_run, print_thinking_beside, print_trace

# %% [markdown]
# ## The envelope: where thinking goes
#
# A listener's `on_model_reply` receives an `LLMResponse`: the message (it goes into the **folder**, the messages
# sent each round) inside an **envelope** of facts about the reply, thinking included (question 1 asks why). Every
# reply the shipped local models recorded:

# %%
replies = print_envelope(Path("../data/experiments"))  # the fields, then every recorded reply's thinking
assert not any(e["reasoning"] or e["reasoning_tokens"] for e in replies)  # no recorded reply carries thinking

# %% [markdown]
# ## A real reply with thinking, as the article printed it
#
# The article ran our question on **qwen3.5:0.8b** through Ollama, thinking on, and printed this trace line (the
# `...` are their cuts; the `message` wrapper is ours).

# %%
for field, value in article_line.items():
    print(f"{field:17} {value!r}")

# %% [markdown]
# - **The text is real and says why:** the model took the bare `18` and `24` for Fahrenheit "based on the tool's
#   response format".
# - **The count is missing, not zero:** `reasoning_tokens` is `None`. That the 80 output tokens include the
#   thinking is **a guess**, from the article's probe of qwen3.5:2b (**434** output tokens thinking on, **4** off;
#   reported).

# %% [markdown]
# What providers report and want back (from each provider's docs):
#
# | provider | `reasoning` | `reasoning_tokens` | sent back later? |
# |---|---|---|---|
# | Ollama (qwen3) | `message.thinking` | `None` (in the output count: the article's probe) | accepted |
# | OpenAI Chat Completions | `None` | `completion_tokens_details.reasoning_tokens` | nothing to send |
# | Anthropic, with tools | thinking blocks | in the output count | required, unchanged |

# %% [markdown]
# ## Record before you know there is a bug
#
# In the article, qwen3.5:2b with thinking on answered **Tokyo: 24°F**; its thinking said *"Tokyo is already in
# Fahrenheit, so I don't need to convert it."* Re-run six times, it never got Tokyo wrong again (reported). A
# **scripted re-enactment** (`wrong_tokyo_manager`, with the 2b run's thinking), traced:

# %%
TRACE = Path("traces/05_wrong_tokyo.jsonl")
TRACE.unlink(missing_ok=True)
Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT,
      observers=[ConsoleLogger(), TraceRecorder(TRACE)]).run({"question": QUESTION})
events = read_trace(TRACE)

# %% [markdown]
# Three tool calls: Tokyo was never converted. Numbered from 1, as `enumerate(events, 1)` does. A
# **slip** is a `tool_call`, an **answer slip** its `tool_return`, a **request** a `model_reply` asking for slips.

# %%
print_trace(events)
assert [sum(e["event"] == kind for e in events) for kind in ("model_reply", "tool_call", "tool_return")] == [3, 3, 3]

# %% [markdown]
# ### Exercise 05.1 (code): what the thinking cost, and what nobody counted
#
# A `model_reply` event carries the envelope: `reasoning` (text or `None`), `reasoning_tokens` and
# `output_tokens` (counts or `None`, not reported; take the output count to include the thinking, as OpenAI's does). Write
# `thinking_report(events)` returning `(shares, uncounted)`:
#
# - `shares`: for each `model_reply`, keyed by its line, `reasoning_tokens / output_tokens`, or `None` when
#   either count is missing (an unreported count is not 0) or the output count is 0 (no share of nothing);
# - `uncounted`: a list of the lines of replies with thinking text but no thinking count (their cost is unknown).
#
# The check runs it on **scripted** traces and on the article's real line.

# %%
def thinking_report(events):
    raise NotImplementedError  # return (shares, uncounted)


# %%
check("05.1", thinking_report)

# %% [markdown]
# **Predict.** A simple flag, `thought_but_unused`, marks a reply whose *thinking* names a number the reply does
# not use. Which lines does it flag on the article's line, and on the re-enactment?

# %%
my_flags = ...  # (lines on [article_line], lines on the re-enactment's events)
reveal_thought_but_unused(my_flags, events)  # runs thought_but_unused on both; says why once your guess is right

# %% [markdown]
#
# ## The first wrong line
#
# Stop at the **first** wrong line; later lines are often wrong *because* of it. What "wrong" means:
#
# - a **slip** (`tool_call`) is wrong if it names a tool not on the **menu**, asks `get_weather` about a city not
#   in the question, or asks `to_fahrenheit` about a number **no `get_weather` answer slip returned** (a number
#   from `to_fahrenheit` is Fahrenheit already);
# - a **request** is never the wrong line itself: each of its slips is judged on its own `tool_call` line;
# - an **answer slip** (`tool_return`) is wrong if it differs from the data (Paris 18°C, Tokyo 24°C) or the right
#   conversion;
# - the **final reply** is wrong if it does not give each city's Fahrenheit (within 1°); sent before both lookups,
#   it is case 1 (made-up numbers) at that reply;
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
# A scripted manager converted Paris's 18, then the *result*, 64, again, then Tokyo's 24. Answer
# `(case, line, source)`: the case (1 to 4), the first wrong line, and the line whose answer slip handed the model
# the wrong number.

# %%
show_05_2_run()  # prints the stored scripted run; the notebook never holds its events

# %%
case_and_line = ...  # (case, line, source)

# %%
check("05.2", case_and_line)

# %% [markdown]
# `classify(events)` applies exactly these rules. Its case 3 also catches
# Celsius written as °F (`celsius_as_fahrenheit`). On the re-enactment:

# %%
from mingraph_lite.course.classify import classify

verdict = classify(events)
print(f"case {verdict.case}:", verdict)
assert verdict.case == 3 and verdict.celsius_as_fahrenheit and "24" in [e["content"] for e in events if e["event"] == "tool_return"]

# %% [markdown]
# The verdict says *what* is wrong; that reply's thinking says *why* (scripted, then the article's real line: one
# line, nothing to classify):

# %%
scripted = print_thinking_beside(events[verdict.line - 1], f"scripted re-enactment, line {verdict.line}", verdict.why)
real = print_thinking_beside(article_line, "the article's real line", "both cities given in °F unconverted (18, 24)")
assert "already in Fahrenheit" in scripted and "already Fahrenheit temperatures" in real

# %% [markdown]
# One scripted run per case (case 2's `get_weather` doubles every temperature):

# %%
verdicts = show_one_run_per_case()  # each run's verdict and its first wrong line
assert [v.case for v in verdicts] == [1, 2, 3, 4]  # one run for each case, as the table promised

# %% [markdown]
# ### Counting one mistake over many runs
#
# "How often does each variant ask about the wrong city?" needs every such line. A `tool_call` has
# `name` and `arguments` (a dict); a `tool_return` has `name` and `content` (text: `"18"`, `"18°C"`). One rule,
# counted per variant over `(variant, events)` runs:

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
# ### Exercise 05.3 (code): made-up numbers, per variant
#
# Write `made_up_counts(runs)`: given `(variant, events)` runs, return a dict counting, per variant seen, **every**
# `to_fahrenheit` slip whose `celsius` no `get_weather` answer slip of an **earlier reply** (earlier `step`) *of
# the same run* returned. A same-reply slip is a guess, even a lucky one (`classify`, reading lines, lets it pass):
#
# ```
# step 1  model_reply  asks get_weather(Paris) and to_fahrenheit(18)
# step 1  tool_return  get_weather answered "18"
# step 1  tool_call    to_fahrenheit(18): made up, written before the answer came
# ```
#
# - compare numbers, not text: `re.findall(r"-?\d+(?:\.\d+)?", "Paris: 18°C")` finds 18;
# - arguments that stayed text (their JSON did not parse: `json.loads` fails on them too) count as made up;
#   a `celsius` written as text counts by its number: `"18"` is 18, `"eighteen"` has none, so it is made up.
#
# The check runs it on scripted traps, then on the 224 recorded runs of `finish-right-2` and `finish-right-3`
# (held out).

# %%
def made_up_counts(runs):
    raise NotImplementedError  # return {variant: number of made-up to_fahrenheit slips}


# %%
check("05.3", made_up_counts)

# %% [markdown]
# ## A run with a worked example, read line by line
#
# The definition `finish-right` asks our question four ways, 16 runs per variant per model. Nine of its 128 runs
# looked up both cities. One of the nine, replayed: **Gemma 3 270M** (Q4_K_M, llama.cpp),
# variant **"worked example"**, run #10, temperature 0.7, `max_steps=6`. The **worked example** (two other cities,
# before the question) is marked `"example"`. What the model read:

# %%
row, TRACE_10 = show_run_10_input()  # the run's settings and the folder it read, as recorded

# %% [markdown]
# **Predict first.** Which case, and which first wrong line, with the example's two conversions in front of it?

# %%
my_case_and_line = ...  # (case, line), as in 05.2

# %% [markdown]
# Build the folder as recorded: the prompt, the worked example, then the question.

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
# For thinking text: Ollama, `ollama pull qwen3:0.6b`, `MINGRAPH_LLM=ollama:qwen3:0.6b`. For a count
# only: `OPENAI_API_KEY` and `MINGRAPH_LLM=openai:gpt-5-mini`.

# %%
# NBVAL_IGNORE_OUTPUT
# os.environ["MINGRAPH_LLM"] = "ollama:qwen3:0.6b"
print_live_run(os.environ.get("MINGRAPH_LLM", ""))  # each reply's reasoning_tokens and thinking, then the verdict

# %% [markdown]
# ## Questions
#
# Answer in your own words first (answers in the solutions file); 2 to 4 are checked below.
#
# 1. Why does `LLMResponse` keep a model's thinking on the envelope and not in the folder? Which kind of
#    provider would force an adapter to keep it in the folder?
# 2. If `get_weather` answered `"18°C"` instead of `"18"`, would the scripted re-enactment's verdict be the same
#    or different? Why?
# 3. Another scripted manager converts Paris's **18** twice (not its 64), then Tokyo's 24, then answers
#    "Paris: 64°F, Tokyo: 75°F". Which outcome does `classify` give?
# 4. Replayed without the worked example in the folder, would Gemma's run #10 give the same verdict, another
#    verdict, or a refusal? (`ReplayLLM` checks each request against the recording.)
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
