"""TraceRecorder appends each announcement to a file as one whole JSON line (under ``flock``); ``read_trace`` reads
it back, and ``pick_run`` is the one rule for "run N"."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import uuid
import warnings
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: no lock; a race there costs at most a blank line, which readers skip
    fcntl = None  # type: ignore[assignment]

from ..errors import ReplayError
from ..redaction import RedactingFilter, secret_values
from .base import RecordingObserver, safe_json

logger = logging.getLogger(__name__)
logger.addFilter(RedactingFilter())  # a failure's text may hold a key the run was handling

TRACE_VERSION = 1
_MARK = b'{"v": '  # how every line this module writes begins
_NOT_JSON = object()


class TornLineWarning(UserWarning):
    """``read_trace`` skipped lines that are not events: torn by a dying writer, or other JSON."""


class TraceRecorder(RecordingObserver):
    """Append every announcement to ``path``; the file is created at once, so a bad path fails before a run."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        os.close(_open(self.path))
        self.run_id, self._seq = uuid.uuid4().hex, 0
        self._ids: dict[int, str] = {}  # run number -> run_id, so a run resumed after an inner one keeps its id
        self.unwritten, self.last_error = 0, None  # lines that could not be written, and the last why

    def _event(self, hook: str, *args: Any) -> dict[str, Any]:
        try:
            return super()._event(hook, *args)
        except Exception as exc:  # e.g. a value whose to_dict raises
            why = f"{type(exc).__name__}: {exc}"
            logger.warning("trace %s: the %s announcement could not be read as an event (%s); "
                           "writing its raw arguments instead", self.path, hook, why)
            return {"event": hook.removeprefix("on_"), "args": list(args), "unrecorded": why}

    def record(self, event: dict[str, Any]) -> None:
        if event["event"] == "run_start":
            self._ids[event["run"]] = uuid.uuid4().hex
        self.run_id = self._ids.get(event["run"], self.run_id)
        self._seq += 1  # even if the write fails: the gap in seq shows the missing line
        line = {"v": TRACE_VERSION, "run_id": self.run_id, "seq": self._seq,
                "ts": datetime.now(timezone.utc).isoformat(timespec="microseconds"), **event}
        try:
            text = json.dumps(safe_json(line, secret_values()), ensure_ascii=False, allow_nan=False)
            _append(self.path, (text + "\n").encode("utf-8"))
        except OSError as exc:
            self.unwritten += 1
            self.last_error = exc
            raise

    @property
    def announcements(self) -> int:
        """How many announcements this recorder heard (lines written plus ``unwritten``)."""
        return self._seq

    def __repr__(self) -> str:
        return f"TraceRecorder({str(self.path)!r})"


def _open(path: Path) -> int:
    # Read-write so the tail can be checked; O_APPEND still sends every write to the end.
    flags = os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    try:
        return os.open(path, os.O_RDWR | flags, 0o644)
    except OSError:  # a target that can only be written (a pipe's end): no tail to check
        return os.open(path, os.O_WRONLY | flags, 0o644)


def _torn_tail(fd: int) -> bool:
    try:
        end = os.lseek(fd, 0, os.SEEK_END)
        return end > 0 and os.lseek(fd, end - 1, os.SEEK_SET) == end - 1 and os.read(fd, 1) != b"\n"
    except OSError:  # a pipe or a terminal (--trace /dev/stdout): nothing to read back
        return False


def _append(path: Path, data: bytes) -> None:
    fd = _open(path)
    try:
        if fcntl is not None:
            # Without the lock, another process's write in progress would look like a torn tail.
            with contextlib.suppress(OSError):  # some targets (a pipe on some systems) take no lock
                fcntl.flock(fd, fcntl.LOCK_EX)
        if _torn_tail(fd):
            data = b"\n" + data
        view = memoryview(data)
        while view:  # a short write (a signal, a full disk) goes on from where it stopped
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


class Trace(list):
    """Events in file order, plus ``path``, each event's line number ``lines`` and the ``skipped`` line numbers."""

    def __init__(self, events: Iterable[dict[str, Any]] = (), *, path: Path | None = None,
                 lines: Iterable[int] = (), skipped: Iterable[int] = ()) -> None:
        super().__init__(events)
        self.path, self.lines, self.skipped = path, tuple(lines), tuple(skipped)

    def where(self, i: int) -> str:
        return f"{self.path}, line {self.lines[i]}" if self.path else f"event {self.lines[i]}"

    def _checked(self) -> Trace:
        """Refuse what no reader can use: another format version, a run id or number of the wrong type."""
        for i, event in enumerate(self):
            version, run = event.get("v", TRACE_VERSION), event.get("run", 1)  # hand-written events may lack them
            if type(version) is not int or version != TRACE_VERSION:
                raise ReplayError(f"{self.where(i)}: trace format version {version!r}, but this mingraph-lite reads "
                                  f"version {TRACE_VERSION}; use the mingraph-lite that wrote it, or record it again")
            if "run_id" in event and not isinstance(event["run_id"], str):
                raise ReplayError(f"{self.where(i)}: run_id {event['run_id']!r} is not a string, so no run can be "
                                  "told apart; give a trace written by TraceRecorder")
            if type(run) is not int:
                raise ReplayError(f"{self.where(i)}: run {run!r} is not a whole number; give a trace written by "
                                  "TraceRecorder")
        return self


