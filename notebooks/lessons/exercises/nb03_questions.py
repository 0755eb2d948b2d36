"""Checkers for notebook 03's reasoning: 03.4 (who can fix it?) and the questions, each compared with a run.

They live apart from ``nb03.py``'s code exercises to keep each module short; they reuse its helpers.
"""

from __future__ import annotations

from typing import Any
from mingraph_lite.agents import Agent
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import Message, ToolMessage, UserMessage
from mingraph_lite.course.weather import weather_registry
from . import Hint, NotDone, exercise
from mingraph_lite.errors import ToolArgsError
from mingraph_lite.messages import ToolCall
from mingraph_lite.tools import ToolRegistry
from .nb03 import ScriptedHuman, _Desk, _walk


# --- 03.4: who can fix it? -------------------------------------------------------------------------


def _down() -> ToolRegistry:
    registry = ToolRegistry()

    @registry.add
    def get_forecast(city: str, days: int) -> str:
        """Get the weather forecast for a city (the forecast service is down in this check).

        Args:
            city: The city name.
            days: How many days ahead, 1 to 7.
        """
        if city == "Lima":
            raise TimeoutError("forecast service did not answer in 30 s")
        raise ConnectionError("forecast service down")

    @registry.add
    def read_file(path: str) -> str:
        """Read a text file of the team's notes (this check's notes folder is locked).

        Args:
            path: The file's path.
        """
        raise PermissionError(f"[Errno 13] Permission denied: {path!r}")

    return registry


FIX_CASES = {
    "get_forecast with days='three'": (_down, ToolCall("x1", "get_forecast", {"city": "Oslo", "days": "three"})),
    "get_forecast for Oslo, 3 days, service down": (_down, ToolCall("x2", "get_forecast", {"city": "Oslo", "days": 3})),
    "to_fahrenheit with celsius=-400": (weather_registry, ToolCall("x3", "to_fahrenheit", {"celsius": -400})),
    "a tool called get_humidity": (weather_registry, ToolCall("x4", "get_humidity", {"city": "Oslo"})),
    "get_forecast for Lima, 2 days, no answer in 30 s": (_down, ToolCall("x5", "get_forecast",
                                                                          {"city": "Lima", "days": 2})),
    "read_file of a file it may not read": (_down, ToolCall("x6", "read_file", {"path": "notes/payroll.txt"})),
    "get_weather with no city": (weather_registry, ToolCall("x7", "get_weather", {})),
}


def who_fixes(registry: ToolRegistry, call: ToolCall) -> str:
    try:
        registry.run(call)
    except ToolArgsError:
        return "model"
    except Exception:
        return "caller"
    return "nobody: it worked"


_WHY = {"model": "At least one case you gave to the model is one no slip could fix: the slip is right as written "
                  "and the tool itself fails, so a corrected slip would fail the same way; the caller must hear.",
        "caller": "At least one case you sent up to the caller is a slip the registry refuses before any tool "
                  "work is done (a wrong type, a value outside what the tool accepts, a name not on the menu): "
                  "a ToolArgsError, which the model can answer with another slip."}


@exercise("03.4", kind="reasoning", title="who can fix it?")
def check_who_fixes(answer: Any) -> str:
    if isinstance(answer, dict) and all(guess is ... for guess in answer.values()):
        raise NotDone("every case still holds ...")
    if not isinstance(answer, dict) or set(answer) != set(FIX_CASES):
        raise Hint("keep the cases of the exercise cell as the keys, and fill in each value")
    open_cases = [case for case, guess in answer.items() if guess not in ("model", "caller")]
    if open_cases:
        raise Hint(f"answer each case with 'model' or 'caller' (still open: {open_cases[0]})")
    wrong = {answer[case] for case, (menu, call) in FIX_CASES.items() if answer[case] != who_fixes(menu(), call)}
    if wrong:  # which way the reasoning slipped, never which case: four yes/no answers are too easy to guess
        raise Hint(" ".join(_WHY[side] for side in sorted(wrong, reverse=True)))
    return "right: a slip the model can correct goes back to it; a tool that fails goes up to the caller"


@exercise("03.Q1", kind="reasoning", title="cards between two model calls, with a human to ask")
def check_cards_with_a_human(answer: Any) -> str:
    from ..reference import reference  # the notebook's own cards: the question is about them, not the learner's

    desk = _Desk(ScriptedHuman({"Reykjavik": "9", "Quito": "14"}),
                 [("get_weather", "Paris"), ("get_weather", "Reykjavik"), ("get_weather", "Quito")])
    _, seen = _walk(reference("03.3"), desk, step=1)
    between = seen[:-1]  # the last one is the next CallingModel
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
    if answer not in ("a", "b", "c"):
        raise Hint("answer with one letter: 'a', 'b' or 'c'")
    calls = _frozen_step_calls(bound=50)
    truth = "b" if calls == 50 else ("a" if calls < 3 else "c")
    if answer != truth:
        raise Hint("follow the step number: CallingModel compares it with max_steps, and only RunningTools ever raises "
                   "it; with CallingModel(self.step) nothing raises it, so the ceiling is never met "
                   f"(a never-stopping manager was still being called after {calls} calls)")
    return f"right: the check stopped a never-stopping manager after {calls} calls; the ceiling never came"


def _flaky_first_of_three() -> tuple[int, int]:
    registry = weather_registry()

    @registry.add
    def get_humidity(city: str) -> str:
        """Get the humidity for a city (its service is down in this check).

        Args:
            city: The city name.
        """
        raise ConnectionError("humidity service down")

    agent = Agent(ScriptedLLM([[("get_humidity", {"city": "Oslo"}), ("get_weather", {"city": "Oslo"}),
                                ("to_fahrenheit", {"celsius": 7})]], name="scripted: one failing tool"),
                  registry, "You answer.")
    try:
        agent.run({"question": "Oslo?"})
    except ConnectionError:
        pass
    answers = [m for m in agent.memory.messages() if isinstance(m, ToolMessage)]
    return len(answers), sum(m.is_error for m in answers)


@exercise("03.Q3", kind="reasoning", title="a tool fails first of three")
def check_first_of_three(answer: Any) -> str:
    if isinstance(answer, dict) and all(value is ... for value in answer.values()):
        raise NotDone("both numbers are still ...")
    slips, errors = _flaky_first_of_three()
    if not isinstance(answer, dict) or set(answer) != {"answer slips", "marked is_error"}:
        raise Hint('keep the two keys, "answer slips" and "marked is_error", and fill in a number for each')
    if answer["answer slips"] != slips:
        raise Hint("count the answer slips for every slip of the reply: the agent leaves none of them open, "
                   "whether it ran, failed or never ran")
    if answer["marked is_error"] != errors:
        raise Hint("the failing tool's slip is an error, and so is each slip after it: they were not run, "
                   "and their answer says so")
    return f"right: {slips} answer slips, {errors} of them errors; the folder is still a valid conversation"
