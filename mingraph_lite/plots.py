"""Figures of recorded runs (``run=`` as ``pick_run``), each a ``Figure`` closed in pyplot: a notebook shows it once."""

from __future__ import annotations

import os
import sys
from typing import Any

from .observers.run_model import RunModel
from .observers.snapshot import card_spans, draw_timeline
from .observers.trace import pick_run


def _pyplot():
    try:
        import matplotlib
    except ImportError as error:
        raise ImportError("plots need matplotlib: pip install 'mingraph-lite[plots]'") from error
    # Agg only when nobody chose a backend; the private getter is the one way to ask without choosing.
    get = getattr(matplotlib.rcParams, "_get_backend_or_none", None)
    unset = get is not None and get() is None
    if unset and "MPLBACKEND" not in os.environ and "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _done(plt, fig):
    plt.close(fig)  # the returned figure still draws; pyplot just stops managing it
    return fig


def plot_run(source: Any, *, run: int | str | None = None, title: str | None = None):
    """The cards in hand (top, one row each) and the folder size (bottom) along one run, by announcement number."""
    plt = _pyplot()
    model = RunModel.of(pick_run(source, run))
    if not model.cards:
        raise ValueError("this run announced no cards (no model call, tool or node); nothing to draw")
    fig = plt.figure(layout="constrained")
    draw_timeline(fig, card_spans(model, None), list(enumerate(model.sizes)), timed=False,
                  title=title or f"card in hand and folder size ({len(model.cards)} cards)")
    return _done(plt, fig)


def plot_tokens(source: Any, *, run: int | str | None = None, title: str | None = None):
    """Tokens per model call: input, output and reasoning; a count not reported is left out, not drawn as 0."""
    plt = _pyplot()
    replies = [e for e in pick_run(source, run) if e.get("event") in ("model_reply", "memory_call")]
    if not replies:
        raise ValueError("this run has no model replies, so no token counts to draw")
    kinds = (("input_tokens", "input", "#1f5fa8"), ("output_tokens", "output", "#2e7d32"),
             ("reasoning_tokens", "reasoning", "#6a3d9a"))
    steps = list(range(1, len(replies) + 1))
    labels = ["memory" if e["event"] == "memory_call" else str(e.get("step") or i) for i, e in enumerate(replies, 1)]
    fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
    width, missing = 0.27, []
    for offset, (key, label, colour) in enumerate(kinds):
        points = [(s, e[key]) for s, e in zip(steps, replies, strict=True) if e.get(key) is not None]
        if not points:
            missing.append(label)
            continue
        ax.bar([s + (offset - 1) * width for s, _ in points], [v for _, v in points], width, label=label, color=colour)
    ax.set_xticks(steps, labels)
    ax.set_xlabel("model call (step)")
    ax.set_ylabel("tokens (as reported)")
    model = next((e.get("model") for e in replies if e["event"] == "model_reply"), None) or "unknown model"
    ax.set_title(title or f"tokens per model call ({model})")
    if len(missing) < len(kinds):
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    if missing:
        ax.text(1.01, 0.0, "not reported:\n" + ",\n".join(missing), transform=ax.transAxes,
                ha="left", va="bottom", fontsize=8, color="#777777")
    return _done(plt, fig)
