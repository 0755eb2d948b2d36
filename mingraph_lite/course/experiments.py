"""The unit experiment: does the model need the unit *in* get_weather's result?

``run_experiment`` runs ``runs`` traced runs per variant (``"18"`` or ``"18°C"``), run ``index`` with seed
``seed + index`` whatever ``workers``; each is classified by its first wrong line and recorded as soon as
it ends, so running the same call again resumes. ``python -m mingraph_lite experiment unit`` is the same.
"""

from __future__ import annotations

import os
import platform
import sys
import threading
import time
import warnings
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..agents import Agent
from ..errors import LLMUnavailable
from ..observers.trace import TraceRecorder, read_trace
from ..redaction import redact
from . import results_folder as rf
from .classify import OUTCOMES, classify
from .modelled import MODELLED_LABEL
from .results_folder import RunResult
from .sampling import ModelSource, model_source
from .scripts import QUESTION, SYSTEM_PROMPT
from .weather import weather_registry


@dataclass(frozen=True)
class Variant:
    name: str             # what get_weather("Paris") returns, as a label: "18" or "18°C"
    unit_in_result: bool
    slug: str             # for file names


VARIANTS = (Variant("18", False, "bare"), Variant("18°C", True, "unit"))
EXPERIMENTS = {"unit": VARIANTS}


class GreedyWarning(UserWarning):
    """Temperature 0 with a real model: every run with the same folder gives the same reply."""


@dataclass(frozen=True)
class Settings:
    """What makes two folders' runs comparable; a folder resumes only with the same settings."""

    experiment: str
    model: str
    seed: int
    temperature: float | None
    max_steps: int

    def check(self, folder: Path, previous: dict[str, Any]) -> None:
        old = previous.get("settings") or {}
        for key, value in asdict(self).items():
            if key in old and old[key] != value:
                raise ValueError(f"{folder} holds runs with {key}={old[key]!r}, not {value!r}: resume with "
                                 "the same settings, or pass another --out folder")


@dataclass(frozen=True)
class ExperimentResults:
    runs: tuple[RunResult, ...]
    source: str
    folder: Path | None = None

    def variants(self) -> list[str]:
        return list(dict.fromkeys(r.variant for r in self.runs))

    def counts(self) -> dict[str, Counter]:
        """``{variant: Counter(outcome -> runs)}``, every outcome present (zeros included)."""
        out = {}
        for v in self.variants():
            out[v] = Counter(dict.fromkeys(OUTCOMES, 0))
            out[v].update(r.outcome for r in self.runs if r.variant == v)
        return out

    def rows(self) -> list[dict[str, Any]]:
        """One dict per run (what ``mingraph_lite.plots.plot_experiment`` and the CSV take)."""
        return [asdict(r) for r in self.runs]

    def table(self) -> str:
        """Counts per variant at a glance, under a line saying where the runs came from."""
        heads = ["get_weather returns", "runs", *OUTCOMES, "said °C as °F", "used to_fahrenheit"]
        body = []
        for v, counts in self.counts().items():
            mine = [r for r in self.runs if r.variant == v]
            body.append([f'"{v}"', len(mine), *(counts[o] for o in OUTCOMES),
                         sum(r.celsius_as_fahrenheit for r in mine), sum(r.converted_with_tool for r in mine)])
        return redact(f"source: {self.source}\n" + aligned(heads, body))


def aligned(heads: Sequence[str], body: Sequence[Sequence[Any]]) -> str:
    """A plain-text table: first column left-aligned, the others right-aligned."""
    widths = [max(len(str(x)) for x in col) for col in zip(heads, *body, strict=True)]
    return "\n".join("  ".join(str(x).ljust(w) if i == 0 else str(x).rjust(w)
                               for i, (x, w) in enumerate(zip(line, widths, strict=True)))
                     for line in [heads, *body])


def plan(variants: Sequence[Variant], runs: int, seed: int) -> list[tuple[Variant, int, int]]:
    """Every run as (variant, index, seed), index by index so a cut-short experiment stays balanced."""
    return [(v, index, seed + index) for index in range(runs) for v in variants]


