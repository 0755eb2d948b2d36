"""Measurement 3: what a trace line costs, alone and with four processes appending to one file.

Per announcement: the announcements of one real ``Agent`` run (the Paris/Tokyo question) are
captured once, then replayed into a ``TraceRecorder`` many times; the figure is time per
announcement, the mix of event kinds being the real one. ``EventRecorder`` (the same event dicts,
kept in memory) is timed beside it, to show what the file costs on top.

Four processes: each replays the run into its own ``TraceRecorder`` on one shared file. The clock
starts when all four are ready (a barrier) and stops when the last one finishes; then the file is
read back and every line must parse, every process's sequence numbers must all be there, and the
line count must be exactly what was written.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from mingraph_lite import Agent, EventRecorder, Observer, ScriptedLLM, TraceRecorder
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.observers.base import HOOKS

from .agent_loop import SCRIPT
from .report import Section, Target, us
from .timing import Plan, compare

PROCESSES = 4


class _Capture(Observer):
    def __init__(self) -> None:
        self.heard: list[tuple[str, tuple]] = []

    def __getattribute__(self, name: str) -> Any:
        if name in HOOKS:
            return lambda *args: object.__getattribute__(self, "heard").append((name, args))
        return object.__getattribute__(self, name)


def announcements() -> list[tuple[str, tuple]]:
    """(hook, args) of every announcement of one scripted Agent run."""
    capture = _Capture()
    agent = Agent(ScriptedLLM(SCRIPT), weather_registry(), SYSTEM_PROMPT, observers=(capture,))
    agent.run({"question": QUESTION})
    return capture.heard


def replay(listener: Any, heard: list[tuple[str, tuple]]) -> None:
    for hook, args in heard:
        getattr(listener, hook)(*args)


def _syscalls_only(path: Path, lines: list[bytes]) -> None:
    """What ``TraceRecorder.record`` does to the file, and nothing else: open, one write, close."""
    for data in lines:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


def _writer(path: str, runs: int, barrier: Any, out: Any) -> None:
    heard = announcements()
    recorder = TraceRecorder(path)
    barrier.wait()
    started = time.perf_counter_ns()  # CLOCK_MONOTONIC on Linux: comparable across processes
    for _ in range(runs):
        replay(recorder, heard)
    out.put((started, time.perf_counter_ns(), runs * len(heard)))


def shared_file(runs_per_process: int, processes: int = PROCESSES,
                start_method: str = "spawn") -> dict[str, Any]:
    """Lines per second with ``processes`` writers on one file, and the checks of what landed.

    ``spawn`` (the default) gives each writer a clean interpreter, as separate programs would have;
    the smoke test uses ``fork`` only to skip re-importing the package four times.
    """
    ctx = mp.get_context(start_method)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "shared.jsonl")
        barrier, out = ctx.Barrier(processes), ctx.Queue()
        workers = [ctx.Process(target=_writer, args=(path, runs_per_process, barrier, out))
                   for _ in range(processes)]
        for w in workers:
            w.start()
        reports = [out.get(timeout=300) for _ in workers]
        for w in workers:
            w.join(timeout=60)
            if w.exitcode != 0:
                raise RuntimeError(f"a trace writer exited with {w.exitcode}")
        written = sum(r[2] for r in reports)
        lines = Path(path).read_bytes().split(b"\n")
        if lines[-1] != b"":
            raise AssertionError("the shared trace does not end with a newline: a line was torn")
        events = [json.loads(line) for line in lines[:-1]]  # raises on any interleaved (torn) line
        per_run: Counter[str] = Counter(e["run_id"] for e in events)
        seqs: dict[str, list[int]] = {}
        for e in events:
            seqs.setdefault(e["run_id"], []).append(e["seq"])
    wall = max(r[1] for r in reports) - min(r[0] for r in reports)
    # run ids are new per run, but seq counts per recorder, so each writer's seqs across its runs are 1..N
    all_seqs = sorted(s for v in seqs.values() for s in v)
    expected = sorted(list(range(1, runs_per_process * len(announcements()) + 1)) * processes)
    return {"written": written, "lines": len(events), "runs": len(per_run), "seqs_ok": all_seqs == expected,
            "wall_ns": wall, "lines_per_s": len(events) / (wall / 1e9)}


def run(plan: Plan | None = None, *, runs_per_process: int = 150, start_method: str = "spawn") -> Section:
    plan = plan or Plan()
    heard = announcements()
    kinds = Counter(h.removeprefix("on_") for h, _ in heard)
    with tempfile.TemporaryDirectory() as tmp:
        trace = TraceRecorder(Path(tmp) / "one.jsonl")
        replay(trace, heard)
        lines = [line + b"\n" for line in trace.path.read_bytes().split(b"\n")[:-1]]
        raw = Path(tmp) / "raw.jsonl"
        timings = compare({"trace": lambda: replay(trace, heard),
                           "events": lambda: replay(EventRecorder(), heard),
                           "syscalls": lambda: _syscalls_only(raw, lines)}, plan)
    per = {k: t.median_ns / len(heard) for k, t in timings.items()}
    shared = shared_file(runs_per_process, start_method=start_method)
    rows = (("TraceRecorder, one process", f"{us(per['trace'])} us per announcement", ""),
            ("of which open + write + close of the line", f"{us(per['syscalls'])} us per announcement",
             f"{per['syscalls'] / per['trace']:.0%} of the line's cost"),
            ("EventRecorder (in memory), for scale", f"{us(per['events'])} us per announcement", ""),
            (f"TraceRecorder, {PROCESSES} processes, one file",
             f"{shared['lines_per_s']:,.0f} lines per second",
             f"{shared['lines']:,} lines read back of {shared['written']:,} written; "
             f"sequence numbers complete: {'yes' if shared['seqs_ok'] else 'NO'}"))
    ok = shared["lines"] == shared["written"] and shared["seqs_ok"]
    notes = (f"one run announces {len(heard)} times: " + ", ".join(f"{k} x{v}" for k, v in kinds.items()),
             "each line is opened, written in one os.write and closed, so a crash keeps every line before "
             "it; the rest of a line's cost is building the event dict and encoding it as JSON")
    return Section("trace", "3. Trace cost", ("what", "figure", "checked"), rows,
                   (Target("four processes appending to one file lose and tear no line",
                           f"{shared['lines']:,} of {shared['written']:,}", ok),), notes,
                   {"per_announcement_ns": per, "shared": shared})
