"""Notebook 06's checked questions, each compared with wilson or a run of the code.

They live apart from ``nb06.py``'s code exercises to keep each module short.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

from mingraph_lite.course.compare import compare, wilson
from mingraph_lite.course.modelled import MODELLED
from ..reruns import rerun_counts
from . import Hint, exercise
from .nb05 import _choice


@exercise("06.Q1", kind="reasoning", title="2 of 8: is a model right half the time inside?")
def check_half_of_two(answer: Any) -> str:
    truth = "inside" if wilson(2, 8)[0] <= 0.5 <= wilson(2, 8)[1] else "outside"
    if _choice(answer, ("inside", "outside")) != truth:
        raise Hint("test p0 = 0.5 against the definition: the gap is |2/8 - 0.5| = 0.25, and 1.96 standard errors "
                   f"at p0 are 1.96·√(0.5·0.5/8) = {1.96 * math.sqrt(0.25 / 8):.3f}")
    low, high = wilson(2, 8)
    return f"right: {truth}; 2 of 8 allows anything from {low:.0%} to {high:.0%}"


@exercise("06.Q2", kind="reasoning", title="how many runs for an interval narrower than 0.2?")
def check_fewest_of_five(answer: Any) -> str:
    options = (16, 32, 64, 128, 256)
    width = {n: wilson(n // 2, n)[1] - wilson(n // 2, n)[0] for n in options}
    truth = next(n for n in options if width[n] < 0.2)
    if (runs := _choice(answer, options)) != truth:
        raise Hint(f"at {runs} runs, half right, the interval is {width[runs]:.2f} wide; the question asks for "
                   "the fewest runs under 0.2: the width shrinks with the square root of the runs (4 times the "
                   "runs, half the width)")
    return f"right: {truth} runs give width {width[truth]:.2f} ({truth // 2} runs before: {width[truth // 2]:.2f})"


#: The chance the script makes an "18°C" run right: the article's 6 of 8, its right behaviours' weight.
SCRIPT_RIGHT = sum(w for b, w in MODELLED["18°C"].items() if b.startswith("right")) / sum(MODELLED["18°C"].values())


def _chance(counts: range | list[int], share: float = SCRIPT_RIGHT, n: int = 8) -> float:
    """The binomial chance, in percent, that n runs right with chance share give a count in counts."""
    return 100 * sum(math.comb(n, k) * share ** k * (1 - share) ** (n - k) for k in counts)


@exercise("06.Q3", kind="reasoning", title="how likely is another seed's count inside seed 5's interval?")
def check_other_seed(answer: Any) -> str:
    try:
        said = float(answer)
    except (TypeError, ValueError):
        raise Hint("answer with a number: the chance in percent, e.g. 50") from None
    said = 100 * said if 0 < said <= 1 else said  # a share, written as one
    low, high = wilson(rerun_counts(5)["18°C"], 8)
    kept = [k for k in range(9) if low <= k / 8 <= high]
    truth, other = _chance(kept), rerun_counts(13)["18°C"]
    near = {95: "95% is how often intervals contain the true share (06.4), not how often a next count lands in "
                "one interval", 75: "0.75 is the chance of one run being right, not of a count of 8 landing inside",
            100 - truth: "that is the chance the count lands outside",
            _chance(range(kept[0], 9)): "8 of 8 is 100%, above where the interval ends",
            _chance(range(kept[0] - 1, kept[-1] + 1)): f"{kept[0] - 1} of 8 is below where the interval begins"}
    if abs(said - truth) > 3:
        why = min(near.items(), key=lambda item: abs(item[0] - said))[1] if min(abs(x - said) for x in near) < 4 \
            else "work it out count by count"
        raise Hint(f"you said {said:g}%: {why}; the interval, {low:.0%} to {high:.0%}, holds {kept[0]} to {kept[-1]} "
                   "of 8: add the binomial chances of those counts at 0.75, C(8, k)·0.75^k·0.25^(8−k)")
    return (f"right: about {truth:.0f}%; seed 13 is one draw: {other} of 8 = {other / 8:.0%}, "
            f"{'inside' if other in kept else 'outside'}. An interval is about the true share, not a forecast of the "
            "next count")


RECORDED = Path(__file__).resolve().parents[3] / "data" / "experiments"


@exercise("06.Q5", kind="reasoning", title="0 right in both variants: does that show the unit does not help?")
def check_no_help(answer: Any) -> str:
    groups = compare([RECORDED / "smollm2-135m", RECORDED / "gemma3-270m"]).groups
    right = {(g.model, g.variant): g.share("right") for g in groups}
    models = sorted({model for model, _ in right})
    apart = [m for m in models if (a := right[m, "18"])[3] < (b := right[m, "18°C"])[2] or b[3] < a[2]]
    truth = "yes" if apart else "no"  # only intervals apart could show anything, one way or the other
    spans = "; ".join(f"{m} {v}: {k} of 8, {low:.0%} to {high:.0%}" for (m, v), (k, _, low, high) in sorted(right.items()))
    if _choice(answer, ("yes", "no")) != truth:
        raise Hint(f"the recorded right runs, {spans}: each model's two intervals overlap, so by 06.3's rule these "
                   "runs cannot tell the variants apart (and no real run that read get_weather's result went on to a "
                   "final reply, where the unit could matter)")
    return f"right: {truth}; {spans}: each model's two intervals overlap, these runs cannot tell"


def coverage(p: float, n: int, trials: int = 2000, seed: int = 1) -> float:
    """The notebook's simulation: the share of simulated experiments whose 95% interval contains p."""
    rng = random.Random(seed)
    draws = (sum(rng.random() < p for _ in range(n)) for _ in range(trials))
    return sum(wilson(k, n)[0] <= p <= wilson(k, n)[1] for k in draws) / trials


@exercise("06.Q6", kind="reasoning", title="in how many of 2,000 experiments does the interval contain 0.5?")
def check_coverage(answer: Any) -> str:
    try:
        said = float(answer)
    except (TypeError, ValueError):
        raise Hint("answer with a number: the percentage you predict, e.g. 50") from None
    said = 100 * said if 0 < said <= 1 else said  # a share (0.93) is read as the percentage it stands for
    ran = 100 * coverage(0.5, 8)
    if abs(said - ran) > 1.5 and said >= 95:
        raise Hint(f"you said {said:g}%: 95% is the target, but at 8 runs the count can only be 0, 1, ..., 8, so "
                   "the score interval's ends jump from one count to the next and its coverage comes out near 95%, "
                   "not exactly on it: run coverage(0.5, 8) and look")
    if abs(said - ran) > 1.5:
        raise Hint(f"you said {said:g}%: a 95% interval is built to contain the true share in about 95 of 100 "
                   "experiments, whatever share one experiment happens to show; run coverage(0.5, 8) and look")
    return (f"right: {ran:.1f}% of 2,000 experiments: this interval's coverage at 8 runs (the count moves in steps, "
            "so it lands near 95%, not on it)")
