"""Claims notebook 03 makes in prose, checked here so the notebook stays within its time (issue 21: pacing)."""

from __future__ import annotations

from mingraph_lite import Agent, StepLimitReached
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, looping_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry


def _cards(llm, max_steps=10):
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=max_steps)
    try:
        agent.run({"question": QUESTION})
    except StepLimitReached:
        pass
    return [card for card, _ in agent.cards], len(llm.calls)


def test_every_model_call_is_one_calling_model_card_and_the_ceiling_adds_one_that_makes_no_call():
    answered, calls = _cards(three_round_manager())
    assert answered.count("CallingModel") == calls == 3 and answered[-1] == "Finished"
    stopped, calls = _cards(looping_manager(), max_steps=3)
    assert stopped.count("CallingModel") == calls + 1 == 4 and stopped[-1] == "Finished"
