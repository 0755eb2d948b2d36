"""Reference answers for notebook 06, plausible wrong ones (each with part of the hint it must get), and the
answers to its questions."""

from __future__ import annotations

import math
import random

from mingraph_lite.course.compare import wilson

Z = 1.96


def inside(k, n, p0, z=Z):
    """True when k of n runs lie within z standard errors (at the candidate p0) of a true share p0."""
    return abs(k / n - p0) <= z * math.sqrt(p0 * (1 - p0) / n)


def _edge(inside, k, n, kept, dropped):
    """Bisect between a share that is inside (kept) and one that is not (dropped)."""
    for _ in range(60):
        middle = (kept + dropped) / 2
        kept, dropped = (middle, dropped) if inside(k, n, middle) else (kept, middle)
    return kept


def interval(k, n, inside):
    """Every share p0 that is inside for k of n runs: its two ends, found by bisection from k/n."""
    p = k / n
    low = 0.0 if inside(k, n, 0.0) else _edge(inside, k, n, p, 0.0)
    high = 1.0 if inside(k, n, 1.0) else _edge(inside, k, n, p, 1.0)
    return low, high


def score_interval(k, n):
    """The 95% interval of k of n runs, as 06.1 builds it."""
    return interval(k, n, inside)


def via_wilson(k, n, inside):
    """Wrong: the package's finished function, not the definition."""
    return wilson(k, n)


def wilson_by_another_name(k, n, inside):
    """Wrong: the package's function again, reached without writing its name."""
    from mingraph_lite.course import compare

    return getattr(compare, "wil" + "son")(k, n)


def closed_form(k, n, inside):
    """Wrong: the textbook Wilson formula, typed in: right at 95%, but not built from inside."""
    p, z = k / n, Z
    centre, half = (p + z * z / (2 * n)), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def inside_via_helper(k, n, p0, z=Z):
    """Wrong: the notebook's picture helper does the measuring, its 1.96 scaled to z."""
    from lessons.candidates import gap_and_reach

    gap, reach = gap_and_reach(k, n, p0)
    return gap <= reach * z / Z


def wald_inside(k, n, p0, z=Z):
    """Wrong: the standard error at the observed share, 0 at 0 of 8."""
    return abs(k / n - p0) <= z * math.sqrt(k / n * (1 - k / n) / n)


def ninety_percent(k, n, p0, z=1.645):
    """Wrong: the default z for a 90% interval."""
    return inside(k, n, p0, z)


def z_two(k, n, p0, z=2):
    """Wrong: the rounded 2 standard errors instead of 1.96."""
    return inside(k, n, p0, z)


def strict_inside(k, n, p0, z=Z):
    """Wrong: 'within' read as a strict <, which leaves p0 = 0 out at 0 of n (gap 0, reach 0)."""
    return abs(k / n - p0) < z * math.sqrt(p0 * (1 - p0) / n)


def divides(k, n, p0, z=Z):
    """Wrong: divides by the standard error at p0, which is 0 at p0 = 0."""
    return abs(k / n - p0) / math.sqrt(p0 * (1 - p0) / n) <= z


def n_outside_root(k, n, p0, z=Z):
    """Wrong: divides by n outside the square root, √(p0(1−p0))/n."""
    return abs(k / n - p0) <= z * math.sqrt(p0 * (1 - p0)) / n


def no_z(k, n, p0):
    """Wrong: the definition at 1.96 only, with no z to be given."""
    return inside(k, n, p0)


def z_ignored(k, n, p0, z=Z):
    """Wrong: takes z but keeps 1.96 written in."""
    return inside(k, n, p0)


def high_first(k, n, inside):
    """Wrong: the right ends in the wrong order."""
    low, high = interval(k, n, inside)
    return high, low


def coarse_grid(k, n, inside):
    """Wrong: scans the candidates in steps of 0.01."""
    kept = [i / 100 for i in range(101) if inside(k, n, i / 100)]
    return min(kept), max(kept)


def open_ends(k, n, inside):
    """Wrong: scans strictly between 0 and 1, so the ends 0 and 1 are never tried."""
    kept = [i / 10000 for i in range(1, 10000) if inside(k, n, i / 10000)]
    return min(kept), max(kept)


