"""Notebook 13's checked questions, each verified by running the notebook's own agent: how often a broken tool
runs, how five cities end against the call budget, the supersteps of a run stopped at the ceiling, and what the
listeners hear when a batch is refused."""

from __future__ import annotations

from typing import Any

from mingraph_lite import EventRecorder, ScriptedLLM, UserMessage
from ..capstone import QUESTION, SYSTEM_PROMPT, price_manager, price_tools, question_for
from . import Hint, exercise, letter_answer


# --- questions checked against runs ---------------------------------------------------------------------


Q1_CITIES = ("Rome", "Osaka", "Lima")


@exercise("13.Q1", kind="reasoning", title="a rate service that is down: how often does to_usd run?")
def check_down_service(answer: Any) -> str:
    from ..reference import reference  # the notebook's own agent, as the question is about it
    from .nb12 import _counting_tools

    registry, tries = _counting_tools(fails=10**6)  # every run of to_usd raises TimeoutError
    llm = price_manager("coffee", Q1_CITIES)
    got = reference("13_capstone_agent").PriceAgent(llm, registry, SYSTEM_PROMPT).run(
        {"question": question_for("coffee", Q1_CITIES)})
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise Hint("answer with a number, such as 4 (not text)")
    if answer == tries["to_usd"]:
        return (f"right: to_usd ran {tries['to_usd']} times, and the run ended {got['reason']!r} after "
                f"{len(llm.calls)} model calls")
    if answer < tries["to_usd"]:
        raise Hint("each errand gives a broken tool one more try: count the runs per ToolCall, then the ToolCalls")
    raise Hint("after the round of conversions, the model node finds failed set and ends the run before "
               "calling the model: no round of ToolCalls follows")


@exercise("13.Q2", kind="reasoning", title="five cities against the call budget: how does the run end?")
def check_five_cities(answer: Any) -> str:
    from ..reference import reference  # the notebook's own agent, as the question is about it

    cities = ("Rome", "Osaka", "Lima", "Oslo", "Nairobi")
    llm = price_manager("coffee", cities)
    got = reference("13_capstone_agent").PriceAgent(llm, price_tools(), SYSTEM_PROMPT).run(
        {"question": question_for("coffee", cities)})
    truth = {"answered": "A", "call budget": "B"}.get(got["reason"], "C")
    letter = letter_answer(answer)
    if letter == truth:
        return f"right: the run ended {got['reason']!r} after {len(llm.calls)} model calls"
    if letter == "A":
        raise Hint("count the ToolCalls of each reply against the budget of 8: five prices, then five conversions")
    raise Hint(f"the ceiling is 6 model calls, and this run made {len(llm.calls)}: something else ended it")




@exercise("13.Q3", kind="reasoning", title="supersteps of a run stopped at the ceiling")
def check_ceiling_supersteps(answer: Any) -> str:
    from ..reference import reference  # the notebook's own agent, as the question is about it

    never_stops = ScriptedLLM([[("get_price", {"item": "tea", "city": "Lima"})]] * 9, name="scripted: never stops")
    graph = reference("13_capstone_agent").PriceAgent(never_stops, price_tools(), SYSTEM_PROMPT, max_steps=4).graph()
    graph.invoke({"messages": [UserMessage(QUESTION)], "failed": [], "model_calls": 0, "calls_left": 20,
                  "stopped": None})
    steps = len(graph.steps)
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise Hint("answer with a number, such as 5 (not text)")
    if answer == steps:
        return f"right: {steps} supersteps, the last a model node that only stops the run ({len(never_stops.calls)} calls)"
    if answer == 2 * 4:
        raise Hint("after the fourth reply its ToolCall still runs, and then one more model node runs to stop the run")
    if answer == 4:
        raise Hint("the graph counts supersteps, not model calls: each call is followed by a superstep of errands")
    raise Hint("count them as the spec does for max_steps=3: model, errand, per call, then one model node that stops")


@exercise("13.Q4", kind="reasoning", title="the hooks a listener hears when a batch is refused")
def check_refused_hooks(answer: Any) -> str:
    from ..reference import reference  # the notebook's own agent, as the question is about it

    cities, recorder = ("Rome", "Osaka", "Lima", "Oslo", "Nairobi"), EventRecorder()
    reference("13_capstone_agent").PriceAgent(price_manager("coffee", cities), price_tools(), SYSTEM_PROMPT,
                                              observers=[recorder], max_calls=4).run(
        {"question": question_for("coffee", cities)})
    events = [e["event"] for e in recorder.events]
    heard = ["on_" + e for e in events[events.index("model_reply") + 1:]]
    if not isinstance(answer, (list, tuple)) or not all(isinstance(hook, str) for hook in answer):
        raise Hint('answer with a list of hook names, such as ["on_step_start", "on_finish"]')
    if list(answer) == heard:
        return f"right: {', '.join(heard)}"
    if "on_tool_call" in answer:
        raise Hint("a refused ToolCall never runs, so no listener hears on_tool_call for it")
    if answer.count("on_tool_return") != heard.count("on_tool_return"):
        raise Hint("each of the five refused ToolCalls gets its own error ToolMessage, and each is told to the "
                   "listeners once")
    raise Hint("the run ends after the refusals: what is the one hook every run calls last?")
