"""Live views of a run: the folder filling up, and the card in hand flipping.

Two meanings of "state" sit side by side here. ``FolderView`` shows the folder (what has
happened: every message the model is read, which only grows). ``CardTimeline`` shows the card in
hand (where the run is: calling the model, running tools, finished), which flips back and forth.
``LiveRun`` shows both for one run and is used as ``observers=[view]``.

Each view is a ``RecordingObserver``: it turns announcements into event dicts and folds them into
a small model. A finished trace is the same list of event dicts, so ``from_trace``/``from_events``
draw a past run with the same code that draws a live one.

Why updates are safe to make from a listener: the agent announces from the running cell (the
main thread), and ipywidgets sends a trait change to the browser as soon as it is set, while the
cell is still running. We re-render at most every ``interval_ms``, except just before the run
waits on a model, a tool or a node (the learner stares at that picture) and at the end. Nothing
here prints: a print from a listener lands in whatever output area is current.

Without ipywidgets, or outside a Jupyter kernel, the views keep the same model and show it as
plain text (``view.text()``, ``print(view)``) or static HTML when displayed.
"""

from __future__ import annotations

import html
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .base import RecordingObserver

#: Events after which the run waits (on the model, a tool, a node): the picture the learner watches.
_WAITS = frozenset({"step_start", "tool_call", "node_start"})
#: Events that always re-render.
_ALWAYS = frozenset({"run_start", "finish", "tool_error"})

_STYLE = """<style>
.mg-view{font-family:var(--jp-code-font-family,monospace);font-size:12px;line-height:1.35}
.mg-view h4{margin:0 0 4px 0;font-size:13px}
.mg-row,.mg-card{display:flex;gap:8px;padding:2px 4px;border-bottom:1px solid #e4e4e4}
.mg-role{min-width:72px;font-weight:bold}
.mg-role-system .mg-role{color:#777}.mg-role-user .mg-role{color:#1f5fa8}
.mg-role-assistant .mg-role{color:#6a3d9a}.mg-role-tool .mg-role{color:#2e7d32}
.mg-content{white-space:pre-wrap;word-break:break-word}
.mg-slip{display:block}.mg-ticket{color:#999}.mg-answer{color:#2e7d32}
.mg-error,.mg-error .mg-role,.mg-error .mg-answer{color:#c62828}
.mg-thinking summary{color:#999;cursor:pointer}
.mg-current{background:#fff6d5;font-weight:bold}
.mg-size{color:#555;margin-left:auto}
.mg-status{margin-top:4px;color:#555}
</style>"""


# ---------------------------------------------------------------- the models (pure data, no widgets)

@dataclass(frozen=True)
class FolderRow:
    """One message in the folder, as a viewer needs it."""

    role: str
    content: str
    slips: tuple[Mapping[str, Any], ...] = ()   # the tool calls (id, name, arguments) of a reply
    ticket: str | None = None                    # an answer slip: the ticket it answers
    name: str | None = None                      # an answer slip: the tool's name
    is_error: bool = False
    thinking: str | None = None                  # a reply: the model's reasoning, when reported
    thinking_tokens: int | None = None


@dataclass(frozen=True)
class Card:
    """The card in hand from announcement number ``at`` on, and the folder size at that moment."""

    kind: str          # "calling-model" | "running-tools" | "finished" | "node"
    label: str         # "calling model", "running tools", "finished (answered)", or the node's name
    step: int | None
    at: int            # index of the announcement that put this card in hand (0-based, within the run)
    folder_size: int


