"""Checkers for notebook 02 (what a run remembers).

The checks run the learner's code on cases the notebook never shows: other agents and prompts, another
menu and other managers, recorded runs it did not replay. What is right comes from the package (``Agent``,
``KeepAll``, the lab's recorded traces), never from numbers written here.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

from mingraph_lite import read_trace
from mingraph_lite.agents import Agent
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.memory import KeepAll
from mingraph_lite.messages import SystemMessage, ToolCall, UserMessage
from mingraph_lite.steps import CallModel, RunTools
from mingraph_lite.tools import ToolRegistry
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, number, results, three_round_manager
from mingraph_lite.course.weather import weather_registry
from . import Hint, exercise
from .package_guard import calls_package

FINISH = Path(__file__).resolve().parents[3] / "data" / "experiments" / "finish-right"
SHOWN = {"smollm2-135m": {"zero-shot-00"}, "gemma3-270m": {"zero-shot-03"}}  # the runs notebook 02 replays

# --- 02.1: the shared mutable default, fixed ------------------------------------------------------


@exercise("02.1", kind="code", title="fix the shared mutable default")
def check_fixed_agent(cls: Any) -> str:
    if not inspect.isclass(cls):
        raise Hint("hand in the class itself (FixedAgent), not an object made from it")
    registry = weather_registry()

    def build_and_run() -> None:
        cls(ScriptedLLM(["hi"]), registry, "You greet.").run("Hello?")

    if calls_package(build_and_run, (Agent.__init__, Agent.run)):
        raise Hint("your agent builds the package's Agent (or runs it), whose default is already fixed: the "
                   "exercise is to fix NaiveAgent's own default, in FixedAgent's __init__")
    one = cls(ScriptedLLM(["one"]), registry, "You are agent one.")  # the stub stops here: "not done"
    if inspect.signature(cls).parameters.get("memory") is None:
        raise Hint("keep the memory parameter: a caller may still hand in their own folder")
    one.run("Hello?")
    two = cls(ScriptedLLM(["two"]), registry, "You are agent two.")
    if two.memory is one.memory or len(two.memory) != 0:
        raise Hint("two agents built without a memory still share one folder: a default in the def line is "
                   "built once, when Python reads the class; build the folder inside __init__")
    if two.memory.messages()[0].content != "You are agent two.":
        raise Hint("build the folder from this agent's own system_prompt")
    mine = KeepAll("A folder the caller made.")
    got = cls(ScriptedLLM([]), registry, "You are agent three.", memory=mine).memory
    if got is not mine:
        if [m.content for m in got.messages()] == [m.content for m in mine.messages()]:
            raise Hint("your agent copies the folder the caller handed in (copy.deepcopy?): use that very object, "
                       "so the caller sees what the run adds to it; only a missing one gets a fresh folder")
        raise Hint("when the caller hands in a memory, use it: only a missing one (`memory is None`) gets a fresh "
                   "folder; a new, empty folder counts as false in `if memory:`")
    return "each agent gets its own folder with its own system prompt, and a folder handed in is used"


# --- 02.2: a loop that keeps its run in one record -------------------------------------------------


def _menu() -> ToolRegistry:
    registry = ToolRegistry()

    @registry.add
    def add(a: int, b: int) -> int:
        """Add two whole numbers.

        Args:
            a: The first number.
            b: The second number.
        """
        return a + b

    return registry


def _adder() -> ScriptedLLM:
    def second(messages, tools):
        return [("add", {"a": number(results(messages, "add")[0]), "b": 4}), ("add", {"a": 1, "b": 1})]

    def final(messages, tools):
        return f"The total is {results(messages, 'add')[-2]}."

    return ScriptedLLM([[("add", {"a": 2, "b": 3}), ("add", {"a": 10, "b": 10})], second, final],
                       name="scripted: adds four times")


def _record(loop: Any, llm: Any, ceiling: int) -> Any:
    ctx = loop(llm, _menu(), "You add numbers with the add tool.", "What is 2 + 3 + 4?", max_steps=ceiling)
    if not all(hasattr(ctx, name) for name in ("messages", "step", "scratch", "answer")):
        raise Hint("return the RunContext of the run (with messages, step, scratch and answer)")
    return ctx


def _check_finished(ctx: Any, llm: ScriptedLLM) -> None:
    head = list(ctx.messages[:2])
    if not (head and isinstance(head[0], SystemMessage) and head[0].content == "You add numbers with the add tool."):
        raise Hint("ctx.messages starts with the system message, SystemMessage(system_prompt): the model reads its "
                   "instructions from the folder each round, and a folder without them never gives them")
    if ctx.answer != "The total is 9.":
        raise Hint("put the model's final text (the reply with no slips) in ctx.answer")
    if ctx.step != len(llm.calls):
        raise Hint(f"ctx.step counts model calls: this run made {len(llm.calls)}, your context says {ctx.step}")
    if ctx.scratch.get("errands") != 4:
        raise Hint('ctx.scratch["errands"] counts the errands run (four in this run: count every slip run)')
    folder = [*llm.calls[-1][0]]
    if list(ctx.messages[: len(folder)]) != folder or len(ctx.messages) != len(folder) + 1:
        raise Hint("ctx.messages is the folder: the system message, the question, every reply and answer slip, "
                   "and the final reply last; the model reads ctx.messages itself each round")


@exercise("02.2", kind="code", title="a loop that keeps its run in one record")
def check_remembering_loop(loop: Any) -> str:
    if calls_package(loop, (Agent.run, CallModel.run, RunTools.run), ScriptedLLM(["ok"]), _menu(), "You add.",
                     "Hi", max_steps=1):
        raise Hint("your loop hands the work to the package's Agent, or to its CallModel and RunTools steps, "
                   "which keeps the folder in its own record: call llm.generate and registry.run yourself and "
                   "keep the run in your RunContext")
    first_llm, second_llm = _adder(), _adder()
    first = _record(loop, first_llm, 5)
    second = _record(loop, second_llm, 5)
    if first is second or first.messages is second.messages or first.scratch is second.scratch:
        raise Hint("two runs share one context (or its messages or scratch): build a new RunContext for every run, "
                   "inside the loop, never once for all of them")
    _check_finished(second, second_llm)
    looping = ScriptedLLM([[("add", {"a": 1, "b": 1})]] * 20, name="scripted: never stops")
    try:
        stuck = _record(loop, looping, 3)
    except StepLimitReached:
        raise Hint("at the ceiling, return the context unfinished (answer None, so done is False) instead of "
                   "raising: the caller sees how far the run got") from None
    if stuck.answer is not None or len(looping.calls) != 3 or stuck.step != 3:
        raise Hint(f"with max_steps=3 your loop made {len(looping.calls)} model calls and left answer="
                   f"{stuck.answer!r}, step={stuck.step}: stop after exactly max_steps calls, and put no answer in")
    if stuck.scratch.get("errands") != 3:
        raise Hint(f'at the ceiling your scratch["errands"] says {stuck.scratch.get("errands")!r} after three '
                   "errands: keep it up to date as each errand runs, so an unfinished run reports it too")
    at_once = _record(loop, ScriptedLLM(["Hello."], name="scripted: answers at once"), 5)
    if at_once.scratch.get("errands") != 0:
        raise Hint(f'a run whose model answers at once ran no errand, and your scratch["errands"] says '
                   f'{at_once.scratch.get("errands", "nothing (no such key)")!r}: start the count at 0 when the '
                   "run starts, so every run reports it")
    return "each run keeps its folder, count, scratch pad and answer in its own record, finished or not"


# --- 02.3: find the made-up number in any run -----------------------------------------------------


def _made_up_step(events: list[dict[str, Any]]) -> int | None:
    """The step of the first to_fahrenheit slip whose number no get_weather of an earlier model call returned."""
    returned: dict[float, int] = {}
    for e in events:
        if e["event"] == "tool_return" and e["name"] == "get_weather":
            for n in re.findall(r"-?\d+(?:\.\d+)?", e["content"]):
                returned.setdefault(float(n), e["step"])
        elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit":
            arguments = e["arguments"] if isinstance(e["arguments"], dict) else {}
            try:
                celsius = float(arguments.get("celsius"))
            except (TypeError, ValueError):
                return e["step"]
            if returned.get(celsius, e["step"]) >= e["step"]:
                return e["step"]
    return None


def _scripted_events(script: list[Any]) -> list[dict[str, Any]]:
    from mingraph_lite import EventRecorder

    recorder = EventRecorder()
    Agent(ScriptedLLM(script, name="scripted"), weather_registry(), SYSTEM_PROMPT, observers=[recorder],
          max_steps=6).run({"question": QUESTION})
    return recorder.events


def _lookups() -> list[Any]:
    return [[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]]


def _cases() -> list[tuple[str, list[dict[str, Any]], str]]:
    """(what the run is, its events, what it teaches): scripted runs first, then recorded runs not replayed."""
    cases = [("a run that converts only the numbers get_weather returned", _scripted_events(
                  [*_lookups(), [("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24})], "done"]),
              "nothing is made up there: return None"),
             ("a run that converts 18.0 after get_weather returned the text '18'", _scripted_events(
                  [*_lookups(), [("to_fahrenheit", {"celsius": 18.0}), ("to_fahrenheit", {"celsius": 24.0})], "ok"]),
              "compare numbers, not text: '18', 18 and 18.0 are one temperature"),
             ("a run whose conversion arguments did not parse", _scripted_events(
                  [*_lookups(), [ToolCall("c1", "to_fahrenheit", '{"celsius": 18')], "ok"]),
              "arguments that are text, not a dict, gave no number: count the slip as made up"),
             ("a run that converts 18 in its first model call, before get_weather returns 18", _scripted_events(
                  [[("to_fahrenheit", {"celsius": 18})], *_lookups(), [("to_fahrenheit", {"celsius": 24})], "ok"]),
              "only numbers get_weather returned *before* the slip count: the model cannot have read a number "
              "that a later call returned"),
             ("a run that converts 18, then converts 64, the number to_fahrenheit returned", _scripted_events(
                  [*_lookups(), [("to_fahrenheit", {"celsius": 18})], [("to_fahrenheit", {"celsius": 64})], "ok"]),
              "only get_weather returns Celsius temperatures: a number another tool returned does not count"),
             ("a run whose one reply asks get_weather(Paris) and to_fahrenheit(18) together", _scripted_events(
                  [[("get_weather", {"city": "Paris"}), ("to_fahrenheit", {"celsius": 18})], *_lookups(), "ok"]),
              "the model wrote that 18 in the same reply as the get_weather, before any result came back: a "
              "return counts only when an earlier model call's errands produced it (a lucky guess is made up)")]
    for model in ("smollm2-135m", "gemma3-270m"):
        for trace in sorted((FINISH / model / "traces").glob("zero-shot-*.jsonl")):
            if trace.stem in SHOWN[model]:
                continue
            events = read_trace(trace)
            cases.append((f"{model}'s recorded run {trace.stem}", events,
                          "read its events again: a model call may look a city up before it makes a number up, "
                          "and arguments may be text that did not parse"))
    return cases


def _shown_run_gives_one(first_made_up: Any) -> None:
    """SmolLM2's run the notebook replays makes 30 up in step 1: None there means the events were misread."""
    try:
        got = first_made_up(read_trace(FINISH / "smollm2-135m" / "traces" / "zero-shot-00.jsonl"))
    except (NotImplementedError, Hint):
        raise
    except KeyError as e:
        got = f"a KeyError ({e})"
    except Exception:  # another crash: the runs below say on which case
        return
    if got is None or isinstance(got, str):
        raise Hint(f"on SmolLM2's run above (want 1) you returned {got or 'None'}: check the keys you read; an "
                   'event\'s kind is under "event" (e["event"] == "tool_call"), beside "step", "name", "arguments"')


