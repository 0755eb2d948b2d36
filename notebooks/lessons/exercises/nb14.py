"""Notebook 14's exercises on the finished agent: 14.1 stops a repeated batch (checked on a replayed real run and on
scripted runs the notebook never shows), 14.2 names a recorded run's first wrong step (checked against the trace),
14.3 refuses Gemma's placeholder; and the checked questions, each verified by running the notebook's own agents.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mingraph_lite import AssistantMessage, EventRecorder, ReplayLLM, ScriptedLLM, ToolCall, read_trace
from ..capstone import HELD_OUT, _convert, _report, price_manager, price_tools, question_for
from . import Hint, exercise, letter_answer
from .nb12 import REAL_RUNS
from .nb13 import _run_yours

MAY_USE = ("13.3", "12.1", "12.2", "12.4")  # a subclass of notebook 13's own agent is fine
PRICE = re.compile(r"^(\w[\w ]*) (\w+): ([\d.]+) ([A-Z]{3})$")


def _tool_runs(recorder: EventRecorder) -> int:
    return sum(e["event"] == "tool_call" for e in recorder.events)


def _smol_repeat(cls: Any) -> None:
    replay, recorder = ReplayLLM.from_trace(REAL_RUNS["SmolLM2-135M"]), EventRecorder()
    events = read_trace(REAL_RUNS["SmolLM2-135M"])
    got, _ = _run_yours(cls, replay, price_tools(), events[0]["messages"][-1]["content"], recorder, subclass=True,
                        max_steps=6, max_calls=8, window=6)
    if got["reason"] == "step limit" and len(replay.calls) == 6:
        raise Hint("SmolLM2's replayed run still spent all 6 calls, no repeat spotted: its replies ask for the same "
                   "to_usd each time, each ToolCall with new ids: compare each reply with the reply just before it, by names and "
                   "arguments, not ids")
    if got["reason"] != "repeated" or got["answer"] is not None:
        raise Hint(f"SmolLM2's replayed run ended {got}: a repeat ends it with reason 'repeated' and answer None")
    if (len(replay.calls), _tool_runs(recorder)) != (2, 1):
        raise Hint(f"SmolLM2's replayed run made {len(replay.calls)} model calls and ran {_tool_runs(recorder)} "
                   "ToolCalls: the repeated batch ran before the stop; spot it as soon as the reply comes back, so "
                   "the run ends after 2 calls and 1 ToolCall")
    if recorder.events[-1].get("reason") != "repeated":
        raise Hint("on_finish must hear the run's reason, 'repeated'")


def _no_false_stops(cls: Any) -> None:
    cities = HELD_OUT[0][1]
    one_a_call = [[("get_price", {"item": "tea", "city": c})] for c in cities] + ["That is every price."]
    back_again = [[("get_price", {"item": "tea", "city": c})] for c in (cities[0], cities[1], cities[0])] + ["Done."]
    pair = [("get_price", {"item": "tea", "city": c}) for c in cities[:2]]
    turned = [pair, pair[::-1], "Done."]
    cases = [("the scripted manager on " + question_for(*HELD_OUT[0]), price_manager(*HELD_OUT[0]), None),
             ("a model that asks for one price a call, each city once", ScriptedLLM(one_a_call), "arguments"),
             ("a model that asks for city A, then B, then A again", ScriptedLLM(back_again), "just before"),
             ("a model that asks for A and B, then for B and A", ScriptedLLM(turned), "order")]
    for what, llm, cause in cases:
        got, _ = _run_yours(cls, llm, price_tools(), question_for(*HELD_OUT[0]), max_steps=6, max_calls=8, window=6)
        if got["reason"] != "answered":
            why = {"arguments": ": the same tool with other arguments is new work; compare arguments too",
                   "just before": ": a repeat is the same batch as the reply just before, not any earlier reply",
                   "order": ": the same ToolCalls in another order are not a repeat; compare them in their order"}
            raise Hint(f"for {what}, your run ended {got['reason']!r}{why.get(cause, '')}")
    gemma = ReplayLLM.from_trace(REAL_RUNS["Gemma 3 270M"])
    got, _ = _run_yours(cls, gemma, price_tools(), read_trace(REAL_RUNS["Gemma 3 270M"])[0]["messages"][-1]["content"],
                        max_steps=6, max_calls=8, window=6)
    if got["reason"] != "answered":
        raise Hint(f"Gemma's replayed run ended {got['reason']!r}: two equal ToolCalls in one reply are not a "
                   "repeat of the reply before")


@exercise("14.1", kind="code", title="an agent that stops a repeated batch before it runs", may_use=MAY_USE)
def check_stop_repeats(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (StopRepeats), not an instance of it")
    _smol_repeat(cls)
    _no_false_stops(cls)
    return ("your agent stopped SmolLM2's replayed run at its first repeat, after 2 calls and 1 ToolCall, and let "
            "five other runs (one of them Gemma's replay) end as before")


def _first_wrong(path: Path) -> tuple[str | None, list[tuple[float, str]]]:
    """A recorded run's first ToolCall that does no work the question needs (a price not asked for, or asked again;
    a conversion of an amount no price returned, or one already asked for), with the prices not yet converted."""
    events = read_trace(path)
    question = events[0]["messages"][-1]["content"]
    asked, prices, calls = set(), [], {}
    for e in events:
        if e["event"] == "tool_call":
            calls[e["id"]] = e
            args = e["arguments"]
            if e["name"] == "get_price":
                key = (args.get("item"), args.get("city"))
                if key in asked or str(key[1]) not in question or str(key[0]) not in question:
                    return e["id"], prices
                asked.add(key)
            else:
                key = (float(args.get("amount", -1)), args.get("currency"))
                if key not in prices:
                    return e["id"], prices
                prices.remove(key)
        elif e["event"] == "tool_return" and calls[e["tool_call_id"]]["name"] == "get_price":
            found = PRICE.match(str(e["content"]))
            prices += [(float(found[3]), found[4])] if found else []
    return None, prices


def first_wrong_call(path: Path) -> str | None:
    """The id of a recorded run's first ToolCall that does no work the question needs."""
    return _first_wrong(path)[0]


