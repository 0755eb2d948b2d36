"""Listeners on the platform: they hear every announcement of a run and cannot change it."""

from .base import Observer, RecordingObserver, event_dict
from .console import ConsoleLogger
from .recorder import EventRecorder
from .trace import TraceRecorder, read_trace

__all__ = ["ConsoleLogger", "EventRecorder", "Observer", "RecordingObserver", "TraceRecorder", "event_dict",
           "read_trace"]
