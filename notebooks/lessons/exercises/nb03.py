"""Checkers for notebook 03 (state cards).

The checks run the learner's code on runs the notebook never shows: other reply shapes and ceilings,
other unknown cities, a human with other answers, failures of other tools. What is right comes from the
package (``Agent.cards``, ``ToolRegistry``) or from the folder the learner's code leaves behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.errors import StepLimitReached, ToolArgsError
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.tools import ToolRegistry
from mingraph_lite.course.weather import WEATHER, to_fahrenheit, weather_registry
from . import Hint, NotDone, exercise

# --- 03.1: which cards, in which order ------------------------------------------------------------

CARD_SHAPES = (([1, 0], 10), ([3, 2, 0], 10), ([0], 10), ([1, 1, 1, 1, 1], 2), ([2, 0], 1), ([4, 1, 0], 3))


def _shaped(replies: list[int]) -> ScriptedLLM:
    script: list[Any] = [[("get_weather", {"city": "Oslo"})] * n if n else "done" for n in replies]
    return ScriptedLLM(script + [[("get_weather", {"city": "Oslo"})]] * 5, name="scripted: shaped")


def _cards(replies: list[int], max_steps: int) -> list[str]:
    agent = Agent(_shaped(replies), weather_registry(), "You answer.", max_steps=max_steps)
    try:
        agent.run({"question": "Oslo?"})
    except StepLimitReached:
        pass
    return [card for card, _ in agent.cards]


@exercise("03.1", kind="code", title="which cards, in which order")
def check_expected_cards(expected_cards: Any) -> str:
    for replies, ceiling in CARD_SHAPES:
        want = _cards(replies, ceiling)
        got = expected_cards(list(replies), ceiling)
        if list(got or []) == want:
            continue
        answered = 0 in replies[:ceiling]
        if answered:
            raise Hint(f"replies {replies}, max_steps={ceiling}: each model call is one CallingModel card; "
                       "every reply with slips is followed by one RunningTools card, however many slips it "
                       "holds; the Finished card makes no call and ends the list")
        raise Hint(f"replies {replies}, max_steps={ceiling}: at the step limit one more CallingModel card is "
                   "picked up; it makes no model call, it only hands over Finished")
    return (f"right for {len(CARD_SHAPES)} runs you had not seen, the step limit included: model calls = "
            "CallingModel cards, except the one that meets the ceiling")


# --- 03.2 and 03.3: ask a human when a city is unknown ----------------------------------------------


@dataclass
class ScriptedHuman:
    """Answers with a Celsius reading from its notes, and remembers whom it was asked about."""

    notes: dict[str, str]
    asked: list[str] = field(default_factory=list)

    def __call__(self, city: str) -> str:
        self.asked.append(city)
        return self.notes.get(city, "I don't know that one")


def _by_id(messages: list[Message], calls: tuple[ToolCall, ...]) -> list[str]:
    """The answers to ``calls``, found by ticket number (the name on an answer slip may be missing)."""
    answers = {m.tool_call_id: m.content for m in messages if isinstance(m, ToolMessage)}
    return [answers[c.id] for c in calls]


def _asker(cities: list[str]) -> ScriptedLLM:
    """Asks for every city's weather in one reply, converts every answer, then reports them."""
    state: dict[str, Any] = {}

    def convert(messages, tools):
        state["lookups"] = next(m for m in messages if isinstance(m, AssistantMessage) and m.tool_calls).tool_calls
        return [("to_fahrenheit", {"celsius": float(c)}) for c in _by_id(messages, state["lookups"])]

    def report(messages, tools):
        conversions = [m for m in messages if isinstance(m, AssistantMessage) and m.tool_calls][-1].tool_calls
        found = _by_id(messages, conversions)
        return ", ".join(f"{city}: {f}°F" for city, f in zip(cities, found, strict=True))

    return ScriptedLLM([[("get_weather", {"city": c}) for c in cities], convert, report], name="scripted: asker")


def _folder_hint(messages: list[Message]) -> None:
    asked = [c.id for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls]
    answered = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    if sorted(asked) != sorted(answered):
        raise Hint("every slip needs exactly one answer slip with its ticket number (tool_call_id), the "
                   "human's answer included, and the slips after it in the same reply must still run")


HUMAN_CASES = ((["Paris", "Reykjavik"], {"Reykjavik": "9"}),
               (["Lima", "Tokyo", "Quito"], {"Lima": "19", "Quito": "14"}),
               (["Oslo", "Cairo"], {}))


def _expected(cities: list[str], notes: dict[str, str]) -> str:
    celsius = {c: notes.get(c, str(WEATHER.get(c, {}).get("celsius"))) for c in cities}
    return ", ".join(f"{c}: {to_fahrenheit(float(celsius[c]))}°F" for c in cities)


