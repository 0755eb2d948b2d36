"""Checkers for notebook 03's questions, each compared with a run.

They live apart from ``nb03.py``'s code exercises to keep each module short; they reuse its helpers.
"""

from __future__ import annotations

from typing import Any
from mingraph_lite.agents import Agent
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import Message, ToolMessage, UserMessage
from mingraph_lite.course.weather import weather_registry
from . import Hint, NotDone, exercise
from .nb03 import ScriptedHuman, _Desk, _walk


@exercise("03.Q1", kind="reasoning", title="cards between two model calls, with a human to ask")
def check_cards_with_a_human(answer: Any) -> str:
    from ..reference import reference  # the notebook's own cards: the question is about them, not the learner's

    desk = _Desk(ScriptedHuman({"Reykjavik": "9", "Quito": "14"}),
                 [("get_weather", "Paris"), ("get_weather", "Reykjavik"), ("get_weather", "Quito")])
    _, seen = _walk(reference("03.3"), desk, step=1)
    between = seen[:-1]  # the last one is the next CallingModel
    if isinstance(answer, float) and answer.is_integer():  # 5.0 is a whole number too (round 20's reader)
        answer = int(answer)
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of cards")
    if answer != len(between):
        raise Hint("follow the slips one card at a time: the errands card runs what it can and hands over "
                   "AskingHuman at an unknown city, which hands back the errands card with only the slips after "
                   "it; count every card until CallingModel, the last errands card (with no slips left) included")
    return f"right: {len(between)} cards, {' -> '.join(between)}"


def _frozen_step_calls(bound: int) -> int:
    """Model calls of a never-stopping manager when the errands card hands back CallingModel(step), not step + 1."""
    llm, max_steps, step = ScriptedLLM([[("get_weather", {"city": "Oslo"})]] * bound), 3, 1
    folder: list[Message] = [UserMessage("Oslo?")]
    while step <= max_steps and len(llm.calls) < bound:  # CallingModel: the ceiling, then a model call
        folder.append(llm.generate(folder, ()).message)
        folder += [ToolMessage("7", c.id, name=c.name) for c in folder[-1].tool_calls]  # RunningTools
        # ...which hands back CallingModel(self.step): `step` is never raised
    return len(llm.calls)


@exercise("03.Q2", kind="reasoning", title="what if RunningTools forgot the + 1?")
def check_frozen_step(answer: Any) -> str:
    answer = answer.strip().lower() if isinstance(answer, str) else answer  # "B" and "b " mean "b"
    if answer not in ("a", "b", "c"):
        raise Hint("answer with one letter: 'a', 'b' or 'c'")
    calls = _frozen_step_calls(bound=50)
    truth = "b" if calls == 50 else ("a" if calls < 3 else "c")
    if answer != truth:
        raise Hint("follow the step number through one round: which card raises it, and which card compares it "
                   "with max_steps? Then picture a manager that never stops answering with slips")
    return f"right: the check stopped a never-stopping manager after {calls} calls; the ceiling never came"


def _flaky_middle_of_three() -> tuple[int, int]:
    registry = weather_registry()

    @registry.add
    def get_humidity(city: str) -> str:
        """Get the humidity for a city (its service is down in this check).

        Args:
            city: The city name.
        """
        raise ConnectionError("humidity service down")

    agent = Agent(ScriptedLLM([[("get_weather", {"city": "Oslo"}), ("get_humidity", {"city": "Oslo"}),
                                ("to_fahrenheit", {"celsius": 7})]], name="scripted: one failing tool"),
                  registry, "You answer.")
    try:
        agent.run({"question": "Oslo?"})
    except ConnectionError:
        pass
    answers = [m for m in agent.memory.messages() if isinstance(m, ToolMessage)]
    return len(answers), sum(m.is_error for m in answers)


@exercise("03.Q3", kind="reasoning", title="a tool fails in the middle of three")
def check_middle_of_three(answer: Any) -> str:
    if isinstance(answer, dict) and all(value is ... for value in answer.values()):
        raise NotDone("both numbers are still ...")
    slips, errors = _flaky_middle_of_three()
    if not isinstance(answer, dict) or set(answer) != {"answer slips", "marked is_error"}:
        raise Hint('keep the two keys, "answer slips" and "marked is_error", and fill in a number for each')
    if answer["answer slips"] != slips:
        raise Hint("count the answer slips for every slip of the reply: the agent leaves none of them open, "
                   "whether it ran, failed or never ran")
    if answer["marked is_error"] > errors:
        raise Hint("the slip before the failing one ran fine: its answer slip is its result, not an error; "
                   "only the failing slip and the slips after it are marked")
    if answer["marked is_error"] != errors:
        raise Hint("the failing tool's slip is an error, and so is each slip after it: they were not run, "
                   "and their answer says so")
    return f"right: {slips} answer slips, {errors} of them errors; the folder is still a valid conversation"
