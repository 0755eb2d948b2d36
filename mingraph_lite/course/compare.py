"""Compare experiment folders: one table and one figure over any number of models and variants.

Folders with the same model, temperature and variant are pooled (a class of 30, each student with their
own seeds, becomes one row of 30 x 8 runs). Each share of runs comes with a 95% Wilson score interval:
with 8 runs, 6 of 8 is compatible with anything from about 41% to 93%, and the figure must show it.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..redaction import redact
from .classify import CASES, OUTCOMES
from .experiments import EXPERIMENTS, aligned
from .modelled import REPORTED, REPORTED_NOTES, REPORTED_SOURCE
from .results_folder import FIGURE, read_results, read_summary

Z95 = 1.959963984540054  # the standard normal's 97.5% point: a two-sided 95% interval
INTERVAL = "95% Wilson score interval"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion k/n (sensible at 0/8 and 8/8, unlike p ± z·se)."""
    if n <= 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n and n > 0, got k={k}, n={n}")
    p, z2 = k / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Group:
    """Every recorded run of one model, at one temperature, on one variant, pooled over folders."""

    model: str
    temperature: float | None
    variant: str
    counts: dict[str, int]
    folders: tuple[str, ...]
    seeds: tuple[int, ...] = field(repr=False)

    @property
    def runs(self) -> int:
        return sum(self.counts.values())

    @property
    def label(self) -> str:
        temp = "" if self.temperature is None else f", T={self.temperature:g}"
        return f'{self.model}{temp}: "{self.variant}"'

    def share(self, outcome: str) -> tuple[int, float, float, float]:
        """(runs, share, low, high) for one outcome."""
        k = self.counts.get(outcome, 0)
        return (k, k / self.runs, *wilson(k, self.runs))


@dataclass(frozen=True)
class Comparison:
    groups: tuple[Group, ...]
    notes: tuple[str, ...] = ()

    def rows(self) -> list[dict[str, Any]]:
        """One row per group and outcome: runs, share and its interval."""
        out = []
        for g in self.groups:
            for outcome in OUTCOMES:
                k, p, low, high = g.share(outcome)
                out.append({"model": g.model, "temperature": g.temperature, "variant": g.variant,
                            "outcome": outcome, "runs": k, "of": g.runs, "share": round(p, 3),
                            "low": round(low, 3), "high": round(high, 3)})
        return out

    def table(self) -> str:
        """Counts per group and outcome, each with its interval in percent, and any notes."""
        heads = ["model: get_weather returns", "runs", *OUTCOMES]
        body = [[g.label, g.runs, *(_cell(*g.share(o)) for o in OUTCOMES)] for g in self.groups]
        return "\n".join([f"runs per outcome [{INTERVAL}, %]", aligned(heads, body), *self.notes])

    def figure(self, title: str | None = None):
        return plot_comparison(self, title=title)

    def save(self, path: str | os.PathLike[str], title: str | None = None) -> Path:
        path = Path(path)
        self.figure(title).savefig(path, dpi=110)
        return path


def _cell(k: int, p: float, low: float, high: float) -> str:
    return f"{k} [{100 * low:.0f}-{100 * high:.0f}]"


def _order(variant: str) -> int:
    names = [v.name for variants in EXPERIMENTS.values() for v in variants]
    return names.index(variant) if variant in names else len(names)


def _seed_notes(pooled: dict[tuple, dict[str, Any]]) -> list[str]:
    notes = []
    for (model, _temp, variant), g in pooled.items():
        seen = Counter(g["seeds"])
        repeated = sorted(s for s, n in seen.items() if n > 1)
        if repeated and len(g["folders"]) > 1:
            notes.append(f'note: {model} "{variant}": seeds {repeated[:5]} ran in more than one folder; '
                         "runs with the same seed and settings may repeat each other (give each folder "
                         "its own --seed)")
    return notes


