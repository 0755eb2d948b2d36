"""Measurement 7: a class on one shared server. ``python -m mingraph_lite serve --parallel N`` on loopback, and
thirty students at once, each a thread running the course's agent through the real ``openai`` client.

Bounded: each run stops at ``MAX_STEPS`` model calls, each call at the client's stated timeout, the whole
class at ``DEADLINE``; the server is stopped (Ctrl-C, then kill) however the run ends. Per call: wall time
from the student's side. The server's memory is the peak RSS of its process, sampled while the class runs.
A failure is a run that ended with an error other than the step limit (an unreachable or timed-out server).

    .venv/bin/python -m benchmarks --only class     # 30 students, --parallel 4, serve's default model and cap
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mingraph_lite.cli import SERVE_MAX_TOKENS, SERVE_MODEL

from .report import Section, Target

ROOT = Path(__file__).resolve().parents[1]
MODEL, STUDENTS, PARALLEL, MAX_STEPS, MAX_TOKENS = SERVE_MODEL, 30, 4, 3, SERVE_MAX_TOKENS
TIMEOUT, DEADLINE, START_WAIT = 120.0, 900.0, 120.0


@dataclass
class Tally:
    """What the students saw, filled by their threads."""

    seconds: list[float] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)  # each reply's output tokens: at the cap, a call was cut
    tool_replies: int = 0
    answered: int = 0
    step_limited: int = 0
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def rss_mib(pid: int) -> float:
    """Resident memory of a process: psutil when installed, else Linux's /proc."""
    if importlib.util.find_spec("psutil"):
        import psutil

        return psutil.Process(pid).memory_info().rss / 2**20
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(model: str, parallel: int, max_tokens: int) -> tuple[subprocess.Popen, str]:
    """``serve`` on a free loopback port; returns once it answers ``/v1/models``."""
    command = [sys.executable, "-m", "mingraph_lite", "serve", "--model", model, "--port", "0",
               "--parallel", str(parallel), "--max-tokens", str(max_tokens)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(START_WAIT)
    if not said or " at " not in said[0]:
        stop_server(proc)
        raise RuntimeError(f"serve did not start: {proc.stderr.read().strip() or 'no answer'}")
    base_url = said[0].split(" at ", 1)[1].split(" ", 1)[0]
    for _ in range(int(START_WAIT * 2)):
        try:
            urllib.request.urlopen(f"{base_url}/models", timeout=2)
            return proc, base_url
        except OSError:
            time.sleep(0.5)
    stop_server(proc)
    raise RuntimeError(f"serve said {base_url} but nothing answers there")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def student(seat: int, base_url: str, model: str, tally: Tally) -> None:
    """One laptop: the course's question, the real openai client, a seed of its own."""
    import openai

    from mingraph_lite.agents import Agent
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
    from mingraph_lite.course.weather import weather_registry
    from mingraph_lite.errors import StepLimitReached
    from mingraph_lite.llms.openai import OpenAILLM

    client = openai.OpenAI(api_key="class", base_url=base_url, max_retries=0)
    llm = OpenAILLM(model, client=client, temperature=0.7, seed=seat, timeout=TIMEOUT)
    llm.generate = _timed(llm.generate, tally)
    try:
        Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=MAX_STEPS).run({"question": QUESTION})
        outcome = "answered"
    except StepLimitReached:
        outcome = "step_limited"
    except Exception as exc:  # the server failed this student: counted, and said in one line
        with tally.lock:
            tally.failures.append(f"{type(exc).__name__}: {exc}")
        return
    with tally.lock:
        setattr(tally, outcome, getattr(tally, outcome) + 1)


