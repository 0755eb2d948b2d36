"""Claims notebook 04 makes in prose about what a listener can and cannot do, and about the recorded runs it shows."""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

from mingraph_lite import Agent, Observer, UserMessage
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry

EXPERIMENTS = Path(__file__).resolve().parents[2] / "data" / "experiments"


def _folder(*observers):
    agent = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=list(observers))
    agent.run({"question": QUESTION})
    return [m.to_dict() for m in agent.memory.messages()]


class _Interrupts(Observer):
    def on_tool_call(self, call):
        raise KeyboardInterrupt  # what Ctrl-C raises while a listener runs


def test_a_listener_raising_a_base_exception_stops_the_run():
    with pytest.raises(KeyboardInterrupt):
        _folder(_Interrupts())


def test_a_listener_holding_the_agent_can_change_the_run():
    class ReachesIn(Observer):
        def __init__(self):
            self.agent = None

        def on_step_start(self, step):
            if step == 1:
                self.agent.memory.add(UserMessage("Never mind."))  # not a copy: the agent's own folder

    calm = _folder()
    reaching = ReachesIn()
    agent = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[reaching])
    reaching.agent = agent
    agent.run({"question": QUESTION})
    assert [m.to_dict() for m in agent.memory.messages()] != calm


def test_a_slow_listener_slows_the_run():
    class Slow(Observer):
        def on_step_start(self, step):
            time.sleep(0.05)  # four model calls: four waits, one after another

    start = time.perf_counter()
    _folder(Slow())
    assert time.perf_counter() - start >= 4 * 0.05


def _right(definition):
    with (EXPERIMENTS / definition / "comparison.csv").open(encoding="utf-8") as table:
        return sum(int(row["runs"]) for row in csv.DictReader(table) if row["outcome"] == "right")


def test_no_run_of_finish_right_is_right_and_finish_right_3_has_37():
    assert _right("finish-right") == 0 and _right("finish-right-3") == 37


def test_a_langchain_handler_error_is_logged_unless_raise_error_is_set():
    """04 likens LangChain's BaseCallbackHandler.raise_error to the agent's strict switch."""
    base = pytest.importorskip("langchain_core.callbacks")
    from langchain_core.tools import tool

    @tool
    def double(x: int) -> int:
        """Double a number."""
        return 2 * x

    class Broken(base.BaseCallbackHandler):
        def on_tool_start(self, serialized, input_str, **kwargs):
            raise RuntimeError("this handler is broken")

    assert double.invoke({"x": 2}, config={"callbacks": [Broken()]}) == 4  # logged, the tool still ran
    strict = Broken()
    strict.raise_error = True
    with pytest.raises(RuntimeError):
        double.invoke({"x": 2}, config={"callbacks": [strict]})
