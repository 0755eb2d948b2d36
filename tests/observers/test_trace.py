"""TraceRecorder and read_trace: JSON Lines that survive a crash and a shared file."""

import json
import os
import subprocess
import sys
import textwrap
import time
from datetime import datetime
from pathlib import Path

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TRACE_VERSION, TornLineWarning, TraceRecorder, read_trace, run_ids

ROOT = Path(__file__).resolve().parents[2]


def run_into(path, manager=four_round_manager, *others):
    recorder = EventRecorder()
    Agent(manager(), weather_registry(), SYSTEM_PROMPT,
          observers=[TraceRecorder(path), recorder, *others]).run({"question": QUESTION})
    return recorder.events


def python(code: str, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True,
                          text=True, timeout=120, **kwargs)


def test_every_line_is_an_event_with_version_run_id_time_and_sequence(tmp_path):
    path = tmp_path / "deep" / "dir" / "run.jsonl"  # missing folders are made
    events = run_into(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(events) == 18
    traced = [json.loads(line) for line in lines]
    for line, event in zip(traced, events, strict=True):
        assert line["v"] == TRACE_VERSION == 1
        assert isinstance(line["run_id"], str) and len(line["run_id"]) == 32
        assert datetime.fromisoformat(line["ts"]).tzinfo is not None
        assert {k: v for k, v in line.items() if k not in ("v", "run_id", "ts", "seq")} == event
    assert [line["seq"] for line in traced] == list(range(1, 19))
    assert len({line["run_id"] for line in traced}) == 1
    times = [datetime.fromisoformat(line["ts"]) for line in traced]
    assert times == sorted(times)
    assert read_trace(path) == traced


def test_each_run_gets_a_new_id_and_read_trace_selects_a_run(tmp_path):
    path = tmp_path / "two.jsonl"
    recorder = TraceRecorder(path)
    for manager in (four_round_manager, three_round_manager):
        Agent(manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    everything = read_trace(path)
    ids = run_ids(path)
    assert len(ids) == 2 and ids[0] != ids[1]
    first, second = read_trace(path, run=1), read_trace(path, run=2)
    assert len(first) == 18 and len(second) == 16 and first + second == everything
    assert read_trace(path, run=ids[1]) == second
    assert {e["run"] for e in second} == {2}
    with pytest.raises(ValueError, match="2 runs"):
        read_trace(path, run=3)
    with pytest.raises(ValueError, match="run_id"):
        read_trace(path, run="not-a-run")


def test_run_ids_are_unique_across_processes(tmp_path):
    path = tmp_path / "shared.jsonl"
    code = f"""
        from mingraph_lite.agents import Agent
        from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, three_round_manager
        from mingraph_lite.course.weather import weather_registry
        from mingraph_lite.observers.trace import TraceRecorder
        Agent(three_round_manager(), weather_registry(), SYSTEM_PROMPT,
              observers=[TraceRecorder({str(path)!r})]).run({{"question": QUESTION}})
        """
    for _ in range(3):
        assert python(code).returncode == 0
    assert len(set(run_ids(path))) == 3
    assert len(read_trace(path)) == 3 * 16


def test_a_process_killed_mid_run_leaves_every_line_before_the_kill(tmp_path):
    path = tmp_path / "killed.jsonl"
    code = f"""
        import os, signal
        from mingraph_lite.agents import Agent
        from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
        from mingraph_lite.course.weather import weather_registry
        from mingraph_lite.observers.trace import TraceRecorder

        class Killer:
            seen = 0
            def __getattr__(self, hook):
                def die(*args):
                    Killer.seen += 1
                    if Killer.seen == 11:  # mid-run: step 2 is done, step 3 is about to start
                        os.kill(os.getpid(), signal.SIGKILL)
                return die

        Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
              observers=[TraceRecorder({str(path)!r}), Killer()]).run({{"question": QUESTION}})
        """
    result = python(code)
    assert result.returncode == -9, result.stderr
    expected = run_into(tmp_path / "whole.jsonl")[:11]
    traced = read_trace(path)
    assert [{k: v for k, v in e.items() if k not in ("v", "run_id", "ts", "seq")} for e in traced] == expected
    assert traced[-1]["event"] == "tool_return" and traced[-1]["content"] == "64"


@pytest.mark.filterwarnings("ignore::mingraph_lite.observers.trace.TornLineWarning")
def test_a_torn_last_line_is_skipped_wherever_it_was_cut(tmp_path):
    whole = tmp_path / "whole.jsonl"
    run_into(whole)
    data = whole.read_bytes()
    complete = read_trace(whole)
    last_start = data.rindex(b"\n", 0, len(data) - 1) + 1
    assert "°".encode() in data[last_start:]  # the finish line holds a two-byte character to cut through
    torn = tmp_path / "torn.jsonl"
    for cut in range(last_start + 1, len(data) - 1):  # every cut inside the last line, "°" included
        torn.write_bytes(data[:cut])
        trace = read_trace(torn)
        assert trace == complete[:-1] and trace.skipped == (18,), cut
    torn.write_bytes(data[:-1])  # whole line, only the newline lost: still a whole event
    assert read_trace(torn) == complete and read_trace(torn).skipped == ()


def test_a_torn_line_in_the_middle_is_skipped_and_reported(tmp_path):
    path = tmp_path / "bad.jsonl"
    run_into(path)
    whole = read_trace(path)
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3][:20]
    path.write_bytes(b"\n".join(lines))
    with pytest.warns(TornLineWarning, match=r"skipped 1 torn line\(s\) \(line 4\)"):
        trace = read_trace(path)
    assert trace == whole[:3] + whole[4:]  # every whole line, before and after the torn one
    assert trace.skipped == (4,) and trace.path == path
    assert trace.lines == tuple(n for n in range(1, 19) if n != 4)


def test_blank_lines_and_an_empty_file(tmp_path):
    path = tmp_path / "blank.jsonl"
    path.write_text("")
    assert read_trace(path) == []
    events = run_into(path)
    path.write_text(path.read_text(encoding="utf-8").replace("\n", "\n\n"), encoding="utf-8")
    assert len(read_trace(path)) == len(events)


WRITER = """
    import os, sys, time
    from mingraph_lite.messages import ToolMessage
    from mingraph_lite.observers.trace import TraceRecorder
    path, start, index, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    recorder = TraceRecorder(path)
    recorder.on_run_start([])
    while not os.path.exists(start):  # all four begin together
        time.sleep(0.001)
    for i in range(count):
        # Lines far longer than a pipe buffer, so a torn or interleaved write would show.
        recorder.on_tool_return(ToolMessage(str(index) * (20_000 + i), f"w{index}-{i}"))
    """


def test_four_processes_appending_to_one_trace_write_only_whole_lines(tmp_path):
    path, start, count = tmp_path / "shared.jsonl", tmp_path / "go", 80
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(WRITER), str(path), str(start), str(i),
                                 str(count)], env=env, stderr=subprocess.PIPE, text=True) for i in range(4)]
    time.sleep(0.5)
    start.touch()
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    lines = raw.split(b"\n")[:-1]
    assert len(lines) == 4 * (count + 1)
    events = [json.loads(line) for line in lines]  # every line parses: nothing torn, nothing interleaved
    assert events == read_trace(path)
    ids = run_ids(path)
    assert len(ids) == 4
    for run_id in ids:
        mine = [e for e in events if e["run_id"] == run_id]
        assert [e["seq"] for e in mine] == list(range(1, count + 2))  # each writer's lines, all, in order
        returns = mine[1:]
        writer = returns[0]["tool_call_id"].split("-")[0]
        assert [e["tool_call_id"] for e in returns] == [f"{writer}-{i}" for i in range(count)]
        assert all(set(e["content"]) == {writer[1]} and len(e["content"]) == 20_000 + i
                   for i, e in enumerate(returns))