@exercise("02.3", kind="code", title="find the made-up number in any run")
def check_first_made_up(first_made_up: Any) -> str:
    from mingraph_lite.course import classify

    cases = _cases()
    if calls_package(first_made_up, (classify.classify,), cases[-1][1]):
        raise Hint("your function asks the lab's classifier (classify), which notebook 05 takes apart: read the "
                   "events yourself here")
    _shown_run_gives_one(first_made_up)
    for what, events, hint in cases:
        want = _made_up_step(events)
        try:
            got = first_made_up(events)
        except (NotImplementedError, Hint):
            raise
        except Exception as e:  # a learner's crash on one case: say which case, and what is special in it
            raise Hint(f"on {what} your function raised {type(e).__name__}: {hint}") from None
        converting = {e["step"] for e in events if e["event"] == "tool_call" and e["name"] == "to_fahrenheit"}
        if None not in (got, want) and got != want and got not in converting:
            raise Hint(f"on {what} you returned {got!r}, a step whose model call converted nothing: return the "
                       '"step" field of the to_fahrenheit tool_call event as it is (not its position in the list, '
                       "not shifted by one)")
        if got is not None and got not in {e.get("step") for e in events if e["event"] == "model_reply"}:
            raise Hint(f'on {what} you returned {got!r}, which is no model call\'s step: return the "step" '
                       "field of the tool_call event, not its position in the list")
        if got != want:
            raise Hint(f"on {what} you returned {got!r}: {hint}")
    made_up = sum(_made_up_step(events) is not None for _, events, _ in cases)
    return f"right on {len(cases)} runs you had not seen; {made_up} of them made a number up"


