# %% [markdown]
# # 06 · How sure is 6 of 8? Runs, shares and intervals
#
# This notebook asks how much a **count of runs** tells you: the article
# reports that one change to a tool's result turned 0 right runs of 8 into 6 of 8. How sure is that?
#
# **By the end of this notebook you will be able to**
#
# - build a 95% interval for a share of runs from its definition;
# - say how many runs a narrow enough interval needs;
# - say whether two groups' intervals overlap;
# - say what "95%" promises, by simulating many experiments.
#
# **Prerequisites:** notebook 05; Python functions and loops.
#
# **Time:** about 88 minutes (estimated from length: see "How long" in 00).
#
# **Sources.** The experiment and its reported figures come from the article *The State and Observer Patterns in
# a Python Agent Loop* (our copy does not name its author); its figures are quoted as theirs. The interval is
# E. B. Wilson's score interval (1927).

# %%
# %matplotlib inline
import tempfile
from pathlib import Path

from mingraph_lite.course.compare import compare, reported_table
from mingraph_lite.course.experiments import run_experiment
from lessons.candidates import draw_gap_reach, show_candidate
from lessons.exercises import check

# %% [markdown]
# ## The bare 18 vs 18°C experiment: the reported figures
#
# `get_weather` answers a bare `"18"`, the unit only on the menu ("in degrees Celsius"); the change makes it
# answer `"18°C"`. The article tested that on qwen3.5:0.8b, nothing else changed; its figures, **reported**, not
# run here:

# %%
print(reported_table())

# %% [markdown]
# ## How sure is 6 of 8?
#
# For which **true shares** `p0` of right runs would seeing 6 of 8 be unsurprising? A model right 75% of the
# time, surely; one right 30% of the time, hardly.
#
# **The definition** (the score interval). Eight runs of a model whose true share is `p0` give an observed share
# that wobbles around `p0` by about one standard error, `√(p0(1−p0)/n)`. A candidate `p0` is **inside** the 95%
# interval when the share we saw, `k/n`, lies within 1.96 of those standard errors of it:
#
# |k/n − p0| ≤ 1.96 · √(p0 (1 − p0) / n)
#
# Where 1.96 comes from: over many experiments, a share wobbles around its true value roughly like a normal
# curve (the bell curve). 95% of a normal curve lies within 1.96 standard deviations of its middle, leaving 2.5%
# in each tail; the cell below asks Python's `statistics` for that point.

# %%
from statistics import NormalDist

z95 = NormalDist().inv_cdf(0.975)  # the point with 97.5% of the curve below it: 2.5% above, 2.5% below -z95
print(f"95% of a normal curve lies within {z95:.4f} standard deviations of its middle")
assert round(z95, 2) == 1.96

# %% [markdown]
# Notice whose standard error it is: the candidate's, not the observed share's. One candidate for 6 of 8 by
# hand, `p0 = 0.40`: the gap is |0.75 − 0.40| = 0.350, and 1.96 standard errors at 0.40 are
# 1.96 · √(0.40 · 0.60 / 8) = 1.96 · 0.173 = 0.339. The gap is wider: 0.40 is just outside.
#
# Below, those numbers printed, then drawn for every candidate from 0 to 1: the straight lines are the gap, the
# curve 1.96 standard errors. The interval is where the curve is on or above the lines.

# %%
show_candidate(6, 8, 0.40)
draw_gap_reach(6, 8)

# %% [markdown]
# ### Exercise 06.1 (code): the interval, from its definition
#
# `inside(k, n, p0, z=1.96)` returns `True` when the candidate `p0` is inside by the
# definition, with `z` standard errors in place of 1.96, and `False` when not, for any `k` of `n`, the edges
# `p0 = 0` and `p0 = 1` included. `interval(k, n, inside)` returns `(low, high)`: the smallest and the largest
# `p0` between 0 and 1 for which the `inside` it is given says `True`, exactly 0 or 1 at the edges, within 0.002
# elsewhere. Try candidates in small steps, or halve the gap between one inside and one outside (bisection).
# At 0 of 8, is `p0 = 0` inside?
#
# The check tests `inside` on 12 candidates at 1.96 and 3 at other `z`, compares your interval's ends with the
# package's on 13 cases, then hands your `interval` an `inside` for 90%. It refuses an answer that calls the
# package's function or the helpers above.

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
# Write `runs_needed(width, share)`: the fewest runs `n` for which the 95% interval of
# `k = round(share * n)` right runs is **narrower** than `width` (`high - low < width`); your 06.1
# `interval(k, n, inside)` may measure it. The check compares with the package's interval on six
# `(width, share)` pairs the notebook never shows, and refuses an answer that calls the package's function.

