"""Checks for notebook 00: predict the scripted demo's folder before it runs, and switch the model from Python."""

from __future__ import annotations

import contextlib
import os
from typing import Any

from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, make_llm
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.factory import ENV
from . import Hint, NotDone, exercise

#: The course map the notebook prints: notebook -> the idea it teaches.
COURSE = {
    "00_start_here": "how to run the course; which model is in use",
    "01_sticky_note_loop": "the loop by hand: a tool's schema, what travels on the wire, max_steps",
    "02_what_a_run_remembers": "what a run must keep; the shared default trap; real models on the loop",
    "03_state_cards": "one card per situation; the folder vs the card; who can fix a failure",
    "04_observers": "listeners that watch a run and cannot change it; traces; live views",
    "05_reasoning_capture": "the model's thinking and its tokens; reading a trace; the first wrong line",
    "06_how_sure": "how sure a count of runs is: intervals; the bare 18 vs 18°C experiment re-run",
    "07_graph_routing": "explicit state and transitions: a small graph runner, then LangGraph",
    "08_parallel_branches": "parallel branches and joins; LangGraph side by side; one branch per item with Send",
    "09_agent_graph": "the agent loop as a graph; routes that stop a real model's repeated call, and say why",
    "10_memory_and_cost": "what the model is read each round, and what it costs; a real conversation",
    "11_helpers_and_plans": "an agent behind one tool; plan-and-execute with a re-plan",
    "12_capstone_pieces": "capstone, part 1: a new task, and its pieces: memory window, errand, log, router",
    "13_capstone_agent": "capstone, part 2: the agent, a graph of your pieces, built and checked in three milestones",
    "14_capstone": "capstone, part 3: real runs replayed; stop a repeat, find a first wrong step, refuse a blank",
}


def demo_folder() -> dict[str, int]:
    """What the notebook's demo leaves, counted from a fresh run of the same scripted manager."""
    from mingraph_lite import Agent

    manager = four_round_manager()
    agent = Agent(manager, weather_registry(), SYSTEM_PROMPT)
    agent.run({"question": QUESTION})
    return {"messages at the end": len(agent.memory.messages()), "read on the last call": len(manager.calls[-1][0]),
            "model calls": len(manager.calls)}


@exercise("00.1", kind="reasoning", title="Predict the folder")
def check_prediction(answer: Any) -> str:
    keys = {"messages at the end", "read on the last call"}
    if not isinstance(answer, dict) or set(answer) != keys:
        raise Hint('answer with a dict: {"messages at the end": <a number>, "read on the last call": <a number>}')
    if all(value is ... for value in answer.values()):
        raise NotDone
    if ... in answer.values():
        raise Hint("write a number for both counts (one `...` is still there)")
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in answer.values()):
        raise Hint("write each count as a whole number, like 3 (not the text \"3\", nor 3.0)")
    actual = demo_folder()
    end, last = answer["messages at the end"], answer["read on the last call"]
    if end == actual["messages at the end"] - 2:
        raise Hint("the folder starts with two messages before any reply: the instructions and the question")
    if end == actual["model calls"] + 2:
        raise Hint("each errand's result goes back as a message of its own: one per errand, not one per reply")
    if end == actual["messages at the end"] - 1 and last == end - 1:  # both conversions counted in one reply
        raise Hint("both counts are one short, as if both conversions came in one reply: "
                   "one conversion per reply means two replies after the lookups, each with its own result")
    if end == actual["messages at the end"] - 1:
        raise Hint("the last reply, the answer, goes into the folder too")
    if end != actual["messages at the end"]:
        raise Hint("count the folder: instructions, question, then each reply and one result per errand "
                   "(the first reply asks for two errands, the next two for one each)")
    if last == end:
        raise Hint("the manager's last call reads the folder before it writes its answer: the answer is not in it")
    if last != actual["read on the last call"]:
        raise Hint("the last call reads everything in the folder up to that moment: the end count, minus what "
                   "the last call itself wrote")
    return f"right: {end} messages at the end, {last} read on the last call; now run the demo"


def _check_inside(spec: str, preset: str | None, llm: Any) -> None:
    """Inside the with block: the variable holds spec, and the model given is the one make_llm() now builds."""
    if preset is not None and os.environ.get(ENV) == preset:
        raise Hint(f"in a session launched with {ENV}={preset}, using_model({spec!r}) left it at {preset!r}: "
                   "setdefault (or 'only if unset') keeps a value already there; assign it instead")
    if os.environ.get(ENV) != spec:
        if spec in os.environ.values():
            raise Hint("you set another variable: the one that picks the model is in the "
                       "'How to run the course' table")
        if os.environ.get(ENV) is not None:
            raise Hint(f"inside using_model({spec!r}) the variable holds {os.environ[ENV]!r}: set it to spec")
        if spec != "scripted" and getattr(llm, "name", None) == make_llm(spec).name:
            raise Hint("your using_model builds the model from spec but never sets the variable, so any other "
                       "make_llm() inside the with block still builds the default")
        raise Hint("inside the with block the variable is still unset: using_model must set it to spec on entry")
    if llm is None or isinstance(llm, str):
        raise Hint(f"`with using_model(spec) as llm` gave llm = {llm!r}: give the model object that is active "
                   "inside the block (the one make_llm() builds then)")
    if getattr(llm, "name", None) != make_llm().name:
        raise Hint("give the model that make_llm() builds once the variable is set, not one fixed model")


def _run_case(using_model: Any, spec: str, preset: str | None, fail: bool) -> None:
    os.environ.pop(ENV, None)
    if preset is not None:
        os.environ[ENV] = preset
    with contextlib.suppress(_Inside):
        with using_model(spec) as llm:
            _check_inside(spec, preset, llm)
            if fail:
                raise _Inside
    if os.environ.get(ENV) != preset:
        before = "unset" if preset is None else repr(preset)
        after = "unset" if os.environ.get(ENV) is None else repr(os.environ[ENV])
        when = "after an error inside the block" if fail else "after the with block"
        raise Hint(f"{when} the variable is {after}, but it was {before} before: put back what was there "
                   "(remove it when it was unset)" + (", in a finally, so an error cannot skip it" if fail else ""))


class _Inside(Exception):
    """An error raised inside the learner's with block, to see that the old value still comes back."""


@exercise("00.2", kind="code", title="Switch the model for one block")
def check_using_model(using_model: Any) -> str:
    if not callable(using_model):
        raise Hint("hand in the function using_model itself")
    saved = dict(os.environ)  # the answer may set any variable: put every one back
    try:
        probe = using_model("scripted")
        if not (hasattr(probe, "__enter__") and hasattr(probe, "__exit__")):
            raise Hint("using_model(spec) must give a context manager, for `with using_model(spec) as llm:` "
                       "(@contextlib.contextmanager turns a generator into one)")
        # building either touches no network; a session launched with the variable set, and an error inside
        cases = ((None, "ollama:qwen3.5:2b", False), (None, "scripted", False), ("scripted", "ollama:qwen3.5:2b", False),
                 ("ollama:qwen3.5:2b", "scripted", True), (None, "ollama:qwen3.5:2b", True))
        for preset, spec, fail in cases:
            _run_case(using_model, spec, preset, fail)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return f"{ENV} picks the model for every make_llm() inside the block; afterwards the old value is back"
