"""Pool a class's experiment folders of one definition: one row per (model, variant), a CSV and a figure.

Refused in one sentence: other definitions, one model under other settings, the same (model, variant,
seed) run twice. Warned: greedy runs repeating each other; skipped: folders with no runs or a broken file.
Each share has a 95% Wilson score interval: with 8 runs, 6 of 8 is compatible with anything from about 41% to 93%.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..redaction import redact
from .classify import CASES, OUTCOMES
from .definition import load
from .experiments import aligned
from .modelled import REPORTED, REPORTED_NOTES, REPORTED_SOURCE
from .results_folder import RunResult, git, read_results, read_summary

Z95 = 1.959963984540054  # the standard normal's 97.5% point: a two-sided 95% interval
INTERVAL = "95% Wilson score interval"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion k/n (sensible at 0/8 and 8/8, unlike p ± z·se)."""
    if n <= 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n and n > 0, got k={k}, n={n}")
    p, z2 = k / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (0.0 if k == 0 else centre - half), (1.0 if k == n else centre + half)  # exact ends, no rounding dust


@dataclass(frozen=True)
class Folder:
    """What pooling reads from one results folder."""

    path: Path
    runs: tuple[RunResult, ...]
    definition: str                       # name and digest: two folders pool only when both match
    model: str
    variants: dict[str, dict[str, Any]]   # each variant's effective settings
    updated: str
    commit: str | None


def read_folder(path: str | os.PathLike[str]) -> Folder | None:
    """The folder's runs and settings, or None when it holds no recorded run (a student who never ran)."""
    path = Path(path)
    runs, summary = tuple(read_results(path)), read_summary(path)
    if not runs or not summary:
        return None
    meant = summary.get("definition")
    if meant is None:  # written before definitions existed: the unit experiment, settings from the summary
        shipped, settings = load(summary.get("experiment", "unit")), summary.get("settings", {})
        meant = {"name": shipped.name, "digest": shipped.digest,
                 "variants": {v.name: v.described(settings.get("temperature"), settings.get("max_steps", 6))
                              for v in shipped.variants}}
    return Folder(path, runs, f"{meant['name']!r} (digest {meant['digest']})",
                  redact(str(summary.get("model") or runs[0].model)), meant["variants"],
                  str(summary.get("updated", ""))[:10],
                  summary.get("commit") or git(path, "log", "-1", "--format=%h", "--", "."))  # the shipped ones