# --- questions checked against the code and the recordings -------------------------------------------


@exercise("02.Q1", kind="reasoning", title="what a third naive agent reads")
def check_third_agent(answer: Any) -> str:
    class Naive:
        def __init__(self, llm: Any, memory: Any = KeepAll(SYSTEM_PROMPT)) -> None:  # the trap, on purpose
            self.llm, self.memory = llm, memory

        def run(self, question: str) -> None:
            registry = weather_registry()
            self.memory.add(UserMessage(question))
            while (reply := self.llm.generate(self.memory.messages(), registry.tools).message).tool_calls:
                self.memory.add(reply)
                for slip in reply.tool_calls:
                    self.memory.add(registry.run(slip))
            self.memory.add(reply)

    third = ScriptedLLM(["Hello again."])
    for agent, question in ((Naive(three_round_manager()), QUESTION), (Naive(ScriptedLLM(["Hello!"])), "Hi!"),
                            (Naive(third), "Hi!")):
        agent.run(question)
    read = len(third.calls[0][0])
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of messages")
    if answer == 2:
        raise Hint("that is what a fresh folder would hold; the third agent gets the same folder as the first two")
    if answer != read:
        raise Hint("count the shared folder: everything every earlier run of a default-built agent added to "
                   "it is still there when the third agent adds its own question")
    return f"right: {read} messages, two conversations that are not its own, under the weather instructions"