def test_a_step_limit_run_is_traced_to_its_finish(tmp_path):
    from mingraph_lite.course.scripts import looping_manager

    path = tmp_path / "limit.jsonl"
    with pytest.raises(StepLimitReached):
        Agent(looping_manager(), weather_registry(), SYSTEM_PROMPT, observers=[TraceRecorder(path)],
              max_steps=2).run({"question": QUESTION})
    last = read_trace(path)[-1]
    assert (last["event"], last["answer"], last["reason"]) == ("finish", None, "step limit")


def test_a_slip_carrying_nan_is_written_as_standard_json(tmp_path):
    from mingraph_lite.messages import ToolCall

    path = tmp_path / "nan.jsonl"
    recorder = TraceRecorder(path)
    recorder.on_tool_call(ToolCall("t1", "to_fahrenheit", {"celsius": float("nan"), "other": float("inf")}))
    text = path.read_text(encoding="utf-8")
    assert "NaN" not in text and "Infinity" not in text
    [event] = read_trace(path)
    assert event["arguments"] == {"celsius": "nan", "other": "inf"}


# --- what JSON cannot carry, secrets, torn tails, versions, failures --------------------------------

def strict_json(text):
    def refuse(constant):
        raise ValueError(f"non-standard JSON constant {constant}")
    return json.loads(text, parse_constant=refuse)


