"""EventRecorder: every announcement kept as data, in order. Built for tests and for plots."""

from __future__ import annotations

from typing import Any

from .base import RecordingObserver


class EventRecorder(RecordingObserver):
    """Keeps each announcement as an event dict (see ``event_dict``) in ``events``."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict[str, Any]] = []

    def record(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def names(self) -> list[str]:
        """The event names in order, e.g. ``["run_start", "step_start", "model_reply", ...]``."""
        return [e["event"] for e in self.events]

    def of(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == name]

    def clear(self) -> None:
        self.events.clear()

    def __repr__(self) -> str:
        return f"EventRecorder({len(self.events)} events)"
