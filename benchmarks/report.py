"""What a benchmark hands back (a ``Section``), and how sections become a console table and results.md."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("mingraph-lite", "pydantic", "langgraph", "langgraph-prebuilt", "langchain-core", "nbclient",
            "ipykernel")
LANGGRAPH_MISSING = ("LangGraph is not installed (pip install 'mingraph-lite[langgraph]'); "
                     "its rows are skipped")


@dataclass(frozen=True)
class Target:
    """One promise of the issue, checked against a measured figure. ``met=None``: could not be measured."""

    promise: str
    measured: str
    met: bool | None

    @property
    def verdict(self) -> str:
        return {True: "met", False: "MISSED", None: "not measured"}[self.met]


@dataclass(frozen=True)
class Section:
    """One benchmark's result: a table of formatted cells, the targets it checks, notes, and raw numbers."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    targets: tuple[Target, ...] = ()
    notes: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)  # the unformatted figures, for tests and reuse
    opt_in: bool = False  # run only when named with --only, never by `make bench`

    @property
    def command(self) -> str:
        return f".venv/bin/python -m benchmarks --only {self.key}"


def us(ns: float) -> str:
    return f"{ns / 1000:,.1f}"


def times(x: float) -> str:
    return f"{x:,.2f}x"


def _widths(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    return [max(len(str(r[i])) for r in [columns, *rows]) for i in range(len(columns))]


def console(section: Section) -> str:
    widths = _widths(section.columns, section.rows)
    line = "  ".join(c.ljust(w) for c, w in zip(section.columns, widths, strict=True))
    out = [f"== {section.title}", line, "-" * len(line)]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)) for row in section.rows]
    out += [f"target: {t.promise}: {t.measured} -> {t.verdict}" for t in section.targets]
    out += [f"note: {n}" for n in section.notes]
    return "\n".join(out)


def markdown(section: Section) -> str:
    how = "opt-in, not part of `make bench`" if section.opt_in else "also part of `make bench`"
    out = [f"## {section.title}", "", f"Command: `{section.command}` ({how})", ""]
    out.append("| " + " | ".join(section.columns) + " |")
    out.append("|" + "|".join("---" for _ in section.columns) + "|")
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in section.rows]
    if section.targets:
        out += ["", "| target | measured | verdict |", "|---|---|---|"]
        out += [f"| {t.promise} | {t.measured} | **{t.verdict}** |" for t in section.targets]
    if section.notes:
        out += [""] + [f"- {n}" for n in section.notes]
    return "\n".join(out) + "\n"


def _pkg(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True,
                               timeout=10).stdout.strip()
        if out.returncode != 0:
            return "?"
        return out.stdout.strip() + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "?"


def _environment() -> str:
    return "in a virtualenv" if sys.prefix != sys.base_prefix else "system interpreter"


def machine() -> list[tuple[str, str]]:
    return [
        ("date (UTC)", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M")),
        ("machine", f"{_cpu()}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}"),
        # Where the interpreter lives says nothing about speed and names one machine's folders.
        ("Python", f"{platform.python_implementation()} {platform.python_version()} ({_environment()})"),
        ("packages", ", ".join(f"{p} {_pkg(p)}" for p in PACKAGES)),
        ("commit", _commit()),
    ]


def load() -> str:
    """The 1-minute load average against the core count: above the cores, wall times include waiting."""
    try:
        return f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    except OSError:
        return "unknown"


def results_md(sections: Sequence[Section], argv: Sequence[str], elapsed_s: float,
               load_at_start: str = "") -> str:
    command = " ".join([".venv/bin/python -m benchmarks", *argv])
    written = f"`{command}`" if argv else f"`make bench` (`{command}`)"
    head = ["# Benchmarks: what the machinery costs", "",
            f"Written by {written}; do not edit by hand. Every figure is a median over repeated runs in one "
            "process, and every ratio compares figures measured in the same run, sampled in turns. Each section "
            "names the command that reproduces it alone.", ""]
    head += [f"- **{k}**: {v}" for k, v in machine()]
    head += [f"- **run**: `{' '.join(['python -m benchmarks', *argv])}`, {elapsed_s:.0f} s in all",
             f"- **machine load** (1-minute load average) at start: {load_at_start or '?'}, at end: {load()}; "
             "above the core count, wall times include waiting for a core, so compare the CPU columns too", ""]
    targets = [t for s in sections for t in s.targets]
    if targets:
        head += ["## Targets at a glance", "", "| target | measured | verdict |", "|---|---|---|"]
        head += [f"| {t.promise} | {t.measured} | **{t.verdict}** |" for t in targets]
        head.append("")
    return "\n".join(head) + "\n" + "\n".join(markdown(s) for s in sections)
