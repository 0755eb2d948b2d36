"""Views of a run, live or traced: its messages (``FolderView``), situation (``CardTimeline``), both (``LiveRun``)."""

from __future__ import annotations

import html
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from string import Template
from typing import Any

from ..redaction import secret_values
from .base import RecordingObserver, safe_json, shorten
from .run_model import CARD_COLOURS, RunModel
from .trace import pick_run

_WAITS = frozenset({"step_start", "tool_call", "node_start"})  # after these, the run waits
_ALWAYS = frozenset({"run_start", "finish", "tool_error"})      # these always redraw

_STYLE = Template("""<style>
.mg-view{font-family:var(--jp-code-font-family,monospace);font-size:12px;line-height:1.35}
.mg-view h4{margin:0 0 4px 0;font-size:13px}
.mg-row,.mg-card{display:flex;gap:8px;padding:2px 4px;border-bottom:1px solid #e4e4e4}
.mg-role{min-width:72px;font-weight:bold}
.mg-role-system .mg-role{color:#777}.mg-role-user .mg-role{color:#1f5fa8}
.mg-role-assistant .mg-role{color:$model}.mg-role-tool .mg-role{color:$tools}
.mg-content{white-space:pre-wrap;word-break:break-word}
.mg-slip{display:block}.mg-ticket{color:#999}.mg-answer{color:$tools}
.mg-error,.mg-error .mg-role,.mg-error .mg-answer{color:#c62828}
.mg-thinking summary{color:#999;cursor:pointer}.mg-current{background:#fff6d5;font-weight:bold}
.mg-size{color:#555;margin-left:auto}.mg-status{margin-top:4px;color:#555}
</style>""").substitute(model=CARD_COLOURS["calling-model"], tools=CARD_COLOURS["running-tools"])


def _call_text(call: Mapping[str, Any]) -> str:
    arguments = call.get("arguments")
    if isinstance(arguments, Mapping):
        arguments = ", ".join(f"{k}={v!r}" for k, v in arguments.items())
    return f"{call.get('name')}({arguments})"  # raw JSON text from the provider is shown as is


def _messages_text(model: RunModel) -> str:
    answers = model.answers()
    lines = [f"folder: {len(model.rows)} messages"]
    for number, row in enumerate(model.rows, 1):
        if row.role == "tool":
            said = ("-> ERROR " if row.is_error else "-> ") + shorten(row.content, 90)
            lines.append(f"{number:>3} tool       #{row.tool_call_id} {row.name or '?'} {said}")
            continue
        lines.append(f"{number:>3} {row.role:<10} {shorten(row.content, 90)}".rstrip())
        if row.reasoning:
            lines.append(f"      thinking: {shorten(row.reasoning, 70)}")
        for call in row.tool_calls:
            answer = answers.get(call.get("id"))
            told = f" -> {shorten(answer.content, 40)}" if answer else " -> (waiting)"
            lines.append(f"      slip #{call.get('id')} {_call_text(call)}{told}")
    lines.append(model.status)
    return "\n".join(lines)


def _row_html(row, answers: Mapping[str, Any]) -> str:
    esc, body = html.escape, []
    if row.role == "tool":
        body.append(f'<span class="mg-ticket">#{esc(str(row.tool_call_id))} {esc(row.name or "?")} &rarr;</span> ')
    if row.content:
        body.append(f'<span class="mg-content">{esc(row.content)}</span>')
    if row.reasoning:
        tokens = f" ({row.reasoning_tokens} tokens)" if row.reasoning_tokens is not None else ""
        body.append(f'<details class="mg-thinking"><summary>thinking{tokens}</summary>'
                    f'<span class="mg-content">{esc(row.reasoning)}</span></details>')
    for call in row.tool_calls:
        answer = answers.get(call.get("id"))
        told = (f'<span class="mg-answer{" mg-error" if answer.is_error else ""}">&rarr; '
                f'{esc(shorten(answer.content, 60))}</span>' if answer else
                '<span class="mg-answer mg-waiting">&rarr; (waiting)</span>')
        body.append(f'<span class="mg-slip"><span class="mg-ticket">#{esc(str(call.get("id")))}</span> '
                    f'{esc(_call_text(call))} {told}</span>')
    return "".join(body)


def _messages_html(model: RunModel) -> str:
    answers, count = model.answers(), len(model.rows)
    parts = [f'<div class="mg-view mg-folder" data-count="{count}">',
             f'<h4>folder: <span class="mg-folder-count">{count}</span> messages</h4>']
    for number, row in enumerate(model.rows, 1):
        role = html.escape(row.role)
        parts.append(f'<div class="mg-row mg-role-{role}{" mg-error" if row.is_error else ""}" data-index="{number}">'
                     f'<span class="mg-role">{number} {role}</span><div>{_row_html(row, answers)}</div></div>')
    parts.append(f'<div class="mg-status">{html.escape(model.status)}</div></div>')
    return "".join(parts)


def _in_hand(model: RunModel, number: int) -> bool:
    return number == len(model.cards) and model.finish is None


def _timeline_text(model: RunModel) -> str:
    lines = [f"cards: {len(model.cards)}, folder: {len(model.rows)} messages"]
    for number, card in enumerate(model.cards, 1):
        here = "  <- in hand" if _in_hand(model, number) else ""
        lines.append(f"{number:>3} holding: {card.title:<28} | folder has {card.message_count} messages{here}")
    return "\n".join(lines)


