"""Checks for notebook 00: finding your way around (which variable picks the model, which notebook to open)."""

from __future__ import annotations

from typing import Any

from mingraph_lite.course.scripts import make_llm
from . import Hint, exercise

#: The course map the notebook prints: notebook -> the idea it teaches.
COURSE = {
    "00_start_here": "how to run the course; which model is in use",
    "01_sticky_note_loop": "the loop most people write first; what travels on the wire; max_steps",
    "02_what_a_run_remembers": "what a run must keep; the shared default trap; real models on the loop",
    "03_state_cards": "one card per situation; the folder vs the card; who can fix a failure",
    "04_observers": "listeners that watch a run and cannot change it; traces; live views",
    "05_reasoning_capture": "the model's thinking and its tokens; reading a trace; units in results",
    "06_graph_routing": "explicit state and transitions: a small graph runner, then LangGraph",
    "07_parallel_and_agent_graph": "parallel branches and joins; LangGraph side by side; the agent as a graph",
    "08_memory_and_beyond": "what the model is read each round, and what it costs; subagents",
    "09_capstone": "a new task built from your own pieces: loop, card, listener, graph, memory window",
}


@exercise("00.1", kind="reasoning", title="Switch the model")
def check_switch(answer: Any) -> str:
    from mingraph_lite.llms.factory import ENV

    if not (isinstance(answer, tuple) and len(answer) == 2):
        raise Hint('answer with a pair of strings: ("VARIABLE_NAME", "value")')
    variable, value = answer
    if variable != ENV:
        raise Hint("the variable's name is in the 'How to run the course' table")
    # Only a scripted spec is built here: building it touches no network.
    if str(value).strip().lower() != "scripted" or not make_llm(str(value)).name.startswith("scripted"):
        raise Hint("the default needs no key, no server and no model file, and gives the same output on every "
                   "machine: whose replies are written in advance?")
    return f"{ENV}={value} runs offline, and it is the default when {ENV} is unset"


@exercise("00.2", kind="reasoning", title="Which notebook?")
def check_notebook(answer: Any) -> str:
    wanted = next(name for name, idea in COURSE.items() if "listeners" in idea)
    if not wanted.startswith(str(answer).zfill(2)):
        raise Hint("the course map calls them listeners")
    return f"{wanted} is where a crashing listener meets a run that carries on"
