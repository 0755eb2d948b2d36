"""Checkers for notebook 03 (state cards).

The checks run the learner's code on runs the notebook never shows: other reply shapes and ceilings,
other unknown cities, a human with other answers, failures of other tools. What is right comes from the
package (``Agent.cards``, ``ToolRegistry``) or from the folder the learner's code leaves behind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from mingraph_lite.agents import Agent
from mingraph_lite.errors import StepLimitReached, ToolArgsError
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.course.weather import WEATHER, lookup, to_fahrenheit, weather_registry
from ..calls import watching
from ..errands import ScriptedHuman  # the notebook's own scripted person at the desk
from . import Hint, exercise
from .nb03_note import has_its_own_note

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


class _Ran(BaseException):  # not an Exception: a learner's `except Exception` must not swallow it
    pass


@contextmanager
def _no_runs() -> Iterator[None]:
    """While the learner's function works, running a scripted manager or the Agent is refused."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise _Ran

    with mock.patch.object(Agent, "run", refuse), mock.patch.object(ScriptedLLM, "generate", refuse):
        yield


def calls_seen(fn: Callable[..., Any], args: tuple, wanted: Callable[[Any], bool]) -> tuple[Any, list[str]]:
    """``fn(*args)``, and the names of the Python functions it called, at any depth, whose code ``wanted`` picks."""
    with watching(lambda frame: wanted(frame.f_code)) as seen:
        return fn(*args), seen


def _runs_a_manager_or_cards(code: Any) -> bool:
    """A model's ``generate``, or anything that takes a desk (a card's ``run``, ``card_loop``)."""
    return code.co_name == "generate" or "desk" in code.co_varnames[:code.co_argcount]


@exercise("03.1", kind="code", title="which cards, in which order")
def check_expected_cards(expected_cards: Any) -> str:
    for replies, ceiling in CARD_SHAPES:
        want = _cards(replies, ceiling)
        try:
            with _no_runs():
                got, ran = calls_seen(expected_cards, (list(replies), ceiling), _runs_a_manager_or_cards)
            if ran:
                raise _Ran
        except _Ran:
            raise Hint("your function runs a manager (a model's generate, even a fake one), the Agent or the cards "
                       "(a card's run(desk), card_loop) and reads the cards off the run: that copies the answer "
                       "instead of predicting it. Work the list out from the replies and the ceiling alone, so you "
                       "can read any trace's cards without running it") from None
        except StepLimitReached:
            raise Hint(f"replies {replies}, max_steps={ceiling}: your function raised StepLimitReached, as the Agent "
                       "does at the ceiling; but it predicts the cards picked up before that, so return the list "
                       "(it still ends with Finished)") from None
        except (IndexError, KeyError, TypeError, ValueError) as e:
            raise Hint(f"replies {replies}, max_steps={ceiling}: your function crashed ({type(e).__name__}: {e}); "
                       "does it handle a ceiling smaller than the replies, and a first reply that is the answer?") from None
        if got is None:
            raise Hint(f"replies {replies}, max_steps={ceiling}: your function returned None: end every way out "
                       "with `return` and the list")
        if list(got) == want:
            continue
        if [str(name).lstrip("_") for name in got] == want:
            raise Hint('write the names without the leading underscore ("CallingModel", "RunningTools", '
                       '"Finished"): the package\'s classes carry one, the names asked for do not')
        if (mine := list(got).count("RunningTools")) < want.count("RunningTools"):
            raise Hint(f"replies {replies}, max_steps={ceiling}: your list stops before the Agent's last model call "
                       f"({mine} RunningTools cards, the run has {want.count('RunningTools')}): the Agent makes "
                       "max_steps model calls; only a CallingModel card *past* max_steps stops (>, not >=)")
        if 0 in replies[:ceiling]:  # the manager answered before the ceiling
            raise Hint(f"replies {replies}, max_steps={ceiling}: each model call is one CallingModel card; "
                       "every reply with slips is followed by one RunningTools card, however many slips it "
                       "holds; the Finished card makes no call and ends the list")
        raise Hint(f"replies {replies}, max_steps={ceiling}: at the step limit one more CallingModel card is "
                   "picked up; it makes no model call, it only hands over Finished")
    return (f"right for {len(CARD_SHAPES)} runs you had not seen, the step limit included: model calls = "
            "CallingModel cards, except the one that meets the ceiling")


# --- 03.2 and 03.3: ask a human when a city is unknown ----------------------------------------------

#: A reply holding a slip filled in wrong: the model's to fix, never a question for a person.
MISWRITTEN = [("get_weather", "Paris"), ("to_fahrenheit", -300)]  # not the notebook's -500


