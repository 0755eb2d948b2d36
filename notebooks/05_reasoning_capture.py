# %% [markdown]
# # 05 · Reasoning capture: thinking, and the first wrong line of a trace
#
# A thinking model writes its **thinking**, then its **reply**. Our adapters keep the thinking in
# `LLMResponse.reasoning` (the text) and `reasoning_tokens` (the count).
#
# **You will learn to** read thinking and its cost, find a run's **first wrong line** and whose problem it is,
# and count one mistake over many runs.
#
# **Prerequisites:** notebooks 01, 02 and 04.
#
# **Time:** about 67 minutes (estimated from length: see "How long" in 00).
#
# **Sources.** No thinking model runs offline. **The only real thinking here is what the article *The State and
# Observer Patterns in a Python Agent Loop* printed**: one line of a 0.8b run, one sentence of a 2b run. The rest
# is **scripted** (labelled).

# %%
# %matplotlib inline
import os
from pathlib import Path

from mingraph_lite import Agent, ConsoleLogger, EventRecorder, ReplayLLM, TraceRecorder, read_trace
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, wrong_tokyo_manager
from mingraph_lite.course.weather import weather_registry
from lessons.exercises import check
from lessons.exercises.nb05 import (london_manager, recorded, show_05_2_run, show_one_run_per_case, show_run_10_input,
                                    reveal_run_10, worked_example)
from lessons.exercises.nb05_thinking import reveal_why, show_article_line
from lessons.trace_lines import print_envelope, print_live_run, print_thinking_beside, print_trace

# %% [markdown]
# ## Words for a trace
#
# | word | in a trace | usual name |
# |---|---|---|
# | slip | a `tool_call`: one tool asked for | tool call |
# | answer slip | a `tool_return`: what the tool sent back | tool result |
# | request | a `model_reply` that asks for slips | assistant message with tool calls |
# | final reply | the last `model_reply` | final answer |
# | folder | the messages sent to the model each round | conversation, context |
# | envelope | the `LLMResponse` around a reply: counts, thinking | response metadata |
#
# Lines count from 1. Thinking stays on the envelope, out of the folder. Recorded runs carry none:

# %%
replies = print_envelope(Path("../data/experiments"))  # the fields, then every recorded reply's thinking
assert not any(e["reasoning"] or e["reasoning_tokens"] for e in replies)  # no recorded reply carries thinking

# %% [markdown]
# ## A real reply with thinking
#
# The article's **qwen3.5:0.8b** run, thinking on, gave the Celsius numbers as °F. Its printed line (`...` are its
# cuts) has `reasoning_tokens` `None`: not reported, which is not 0.

# %%
show_article_line()

# %% [markdown]
# **Predict: read the thinking for why.** (a) Quote the phrase that explains the mistake. (b) What does it point
# at? (c) Which one change would you test?

# %%
my_reading = ...  # ("a phrase of the thinking", letter for (b), letter for (c))
reveal_why(my_reading)  # prints the choices for (b) and (c); once all three are right, what the article measured

# %% [markdown]
# Ollama gives thinking text, no count; OpenAI's Chat Completions a count, no text; Anthropic the text (summarised
# on Claude 4 models) counted inside the output tokens, and with tools it wants the thinking sent back unchanged
# (Anthropic's *Building with extended thinking*).
#
# ## Record before you know there is a bug
#
# qwen3.5:2b answered **Tokyo: 24°F**, thinking *"Tokyo is already in Fahrenheit, so I don't need to convert
# it."* Six re-runs never repeated it (reported). Re-enacted (**scripted**):

# %%
TRACE = Path("traces/05_wrong_tokyo.jsonl")
TRACE.unlink(missing_ok=True)
Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT, observers=[ConsoleLogger(), TraceRecorder(TRACE)]).run({"question": QUESTION})
events = read_trace(TRACE)

# %%
print_trace(events)  # three slips: Tokyo never converted
assert [sum(e["event"] == kind for e in events) for kind in ("model_reply", "tool_call", "tool_return")] == [3, 3, 3]

# %% [markdown]
# ### Exercise 05.1 (code): what the thinking cost, and what nobody counted
#
# A `model_reply` has `reasoning` (text or `None`), `reasoning_tokens` and `output_tokens` (counts or `None`; take
# the output count to include the thinking). Write `thinking_report(events)` returning `(shares, uncounted)`:
#
# - `shares`: a dict `{line: share}` over the `model_reply` lines, each share `reasoning_tokens / output_tokens`,
#   or `None` if a count is missing or the output count is 0;
# - `uncounted`: a list of lines of replies with thinking text, no count.

# %%
def thinking_report(events):
    raise NotImplementedError  # return (shares, uncounted)


# %%
check("05.1", thinking_report)

# %% [markdown]
# ## The first wrong line
#
# Stop at the **first** wrong line: later ones often follow from it.
#
# - A **slip** is wrong if its tool is not on the menu, its city is not asked about, or its `to_fahrenheit`
#   number came from no `get_weather` answer slip on an **earlier line**.
# - A **request** is never the wrong line: each slip is judged on its own.
# - An **answer slip** is wrong if it differs from the data (Paris 18°C, Tokyo 24°C) or the right conversion.
# - The **final reply** is wrong if a city's °F is off by over 1°, or it comes before both lookups (case 1).
#
# | case | first wrong line | whose problem |
# |---|---|---|
# | 1 | a slip | the request: prompt, menu |
# | 2 | an answer slip | the tool's code |
# | 3 | the final reply | the reasoning |
# | 4 | none, never finished | the limit |
#
# ### Exercise 05.2 (reading): which case, which line?
#
# A script converted Paris's 18, then the *result*, 64, then Tokyo's 24. Answer `(case, line, source)`: source is
# the line whose answer slip gave the wrong number.