def test_values_json_cannot_carry_are_written_in_the_documented_safe_form(tmp_path):
    from mingraph_lite.messages import ToolCall

    path = tmp_path / "odd.jsonl"
    recorder = TraceRecorder(path)
    deep = current = []
    for _ in range(5000):
        current.append([])
        current = current[0]
    cycle = {"name": "loop"}
    cycle["self"] = cycle
    arguments = {"lone": "half \ud83d of an emoji", "nan": float("nan"), "cold": -float("inf"), "big": 7 ** 6000,
                 "raw": b"\xff\x00", "deep": deep, "cycle": cycle, "pair": (1, 2), "set": {3}, 5: "int key",
                 "obj": object()}
    recorder.on_tool_call(ToolCall("t1", "to_fahrenheit", arguments))
    [line] = path.read_bytes().split(b"\n")[:-1]
    [event] = read_trace(path)
    assert strict_json(line.decode("utf-8")) == event  # valid UTF-8, standard JSON
    got = event["arguments"]
    assert got["lone"] == "half \ufffd of an emoji" and (got["nan"], got["cold"]) == ("nan", "-inf")
    assert got["big"] == hex(7 ** 6000) and int(got["big"], 16) == 7 ** 6000  # nothing lost
    assert got["raw"] == repr(b"\xff\x00") and got["pair"] == [1, 2] and got["set"] == [3]
    assert got["5"] == "int key" and got["obj"].startswith("<object object at")
    depth, node = 0, got["deep"]
    while isinstance(node, list):
        depth, node = depth + 1, node[0]
    assert node == "<cut: nested deeper than 100 levels>" and depth < 100
    node = got["cycle"]
    while isinstance(node, dict):
        node = node["self"]
    assert node == "<cut: nested deeper than 100 levels>"


def test_an_announcement_event_dict_cannot_read_still_makes_a_line_and_a_warning(tmp_path, caplog):
    class BrokenReply:
        message = "not a message"

        def to_dict(self):
            raise ValueError("a reply that cannot say what it is")

    path = tmp_path / "state.jsonl"
    recorder = TraceRecorder(path)
    state = {"city": "Paris"}
    state["again"] = state  # a state that contains itself
    recorder.on_model_reply(BrokenReply())
    recorder.on_node_start("fetch", state)
    recorder.on_node_end("fetch", {"celsius": 18})
    first, second, third = read_trace(path)
    assert first["event"] == "model_reply" and first["unrecorded"] == "ValueError: a reply that cannot say what it is"
    assert first["args"][0].startswith("<unprintable BrokenReply: ValueError>")
    assert second["event"] == "node_start"  # as an event, or (if event_dict recursed on it) raw
    assert second.get("node", second.get("args", [None])[0]) == "fetch"
    assert third["event"] == "node_end" and third["update"] == {"celsius": 18}
    assert "could not be read as an event" in caplog.text


