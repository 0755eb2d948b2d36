"""Notebook 06's exercises: an interval built from its definition, the runs a share needs
before its interval is narrow enough, whether two groups' intervals overlap, and what "95%" promises
(the questions are in nb06_questions.py)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from mingraph_lite.course.compare import wilson
from ..calls import names_read
from ..candidates import gap_and_reach
from . import Hint, exercise
from .package_guard import calls_package

_FINISHED = "this exercise asks you to build it from the definition, and that function is the finished one; " \
            "checking against it is the check's job"
_SHOWN = "that helper only shows the definition at work above 06.1; this exercise asks you to write it"
_BORROWED = {name: _FINISHED for name in ("wilson", "proportion_confint", "binomtest")} | {
    name: _SHOWN for name in ("gap_and_reach", "show_candidate", "draw_gap_reach")}


def _refuse(answer: Callable[..., Any], *args: Any) -> None:
    code = getattr(answer, "__code__", None)
    for name in sorted(names_read(code) & set(_BORROWED)) if code else ():
        raise Hint(f"your answer calls {name}: {_BORROWED[name]}")
    if calls_package(answer, (wilson,), *args):
        raise Hint(f"your answer calls the package's wilson (under some name): {_FINISHED}")
    if calls_package(answer, (gap_and_reach,), *args):
        raise Hint(f"your answer calls the notebook's gap_and_reach (under some name): {_SHOWN}")


def _z_fitted(interval: Callable[[int, int], tuple[float, float]]) -> float | None:
    """The z that the answer's low end at 6 of 8 sits at, when the score interval with that z fits both its ends."""
    try:
        low, high = (float(x) for x in interval(6, 8))
        z = abs(0.75 - low) / math.sqrt(low * (1 - low) / 8)
    except Exception:  # no z to read: the other hints explain
        return None
    fit = wilson(6, 8, z)
    return z if abs(fit[0] - low) < 5e-4 and abs(fit[1] - high) < 5e-4 else None


def _interval_hint(interval: Callable[[int, int], tuple[float, float]], k: int, n: int,
                   got: tuple[float, float], want: tuple[float, float]) -> Hint:
    (low, high), (want_low, want_high) = got, want
    if high - low < 1e-9:
        return Hint(f"at {k} of {n} your interval is a single point, [{low:g}, {high:g}]: that comes from the "
                    "standard error at the observed share k/n, which is 0 there; the definition takes the "
                    "standard error at each candidate p0")
    z = _z_fitted(interval)
    if z is not None and abs(z - 1.96) > 0.005:
        return Hint(f"your ends sit {z:.3f} standard errors from k/n: the constant for 95% is 1.96")
    error = max(abs(low - want_low), abs(high - want_high))
    if error < 0.02:
        return Hint(f"for {k} of {n} your ends are off by up to {error:.3f}, and each must be within "
                    f"{TOLERANCE}: if you scan candidates, take steps of 0.001 or less (or halve the gap, bisection)")
    return Hint(f"for {k} of {n} expected about ({want_low:.3f}, {want_high:.3f}), got ({low:.3f}, {high:.3f})")


TOLERANCE = 0.002
INTERVAL_CASES = [(0, 8), (1, 8), (4, 8), (6, 8), (8, 8), (0, 16), (3, 16), (16, 16), (1, 1), (0, 3),
                  (60, 240), (120, 240), (239, 240)]
#: (k, n, p0), each candidate at least 0.002 from the boundary, edges included: inside or not by the definition.
INSIDE_CASES = [(6, 8, 0.30), (6, 8, 0.45), (6, 8, 0.95), (0, 8, 0.0), (0, 8, 0.1), (0, 8, 0.4), (8, 8, 1.0),
                (1, 1, 0.5), (120, 240, 0.44), (120, 240, 0.56), (3, 16, 0.5), (0, 8, 0.329)]
#: (k, n, p0, z): each comes out the other way at 1.96, so an inside that ignores z fails one.
Z_CASES = [(6, 8, 0.45, 1.645), (6, 8, 0.35, 2.576), (0, 8, 0.3, 1.0)]


def _inside(k: int, n: int, p0: float, z: float = 1.96) -> bool:
    return abs(k / n - p0) <= z * math.sqrt(p0 * (1 - p0) / n)