def _one_run(source: ModelSource, variant: Variant, index: int, seed: int, folder: Path,
             max_steps: int) -> RunResult:
    """Run, trace and classify one run; its trace moves into place only once the run has ended."""
    final = rf.trace_name(variant.slug, index)
    partial = folder / f"{final}.{os.getpid()}.{threading.get_ident()}{rf.PARTIAL}"
    llm, script = source.build(variant.name, seed)
    recorder = TraceRecorder(partial)
    agent = Agent(llm, weather_registry(variant.unit_in_result), SYSTEM_PROMPT, observers=[recorder],
                  max_steps=max_steps)
    started = time.perf_counter()
    try:
        agent.run({"question": QUESTION})
    except LLMUnavailable:
        raise  # no server, key or weights: every further run would fail the same way
    except Exception:  # a step limit or a failing tool; the trace says which
        pass
    seconds = round(time.perf_counter() - started, 3)
    events = read_trace(partial)
    os.replace(partial, folder / final)
    verdict = classify(events)
    finish = [e for e in events if e.get("event") == "finish"]
    answered = [e.get("model") for e in events if e.get("event") == "model_reply"]
    return RunResult(variant.name, index, seed, source.temperature, verdict.outcome, verdict.case,
                     verdict.line, verdict.why, finish[-1].get("answer") if finish else None,
                     verdict.celsius_as_fahrenheit, verdict.converted_with_tool,
                     str(answered[-1] if answered else "?"), script, final, recorder.run_id, seconds)


class _Record:
    """The folder's CSV and summary, rewritten whole (atomically) after every run, under one lock."""

    def __init__(self, folder: Path, settings: Settings, source: ModelSource, planned: int, workers: int,
                 threads: int | None = None):
        self.folder, self.settings, self.source = folder, settings, source
        self.lock = threading.Lock()
        previous = rf.read_summary(folder)
        settings.check(folder, previous)
        self.runs = {r.key: r for r in rf.read_results(folder)}
        rf.tidy(folder, self.runs.values())
        self.summary = {"started": previous.get("started") or _now(), "commands": previous.get("commands", [])}
        self.command = {"started": _now(), "workers": workers, "threads": threads, "runs_done": 0,
                        "wall_seconds": 0.0}
        self.summary["commands"] = [*self.summary["commands"], self.command]
        self.planned, self.clock = planned, time.perf_counter()

    def add(self, result: RunResult | None = None) -> None:
        with self.lock:
            if result is not None:
                self.runs[result.key] = result
                self.command["runs_done"] += 1
                rf.write_atomically(self.folder / rf.RESULTS, rf.results_csv(self.ordered()))
            self.command["wall_seconds"] = round(time.perf_counter() - self.clock, 1)
            rf.write_atomically(self.folder / rf.SUMMARY, rf.summary_json(self._summary()))

    def ordered(self) -> list[RunResult]:
        order = {v.name: i for i, v in enumerate(EXPERIMENTS[self.settings.experiment])}
        return sorted(self.runs.values(), key=lambda r: (order.get(r.variant, 99), r.index))

    def _summary(self) -> dict[str, Any]:
        results = ExperimentResults(tuple(self.ordered()), self.label())
        return {"experiment": self.settings.experiment, "model": self.settings.model, "live": self.source.live,
                "source": self.label(), "settings": asdict(self.settings), "how_settings_apply": self.source.note,
                "runs_per_variant": self.planned, "runs_recorded": len(self.runs),
                "complete": len(self.runs) >= self.planned * len(EXPERIMENTS[self.settings.experiment]),
                "counts": {v: dict(c) for v, c in results.counts().items()},
                "run_seconds_total": round(sum(r.seconds for r in self.runs.values()), 1),
                "package_version": _version(), "python": platform.python_version(),
                "started": self.summary["started"], "updated": _now(), "commands": self.summary["commands"]}

    def label(self) -> str:
        s = self.settings
        if not self.source.live:
            return f"{MODELLED_LABEL} (seeds from {s.seed}, {self.planned} runs per variant)"
        temp = "temperature unknown" if s.temperature is None else f"temperature {s.temperature:g}"
        return f"live model {s.model}, {temp}, seeds from {s.seed}, {self.planned} runs per variant"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _version() -> str:
    from .. import __version__

    return __version__


def _check_options(experiment: str, runs: int, workers: int, temperature: float, max_steps: int,
                   threads: int | None) -> None:
    if experiment not in EXPERIMENTS:
        raise ValueError(f"unknown experiment {experiment!r}: use one of {', '.join(EXPERIMENTS)}")
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise ValueError(f"runs is the number of runs per variant and must be a whole number >= 1, got {runs!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers is how many runs go at once and must be a whole number >= 1, got {workers!r}")
    if not 0 <= temperature <= 2:
        raise ValueError(f"temperature must be between 0 (greedy) and 2, got {temperature!r}")
    if max_steps < 1:
        raise ValueError(f"max_steps counts model calls and must be at least 1, got {max_steps!r}")
    if threads is not None and threads < 1:
        raise ValueError(f"threads is a number of CPU threads and must be at least 1, got {threads!r}")


