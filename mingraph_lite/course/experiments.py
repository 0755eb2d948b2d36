"""Run an experiment definition: ``runs`` traced runs per variant of the weather task, into one folder.

Run ``index`` of each variant uses seed ``seed + index`` whatever ``workers`` (no seed given: one is drawn,
recorded and reused on resume). Each run is classified by its first wrong line and recorded as soon as it
ends, so running the same call again resumes. ``python -m mingraph_lite experiment run`` is the same.
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import threading
import time
import warnings
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..agents import Agent
from ..errors import LLMUnavailable
from ..memory import KeepAll, LastN
from ..observers.trace import TraceRecorder, read_trace
from ..redaction import redact
from . import results_folder as rf
from .classify import OUTCOMES, classify
from .definition import Definition, Variant, load
from .modelled import MODELLED_LABEL
from .results_folder import RunResult
from .sampling import ModelSource, model_source


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
    definition: str = ""   # the definition's digest: any change to any variant changes it

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

    def counts(self) -> dict[str, dict[str, int]]:
        """``{variant: {outcome: runs}}``, every outcome present (zeros included)."""
        out: dict[str, dict[str, int]] = {}
        for r in self.runs:
            out.setdefault(r.variant, dict.fromkeys(OUTCOMES, 0))[r.outcome] += 1
        return out

    def table(self) -> str:
        """Counts per variant at a glance, under a line saying where the runs came from."""
        heads = ["variant", "runs", *OUTCOMES, "said °C as °F", "used to_fahrenheit"]
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


class _Trace(TraceRecorder):
    """A trace whose run_start marks the worked example's messages as such (never the learner's question)."""

    def __init__(self, path: Path, variant: Variant) -> None:
        super().__init__(path)
        self.variant, self.example = variant, [m.to_dict() for m in variant.messages]

    def _event(self, hook: str, *args: Any) -> dict[str, Any]:
        event = super()._event(hook, *args)
        if event.get("event") == "run_start":
            event["variant"] = self.variant.name
            for message in event.get("messages", []):
                if message in self.example:
                    message["example"] = self.variant.examples
        return event


def _one_run(source: ModelSource, definition: Definition, variant: Variant, index: int, seed: int, folder: Path,
             temperature: float, max_steps: int) -> RunResult:
    """Run, trace and classify one run; its trace moves into place only once the run has ended."""
    final = rf.trace_name(variant.slug, index)
    partial = folder / f"{final}.{os.getpid()}.{threading.get_ident()}{rf.PARTIAL}"
    llm, script = source.build(variant, seed, variant.temperature)
    recorder = _Trace(partial, variant)
    memory = LastN(variant.system_prompt, variant.last_n) if variant.last_n else KeepAll(variant.system_prompt)
    for message in variant.messages:  # the worked example, before the question
        memory.add(message)
    effective = variant.described(source.temperature, max_steps)
    agent = Agent(llm, variant.registry(), variant.system_prompt, memory=memory, observers=[recorder],
                  max_steps=effective["max_steps"])
    started = time.perf_counter()
    try:
        agent.run({"question": definition.question})
    except LLMUnavailable:  # no server, key or weights: every further run would fail the same way
        partial.unlink(missing_ok=True)  # this run is not recorded: a resume runs it again
        raise
    except Exception:  # a step limit or a failing tool; the trace says which
        pass
    seconds = round(time.perf_counter() - started, 3)
    events = read_trace(partial)
    os.replace(partial, folder / final)
    verdict = classify(events)
    finish = [e for e in events if e.get("event") == "finish"]
    answered = [e.get("model") for e in events if e.get("event") == "model_reply"]
    settings = {k: effective[k] for k in ("results", "temperature", "max_steps", "last_n", "turn_format")}
    return RunResult(variant.name, index, seed, effective["temperature"], verdict.outcome, verdict.case,
                     verdict.line, verdict.why, finish[-1].get("answer") if finish else None,
                     verdict.celsius_as_fahrenheit, verdict.converted_with_tool,
                     str(answered[-1] if answered else "?"), script, final, recorder.run_id, seconds,
                     variant.system_prompt, variant.examples, json.dumps(settings, ensure_ascii=False))


class _Record:
    """The folder's CSV and summary, rewritten whole (atomically) after every run, under one lock."""

    def __init__(self, folder: Path, settings: Settings, definition: Definition, source: ModelSource, planned: int,
                 workers: int, threads: int | None = None):
        self.folder, self.settings, self.source, self.definition = folder, settings, source, definition
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
        self.made_by = {"package_version": __version__, "python": platform.python_version(),
                        "commit": rf.git(Path(__file__).parent, "rev-parse", "--short", "HEAD")}

    def add(self, result: RunResult | None = None) -> None:
        with self.lock:
            if result is not None:
                self.runs[result.key] = result
                self.command["runs_done"] += 1
                rf.write_atomically(self.folder / rf.RESULTS, rf.results_csv(self.ordered()))
            self.command["wall_seconds"] = round(time.perf_counter() - self.clock, 1)
            rf.write_atomically(self.folder / rf.SUMMARY, rf.summary_json(self._summary()))

    def ordered(self) -> list[RunResult]:
        order = {v.name: i for i, v in enumerate(self.definition.variants)}
        return sorted(self.runs.values(), key=lambda r: (order.get(r.variant, 99), r.index))

    def _summary(self) -> dict[str, Any]:
        results = ExperimentResults(tuple(self.ordered()), self.label())
        d, s = self.definition, self.settings
        return {"experiment": s.experiment, "model": s.model, "live": self.source.live,
                "source": self.label(), "settings": asdict(s), "how_settings_apply": self.source.note,
                "definition": {"name": d.name, "file": d.source, "digest": d.digest, "question": d.question,
                               "variants": {v.name: v.described(s.temperature, s.max_steps) for v in d.variants}},
                "runs_per_variant": self.planned, "runs_recorded": len(self.runs),
                "complete": len(self.runs) >= self.planned * len(d.variants),
                "counts": results.counts(),
                "run_seconds_total": round(sum(r.seconds for r in self.runs.values()), 1),
                **self.made_by, "started": self.summary["started"], "updated": _now(),
                "commands": self.summary["commands"]}

    def label(self) -> str:
        s = self.settings
        if not self.source.live:
            return f"{MODELLED_LABEL} ({s.experiment}, seeds from {s.seed}, {self.planned} runs per variant)"
        temp = "temperature unknown" if s.temperature is None else f"temperature {s.temperature:g}"
        return f"live model {s.model}, {s.experiment}, {temp}, seeds from {s.seed}, {self.planned} runs per variant"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _seed(seed: int | None, previous: dict[str, Any]) -> int:
    """The seed given, else the one the folder recorded, else a fresh one: students never repeat each other."""
    if seed is not None:
        return seed
    recorded = (previous.get("settings") or {}).get("seed")
    return recorded if isinstance(recorded, int) else random.SystemRandom().randrange(1_000_000) * 100


