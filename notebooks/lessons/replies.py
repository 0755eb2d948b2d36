"""A recorded run's model replies, one printed line each, and the model a trace file says it recorded."""

from __future__ import annotations

from pathlib import Path

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


__all__ = ["recorded_model", "show_replies"]