def right_call(path: Path) -> tuple[str, dict[str, Any]] | None:
    """What the first wrong ToolCall should have asked for: the first price that came back and was not converted."""
    wrong, prices = _first_wrong(path)
    return ("to_usd", {"amount": prices[0][0], "currency": prices[0][1]}) if wrong and prices else None


def _as_call(answer: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(answer, str) and answer.strip().startswith("call_"):
        raise Hint("answer with the call that should have been made, as (name, arguments), not with an id")
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2 and isinstance(answer[0], str)
            and isinstance(answer[1], dict)):
        raise Hint('answer with a pair (name, arguments), such as ("get_price", {"item": "tea", "city": "Lima"})')
    return answer[0], answer[1]


@exercise("14.2", kind="reasoning", title="Gemma's recorded run: the call its first wrong step should have been")
def check_first_wrong(answer: Any) -> str:
    path = REAL_RUNS["Gemma 3 270M"]
    wrong, (name, arguments) = first_wrong_call(path), right_call(path)
    made = next(e for e in read_trace(path) if e.get("id") == wrong)
    got_name, got_args = _as_call(answer)
    if got_name == name and set(got_args) == set(arguments) and str(got_args["currency"]).upper() == arguments["currency"] \
            and isinstance(got_args["amount"], (int, float)) and float(got_args["amount"]) == arguments["amount"]:
        return (f"right: Gemma's {wrong} asked {made['name']}({made['arguments']}), an amount already asked for, "
                f"where {name}({arguments}) was due: Rome's price never got its conversion")
    if (got_name, got_args) == (made["name"], made["arguments"]):
        raise Hint("that is the call Gemma made, and that amount had already been asked for: which price came back "
                   "and was never converted?")
    if got_name == "get_price":
        raise Hint("both prices had come back by then: what was missing is a conversion")
    if got_name == name and set(got_args) == set(arguments):
        raise Hint(f"{name}({got_args}) converts no price the run got back: copy the amount and currency from the "
                   "get_price result that was never converted")
    raise Hint(f"{got_name}({got_args}) is not a call of this task's tools as the schemas write them: to_usd takes "
               "amount and currency")


@exercise("14.Q1", kind="reasoning", title="a replay with a window of 1: does it pass?")
def check_window_one(answer: Any) -> str:
    from ..capstone import SYSTEM_PROMPT
    from ..reference import reference  # the notebook's own agent, as the question is about it

    replay = ReplayLLM.from_trace(REAL_RUNS["SmolLM2-135M"])
    events = read_trace(REAL_RUNS["SmolLM2-135M"])
    try:
        got = reference("13_capstone_agent").PriceAgent(replay, price_tools(), SYSTEM_PROMPT, window=1).run(
            {"question": events[0]["messages"][-1]["content"]})
        passed = got["reason"] == events[-1]["reason"] and len(replay.calls) == 6
    except Exception:
        passed = False
    if not isinstance(answer, str) or answer.strip().lower() not in ("yes", "no"):
        raise Hint('answer "yes" or "no"')
    if (answer.strip().lower() == "yes") == passed:
        return f"right: with window=1 the replay {'passes' if passed else 'stops the agent'}"
    raise Hint("the replay compares each later call only on its newest messages (the last reply and its "
               "ToolMessages): does a window of 1 that keeps exchanges whole still send those?")


