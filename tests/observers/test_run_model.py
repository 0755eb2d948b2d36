"""RunModel: one run folded from its events, the same whether they come live or from a trace."""

from __future__ import annotations

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.run_model import Card, MessageRow, RunModel


@pytest.fixture
def events():
    recorder = EventRecorder()
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    return recorder.events


def test_messages_grow_and_cards_flip(events):
    model = RunModel.of(events)
    assert [row.role for row in model.rows[:3]] == ["system", "user", "assistant"]
    assert [card.kind for card in model.cards] == ["calling-model", "running-tools"] * 3 + ["calling-model",
                                                                                          "finished"]
    counts = [card.message_count for card in model.cards]
    assert counts == sorted(counts) and model.sizes == sorted(model.sizes) and len(model.sizes) == len(events)
    assert model.status == "finished (answered)" and model.finish == ("Paris: 64°F, Tokyo: 75°F", "answered")


def test_each_tool_message_is_found_by_the_call_it_answers(events):
    model = RunModel.of(events)
    first_calls = model.rows[2].tool_calls
    answers = model.answers()
    assert [answers[call["id"]].content for call in first_calls] == ["18", "24"]
    assert answers[first_calls[0]["id"]] == MessageRow("tool", "18", tool_call_id="call_1_1", name="get_weather")


def test_a_new_run_start_starts_afresh(events):
    model = RunModel.of(events + events)
    assert len(model.cards) == len(RunModel.of(events).cards)


def test_a_tool_error_and_a_graph_run():
    model = RunModel.of([
        {"event": "run_start", "messages": [{"role": "user", "content": "q"}]},
        {"event": "node_start", "node": "collect", "step": 1},
        {"event": "step_start", "step": 1},  # inside a graph the nodes are the cards
        {"event": "tool_error", "call": {"name": "get_weather"}, "error_type": "KeyError", "error": "'Mars'"},
        {"event": "finish", "answer": None, "reason": "tool failed", "step": 1},
    ])
    assert model.cards == [Card("node", "collect", 1, 1, 1), Card("finished", "finished (tool failed)", 1, 4, 1)]
    assert model.status == "finished (tool failed): get_weather raised KeyError: 'Mars'"


def test_status_before_anything_happens():
    assert RunModel().status == "waiting to start"
    assert RunModel.of([{"event": "run_start", "messages": [{"role": "user", "content": "q"}]}]).status == "started"