def _inside_hint(k: int, n: int, p0: float, got: Any) -> Hint:
    gap, reach = abs(k / n - p0), 1.96 * math.sqrt(p0 * (1 - p0) / n)
    said = f"inside({k}, {n}, {p0}) returned {got!r}, but the gap is {gap:.3f} and 1.96 standard errors at p0 " \
           f"are {reach:.3f}"
    if gap == reach == 0:
        return Hint(f"{said}: 0 <= 0, and 'within' means <=, so it is inside; a strict < leaves it out")
    observed = 1.96 * math.sqrt(k / n * (1 - k / n) / n)
    if got == (gap <= observed):
        return Hint(f"{said}: take the standard error at the candidate p0, not at k/n (1.96 of those are "
                    f"{observed:.3f} at {k} of {n})")
    return Hint(f"{said}: inside means the gap is at most 1.96 standard errors at p0, with 1.96 exactly (2 or "
                "1.645 give other intervals)")


def _check_z(inside: Callable[..., bool]) -> None:
    for k, n, p0, z in Z_CASES:
        try:
            got = inside(k, n, p0, z)
        except TypeError:
            raise Hint("give inside a fourth parameter with 1.96 as its default, def inside(k, n, p0, z=1.96), "
                       "and use it in place of 1.96") from None
        if got != _inside(k, n, p0, z):
            gap, reach = abs(k / n - p0), z * math.sqrt(p0 * (1 - p0) / n)
            raise Hint(f"inside({k}, {n}, {p0}, z={z}) returned {got!r}, but the gap is {gap:.3f} and {z} standard "
                       f"errors at p0 are {reach:.3f}: use the z it is given, not 1.96 written in")


def _check_inside(inside: Callable[..., bool]) -> None:
    for k, n, p0 in INSIDE_CASES:
        try:
            got = inside(k, n, p0)
        except (ZeroDivisionError, ValueError, TypeError) as error:
            raise Hint(f"inside({k}, {n}, {p0}) failed ({type(error).__name__}): at k = 0, k = n, p0 = 0 or p0 = 1 a "
                       "standard error is 0, so compare gap <= 1.96 · standard error instead of dividing by it") from None
        if not isinstance(got, bool):
            raise Hint(f"inside({k}, {n}, {p0}) returned {got!r}: return True or False")
        if got != _inside(k, n, p0):
            if all(inside(*case) == (abs(case[0] / case[1] - case[2]) <= 1.96 * math.sqrt(case[2] * (1 - case[2]))
                                     / case[1]) for case in INSIDE_CASES):
                raise Hint(f"inside({k}, {n}, {p0}) returned {got!r}: yours divides by n outside the square root; "
                           "a standard error is √(p0(1−p0)/n), n under the root")
            raise _inside_hint(k, n, p0, got)
    _check_z(inside)


def _ninety(k: int, n: int, p0: float) -> bool:
    return _inside(k, n, p0, 1.645)


def _check_follows(interval: Callable[..., tuple[float, float]]) -> None:
    """The interval must come from the inside it is given: with a 90% inside it must give the 90% interval."""
    for k, n in ((6, 8), (0, 8)):
        try:
            got = tuple(float(x) for x in interval(k, n, _ninety))
        except Exception:  # its own crash is explained by the other hints
            got = ()
        want = wilson(k, n, 1.645)
        if len(got) != 2 or max(abs(got[0] - want[0]), abs(got[1] - want[1])) > TOLERANCE:
            raise Hint(f"given an inside for 90% (1.645 standard errors), interval({k}, {n}, inside) should give about "
                       f"({want[0]:.3f}, {want[1]:.3f}) and gave {got}: build the ends from the inside it is given, "
                       "by scanning or bisecting over p0, not from a formula")


def _exact_edges(k: int, n: int, low: float, high: float) -> None:
    """At 0 of n, p0 = 0 sits at gap 0 and reach 0: inside (0 <= 0), so the low end is exactly 0; n of n mirrors it."""
    for edge, end, at in ((k == 0, low, 0.0), (k == n, high, 1.0)):
        if edge and end != at and abs(end - at) < 0.01:
            raise Hint(f"at {k} of {n} your interval ends at {end:g}, not exactly {at:g}: there p0 = {at:g} is inside "
                       "(gap 0, 1.96 standard errors of 0), so test the ends p0 = 0 and p0 = 1 themselves")


def _pair(answer: Any) -> tuple[Callable[..., bool], Callable[..., tuple[float, float]]]:
    if not (isinstance(answer, tuple) and len(answer) == 2 and all(map(callable, answer))):
        raise Hint("pass both functions, inside first: check(\"06.1\", (inside, interval))")
    return answer