@exercise("14.3", kind="code", title="Gemma's placeholder: a run that refuses it", may_use=MAY_USE)
def check_placeholder(cls: Any) -> str:
    if not isinstance(cls, type):
        raise Hint("pass the class itself (RefusePlaceholders), not an instance of it")
    gemma, recorder = ReplayLLM.from_trace(REAL_RUNS["Gemma 3 270M"]), EventRecorder()
    question = read_trace(REAL_RUNS["Gemma 3 270M"])[0]["messages"][-1]["content"]
    got, _ = _run_yours(cls, gemma, price_tools(), question, recorder, subclass=True, max_steps=6, max_calls=8,
                        window=6)
    if got["reason"] == "answered":
        raise Hint(f"Gemma's replayed run still ended 'answered' with {str(got['answer'])[:30]!r}...: in the model "
                   "node, test a reply without ToolCalls with is_placeholder before ending the run 'answered'")
    if got != {"answer": None, "reason": "placeholder"}:
        raise Hint(f"Gemma's replayed run ended {got}: end it with answer None and the reason 'placeholder'")
    if recorder.events[-1].get("reason") != "placeholder" or len(gemma.calls) != 3:
        raise Hint("the run must end at Gemma's third reply, and on_finish must hear the reason 'placeholder'")
    if recorder.events[-1].get("answer") is not None:
        raise Hint(f"on_finish heard the answer {recorder.events[-1].get('answer')!r}: the listeners must hear what "
                   "run() returns, answer None and the reason 'placeholder', or a log would still show the "
                   "placeholder as the run's answer")
    item, cities = HELD_OUT[0]
    got, _ = _run_yours(cls, price_manager(item, cities), price_tools(), question_for(item, cities), max_steps=6,
                        max_calls=8, window=6)
    if got["reason"] != "answered":
        raise Hint(f"the scripted manager's real answer ended {got['reason']!r}: only a reply that is the "
                   "placeholder ends the run 'placeholder'; any other answer still ends it 'answered'")
    under = "Rome: <1.50 USD, Osaka: 2.97 USD"  # a real answer with a "<" in it, as the notebook's assert shows
    got, _ = _run_yours(cls, ScriptedLLM([under], name="scripted: answers at once"), price_tools(), question,
                        max_steps=6, max_calls=8, window=6)
    if got["reason"] != "answered":
        raise Hint(f"the scripted answer {under!r} ended the run {got['reason']!r}: a '<' alone is no placeholder "
                   "(a price can be under 1.50); test for the format's blank itself, as is_placeholder does")
    item, cities = HELD_OUT[1]
    blank = AssistantMessage("<your answer>", tool_calls=tuple(ToolCall(f"p{i}", "get_price", {"item": item, "city": c})
                                                              for i, c in enumerate(cities)))
    got, _ = _run_yours(cls, ScriptedLLM([blank, _convert, _report(item)], name="scripted: blank, then calls"),
                        price_tools(), question_for(item, cities), max_steps=6, max_calls=8, window=6)
    if got["reason"] != "answered":
        raise Hint(f"a scripted reply that asks for tools with the text '<your answer>' ended the run "
                   f"{got['reason']!r}: a reply that asks for tools is no answer, so test only a reply without "
                   "ToolCalls, the one that would end the run 'answered'")
    return "Gemma's replay now ends 'placeholder' with answer None, and a real answer still ends 'answered'"


def _smol(agent: Any, **settings: Any) -> tuple[dict[str, Any], ReplayLLM]:
    from ..capstone import SYSTEM_PROMPT

    replay = ReplayLLM.from_trace(REAL_RUNS["SmolLM2-135M"])
    question = read_trace(REAL_RUNS["SmolLM2-135M"])[0]["messages"][-1]["content"]
    return agent(replay, price_tools(), SYSTEM_PROMPT, **settings).run({"question": question}), replay


@exercise("14.Q3", kind="reasoning", title="StopRepeats at a ceiling of 1: how does SmolLM2's replay end?")
def check_repeat_or_ceiling(answer: Any) -> str:
    from ..reference import reference  # the notebook's own StopRepeats, as the question is about it

    got, replay = _smol(reference("14.1"), max_steps=1)
    if not isinstance(answer, str) or answer.strip().lower() not in ("repeated", "step limit", "answered"):
        raise Hint('answer with a reason: "repeated", "step limit" or "answered"')
    if answer.strip().lower() == got["reason"]:
        return f"right: {got['reason']!r} after {len(replay.calls)} model call"
    if answer.strip().lower() == "repeated":
        raise Hint("a repeat needs a second reply to compare with the first: is a second model call ever made?")
    raise Hint("SmolLM2's only reply asks for a tool, so that run never answers")


@exercise("14.Q4", kind="reasoning", title="Gemma's replay through StopRepeats: how does it end?")
def check_gemma_repeats(answer: Any) -> str:
    from ..capstone import SYSTEM_PROMPT
    from ..reference import reference  # the notebook's own StopRepeats, as the question is about it

    replay = ReplayLLM.from_trace(REAL_RUNS["Gemma 3 270M"])
    question = read_trace(REAL_RUNS["Gemma 3 270M"])[0]["messages"][-1]["content"]
    got = reference("14.1")(replay, price_tools(), SYSTEM_PROMPT).run({"question": question})
    truth = {"answered": "A", "repeated": "B"}.get(got["reason"], "C")
    letter = letter_answer(answer)
    if letter == truth:
        return f"right: {got['reason']!r} after {len(replay.calls)} model calls, with the placeholder as its answer"
    if letter == "B":
        raise Hint("Gemma asked for the same conversion twice, but inside one reply: StopRepeats compares a reply "
                   "with the reply just before it")
    raise Hint("Gemma's third reply has no ToolCalls: what does a reply without ToolCalls end a run with?")
