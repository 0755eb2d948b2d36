"""One experiment's folder on disk: written so that a run is recorded whole or not at all.

Layout (one folder per model and settings)::

    results.csv        one row per recorded run (its classification, seed, temperature, trace file)
    summary.json       model, settings, package version, dates, counts per variant
    traces/bare-03.jsonl   the trace of run 3 of the "18" variant (one run per file)
    outcomes.png       the figure

Every file is written to a ``.partial`` name and moved into place with ``os.replace``, which is atomic
on one file system: a Ctrl-C or a killed process leaves either the old file or the new one, never half.
A run's trace is moved into place before its row is written, and the row is what marks it recorded, so
a run cut short is simply run again on resume. Leftover ``.partial`` files and traces with no row are
removed when a folder is opened.
"""

from __future__ import annotations

import csv
import io
import json
import os
import threading
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

RESULTS, SUMMARY, TRACES, FIGURE = "results.csv", "summary.json", "traces", "outcomes.png"
PARTIAL = ".partial"


@dataclass(frozen=True)
class RunResult:
    """One recorded run: which (variant, index), its seed and temperature, and how it was classified."""

    variant: str
    index: int
    seed: int
    temperature: float | None
    outcome: str
    case: int | None
    line: int | None
    why: str
    answer: str | None
    celsius_as_fahrenheit: bool
    converted_with_tool: bool
    model: str        # who answered, as the model named itself in the trace
    script: str       # the modelled behaviour for a scripted run, "" for a real model
    trace: str        # the trace file, relative to the folder
    run_id: str
    seconds: float

    @property
    def key(self) -> tuple[str, int]:
        return (self.variant, self.index)


_TYPES = {"index": int, "seed": int, "temperature": float, "case": int, "line": int, "seconds": float,
          "celsius_as_fahrenheit": lambda s: s == "True", "converted_with_tool": lambda s: s == "True"}


def _from_row(row: Mapping[str, str]) -> RunResult:
    values: dict[str, Any] = {}
    for f in fields(RunResult):
        text = row.get(f.name, "")
        convert = _TYPES.get(f.name)
        if convert is None:
            values[f.name] = text if (text or f.name not in ("answer",)) else None
        else:
            values[f.name] = convert(text) if text != "" else None
    return RunResult(**values)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole: to a temporary name, flushed to disk, then renamed over it."""
    temp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}{PARTIAL}")
    with temp.open("w", encoding="utf-8", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)


def read_results(folder: str | os.PathLike[str]) -> list[RunResult]:
    """The runs recorded in ``folder`` (none if it has no ``results.csv`` yet)."""
    path = Path(folder) / RESULTS
    if not path.is_file():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        return [_from_row(row) for row in csv.DictReader(handle)]


def read_summary(folder: str | os.PathLike[str]) -> dict[str, Any]:
    path = Path(folder) / SUMMARY
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def results_csv(runs: Iterable[RunResult]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[f.name for f in fields(RunResult)], lineterminator="\n")
    writer.writeheader()
    writer.writerows(asdict(r) for r in runs)
    return out.getvalue()


def trace_name(slug: str, index: int) -> str:
    return f"{TRACES}/{slug}-{index:02d}.jsonl"


def tidy(folder: Path, recorded: Iterable[RunResult]) -> int:
    """Remove what an interrupted command left behind: partial files, traces of unrecorded runs."""
    keep = {folder / r.trace for r in recorded}
    removed = 0
    for path in [*folder.glob(f"*{PARTIAL}"), *(folder / TRACES).glob("*")]:
        if path.is_file() and (path.name.endswith(PARTIAL) or path not in keep):
            path.unlink()
            removed += 1
    return removed


def summary_json(summary: Mapping[str, Any]) -> str:
    return json.dumps(summary, indent=2, ensure_ascii=False) + "\n"