def read_trace(path: str | os.PathLike[str], *, run: int | str | None = None) -> Trace:
    """Read a trace file back as a ``Trace``; ``run`` keeps one run (``pick_run``'s rule)."""
    path = Path(path)
    events, lines, torn, other = [], [], [], []
    # Bytes, split on "\n" only: a torn line may end in half a UTF-8 character ("°").
    raw_lines = path.read_bytes().split(b"\n")
    for number, raw in enumerate(raw_lines, 1):
        if raw.strip():
            value = _json(raw)
            if _is_event(value):
                events.append(value)
                lines.append(number)
            else:  # torn by a writer that died mid-line, or JSON that is not an event
                (torn if value is _NOT_JSON else other).append(number)
    trace = Trace(events, path=path, lines=lines, skipped=sorted(torn + other))._checked()
    if not events and (other or not all(_torn_like(raw_lines[n - 1]) for n in torn)):
        raise ReplayError(f"{path} is not a trace: no line is a trace event (line {trace.skipped[0]} is not "
                          f"one); give a file written by TraceRecorder")
    _warn_skipped(path, torn, "torn line(s)", "cut short by a writer that stopped mid-line")
    _warn_skipped(path, other, "line(s)", "valid JSON that is not a trace event")
    return trace if run is None else pick_run(trace, run)


def _warn_skipped(path: Path, numbers: list[int], what: str, why: str) -> None:
    where = ", ".join(map(str, numbers[:10])) + (" ..." if len(numbers) > 10 else "")
    if numbers:
        warnings.warn(f"{path}: skipped {len(numbers)} {what} (line {where}), {why}; every whole event was read",
                      TornLineWarning, stacklevel=3)


def _is_event(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("event"), str)


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _NOT_JSON


def _torn_like(raw: bytes) -> bool:
    return raw.startswith(_MARK) or _MARK.startswith(raw)


def _as_trace(source: Any) -> Trace:
    """A path, a ``Trace``, an ``EventRecorder`` or a list of event dicts, as a checked ``Trace``."""
    if isinstance(source, (str, os.PathLike)):
        return read_trace(source)
    if isinstance(source, Trace):
        return source
    events = list(getattr(source, "events", source))
    return Trace(events, lines=range(1, len(events) + 1))._checked()


def _run_key(event: Mapping[str, Any]) -> tuple[str, Any]:
    return ("run_id", event["run_id"]) if "run_id" in event else ("run", event.get("run"))


def run_ids(source: Any) -> list[Any]:
    """The runs of ``source`` (see ``pick_run``) in order of first appearance: each ``run_id`` or ``run``."""
    return [key[1] for key in dict.fromkeys(map(_run_key, _as_trace(source)))]


def pick_run(source: Any, run: int | str | None = None) -> Trace:
    """The events of one run of ``source`` (path, ``Trace``, ``EventRecorder`` or event dicts), keyed by
    ``run_id`` or else ``run``: ``run`` is a 1-based position, negative from the end, a ``run_id``, or None (last)."""
    trace = _as_trace(source)
    keys = list(dict.fromkeys(map(_run_key, trace)))
    if not keys:
        raise ValueError("the events hold no runs; record one with EventRecorder or TraceRecorder first")
    if isinstance(run, str):
        chosen = ("run_id", run)
        if chosen not in keys:
            shown = [k[1] for k in keys[:5]] + (["..."] if len(keys) > 5 else [])
            raise ValueError(f"no run with run_id {run!r}; the events hold {len(keys)} runs: {shown}")
    elif run is None:
        chosen = keys[-1]
    elif isinstance(run, bool) or not isinstance(run, int) or run == 0 or not -len(keys) <= run <= len(keys):
        raise ValueError(f"the events hold {len(keys)} runs; run={run!r} is out of range: give 1..{len(keys)}, "
                         f"-1 for the last, or a run_id")
    else:
        chosen = keys[run - 1] if run > 0 else keys[run]
    keep = [i for i, e in enumerate(trace) if _run_key(e) == chosen]
    return Trace([dict(trace[i]) for i in keep], path=trace.path, lines=[trace.lines[i] for i in keep],
                 skipped=trace.skipped)
