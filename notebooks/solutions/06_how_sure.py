"""Reference answers for notebook 06, plausible wrong ones (each with part of the hint it must get), and the
answers to its questions."""

from __future__ import annotations

import math

from mingraph_lite.course.compare import wilson

Z = 1.96


def _surprised(p0, k, n, z=Z):
    """True when k of n runs would be more than z standard errors from a true share p0."""
    return abs(k / n - p0) > z * math.sqrt(p0 * (1 - p0) / n)


def _edge(inside, outside, k, n, z=Z):
    """Bisect between a share that is not surprised (inside) and one that is (outside)."""
    for _ in range(60):
        middle = (inside + outside) / 2
        inside, outside = (inside, middle) if _surprised(middle, k, n, z) else (middle, outside)
    return inside


def score_interval(k, n, z=Z):
    """Every share p0 that k of n runs would not surprise: its two ends, found by bisection."""
    p = k / n
    low = 0.0 if not _surprised(0.0, k, n, z) else _edge(p, 0.0, k, n, z)
    high = 1.0 if not _surprised(1.0, k, n, z) else _edge(p, 1.0, k, n, z)
    return low, high


def via_wilson(k, n):
    """Wrong: the package's finished function, not the definition."""
    return wilson(k, n)


def wilson_by_another_name(k, n):
    """Wrong: the package's function again, reached without writing its name."""
    from mingraph_lite.course import compare

    return getattr(compare, "wil" + "son")(k, n)


def wald_interval(k, n):
    """Wrong: the textbook p ± 1.96·se with se at the observed share, a single point at 0 of 8."""
    p = k / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return max(0.0, p - half), min(1.0, p + half)


def ninety_percent(k, n):
    """Wrong: the definition with z for a 90% interval."""
    return score_interval(k, n, z=1.645)


def z_two(k, n):
    """Wrong: the rounded 2 standard errors instead of 1.96."""
    return score_interval(k, n, z=2)


def high_first(k, n):
    """Wrong: the right ends in the wrong order."""
    low, high = score_interval(k, n)
    return high, low


def coarse_grid(k, n):
    """Wrong: scans the candidates in steps of 0.01."""
    inside = [i / 100 for i in range(101) if not _surprised(i / 100, k, n)]
    return min(inside), max(inside)


def strict_inside(k, n):
    """Wrong: 'within' read as a strict <, which leaves p0 = 0 out at 0 of n (gap 0, reach 0)."""
    inside = [i / 10000 for i in range(10001)
              if abs(k / n - i / 10000) < Z * math.sqrt(i / 10000 * (1 - i / 10000) / n)]
    return min(inside), max(inside)


def divides_by_observed_se(k, n):
    """Wrong: measures distance in standard errors at the observed share, which is 0 at 0 of n."""
    p = k / n
    se = math.sqrt(p * (1 - p) / n)
    inside = [i / 10000 for i in range(10001) if abs(p - i / 10000) / se <= Z]
    return min(inside), max(inside)


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


def apart(a, b):
    """True when the two groups' 95% score intervals (the notebook's 06.1) do not overlap."""
    (a_low, a_high), (b_low, b_high) = score_interval(*a), score_interval(*b)
    return a_high < b_low or b_high < a_low


def apart_by_share(a, b):
    """Wrong: any difference in shares counts as a difference."""
    return a[0] / a[1] != b[0] / b[1]


def apart_wald(a, b):
    """Wrong: the intervals built at the observed share, a single point at 0 of 8."""
    (a_low, a_high), (b_low, b_high) = wald_interval(*a), wald_interval(*b)
    return a_high < b_low or b_high < a_low


def apart_via_wilson(a, b):
    """Wrong: the package's interval."""
    (a_low, a_high), (b_low, b_high) = wilson(*a), wilson(*b)
    return a_high < b_low or b_high < a_low


def apart_inverted(a, b):
    """Wrong: True when they overlap."""
    return not apart(a, b)


SOLUTIONS = {"06.1": score_interval, "06.2": runs_needed, "06.3": apart,
             "06.Q1": "inside", "06.Q2": 128, "06.Q3": "different"}
WRONG = {
    "06.1": [(via_wilson, "build it from the definition"),
             (wilson_by_another_name, "calls the package's wilson"), (wald_interval, "a single point"),
             (ninety_percent, "the constant for 95% is 1.96"), (z_two, "2.000 standard errors"),
             (high_first, "return the low end first"), (coarse_grid, "steps of 0.001 or less"),
             (strict_inside, "a strict < leaves it out"),
             (divides_by_observed_se, "k = 0 and k = n are the edges")],
    "06.2": [(runs_needed_via_wilson, "your answer calls wilson"), (runs_needed_wald, "not of k/n ± 1.96"),
             (runs_needed_by_another_name, "calls the package's wilson"),
             (runs_needed_at_most, "already give an interval"), (runs_needed_from_zero, "start at n = 1")],
    "06.3": [(apart_by_share, "the shares differ, but what matters"), (apart_wald, "gives 0 of 8 no width"),
             (apart_via_wilson, "your answer calls wilson"), (apart_inverted, "returned")],
    "06.Q1": [("outside", "test p0 = 0.5"), ("maybe", "answer with one of")],
    "06.Q2": [(64, "the fewest runs under 0.2"), ("64", "the fewest runs under 0.2"), (256, "the fewest runs under 0.2")],
    "06.Q3": [("same", "the seed picks the samples")],
}

QUESTIONS = {
    "06.Q1": "Inside: at p0 = 0.5 the gap is |0.25 - 0.5| = 0.25 and 1.96 standard errors at p0 are "
             "1.96·√(0.5·0.5/8) ≈ 0.346, so 2 of 8 does not rule out a model right half the time; its interval "
             "runs from about 7% to 59%.",
    "06.Q2": "128 (at half right: 64 runs give about 0.24, 128 about 0.17). The width shrinks with the square root "
             "of the number of runs, so halving it takes four times the runs.",
    "06.Q3": "Different: seed 5 gives 7 of 8 for 18°C and seed 9 gives 4 of 8. The scripted managers sample, and "
             "each count is one draw; the interval says how far such draws can wander.",
    "06.Q4": "Because the question is which true shares would make what we saw unsurprising, so the wobble is the "
             "one that share would produce. At the observed share 0 of 8 has a standard error of 0, and the "
             "interval would shrink to the single point 0: certainty from eight runs.",
    "06.Q5": "No. 0 of 8 still allows a true share up to about 32%, and two groups with no right run have the "
             "same interval, so by 06.3's rule these runs cannot tell the variants apart. The experiment shows the "
             "unit helped the article's 0.8b model; for these two models it shows nothing either way.",
}
