"""Checkers for notebook 03's 03.4 (a timeout goes back to the model) and its questions, each compared with a run.

They live apart from ``nb03.py``'s code exercises to keep each module short; they reuse its helpers.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from mingraph_lite.agents import Agent
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage
from mingraph_lite.course.weather import weather_registry
from . import Hint, NotDone, exercise
from mingraph_lite.errors import ToolArgsError
from mingraph_lite.messages import ToolCall
from mingraph_lite.tools import ToolRegistry
from .nb03 import ScriptedHuman, _Desk, _walk


# --- 03.4: a timeout goes back to the model ----------------------------------------------------------


def _forecasts() -> ToolRegistry:
    registry = ToolRegistry()

    @registry.add
    def get_forecast(city: str, days: int) -> str:
        """Get the weather forecast for a city (Lima's service is slow today, Oslo's is down).

        Args:
            city: The city name.
            days: How many days ahead, 1 to 7.
        """
        if city == "Lima":
            raise TimeoutError("forecast service did not answer in 30 s")
        if city == "Oslo":
            raise ConnectionError("forecast service down")
        return f"{city}: sunny for {days} days"

    @registry.add
    def read_file(path: str) -> str:
        """Read a text file of the team's notes (this check's notes folder is locked).

        Args:
            path: The file's path.
        """
        raise PermissionError(f"[Errno 13] Permission denied: {path!r}")

    return registry


def _slip(i: int, what: str) -> ToolCall:
    """A slip from a word: a notes path reads a file, "bad" is a forecast filled in wrong, else a city's forecast."""
    if what.startswith("notes/"):
        return ToolCall(f"p{i}", "read_file", {"path": what})
    return ToolCall(f"p{i}", "get_forecast", {"city": "Rome", "days": "three"} if what == "bad" else
                    {"city": what, "days": 3})


#: One reply's slips each: a timeout and a bad slip the run goes on after, then a tool down and a file refused.
PATIENT_CASES = (("Paris", "Lima", "Quito"), ("bad", "Lima", "Paris"), ("Paris", "Oslo", "Quito"),
                 ("Lima", "notes/payroll.txt", "Paris"))

_SAYS = {"ran": "the slips after a bad slip or a timeout still run: each stops only its own slip",
         "timed out": "answer a timed-out slip with an answer slip marked is_error=True that says it timed out",
         "to fix": "a bad slip is answered with what to fix (the ToolArgsError's text), marked is_error=True",
         "failed": "the failing slip's answer slip says what failed (the exception's text), marked is_error=True",
         "not run": "after a failure that goes up, the later slips are not run: answer each as not run, marked "
                    "is_error=True"}


def _expected(slips: tuple[ToolCall, ...]) -> tuple[list[tuple[str, str]], BaseException | None]:
    """(kind, a text its answer slip must hold) for each slip, and the tool's exception that goes up, if any."""
    kinds: list[tuple[str, str]] = []
    up: BaseException | None = None
    for slip in slips:
        if up is not None:
            kinds.append(("not run", ""))
            continue
        try:
            kinds.append(("ran", _forecasts().run(slip).content))
        except TimeoutError:
            kinds.append(("timed out", "timed out"))
        except ToolArgsError as e:
            kinds.append(("to fix", str(e)))
        except Exception as e:
            kinds.append(("failed", str(e)))
            up = e
    return kinds, up


def _went_up_hint(where: str, raised: BaseException | None, up: BaseException | None, failing: str) -> None:
    """``failing``: what the card answered to the slip whose failure goes up."""
    if raised is not None and up is None:
        if isinstance(raised, TimeoutError):
            raise Hint(f"{where} a timeout went up to the caller: catch TimeoutError and answer the slip; Python "
                       "takes the first `except` that matches, so it must come above `except Exception`")
        raise Hint(f"{where} your card raised {type(raised).__name__}: a bad slip and a timeout both go back to "
                   "the model as answer slips, and the card hands over CallingModel")
    if up is not None and raised is None:
        if "timed out" in failing.lower():
            raise Hint(f"{where} a {type(up).__name__} was answered as a timeout: catch TimeoutError itself; "
                       f"`except OSError` also catches {type(up).__name__}, since both are OSErrors")
        raise Hint(f"{where} a {type(up).__name__} went back to the model: any failure but a bad slip or a "
                   "timeout still goes up to the caller, after every slip is answered")
    if up is not None and not (type(raised) is type(up) and str(raised) == str(up)):
        raise Hint(f"{where} your card raised {type(raised).__name__}: raise the tool's own exception, unchanged "
                   "(a bare `raise`), so the caller sees exactly what failed")


def _folder_hint(where: str, slips: tuple[ToolCall, ...], folder: list[Message], kinds: list) -> None:
    answered = [m for m in folder if isinstance(m, ToolMessage)]
    if {m.tool_call_id for m in answered} != {s.id for s in slips} or len(answered) != len(slips):
        raise Hint(f"{where} the folder holds {len(answered)} answer slips for {len(slips)} slips: every slip of "
                   "the batch gets exactly one, or the folder is invalid for the next run")
    for slip, message, (kind, text) in zip(slips, answered, kinds):
        if message.tool_call_id != slip.id:
            raise Hint(f"{where} the answer slips are not in the order of the slips: answer each in turn")
        if message.is_error != (kind != "ran") or text.lower() not in message.content.lower():
            raise Hint(f"{where} the answer slip to {slip.name}({slip.arguments}) is {message.content!r} "
                       f"(is_error={message.is_error}): {_SAYS[kind]}")


@exercise("03.4", kind="code", title="a timeout goes back to the model")
def check_patient_card(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("hand in the card class itself (PatientRunningTools)")
    for case in PATIENT_CASES:
        slips, where = tuple(_slip(i, what) for i, what in enumerate(case)), f"on a reply with slips {list(case)}"
        desk = SimpleNamespace(llm=None, registry=_forecasts(), max_steps=10, human=None,
                               folder=[SystemMessage("You plan trips."), UserMessage("?"),
                                       AssistantMessage("", tool_calls=slips)])
        card = raised = None
        try:
            card = cls(slips, 4).run(desk)
        except (NotImplementedError, Hint):
            raise
        except Exception as e:
            raised = e
        kinds, up = _expected(slips)
        answers = {m.tool_call_id: m.content for m in desk.folder if isinstance(m, ToolMessage)}
        failing = next((answers.get(s.id, "") for s, (kind, _) in zip(slips, kinds) if kind == "failed"), "")
        _went_up_hint(where, raised, up, failing)
        _folder_hint(where, slips, desk.folder, kinds)
        if up is None and not (type(card).__name__ == "CallingModel" and getattr(card, "step", None) == 5):
            raise Hint(f"{where} your card handed over {card!r}: when the batch is done, hand back "
                       "CallingModel(self.step + 1)")
    return ("a bad slip and a timeout go back to the model, any other failure goes up unchanged, and every slip "
            "of the batch has its answer slip either way")


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
