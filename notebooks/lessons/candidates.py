"""Candidate true shares against a count of runs, as notebook 06 shows them before 06.1: one candidate's numbers,
and the picture of every candidate.

Both only show: neither hands back an interval, and 06.1's check refuses an answer that calls them, since
telling inside from outside and scanning the candidates is that exercise's work.
"""

from __future__ import annotations

import math

from mingraph_lite.plots import _done, _pyplot

Z = 1.96


def gap_and_reach(k: int, n: int, p0: float) -> tuple[float, float]:
    """How far the share seen, k/n, is from p0; and 1.96 standard errors of a model whose true share is p0."""
    return abs(k / n - p0), Z * math.sqrt(p0 * (1 - p0) / n)


def show_candidate(k: int, n: int, p0: float) -> None:
    """Print the definition's two numbers for one candidate p0, and which side it falls on."""
    gap, reach = gap_and_reach(k, n, p0)
    print(f"gap |{k}/{n} − {p0:g}| = {gap:.3f};  1.96 · √({p0:g} · {1 - p0:g} / {n}) = {reach:.3f};  "
          f"{p0:g} is {'inside' if gap <= reach else 'outside'}")


def draw_gap_reach(k: int, n: int):
    """The gap and 1.96 standard errors for every candidate from 0 to 1, the inside stretch shaded."""
    plt = _pyplot()
    grid = [i / 1000 for i in range(1001)]
    pairs = [gap_and_reach(k, n, p0) for p0 in grid]
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.plot(grid, [gap for gap, _ in pairs], label=f"gap |{k}/{n} − p0|")
    ax.plot(grid, [reach for _, reach in pairs], label=f"1.96 · √(p0(1−p0)/{n})")
    ax.fill_between(grid, 0, [reach for _, reach in pairs], where=[gap <= reach for gap, reach in pairs],
                    alpha=0.2, label="inside")
    ax.set(xlabel="candidate true share p0", ylabel="distance", title=f"{k} of {n}: which true shares are inside?")
    ax.legend(loc="upper right")
    return _done(plt, fig)
