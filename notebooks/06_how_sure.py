# %% [markdown]
# # 06 · How sure is 6 of 8? Runs, shares and intervals
#
# Notebook 05 found where one run went wrong. This one asks how much a **count of runs** tells you: the article
# reports that one change to a tool's result turned 0 right runs of 8 into 6 of 8. How sure is that?
#
# **By the end of this notebook you will be able to**
#
# - build a 95% interval for a share of runs from its definition;
# - say how many runs a share needs before its interval is narrow enough;
# - read two groups of a comparison and say whether their intervals overlap;
# - say what "95%" promises, by simulating many experiments.
#
# **Prerequisites:** notebook 05; Python functions and loops.
#
# **Time:** about 88 minutes (estimated from length and exercises).
#
# **Sources.** The experiment and its reported figures come from the article *The State and Observer Patterns in
# a Python Agent Loop* (our copy does not name its author); its figures are quoted as theirs. The interval is
# E. B. Wilson's score interval (1927). *Scripted* runs are written in advance; *recorded* runs are real runs of
# local models.

# %%
# %matplotlib inline
import math
import tempfile
from pathlib import Path

from mingraph_lite import ToolCall
from mingraph_lite.course.compare import compare, reported_table
from mingraph_lite.course.experiments import run_experiment
from mingraph_lite.course.weather import weather_registry
from lessons.exercises import check

# %% [markdown]
# ## The bare 18 vs 18°C experiment: the reported figures
#
# `get_weather` answers a bare `"18"`; the unit is on the menu ("in degrees Celsius"), once, far from the
# numbers. `weather_registry(unit_in_result=True)` makes the unit travel with the result:

# %%
for unit in (False, True):
    slip = weather_registry(unit_in_result=unit).run(ToolCall("t1", "get_weather", {"city": "Paris"}))
    print(f"unit_in_result={unit!s:5}  get_weather('Paris') answers {slip.content!r}")

# %% [markdown]
# The article tested that change on qwen3.5:0.8b (only the result format different); its figures, **reported**,
# not run here:

# %%
print(reported_table())

# %% [markdown]
# The article does not say how the other 2 of its 8 `"18"` runs went.

# %% [markdown]
# ## How sure is 6 of 8?
#
# Turn the question round: for which **true shares** `p0` of right runs would seeing 6 of 8 be unsurprising? A
# model right 75% of the time, surely; one right 30% of the time, hardly.
#
# **The definition** (the score interval). Eight runs of a model whose true share is `p0` give an observed share
# that wobbles around `p0` by about one standard error, `√(p0(1−p0)/n)`. A candidate `p0` is **inside** the 95%
# interval when the share we saw, `k/n`, lies within 1.96 of those standard errors of it:
#
# |k/n − p0| ≤ 1.96 · √(p0 (1 − p0) / n)
#
# Notice whose standard error it is: the candidate's, not the observed share's. One candidate for 6 of 8 by
# hand, `p0 = 0.40`:

# %%
gap = abs(6 / 8 - 0.40)                      # how far the share we saw is from the candidate
reach = 1.96 * math.sqrt(0.40 * 0.60 / 8)    # 1.96 standard errors of a model whose true share is 0.40
print(f"gap {gap:.3f}, 1.96 standard errors {reach:.3f}: is 0.40 inside? {gap <= reach}")

# %% [markdown]
# The same two numbers for every candidate from 0 to 1, drawn: the straight lines are the gap, the curve is 1.96
# standard errors at the candidate. The interval is the stretch where the curve is on or above the lines.

# %%
import matplotlib.pyplot as plt

grid = [i / 1000 for i in range(1001)]
gaps = [abs(6 / 8 - p0) for p0 in grid]
reaches = [1.96 * math.sqrt(p0 * (1 - p0) / 8) for p0 in grid]
fig, ax = plt.subplots(figsize=(7, 3.2))
ax.plot(grid, gaps, label="gap |6/8 − p0|")
ax.plot(grid, reaches, label="1.96 · √(p0(1−p0)/8)")
ax.fill_between(grid, 0, reaches, where=[g <= r for g, r in zip(gaps, reaches)], alpha=0.2, label="inside")
ax.set(xlabel="candidate true share p0", ylabel="distance", title="6 of 8: which true shares are inside?")
ax.legend(loc="upper right")
plt.show()