def _lets_a_miswritten_slip_raise(run: Callable[[ScriptedHuman], Any]) -> None:
    """``run(human)`` meets ``MISWRITTEN``: it must raise ToolArgsError and ask nobody."""
    human = ScriptedHuman({})
    try:
        run(human)
        what = "nothing raised"
    except ToolArgsError:
        if not human.asked:
            return
    except (NotImplementedError, Hint):
        raise
    except Exception as e:
        what = f"your code crashed with {type(e).__name__}: {e}"
    raise Hint(f"a reply holding a slip filled in wrong (to_fahrenheit with celsius=-300): "
               f"{f'you asked the human about {human.asked}' if human.asked else what}. Ask the human only about a "
               "get_weather slip whose city knows() refuses, checked before it runs; catching ToolArgsError catches "
               "every slip filled in wrong, which is the model's to fix, not a person's. Let registry.run raise "
               "it, as sticky_note_loop does") from None


def _by_id(messages: list[Message], calls: tuple[ToolCall, ...]) -> list[str]:
    """The answers to ``calls``, found by ticket number (the name on an answer slip may be missing)."""
    answers = {m.tool_call_id: m.content for m in messages if isinstance(m, ToolMessage)}
    return [answers[c.id] for c in calls]


class _Unreadable(Exception):
    """The check's scripted manager could not read the folder the learner's loop built."""


def _reading(reply: Callable[..., Any]) -> Callable[..., Any]:
    def read(messages, tools):
        try:
            return reply(messages, tools)
        except Exception as e:
            raise _Unreadable(f"{type(e).__name__}: {e}") from None

    return read


def _asker(cities: list[str]) -> ScriptedLLM:
    """Asks for every city's weather in one reply, converts every answer, then reports them."""
    state: dict[str, Any] = {}

    @_reading
    def convert(messages, tools):
        state["lookups"] = next(m for m in messages if isinstance(m, AssistantMessage) and m.tool_calls).tool_calls
        return [("to_fahrenheit", {"celsius": float(c)}) for c in _by_id(messages, state["lookups"])]

    @_reading
    def report(messages, tools):
        conversions = [m for m in messages if isinstance(m, AssistantMessage) and m.tool_calls][-1].tool_calls
        found = _by_id(messages, conversions)
        return ", ".join(f"{city}: {f}°F" for city, f in zip(cities, found, strict=True))

    return ScriptedLLM([[("get_weather", {"city": c}) for c in cities], convert, report], name="scripted: asker")


def _folder_hint(messages: list[Message]) -> None:
    asked = [c.id for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls]
    answered = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    if set(answered) - set(asked):
        raise Hint("an answer slip carries a ticket number (tool_call_id) that no slip has: give each answer "
                   "slip, the human's included, the id of the slip it answers (slip.id)")
    if set(asked) - set(answered):
        raise Hint("some slips have no answer slip: the slips after the unknown one in the same reply must "
                   "still run, each answered once")
    if sorted(asked) != sorted(answered):
        raise Hint("a slip has more than one answer slip: every slip needs exactly one")


def _crash_hint(error: Exception, where: str) -> Hint:
    """A crash of the learner's code, turned into its most likely cause."""
    text = f"{type(error).__name__}: {error}"
    if isinstance(error, ToolArgsError):
        return Hint(f"{where}: an unknown city went to get_weather and was refused ({error}); check the city "
                    "before running the slip (knows(city)), and ask the human instead")
    if isinstance(error, KeyError) and "city" in str(error):
        return Hint(f"{where} raised KeyError 'city': only get_weather slips carry a city (to_fahrenheit's "
                    "carry celsius); check slip.name == 'get_weather' before reading slip.arguments['city']")
    if isinstance(error, AttributeError) and "tool_calls" in str(error):
        return Hint(f"{where} read slips off the folder's last message ({text}); once answer slips are in, the "
                    "folder's last message is an answer slip, not the model's reply: keep the slips still to "
                    "run in a variable (or on the card) of their own")
    if isinstance(error, TypeError) and ("positional argument" in str(error) or "AskingHuman" in str(error)):
        return Hint(f"{where} made a card with the wrong fields ({text}): a card is made with all its fields, "
                    "in order: AskingHuman(slip, rest, step) is the unknown slip, the slips after it, the step")
    if isinstance(error, StepLimitReached):
        return Hint(f"{where} never got to the answer ({text}): after the human answers, the slips left must run "
                    "and the loop must go back to the model, which needs every slip answered")
    return Hint(f"{where} crashed with {text}; run it by hand on the Paris and Reykjavik question above and "
                "look at the folder just before the crash")


