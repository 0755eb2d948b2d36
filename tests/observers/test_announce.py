"""announce: every listener hears, none can change the run, a broken one is logged and skipped."""

from __future__ import annotations

import logging

import pytest

from mingraph_lite.observers.announce import announce


class Ear:
    def __init__(self):
        self.heard = []

    def on_step_start(self, step):
        self.heard.append(step)


class Broken:
    def on_step_start(self, step):
        raise RuntimeError("listener bug")


def test_every_listener_hears_in_order_and_one_without_the_hook_is_skipped():
    first, second = Ear(), Ear()
    announce([first, object(), second], "on_step_start", 3)
    assert first.heard == [3] and second.heard == [3]


def test_a_broken_listener_is_logged_and_the_others_still_hear(caplog):
    ear = Ear()
    with caplog.at_level(logging.WARNING, logger="mingraph_lite.observers.announce"):
        announce([Broken(), ear], "on_step_start", 1)
    assert ear.heard == [1]
    assert "failed in on_step_start; skipped (pass strict=True to stop the run instead)" in caplog.text
    assert "listener bug" in caplog.text  # the traceback is logged with it


def test_strict_stops_at_the_first_broken_listener():
    ear = Ear()
    with pytest.raises(RuntimeError, match="listener bug"):
        announce([Broken(), ear], "on_step_start", 1, strict=True)
    assert ear.heard == []


def test_a_listener_that_meddles_with_what_it_hears_cannot_change_the_run():
    """A reader moved both lookups to Cairo by editing a slip's arguments in on_tool_call; each listener now hears
    its own copy, so the run, and every other listener, sees what the model wrote."""
    from mingraph_lite import Agent, EventRecorder, Observer
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
    from mingraph_lite.course.weather import weather_registry

    class Meddler(Observer):
        def on_tool_call(self, call):
            call.arguments["city"] = "Cairo"

        def on_model_reply(self, response):
            response.message.tool_calls and response.message.tool_calls[0].arguments.clear()

    recorder = EventRecorder()
    agent = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[Meddler(), recorder])
    assert agent.run({"question": QUESTION}) == {"answer": "Paris: 64°F, Tokyo: 75°F"}
    calls = [e for e in recorder.events if e["event"] == "tool_call" and e["name"] == "get_weather"]
    cities = [e["arguments"]["city"] for e in calls]
    assert cities == ["Paris", "Tokyo"]