# %% [markdown]
# ### Exercise 06.1 (code): the interval, from its definition
#
# Write two functions. `inside(k, n, p0, z=1.96)` returns `True` when the candidate `p0` is inside by the
# definition above with `z` standard errors in place of 1.96 (1.96 when no `z` is given), `False` when not; it
# must work for any `k` of `n`, the edges `p0 = 0` and `p0 = 1` included. `interval(k, n, inside)` returns `(low, high)`: the smallest and the largest `p0`
# between 0 and 1 for which the `inside` it is given says `True`: exactly 0 or 1 at the edges, within 0.002
# elsewhere. Find them by trying candidates in small steps, or by halving the gap between one inside and one
# outside (bisection). Mind the edges: at 0 of 8, is `p0 = 0` inside?
#
# The check tests `inside` on 12 candidates at 1.96 and 3 at other `z`, compares your interval's ends with the package's on 13 cases, from
# 0 of 8 to 239 of 240, and then hands your `interval` an `inside` for 90% to see that its ends follow. It
# refuses an answer that calls the package's function.

# %%
def inside(k, n, p0, z=1.96):
    raise NotImplementedError  # return True or False


def interval(k, n, inside):
    raise NotImplementedError  # return (low, high), found with inside


# %%
check("06.1", (inside, interval))

# %% [markdown]
# ### Exercise 06.2 (code): how many runs are enough?
#
# Eight runs give a wide interval. Write `runs_needed(width, share)`: the fewest runs `n` (trying 1, 2, 3...)
# for which the 95% interval of `k = round(share * n)` right runs is **narrower** than `width` (`high - low <
# width`). Your `interval(k, n, inside)` from 06.1 may do the measuring. The check compares with the package's interval on six
# `(width, share)` pairs the notebook never shows, and refuses an answer that calls the package's function.

# %%
def runs_needed(width, share):
    raise NotImplementedError  # return the fewest runs


# %%
check("06.2", runs_needed)

# %% [markdown]
# ## The re-run: scripted offline, real with a live model
#
# Run offline by **scripted** managers modelled on the reported figures (they sample: not always 6 of 8),
# beside the 32 **recorded** real runs of SmolLM2-135M and Gemma 3 270M; a live model's spec in place of `None`
# (e.g. `"ollama:qwen3:0.6b"`) runs it for real. First the right runs alone, each with its 95% interval:

# %%
rerun = run_experiment(None, out=Path(tempfile.mkdtemp()) / "unit", experiment="unit", runs=8, seed=5, progress=False)
unit = compare([rerun.folder, "../data/experiments/smollm2-135m", "../data/experiments/gemma3-270m"])
for g in sorted(unit.groups, key=lambda g: not g.model.startswith("scripted")):
    k, _, low, high = g.share("right")
    print(f"{g.label:36} {k} of {g.runs} right  [{low:.0%}-{high:.0%}]")

# %% [markdown]
# The two `scripted (modelled)` rows are the script's dice, not a model: their intervals say how far its draws
# wander, nothing about qwen3.5:0.8b. The real models got none right. Where did the rest go? The full table
# splits every row into notebook 05's five first-wrong-line cases:

# %%
print(unit.table())
real = [g for g in unit.groups if g.model.startswith("local:")]
assert not any(g.counts["right"] for g in real) and sum(map(sum, (g.counts.values() for g in real))) == 32
said_f = [r for r in rerun.runs if r.variant == "18"]
assert all(r.celsius_as_fahrenheit and r.outcome == "wrong final reasoning" for r in said_f) and len(said_f) == 8
real_outcomes = {o: sum(g.counts[o] for g in real) for o in ("wrong slip", "never finished")}
assert real_outcomes == {"wrong slip": 28, "never finished": 4}

# %% [markdown]
# The article describes 6 of its 8 `"18"` runs: they read 18 as °F. The script plays the other 2 as a run that
# keeps asking until the step limit ("never finished"); seed 5 happened to draw none of those. A run that read 18
# as °F looked both cities up correctly and went wrong only in its reply, so the classifier files it under wrong
# final reasoning and flags it "said °C as °F". The plot: each bar a share of right runs, its whisker the interval.

# %%
unit.figure("unit: bare 18 vs 18°C (scripted re-run beside two real models)")

# %% [markdown]
# ### Exercise 06.3 (code): do two groups' intervals overlap?
#
# A difference between two groups is clear, by the rough rule this course uses, when their 95% intervals do
# **not** overlap; when they overlap, these runs cannot tell. The rule is conservative: intervals that overlap a
# little can still hide a clear difference (14 of 20 against 6 of 20 overlap, yet a two-proportion z-test
# separates them), so a proper comparison uses such a test. Write `apart(a, b, interval)` for two groups given as
# `(right, runs)`: `interval(k, n)` builds a group's `(low, high)`, so any level of interval works;
# `apart((6, 8), (0, 8), lambda k, n: interval(k, n, inside))` uses your 06.1. Return `True` when the two
# intervals do not overlap, `False` when they do. The check tries ten pairs the notebook never shows, then hands
# `apart` intervals for other levels than 95%, and refuses an answer that builds its own (the package's, a
# copy of it, or your 95% one).