def test_a_failed_write_is_loud_and_the_next_lines_are_still_written(tmp_path, monkeypatch):
    import mingraph_lite.observers.trace as trace_module

    path = tmp_path / "flaky.jsonl"
    real, calls = trace_module._append, []

    def flaky(target, data):
        calls.append(data)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(target, data)

    monkeypatch.setattr(trace_module, "_append", flaky)
    recorder = TraceRecorder(path)
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    events = read_trace(path)
    assert len(events) == 17 and recorder.unwritten == 1 and recorder.announcements == 18
    assert [e["seq"] for e in events] == [1, 2] + list(range(4, 19))  # the gap shows which line is missing
    assert recorder.last_error.strerror == "No space left on device"
    strict = TraceRecorder(tmp_path / "strict.jsonl")
    calls.clear()
    with pytest.raises(OSError, match="No space"):  # an audit log that must not miss a line stops the run
        Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[strict],
              strict=True).run({"question": QUESTION})


def test_an_unwritable_path_fails_when_the_recorder_is_made(tmp_path):
    (tmp_path / "file").write_text("x")
    for bad in (tmp_path, tmp_path / "file" / "under-a-file.jsonl"):
        with pytest.raises(OSError):
            TraceRecorder(bad)


def test_a_key_pasted_into_a_question_is_stored_as_stars(tmp_path, monkeypatch):
    key = "sk-proj-Zx81KqLmN0pQrStUv"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    monkeypatch.setenv("MAX_TOKENS", "18")
    path = tmp_path / "secret.jsonl"
    question = f"My key is {key}, and my proxy is http://me:hunter22@proxy:8080. {QUESTION} (18 max)"
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
          observers=[TraceRecorder(path)]).run({"question": question})
    text = path.read_text(encoding="utf-8")
    assert key not in text and "hunter22" not in text
    first = read_trace(path)[0]["messages"][1]["content"]
    assert first == f"My key is ***, and my proxy is http://***@proxy:8080. {QUESTION} (18 max)"


@pytest.mark.filterwarnings("ignore::mingraph_lite.observers.trace.TornLineWarning")
def test_an_append_after_a_torn_tail_starts_on_a_fresh_line(tmp_path):
    path = tmp_path / "torn.jsonl"
    run_into(path)
    data = path.read_bytes()
    path.write_bytes(data[:-25])  # the finish line cut short, as by a killed writer
    run_into(path, three_round_manager)
    assert path.read_bytes().count(b"\n") == 17 + 1 + 16  # the torn line ended by the next writer
    with pytest.warns(TornLineWarning, match=r"skipped 1 torn line\(s\) \(line 18\)"):
        trace = read_trace(path)
    assert len(trace) == 17 + 16 and trace.skipped == (18,)
    assert [e["event"] for e in trace[17:]][:1] == ["run_start"] and trace.lines[17] == 19
    ids = run_ids(path)
    assert [len(read_trace(path, run=i)) for i in ids] == [17, 16]


def test_a_line_glued_to_a_torn_one_is_skipped_and_every_other_line_read(tmp_path):
    path = tmp_path / "glued.jsonl"  # the writer starts on a fresh line after a torn tail: only a foreign one glues
    run_into(path)
    lines = path.read_bytes().split(b"\n")[:-1]
    path.write_bytes(b"\n".join(lines[:5] + [lines[5][:40] + lines[6]] + lines[7:]) + b"\n")
    with pytest.warns(TornLineWarning, match=r"skipped 1 torn line\(s\) \(line 6\)"):
        trace = read_trace(path)
    whole = [json.loads(line) for line in lines]
    assert trace == whole[:5] + whole[7:] and trace.skipped == (6,) and trace.lines[5] == 7


@pytest.mark.parametrize("version", [2, 0, "1", None, True])
def test_another_format_version_is_a_clear_error(tmp_path, version):
    from mingraph_lite import ReplayError

    path = tmp_path / "future.jsonl"
    run_into(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[4] = json.dumps({**json.loads(lines[4]), "v": version})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReplayError, match=rf"future.jsonl, line 5: trace format version {version!r}.*reads version 1"):
        read_trace(path)


