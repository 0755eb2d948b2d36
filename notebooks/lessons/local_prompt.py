"""The prompt a shipped local model reads, as text: what notebook 01 shows to explain a recorded local run.

A local model has no JSON tool API; its adapter writes the menu and a reply format into the prompt in the
model's own turn format. This is that adapter's code, reached through the course's namespace.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mingraph_lite.llms.local import TURNS, render_prompt
from mingraph_lite.messages import Message


def local_prompt(messages: Sequence[Message], tools: Sequence[Mapping[str, Any]], model: str = "smollm2-135m") -> str:
    """The exact prompt the local adapter builds for ``model`` ("smollm2-135m" or "gemma3-270m")."""
    if model not in TURNS:
        raise ValueError(f"unknown local model {model!r}: use one of {sorted(TURNS)}")
    return render_prompt(messages, tools, TURNS[model])