# %%
def runs_needed(width, share):
    raise NotImplementedError  # return the fewest runs


# %%
check("06.2", runs_needed)

# %% [markdown]
# ## The re-run: scripted offline, real with a live model
#
# The cell below re-runs it offline with **scripted** stand-ins modelled on the reported figures (they sample:
# not always 6 of 8),
# beside the 32 **recorded** real runs of SmolLM2-135M and Gemma 3 270M; a live model's spec in place of `None`
# (e.g. `"ollama:qwen3.5:0.8b"`, the article's model) runs it for real. First the right runs of each row, with
# their 95% interval:

# %%
rerun = run_experiment(None, out=Path(tempfile.mkdtemp()) / "unit", experiment="unit", runs=8, seed=5, progress=False)
unit = compare([rerun.folder, "../data/experiments/smollm2-135m", "../data/experiments/gemma3-270m"])
for group in unit.groups:
    right, _, low, high = group.share("right")
    print(f"{group.label:36} right {right} of {group.runs}: the true share could be {low:.0%} to {high:.0%}")
real = [g for g in unit.groups if not g.model.startswith("scripted")]
assert len(real) == 4 and all(g.share("right")[0] == 0 and round(g.share("right")[3], 2) == 0.32 for g in real)

# %% [markdown]
# Every real row shows 0 right of 8, and 0 of 8 still allows a true share up to 32%: eight runs cannot tell
# these variants apart for these models (question 5 asks about that). The `scripted (modelled)` rows are the
# script's dice, not a model: they say how far its draws wander, nothing about qwen3.5:0.8b.
#
# The rest, optional: the full table splits each row's runs into notebook 05's five first-wrong-line cases,
# and the plot draws them, one panel per outcome (dots are shares of runs, bars their 95% intervals). The script
# plays the article's 6 described `"18"` runs as wrong final reasoning (18 read as °F only in the reply), and
# its `"18°C"` slip as the run that made up 10°C and 5°C without calling `get_weather`.

# %%
print(unit.table())

# %%
unit.figure("unit: bare 18 vs 18°C (scripted re-run beside two real models)")

# %% [markdown]
# ### Exercise 06.3 (code): do two groups' intervals overlap?
#
# By this course's rough rule, a difference between two groups is clear when their 95% intervals do
# **not** overlap; when they overlap, these runs cannot tell. The rule is conservative (14 of 20 against 6 of
# 20 overlap, yet a two-proportion z-test separates them). Write `apart(a, b, interval_of)` for two groups
# given as `(right, runs)`: `interval_of(k, n)` builds a group's `(low, high)`, so any level of interval works;
# `apart((6, 8), (0, 8), lambda k, n: interval(k, n, inside))` uses your 06.1. Return `True` when the two
# intervals do not overlap, `False` when they do. The check tries ten pairs the notebook never shows and
# other levels than 95%, and refuses an answer that builds its own intervals.

# %%
def apart(a, b, interval_of):
    raise NotImplementedError  # return True or False


# %%
check("06.3", apart)

# %% [markdown]
# Now the claim that the rule is conservative, tried: the cell runs the notebook's own `apart` (loaded, not
# printed) on 14 of 20 against 6 of 20, then a two-proportion z-test. That test pools both groups' share (20 of
# 40) and asks how many standard errors apart 70% and 30% are.

# %%
from mingraph_lite.course.compare import wilson
from lessons.reference import reference

apart_ref = reference("06.3")
a, b = (14, 20), (6, 20)
pooled = (a[0] + b[0]) / (a[1] + b[1])
z = (a[0] / a[1] - b[0] / b[1]) / (pooled * (1 - pooled) * (1 / a[1] + 1 / b[1])) ** 0.5
p_value = 2 * (1 - NormalDist().cdf(z))  # both tails: a difference either way
print(f"14 of 20: {wilson(*a)[0]:.0%} to {wilson(*a)[1]:.0%}; 6 of 20: {wilson(*b)[0]:.0%} to {wilson(*b)[1]:.0%}")
print(f"apart: {apart_ref(a, b, wilson)}; z = {z:.2f}, p = {p_value:.3f}")
assert not apart_ref(a, b, wilson) and round(p_value, 3) == 0.011

