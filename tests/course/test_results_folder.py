"""The results folder: secrets never reach its CSV, summary or comparison; one command writes it at a time."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from mingraph_lite.cli import main
from mingraph_lite.course import results_folder as rf
from mingraph_lite.course.compare import compare
from mingraph_lite.course.experiments import run_experiment
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.messages import AssistantMessage

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-proj-Zx81KqLmN0pQrStUv"


class LeakyModel:
    """A model object whose name and replies carry a key and a URL's password."""

    name = f"proxy model http://amy:pa55word-77@proxy:8080 key={KEY}"

    def generate(self, messages, tools):
        return LLMResponse(AssistantMessage(f"Paris 64°F, Tokyo 75°F (key {KEY})"), model=self.name)


def written(folder: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.is_file() and p.suffix != ".png")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_no_secret_reaches_the_csv_the_summary_or_the_comparison(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    shown = run_experiment(LeakyModel(), out=tmp_path, runs=1, progress=False).table()
    summary = json.loads((tmp_path / rf.SUMMARY).read_text(encoding="utf-8"))
    assert summary["model"] == "proxy model http://***@proxy:8080 key=***"
    text = written(tmp_path) + shown + compare([tmp_path]).table() + str(compare([tmp_path]).rows())
    assert KEY not in text and "pa55word" not in text


def test_results_csv_redacts_every_cell_whoever_made_the_run(monkeypatch):
    monkeypatch.setenv("HF_TOKEN", KEY)
    run = rf.RunResult("18", 0, 0, 0.7, "right", None, None, f"said {KEY}", f"answer {KEY}", False, True,
                       f"model {KEY}", "", "traces/bare-00.jsonl", "abc", 0.1)
    text = rf.results_csv([run, replace(run, index=1)])
    assert KEY not in text and text.count("answer ***") == 2 and "model ***" in text
    assert KEY not in rf.summary_json({"model": KEY, "nested": [{"why": f"because {KEY}"}], "runs": 3})


# --------------------------------------------------------------------- one command at a time

SLOW_RUN = """
    import sys, time
    from mingraph_lite.course.experiments import run_experiment
    from mingraph_lite.llms.base import LLMResponse
    from mingraph_lite.messages import AssistantMessage

    class Slow:
        name = "slow"
        def generate(self, messages, tools):
            time.sleep(0.4)
            return LLMResponse(AssistantMessage("Paris 64°F, Tokyo 75°F"), model="slow")

    run_experiment(Slow(), out=sys.argv[1], runs=int(sys.argv[2]), progress=False)
    """


def python(code: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-W", "ignore", "-c", textwrap.dedent(code), *args],
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_second_command_on_a_busy_folder_refuses_in_one_sentence_and_loses_nothing(tmp_path, capsys):
    first = python(SLOW_RUN, str(tmp_path), "3")
    try:
        wait_for(lambda: any((tmp_path / "traces").glob("*.partial")))  # the first command is mid-run
        code = main(["experiment", "unit", "--runs", "3", "--out", str(tmp_path), "--no-progress"])
        err = capsys.readouterr().err.strip()
        assert code == 2 and err.count("\n") == 0
        assert str(tmp_path) in err and f"pid {first.pid}" in err and socket.gethostname() in err
        _, stderr = first.communicate(timeout=120)
    finally:
        first.kill()
    assert first.returncode == 0, stderr
    results = rf.read_results(tmp_path)
    assert sorted(r.key for r in results) == sorted((v, i) for v in ("18", "18°C") for i in range(3))
    assert {r.model for r in results} == {"slow"}  # every run is the first command's
    assert sorted(p.name for p in (tmp_path / "traces").iterdir()) == sorted(Path(r.trace).name for r in results)
    assert not (tmp_path / rf.LOCK).exists()  # released on exit


def test_a_lock_left_by_a_dead_process_on_this_host_is_taken_over(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait(timeout=60)
    (tmp_path / rf.LOCK).write_text(json.dumps({"pid": dead.pid, "host": socket.gethostname(),
                                                "since": "2026-01-01T00:00:00+00:00"}))
    assert main(["experiment", "unit", "--runs", "1", "--out", str(tmp_path), "--no-progress"]) == 0
    assert len(rf.read_results(tmp_path)) == 2 and not (tmp_path / rf.LOCK).exists()


def test_a_lock_held_on_another_host_is_refused_naming_the_holder(tmp_path):
    (tmp_path / rf.LOCK).write_text(json.dumps({"pid": 4242, "host": "laptop-7", "since": "2026-12-01T09:00:00"}))
    with pytest.raises(rf.ResultsFolderBusy, match=r"pid 4242 on laptop-7"):
        with rf.locked(tmp_path):
            pass
    assert (tmp_path / rf.LOCK).exists()  # not ours to remove