@dataclass(frozen=True)
class Group:
    """Every recorded run of one model on one variant, pooled over folders."""

    model: str
    variant: str
    settings: dict[str, Any]
    counts: dict[str, int]
    shares: tuple[tuple[str, int], ...]   # (folder, runs it gave)
    dates: tuple[str, ...] = ()
    commits: tuple[str, ...] = ()

    @property
    def temperature(self) -> float | None:
        return self.settings.get("temperature")

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
    definition: str = ""

    def rows(self) -> list[dict[str, Any]]:
        """One row per group and outcome: runs, share and its interval, and how many folders gave them."""
        out = []
        for g in self.groups:
            for outcome in OUTCOMES:
                k, p, low, high = g.share(outcome)
                out.append({"model": g.model, "temperature": g.temperature, "variant": g.variant,
                            "outcome": outcome, "runs": k, "of": g.runs, "share": round(p, 3),
                            "low": round(low, 3), "high": round(high, 3), "folders": len(g.shares)})
        return out

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(self.rows()[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows())
        return redact(out.getvalue())

    def table(self) -> str:
        """Counts per group and outcome, each with its interval in percent, and any notes."""
        heads = ["model: variant", "runs", *OUTCOMES]
        body = [[g.label, g.runs, *(_cell(*g.share(o)) for o in OUTCOMES)] for g in self.groups]
        return "\n".join([f"runs per outcome [{INTERVAL}, %]", aligned(heads, body), *self.notes])

    def folder_shares(self) -> str:
        """Each folder's share of each pooled row (who gave how many runs)."""
        return "\n".join(f"{g.label}: " + ", ".join(f"{Path(f).name} {n}" for f, n in g.shares)
                         for g in self.groups)

    def figure(self, title: str | None = None):
        return plot_comparison(self, title=title)

    def save(self, path: str | os.PathLike[str], title: str | None = None) -> Path:
        path = Path(path)
        self.figure(title).savefig(path, dpi=110)
        return path


def _cell(k: int, p: float, low: float, high: float) -> str:
    return f"{k} [{100 * low:.0f}-{100 * high:.0f}]"


def _check_pool(folders: Sequence[Folder]) -> None:
    """Refuse, in one sentence, what must not be pooled."""
    first = folders[0]
    seen: dict[tuple[str, str, int], Path] = {}
    for f in folders:
        if f.definition != first.definition:
            raise ValueError(f"cannot pool {first.path} and {f.path}: they ran different definitions "
                             f"({first.definition} and {f.definition}); compare one definition at a time")
        same = next((o for o in folders if o.model == f.model), f)
        for variant, settings in f.variants.items():
            other = same.variants.get(variant, settings)
            differs = [k for k in settings if settings[k] != other.get(k)]
            if differs:
                k = differs[0]
                raise ValueError(f"cannot pool {same.path} and {f.path} under {f.model}: variant {variant!r} ran "
                                 f"with {k} {other.get(k)!r} in one and {settings[k]!r} in the other")
        for r in f.runs:
            key = (f.model, r.variant, r.seed)
            if key in seen:
                raise ValueError(f"cannot pool {seen[key]} and {f.path}: both hold {f.model} variant {r.variant!r} "
                                 f"with seed {r.seed}, the same run twice; give each folder its own seeds "
                                 "(leave --seed out and one is drawn)")
            seen[key] = f.path


def _greedy_notes(groups: Iterable[tuple[Group, list[RunResult]]]) -> list[str]:
    notes = []
    for g, runs in groups:
        if g.temperature == 0 and not any(r.script for r in runs):
            told = Counter((r.outcome, r.line, r.why, r.answer) for r in runs)
            repeated = sum(n - 1 for n in told.values() if n > 1)
            if repeated:
                notes.append(f"warning: {g.label}: {repeated} of {len(runs)} runs at temperature 0 repeat another "
                             "run's outcome and answer; greedy runs repeat each other, so the interval overstates "
                             "what was measured")
    return notes


def compare(folders: Iterable[str | os.PathLike[str]]) -> Comparison:
    """Pool result folders (each written by ``run_experiment``) into one comparison."""
    paths = [Path(f) for f in folders]
    if not paths:
        raise ValueError("compare needs at least one result folder")
    notes, kept = [], []
    for p in paths:  # one student's broken folder must not sink the class's table
        try:
            folder = read_folder(p)
        except ValueError as e:
            notes.append(f"warning: skipped {p}: {e}")
            continue
        if folder is None:
            notes.append(f"warning: skipped {p}: no recorded runs (a run that never started, or not a results folder)")
        else:
            kept.append(folder)
    if not kept:
        raise ValueError(f"no recorded runs in {', '.join(map(str, paths))}: run the experiment into them first")
    _check_pool(kept)
    order = list(dict.fromkeys(v for f in kept for v in f.variants))
    pooled: dict[tuple[str, str], list[tuple[Folder, RunResult]]] = {}
    for f in kept:
        for r in f.runs:
            pooled.setdefault((f.model, r.variant), []).append((f, r))
    groups = []
    for (model, variant), items in sorted(pooled.items(), key=lambda kv: (kv[0][0], order.index(kv[0][1]))):
        counts = Counter(dict.fromkeys(OUTCOMES, 0)) + Counter(r.outcome for _, r in items)
        shares = Counter(str(f.path) for f, _ in items)
        groups.append((Group(model, variant, items[0][0].variants.get(variant, {}),
                             {o: counts[o] for o in OUTCOMES}, tuple(shares.items()),
                             tuple(sorted({f.updated for f, _ in items})),
                             tuple(sorted({f.commit for f, _ in items if f.commit}))), [r for _, r in items]))
    notes += _greedy_notes(groups)
    return Comparison(tuple(g for g, _ in groups), tuple(notes), kept[0].definition)


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


def models_table(comparison: Comparison) -> str:
    """The "tested models" table of docs/models.md: model, variant, right rate with its interval, runs, date, commit."""
    lines = [f"Definition {comparison.definition}; right = every city's Fahrenheit within 1 degree, classified by "
             f"the first wrong line; [{INTERVAL}].", "",
             "| model | variant | right | runs | date | commit |", "|---|---|---|---|---|---|"]
    for g in comparison.groups:
        k, p, low, high = g.share("right")
        lines.append(f"| {g.model} | {g.variant} | {k}/{g.runs} = {100 * p:.0f}% [{100 * low:.0f}-{100 * high:.0f}%] "
                     f"| {g.runs} | {', '.join(g.dates)} | {', '.join(g.commits) or 'unknown'} |")
    return "\n".join(lines) + "\n"


def reported_table() -> str:
    """The source article's figures, quoted as theirs (never pooled with recorded runs)."""
    body = [[f'"{r.variant}"', r.runs, f"{r.right_numbers} / {r.runs}", f"{r.celsius_as_fahrenheit} / {r.runs}"]
            for r in REPORTED]
    table = aligned(["get_weather returns", "runs", "right numbers", "said °C as °F"], body)
    return f"{REPORTED_SOURCE}\n{table}\n{REPORTED_NOTES}"