# %%
show_05_2_run()  # prints the stored scripted run; the notebook never holds its events

# %%
case_and_line = ...  # (case, line, source)

# %%
check("05.2", case_and_line)

# %% [markdown]
# `classify(events)` applies these rules. Its verdict says *what*; the thinking says *why*:

# %%
from mingraph_lite.course.classify import classify

verdict = classify(events)
scripted = print_thinking_beside(events[verdict.line - 1], f"case {verdict.case}, line {verdict.line}", verdict.why)
assert verdict.case == 3 and verdict.celsius_as_fahrenheit and "already in Fahrenheit" in scripted

# %% [markdown]
# A scripted run per case:

# %%
verdicts = show_one_run_per_case()  # each run's verdict and its first wrong line
assert [v.case for v in verdicts] == [1, 2, 3, 4]  # one run for each case, as the table promised

# %% [markdown]
# ### Counting one mistake over many runs
#
# Slips have `name` and `arguments` (a dict); answer slips `content` (text). Counting wrong cities:

# %%
def wrong_cities_per_variant(runs):  # get_weather slips about a city the question did not ask about
    counts = {variant: 0 for variant, _ in runs}  # every variant gets a count, 0 included
    for variant, events in runs:
        counts[variant] += sum(e["event"] == "tool_call" and e["name"] == "get_weather"
                               and e["arguments"].get("city", "").lower() not in {"paris", "tokyo"} for e in events)
    return counts


print(wrong_cities_per_variant([("scripted A", recorded(london_manager())), ("scripted A", recorded(four_round_manager())),
                                ("scripted B", recorded(four_round_manager()))]))

# %% [markdown]
# ### Exercise 05.3 (code): made-up numbers, per variant
#
# Write `made_up_counts(runs)`: for `(variant, events)` runs, count per variant (0 included) **every**
# `to_fahrenheit` slip whose `celsius` is not a number a `get_weather` answer slip on an **earlier line** of the
# **same run** returned (the rule of the first wrong line, above).
#
# - Compare numbers, not text: `re.findall(r"-?\d+(?:\.\d+)?", "Paris: 18°C")` finds 18.
# - A `celsius` written as text (`"18"`) is not a number: made up.
# - Arguments that stayed text (bad JSON) hold no number: made up.
# - Only `get_weather` answers count (a `to_fahrenheit` result is Fahrenheit).
#
# The check ends on 224 held-out recorded runs.

# %%
def made_up_counts(runs):
    raise NotImplementedError  # return {variant: number of made-up to_fahrenheit slips}


# %%
check("05.3", made_up_counts)

# %% [markdown]
# ## A run with a worked example
#
# Definition `finish-right` asks our question four ways, 16 runs each per model; 9 of its 128 runs looked up both
# cities. One is **Gemma 3 270M**'s run #10 of variant **"worked example"** (two cities converted first),
# temperature 0.7:

# %%
row, TRACE_10 = show_run_10_input()  # the run's settings and the folder it read, as recorded

# %% [markdown]
# **Predict first.** Which case, and which first wrong line?

# %%
my_case_and_line = ...  # (case, line), as in 05.2

# %%
worked, example_folder = worked_example(row)  # the prompt, then the worked example, as recorded
recorder = EventRecorder()
Agent(ReplayLLM.from_trace(TRACE_10), worked.registry(), worked.system_prompt, memory=example_folder,
      observers=[recorder], max_steps=6).run({"question": QUESTION})
reveal_run_10(my_case_and_line, recorder.events, row)  # the trace once you have guessed; the verdict once right

# %% [markdown]
# ## Try it with a live model
#
# Pull `qwen3:0.6b` in Ollama; set `MINGRAPH_LLM=ollama:qwen3:0.6b`.

# %%
# NBVAL_IGNORE_OUTPUT
# os.environ["MINGRAPH_LLM"] = "ollama:qwen3:0.6b"
print_live_run(os.environ.get("MINGRAPH_LLM", ""))  # each reply's reasoning_tokens and thinking, then the verdict

# %% [markdown]
# ## Questions
#
# 2 to 4 are checked below.
#
# 1. Why keep thinking out of the folder? Which provider forces it in?
# 2. If `get_weather` answered `"18°C"`, would the scripted re-enactment's verdict (its script reads only the
#    number) be the same or different?
# 3. A script converts Paris's **18** twice, then Tokyo's 24, and answers "Paris: 64°F, Tokyo: 75°F". Which
#    outcome does `classify` give?
# 4. Replayed without the worked example, would run #10 give the same verdict, another, or a refusal?
#    (`ReplayLLM` checks each request against the recording.)
# 5. One request asks `get_weather("Paris")` and `to_fahrenheit(18)`. Why is that 18 not made up in 05.3, though
#    written before the answer came?

# %%
answer_q2 = ...  # "same" or "different"
check("05.Q2", answer_q2)

# %%
answer_q3 = ...  # "right", "wrong slip", "wrong tool result", "wrong final reasoning" or "never finished"
check("05.Q3", answer_q3)

# %%
answer_q4 = ...  # "same verdict", "another verdict" or "refused"
check("05.Q4", answer_q4)