def _warn(source: ModelSource, temperature: float, workers: int) -> int:
    """Say what the settings will do; return the workers actually used."""
    if source.live and source.note and not (workers > 1 and not source.parallel):
        warnings.warn(source.note, UserWarning, stacklevel=3)  # e.g. the local model: one run at a time
    if source.live and source.temperature == 0 and temperature == 0:
        warnings.warn("temperature 0 is greedy decoding: runs that see the same folder will repeat each "
                      "other; pass a temperature such as 0.7 to sample", GreedyWarning, stacklevel=3)
    if workers > 1 and not source.parallel:
        warnings.warn(f"{source.name} runs one run at a time, so workers={workers} is not used",
                      UserWarning, stacklevel=3)
        return 1
    return workers


class _Lines:
    """Progress without tqdm (a bare install): one plain line per finished run."""

    def __init__(self, total: int, done: int, name: str) -> None:
        self.total, self.done, self.name, self.last = total, done, name, ""

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.last = text

    def update(self) -> None:
        self.done += 1
        print(f"{self.name} experiment: {self.done}/{self.total} runs; {self.last}", file=sys.stderr, flush=True)

    def close(self) -> None:
        pass


def _bar(total: int, done: int, progress: bool, name: str):
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _Lines(total, done, name)
    return tqdm(total=total, initial=done, desc=f"{name} experiment", unit="run", file=sys.stderr)


def _execute(todo, record: _Record, source: ModelSource, workers: int, max_steps: int, bar) -> None:
    """Run ``todo`` K at a time; each run is recorded the moment it ends, in whatever order."""
    def finished(result: RunResult) -> None:
        record.add(result)
        if bar is not None:
            bar.set_postfix_str(f'"{result.variant}" #{result.index}: {result.outcome}', refresh=False)
            bar.update()

    if workers == 1:  # in this thread, so Ctrl-C stops the run at once
        for variant, index, seed in todo:
            finished(_one_run(source, variant, index, seed, record.folder, max_steps))
        return
    pool = ThreadPoolExecutor(max_workers=workers)
    pending = {pool.submit(_one_run, source, v, i, s, record.folder, max_steps) for v, i, s in todo}
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: f.exception() is not None):  # record before raising
                finished(future.result())
    finally:  # on Ctrl-C or a dead server: start nothing new; the runs already going end and are recorded
        pool.shutdown(wait=True, cancel_futures=True)
        for future in pending:
            if not future.cancelled() and future.exception() is None:
                finished(future.result())


def run_experiment(llm: Any = None, *, out: str | os.PathLike[str], experiment: str = "unit", runs: int = 8,
                   seed: int = 0, temperature: float = 0.7, workers: int = 1, max_steps: int = 6,
                   threads: int | None = None, progress: bool = True) -> ExperimentResults:
    """``runs`` traced runs per variant into the folder ``out``, skipping runs it already holds.

    ``llm``: a spec (``"local:gemma3-270m"``, ``"ollama:qwen3:0.6b"``, ``"openai:gpt-5-mini"``), a model
    object, or ``None``/``"scripted"`` for scripted managers modelling the reported behaviour (labelled
    so). ``workers`` runs that many at once against a server model; ``threads`` caps a local model's CPU
    threads (1 is fastest on a busy machine). ``progress`` shows a tqdm bar (plain lines without tqdm).
    """
    _check_options(experiment, runs, workers, temperature, max_steps, threads)
    source = model_source(llm, temperature, threads)
    workers = _warn(source, temperature, workers)
    folder = Path(out)
    (folder / rf.TRACES).mkdir(parents=True, exist_ok=True)
    settings = Settings(experiment, source.name, seed, source.temperature, max_steps)
    everything = plan(EXPERIMENTS[experiment], runs, seed)
    with rf.locked(folder):  # one command at a time: a second one would remove this one's unfinished traces
        record = _Record(folder, settings, source, runs, workers, threads)
        todo = [job for job in everything if (job[0].name, job[1]) not in record.runs]
        bar = _bar(len(everything), len(everything) - len(todo), progress, experiment)
        try:
            _execute(todo, record, source, workers, max_steps, bar)
        finally:
            record.add()  # the summary says how far this command got, even when it was interrupted
            if bar is not None:
                bar.close()
    wanted = {(v.name, i) for v, i, _ in everything}
    mine = tuple(r for r in record.ordered() if r.key in wanted)
    return ExperimentResults(mine, record.label(), folder)
