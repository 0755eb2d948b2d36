"""The trace under hostile values and faults: generated values, writers killed with SIGKILL at seeded
random moments, cuts at random bytes, several processes appending at once (one of them killed).

Every trial ends with the same checks: each whole line of the file is read back, in order; each torn
line is skipped and reported by its number; every run that was not killed is there complete.
Run with ``-s`` to see the figures (trials, lines recovered, torn lines).
"""

import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, three_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.messages import AssistantMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TornLineWarning, TraceRecorder, pick_run, read_trace

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SEED = 20261201  # the kill-9 trials draw their moments from this; change it to try other moments
KEY = "sk-live-Q2w3E4r5T6y7U8i9"
META = ("v", "run_id", "ts", "seq")

pytestmark = pytest.mark.filterwarnings("ignore::mingraph_lite.observers.trace.TornLineWarning")


def strict_json(line: bytes):
    def refuse(constant):
        raise ValueError(f"non-standard JSON constant {constant}")
    return json.loads(line.decode("utf-8"), parse_constant=refuse)


def parses(line: bytes) -> bool:
    try:
        strict_json(line)
    except ValueError:
        return False
    return True


def parsed_lines(path: Path) -> tuple[list[tuple[int, dict]], list[int]]:
    """(number, event) of each whole line, and the numbers of the lines that are not whole."""
    whole, torn = [], []
    for number, line in enumerate(path.read_bytes().split(b"\n"), 1):
        if not line:
            continue
        try:
            whole.append((number, strict_json(line)))
        except ValueError:
            torn.append(number)
    return whole, torn


def append_a_run(path: Path) -> list[dict]:
    """Another run appends to the same file, as ``demo --trace`` does; returns its events."""
    recorder = EventRecorder()
    Agent(three_round_manager(), weather_registry(), SYSTEM_PROMPT,
          observers=[TraceRecorder(path), recorder]).run({"question": QUESTION})
    return recorder.events


def check_recovery(path: Path, appended: list[dict]) -> tuple[int, int]:
    """The checks every trial ends with; returns (lines recovered, torn lines)."""
    whole, torn = parsed_lines(path)
    trace = read_trace(path)
    assert list(trace) == [event for _, event in whole]          # every whole line, in order
    assert trace.lines == tuple(n for n, _ in whole)
    assert trace.skipped == tuple(torn) and len(torn) <= 1         # the torn one, reported by number
    last = pick_run(trace, -1)
    assert [{k: v for k, v in e.items() if k not in META} for e in last] == appended  # the new run, whole
    for run in range(1, len({e["run_id"] for e in trace})):      # killed runs: an unbroken prefix
        seqs = [e["seq"] for e in pick_run(trace, run)]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    return len(trace), len(torn)


# --- generated hostile values ------------------------------------------------------------------

lone_surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
texts = st.text(st.one_of(st.characters(), lone_surrogates), max_size=30) | st.sampled_from(
    [KEY, f"key={KEY}!", "http://u:pa55w0rd@h:1", "°" * 3, "\u2028\x00\n\r"])
leaves = st.one_of(
    texts, st.none(), st.booleans(), st.integers(), st.floats(),          # floats include nan and inf
    st.integers(4300, 6000).map(lambda k: 10 ** k - 1),                     # too long for str()
    st.binary(max_size=20), st.builds(object), st.complex_numbers(allow_nan=True),
    st.integers(120, 3000).map(lambda n: nest(n)))                          # deeper than JSON writes
values = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner), st.frozensets(st.integers(), max_size=3),
    st.dictionaries(st.one_of(texts, st.integers(), st.tuples(st.integers())), inner, max_size=4)),
    max_leaves=12)


def nest(depth: int) -> list:
    root = node = []
    for _ in range(depth):
        node.append([])
        node = node[0]
    return root


