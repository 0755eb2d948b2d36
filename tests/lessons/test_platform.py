"""Notebook 04's helpers: warnings caught as short lines, the platform drawn from the listeners' classes."""

from __future__ import annotations

import logging
import time

import pytest

from lessons.platform import (
    call_waits,
    draw_platform,
    heard_hooks,
    listener_warnings,
    show_events,
    show_hooks,
    show_waits,
)
from lessons.predict import ending, reveal
from mingraph_lite import Agent, ConsoleLogger, EventRecorder, Observer
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry


class Broken(Observer):
    def on_tool_call(self, call):
        raise RuntimeError("broken")


class Returns(Observer):
    def on_tool_return(self, result):
        pass


def test_listener_warnings_are_short_lines_and_the_logger_is_restored(capsys):
    log = logging.getLogger("mingraph_lite.observers.announce")
    before = (list(log.handlers), log.propagate)
    with listener_warnings() as warned:
        Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[Broken()]).run(
            {"question": QUESTION})
    assert warned == ["Broken failed in on_tool_call, skipped"] * 4  # one per slip of the four-round run
    assert (list(log.handlers), log.propagate) == before
    assert "Traceback" not in capsys.readouterr().err


def test_heard_hooks_are_the_overridden_announcements():
    assert heard_hooks(Returns()) == ["on_tool_return"]
    assert heard_hooks(Observer()) == []
    assert len(heard_hooks(EventRecorder())) == 8  # it records everything an agent announces
    assert "on_run_start" not in heard_hooks(ConsoleLogger())


def test_draw_platform_draws_one_arrow_per_overridden_announcement():
    pytest.importorskip("matplotlib")
    fig = draw_platform([Returns(), EventRecorder(), Broken()], broken=[])
    ax = fig.axes[0]
    arrows = [a for a in ax.texts if getattr(a, "arrow_patch", None) is not None]
    assert len(arrows) == 1 + 8 + 1
    labels = {t.get_text() for t in ax.texts}
    assert {"Returns", "EventRecorder", "Broken", "hears 1 of 8 announcements"} <= labels


def test_reveal_says_not_written_yet_for_the_stub(capsys):
    reveal(..., 4, "errands")
    reveal(4, 4, "errands")
    reveal(3, 4, "errands")
    out = capsys.readouterr().out.splitlines()
    assert out == ["your guess: (not written yet) | errands: 4", "your guess: 4 | errands: 4 | right",
                   "your guess: 3 | errands: 4 | not this time"]


def test_a_gated_reveal_shows_the_run_only_after_a_right_guess(capsys):
    for guess in (..., 3, 4):
        reveal(guess, 4, "errands", gated=True)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "your guess: (not written yet) | errands: shown once your guess is right"
    assert lines[1] == "your guess: 3 | not this time | errands: shown once your guess is right"
    assert lines[2] == "your guess: 4 | errands: 4 | right"


def test_a_wrong_guess_gets_the_hint_and_a_right_or_unwritten_one_does_not(capsys):
    for guess in (..., 3, 4):
        reveal(guess, 4, "errands", gated=True, hint="count the slips")
    reveal(3, 4, "errands", hint="count the slips")
    lines = capsys.readouterr().out.splitlines()
    assert lines.count("hint: count the slips") == 2 and lines[2] == "hint: count the slips"
    assert lines[1].startswith("your guess: 3") and lines[3] == "your guess: 4 | errands: 4 | right"


def test_reveal_prints_sets_in_one_order(capsys):
    reveal({"b", "a"}, {"a", "b"}, "right ones")
    assert capsys.readouterr().out == "your guess: {'a', 'b'} | right ones: {'a', 'b'} | right\n"


def test_a_warning_without_arguments_is_shown_by_its_text():
    log = logging.getLogger("mingraph_lite.observers.announce")
    with listener_warnings() as warned:
        log.warning("listener <redacted> failed in on_finish; skipped")
    assert warned == ["listener <redacted> failed in on_finish"]


def test_show_events_prints_one_row_per_event_with_its_detail(capsys):
    recorder = EventRecorder()
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    show_events(recorder.events)
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 1 + len(recorder.events)  # a header, then one row per event
    assert "get_weather {'city': 'Paris'}" in rows[4] and "answered: 'Paris: 64°F, Tokyo: 75°F'" in rows[-1]


def test_show_hooks_prints_every_hook_with_its_arguments(capsys):
    show_hooks()
    out = capsys.readouterr().out
    assert "on_tool_error(call: ToolCall, error: BaseException) -> None" in out and "self" not in out
    assert "ToolMessage(content, tool_call_id, name, is_error)" in out
    assert "AssistantMessage(content, tool_calls)" in out


def test_recorded_outcome_finds_the_trace_row_in_results_csv():
    from pathlib import Path

    from lessons.platform import recorded_outcome

    trace = Path(__file__).parents[2] / "data/experiments/finish-right/gemma3-270m/traces/worked-example-10.jsonl"
    row = recorded_outcome(trace)
    assert row["index"] == "10" and row["variant"] == "worked example" and row["outcome"] == "wrong final reasoning"


def test_slow_manager_waits_before_each_reply_and_answers_as_its_script():
    from lessons.platform import SlowManager
    from mingraph_lite.course.scripts import three_round_manager

    slow, plain = SlowManager(three_round_manager(), 0.05), three_round_manager()
    start = time.perf_counter()
    reply = slow.generate([], [])
    assert time.perf_counter() - start >= 0.05
    assert reply.message.to_dict() == plain.generate([], []).message.to_dict()


def test_call_waits_measures_each_model_reply_and_tool_return_from_the_line_before():
    def line(event, second):
        return {"event": event, "ts": f"2026-01-01T00:00:{second:06.3f}+00:00"}

    events = [line("step_start", 0), line("model_reply", 2.5), line("tool_call", 2.5), line("tool_return", 2.504),
              line("step_start", 3), line("model_reply", 4), line("finish", 4)]
    model, tools = call_waits(events)
    assert model == [2.5, 1.0] and [round(t, 3) for t in tools] == [0.004]


def test_show_waits_prints_the_model_and_the_range_of_its_waits(capsys):
    events = [{"event": "step_start", "ts": "2026-01-01T00:00:00+00:00"},
              {"event": "model_reply", "ts": "2026-01-01T00:00:02.5+00:00", "model": "m"},
              {"event": "tool_return", "ts": "2026-01-01T00:00:02.504+00:00"},
              {"event": "model_reply", "ts": "2026-01-01T00:00:04+00:00", "model": "m"}]
    assert show_waits(events) == call_waits(events)
    assert capsys.readouterr().out.startswith("model: m | model calls: 2, each took 1.5 s to 2.5 s; tool calls: 1,")


def test_ending_names_an_answer_or_the_exception_raised():
    assert ending(divmod, 7, 2) == "answer"
    assert ending(divmod, 7, 0) == "ZeroDivisionError"
    assert ending(int, "7", base=8) == "answer" and ending(int, "9", base=8) == "ValueError"
