"""Trace lines that are valid JSON but not what a trace holds: one clear error or warning, never a TypeError."""

from __future__ import annotations

import json
import warnings

import pytest

from mingraph_lite import cli
from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import ReplayError
from mingraph_lite.llms.replay import ReplayLLM
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TornLineWarning, TraceRecorder, pick_run, read_trace, run_ids


def trace_with(path, line_number, **changes):
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
          observers=[TraceRecorder(path)]).run({"question": QUESTION})
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[line_number - 1] = json.dumps({**json.loads(lines[line_number - 1]), **changes})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("bad", [["a", "b"], {"id": 1}, 7, None])
@pytest.mark.parametrize("reader", [
    lambda path: ReplayLLM.from_trace(path),
    lambda path: read_trace(path, run=1),
    lambda path: read_trace(path),
    lambda path: run_ids(read_trace(path)),
])
def test_a_run_id_that_is_not_a_string_is_a_replay_error_naming_file_and_line(tmp_path, bad, reader):
    path = trace_with(tmp_path / "odd.jsonl", 3, run_id=bad)
    with pytest.raises(ReplayError, match=r"odd\.jsonl, line 3: run_id .* is not a string"):
        reader(path)


def test_a_run_number_that_is_not_a_whole_number_is_a_replay_error_too(tmp_path):
    path = trace_with(tmp_path / "odd.jsonl", 2, run=[1])
    with pytest.raises(ReplayError, match=r"odd\.jsonl, line 2: run \[1\] is not a whole number"):
        ReplayLLM.from_trace(path)


def test_recorded_events_with_an_odd_run_id_name_the_event():
    recorder = EventRecorder()
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    recorder.events[4]["run_id"] = {"x": 1}
    with pytest.raises(ReplayError, match=r"event 5: run_id .* is not a string"):
        pick_run(recorder)
    with pytest.raises(ReplayError, match=r"event 5: run_id"):
        ReplayLLM.from_events(recorder)


def test_demo_replaying_such_a_trace_says_one_sentence_and_exits_2(tmp_path, capsys):
    path = trace_with(tmp_path / "odd.jsonl", 3, run_id=["a"])
    assert cli.main(["demo", "--llm", f"replay:{path}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "odd.jsonl, line 3: run_id" in err and "Traceback" not in err


@pytest.mark.parametrize("line", ['[1, 2]', '42', '"text"', 'null', '{"a": 1}'])
def test_valid_json_that_is_not_an_event_is_skipped_and_said_to_be_so(tmp_path, line):
    path = trace_with(tmp_path / "extra.jsonl", 1)
    whole = read_trace(path)
    path.write_text(path.read_text(encoding="utf-8") + line + "\n", encoding="utf-8")
    with pytest.warns(TornLineWarning) as caught:
        trace = read_trace(path)
    assert trace == whole and trace.skipped == (19,)
    said = str(caught[0].message)
    assert "valid JSON that is not a trace event" in said and "line 19" in said
    assert "cut short" not in said


def test_a_torn_line_is_still_said_to_be_cut_short(tmp_path):
    path = trace_with(tmp_path / "torn.jsonl", 1)
    path.write_bytes(path.read_bytes() + b'{"v": 1, "run_id": "ab')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_trace(path)
    said = str(caught[0].message)
    assert "cut short by a writer" in said and "not a trace event" not in said
