"""``python -m mingraph_lite``: the demo from a terminal."""

import json
import os
import re
import shlex
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


@pytest.mark.parametrize("argv", [["--max-steps", "0"], ["--max-steps", "many"], ["--no-such-option"]])
def test_a_usage_mistake_is_one_line_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["demo", *argv])
    assert info.value.code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ") and argv[0] in line and line.endswith("see python -m mingraph_lite demo --help")


# --- bad input is one sentence and exit 2, before the run starts; faults during it are named --------

@pytest.mark.parametrize("target", ["directory", "under-a-file"])
def test_an_unwritable_trace_target_is_refused_before_the_run(tmp_path, target, capsys):
    (tmp_path / "file").write_text("x")
    path = tmp_path if target == "directory" else tmp_path / "file" / "run.jsonl"
    assert cli.main(["demo", "--trace", str(path)]) == 2
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()                        # one sentence
    assert line.startswith(f"error: cannot write the trace to {path}: ") and "give a writable file" in line
    assert captured.out == ""                                 # nothing ran


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a disk that is always full)")
def test_a_trace_that_fails_mid_run_is_reported_not_claimed():
    result = run_module("demo", "--trace", "/dev/full")
    assert result.returncode == 1
    assert "answer: Paris: 64°F, Tokyo: 75°F" in result.stdout and "trace:" not in result.stdout
    err = result.stderr.splitlines()
    assert "Traceback" not in result.stderr
    assert err[-1] == ("error: the trace /dev/full is incomplete: 18 of 18 lines could not be written "
                       "(No space left on device)")
    assert len(err) == 2 and err[0].startswith("warning: listener TraceRecorder('/dev/full') failed")


def write_trace(path, mutate):
    from mingraph_lite.agents import Agent
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
    from mingraph_lite.course.weather import weather_registry
    from mingraph_lite.observers.trace import TraceRecorder

    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
          observers=[TraceRecorder(path)]).run({"question": QUESTION})
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(mutate(lines)))


@pytest.mark.parametrize("mutate, says", [
    (lambda lines: lines[:2] + [lines[2].replace(b'"message"', b'"massage"')] + lines[3:],
     r"bad.jsonl, line 3: this model_reply event cannot be replayed"),
    (lambda lines: [lines[0].replace(b'{"v": 1', b'{"v": 9')] + lines[1:],
     r"bad.jsonl, line 1: trace format version 9"),
    (lambda lines: lines[:8] + [lines[8][:50]] + lines[9:],
     r"bad.jsonl, line 10: a line of this run is missing"),
    (lambda lines: [b"this is not a trace"],
     r"bad.jsonl is not a trace"),
])
def test_a_bad_replay_trace_is_one_sentence_naming_file_and_line(tmp_path, mutate, says, capsys):
    path = tmp_path / "bad.jsonl"
    write_trace(path, mutate)
    assert cli.main(["demo", "--llm", f"replay:{path}"]) == 2
    captured = capsys.readouterr()
    *warned, line = captured.err.splitlines()
    assert re.search(says, line) and line.startswith("error: ") and captured.out == ""
    assert all(w.startswith("warning: ") and "torn line" in w for w in warned)  # one line each, no source


def test_a_closed_pipe_ends_quietly():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MINGRAPH_LLM": "scripted"}
    reader_gone = subprocess.Popen([sys.executable, "-m", "mingraph_lite", "demo"], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader_gone.stdout.close()                                 # the reader left before the first line
    _, err = reader_gone.communicate(timeout=120)
    assert (reader_gone.returncode, err) == (cli.BROKEN_PIPE, b"")
    command = f"{shlex.quote(sys.executable)} -m mingraph_lite demo | head -1"
    for unbuffered in ("", "1"):                               # printed in one go, or line by line
        piped = subprocess.run(["sh", "-c", command], env={**env, "PYTHONUNBUFFERED": unbuffered},
                               capture_output=True, text=True, timeout=120)
        assert piped.stdout.startswith("model: scripted") and piped.stdout.count("\n") == 1
        assert piped.stderr == ""


def test_credentials_in_ollama_host_never_reach_the_error():
    env = {"OLLAMA_HOST": "http://alice:pa55word-2026@127.0.0.1:9", "MINGRAPH_REAL_MODELS": "on"}
    result = subprocess.run([sys.executable, "-m", "mingraph_lite", "demo", "--llm", "ollama:qwen3:0.6b"],
                            env={**os.environ, "PYTHONPATH": str(ROOT), **env}, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 1
    assert "pa55word" not in result.stderr + result.stdout and "alice" not in result.stderr
    assert "error: LLMUnavailable: no Ollama server answers at http://***@127.0.0.1:9" in result.stderr


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="needs /dev/stdout")
def test_a_trace_to_a_pipe_is_written_whole():
    result = run_module("demo", "--trace", "/dev/stdout")  # stdout is a pipe here: no tail to read back
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith('{"v": 1')]
    assert [e["seq"] for e in lines] == list(range(1, 19)) and lines[-1]["event"] == "finish"


