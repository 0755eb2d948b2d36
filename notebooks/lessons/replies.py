"""A recorded run's model replies, one printed line each, the model a trace file says it recorded, and what a
variant's sampled runs did."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import read_trace


def show_replies(recorder: EventRecorder) -> None:
    """Print each model reply: its step, the tokens read and written, and the slips it passed or its answer."""
    for event in recorder.of("model_reply"):
        reply = event["message"]
        said = (", ".join(f"{c['name']}({c['arguments']})" for c in reply["tool_calls"])
                or f"answer {reply['content'][:40]!r}...")
        print(f"  step {event['step']}: read {event['input_tokens']} tokens, wrote {event['output_tokens']}: {said}")


def recorded_model(trace: str | Path) -> str:
    """The model name the trace's first model reply records."""
    return next(e["model"] for e in read_trace(trace) if e["event"] == "model_reply")


def first_slips_and_ends(traces: Path, variant: str = "zero-shot") -> list[tuple[list[tuple[str, Any]], dict]]:
    """For each recorded run of ``variant`` in ``traces``: its slips (name, arguments) and its last finish event."""
    runs = []
    for trace in sorted(traces.glob(f"{variant}-*.jsonl")):
        events = read_trace(trace)
        runs.append(([(e["name"], e["arguments"]) for e in events if e["event"] == "tool_call"],
                      [e for e in events if e["event"] == "finish"][-1]))
    return runs


def show_sampled_runs(runs: Path) -> None:
    """Print how SmolLM2's and Gemma's sampled zero-shot runs started and ended (tests/lessons checks the figures)."""
    smol = first_slips_and_ends(runs / "smollm2-135m" / "traces")
    starts = Counter(calls[0][0] for calls, _ in smol)
    made_up = sorted({float(calls[0][1]["celsius"]) for calls, _ in smol if calls[0][0] == "to_fahrenheit"})
    limit = sum(end["reason"] == "step limit" for _, end in smol)
    print(f"SmolLM2, {len(smol)} sampled runs: {starts['to_fahrenheit']} start with to_fahrenheit on a made-up "
          f"number ({', '.join(f'{x:g}' for x in made_up)}), {starts['get_weather']} with get_weather; "
          f"{limit} hit the step limit")
    gem = first_slips_and_ends(runs / "gemma3-270m" / "traces")
    no_tool = [end["answer"] for calls, end in gem if not calls]
    echoes = sum("your answer" in answer.lower() for answer in no_tool)
    limit = sum(end["reason"] == "step limit" for calls, end in gem if calls)
    others = len(gem) - len(no_tool)
    print(f"Gemma, {len(gem)} sampled runs: {len(no_tool)} answered at once, without a tool; "
          f"{'all' if limit == others else limit} of the other {others} hit the step limit")
    print(f"  answers that copy the reply format's placeholder '<your answer>': {echoes} of {len(no_tool)}")


def cut_arguments(traces: Path, variant: str = "zero-shot") -> tuple[int, list[tuple[str, str]]]:
    """How many slips the runs of ``variant`` wrote, and (run, arguments) for each whose arguments were kept as text."""
    calls = [(trace.stem, event["arguments"]) for trace in sorted(traces.glob(f"{variant}-*.jsonl"))
             for event in read_trace(trace) if event["event"] == "tool_call"]
    return len(calls), [(run, arguments) for run, arguments in calls if not isinstance(arguments, dict)]


def show_event_kinds(recorder: EventRecorder) -> None:
    """Print the three events 02.3 reads: get_weather's answer slip, a to_fahrenheit slip and its answer slip."""
    print(next(e for e in recorder.of("tool_return") if e["name"] == "get_weather"))
    for kind in ("tool_call", "tool_return"):
        print(next(e for e in recorder.of(kind) if e["name"] == "to_fahrenheit"))


__all__ = ["cut_arguments", "first_slips_and_ends", "recorded_model", "show_event_kinds", "show_replies",
           "show_sampled_runs"]