@exercise("06.1", kind="code", title="a 95% interval for a share of runs, from its definition")
def check_interval(answer: Any) -> str:
    inside, interval = _pair(answer)
    _refuse(inside, 3, 8, 0.5)
    _refuse(interval, 3, 8, inside)
    _check_inside(inside)
    for k, n in INTERVAL_CASES:
        try:
            low, high = (float(x) for x in interval(k, n, inside))
        except (ZeroDivisionError, ValueError, TypeError) as error:
            raise Hint(f"for {k} of {n} your interval failed ({type(error).__name__}); k = 0 and k = n are the "
                       "edges: there one end of the interval must be exactly 0 or 1, so return a pair "
                       "(low, high) of numbers") from None
        if low > high:
            raise Hint(f"for {k} of {n} you returned ({low:g}, {high:g}): return the low end first, (low, high)")
        _exact_edges(k, n, low, high)
        want = wilson(k, n)
        if not (math.isclose(low, want[0], abs_tol=TOLERANCE) and math.isclose(high, want[1], abs_tol=TOLERANCE)):
            raise _interval_hint(lambda k, n: interval(k, n, inside), k, n, (low, high), want)
    _check_follows(interval)
    return (f"your inside is right on {len(INSIDE_CASES) + len(Z_CASES)} candidates, and your interval, built from it, matches "
            f"the 95% score interval on {len(INTERVAL_CASES)} cases, 0 of n and n of n included")


# --- 06.2: how many runs before the interval is narrow enough --------------------------------------------

def _width(share: float, n: int, rounding: Callable[[float], int] = round) -> float:
    low, high = wilson(rounding(share * n), n)
    return high - low


def _runs_needed(width: float, share: float, rounding: Callable[[float], int] = round) -> int:
    return next(n for n in range(1, 100_000) if _width(share, n, rounding) < width)


def _wald(k: int, n: int) -> tuple[float, float]:
    """k/n ± 1.96 standard errors at k/n: the mistake some hints name."""
    p, half = k / n, 1.96 * math.sqrt(k / n * (1 - k / n) / n)
    return max(0.0, p - half), min(1.0, p + half)


def _wald_width(share: float, n: int) -> float:
    low, high = _wald(round(share * n), n)
    return high - low


#: Each answer is at least 0.005 from the next width either way: an interval right to 0.002 a side finds it.
RUNS_CASES = [(0.5, 0.5), (0.35, 0.25), (0.4, 0.1), (0.4, 0.0), (0.25, 0.0), (0.5, 0.2)]  # (width, share)


@exercise("06.2", kind="code", title="how many runs before the interval is narrower than a width")
def check_runs_needed(runs_needed: Callable[[float, float], int]) -> str:
    _refuse(runs_needed, 0.5, 0.5)
    for width, share in RUNS_CASES:
        try:
            got = runs_needed(width, share)
        except (ZeroDivisionError, ValueError) as error:
            raise Hint(f"runs_needed({width}, {share}) failed ({type(error).__name__}): start at n = 1, since "
                       "0 runs have no share") from None
        want = _runs_needed(width, share)
        if not isinstance(got, int) or isinstance(got, bool):
            raise Hint(f"runs_needed({width}, {share}) returned {got!r}: return the number of runs, a whole number")
        if got != want:
            at = _width(share, got) if got >= 1 else float("nan")
            if got == _runs_needed(width, share, int):
                raise Hint(f"runs_needed({width}, {share}) returned {got}: that is the answer with k = int(share * "
                           f"n), and int rounds down; with k = round(share * n), as the exercise takes it, it is {want}")
            if got < want:
                wald = ": measure the width of the score interval, not of k/n ± 1.96·√(k/n(1−k/n)/n)" \
                    if got >= 1 and _wald_width(share, got) < width else ": measure it with your 06.1 interval"
                raise Hint(f"runs_needed({width}, {share}) returned {got}, but at {got} runs (k = round(share * n) "
                           f"= {round(share * got)}) the 95% interval is {at:.3f} wide, not narrower than {width}"
                           + wald)
            raise Hint(f"runs_needed({width}, {share}) returned {got}, but {want} runs already give an interval "
                       f"{_width(share, want):.3f} wide: the fewest n whose width is under {width}, trying n = 1, 2, 3...")
    return f"right on {len(RUNS_CASES)} (width, share) pairs, the fewest runs each time"


