"""Measurement hygiene in one place: warm-up, repeats, medians, variants sampled round-robin.

Every figure in this package comes from ``compare``. Variants that are ratioed against each other
are sampled in turns (A, B, C, A, B, C, ...) in the same process, so a slow patch of the machine
(the other core busy, a CPU frequency change) lands on every variant alike instead of on one.
Each sample is read on two clocks: wall time (``perf_counter_ns``, what the figures report) and this
process's CPU time (``process_time_ns``), which leaves out the time spent waiting for a core, so a
busy shared machine shows up as a gap between the two instead of silently inflating the figures.
The garbage collector stays on (it is part of what a real run pays) and is emptied before every
sample, the same for our code and LangGraph's.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """Nanoseconds per call of one variant: the median and every sample it came from."""

    samples_ns: tuple[float, ...]
    inner: int  # calls per sample
    cpu_samples_ns: tuple[float, ...] = ()

    @property
    def median_ns(self) -> float:
        return statistics.median(self.samples_ns)

    @property
    def cpu_median_ns(self) -> float:
        return statistics.median(self.cpu_samples_ns) if self.cpu_samples_ns else float("nan")

    @property
    def spread(self) -> float:
        """(max - min) / median: how noisy the samples were (0.05 means within 5 %)."""
        return (max(self.samples_ns) - min(self.samples_ns)) / self.median_ns if self.median_ns else 0.0


@dataclass(frozen=True)
class Plan:
    """How hard to measure: the full run for ``make bench``, or a single tiny pass for the smoke test."""

    repeats: int = 7
    warmup: int = 2
    sample_ns: int = 60_000_000  # aim each sample at ~60 ms, so the clock's resolution never matters
    collect: bool = True  # empty the garbage collector before each sample (outside the timed part)

    @classmethod
    def quick(cls) -> Plan:
        return cls(repeats=1, warmup=0, sample_ns=0, collect=False)


def _calibrate(fn: Callable[[], object], target_ns: int) -> int:
    if target_ns <= 0:
        return 1
    started = time.perf_counter_ns()
    fn()
    once = max(time.perf_counter_ns() - started, 1)
    return max(1, min(100_000, target_ns // once))


def compare(variants: Mapping[str, Callable[[], object]], plan: Plan) -> dict[str, Timing]:
    """Time each zero-argument callable; samples taken round-robin across the variants."""
    for fn in variants.values():
        for _ in range(plan.warmup):
            fn()
    inner = {name: _calibrate(fn, plan.sample_ns) for name, fn in variants.items()}
    samples: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(plan.repeats):
        for name, fn in variants.items():
            n = inner[name]
            if plan.collect:
                gc.collect()
            cpu_started, started = time.process_time_ns(), time.perf_counter_ns()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter_ns() - started) / n)
            cpu[name].append((time.process_time_ns() - cpu_started) / n)
    return {name: Timing(tuple(samples[name]), inner[name], tuple(cpu[name])) for name in variants}


def ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")
