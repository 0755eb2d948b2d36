"""TraceRecorder: one JSON object per announcement, one per line, appended to a file (JSON Lines).

Record before you know there's a bug: a model's mistake may never happen twice.

Writing. Each line is written whole, in one ``write`` on a file opened for appending (under an
exclusive ``flock`` where the system has one), and the file is closed again: a crash keeps every
line before it, and several processes can share one file without tearing each other's lines. Each line carries a format
version ``v``, a ``run_id`` unique across processes, a timestamp ``ts`` and a sequence number ``seq``
(per recorder, so a gap says a line is missing). A writer killed mid-line leaves a torn line with no
newline; the next append sees that and starts on a fresh line, so the torn line never swallows it.

What JSON cannot carry is written in a safe form, so every announcement makes a line:

- a lone surrogate in a string (half of an emoji, from a badly decoded reply) becomes U+FFFD "�";
- ``NaN``, ``Infinity`` and ``-Infinity`` become the strings ``"nan"``, ``"inf"`` and ``"-inf"``
  (the file stays standard JSON that any reader accepts);
- an integer too long for ``str`` (over 4,300 digits) becomes its hexadecimal text, ``"0x..."``;
- anything nested deeper than ``MAX_DEPTH`` levels (or a structure that contains itself) is cut
  there and replaced by the string ``"<cut: nested deeper than 100 levels>"``;
- a tuple or set becomes a list, a key that is not a string becomes its ``repr``, an object with
  ``to_dict()`` becomes that dict, and any other object (``bytes`` included) becomes its ``repr``;
- an announcement that cannot be read at all becomes a line with its ``event`` name, its raw
  ``args`` in the forms above and ``unrecorded`` saying why (and a logged warning).

Secrets never reach the file: every string, keys included, passes through ``redaction.redact``
(a key pasted into a question is stored as ``***``). A line that cannot be written (disk full, no
permission) raises ``OSError`` from the listener, so the announcer logs it, or stops a ``strict``
run; ``unwritten`` counts such lines, and the next announcement is written as usual.

Reading. ``read_trace`` returns a ``Trace``: a list of the event dicts, plus ``skipped``, the line
numbers of torn lines it skipped (also announced with a ``TornLineWarning``), and ``lines``, the line
number of each event. Torn lines are skipped wherever they are, and a whole line glued to a torn one
by an older writer is still read. A line of another format version is a ``ReplayError``, and so is a
file in which no line is a trace event.

Runs. ``pick_run`` is the one rule for "run N of a trace" (see its docstring).
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import re
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
from ..redaction import RedactingFilter, redact, secret_values
from .base import RecordingObserver, event_dict

logger = logging.getLogger(__name__)
logger.addFilter(RedactingFilter())  # a failure's text may hold a key the run was handling

TRACE_VERSION = 1
MAX_DEPTH = 100
_CUT = f"<cut: nested deeper than {MAX_DEPTH} levels>"
_SURROGATE = re.compile("[\ud800-\udfff]")
_MARK = b'{"v": '  # how every line this module writes begins


class TornLineWarning(UserWarning):
    """``read_trace`` skipped lines cut short by a writer that died mid-line."""


class TraceRecorder(RecordingObserver):
    """Append every announcement to ``path`` as one JSON line (see the module docstring).

    The file is opened (and created, with its folders) at once, so an unwritable path fails here,
    before a run starts, not at the first announcement.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        os.close(_open(self.path))
        self.run_id = uuid.uuid4().hex
        self.unwritten = 0                    # lines that could not be written (OSError)
        self.last_error: OSError | None = None
        self._seq = 0

    def _hear(self, hook: str, *args: Any) -> None:
        if hook == "on_run_start":
            self._run, self._step = self._run + 1, None
        elif hook == "on_step_start":
            self._step = args[0]
        try:
            event = event_dict(hook, *args)
        except Exception as exc:  # e.g. a graph state nested past the recursion limit
            why = f"{type(exc).__name__}: {exc}"
            logger.warning("trace %s: the %s announcement could not be read as an event (%s); "
                           "writing its raw arguments instead", self.path, hook, why)
            event = {"event": hook.removeprefix("on_"), "args": list(args), "unrecorded": why}
        self.record({"run": max(self._run, 1), "step": self._step, **event})

    def record(self, event: dict[str, Any]) -> None:
        if event["event"] == "run_start":
            self.run_id = uuid.uuid4().hex
        self._seq += 1  # even if the write fails: the gap in seq shows the missing line
        line = {"v": TRACE_VERSION, "run_id": self.run_id, "seq": self._seq,
                "ts": datetime.now(timezone.utc).isoformat(timespec="microseconds"), **event}
        try:
            _append(self.path, (_encode(line) + "\n").encode("utf-8"))
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