@pytest.mark.filterwarnings("ignore::mingraph_lite.observers.trace.TornLineWarning")
def test_demo_appends_after_a_writer_killed_mid_line(tmp_path):
    path = tmp_path / "runs.jsonl"
    assert run_module("demo", "--trace", str(path)).returncode == 0
    whole = path.read_bytes()
    path.write_bytes(whole[:-40])                          # the first run's finish line, cut
    result = run_module("demo", "--trace", str(path))
    assert result.returncode == 0 and f"trace: {path}" in result.stdout
    trace = read_trace(path)
    assert trace.skipped == (18,) and len(trace) == 17 + 18
    assert [e["event"] for e in trace[17:]][:1] == ["run_start"] and trace[-1]["event"] == "finish"


TASK_FILE = '''
from mingraph_lite import ScriptedLLM, ToolRegistry

def shout(word: str) -> str:
    """Say a word loudly.

    Args:
        word: The word.
    """
    return word.upper() + "!"

TOOLS = ToolRegistry()
TOOLS.add(shout)
SYSTEM_PROMPT = "You shout words."
QUESTION = "Shout hello, please."

def SCRIPTED():
    return ScriptedLLM([[("shout", {"word": "hello"})], lambda messages, tools: messages[-1].content],
                       name="scripted: shouter")
'''


def test_demo_runs_a_task_file_and_traces_it(tmp_path):
    task, trace = tmp_path / "shout_task.py", tmp_path / "shout.jsonl"
    task.write_text(TASK_FILE, encoding="utf-8")
    result = run_module("demo", "--task", str(task), "--trace", str(trace))
    assert result.returncode == 0, result.stderr
    assert "model: scripted: shouter" in result.stdout and "question: Shout hello, please." in result.stdout
    assert "\nanswer: HELLO!\n" in result.stdout
    events = read_trace(trace)
    assert events[0]["messages"][0]["content"] == "You shout words."
    assert [e["name"] for e in events if e["event"] == "tool_return"] == ["shout"]


@pytest.mark.parametrize("text, said", [("TOOLS = 1\n", "does not define SYSTEM_PROMPT, QUESTION, SCRIPTED"),
                                        ("x = 1 / 0\n", "failed to load: ZeroDivisionError: division by zero")])
def test_a_broken_task_file_is_one_sentence(tmp_path, capsys, text, said):
    task = tmp_path / "task.py"
    task.write_text(text, encoding="utf-8")
    assert cli.main(["demo", "--task", str(task), "--llm", "scripted"]) == 2
    err = capsys.readouterr().err
    assert said in err and str(task) in err and "Traceback" not in err
    assert cli.main(["demo", "--task", str(tmp_path / "missing.py"), "--llm", "scripted"]) == 2
    assert "missing.py is not a readable .py file" in capsys.readouterr().err


def test_unit_in_result_is_refused_with_a_task(tmp_path, capsys):
    task = tmp_path / "task.py"
    task.write_text(TASK_FILE, encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        cli.main(["demo", "--task", str(task), "--unit-in-result"])
    assert stop.value.code == 2 and "belongs to the weather task" in capsys.readouterr().err


def test_serve_open_to_the_room_tells_laptops_an_address_they_can_reach(monkeypatch, capsys):
    """0.0.0.0 is where a server listens, not an address a laptop can call: the banner names this machine instead."""
    import socket
    import time

    class Served:
        model, base_url = "gemma3-270m", "http://0.0.0.0:8080/v1"

        def __init__(self, *args, **kwargs):
            pass

        def close(self):
            pass

    def interrupted(seconds):
        raise KeyboardInterrupt

    monkeypatch.setattr("mingraph_lite.llms.local.LocalServer", Served)
    monkeypatch.setattr(time, "sleep", interrupted)
    assert cli.main(["serve", "--host", "0.0.0.0"]) == 0
    laptop = capsys.readouterr().out.splitlines()[1]
    assert f"OPENAI_BASE_URL=http://{socket.gethostname()}:8080/v1" in laptop and "0.0.0.0" not in laptop