# %%
def apart(a, b, interval):
    raise NotImplementedError  # return True or False


# %%
check("06.3", apart)

# %% [markdown]
# ## What "95%" means
#
# The package's interval (`wilson`, the one your 06.1 matched) on the two counts the article reported:

# %%
import random  # noqa: F401 (06.4 draws with it)

from mingraph_lite.course.compare import wilson

for k, n in ((6, 8), (0, 8)):
    print(f"{k} of {n}: the true share could be anywhere from {wilson(k, n)[0]:.0%} to {wilson(k, n)[1]:.0%}")

# %% [markdown]
# A model right 45% of the time and one right 90% of the time could both have shown the article's 6 of 8, and
# 0 of 8 still allows a model right in nearly one run of three (32%).
#
# That closes the opening question. The two intervals, 41–93% and 0–32%, do not overlap, so by 06.3's rule the
# article's 0 → 6 of 8 is a clear difference, if its figures are as reported. How big the gain is stays
# uncertain: 6 of 8 alone allows anything from 41% to 93%.

# %%
assert wilson(0, 8)[1] < wilson(6, 8)[0]  # 0 of 8 ends below where 6 of 8 begins
print(f"0 of 8 ends at {wilson(0, 8)[1]:.0%}, 6 of 8 begins at {wilson(6, 8)[0]:.0%}: apart")

# %% [markdown]
# "95%" is a promise about many experiments, not about one interval: run many experiments of `n` runs of a model
# whose true share is `p`, build each one's interval, and about 95 of every 100 of those intervals should contain
# `p`. A simulation can count them.

# %% [markdown]
# ### Exercise 06.4 (code): what "95%" promises
#
# Write `coverage(p, n, trials=2000, seed=1)`: make `rng = random.Random(seed)`; run `trials` experiments, each
# of `n` runs, a run right when `rng.random() < p`; build each experiment's 95% interval from its count of right
# runs with your 06.1 `interval(k, n, inside)`; return the share (between 0 and 1) of experiments whose interval
# contains `p`. The check compares with the exact chance on three `(p, n)` pairs the notebook never shows and
# refuses an answer that calls the package's function. If your interval scans candidates and the check is slow,
# build each count's interval once (there are only `n + 1` counts) and keep them in a dict. Question 6 asks you to predict `coverage(0.5, 8)` before
# you run it.

# %%
def coverage(p, n, trials=2000, seed=1):
    raise NotImplementedError  # return a share between 0 and 1


# %%
check("06.4", coverage)


# %% [markdown]
# ## Questions
#
# Answer in your own words first (the answers are in the solutions file). Questions 1, 2, 3 and 6 have a cell
# below that checks yours against `wilson`, the binomial chances or a run of the code.
#
# 1. A variant showed 2 right of 8. Is a model right half the time inside its 95% interval, or outside?
# 2. A class pools its runs. With half of them right, what is the fewest runs, of 16, 32, 64, 128 or 256, for
#    which the 95% interval is narrower than 0.2 (20 points)?
# 3. The re-run above used seed 5; its `18°C` row shows 7 right of 8, interval 53–98%. The script makes each
#    `18°C` run right with chance 0.75 (the article's 6 of 8). What is the chance, in percent, that another seed's
#    8 runs give a share inside 53–98%? (within 3 points passes; the check adds the binomial chances). Then look at
#    one draw: `rerun_counts(13)` from `lessons.exercises.nb06_questions` runs seed 13, whose runs share none of
#    seed 5's (run i of seed s draws with seed s + i).
# 4. Why does the definition take the standard error at the candidate `p0` and not at the observed share `k/n`?
#    What would the interval of 0 of 8 be the other way?
# 5. Both real models got 0 right in every variant. Does that show the unit in the result does not help them?
# 6. Predict: in what percentage of `coverage(0.5, 8)`'s 2,000 experiments does the interval contain 0.5? Write
#    a number (within 1.5 points passes; the check runs the simulation), then run your `coverage(0.5, 8)`.

# %%
answer_q1 = ...  # "inside" or "outside"
check("06.Q1", answer_q1)

# %%
answer_q2 = ...  # 16, 32, 64, 128 or 256
check("06.Q2", answer_q2)

# %%
answer_q3 = ...  # a percentage, e.g. 50
check("06.Q3", answer_q3)

# %%
answer_q6 = ...  # a percentage, e.g. 50
check("06.Q6", answer_q6)
