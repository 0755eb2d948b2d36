"""A static snapshot of a view (HTML, text, a PNG timeline): a saved notebook keeps it after the kernel is gone."""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .run_model import CARD_COLOURS, Card


@dataclass(frozen=True)
class CardSpan(Card):
    """A situation on the timeline: when it began and how long it lasted."""

    start: float            # seconds since the run started (or the announcement number, without times)
    seconds: float | None   # None when the run has no times


def event_times(events: Sequence[Mapping[str, Any]], clock_readings: Sequence[float]) -> list[float] | None:
    """Seconds since the first event, one per event: the clock's readings, else a trace's ``ts``, else None."""
    if clock_readings and len(clock_readings) == len(events):
        return [t - clock_readings[0] for t in clock_readings]
    if events and all("ts" in e for e in events):
        stamps = [datetime.fromisoformat(e["ts"]).timestamp() for e in events]
        return [t - stamps[0] for t in stamps]
    return None


def card_spans(model: Any, times: Sequence[float] | None) -> list[CardSpan]:
    """A ``RunModel``'s situations in time order; each lasts until the next (the last until the last event)."""
    end = len(model.sizes) - 1
    spans = []
    for i, card in enumerate(model.cards):
        stop = model.cards[i + 1].at if i + 1 < len(model.cards) else end
        if times is None:
            start, seconds = float(card.at), None
        else:
            start, seconds = times[card.at], times[max(stop, card.at)] - times[card.at]
        spans.append(CardSpan(card.kind, card.label, card.step, card.at, card.message_count, start, seconds))
    return spans


def _held(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.1f} s"
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.001 else "<1 ms"


def spans_text(spans: Sequence[CardSpan]) -> str:
    """The timeline as lines: situation, how long it lasted, message count."""
    lines = ["timeline: card in hand, how long, folder size"]
    for number, span in enumerate(spans, 1):
        held = "?" if span.seconds is None else f"{span.seconds:.2f} s"
        lines.append(f"{number:>3} {span.title:<28} {held:>8}   folder has {span.message_count} messages")
    return "\n".join(lines)


def draw_timeline(fig: Any, spans: Sequence[CardSpan], sizes: Sequence[tuple[float, int]], *, timed: bool,
                  title: str) -> Any:
    """Draw on ``fig`` the situations as bars along time, one row each in time order so no two labels share a
    row (top), and the folder size (bottom); ``sizes`` holds (time, message count) pairs."""
    fig.set_size_inches(8.5, 3.1 + 0.24 * len(spans))
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [max(len(spans), 4) * 0.24, 1.5]})
    last = max([s.start + (s.seconds or 0) for s in spans] + [sizes[-1][0] if sizes else 0])
    stub = max(last, 1e-9) * 0.006  # an instant one still gets a visible sliver
    for i, span in enumerate(spans):
        gap = spans[i + 1].start - span.start if i + 1 < len(spans) else 1.0  # untimed: until the next one
        width = max(span.seconds if span.seconds is not None else gap, stub)
        top.barh(i, width, left=span.start, height=0.7, color=CARD_COLOURS.get(span.kind, "#888888"))
        held = "" if span.seconds is None else _held(span.seconds) + ", "
        top.text(span.start + width + last * 0.01, i, f"{held}folder {span.message_count}", va="center",
                 fontsize=7, color="#333333")
    top.set_yticks(range(len(spans)), [f"{i} {span.title}" for i, span in enumerate(spans, 1)], fontsize=7)
    top.set_ylim(len(spans) - 0.5, -0.5)
    top.set_xlim(-last * 0.01, last * 1.22 + 1e-9)  # room on the right for the last labels
    top.set_ylabel("card in hand")
    top.set_title(title, fontsize=10)
    bottom.step([t for t, _ in sizes], [n for _, n in sizes], where="post", color="#1f5fa8")
    bottom.set_ylim(0, max([n for _, n in sizes] + [1]) + 1)
    for axis in (bottom.yaxis,) if timed else (bottom.yaxis, bottom.xaxis):  # announcements come in whole numbers
        axis.get_major_locator().set_params(integer=True)
    bottom.set_ylabel("folder size\n(messages)")
    bottom.set_xlabel("seconds since the run started" if timed else "announcement number (events, in order)")
    return fig


@dataclass(frozen=True)
class Snapshot:
    """The finished picture of a view: shown in a notebook as HTML, with a PNG timeline below."""

    text: str
    html: str
    spans: tuple[CardSpan, ...] = ()   # the situations in time order, with durations when the run had times
    png: bytes | None = None

    @classmethod
    def of(cls, view: Any, *, style: str = "", png: bool = False) -> Snapshot:
        """The snapshot of a view as it is now; ``style`` is the CSS the live view draws with."""
        model = view.model
        count = len(model.sizes)  # the events of the run on show (a live view keeps earlier runs' too)
        readings = view.times[len(view.times) - count:] if len(view.times) >= count else []
        times = event_times(view.events[len(view.events) - count:], readings)
        spans = tuple(card_spans(model, times))
        html, text = style + view.to_html(), view.text()
        if not png:
            return cls(text, html, spans)
        if not spans:
            raise ValueError("this run announced no cards yet, so there is no timeline to draw")
        try:
            from matplotlib.figure import Figure  # no pyplot: nothing is shown twice, no backend to choose
        except ImportError as error:
            raise ImportError("the snapshot's timeline needs matplotlib: pip install 'mingraph-lite[plots]', "
                              "or call snapshot(png=False)") from error
        positions = times if times is not None else [float(i) for i in range(count)]
        title = f"card timeline: {len(spans)} cards, folder {len(model.rows)} messages"
        fig = draw_timeline(Figure(layout="constrained"), spans, list(zip(positions, model.sizes, strict=True)),
                            timed=times is not None, title=title)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=90, metadata={"Software": None})
        return cls(text + "\n\n" + spans_text(spans), html, spans, buffer.getvalue())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/plain": self.text, "text/html": self.html}

    def _ipython_display_(self) -> None:
        # Two outputs, not one bundle: a front end shows one type per output, and both must show.
        from IPython.display import display

        display(self._repr_mimebundle_(), raw=True)
        if self.png is not None:
            display({"image/png": base64.b64encode(self.png).decode("ascii"),
                     "text/plain": "(the card timeline, as a PNG image)"}, raw=True)

    def __str__(self) -> str:
        return self.text