def split_runs(events: Iterable[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
    """Cut a stream of events into runs: a new run at each ``run_start`` or change of ``run_id``."""
    runs: list[list[dict[str, Any]]] = []
    last_key: Any = None
    for event in events:
        # A trace names runs by run_id (unique across processes); an EventRecorder numbers them.
        key = event.get("run_id", event.get("run"))
        if not runs or event.get("event") == "run_start" or key != last_key:
            runs.append([])
        runs[-1].append(dict(event))
        last_key = key
    return runs


def _args_text(arguments: Any) -> str:
    if isinstance(arguments, Mapping):
        return ", ".join(f"{k}={v!r}" for k, v in arguments.items())
    return str(arguments)  # raw JSON text the provider sent, shown as is


class RunModel:
    """The folder and the cards of one run, folded from event dicts (live or from a trace)."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.rows: list[FolderRow] = []
        self.cards: list[Card] = []
        self.sizes: list[int] = []       # folder size after each announcement
        self.finish: tuple[str | None, str] | None = None
        self.tool_error: str | None = None
        self._events = 0
        self._graph = False

    def _card(self, kind: str, label: str, step: int | None) -> None:
        self.cards.append(Card(kind, label, step, self._events, len(self.rows)))

    def apply(self, event: Mapping[str, Any]) -> None:
        kind = event.get("event")
        step = event.get("step")
        if kind == "run_start":
            self._reset()  # a new run: the folder as the first model call will read it
            self.rows = [FolderRow(m.get("role", "?"), m.get("content") or "",
                                   tuple(m.get("tool_calls") or ()), m.get("tool_call_id"), m.get("name"),
                                   bool(m.get("is_error"))) for m in event.get("messages", ())]
        elif kind == "step_start" and not self._graph:
            self._card("calling-model", "calling model", step)
        elif kind == "model_reply":
            message = event.get("message") or {}
            self.rows.append(FolderRow("assistant", message.get("content") or "",
                                       tuple(message.get("tool_calls") or ()),
                                       thinking=event.get("reasoning"),
                                       thinking_tokens=event.get("reasoning_tokens")))
        elif kind == "tool_call" and not self._graph:
            if not self.cards or self.cards[-1].kind != "running-tools":
                self._card("running-tools", "running tools", step)
        elif kind == "tool_return":
            self.rows.append(FolderRow("tool", event.get("content") or "", ticket=event.get("tool_call_id"),
                                       name=event.get("name"), is_error=bool(event.get("is_error"))))
        elif kind == "tool_error":
            # No row: the agent announces the failed slip's answer (and any skipped slips') after this.
            call = event.get("call") or {}
            self.tool_error = f"{call.get('name')} raised {event.get('error_type')}: {event.get('error')}"
        elif kind == "node_start":
            self._graph = True  # a graph run: the cards are its nodes
            self._card("node", str(event.get("node")), step)
        elif kind == "finish":
            self.finish = (event.get("answer"), str(event.get("reason")))
            self._card("finished", f"finished ({event.get('reason')})", step)
        self.sizes.append(len(self.rows))
        self._events += 1

    @property
    def status(self) -> str:
        if self.finish is not None:
            why = f": {self.tool_error}" if self.tool_error else ""
            return f"finished ({self.finish[1]}){why}"
        if not self.cards:
            return "waiting to start" if not self.rows else "started"
        card = self.cards[-1]
        return card.label + (f" (step {card.step})" if card.step is not None and card.kind != "node" else "")

    def answers(self) -> dict[str, FolderRow]:
        """Answer slips by the ticket they answer, to show each one beside its slip."""
        return {row.ticket: row for row in self.rows if row.role == "tool" and row.ticket is not None}


# ---------------------------------------------------------------- rendering

def _short(text: str, width: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def folder_text(model: RunModel) -> str:
    answers = model.answers()
    lines = [f"folder: {len(model.rows)} messages"]
    for number, row in enumerate(model.rows, 1):
        if row.role == "tool":
            mark = " ERROR" if row.is_error else ""
            lines.append(f"{number:>3} tool       #{row.ticket} {row.name or '?'} ->{mark} "
                         f"{_short(row.content)}")
            continue
        lines.append(f"{number:>3} {row.role:<10} {_short(row.content) if row.content else ''}".rstrip())
        if row.thinking:
            lines.append(f"      thinking: {_short(row.thinking, 70)}")
        for slip in row.slips:
            answer = answers.get(slip.get("id"))
            told = f" -> {_short(answer.content, 40)}" if answer else " -> (waiting)"
            call = f"{slip.get('name')}({_args_text(slip.get('arguments'))})"
            lines.append(f"      slip #{slip.get('id')} {call}{told}")
    lines.append(model.status)
    return "\n".join(lines)


def folder_html(model: RunModel) -> str:
    esc = html.escape
    answers = model.answers()
    parts = [f'<div class="mg-view mg-folder" data-count="{len(model.rows)}">',
             f'<h4>folder: <span class="mg-folder-count">{len(model.rows)}</span> messages</h4>']
    for number, row in enumerate(model.rows, 1):
        classes = f"mg-row mg-role-{esc(row.role)}" + (" mg-error" if row.is_error else "")
        body = []
        if row.role == "tool":
            body.append(f'<span class="mg-ticket">#{esc(str(row.ticket))} {esc(row.name or "?")} '
                        '&rarr;</span> ')
        if row.content:
            body.append(f'<span class="mg-content">{esc(row.content)}</span>')
        if row.thinking:
            tokens = f" ({row.thinking_tokens} tokens)" if row.thinking_tokens is not None else ""
            body.append(f'<details class="mg-thinking"><summary>thinking{tokens}</summary>'
                        f'<span class="mg-content">{esc(row.thinking)}</span></details>')
        for slip in row.slips:
            answer = answers.get(slip.get("id"))
            told = (f'<span class="mg-answer{" mg-error" if answer.is_error else ""}">&rarr; '
                    f'{esc(_short(answer.content, 60))}</span>' if answer else
                    '<span class="mg-answer mg-waiting">&rarr; (waiting)</span>')
            call = f'{slip.get("name")}({_args_text(slip.get("arguments"))})'
            body.append(f'<span class="mg-slip"><span class="mg-ticket">#{esc(str(slip.get("id")))}</span> '
                        f'{esc(call)} {told}</span>')
        parts.append(f'<div class="{classes}" data-index="{number}"><span class="mg-role">{number} '
                     f'{esc(row.role)}</span><div>{"".join(body)}</div></div>')
    parts.append(f'<div class="mg-status">{esc(model.status)}</div></div>')
    return "".join(parts)


def timeline_text(model: RunModel) -> str:
    lines = [f"cards: {len(model.cards)}, folder: {len(model.rows)} messages"]
    for number, card in enumerate(model.cards, 1):
        step = f" (step {card.step})" if card.step is not None and card.kind != "finished" else ""
        here = "  <- in hand" if number == len(model.cards) and model.finish is None else ""
        lines.append(f"{number:>3} holding: {card.label + step:<28} | folder has {card.folder_size} messages"
                     f"{here}")
    return "\n".join(lines)


def timeline_html(model: RunModel) -> str:
    esc = html.escape
    parts = [f'<div class="mg-view mg-timeline" data-cards="{len(model.cards)}">',
             f'<h4>card in hand &middot; folder size: <span class="mg-folder-count">{len(model.rows)}</span>'
             '</h4>']
    for number, card in enumerate(model.cards, 1):
        current = " mg-current" if number == len(model.cards) and model.finish is None else ""
        step = f" (step {card.step})" if card.step is not None and card.kind != "finished" else ""
        parts.append(f'<div class="mg-card mg-card-{esc(card.kind)}{current}" data-index="{number}">'
                     f'<span class="mg-label">{esc(card.label + step)}</span>'
                     f'<span class="mg-size">folder has {card.folder_size} messages</span></div>')
    parts.append(f'<div class="mg-status">{esc(model.status)}</div></div>')
    return "".join(parts)


# ---------------------------------------------------------------- the views

def _in_kernel() -> bool:
    """True inside a Jupyter kernel, where a widget has a front end to draw it."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _ipywidgets():
    try:
        import ipywidgets
    except ImportError as error:
        raise ImportError("the live views need ipywidgets: pip install ipywidgets "
                          "(it comes with pip install mingraph-lite)") from error
    return ipywidgets


class _View(RecordingObserver):
    """Shared plumbing: fold events into a ``RunModel``; re-render throttled; text or widget."""

    _name = "view"
    _draws_timeline = False  # whether its snapshot carries the PNG timeline of the cards

    def __init__(self, *, widget: bool | None = None, interval_ms: float = 100.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``widget``: True needs ipywidgets, False is plain text, None (default) picks what works.

        ``clock`` (seconds) is read once per announcement: it paces the redraws and gives the
        snapshot's timeline its durations; pass a fake one for reproducible durations.
        """
        super().__init__()
        self.model = RunModel()
        self.events: list[dict[str, Any]] = []
        self.times: list[float] = []  # one clock reading per live announcement, beside ``events``
        self.interval_ms = interval_ms
        self.renders = 0
        self._clock = clock
        self._last_render = float("-inf")
        self._prev: tuple[Any, float] | None = None
        # How long the run last waited after each kind of wait (a model call, a tool, a node).
        self._waits_ms: dict[Any, float] = {}
        self._replaying = False
        self.widget = None
        if widget is None:
            widget = _in_kernel() and not os.environ.get("MINGRAPH_NO_WIDGETS")
            if widget:
                try:
                    _ipywidgets()
                except ImportError:
                    widget = False
        if widget:
            self.widget = self._build()
            self.refresh()

    # The one place a subclass decides what it draws.
    def _build(self):
        return _ipywidgets().HTML(value="")

    def to_html(self) -> str:  # pragma: no cover - each view overrides
        raise NotImplementedError

    def text(self) -> str:  # pragma: no cover - each view overrides
        raise NotImplementedError

    def _apply(self, event: dict[str, Any]) -> None:
        self.model.apply(event)

    def _draw(self) -> None:
        self.widget.value = _STYLE + self.to_html()

    def record(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self._apply(event)
        if self._replaying:
            return
        kind, now = event.get("event", ""), self._clock()
        self.times.append(now)
        wait = (kind, event.get("node")) if kind in _WAITS else None
        if self._prev is not None and self._prev[0] is not None:
            self._waits_ms[self._prev[0]] = (now - self._prev[1]) * 1000
        self._prev = (wait, now)
        # A flood of fast events (a scripted run, a cached model) is drawn at most every interval.
        # Before a wait, the picture is drawn if the last wait of the same kind was long enough to
        # see (unknown counts as long): a slow model call is not shown under the previous card.
        if (kind in _ALWAYS or (now - self._last_render) * 1000 >= self.interval_ms
                or (wait is not None and self._waits_ms.get(wait, float("inf")) >= self.interval_ms)):
            self.refresh()
            self._last_render = now

    def snapshot(self, *, png: bool | None = None):
        """What the view shows now, kept as static HTML, text and (for cards) a PNG timeline.

        Display it after the run (``display(view.snapshot())``): a saved notebook then shows the
        finished picture without a kernel. ``png`` defaults to True for views that show cards.
        """
        from .snapshot import Snapshot

        return Snapshot.of(self, style=_STYLE, png=self._draws_timeline if png is None else png)

    def refresh(self) -> None:
        """Draw the current model now (no-op in plain-text mode)."""
        if self.widget is None:
            return
        with self.widget.hold_sync():
            self._draw()
        self.renders += 1

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]], *, run: int | None = None, **kwargs: Any):
        """A view of a finished run, from event dicts (an ``EventRecorder``'s or a trace's).

        ``run`` picks one run (1-based) when the events hold several; the default is the last.
        """
        runs = split_runs(getattr(events, "events", events))
        if not runs:
            raise ValueError("no events to show; record a run with EventRecorder or TraceRecorder first")
        if run is not None and not 1 <= run <= len(runs):
            raise ValueError(f"the events hold {len(runs)} runs; run={run} is out of range")
        view = cls(**kwargs)
        view._replaying = True
        for event in runs[(run or len(runs)) - 1]:
            view.record(event)
        view._replaying = False
        view.refresh()
        return view

    @classmethod
    def from_trace(cls, path: str | os.PathLike[str], *, run: int | None = None, **kwargs: Any):
        """A view of a run in a trace file (JSON Lines from ``TraceRecorder``); default the last run."""
        from .trace import read_trace

        return cls.from_events(read_trace(path), run=run, **kwargs)

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": repr(self)}
        if self.widget is not None:
            data = self.widget._repr_mimebundle_(include=include, exclude=exclude)
            data = data[0] if isinstance(data, tuple) else data
            bundle = {**(data or {}), "text/plain": repr(self)}
        else:
            bundle["text/html"] = _STYLE + self.to_html()
        return bundle

    def __str__(self) -> str:
        return self.text()


class FolderView(_View):
    """The folder, live: one row per message, slips with their tickets, each answer beside its slip."""

    def to_html(self) -> str:
        return folder_html(self.model)

    def text(self) -> str:
        return folder_text(self.model)

    def __repr__(self) -> str:
        return f"FolderView({len(self.model.rows)} messages, {self.model.status})"


class CardTimeline(_View):
    """The card in hand at each moment, beside the folder size (which only climbs)."""

    _draws_timeline = True

    def to_html(self) -> str:
        return timeline_html(self.model)

    def text(self) -> str:
        return timeline_text(self.model)

    def __repr__(self) -> str:
        return f"CardTimeline({len(self.model.cards)} cards, {self.model.status})"


class LiveRun(_View):
    """Both views of one run side by side: the card in hand, and the folder."""

    _draws_timeline = True

    def _build(self):
        widgets = _ipywidgets()
        self._cards_html = widgets.HTML(value="", layout=widgets.Layout(flex="0 0 34%"))
        self._folder_html = widgets.HTML(value="", layout=widgets.Layout(flex="1 1 66%"))
        box = widgets.HBox([self._cards_html, self._folder_html],
                           layout=widgets.Layout(width="100%", align_items="flex-start"))
        box.add_class("mg-live")
        return box

    def _draw(self) -> None:
        with self._cards_html.hold_sync(), self._folder_html.hold_sync():
            self._cards_html.value = _STYLE + timeline_html(self.model)
            self._folder_html.value = _STYLE + folder_html(self.model)

    def to_html(self) -> str:
        return (f'<div class="mg-view mg-live" style="display:flex;gap:16px;align-items:flex-start">'
                f'<div style="flex:0 0 34%">{timeline_html(self.model)}</div>'
                f'<div style="flex:1 1 66%">{folder_html(self.model)}</div></div>')

    def text(self) -> str:
        return timeline_text(self.model) + "\n\n" + folder_text(self.model)

    def __repr__(self) -> str:
        return f"LiveRun({len(self.model.cards)} cards, {len(self.model.rows)} messages, {self.model.status})"