@exercise("03.2", kind="code", title="ask a human, in the sticky-note loop")
def check_sticky_human(loop: Any) -> str:
    for cities, notes in HUMAN_CASES:
        llm, human = _asker(cities), ScriptedHuman(dict(notes))
        crash: Exception | None = None
        try:
            answer = loop(llm, weather_registry(), "Question: " + " and ".join(cities), human, max_steps=6)
        except ToolArgsError:
            raise Hint("an unknown city went to get_weather and failed: check the city before running the "
                       "slip (knows(city)), and ask the human instead") from None
        except (NotImplementedError, Hint):
            raise
        except Exception as e:  # judged below: a wrong folder explains most crashes better than the crash
            crash, answer = e, None
        if llm.calls:
            _folder_hint(llm.calls[-1][0])
        if human.asked != [c for c in cities if c in notes]:
            raise Hint(f"cities {cities}: ask the human about exactly the unknown cities, once each "
                       f"(you asked about {human.asked})")
        if crash is not None:
            raise crash
        if answer != _expected(cities, notes):
            raise Hint("the human's answer is the answer slip of the get_weather slip it replaces: "
                       "ToolMessage(answer, tool_call_id=slip.id, name=slip.name)")
    return "your sticky-note loop asks the human about unknown cities only, and every slip gets its answer"


class _Desk:
    def __init__(self, human: ScriptedHuman, cities: list[str]) -> None:
        self.llm, self.registry, self.max_steps, self.human = None, weather_registry(), 10, human
        self.slips = tuple(ToolCall(f"t{i}", "get_weather", {"city": c}) for i, c in enumerate(cities))
        self.folder: list[Message] = [SystemMessage("You answer."), UserMessage("?"),
                                      AssistantMessage("", tool_calls=self.slips)]


def _walk(errands: Any, desk: _Desk, step: int) -> tuple[Any, list[str]]:
    card, seen = errands(desk.slips, step), []
    for _ in range(3 * len(desk.slips) + 3):
        seen.append(type(card).__name__)
        if type(card).__name__ == "Waiting":
            return card, seen
        card = card.run(desk)
        if card is None:
            raise Hint("the errand cards must end by handing over Waiting(step + 1), never None")
    raise Hint("your cards hand each other over forever: AskingHuman should hand back the errands card "
               "with only the slips after the one it answered")


@exercise("03.3", kind="code", title="ask a human, as a card")
def check_card_human(cards: Any) -> str:
    if not isinstance(cards, tuple) or len(cards) != 2:
        raise Hint("hand in both classes as a pair: (ErrandsAskingHuman, AskingHuman)")
    errands, asking = cards
    for cities, notes in HUMAN_CASES:
        human = ScriptedHuman(dict(notes))
        desk = _Desk(human, cities)
        last, seen = _walk(errands, desk, step=4)
        if notes and asking.__name__ not in seen:
            raise Hint("ask the human on its own card: when a city is unknown, the errands card hands over "
                       "AskingHuman, which asks and hands back")
        if human.asked != [c for c in cities if c in notes]:
            raise Hint(f"cities {cities}: ask the human about exactly the unknown cities, once each "
                       f"(you asked about {human.asked})")
        _folder_hint(desk.folder)
        got = _by_id(desk.folder, desk.slips)
        want = [notes.get(c) or str(WEATHER[c]["celsius"]) for c in cities]
        if got != want:
            raise Hint("the human's answer is the answer slip of the get_weather slip it replaces: "
                       "ToolMessage(answer, tool_call_id=slip.id, name=slip.name)")
        if getattr(last, "step", None) != 5:
            raise Hint("after the last slip, hand over Waiting(self.step + 1): the step belongs to the cards")
    return "one new card and one changed card: the human is asked about unknown cities only, and nothing else moved"


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
        raise TimeoutError("forecast service did not answer")

    return registry


FIX_CASES = {
    "get_forecast with days='three'": (_down, ToolCall("x1", "get_forecast", {"city": "Oslo", "days": "three"})),
    "get_forecast for Oslo, 3 days, service down": (_down, ToolCall("x2", "get_forecast", {"city": "Oslo", "days": 3})),
    "to_fahrenheit with celsius=-400": (weather_registry, ToolCall("x3", "to_fahrenheit", {"celsius": -400})),
    "a tool called get_humidity": (weather_registry, ToolCall("x4", "get_humidity", {"city": "Oslo"})),
}


def who_fixes(registry: ToolRegistry, call: ToolCall) -> str:
    try:
        registry.run(call)
    except ToolArgsError:
        return "model"
    except Exception:
        return "caller"
    return "nobody: it worked"


@exercise("03.4", kind="reasoning", title="who can fix it?")
def check_who_fixes(answer: Any) -> str:
    if isinstance(answer, dict) and all(guess is ... for guess in answer.values()):
        raise NotDone("every case still holds ...")
    if not isinstance(answer, dict) or set(answer) != set(FIX_CASES):
        raise Hint("keep the four cases of the exercise cell as the keys, and fill in each value")
    open_cases = [case for case, guess in answer.items() if guess not in ("model", "caller")]
    if open_cases:
        raise Hint(f"answer each case with 'model' or 'caller' (still open: {open_cases[0]})")
    for case, (menu, call) in FIX_CASES.items():
        if answer[case] != who_fixes(menu(), call):
            raise Hint(f"{case}: could a better slip fix it? If yes, the model can; if no slip could, the "
                       "caller must hear about it")
    return "right: a slip the model can correct goes back to it; a tool that fails goes up to the caller"