def _timeline_html(model: RunModel) -> str:
    esc = html.escape
    parts = [f'<div class="mg-view mg-timeline" data-cards="{len(model.cards)}">',
             f'<h4>card in hand &middot; folder size: <span class="mg-folder-count">{len(model.rows)}</span></h4>']
    for number, card in enumerate(model.cards, 1):
        current = " mg-current" if _in_hand(model, number) else ""
        parts.append(f'<div class="mg-card mg-card-{esc(card.kind)}{current}" data-index="{number}">'
                     f'<span class="mg-label">{esc(card.title)}</span>'
                     f'<span class="mg-size">folder has {card.message_count} messages</span></div>')
    parts.append(f'<div class="mg-status">{esc(model.status)}</div></div>')
    return "".join(parts)


def _ipywidgets():
    try:
        import ipywidgets
    except ImportError as error:
        raise ImportError("the live views need ipywidgets: pip install 'mingraph-lite[widgets]'") from error
    return ipywidgets


def _can_draw() -> bool:
    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    if getattr(shell, "kernel", None) is None or os.environ.get("MINGRAPH_NO_WIDGETS"):
        return False
    try:
        return bool(_ipywidgets())
    except ImportError:
        return False


_MESSAGES = (_messages_html, _messages_text)
_TIMELINE = (_timeline_html, _timeline_text)


class _View(RecordingObserver):
    """What every view shares: fold events into a ``RunModel``; redraw, throttled; text or widget."""

    _shows: tuple[tuple[Callable[[RunModel], str], Callable[[RunModel], str]], ...] = ()  # (HTML, text) renderers

    def __init__(self, *, widget: bool | None = None, interval_ms: float = 100.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``widget``: True needs ipywidgets, False is plain text, None picks what works; ``clock`` is in seconds."""
        super().__init__()
        self.model, self.events = RunModel(), []
        self.times: list[float] = []  # one clock reading per live announcement, beside ``events``
        self.interval_ms, self.renders, self._clock = interval_ms, 0, clock
        self._last_render, self._prev, self._replaying = float("-inf"), None, False
        self._waits_ms: dict[Any, float] = {}  # how long the run last waited after each kind of wait
        draw = _can_draw() if widget is None else widget
        self.widget = _ipywidgets().HTML(value="") if draw else None
        self.refresh()

    def record(self, event: dict[str, Any]) -> None:
        event = safe_json(event, secret_values())  # what a view shows is redacted, like a trace
        self.events.append(event)
        self.model.apply(event)
        if self._replaying:
            return
        kind, now = event.get("event", ""), self._clock()
        self.times.append(now)
        wait = (kind, event.get("node")) if kind in _WAITS else None
        if self._prev is not None and self._prev[0] is not None:
            self._waits_ms[self._prev[0]] = (now - self._prev[1]) * 1000
        self._prev = (wait, now)
        # At most every interval, but always before a wait as long as the last of its kind (unknown: long).
        if (kind in _ALWAYS or (now - self._last_render) * 1000 >= self.interval_ms
                or (wait is not None and self._waits_ms.get(wait, float("inf")) >= self.interval_ms)):
            self.refresh()
            self._last_render = now

    def snapshot(self, *, png: bool | None = None):
        """What the view shows now as static HTML, text and a PNG timeline: a saved notebook keeps it."""
        from .snapshot import Snapshot

        return Snapshot.of(self, style=_STYLE, png=_TIMELINE in self._shows if png is None else png)

    def refresh(self) -> None:
        """Draw the current model now (no-op in plain-text mode)."""
        if self.widget is None:
            return
        self.widget.value = _STYLE + self.to_html()
        self.renders += 1

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]], *, run: int | str | None = None, **kwargs: Any):
        """A view of a finished run from event dicts or a trace path; ``run`` as ``pick_run`` (default: the last)."""
        view = cls(**kwargs)
        view._replaying = True
        for event in pick_run(events, run):
            view.record(event)
        view._replaying = False
        view.refresh()
        return view

    from_trace = from_events  # a trace file's path is one more source pick_run reads

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self.widget is None:
            return {"text/plain": repr(self), "text/html": _STYLE + self.to_html()}
        data = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        return {**((data[0] if isinstance(data, tuple) else data) or {}), "text/plain": repr(self)}

    def to_html(self) -> str:
        return "".join(html(self.model) for html, _ in self._shows)

    def text(self) -> str:
        return "\n\n".join(text(self.model) for _, text in self._shows)

    def __str__(self) -> str:
        return self.text()


class FolderView(_View):
    """The run's messages, live: each tool call with its id, and each answer beside its call."""

    _shows = (_MESSAGES,)

    def __repr__(self) -> str:
        return f"FolderView({len(self.model.rows)} messages, {self.model.status})"


class CardTimeline(_View):
    """The situation at each moment (the card in hand), beside the message count (which only climbs)."""

    _shows = (_TIMELINE,)

    def __repr__(self) -> str:
        return f"CardTimeline({len(self.model.cards)} cards, {self.model.status})"


class LiveRun(_View):
    """Both views of one run side by side: the situations, and the messages."""

    _shows = (_TIMELINE, _MESSAGES)

    def to_html(self) -> str:
        return (f'<div class="mg-view mg-live" style="display:flex;gap:16px;align-items:flex-start">'
                f'<div style="flex:0 0 34%">{_timeline_html(self.model)}</div>'
                f'<div style="flex:1 1 66%">{_messages_html(self.model)}</div></div>')

    def __repr__(self) -> str:
        return f"LiveRun({len(self.model.cards)} cards, {len(self.model.rows)} messages, {self.model.status})"