def test_a_file_that_is_not_a_trace_is_an_error_and_a_lone_torn_line_is_an_empty_trace(tmp_path):
    from mingraph_lite import ReplayError

    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n- eggs\n")
    with pytest.raises(ReplayError, match="notes.txt is not a trace.*line 1"):
        read_trace(notes)
    first = tmp_path / "first.jsonl"
    first.write_bytes(b'{"v": 1, "run_id": "ab')  # the very first line, cut
    with pytest.warns(TornLineWarning):
        trace = read_trace(first)
    assert trace == [] and trace.skipped == (1,)


def test_pick_run_is_one_rule_for_traces_and_recorded_events(tmp_path):
    from mingraph_lite.observers.trace import pick_run

    path = tmp_path / "runs.jsonl"
    recorder, events = TraceRecorder(path), EventRecorder()
    for manager in (four_round_manager, three_round_manager, four_round_manager):
        Agent(manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder, events]).run(
            {"question": QUESTION})
    trace = read_trace(path)
    ids = run_ids(path)
    sizes = {None: 18, 1: 18, 2: 16, 3: 18, -1: 18, -2: 16, -3: 18, ids[1]: 16}
    for run, size in sizes.items():
        assert len(pick_run(trace, run)) == size
        if run is not None:  # read_trace without run= keeps every run
            assert len(read_trace(path, run=run)) == size
        if not isinstance(run, str):
            assert len(pick_run(events, run)) == size  # an EventRecorder numbers its runs instead
    assert pick_run(trace, 2) == read_trace(path, run=ids[1])
    interleaved = [e for pair in zip(pick_run(trace, 1), pick_run(trace, 2), strict=False) for e in pair]
    assert pick_run(interleaved, 1) == pick_run(trace, 1)[:16]  # runs interleaved by two writers stay apart
    for bad in (0, 4, -4, True, 1.0):
        with pytest.raises(ValueError, match="3 runs.*out of range: give 1..3, -1 for the last, or a run_id"):
            pick_run(trace, bad)
    with pytest.raises(ValueError, match="no run with run_id 'nope'"):
        pick_run(trace, "nope")
    with pytest.raises(ValueError, match="no runs"):
        pick_run([], None)


def test_a_run_inside_a_run_keeps_its_own_id_and_the_outer_run_resumes_after_it(tmp_path):
    """An agent run inside a graph node, both heard by one trace: each event belongs to the run that made it."""
    from typing import TypedDict

    from mingraph_lite import EventRecorder
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, three_round_manager
    from mingraph_lite.course.weather import weather_registry
    from mingraph_lite.graph import END, START, StateGraph

    class S(TypedDict, total=False):
        answer: str

    trace, recorder = TraceRecorder(tmp_path / "t.jsonl"), EventRecorder()
    listeners = [trace, recorder]

    def ask(state):
        agent = Agent(three_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=listeners)
        return {"answer": agent.run({"question": QUESTION})["answer"]}

    graph = (StateGraph(S).add_node("ask", ask).add_node("after", lambda s: {"answer": s["answer"] + "!"})
             .add_edge(START, "ask").add_edge("ask", "after").add_edge("after", END).compile(observers=listeners))
    graph.invoke({})
    events = read_trace(tmp_path / "t.jsonl")
    outer, inner = run_ids(tmp_path / "t.jsonl")
    by_run = {run: [e["event"] for e in events if e["run_id"] == run] for run in (outer, inner)}
    assert by_run[outer][0] == "run_start" and by_run[outer][-1] == "finish"
    assert by_run[outer].count("node_end") == 2  # "ask" ends after its agent finished, and still counts as the graph's
    assert by_run[inner][0] == "run_start" and by_run[inner][-1] == "finish" and "node_end" not in by_run[inner]
    assert [e["run"] for e in recorder.events if e["event"] == "node_end"] == [1, 1]