def wald_interval(k, n):
    """The textbook p ± 1.96·se with se at the observed share, a single point at 0 of 8 (for wrong answers below)."""
    p = k / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return max(0.0, p - half), min(1.0, p + half)


def runs_needed(width, share):
    """The fewest runs whose interval, at round(share * n) right, is narrower than width (the notebook's 06.1)."""
    n = 1
    while True:
        low, high = score_interval(round(share * n), n)
        if high - low < width:
            return n
        n += 1


def runs_needed_via_wilson(width, share):
    """Wrong: the package's interval does the measuring."""
    return next(n for n in range(1, 10_000) if wilson(round(share * n), n)[1] - wilson(round(share * n), n)[0] < width)


def runs_needed_by_another_name(width, share):
    """Wrong: the package's interval again, reached without writing its name."""
    from mingraph_lite.course import compare

    interval = getattr(compare, "wil" + "son")
    return next(n for n in range(1, 10_000) if interval(round(share * n), n)[1] - interval(round(share * n), n)[0] < width)


def runs_needed_wald(width, share):
    """Wrong: measures the width of k/n ± 1.96 standard errors at k/n, which is 0 at share 0."""
    n = 1
    while True:
        low, high = wald_interval(round(share * n), n)
        if high - low < width:
            return n
        n += 1


def runs_needed_rounding_down(width, share):
    """Wrong: k = int(share * n), which rounds down."""
    n = 1
    while True:
        low, high = score_interval(int(share * n), n)
        if high - low < width:
            return n
        n += 1


def runs_needed_at_most(width, share):
    """Wrong: stops at a width equal to the limit, or one step past the fewest."""
    return runs_needed(width, share) + 1


def runs_needed_from_zero(width, share):
    """Wrong: starts at n = 0, where there is no share."""
    n = 0
    while True:
        low, high = score_interval(round(share * n), n)
        if high - low < width:
            return n
        n += 1


def apart(a, b, interval_of):
    """True when the two groups' intervals, built by the interval_of it is given, do not overlap."""
    (a_low, a_high), (b_low, b_high) = interval_of(*a), interval_of(*b)
    return a_high < b_low or b_high < a_low


def apart_by_share(a, b, interval_of):
    """Wrong: any difference in shares counts as a difference."""
    return a[0] / a[1] != b[0] / b[1]


def apart_wald(a, b, interval_of):
    """Wrong: the intervals built at the observed share, a single point at 0 of 8."""
    return apart(a, b, wald_interval)


def apart_via_wilson(a, b, interval_of):
    """Wrong: the package's interval."""
    (a_low, a_high), (b_low, b_high) = wilson(*a), wilson(*b)
    return a_high < b_low or b_high < a_low


def _pasted():
    """wilson's source, pasted under another name and run afresh, as a learner could (inspect.getsource)."""
    import inspect

    from mingraph_lite.course import compare

    pasted = dict(vars(compare))
    exec(inspect.getsource(getattr(compare, "wil" + "son")).replace("def wil" + "son", "def score"), pasted)
    return pasted["score"]


def apart_pasted_wilson(a, b, interval_of):
    """Wrong: a pasted copy of the package's interval, the interval_of apart is given ignored."""
    return apart(a, b, PASTED)


PASTED = _pasted()


def apart_own_interval(a, b, interval_of):
    """Wrong: the notebook's 06.1 interval at 95%, whatever interval_of apart is given."""
    return apart(a, b, score_interval)


def apart_two_arguments(a, b):
    """Wrong: no third parameter for the interval."""
    return apart(a, b, score_interval)


def apart_one_way(a, b, interval_of):
    """Wrong: tests only whether a's interval lies below b's."""
    a_high, b_low = interval_of(*a)[1], interval_of(*b)[0]
    return a_high < b_low


def apart_inverted(a, b, interval_of):
    """Wrong: True when they overlap."""
    return not apart(a, b, interval_of)