def _smol_tokens() -> list[int]:
    trace = FINISH / "smollm2-135m" / "traces" / "zero-shot-00.jsonl"
    return [e["input_tokens"] for e in read_trace(trace) if e["event"] == "model_reply"]


@exercise("02.Q2", kind="reasoning", title="tokens read at a higher ceiling")
def check_tokens_at_ten(answer: Any) -> str:
    read = _smol_tokens()
    growth = {b - a for a, b in zip(read, read[1:])}
    if len(growth) != 1:
        raise Hint("the recording no longer grows by one amount a round; this question needs it to")
    (step,) = growth
    tenth = read[0] + 9 * step
    if not isinstance(answer, (int, float)) or isinstance(answer, bool):
        raise Hint("answer with a number of tokens")
    if answer == read[0] + 10 * step:
        raise Hint("the first call already read the first amount; nine rounds of growth come after it, not ten")
    if answer != tenth:
        raise Hint("start from what the first call read and add the same growth for each later call "
                   "(both are in the replay's output)")
    return f"right: {tenth} tokens, for the same useless slip; each extra round costs more than the one before"


@exercise("02.Q3", kind="reasoning", title="a real run under a lower ceiling")
def check_lower_ceiling(answer: Any) -> str:
    from mingraph_lite import EventRecorder, ReplayLLM

    if not (isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[1], bool)):
        raise Hint("answer with a pair: (errands, answered?), e.g. (2, True)")
    recorder = EventRecorder()
    replay = ReplayLLM.from_trace(FINISH / "smollm2-135m" / "traces" / "zero-shot-00.jsonl")
    try:
        Agent(replay, weather_registry(), SYSTEM_PROMPT, observers=[recorder], max_steps=3).run({"question": QUESTION})
        answered = True
    except StepLimitReached:
        answered = False
    errands = len(recorder.of("tool_call"))
    if answer[1] != answered:
        raise Hint("SmolLM2 never answered in six calls; three of the same calls cannot end differently, and "
                   "running out is never turned into an answer")
    if answer[0] != errands:
        raise Hint("the replay hands back the recorded replies in order and stops at the ceiling you set, not "
                   "at the recorded one: one slip per reply, one errand per slip")
    return f"right: {errands} errands of the same made-up conversion, then StepLimitReached; no answer"
