"""Measurement 4: what ``import mingraph_lite`` costs a fresh interpreter, and what it pulls in.

The figure is the median wall time of ``python -c "import mingraph_lite"`` minus the median of
``python -c "pass"``, both started fresh each time (so nothing is cached in the process) and taken in
turns. Beside it, the CPU time (user + system) the child used, read from ``getrusage``: on a busy
shared machine the wall figure includes waiting for a core, the CPU figure does not. The modules
list is every entry the import adds to ``sys.modules``, grouped by top-level package;
``-X importtime`` names the direct imports that cost the most.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter

from .report import Section, Target

FORBIDDEN = ("ollama", "openai", "ipywidgets", "matplotlib", "langgraph", "xllamacpp")
TARGET_MS = 150
_LIST = ("import sys, json; before = set(sys.modules); import mingraph_lite; "
         "print(json.dumps(sorted(set(sys.modules) - before)))")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    return env


def _child_cpu_ns() -> int:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return int((usage.ru_utime + usage.ru_stime) * 1e9)


def _launch(code: str) -> tuple[int, int]:
    """(wall ns, CPU ns) of one fresh interpreter running ``code``."""
    cpu, started = _child_cpu_ns(), time.perf_counter_ns()
    subprocess.run([sys.executable, "-c", code], check=True, env=_env(), stdout=subprocess.DEVNULL)
    return time.perf_counter_ns() - started, _child_cpu_ns() - cpu


def launch_times(repeats: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    bare, ours = [], []
    _launch("import mingraph_lite")  # warm the OS file cache and the .pyc files once
    for _ in range(repeats):
        bare.append(_launch("pass"))
        ours.append(_launch("import mingraph_lite"))
    return bare, ours


def new_modules() -> list[str]:
    out = subprocess.run([sys.executable, "-c", _LIST], check=True, env=_env(), capture_output=True,
                         text=True)
    return json.loads(out.stdout)


def heaviest(limit: int = 6) -> list[tuple[str, int]]:
    """Packages imported directly by mingraph_lite's own modules, by summed cumulative microseconds."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import mingraph_lite"], check=True,
                         env=_env(), capture_output=True, text=True).stderr
    found: dict[str, int] = {}
    rows = []
    for line in out.splitlines():
        if not line.startswith("import time:") or "|" not in line or "cumulative" in line:
            continue
        _, cumulative, name = line.removeprefix("import time:").split("|")
        name = name[1:]  # one space after the bar, then two per level of nesting
        rows.append(((len(name) - len(name.lstrip())) // 2, name.strip(), int(cumulative)))
    # importtime prints children before their parent; a child belongs to the next line with smaller depth
    for i, (depth, name, cumulative) in enumerate(rows):
        parent = next((n for d, n, _ in rows[i + 1:] if d < depth), None)
        if parent and parent.startswith("mingraph_lite") and not name.startswith("mingraph_lite"):
            top = name.split(".")[0]  # pydantic loads its parts lazily: each shows up as its own import
            found[top] = found.get(top, 0) + cumulative
    return sorted(found.items(), key=lambda kv: -kv[1])[:limit]


def run(repeats: int = 15) -> Section:
    bare, ours = launch_times(repeats)

    def median_ms(xs: list[tuple[int, int]], i: int) -> float:
        return statistics.median(x[i] for x in xs) / 1e6

    bare_ms, ours_ms = median_ms(bare, 0), median_ms(ours, 0)
    bare_cpu, ours_cpu = median_ms(bare, 1), median_ms(ours, 1)
    extra, extra_cpu = ours_ms - bare_ms, ours_cpu - bare_cpu
    modules = new_modules()
    groups = Counter(m.split(".")[0] for m in modules)
    forbidden = sorted(m for m in groups if m in FORBIDDEN)
    names = sys.stdlib_module_names
    stdlib = sorted(g for g in groups
                    if g in names or g.lstrip("_") in names or g.startswith("_sysconfigdata"))
    n_stdlib = sum(groups[g] for g in stdlib)
    third = [(g, n) for g, n in groups.most_common() if g not in stdlib]
    rows = [("python -c 'pass'", f"{bare_ms:.1f} ms", f"CPU {bare_cpu:.1f} ms"),
            ("python -c 'import mingraph_lite'", f"{ours_ms:.1f} ms", f"CPU {ours_cpu:.1f} ms"),
            ("import mingraph_lite, above a bare interpreter", f"{extra:.1f} ms",
             f"CPU {extra_cpu:.1f} ms; medians of {repeats} launches each, taken in turns")]
    rows.append(("modules it adds to sys.modules", f"{len(modules)}",
                 ", ".join(f"{k} {v}" for k, v in third) + f"; standard library {n_stdlib}"))
    rows.append(("  of which standard library", f"{n_stdlib}", ", ".join(stdlib)))
    rows.append(("its heaviest direct imports (-X importtime, cumulative)", "",
                 ", ".join(f"{name} {cum / 1000:.1f} ms" for name, cum in heaviest())))
    targets = (Target(f"import under {TARGET_MS} ms above a bare interpreter",
                      f"{extra:.1f} ms wall, {extra_cpu:.1f} ms CPU", extra < TARGET_MS),
               Target("import pulls in none of " + ", ".join(FORBIDDEN), ", ".join(forbidden) or "none",
                      not forbidden))
    return Section("import", "4. Import time of mingraph_lite", ("what", "figure", "detail"), tuple(rows),
                   targets, (), {"extra_ms": extra, "extra_cpu_ms": extra_cpu, "bare_ms": bare_ms, "ours_ms": ours_ms,
                                 "modules": modules, "groups": dict(groups)})