def coverage(p, n, trials=2000, seed=1):
    """The share of `trials` simulated experiments of n runs whose 95% interval (06.1's) contains p."""
    rng = random.Random(seed)
    contained = 0
    for _ in range(trials):
        k = sum(rng.random() < p for _ in range(n))
        low, high = score_interval(k, n)
        contained += low <= p <= high
    return contained / trials


def coverage_of_observed(p, n, trials=2000, seed=1):
    """Wrong: counts intervals that contain the observed share k/n, which all do."""
    rng = random.Random(seed)
    draws = [sum(rng.random() < p for _ in range(n)) for _ in range(trials)]
    return sum(score_interval(k, n)[0] <= k / n <= score_interval(k, n)[1] for k in draws) / trials


def coverage_wald(p, n, trials=2000, seed=1):
    """Wrong: builds each interval at the observed share."""
    rng = random.Random(seed)
    draws = [sum(rng.random() < p for _ in range(n)) for _ in range(trials)]
    return sum(wald_interval(k, n)[0] <= p <= wald_interval(k, n)[1] for k in draws) / trials


def coverage_unseeded(p, n, trials=2000, seed=1):
    """Wrong: draws from the shared random module, so two calls differ."""
    draws = [sum(random.random() < p for _ in range(n)) for _ in range(trials)]
    return sum(score_interval(k, n)[0] <= p <= score_interval(k, n)[1] for k in draws) / trials


def coverage_reseeded(p, n, trials=2000, seed=1):
    """Wrong: a new Random(seed) in every experiment, so every experiment draws the same runs."""
    contained = 0
    for _ in range(trials):
        rng = random.Random(seed)
        low, high = score_interval(sum(rng.random() < p for _ in range(n)), n)
        contained += low <= p <= high
    return contained / trials


def coverage_exact(p, n, trials=2000, seed=1):
    """Wrong: the exact binomial sum over the counts, no experiment drawn, the same whatever the seed."""
    return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)
               if score_interval(k, n)[0] <= p <= score_interval(k, n)[1])


def coverage_fixed_seed(p, n, trials=2000, seed=1):
    """Wrong: draws from Random(1) whatever seed it is given."""
    return coverage(p, n, trials)


def coverage_percent(p, n, trials=2000, seed=1):
    """Wrong: a percentage."""
    return 100 * coverage(p, n, trials, seed)


def coverage_via_wilson(p, n, trials=2000, seed=1):
    """Wrong: the package's interval."""
    rng = random.Random(seed)
    draws = [sum(rng.random() < p for _ in range(n)) for _ in range(trials)]
    return sum(wilson(k, n)[0] <= p <= wilson(k, n)[1] for k in draws) / trials


SOLUTIONS = {"06.1": (inside, interval), "06.2": runs_needed, "06.3": apart, "06.4": coverage,
             "06.Q1": "inside", "06.Q2": 128, "06.Q3": 79, "06.Q5": "no",
             "06.Q6": 93}