def _encode(line: dict[str, Any]) -> str:
    secrets = secret_values()
    try:
        return json.dumps(safe_json(line, secrets), ensure_ascii=False, allow_nan=False)
    except Exception as exc:  # safe_json should leave nothing to fail; if it did, say so
        logger.warning("trace: an event could not be written as JSON (%s); writing its name only", exc)
        keep = {k: line.get(k) for k in ("v", "run_id", "seq", "ts", "run", "step", "event")}
        keep["unrecorded"] = f"{type(exc).__name__}: {exc}"
        return json.dumps(safe_json(keep, secrets), ensure_ascii=False, allow_nan=False)


def safe_json(value: Any, secrets: tuple[str, ...] = (), depth: int = 0) -> Any:
    """``value`` in the safe form the module docstring describes, with ``secrets`` redacted."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = str.__str__(value)
        if not text.isascii():  # isascii is instant; only other text can hold a lone surrogate
            text = _SURROGATE.sub("\ufffd", text)
        return redact(text, secrets)
    if isinstance(value, int):
        try:
            int.__repr__(value)
        except ValueError:  # more digits than Python will print in decimal
            return hex(value)
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else repr(float(value))
    if depth >= MAX_DEPTH:
        return _CUT
    try:
        return _container(value, secrets, depth + 1)
    except Exception as exc:  # an object whose to_dict/items/repr raises
        return f"<unprintable {type(value).__name__}: {type(exc).__name__}>"


def _container(value: Any, secrets: tuple[str, ...], depth: int) -> Any:
    if hasattr(value, "to_dict") and not isinstance(value, type):
        return safe_json(value.to_dict(), secrets, depth)
    if isinstance(value, Mapping):
        return {(safe_json(k, secrets) if isinstance(k, str) else safe_json(repr(k), secrets)):
                safe_json(v, secrets, depth) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [safe_json(v, secrets, depth) for v in value]
    return safe_json(repr(value), secrets)


def _open(path: Path) -> int:
    # Read-write so the tail can be checked; O_APPEND still sends every write to the end.
    flags = os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    try:
        return os.open(path, os.O_RDWR | flags, 0o644)
    except OSError:  # a target that can only be written (a pipe's end): no tail to check
        return os.open(path, os.O_WRONLY | flags, 0o644)


def _torn_tail(fd: int) -> bool:
    """Whether the file ends in the middle of a line (a writer died writing it)."""
    try:
        end = os.lseek(fd, 0, os.SEEK_END)
        return end > 0 and os.lseek(fd, end - 1, os.SEEK_SET) == end - 1 and os.read(fd, 1) != b"\n"
    except OSError:  # a pipe or a terminal (--trace /dev/stdout): nothing to read back
        return False


def _append(path: Path, data: bytes) -> None:
    fd = _open(path)
    try:
        if fcntl is not None:
            # Check the tail and write as one step: without the lock, another process's write in
            # progress looks like a torn tail. The lock goes with the process, killed or not.
            with contextlib.suppress(OSError):  # some targets (a pipe on some systems) take no lock
                fcntl.flock(fd, fcntl.LOCK_EX)
        if _torn_tail(fd):
            data = b"\n" + data  # start on a fresh line, and leave the torn one alone
        view = memoryview(data)
        while view:  # one write nearly always; a short write (a signal, a full disk) goes on from there
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


class Trace(list):
    """The events of a trace file, in file order: a list, plus where each event came from.

    ``path`` is the file, ``lines[i]`` the line number of event ``i``, and ``skipped`` the line
    numbers of the torn lines that were skipped (``len(trace.skipped)`` is how many).
    """

    def __init__(self, events: Iterable[dict[str, Any]] = (), *, path: Path | None = None,
                 lines: Iterable[int] = (), skipped: Iterable[int] = ()) -> None:
        super().__init__(events)
        self.path, self.lines, self.skipped = path, tuple(lines), tuple(skipped)


def read_trace(path: str | os.PathLike[str], *, run: int | str | None = None) -> Trace:
    """Read a trace back as a ``Trace`` (a list of event dicts); ``run`` keeps one run (see ``pick_run``).

    Torn lines are skipped wherever they are and reported in ``.skipped`` and a ``TornLineWarning``.
    Raises ``ReplayError`` (naming the file and line) for another format version, or a file in
    which no line is a trace event.
    """
    path = Path(path)
    events, lines, skipped = [], [], []
    # Bytes, split on "\n" only: a torn line may end in half a UTF-8 character ("°").
    raw_lines = path.read_bytes().split(b"\n")
    for number, raw in enumerate(raw_lines, 1):
        if not raw.strip():
            continue
        found, torn = _parse_line(raw)
        for event in found:
            _check_version(event, path, number)
        events += found
        lines += [number] * len(found)
        if torn:
            skipped.append(number)
    if skipped and not events and not all(_torn_like(raw_lines[n - 1]) for n in skipped):
        raise ReplayError(f"{path} is not a trace: no line is a trace event (line {skipped[0]} is not "
                          f"one); give a file written by TraceRecorder")
    if skipped:
        where = ", ".join(map(str, skipped[:10])) + (" ..." if len(skipped) > 10 else "")
        warnings.warn(f"{path}: skipped {len(skipped)} torn line(s) (line {where}), cut short by a writer "
                      f"that stopped mid-line; every whole line was read", TornLineWarning, stacklevel=2)
    trace = Trace(events, path=path, lines=lines, skipped=skipped)
    if run is None:
        return trace
    keep = run_indices(trace, run)
    return Trace([trace[i] for i in keep], path=path, lines=[lines[i] for i in keep], skipped=skipped)


def _parse_line(raw: bytes) -> tuple[list[dict[str, Any]], bool]:
    """The events on one line, and whether part of it was torn."""
    whole = _event(raw)
    if whole is not None:
        return [whole], False
    # Glued lines (an older writer appended after a torn tail): a whole event starts at a mark and
    # ends just before a later mark or at the end; a mark inside an event's own data just fails to parse.
    starts = [m.start() for m in re.finditer(re.escape(_MARK), raw)]
    found, torn, at = [], not starts or starts[0] != 0, 0
    while at < len(starts):
        ends = starts[at + 1:] + [len(raw)]
        hit = next((j for j, end in enumerate(ends) if _is_event(_event(raw[starts[at]:end]))), None)
        if hit is None:
            torn, at = True, at + 1
        else:
            found.append(_event(raw[starts[at]:ends[hit]]))
            at += hit + 1
    return found, torn


def _is_event(value: dict[str, Any] | None) -> bool:
    return value is not None and "event" in value


def _event(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _torn_like(raw: bytes) -> bool:
    return raw.startswith(_MARK) or _MARK.startswith(raw)


def _check_version(event: dict[str, Any], path: Path, number: int) -> None:
    version = event.get("v", TRACE_VERSION)  # hand-written events may leave it out
    if type(version) is not int or version != TRACE_VERSION:
        raise ReplayError(f"{path}, line {number}: trace format version {version!r}, but this mingraph-lite "
                          f"reads version {TRACE_VERSION}; use the mingraph-lite that wrote it, or record "
                          f"the run again")


def _run_key(event: Mapping[str, Any]) -> Any:
    return ("run_id", event["run_id"]) if "run_id" in event else ("run", event.get("run"))


def run_ids(events: Iterable[Mapping[str, Any]]) -> list[Any]:
    """The runs in ``events``, in order of first appearance: each ``run_id`` (or ``run`` number)."""
    return [key[1] for key in dict.fromkeys(_run_key(e) for e in events)]


def run_indices(events: list[Mapping[str, Any]], run: int | str | None) -> list[int]:
    """The positions in ``events`` of the run ``pick_run`` picks (for callers that need where it came from)."""
    keys = list(dict.fromkeys(_run_key(e) for e in events))
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
    return [i for i, e in enumerate(events) if _run_key(e) == chosen]


def pick_run(events: Iterable[Mapping[str, Any]], run: int | str | None = None) -> list[dict[str, Any]]:
    """The events of one run, in their order. The one rule for "run N", everywhere:

    a run is every event with the same ``run_id`` (trace lines; runs interleaved by several
    processes stay apart), or, for events without one (``EventRecorder``), the same ``run`` number.
    Runs are counted in order of first appearance. ``run`` is a 1-based position, a negative one
    counting from the end (-1 is the last), or a ``run_id`` string; ``None`` means the last run.
    """
    events = list(getattr(events, "events", events))
    return [dict(events[i]) for i in run_indices(events, run)]


def trace_runs(path: str | os.PathLike[str]) -> list[str]:
    """The run ids in a trace file, in the order they first appear."""
    return run_ids(read_trace(path))
