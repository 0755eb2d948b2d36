"""``python -m benchmarks``: run every measurement, print the tables, write benchmarks/results.md.

    .venv/bin/python -m benchmarks                    # everything (what `make bench` runs), ~3 minutes
    .venv/bin/python -m benchmarks --only graph       # one or more of: agent graph trace import course
    .venv/bin/python -m benchmarks --quick --no-write # one tiny pass of each, to see that they run
    .venv/bin/python -m benchmarks --only runtime     # opt-in: xllamacpp vs llama-cpp-python (see local_runtime)
    .venv/bin/python -m benchmarks --only class       # opt-in: 30 students on one `serve` (see class_load)
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from . import agent_loop, class_load, course, graph_engine, import_time, local_runtime, report, trace_cost
from .timing import Plan

KEYS = ("agent", "graph", "trace", "import", "course")
RESULTS = Path(__file__).resolve().parent / "results.md"
# Opt-in, each with a report of its own: runtime needs llama-cpp-python (it compiles), class loads a model for minutes.
OPT_IN_RESULTS = {"runtime": RESULTS.with_name("runtime-results.md"), "class": RESULTS.with_name("class-results.md")}
OPT_IN = tuple(OPT_IN_RESULTS)


def measure(key: str, quick: bool) -> report.Section:
    return dataclasses.replace(_measure(key, quick), opt_in=key in OPT_IN)


def _measure(key: str, quick: bool) -> report.Section:
    plan = Plan.quick() if quick else Plan()
    if key == "agent":
        return agent_loop.run(plan)
    if key == "graph":  # LangGraph takes ~1 ms a node: fewer repeats keep `make bench` within minutes
        plan = plan if quick else Plan(repeats=5, warmup=1)
        return graph_engine.run(plan, sizes=(5, 10, 20) if quick else graph_engine.SIZES)
    if key == "trace":
        return trace_cost.run(plan, runs_per_process=2 if quick else 150, start_method="fork" if quick else "spawn")
    if key == "import":
        return import_time.run(repeats=1 if quick else 15)
    if key == "course":
        return course.run(quick=quick)
    if key == "runtime":
        return local_runtime.run(plan if quick else Plan(repeats=7, warmup=1))
    if key == "class":  # quick: the two-student smoke run
        return class_load.run(students=2, parallel=2, max_tokens=16) if quick else class_load.run()
    raise ValueError(f"unknown benchmark {key!r}; choose from {', '.join(KEYS + OPT_IN)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", choices=KEYS + OPT_IN, default=list(KEYS), help="run only these")
    parser.add_argument("--quick", action="store_true", help="one tiny pass of each (figures meaningless)")
    parser.add_argument("--no-write", action="store_true", help=f"do not write {RESULTS.name}")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where to write the markdown report")
    args = parser.parse_args(argv)
    started, load_at_start = time.perf_counter(), report.load()
    print(f"machine load at start: {load_at_start}")
    sections = []
    for key in args.only:
        t0 = time.perf_counter()
        section = measure(key, args.quick)
        sections.append(section)
        print(report.console(section), flush=True)
        print(f"({section.command}: {time.perf_counter() - t0:.0f} s)\n", flush=True)
    elapsed = time.perf_counter() - started
    missed = [t for s in sections for t in s.targets if t.met is False]
    print(f"{len(sections)} benchmarks in {elapsed:.0f} s; targets missed: {len(missed)}")
    for t in missed:
        print(f"  MISSED: {t.promise}: {t.measured}")
    used = argv if argv is not None else sys.argv[1:]
    if args.no_write:
        return 0
    if len(args.only) == 1 and args.only[0] in OPT_IN and not args.quick:
        out = OPT_IN_RESULTS[args.only[0]]
        out.write_text(report.results_md(sections, used, elapsed, load_at_start), encoding="utf-8")
        print(f"wrote {out}")
    elif args.quick or args.only != list(KEYS):
        print(f"not writing {args.out}: only a full run (no --quick, no --only) writes the report")
    else:
        args.out.write_text(report.results_md(sections, used, elapsed, load_at_start), encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