def _timed(generate: Callable, tally: Tally) -> Callable:
    def timed(*args):
        started = time.perf_counter()
        response = generate(*args)
        with tally.lock:
            tally.seconds.append(time.perf_counter() - started)
            tally.tokens.append(response.output_tokens or 0)
            tally.tool_replies += bool(response.message.tool_calls)
        return response

    return timed


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def _class(base_url: str, pid: int, model: str, students: int) -> tuple[Tally, float, float]:
    """Every student at once; the server's peak RSS sampled meanwhile. Returns tally, wall seconds, peak MiB."""
    tally = Tally()
    seats = [threading.Thread(target=student, args=(i, base_url, model, tally), daemon=True) for i in range(students)]
    peak, started = rss_mib(pid), time.perf_counter()
    for seat in seats:
        seat.start()
    while any(s.is_alive() for s in seats) and time.perf_counter() - started < DEADLINE:
        peak = max(peak, rss_mib(pid))
        time.sleep(0.25)
    wall = time.perf_counter() - started
    stuck = sum(s.is_alive() for s in seats)
    tally.failures += [f"still waiting after the {DEADLINE:g} s deadline"] * stuck
    return tally, wall, peak


def skipped(reason: str) -> Section:
    return Section("class", "A class on one server", ("skipped",), (("skipped",),),
                   (Target("no failures", reason, None),), (reason,))


def run(students: int = STUDENTS, parallel: int = PARALLEL, model: str = MODEL,
        max_tokens: int = MAX_TOKENS) -> Section:
    for module, extra in (("xllamacpp", "local"), ("openai", "openai")):
        if importlib.util.find_spec(module) is None:
            return skipped(f"{module} is not installed: pip install 'mingraph-lite[{extra}]'")
    try:
        proc, base_url = start_server(model, parallel, max_tokens)
    except RuntimeError as exc:
        return skipped(str(exc))
    try:
        tally, wall, peak = _class(base_url, proc.pid, model, students)
    finally:
        stop_server(proc)
    return _section(tally, wall, peak, students, parallel, model, max_tokens)


def _section(tally: Tally, wall: float, peak: float, students: int, parallel: int, model: str,
             max_tokens: int) -> Section:
    calls, slowest = len(tally.seconds), max(tally.seconds, default=0.0)
    row = (str(students), str(parallel), str(calls), f"{calls / wall:.2f}", f"{_percentile(tally.seconds, 0.5):.1f}",
           f"{_percentile(tally.seconds, 0.95):.1f}", f"{slowest:.1f}", f"{peak:.0f}", str(tally.tool_replies),
           str(sum(t >= max_tokens for t in tally.tokens)), f"{tally.answered}/{tally.step_limited}",
           str(len(tally.failures)))
    targets = (Target("no failures", f"{len(tally.failures)} of {students} runs", not tally.failures),
               Target(f"no call waits past the stated {TIMEOUT:g} s timeout", f"slowest {slowest:.1f} s",
                      slowest <= TIMEOUT + 5))
    notes = (f"`python -m mingraph_lite serve --model {model} --parallel {parallel} --max-tokens {max_tokens}` "
             f"on 127.0.0.1; each student: Agent + OpenAILLM(temperature=0.7, seed=seat, timeout={TIMEOUT:g}), "
             f"max_steps={MAX_STEPS}; {wall:.0f} s for the class",
             f"output tokens per reply: p50 {_percentile(tally.tokens, 0.5):.0f}, "
             f"p95 {_percentile(tally.tokens, 0.95):.0f}, max {max(tally.tokens, default=0)} (cap {max_tokens})",
             *sorted(set(tally.failures))[:3])
    columns = ("students", "--parallel", "model calls", "calls/s", "p50 s", "p95 s", "max s", "server RSS MiB",
               "replies with tool_calls", "replies cut at the cap", "answered/step limit", "failures")
    data = {"calls": calls, "wall_s": wall, "failures": list(tally.failures), "peak_rss_mib": peak,
            "tool_replies": tally.tool_replies, "seconds": list(tally.seconds), "answered": tally.answered,
            "step_limited": tally.step_limited, "tokens": list(tally.tokens)}
    return Section("class", "A class on one server", columns, (row,), targets, notes, data)
