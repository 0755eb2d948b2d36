"""The live views and their snapshots show a run's content with secrets as ***, like traces and the console."""

from __future__ import annotations

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.widgets import CardTimeline, FolderView, LiveRun

KEY = "sk-proj-Zx81KqLmN0pQrStUv"
QUESTION_WITH_SECRETS = f"My key is {KEY} and my proxy http://amy:pa55word-77@proxy:8080. {QUESTION}"


def shown(view) -> str:
    snap = view.snapshot(png=False)
    return "\n".join([view.text(), view.to_html(), snap.text, snap.html, repr(view)])


@pytest.fixture
def secret(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


@pytest.mark.parametrize("kind", [FolderView, CardTimeline, LiveRun])
def test_a_key_in_a_live_run_never_reaches_a_view_or_its_snapshot(secret, kind):
    view = kind(widget=False)
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[view]).run(
        {"question": QUESTION_WITH_SECRETS})
    text = shown(view)
    assert KEY not in text and "pa55word" not in text
    if kind is not CardTimeline:
        assert "My key is *** and my proxy http://***@proxy:8080." in text


def test_a_view_of_recorded_events_and_a_graph_node_are_redacted_too(secret):
    recorder = EventRecorder()  # events as data keep what was said; the view shows it redacted
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run(
        {"question": QUESTION_WITH_SECRETS})
    assert KEY in str(recorder.events)
    assert KEY not in shown(LiveRun.from_events(recorder, widget=False))
    node = [{"event": "node_start", "node": f"call {KEY}", "state": {"key": KEY}},
            {"event": "finish", "answer": KEY, "reason": "done"}]
    timeline = CardTimeline.from_events(node, widget=False)
    assert KEY not in shown(timeline) and "call ***" in timeline.text()


def test_the_widget_itself_draws_redacted_html(secret):
    pytest.importorskip("ipywidgets")
    view = LiveRun(widget=True)
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[view]).run(
        {"question": QUESTION_WITH_SECRETS})
    drawn = view.widget.value
    assert "My key is ***" in drawn and KEY not in drawn and "pa55word" not in drawn