# --- 06.3: do two groups' intervals overlap? ----------------------------------------------------------------

#: Intervals at least 0.005 apart or overlapping by as much: an interval right to 0.002 a side decides each.
OVERLAP_CASES = [((0, 8), (3, 8)), ((5, 8), (0, 8)), ((0, 16), (5, 16)), ((8, 8), (4, 8)), ((2, 8), (2, 8)),
                 ((100, 240), (150, 240)), ((0, 8), (1, 8)), ((30, 64), (50, 64)), ((16, 16), (9, 16)), ((0, 16), (9, 16))]


def _apart(a: tuple[int, int], b: tuple[int, int], z: float = 1.96) -> bool:
    (a_low, a_high), (b_low, b_high) = wilson(*a, z), wilson(*b, z)
    return a_high < b_low or b_high < a_low


def _apart_wald(a: tuple[int, int], b: tuple[int, int]) -> bool:
    (a_low, a_high), (b_low, b_high) = (_wald(*a), _wald(*b))
    return a_high < b_low or b_high < a_low


def _given(z: float) -> Callable[[int, int], tuple[float, float]]:
    """The score interval at z, as the check hands it to apart: its own closed form, so not the package's wilson."""
    def interval(k: int, n: int) -> tuple[float, float]:
        p, q = k / n, z * z / n
        centre, half = p + q / 2, z * math.sqrt(p * (1 - p) / n + q / (4 * n))
        return max(0.0, (centre - half) / (1 + q)), min(1.0, (centre + half) / (1 + q))
    return interval


#: (z, a, b): apart comes out the other way than at 1.96, so an apart that ignores the interval_of it is given fails.
FOLLOW_CASES = [(1.0, (2, 8), (6, 8)), (2.576, (1, 16), (9, 16))]


def _check_follows_interval(apart: Callable[..., bool]) -> None:
    for z, a, b in FOLLOW_CASES:
        if (got := apart(a, b, _given(z))) != _apart(a, b, z):
            raise Hint(f"handed the score interval at z = {z} instead of 1.96, apart({a}, {b}, interval_of) returned "
                       f"{got!r}, and those intervals say {not got!r}: decide from the interval_of apart is given, not "
                       "from one of its own (a copy of wilson included)")


@exercise("06.3", kind="code", title="two groups: do their intervals overlap?", may_use=("06.1",))
def check_apart(apart: Callable[..., bool]) -> str:
    _refuse(apart, (6, 8), (0, 8), _given(1.96))
    for a, b in OVERLAP_CASES:
        try:
            got = apart(a, b, _given(1.96))
        except TypeError:
            raise Hint("give apart a third parameter, def apart(a, b, interval_of), and build each group's "
                       "(low, high) with interval_of(right, runs)") from None
        if got != _apart(a, b):
            ia, ib = wilson(*a), wilson(*b)
            shares = f"{a[0]} of {a[1]} spans {ia[0]:.2f} to {ia[1]:.2f}, {b[0]} of {b[1]} spans {ib[0]:.2f} to {ib[1]:.2f}"
            why = ("the shares differ, but what matters is whether the intervals do" if a[0] * b[1] != b[0] * a[1]
                   else "same share, same interval: they overlap")
            if not got and (ia[1] < ib[0] or ib[1] < ia[0]):  # apart, missed: only one order tested
                why = "these intervals are apart, one above the other: check both orders (a below b, b below a)"
            wald = (" (build each interval with the interval_of apart is given; k/n ± 1.96 standard errors at k/n "
                    "gives 0 of 8 no width at all)") if got == _apart_wald(a, b) else ""
            raise Hint(f"apart({a}, {b}, interval_of) returned {got!r}; the 95% score intervals: {shares}; {why}{wald}")
    _check_follows_interval(apart)
    return (f"right on {len(OVERLAP_CASES)} pairs of groups, held out from the notebook, and with intervals for "
            "other levels than 95%")


# --- 06.4: what "95%" promises -------------------------------------------------------------------------

#: (p, n) the notebook never shows; the score interval covers 95-97% of them, k/n ± 1.96 SE at k/n under 89%.
COVERAGE_CASES = [(0.2, 10), (0.3, 12), (0.1, 20)]
COVERAGE_TRIALS = 1000  # fewer than the default 2,000, to keep a slow interval's check short
COVERAGE_TOLERANCE = 0.025  # about 4 standard errors of a share of 1,000 trials near 0.95


