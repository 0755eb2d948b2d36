"""Each benchmark run once at a tiny size, so ``make bench`` cannot rot between releases.

The figures of a tiny run mean nothing and are not checked; what is checked is that every variant
still does the work it is timed on (each benchmark verifies its answers and raises otherwise), and
that the report renders. LangGraph's rows skip with a reason where LangGraph is not installed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level package next to tests/, not installed
    sys.path.insert(0, str(ROOT))

from benchmarks import agent_loop, course, graph_engine, import_time, report, trace_cost  # noqa: E402
from benchmarks.__main__ import main  # noqa: E402
from benchmarks.timing import Plan, compare  # noqa: E402

HAVE_LANGGRAPH = importlib.util.find_spec("langgraph") is not None
needs_langgraph = pytest.mark.skipif(
    not HAVE_LANGGRAPH,
    reason="LangGraph is not installed (pip install 'mingraph-lite[langgraph]'); "
           "its side of the benchmarks is skipped")
QUICK = Plan.quick()


def test_compare_takes_one_sample_per_repeat_per_variant():
    calls = []
    timings = compare({"x": lambda: calls.append("x"), "y": lambda: calls.append("y")},
                      Plan(repeats=3, warmup=1, sample_ns=0, collect=False))
    assert [len(t.samples_ns) for t in timings.values()] == [3, 3]
    assert calls == ["x", "y"] + ["x", "y"] * 3  # warm-up, then round-robin: the variants take turns


def test_agent_loop_variants_do_the_work():
    section = agent_loop.run(QUICK, include_langgraph=False)
    assert set(section.data["per_call_ns"]) == {"a", "b", "c", "d"}
    assert all(v > 0 for v in section.data["per_call_ns"].values())
    assert [t.met for t in section.targets][1] is None  # the LangGraph target says it was not measured


def test_a_variant_that_stops_doing_the_work_is_caught():
    with pytest.raises(AssertionError, match="not doing the work"):
        agent_loop._check("Paris: 64°F", "a broken loop")
    with pytest.raises(AssertionError, match="not doing the work"):
        graph_engine._checked(lambda n: {"count": n, "events": []}, 3, "a broken engine")()


@needs_langgraph
def test_agent_loop_langgraph_variants_do_the_work():
    variants = agent_loop.langgraph_variants()
    assert sorted(variants) == ["d'", "e"]
    for run in variants.values():  # each run checks its own answer and raises when it is wrong
        run()
        run()  # the cycling fake model must line up again for the next run


def test_graph_engine_ours_keeps_nodes_isolated():
    section = graph_engine.run(QUICK, sizes=(3, 6), include_langgraph=False)
    assert section.data["isolated"] == {"ours": True}
    assert [row[0] for row in section.rows] == ["3", "6"]


@needs_langgraph
def test_graph_engine_against_langgraph():
    section = graph_engine.run(QUICK, sizes=(3, 6))
    assert set(section.data["growth"]) == {"ours", "LangGraph"}
    assert "LangGraph / ours" in section.columns and all(len(r) == len(section.columns) for r in section.rows)


def test_trace_shared_file_keeps_every_line():
    section = trace_cost.run(QUICK, runs_per_process=1, start_method="fork")
    shared = section.data["shared"]
    assert shared["lines"] == shared["written"] == 4 * len(trace_cost.announcements())
    assert shared["seqs_ok"] and section.targets[0].met


def test_import_time_lists_what_the_import_pulls_in():
    section = import_time.run(repeats=1)
    assert "mingraph_lite" in section.data["groups"]
    assert not set(section.data["groups"]) & set(import_time.FORBIDDEN)


@pytest.mark.skipif(importlib.util.find_spec("nbclient") is None, reason="nbclient is not installed")
def test_course_executes_a_notebook_in_memory():
    section = course.run(quick=True)
    assert section.data["total_s"] > 0
    assert section.rows[-1][0] == "total"


def test_runner_prints_and_report_renders(capsys, tmp_path):
    assert main(["--quick", "--only", "trace", "--no-write"]) == 0
    assert "Trace cost" in capsys.readouterr().out
    section = report.Section("x", "X", ("a", "b"), (("1", "2|3"),), (report.Target("p", "m", False),), ("n",))
    text = report.results_md([section], ["--only", "x"], 1.0)
    assert "| 1 | 2\\|3 |" in text and "**MISSED**" in text and "Python" in text
    assert "(also part of `make bench`)" in text and "Written by `.venv/bin/python -m benchmarks --only x`" in text
    assert sys.executable not in text and str(Path.home()) not in text  # no one machine's paths


def test_runtime_comparison_runs_or_skips_with_a_reason():
    from benchmarks import local_runtime
    from benchmarks.__main__ import measure

    section = measure("runtime", quick=True)
    assert "(opt-in, not part of `make bench`)" in report.markdown(section)  # `make bench` leaves it out
    if local_runtime.available():
        assert section.rows == (("skipped",),) and "llama-cpp-python" in section.notes[0] + section.targets[0].measured
    else:  # both runtimes present: each one really wrote tokens under the same constraint
        assert {row[0] for row in section.rows} == {"xllamacpp", "llama-cpp-python"}
        assert all(float(row[1]) > 0 and int(row[3]) > 0 for row in section.rows)