# %% [markdown]
# ## What "95%" means
#
# The package's interval (`wilson`, the one your 06.1 matched) on the article's two counts:

# %%
import random  # noqa: F401 (06.4 draws with it)

for k, n in ((6, 8), (0, 8)):
    print(f"{k} of {n}: the true share could be anywhere from {wilson(k, n)[0]:.0%} to {wilson(k, n)[1]:.0%}")

# %% [markdown]
# A model right 45% of the time and one right 90% could both have shown 6 of 8, and 0 of 8 still allows a model
# right in nearly one run of three. The two intervals do not overlap, so by 06.3's rule the article's 0 → 6 of
# 8 is a clear difference, if its figures are as reported; how big the gain is stays uncertain.
#
# "95%" promises something of many experiments, not of one interval: about 95 in 100 should contain the true
# share.

# %% [markdown]
# ### Exercise 06.4 (code): what "95%" promises
#
# Write `coverage(p, n, trials=2000, seed=1)`: make `rng = random.Random(seed)`; run `trials` experiments of
# `n` runs each, a run right when `rng.random() < p`; build each experiment's 95% interval from its count with
# your 06.1 `interval(k, n, inside)`; return the share (0 to 1) of experiments whose interval contains `p`. The
# check compares with the exact chance on three `(p, n)` pairs the notebook never shows, tries other seeds (a
# simulation's share moves with its seed), and refuses an answer that calls the package's function. If it is
# slow, build each of the `n + 1` counts' intervals once, in a dict.

# %%
def coverage(p, n, trials=2000, seed=1):
    raise NotImplementedError  # return a share between 0 and 1


# %%
check("06.4", coverage)

# %% [markdown]
# ## Questions
#
# Answer in your own words first (the answers are in the solutions file); all but question 4 have a checking
# cell below. The last cell draws coverage at every share: run it after question 6.
#
# 1. A variant showed 2 right of 8. Is a model right half the time inside its 95% interval, or outside?
# 2. With half the runs right, what is the fewest runs, of 16, 32, 64, 128 or 256, whose 95% interval is
#    narrower than 0.2?
# 3. Seed 5's `18°C` row shows 7 right of 8, interval 53–98%. The script makes each `18°C` run right with
#    chance 0.75. What is the chance, in percent, that another seed's 8 runs give a share
#    inside 53–98% (within 3 points passes)? Then look at one draw: `rerun_counts(13)` from
#    `lessons.reruns` runs seed 13, which shares no run with seed 5.
# 4. Why does the definition take the standard error at the candidate `p0` and not at the observed share `k/n`?
#    What would the interval of 0 of 8 be the other way?
# 5. Both real models got 0 right in every variant. Does that show the unit in the result does not help them?
#    Answer "yes" or "no", then say why.
# 6. Predict: in what percentage of `coverage(0.5, 8)`'s 2,000 experiments does the interval contain 0.5? Write
#    a number (within 1.5 points passes), then run your `coverage(0.5, 8)`.

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
answer_q5 = ...  # "yes" or "no"
check("06.Q5", answer_q5)

# %%
answer_q6 = ...  # a percentage, e.g. 50
check("06.Q6", answer_q6)

# %%
# After question 6, one point is not the whole story: the notebook's own coverage (loaded, not printed) at 8 runs
# for every true share from 0.05 to 0.95, 1,000 experiments each.
import matplotlib.pyplot as plt

coverage_ref = reference("06.4")
shares = [p / 100 for p in range(5, 96)]
covered = [coverage_ref(p, 8, trials=1000) for p in shares]
plt.plot(shares, covered)
plt.axhline(0.95, linestyle="--", color="grey")
plt.xlabel("true share p")
plt.ylabel("share of intervals containing p")
plt.title("coverage of the 95% interval, 8 runs")
plt.show()
print(f"lowest {min(covered):.1%}, highest {max(covered):.1%}")
assert min(covered) < 0.92 and max(covered) > 0.97 and abs(sum(covered) / len(covered) - 0.95) < 0.02
print("A saw-tooth: with only nine possible counts, coverage jumps each time p crosses an interval's end, from")
print("under 92% at some shares to over 97% at others; 95% is what it averages, not what it holds at every p.")