def _check_options(runs: int, workers: int, temperature: float, max_steps: int, threads: int | None) -> None:
    for name, value, what in (("runs", runs, "the number of runs per variant"), ("workers", workers, "how many "
                              "runs go at once"), ("max_steps", max_steps, "the ceiling on model calls"),
                              ("threads", 1 if threads is None else threads, "a number of CPU threads")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} is {what} and must be a whole number >= 1, got {value!r}")
    if not 0 <= temperature <= 2:
        raise ValueError(f"temperature must be between 0 (greedy) and 2, got {temperature!r}")


def _warn(source: ModelSource, temperature: float, workers: int) -> int:
    """Say what the settings will do; return the workers actually used."""
    if source.live and source.note and not (workers > 1 and not source.parallel):
        warnings.warn(source.note, UserWarning, stacklevel=3)  # e.g. the local model: one run at a time
    if source.live and source.temperature == 0 and temperature == 0:
        warnings.warn("temperature 0 is greedy decoding: runs that see the same messages will repeat each "
                      "other; pass a temperature such as 0.7 to sample", GreedyWarning, stacklevel=3)
    if workers > 1 and not source.parallel:
        warnings.warn(f"{source.name} runs one run at a time, so workers={workers} is not used",
                      UserWarning, stacklevel=3)
        return 1
    return workers