HUMAN_CASES = ((["Paris", "Reykjavik"], {"Reykjavik": "9"}),
               (["Lima", "Tokyo", "Quito"], {"Lima": "19", "Quito": "14"}),
               (["Oslo", "Cairo"], {}),
               (["Reykjavik", " paris"], {"Reykjavik": "9"}))  # a known city, written as a model might


def _knows(city: str) -> bool:  # the notebook's knows(): case and spaces do not count
    return city.strip().lower() in {name.lower() for name in WEATHER}


def _asked_a_known_city(asked: list[str]) -> None:
    known = [c for c in asked if _knows(c) and c not in WEATHER]  # spelt otherwise than the data
    if known:
        raise Hint(f"you asked the human about {known}, which get_weather knows: use knows(city), which "
                   "ignores case and spaces, not a test of your own such as `city in WEATHER`")


def _expected(cities: list[str], notes: dict[str, str]) -> str:
    celsius = {c: notes.get(c, str(lookup(c)["celsius"]) if _knows(c) else "None") for c in cities}
    return ", ".join(f"{c}: {to_fahrenheit(float(celsius[c]))}°F" for c in cities)


@exercise("03.2", kind="code", title="ask a human, in the sticky-note loop")
def check_sticky_human(loop: Any) -> str:
    for cities, notes in HUMAN_CASES:
        llm, human = _asker(cities), ScriptedHuman(dict(notes))
        crash: Exception | None = None
        try:
            answer = loop(llm, weather_registry(), "Question: " + " and ".join(cities), human, max_steps=6)
        except (NotImplementedError, Hint):
            raise
        except Exception as e:  # judged below: a wrong folder explains most crashes better than the crash
            crash, answer = e, None
        if crash is not None and not isinstance(crash, _Unreadable):
            raise _crash_hint(crash, "your loop") from None  # a crash in the loop's own lines: say where first
        if llm.calls:  # the manager could not read the folder: what is wrong with it says more than its crash
            _folder_hint(llm.calls[-1][0])
        _asked_a_known_city(human.asked)
        if human.asked != [c for c in cities if c in notes]:
            raise Hint(f"cities {cities}: ask the human about exactly the unknown cities, once each "
                       f"(you asked about {human.asked})")
        if crash is not None:
            raise Hint(f"the model could not read the folder your loop built ({crash}): look at the answer "
                       "slips, their ticket numbers and what the human said") from None
        if answer != _expected(cities, notes):
            raise Hint("the human's answer is the answer slip of the get_weather slip it replaces: "
                       "ToolMessage(answer, tool_call_id=slip.id, name=slip.name)")
    script = [[(name, {"city": arg} if name == "get_weather" else {"celsius": arg}) for name, arg in MISWRITTEN]]
    _lets_a_miswritten_slip_raise(lambda human: loop(ScriptedLLM(script + ["done"], name="scripted: miswrites"),
                                                     weather_registry(), "?", human, max_steps=6))
    _at_the_ceiling(loop)
    cities, notes = HUMAN_CASES[0]
    has_its_own_note(loop, lambda spy: loop(_asker(cities), weather_registry(), "?", spy(ScriptedHuman(dict(notes))),
                                            max_steps=6))
    return ("your sticky-note loop asks the human about unknown cities only (a slip filled in wrong still raises), "
            "every slip gets its answer, and a manager that never stops meets the ceiling")


def _at_the_ceiling(loop: Any) -> None:
    """A manager that never stops, max_steps=3: the loop must make 3 model calls and raise StepLimitReached."""
    llm = ScriptedLLM([[("get_weather", {"city": "Tokyo"})]] * 12, name="scripted: never stops")
    try:
        answer = loop(llm, weather_registry(), "Tokyo?", ScriptedHuman({}), max_steps=3)
    except StepLimitReached:
        if len(llm.calls) != 3:
            raise Hint(f"with max_steps=3 your loop called a never-stopping manager {len(llm.calls)} times: "
                       "max_steps counts model calls, so the note turns to \"hung up\" after the third") from None
        return
    except (NotImplementedError, Hint):
        raise
    except Exception as e:
        raise _crash_hint(e, "your loop, with a manager that never stops,") from None
    raise Hint(f"a manager that never stops, max_steps=3: your loop returned {answer!r} after {len(llm.calls)} "
               "model calls instead of raising StepLimitReached; whoever reads the answer slot cannot tell that "
               "from an answer (keep the ending of sticky_note_loop)")


