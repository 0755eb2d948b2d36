"""Checks for notebook 00: predict the scripted demo before it runs, and switch the model from Python."""

from __future__ import annotations

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
    "05_reasoning_capture": "the model's thinking and its tokens; reading a trace; units in results",
    "06_graph_routing": "explicit state and transitions: a small graph runner, then LangGraph",
    "07_parallel_and_agent_graph": "parallel branches and joins; LangGraph side by side; the agent as a graph",
    "08_memory_and_cost": "what the model is read each round, and what it costs; a real conversation",
    "09_helpers_and_plans": "an agent behind one tool; plan-and-execute with a re-plan",
    "10_capstone": "a new task built from your own pieces: loop, card, listener, graph, memory window",
}


def demo_counts() -> dict[str, int]:
    """What the notebook's demo does, counted from a fresh run of the same scripted manager."""
    from mingraph_lite import Agent, EventRecorder

    recorder = EventRecorder()
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    return {"model calls": len(recorder.of("model_reply")), "tool calls": len(recorder.of("tool_call"))}


@exercise("00.1", kind="reasoning", title="Predict the demo")
def check_prediction(answer: Any) -> str:
    if not isinstance(answer, dict) or set(answer) != {"model calls", "tool calls"}:
        raise Hint('answer with a dict: {"model calls": <a number>, "tool calls": <a number>}')
    if all(value is ... for value in answer.values()):
        raise NotDone
    if ... in answer.values():
        raise Hint("write a number for both counts (one `...` is still there)")
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in answer.values()):
        raise Hint("write each count as a whole number, like 3 (not the text \"3\", nor 3.0)")
    actual = demo_counts()
    if answer["tool calls"] != actual["tool calls"]:
        raise Hint("the tool calls are off: each slip the manager passes is one errand, whichever reply carries it")
    if answer["model calls"] < actual["model calls"]:
        raise Hint("too few model calls: the reply that reads the last errand's result and answers is a call too")
    if answer["model calls"] > actual["model calls"]:
        raise Hint("too many model calls: one reply can carry several slips; re-read which reply asks for what")
    return f"right: {actual['model calls']} model calls and {actual['tool calls']} tool calls; now run the demo"


@exercise("00.2", kind="code", title="Switch the model from Python")
def check_use_model(use_model: Any) -> str:
    if not callable(use_model):
        raise Hint("hand in the function use_model itself")
    saved = dict(os.environ)  # the answer may set any variable: put every one back
    try:
        for spec in ("scripted", "ollama:qwen3.5:2b"):  # building either touches no network
            os.environ.pop(ENV, None)
            llm = use_model(spec)
            if os.environ.get(ENV) != spec:
                if spec in os.environ.values():
                    raise Hint("you set another variable: the one that picks the model is in the "
                               "'How to run the course' table")
                raise Hint("set the variable in os.environ (os.environ[NAME] = spec), so that every later "
                           "make_llm() in this session sees it; make_llm(spec) alone changes nothing after it")
            if getattr(llm, "name", None) != make_llm().name:
                raise Hint("return the model that make_llm() builds once the variable is set, not one fixed model")
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return f"{ENV} picks the model for every make_llm() in this session; unset, it is the scripted one"