def _bar(total: int, done: int, progress: bool, name: str):
    """A tqdm bar; without tqdm (a bare install) a function printing one plain line per run."""
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        count = iter(range(done + 1, total + 1))
        return lambda text: print(f"{name} experiment: {next(count)}/{total} runs; {text}", file=sys.stderr)
    return tqdm(total=total, initial=done, desc=f"{name} experiment", unit="run", file=sys.stderr)


def _execute(todo, record: _Record, source: ModelSource, workers: int, temperature: float, max_steps: int,
             bar) -> None:
    """Run ``todo`` K at a time; each run is recorded the moment it ends, in whatever order."""
    def finished(result: RunResult) -> None:
        record.add(result)
        text = f'"{result.variant}" #{result.index}: {result.outcome}'
        if callable(bar):
            bar(text)
        elif bar is not None:
            bar.set_postfix_str(text, refresh=False)
            bar.update()

    common = (record.folder, temperature, max_steps)
    if workers == 1:  # in this thread, so Ctrl-C stops the run at once
        for variant, index, seed in todo:
            finished(_one_run(source, record.definition, variant, index, seed, *common))
        return
    pool = ThreadPoolExecutor(max_workers=workers)
    pending = {pool.submit(_one_run, source, record.definition, v, i, s, *common) for v, i, s in todo}
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


def run_experiment(llm: Any = None, *, out: str | os.PathLike[str], experiment: str | os.PathLike[str] = "unit",
                   runs: int = 8, seed: int | None = None, temperature: float = 0.7, workers: int = 1,
                   max_steps: int = 6, threads: int | None = None, progress: bool = True) -> ExperimentResults:
    """``runs`` traced runs per variant of ``experiment`` into the folder ``out``, skipping runs it holds.

    ``experiment``: a shipped definition's name (``unit``, ``worked-example``...) or a TOML file.
    ``llm``: a spec (``"local:gemma3-270m"``, ``"ollama:qwen3:0.6b"``, ``"openai:gpt-5-mini"``), a model
    object, or ``None``/``"scripted"`` for scripted managers modelling reported runs (labelled so).
    ``temperature`` and ``max_steps`` are defaults a variant's own setting overrides. ``workers`` runs that
    many at once against a server model; ``threads`` caps a local model's CPU threads. ``progress`` shows a
    tqdm bar (plain lines without tqdm). Every refusal comes before the first run.
    """
    definition = experiment if isinstance(experiment, Definition) else load(experiment)
    _check_options(runs, workers, temperature, max_steps, threads)
    source = model_source(llm, temperature, threads)
    for variant in definition.variants:
        if (why := source.refusal(variant)) is not None:
            raise ValueError(why)
    workers = _warn(source, temperature, workers)
    folder = Path(out)
    (folder / rf.TRACES).mkdir(parents=True, exist_ok=True)
    with rf.locked(folder):  # one command at a time: a second one would remove this one's unfinished traces
        seed = _seed(seed, rf.read_summary(folder))
        settings = Settings(definition.name, source.name, seed, source.temperature, max_steps, definition.digest)
        everything = plan(definition.variants, runs, seed)
        record = _Record(folder, settings, definition, source, runs, workers, threads)
        todo = [job for job in everything if (job[0].name, job[1]) not in record.runs]
        bar = _bar(len(everything), len(everything) - len(todo), progress, definition.name)
        try:
            _execute(todo, record, source, workers, temperature, max_steps, bar)
        finally:
            record.add()  # the summary says how far this command got, even when it was interrupted
            if bar is not None and not callable(bar):
                bar.close()
    wanted = {(v.name, i) for v, i, _ in everything}
    mine = tuple(r for r in record.ordered() if r.key in wanted)
    return ExperimentResults(mine, record.label(), folder)