def exact_coverage(p: float, n: int, interval: Callable[[int, int], tuple[float, float]] = wilson) -> float:
    """The chance that n runs at true share p give an interval containing p: binomial weights, no simulation."""
    return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)
               if interval(k, n)[0] <= p <= interval(k, n)[1])


def _same_runs(coverage: Callable[..., float], p: float, n: int) -> bool:
    """At a seed whose first experiment's interval misses p, an answer that repeats that experiment returns 0."""
    def first(seed: int) -> int:
        rng = random.Random(seed)
        return sum(rng.random() < p for _ in range(n))
    seed = next((s for s in range(1, 500) if not wilson(first(s), n)[0] <= p <= wilson(first(s), n)[1]), None)
    return seed is not None and coverage(p, n, 50, seed) == 0


def _coverage_hint(coverage: Callable[..., float], p: float, n: int, got: float) -> Hint:
    want = exact_coverage(p, n)
    said = f"coverage({p}, {n}, {COVERAGE_TRIALS}) returned {got:.3f}, and about {want:.3f} of such experiments contain {p}"
    if got in (0, 1) and _same_runs(coverage, p, n):
        return Hint(f"{said}: you build a new Random(seed) inside the loop: every experiment draws the same runs; "
                    "make one rng before the loop and draw every experiment from it")
    if got == 1:
        return Hint(f"{said}: every interval contains its own k/n, so count the ones that contain the true share p")
    if abs(got - exact_coverage(p, n, _wald)) < COVERAGE_TOLERANCE:
        return Hint(f"{said}: near what k/n ± 1.96 standard errors at k/n gives; whatever interval yours is, build "
                    "each experiment's from its own count k with your 06.1 interval (the standard error at each "
                    "candidate), then ask whether it contains p")
    return Hint(f"{said}: each experiment is n runs, each right when rng.random() < p; build its interval from "
                "its count k and count it when low <= p <= high")


def _reseeded(coverage: Callable[..., float], p: float, n: int) -> float:
    """coverage(p, n) again after moving the shared random module on: a seeded answer gives the same share."""
    state = random.getstate()
    try:
        random.seed(2)
        return coverage(p, n, 200)
    finally:
        random.setstate(state)


#: Seeds besides the default 1: a simulation of 1,000 experiments gives one share for all five about once in 10^5.
OTHER_SEEDS = (2, 3, 4, 5)


def _check_draws(coverage: Callable[..., float], at_seed_1: float) -> None:
    """Coverage is measured by drawing runs: other seeds draw other experiments, so not all give one share."""
    (p, n), shares = COVERAGE_CASES[0], {1: at_seed_1}
    shares |= {seed: coverage(p, n, COVERAGE_TRIALS, seed) for seed in OTHER_SEEDS}
    if len(set(shares.values())) == 1:
        raise Hint(f"coverage({p}, {n}, {COVERAGE_TRIALS}, seed) returned {at_seed_1:g} for each of seeds 1 to 5: "
                   "coverage is measured by drawing runs: use the seed, rng = random.Random(seed), and draw each "
                   "run with rng.random() < p (an exact sum over the counts skips the simulation)")


@exercise("06.4", kind="code", title="in how many simulated experiments does the interval contain the true share?",
          may_use=("06.1",))
def check_coverage_simulation(coverage: Callable[..., float]) -> str:
    _refuse(coverage, 0.2, 10, 50)
    shares = []
    for p, n in COVERAGE_CASES:
        got = coverage(p, n, COVERAGE_TRIALS)
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            raise Hint(f"coverage({p}, {n}, {COVERAGE_TRIALS}) returned {got!r}: return a share, a number between 0 and 1")
        if got > 1:
            raise Hint(f"coverage({p}, {n}, {COVERAGE_TRIALS}) returned {got:g}: return a share between 0 and 1, not a percentage")
        if _reseeded(coverage, p, n) != coverage(p, n, 200):
            raise Hint(f"coverage({p}, {n}, 200) gave two results on two calls: draw from random.Random(seed), so "
                       "the same seed repeats the same experiments")
        if abs(got - exact_coverage(p, n)) > COVERAGE_TOLERANCE:
            raise _coverage_hint(coverage, p, n, got)
        shares.append(got)
    _check_draws(coverage, shares[0])
    return (f"right on {len(COVERAGE_CASES)} (p, n) pairs, each within {COVERAGE_TOLERANCE} of the exact chance: "
            "the intervals contain the true share about 95% of the time, a little over or under at small n")