def compare(folders: Iterable[str | os.PathLike[str]]) -> Comparison:
    """Gather result folders (each written by ``run_experiment``) into one comparison."""
    pooled: dict[tuple, dict[str, Any]] = {}
    paths = [Path(f) for f in folders]
    if not paths:
        raise ValueError("compare needs at least one result folder")
    for folder in paths:
        runs, summary = read_results(folder), read_summary(folder)
        if not runs:
            raise ValueError(f"{folder} holds no recorded runs (no results.csv): run the experiment into it first")
        model = redact(str(summary.get("model") or runs[0].model))  # a folder written before redaction
        for r in runs:
            g = pooled.setdefault((model, r.temperature, r.variant),
                                  {"counts": Counter(dict.fromkeys(OUTCOMES, 0)), "folders": [], "seeds": []})
            g["counts"][r.outcome] += 1
            g["seeds"].append(r.seed)
            if str(folder) not in g["folders"]:
                g["folders"].append(str(folder))
    groups = tuple(Group(m, t, v, dict(g["counts"]), tuple(g["folders"]), tuple(g["seeds"]))
                   for (m, t, v), g in sorted(pooled.items(), key=lambda kv: (kv[0][0], _order(kv[0][2]))))
    return Comparison(groups, tuple(_seed_notes(pooled)))


_COLOURS = ["#1f5fa8", "#ef6c00", "#2e7d32", "#6a3d9a", "#c62828"]


def plot_comparison(comparison: Comparison, *, outcomes: Sequence[str] = OUTCOMES, title: str | None = None):
    """One panel per outcome, one row per model and variant: the share of runs, with its interval."""
    from ..plots import _done, _pyplot

    plt = _pyplot()
    groups = comparison.groups
    fig, axes = plt.subplots(1, len(outcomes), sharey=True, layout="constrained",
                             figsize=(2.2 * len(outcomes) + 2.6, 0.55 * len(groups) + 1.9))
    variants = list(dict.fromkeys(g.variant for g in groups))
    for ax, outcome in zip(axes, outcomes, strict=True):
        for row, g in enumerate(groups):
            k, p, low, high = g.share(outcome)
            colour = _COLOURS[variants.index(g.variant) % len(_COLOURS)]
            ax.errorbar([p], [row], xerr=[[max(0.0, p - low)], [max(0.0, high - p)]], fmt="o", color=colour, capsize=3)
            ax.annotate(f"{k}/{g.runs}", (high, row), xytext=(4, 0), textcoords="offset points",
                        va="center", fontsize=7)
        case = CASES.get(outcome)
        ax.set_title(outcome + (f" (case {case})" if case else ""), fontsize=9)
        ax.set_ylim(len(groups) - 0.5, -0.5)
        ax.set_xlim(-0.05, 1.3)
        ax.set_xticks([0, 0.5, 1], ["0%", "50%", "100%"])
        ax.set_xlabel("share of runs")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(groups)), [g.label for g in groups], fontsize=8)
    fig.suptitle(title or "Outcome of each run, by its first wrong line", fontsize=10)
    fig.supxlabel(f"dot: share of runs; bar: {INTERVAL} (n runs per row, k/n written beside it)",
                  fontsize=8)
    return _done(plt, fig)


def save_figure(comparison: Comparison, folder: str | os.PathLike[str]) -> Path:
    """The figure into ``folder`` (``outcomes.png``)."""
    return comparison.save(Path(folder) / FIGURE)


def reported_table() -> str:
    """The source article's figures, quoted as theirs (never pooled with recorded runs)."""
    body = [[f'"{r.variant}"', r.runs, f"{r.right_numbers} / {r.runs}", f"{r.celsius_as_fahrenheit} / {r.runs}"]
            for r in REPORTED]
    table = aligned(["get_weather returns", "runs", "right numbers", "said °C as °F"], body)
    return f"{REPORTED_SOURCE}\n{table}\n{REPORTED_NOTES}"