WRONG = {
    "06.1": [((inside, via_wilson), "build it from the definition"),
             ((inside, wilson_by_another_name), "calls the package's wilson"),
             ((inside, closed_form), "build the ends from the inside it is given"),
             ((inside_via_helper, interval), "only shows the definition at work"),
             ((wald_inside, interval), "not at k/n"), ((ninety_percent, interval), "at most"),
             ((z_two, interval), "at most"), ((strict_inside, interval), "a strict < leaves it out"),
             ((divides, interval), "instead of dividing by it"),
             ((n_outside_root, interval), "n under the root"), ((inside, high_first), "return the low end first"),
             ((inside, coarse_grid), "steps of 0.001 or less"), ((inside, open_ends), "test the ends p0 = 0"),
             ((no_z, interval), "a fourth parameter"), ((z_ignored, interval), "use the z it is given"),
             (interval, "pass both functions")],
    "06.2": [(runs_needed_via_wilson, "your answer calls wilson"), (runs_needed_wald, "not of k/n ± 1.96"),
             (runs_needed_by_another_name, "calls the package's wilson"),
             (runs_needed_at_most, "already give an interval"),
             (runs_needed_rounding_down, "int rounds down"), (runs_needed_from_zero, "start at n = 1")],
    "06.3": [(apart_by_share, "the shares differ, but what matters"), (apart_by_share, "score intervals"),
             (apart_wald, "gives 0 of 8 no width"), (apart_via_wilson, "your answer calls wilson"),
             (apart_pasted_wilson, "a copy of wilson included"), (apart_own_interval, "decide from the interval_of"),
             (apart_two_arguments, "a third parameter"), (apart_inverted, "returned"),
             (apart_one_way, "check both orders")],
    "06.4": [(coverage_of_observed, "contain the true share p"), (coverage_wald, "at each candidate"),
             (coverage_unseeded, "random.Random(seed)"),
             (coverage_reseeded, "every experiment draws the same runs"),
             (coverage_exact, "coverage is measured by drawing runs: use the seed"),
             (coverage_fixed_seed, "use the seed, rng = random.Random(seed)"), (coverage_percent, "not a percentage"),
             (coverage_via_wilson, "your answer calls wilson")],
    "06.Q1": [("outside", "test p0 = 0.5"), ("maybe", "answer with one of")],
    "06.Q2": [(64, "the fewest runs under 0.2"), ("64", "the fewest runs under 0.2"), (256, "the fewest runs under 0.2")],
    "06.Q3": [(95, "how often intervals contain the true share"), (75, "the chance of one run"),
              (21, "lands outside"), (89, "8 of 8 is 100%"), (0.6, "work it out"), ("inside", "answer with a number")],
    "06.Q5": [("yes", "cannot tell the variants apart"), ("maybe", "answer with one of")],
    "06.Q6": [(95, "not exactly on it"), (97, "not exactly on it"), (50, "95 of 100 experiments"), (75, "95 of 100 experiments"), ("most", "answer with a number")],
}

QUESTIONS = {
    "06.Q1": "Inside: at p0 = 0.5 the gap is |0.25 - 0.5| = 0.25 and 1.96 standard errors at p0 are "
             "1.96·√(0.5·0.5/8) ≈ 0.346, so 2 of 8 does not rule out a model right half the time; its interval "
             "runs from about 7% to 59%.",
    "06.Q2": "128 (at half right: 64 runs give about 0.24, 128 about 0.17). The width shrinks with the square root "
             "of the number of runs, so halving it takes four times the runs.",
    "06.Q3": "About 79%. Seed 5's interval, 53-98%, holds 5, 6 or 7 of 8 (4 of 8 is 50%, 8 of 8 is 100%); at "
             "0.75 a run, C(8, k)·0.75^k·0.25^(8−k) gives those counts 21%, 31% and 27%. Seed 13 is one draw: 3 of 8, "
             "outside, one of the other 21%. An interval is the set of true shares that make the count seen "
             "unsurprising, not a forecast of where the next 8 runs land.",
    "06.Q4": "Because the question is which true shares would make what we saw unsurprising, so the wobble is the "
             "one that share would produce. At the observed share 0 of 8 has a standard error of 0, and the "
             "interval would shrink to the single point 0: certainty from eight runs.",
    "06.Q5": "No, for two reasons. The stronger: the unit never came into play. 28 of the 32 real runs went wrong "
             "with a slip before any tool result came back (SmolLM2 called to_fahrenheit on a number no tool had "
             "returned; Gemma answered without calling get_weather), and the other 4 (Gemma) read the result but "
             "kept asking for Paris's weather until the step limit. No run that read the result reached a final reply "
             "(Gemma's final replies came without any get_weather), the only place where 18 could be misread as °F. The second: 0 of 8 still allows a true share up to about 32%, and two groups with no right run have the "
             "same interval, so by 06.3's rule these runs cannot tell the variants apart. The experiment shows the "
             "unit helped the article's 0.8b model; for these two models it shows nothing either way.",
    "06.Q6": "About 93% (the simulation gives 93.05%), not the 95% the interval is built for: 95% is how often "
             "it should contain the true share, built afresh in each experiment, but at 8 runs the count moves in "
             "steps of one run, so the score interval lands near 95%, here a little under it; at p = 0.75 the same "
             "simulation gives 97%.",
}