class _Desk:
    def __init__(self, human: ScriptedHuman, slips: list[tuple[str, Any]]) -> None:
        self.llm, self.registry, self.max_steps, self.human = None, weather_registry(), 10, human
        self.slips = tuple(ToolCall(f"t{i}", name, {"city": arg} if name == "get_weather" else {"celsius": arg})
                           for i, (name, arg) in enumerate(slips))
        self.folder: list[Message] = [SystemMessage("You answer."), UserMessage("?"),
                                      AssistantMessage("", tool_calls=self.slips)]


#: One reply's slips (tool, city or celsius) and the human's notes: the unknown cities, and what it says.
CARD_CASES = (([("get_weather", "Paris"), ("get_weather", "Reykjavik")], {"Reykjavik": "9"}),
              ([("get_weather", "Lima"), ("get_weather", "Tokyo"), ("get_weather", "Quito")],
               {"Lima": "19", "Quito": "14"}),
              ([("to_fahrenheit", 10), ("get_weather", "Nairobi"), ("get_weather", "Oslo")], {"Nairobi": "22"}),
              ([("get_weather", "Oslo"), ("get_weather", "Cairo")], {}),
              ([("get_weather", " paris"), ("get_weather", "Reykjavik")], {"Reykjavik": "9"}))


def _walk(cards: tuple[type, type], desk: _Desk, step: int) -> tuple[Any, list[str]]:
    errands, asking = cards
    card, seen, human = errands(desk.slips, step), [], desk.human
    desk.human = lambda city: _asked_on(card, asking) and human(city)  # which card asks? (only AskingHuman may)
    for _ in range(3 * len(desk.slips) + 3):
        seen.append(type(card).__name__)
        if type(card).__name__ == "CallingModel":
            return card, seen
        try:
            card = card.run(desk)
        except (NotImplementedError, Hint):
            raise
        except Exception as e:
            if isinstance(e, ToolArgsError) and type(card) not in (errands, asking):
                raise Hint(f"AskingHuman handed the slips left to {type(card).__name__}, which ran an unknown "
                           "city without checking it: hand back RunningToolsAskingHuman, the card that checks") from None
            raise _crash_hint(e, f"your {type(card).__name__} card") from None
        if card is None:
            raise Hint("the errand cards must end by handing over CallingModel(step + 1), never None")
    raise Hint("your cards hand each other over forever: AskingHuman should hand back the errands card "
               "with only the slips after the one it answered")


def _asked_on(card: Any, asking: type) -> bool:
    if not isinstance(card, asking):
        raise Hint(f"your {type(card).__name__} card called desk.human: ask the human on its own card, AskingHuman, "
                   "not in the errands card (the errands card only hands AskingHuman over; AskingHuman asks)")
    return True


@exercise("03.3", kind="code", title="ask a human, as a card")
def check_card_human(cards: Any) -> str:
    if not isinstance(cards, tuple) or len(cards) != 2 or not all(isinstance(c, type) for c in cards):
        raise Hint("hand in both classes as a pair: (RunningToolsAskingHuman, AskingHuman)")
    for slips, notes in CARD_CASES:
        human = ScriptedHuman(dict(notes))
        desk = _Desk(human, slips)
        last, seen = _walk(cards, desk, step=4)
        if notes and cards[1].__name__ not in seen:
            raise Hint("ask the human on its own card: when a city is unknown, the errands card hands over "
                       "AskingHuman, which asks and hands back")
        _asked_a_known_city(human.asked)
        if human.asked != list(notes):
            raise Hint(f"slips {slips}: ask the human about exactly the unknown cities, once each "
                       f"(you asked about {human.asked})")
        _folder_hint(desk.folder)
        want = [notes.get(slip.arguments.get("city")) or weather_registry().run(slip).content for slip in desk.slips]
        if _by_id(desk.folder, desk.slips) != want:
            raise Hint("the human's answer is the answer slip of the get_weather slip it replaces: "
                       "ToolMessage(answer, tool_call_id=slip.id, name=slip.name)")
        if getattr(last, "step", None) != 5:
            raise Hint(f"the errands ended on CallingModel(step={getattr(last, 'step', None)}), not 5 (they began on step 4): "
                       "AskingHuman hands the same step back, and only the errands card raises it, once, with "
                       "CallingModel(self.step + 1)")
    _lets_a_miswritten_slip_raise(lambda human: _walk_raw(cards, _Desk(human, MISWRITTEN)))
    return ("one new card and one changed card: the human is asked about unknown cities only (a slip filled in "
            "wrong still raises), and nothing else moved")


def _walk_raw(cards: tuple[type, type], desk: _Desk) -> None:
    """The learner's cards on one reply, exceptions left as they are (a bounded walk)."""
    card = cards[0](desk.slips, 4)
    for _ in range(3 * len(desk.slips) + 3):
        if card is None or type(card).__name__ == "CallingModel":
            return
        card = card.run(desk)
