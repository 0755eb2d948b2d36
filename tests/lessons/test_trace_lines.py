"""Notebook 05's trace printer: lines numbered from 1 as classify numbers them, each event shortened to what a
reader checks, a request's messages tagged by the worked example, and each reply's thinking envelope."""

from __future__ import annotations

from lessons.trace_lines import brief, print_envelopes, print_folder, print_trace
from mingraph_lite import Agent, EventRecorder
from mingraph_lite.course.classify import classify
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, wrong_tokyo_manager
from mingraph_lite.course.weather import weather_registry


def _events() -> list[dict]:
    recorder = EventRecorder()
    Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    return recorder.events


def test_lines_are_numbered_as_classify_numbers_them(capsys):
    events = _events()
    print_trace(events)
    lines = capsys.readouterr().out.splitlines()
    line = classify(events).line
    assert len(lines) == len(events) and lines[0].split() == ["1", "run_start"]
    assert lines[line - 1].startswith(f"{line:>2}  model_reply") and "thinking: 'Paris returned 18" in lines[line - 1]


def test_each_kind_of_event_is_shortened_to_what_a_reader_checks():
    events = _events()
    by_kind = {e["event"]: brief(e) for e in events}
    assert by_kind["tool_call"] == "tool_call     (slip) to_fahrenheit({'celsius': 18})"
    assert by_kind["tool_return"] == "tool_return   (answer slip) to_fahrenheit answered '64'"
    assert by_kind["finish"] == "finish        answered" and by_kind["step_start"] == "step_start"
    assert brief(events[2]).startswith("model_reply   (request) asks for [('get_weather', {'city': 'Paris'})")


def test_a_width_cuts_every_line(capsys):
    print_trace(_events(), width=20)
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) == 24  # the number, two spaces, 20


def test_the_folder_tags_the_worked_example_and_the_envelopes_show_thinking(capsys):
    print_folder([{"role": "user", "content": "hi", "example": "london-oslo"},
                  {"role": "assistant", "content": "", "tool_calls": [{"name": "get_weather",
                                                                       "arguments": {"city": "Oslo"}}]}])
    first, second = capsys.readouterr().out.splitlines()
    assert first.startswith("[example: london-oslo]") and "user" in first and "'hi'" in first
    assert second.startswith("[not an example]") and "get_weather({'city': 'Oslo'})" in second
    print_envelopes(_events())
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and lines[-1].startswith('line 13: reasoning_tokens=None, reasoning="Paris returned 18')


def test_the_key_comes_first_and_names_every_word(capsys):
    from lessons.trace_lines import KEY

    print_trace(_events(), key=True)
    first = capsys.readouterr().out.splitlines()[0]
    assert first == KEY
    for word in ("slip = tool_call", "answer slip = tool_return", "folder", "menu", "envelope", "request"):
        assert word in first


def test_a_live_run_with_no_model_named_runs_nothing(capsys):
    from lessons.trace_lines import print_live_run

    for spec in ("", "scripted", "ollama:"):
        print_live_run(spec)
        assert "no live model named, so nothing runs" in capsys.readouterr().out


def test_the_thinking_is_printed_beside_the_verdict(capsys):
    from lessons.exercises.nb05 import recorded
    from lessons.exercises.nb05_thinking import ARTICLE_LINE
    from lessons.trace_lines import print_thinking_beside
    from mingraph_lite.course.classify import classify
    from mingraph_lite.course.scripts import wrong_tokyo_manager

    events = recorded(wrong_tokyo_manager())
    verdict = classify(events)
    thinking = print_thinking_beside(events[verdict.line - 1], "scripted", verdict.why)
    assert verdict.case == 3 and "Tokyo is already in Fahrenheit" in thinking
    assert "already Fahrenheit temperatures" in print_thinking_beside(dict(ARTICLE_LINE), "the article's", "°F")
    out = capsys.readouterr().out
    assert verdict.why in out and "scripted" in out and "the article's" in out
