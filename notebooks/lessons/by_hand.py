"""Notebook 01's print-only cells (the menu, the two runs' timeline, the wire), and hints for its predictions
that name the cause of the wrong value guessed."""

from __future__ import annotations

import inspect
import json
from typing import Any

from mingraph_lite import Agent, EventRecorder, SystemMessage, UserMessage, word_count
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, three_round_manager
from mingraph_lite.course.weather import make_get_weather, to_fahrenheit

from .fake_servers import ollama_on, openai_on, show_sent, two_lookups
from .pictures import draw_rounds, round_rows


def show_menu(registry: Any) -> None:
    """The menu as the model reads it (JSON), and the plain function behind its second entry."""
    get_weather = make_get_weather()
    print("the question:", QUESTION, "| get_weather('Paris'), ('Tokyo'):", get_weather("Paris"), get_weather("Tokyo"))
    print(json.dumps(registry.tools, indent=2, ensure_ascii=False))
    print(inspect.signature(to_fahrenheit), inspect.get_annotations(to_fahrenheit, eval_str=True),
          inspect.getdoc(to_fahrenheit), f"to_fahrenheit(18), to_fahrenheit(24): {to_fahrenheit(18)}, {to_fahrenheit(24)}",
          sep="\n")


def words_read(registry: Any) -> dict[str, tuple[list[int], EventRecorder]]:
    """Per manager: the words each model call read (one token per word, the menu not counted), and its run."""
    out = {}
    for make_manager in (four_round_manager, three_round_manager):
        llm = make_manager()
        llm.count_tokens = word_count  # the stated rule: one token per word read or written
        recorder = EventRecorder()
        Agent(llm, registry, SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
        out[llm.name] = ([row["input_tokens"] for row in round_rows(recorder)], recorder)
    return out


def show_timeline(registry: Any, shown: bool) -> dict[str, list[int]]:
    """The two managers' runs as a timeline, once ``shown`` (the prediction was right); the words read either way."""
    runs = words_read(registry)
    if shown:
        print(*(f"{name:<22} words read per call: {r}, total {sum(r)}" for name, (r, _) in runs.items()), sep="\n")
        draw_rounds({name: recorder for name, (_, recorder) in runs.items()}, unit="tokens (counted as words)")
    return {name: r for name, (r, _) in runs.items()}


def show_wire(registry: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Round 1 and round 2 of the course question sent to fake Ollama and OpenAI servers; returns round 1's bodies."""
    raw, ollama_server, openai_server = two_lookups()
    on_ollama, on_openai = ollama_on(ollama_server), openai_on(openai_server)
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION)]
    from_ollama, from_openai = on_ollama.generate(folder, registry.tools), on_openai.generate(folder, registry.tools)
    to_ollama, to_openai = ollama_server.bodies[0], openai_server.bodies[0]
    print("round 1 to Ollama:", json.dumps({**to_ollama, "tools": "<registry.tools, exactly>"}, ensure_ascii=False))
    print("to OpenAI, besides the same messages and tools:",
          json.dumps({k: v for k, v in to_openai.items() if k not in ("tools", "messages")}))
    print("raw Ollama reply (written by us in Ollama's format):", json.dumps(raw["message"]))
    print("what the Ollama adapter read:", from_ollama.message, "\nwhat the OpenAI adapter read:", from_openai.message)
    round_two = [*folder, from_openai.message, *(registry.run(slip) for slip in from_openai.message.tool_calls)]
    on_ollama.generate(round_two, registry.tools), on_openai.generate(round_two, registry.tools)
    print("\nround 2, the messages after the question:")
    show_sent(1, Ollama=ollama_server, OpenAI=openai_server)
    return to_ollama, to_openai


ROUNDS_HINTS = {("model calls", 4): "4 model calls is 00's manager; this one converts both temperatures in one reply",
                ("model calls", 2): "the answer is a model call too: the reply with no slips",
                ("errands", 3): "two lookups and two conversions: every slip is an errand",
                ("errands", 2): "an errand is one slip, not one reply: each reply with slips passes two",
                ("errands", 6): "the answer passes no slip: only the two replies before it bring errands"}


def rounds_hint(guess: Any) -> str:
    """A hint for a wrong guess at the three-round manager's model calls and errands, naming the likely cause."""
    if not isinstance(guess, dict):
        return 'write a dict: {"model calls": <a number>, "errands": <a number>}'
    causes = [ROUNDS_HINTS[key] for key in guess.items() if key in ROUNDS_HINTS]
    return "; ".join(causes) or "count the replies: one with both lookups, one with both conversions, one answer"


def budget_hint(guess: Any) -> str:
    """A hint for a wrong guess at what budgets 4 and 3 do to the three-round manager."""
    if not isinstance(guess, dict) or set(guess) != {4, 3}:
        return 'write a dict with the keys 4 and 3: {4: "answer" or "StepLimitReached", 3: ...}'
    choices = ("answer", "StepLimitReached")
    misspelt = [v for v in guess.values() if v not in choices]
    if misspelt:
        return f'write each value exactly as "answer" or "StepLimitReached" (you wrote {misspelt[0]!r})'
    causes = []
    if guess[4] != "answer":
        causes.append("with 4, the four errands all run and the next reply is the answer: a budget spent exactly is "
                      "not passed")
    if guess[3] != "StepLimitReached":
        causes.append("with 3, the fourth errand (the second conversion) would pass the budget: it is not run, "
                      "the loop raises")
    return "; ".join(causes)
