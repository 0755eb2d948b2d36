"""Notebook 09's prediction (09.2) and checked questions: each answer is compared with a run of what it asks about."""

from __future__ import annotations

from typing import Any

from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.graph import build_agent_graph, initial_agent_state, run_agent_graph
from . import Hint, NotDone, exercise
from . import number_answer as _number
from .nb09 import _agent_state, F24, PARIS, TOKYO, _agent_with_router, smollm2_replay

KEYS = ("package_supersteps", "router_supersteps", "router_tool_handlers")


def _replayed() -> dict[str, int]:
    """The SmolLM2 replay on the package's agent graph and on the one with 09.1's router, counted by a run."""
    from lessons.reference import reference

    package = build_agent_graph(smollm2_replay(), weather_registry(), SYSTEM_PROMPT, max_model_steps=6)
    package.invoke(initial_agent_state(QUESTION))
    router = _agent_with_router(reference("09.1"), smollm2_replay())
    end = router.invoke(initial_agent_state(QUESTION))
    return {"package_supersteps": len(package.steps), "router_supersteps": len(router.steps),
            "router_tool_handlers": end["tool_calls_made"]}


@exercise("09.2", kind="reasoning", title="supersteps and tool handlers of the replayed SmolLM2 run")
def check_replay_prediction(guess: Any) -> str:
    if isinstance(guess, dict) and all(value is None for value in guess.values()):
        raise NotDone
    if not isinstance(guess, dict) or set(guess) != set(KEYS) or not all(isinstance(guess[k], int) for k in KEYS):
        raise Hint(f"fill in the dict with a whole number for each of {list(KEYS)}")
    run = _replayed()
    if guess["package_supersteps"] != run["package_supersteps"]:
        raise Hint({12: "the run does not end on the sixth tools visit: model runs a seventh time, finds the six "
                        "calls spent, and sets stop_reason itself",
                    6: "6 counts model calls; each tools visit is a superstep too",
                    7: "7 counts visits to model; each tools visit is a superstep too"}.get(
            guess["package_supersteps"], "count one superstep per node visit, model and tools, until the stop"))
    if guess["router_tool_handlers"] != run["router_tool_handlers"]:
        raise Hint("the repeated call never reaches the tools node: count the handlers of the calls before it")
    if guess["router_supersteps"] != run["router_supersteps"]:
        raise Hint("with the router, the fourth model visit routes to the node that stops the run, which is a "
                   "superstep of its own; count model, tools, ..., model, and that node")
    return f"right: {run}, as the two replays show"


@exercise("09.Q1", kind="reasoning", title="tool handlers run under max_tool_calls=1")
def check_q1(answer: Any) -> str:
    end = run_agent_graph(build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                                            max_tool_calls=1), QUESTION)
    return _number(answer, end["tool_calls_made"], {
        1: "the budget is checked for a whole batch before it starts, and the first batch asks for two lookups: "
           "none of them runs",
        2: "max_tool_calls=1 allows one handler, and the first batch asks for two lookups: the budget is checked for "
           "the whole batch before it starts, so the batch does not run in part or in full"}, "tool handlers")


@exercise("09.Q4", kind="reasoning", title="tool handlers of the SmolLM2 replay with three model calls")
def check_q4(answer: Any) -> str:
    end = run_agent_graph(build_agent_graph(smollm2_replay(), weather_registry(), SYSTEM_PROMPT,
                                            max_model_steps=3), QUESTION)
    return _number(answer, end["tool_calls_made"], {
        2: "the third reply's call runs: the budget is checked before each model call, not before a tools visit",
        6: "max_model_steps=3 allows three model calls, not six, and each reply asks for one conversion: six is the "
           "run with max_model_steps=6"},
        "tool handlers")


@exercise("09.Q5", kind="reasoning", title="the route for a batch that asks for one new call twice")
def check_q5(answer: Any) -> str:
    from lessons.reference import reference

    routes = ("tools", "repeat", "end")
    if answer not in routes:
        raise Hint(f"answer with one of {list(routes)}, not {answer!r}")
    want = reference("09.1")(_agent_state([[TOKYO, PARIS]], [F24, F24]))
    if answer != want:
        raise Hint("rule 2 compares pending calls with calls already filed in messages; which calls are filed "
                   "after the first round?")
    return f"right: {want!r}; a repeat is a call that already ran, and to_fahrenheit(24) has not run yet"