def plain(value, depth: int = 0) -> bool:
    """Whether JSON carries ``value`` exactly (then the trace must give it back unchanged)."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, str):
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in value) and KEY not in value and "@" not in value
    if isinstance(value, int):
        return abs(value) < 10 ** 4000
    if isinstance(value, float):
        return math.isfinite(value)
    if depth > 90:  # the writer cuts at 100 levels, counted from the line itself
        return False
    if isinstance(value, list):
        return all(plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(k) and plain(v, depth + 1) for k, v in value.items())
    return False


def announce_everything(recorder: TraceRecorder, text: str, value) -> list[str]:
    call = ToolCall("c1", "get_weather", {"x": value})
    recorder.on_run_start([UserMessage(text)])
    recorder.on_step_start(1)
    recorder.on_model_reply(LLMResponse(AssistantMessage(text, tool_calls=(call,)), reasoning=text))
    recorder.on_tool_call(call)
    recorder.on_tool_return(ToolMessage(text, "c1", "get_weather"))
    recorder.on_tool_error(call, ValueError(text))
    recorder.on_node_start("n", {"state": value})
    recorder.on_node_end("n", {"update": value})
    recorder.on_finish(text, "answered")
    return ["run_start", "step_start", "model_reply", "tool_call", "tool_return", "tool_error", "node_start",
            "node_end", "finish"]


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(text=texts, value=values)
def test_any_value_makes_exactly_one_standard_json_line_per_announcement(text, value):
    with tempfile.TemporaryDirectory() as folder, mock.patch.dict(os.environ, {"OPENAI_API_KEY": KEY}):
        path = Path(folder) / "hostile.jsonl"
        names = announce_everything(TraceRecorder(path), text, value)
        raw = path.read_bytes()
        lines = raw.split(b"\n")
        assert lines[-1] == b"" and len(lines) - 1 == len(names)   # one line each, none lost
        events = [strict_json(line) for line in lines[:-1]]        # valid UTF-8, standard JSON
        with warnings.catch_warnings():
            warnings.simplefilter("error", TornLineWarning)
            assert read_trace(path) == events
        assert [e["event"] for e in events] == names
        assert [e["seq"] for e in events] == list(range(1, len(names) + 1))
        assert KEY.encode() not in raw and b"pa55w0rd" not in raw   # secrets never reach the file
        if plain(value):
            assert events[3]["arguments"] == {"x": value} and events[7]["update"] == {"update": value}
        if plain(text):
            assert events[-1]["answer"] == text


# --- kill -9 at random moments -----------------------------------------------------------------

KILLED_WRITER = """
    import random, sys, time
    from mingraph_lite.messages import ToolMessage
    from mingraph_lite.observers.trace import TraceRecorder
    path, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    recorder = TraceRecorder(path)
    recorder.on_run_start([])
    print("ready", flush=True)
    i = 0
    try:
        while True:  # until killed; some lines of megabytes, so the kill may land inside a write and tear it
            size = rng.choice([10, 3_000, 300_000, 4_000_000])
            recorder.on_tool_return(ToolMessage(("°" if size < 10**6 else "x") * size, f"call-{i}"))
            i += 1
    except OSError:  # the file-size limit cut a write short: wait, mid-line, for the kill
        print("cut", flush=True)
        time.sleep(600)
    """


def kill_trial(path: Path, rng: random.Random, size_limit: int | None) -> None:
    """A writer killed with SIGKILL at a random moment, or, with ``size_limit``, once the kernel cut
    its write short at that byte (a real torn line, left by a real process)."""
    import resource

    limit = None if size_limit is None else (lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size_limit,) * 2))
    writer = subprocess.Popen([sys.executable, "-c", textwrap.dedent(KILLED_WRITER), str(path),
                               str(rng.randrange(10**6))], env=ENV, stdout=subprocess.PIPE, text=True,
                              preexec_fn=limit)
    assert writer.stdout.readline() == "ready\n"
    if size_limit is None:
        time.sleep(rng.uniform(0.0, 0.25))
    else:
        assert writer.stdout.readline() == "cut\n"
    writer.send_signal(signal.SIGKILL)
    assert writer.wait(timeout=60) == -signal.SIGKILL
    writer.stdout.close()


def test_kill_9_at_random_moments_then_another_run_appends(tmp_path):
    rng = random.Random(SEED)
    trials, recovered, torn = 12, 0, 0
    for trial in range(trials):
        path = tmp_path / f"killed-{trial}.jsonl"
        kill_trial(path, rng, None if trial % 2 else rng.randrange(1_000, 3_000_000))
        got, cut = check_recovery(path, append_a_run(path))
        recovered, torn = recovered + got, torn + cut
        path.unlink()  # tens of megabytes each
    print(f"\nkill -9 trials: {trials} (half cut short by a file-size limit first), lines recovered: "
          f"{recovered}, torn lines skipped and reported: {torn}")
    assert torn >= trials // 2  # every size-limited writer left a torn line, and it was reported
    assert recovered >= trials * 17  # at least the run_start of each killed writer and the whole appended run


def test_a_cut_at_any_random_byte_then_another_run_appends(tmp_path):
    rng = random.Random(SEED)
    whole = tmp_path / "whole.jsonl"
    for _ in range(3):
        append_a_run(whole)
    data = whole.read_bytes()
    trials, recovered, torn = 100, 0, 0
    path = tmp_path / "cut.jsonl"
    for _ in range(trials):
        kept = data[:rng.randrange(1, len(data))]  # as a writer killed at that byte would leave it
        path.write_bytes(kept)
        got, cut = check_recovery(path, append_a_run(path))
        tail = kept.rsplit(b"\n", 1)[-1]           # the last line: whole only if it lost just its newline
        assert cut == (1 if tail and not parses(tail) else 0)
        assert got == kept.count(b"\n") + (1 if tail and not cut else 0) + 16  # every whole line, and the new run
        recovered, torn = recovered + got, torn + cut
    print(f"\nrandom cuts: {trials}, lines recovered: {recovered}, torn lines skipped and reported: {torn}")
    assert torn > trials // 2  # most cuts land inside a line


# --- several processes appending at once -------------------------------------------------------

CONCURRENT_WRITER = """
    import os, random, signal, sys, time
    from mingraph_lite.messages import ToolMessage
    from mingraph_lite.observers.trace import TraceRecorder
    path, start, index, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    rng = random.Random(seed)
    recorder = TraceRecorder(path)
    recorder.on_run_start([])
    print("ready", flush=True)
    while not os.path.exists(start):  # all begin together
        time.sleep(0.001)
    for i in range(count):
        recorder.on_tool_return(ToolMessage(f"{index}" * rng.choice([5, 40_000, 400_000]), f"w{index}-{i}"))
    """


def test_concurrent_writers_one_killed_give_exact_line_counts(tmp_path):
    rng = random.Random(SEED)
    path, start, count, writers = tmp_path / "shared.jsonl", tmp_path / "go", 40, 4
    procs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(CONCURRENT_WRITER), str(path), str(start),
                               str(i), str(count if i else 10**6), str(rng.randrange(10**6))], env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(writers)]
    assert [proc.stdout.readline() for proc in procs] == ["ready\n"] * writers  # each wrote its run_start
    start.touch()
    time.sleep(rng.uniform(0.05, 0.3))
    procs[0].send_signal(signal.SIGKILL)                          # writer 0 dies mid-run, at a random moment
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == (-signal.SIGKILL if proc is procs[0] else 0), err
    whole, torn = parsed_lines(path)
    raw_lines = path.read_bytes().rstrip(b"\n").split(b"\n")
    assert b"" not in raw_lines                                   # no blank line, no line glued to another
    assert len(raw_lines) == len(whole) + len(torn) and len(torn) <= 1
    trace = read_trace(path)
    assert trace.skipped == tuple(torn) and len(trace) == len(whole)
    by_run = {}
    for event in trace:
        by_run.setdefault(event["run_id"], []).append(event)
    assert len(by_run) == writers
    by_writer = {}                                                # writer index -> its events
    for events in by_run.values():
        calls = [e["tool_call_id"] for e in events if e["event"] == "tool_return"]
        by_writer[int(calls[0].split("-")[0][1:]) if calls else 0] = events  # none written: the killed one
    assert sorted(by_writer) == list(range(writers))
    for index, events in by_writer.items():
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # in order, none missing
        assert [e["tool_call_id"] for e in events[1:]] == [f"w{index}-{i}" for i in range(len(events) - 1)]
        if index:
            assert len(events) == count + 1                       # each surviving writer: every line
    counts = [len(by_writer[i]) for i in range(writers)]
    print(f"\nconcurrent writers: {writers} (one killed), lines per writer: {counts}, torn: {len(torn)}")
