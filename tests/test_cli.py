"""``python -m mingraph_lite``: the demo from a terminal."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mingraph_lite import cli
from mingraph_lite.observers.trace import read_trace

ROOT = Path(__file__).resolve().parents[1]


def run_module(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MINGRAPH_LLM": "scripted", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "mingraph_lite", *args], env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=120, cwd=cwd)


def test_demo_prints_the_run_and_exits_zero():
    result = run_module("demo")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "scripted" in out.splitlines()[0]  # it says it is scripted before anything else
    assert "question: What's the temperature in Paris and in Tokyo, in Fahrenheit?" in out
    assert out.count("[step ") == 4
    assert "call get_weather {'city': 'Paris'}" in out and "returned: 75" in out
    assert "[finish: answered]" in out
    assert out.rstrip().endswith("answer: Paris: 64°F, Tokyo: 75°F")


def test_demo_writes_a_trace(tmp_path):
    path = tmp_path / "demo.jsonl"
    result = run_module("demo", "--trace", str(path))
    assert result.returncode == 0, result.stderr
    assert f"trace: {path}" in result.stdout
    events = read_trace(path)
    assert events[0]["event"] == "run_start" and events[-1]["event"] == "finish"
    assert events[-1]["answer"] == "Paris: 64°F, Tokyo: 75°F"
    assert len({e["run_id"] for e in events}) == 1


def test_bad_llm_spec_exits_non_zero_with_a_clear_message(capsys):
    assert cli.main(["demo", "--llm", "nonsense:model"]) != 0
    err = capsys.readouterr().err
    assert "nonsense:model" in err and "ollama:MODEL" in err and "Traceback" not in err
    result = run_module("demo", "--llm", "bogus")
    assert result.returncode != 0
    assert "bogus" in result.stderr and "Traceback" not in result.stderr


def test_a_step_limit_exits_non_zero(capsys):
    assert cli.main(["demo", "--max-steps", "2"]) == 3
    captured = capsys.readouterr()
    assert "stopped: no answer after 2 model calls" in captured.err
    assert "answer:" not in captured.out


def test_unit_in_result_option(capsys):
    assert cli.main(["demo", "--unit-in-result"]) == 0
    out = capsys.readouterr().out
    assert "returned: 18°C" in out and "answer: Paris: 64°F, Tokyo: 75°F" in out


def test_no_command_prints_usage():
    result = run_module()
    assert result.returncode != 0
    usage = result.stdout + result.stderr
    assert "usage: python -m mingraph_lite" in usage and "demo" in usage and "brief" in usage
    assert "Traceback" not in usage


@pytest.mark.parametrize("argv, code", [(["--help"], 0), (["-h"], 0), (["frobnicate"], 2)])
def test_help_and_unknown_commands(argv, code, capsys):
    assert cli.main(argv) == code
    captured = capsys.readouterr()
    assert "usage:" in captured.out + captured.err
    if code:
        assert "usage:" in captured.err


def test_demo_help_lists_the_options(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["demo", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "--llm" in out and "--trace" in out and "--max-steps" in out


@pytest.mark.parametrize("argv, says", [
    (["demo", "--llm", "replay:/no/such/trace.jsonl"], "/no/such/trace.jsonl"),
    (["demo", "--trace", "/proc/no-such-dir/run.jsonl"], "cannot write the trace"),
])
def test_missing_files_are_a_clear_message_not_a_traceback(argv, says, capsys):
    assert cli.main(argv) == 2
    assert says in capsys.readouterr().err


def test_max_steps_below_one_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["demo", "--max-steps", "0"])
    assert info.value.code == 2
    assert "--max-steps" in capsys.readouterr().err
