"""TraceRecorder: one JSON object per announcement, one per line, appended to a file (JSON Lines).

Record before you know there's a bug: a model's mistake may never happen twice. So each line is
written whole, in a single ``write`` on a file opened for appending, and flushed at once: a crash
keeps every line before it, and several processes can share one file without tearing each other's
lines (POSIX appends of one write go to the end as a unit). Each line carries a format version, a
run id unique across processes, a timestamp and a sequence number.
"""

from __future__ import annotations

import json
import math
import os
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .base import RecordingObserver

TRACE_VERSION = 1


class TraceRecorder(RecordingObserver):
    """Append every announcement to ``path`` as one JSON line."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.run_id = uuid.uuid4().hex
        self._seq = 0

    def record(self, event: dict[str, Any]) -> None:
        if event["event"] == "run_start":
            self.run_id = uuid.uuid4().hex
        self._seq += 1
        line = {"v": TRACE_VERSION, "run_id": self.run_id, "seq": self._seq,
                "ts": datetime.now(timezone.utc).isoformat(timespec="microseconds"), **event}
        try:
            text = json.dumps(line, ensure_ascii=False, default=repr, allow_nan=False)
        except ValueError:  # a model's slip carried NaN/Infinity: write it as text, keep the file standard JSON
            text = json.dumps(_finite(line), ensure_ascii=False, default=repr, allow_nan=False)
        data = (text + "\n").encode("utf-8")
        # Open per line: nothing buffered in this process is lost if it dies mid-run.
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    def __repr__(self) -> str:
        return f"TraceRecorder({str(self.path)!r})"


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # "nan", "inf": readable, and valid JSON for any reader
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def read_trace(path: str | os.PathLike[str], *, run: int | str | None = None) -> list[dict[str, Any]]:
    """Read a trace back as a list of event dicts.

    A torn last line (a writer killed mid-write) is skipped; a bad line anywhere else is an error,
    because it means the file is not a trace. ``run`` keeps one run: its ``run_id``, or its
    1-based position among the runs in the file.
    """
    # Bytes, decoded line by line: a writer killed mid-line may leave half a UTF-8 character ("°").
    lines = Path(path).read_bytes().split(b"\n")
    events = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            events.append(json.loads(text.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            if number == len(lines) or all(not rest.strip() for rest in lines[number:]):
                break  # the torn tail of a crashed writer
            raise ValueError(f"{path}: line {number} is not JSON; is this a trace file?") from None
    if run is None:
        return events
    ids = list(dict.fromkeys(e.get("run_id") for e in events))
    if isinstance(run, int):
        if not 1 <= run <= len(ids):
            raise ValueError(f"{path} holds {len(ids)} runs; run={run} is out of range")
        run = ids[run - 1]
    if run not in ids:
        raise ValueError(f"{path} has no run with run_id {run!r}; it has {ids}")
    return [e for e in events if e.get("run_id") == run]


def trace_runs(path: str | os.PathLike[str]) -> list[str]:
    """The run ids in a trace file, in the order they first appear."""
    return list(dict.fromkeys(e.get("run_id") for e in read_trace(path)))
