"""A trace read as numbered lines: the printer notebook 05 reads its runs with, kept here so its cells stay short.

Lines are numbered from 1 (line 1 is ``run_start``), as ``enumerate(events, 1)`` gives them: the numbering the
"first wrong line" convention and ``classify`` use.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from mingraph_lite import LLMResponse, read_trace

#: The course's words for what a trace holds, printed beside the first trace notebook 05 shows.
KEY = ("key: slip = tool_call | answer slip = tool_return | request = model_reply with slips | "
       "folder = the messages sent | menu = the tool descriptions | envelope = LLMResponse's other fields")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def brief(event: dict[str, Any]) -> str:
    """One trace line, shortened to what a reader checks."""
    kind = event["event"]
    if kind == "model_reply":
        message = event["message"]
        slips = [(call["name"], call["arguments"]) for call in message["tool_calls"]]
        said = f"(request) asks for {slips}" if slips else repr(message["content"])
        thinking = f"   thinking: {event['reasoning'][:55]!r}..." if event.get("reasoning") else ""
        return f"model_reply   {said}{thinking}"
    if kind == "tool_call":  # the course's word beside the event's name: the reader need not translate
        return f"tool_call     (slip) {event['name']}({event['arguments']})"
    if kind == "tool_return":
        return f"tool_return   (answer slip) {event['name']} answered {event['content']!r}"
    if kind == "finish":
        return f"finish        {event['reason']}"
    return kind


def print_trace(events: list[dict[str, Any]], width: int | None = None, *, key: bool = False) -> None:
    """Every event as a numbered line, each cut to ``width`` characters when given; ``key``: the words first."""
    if key:
        print(KEY)
    for n, event in enumerate(events, 1):
        print(f"{n:>2}  {brief(event)[:width]}")


def print_folder(messages: list[dict[str, Any]]) -> None:
    """A request's messages as the model read them: the role, what each says or asks for, and the example tag."""
    for message in messages:
        slips = ", ".join(f"{call['name']}({call['arguments']})" for call in message.get("tool_calls", []))
        tag = f"[example: {message['example']}]" if "example" in message else "[not an example]"
        print(f"{tag:28} {message['role']:9} {slips or repr(message['content'][:70])}")


def print_envelopes(events: list[dict[str, Any]]) -> None:
    """What each model reply's envelope holds about thinking: its count, and the start of its text."""
    for n, event in enumerate(events, 1):
        if event["event"] == "model_reply":
            print(f"line {n}: reasoning_tokens={event['reasoning_tokens']}, "
                  f"reasoning={(event['reasoning'] or '')[:300]!r}")


def print_thinking_beside(reply: dict[str, Any], label: str, why: str) -> str:
    """A case-3 verdict's ``why`` beside the thinking of the reply at its line, under ``label`` (scripted or the
    article's real line); returns that thinking."""
    thinking = reply.get("reasoning") or ""
    print(f"{label}\n  the reply:     {reply['message']['content']!r}\n  the verdict:   {why}\n"
          f"  its thinking:  {thinking!r}")
    return thinking


def print_live_run(spec: str) -> None:
    """Run our question once on the model ``spec`` names ("ollama:qwen3:0.6b", "openai:gpt-5-mini"; at most 6
    model calls, Ollama with thinking on) and print each reply's envelope and the verdict; nothing when none."""
    kind, _, model = spec.strip().partition(":")
    if kind not in ("ollama", "openai") or not model:
        print(f"MINGRAPH_LLM={spec!r}: no live model named, so nothing runs (see the steps above)")
        return
    from mingraph_lite import Agent, EventRecorder, OllamaLLM, OpenAILLM
    from mingraph_lite.course.classify import classify
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
    from mingraph_lite.course.weather import weather_registry
    from mingraph_lite.errors import StepLimitReached

    recorder = EventRecorder()
    llm = OllamaLLM(model, think=True) if kind == "ollama" else OpenAILLM(model)
    try:
        Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[recorder], max_steps=6).run({"question": QUESTION})
    except StepLimitReached:  # the trace keeps the finish line that says so
        pass
    print_envelopes(recorder.events)
    print(classify(recorder.events))


__all__ = ["KEY", "brief", "print_envelopes", "print_folder", "print_live_run",
           "print_trace"]


def print_envelope(experiments: Path) -> list[dict[str, Any]]:
    """Print LLMResponse's fields (the message goes in the folder, the rest is the envelope) and how many recorded
    replies under ``experiments`` carry a thinking text or count; return those replies."""
    for f in fields(LLMResponse):
        print(f"{f.name:17} {str(f.type):18}", "the folder: read back every round" if f.name == "message" else "the envelope")
    replies = [e for trace in sorted(experiments.rglob("traces/*.jsonl"))
               for e in read_trace(trace) if e["event"] == "model_reply"]
    print(f"{len(replies)} recorded replies of SmolLM2-135M and Gemma 3 270M; with a reasoning text: "
          f"{sum(e['reasoning'] is not None for e in replies)}, with a thinking-token count: "
          f"{sum(e['reasoning_tokens'] is not None for e in replies)}")
    return replies
