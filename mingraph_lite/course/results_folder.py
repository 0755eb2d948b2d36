"""One experiment's folder on disk, written so that a run is recorded whole or not at all.

``results.csv`` (one row per run), ``summary.json`` (model, definition, settings, counts), ``traces/``
(one trace per run), ``outcomes.png``. Every file is written to a ``.partial`` name and renamed into place
(atomic on one file system); a run's trace moves in before its row marks it recorded, so a run cut short
is run again on resume, and what an interrupted command left is removed when the folder is opened.
One command writes into a folder at a time (``locked``). Every text passes through ``redaction.redact``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import socket
import subprocess
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..observers.base import safe_json
from ..redaction import redact, secret_values

RESULTS, SUMMARY, TRACES, FIGURE, LOCK = "results.csv", "summary.json", "traces", "outcomes.png", ".lock"
PARTIAL = ".partial"


class ResultsFolderBusy(ValueError):
    """Another experiment command is writing into this results folder."""


@dataclass(frozen=True)
class RunResult:
    """One recorded run: which (variant, index), its seed and temperature, and how it was classified."""

    variant: str
    index: int
    seed: int
    temperature: float | None
    outcome: str
    case: int | None
    line: int | None
    why: str
    answer: str | None
    celsius_as_fahrenheit: bool
    converted_with_tool: bool
    model: str        # who answered, as the model named itself in the trace
    script: str       # the modelled behaviour for a scripted run, "" for a real model
    trace: str        # the trace file, relative to the folder
    run_id: str
    seconds: float
    system_prompt: str = ""   # what the variant said to the model (absent in folders of the first edition)
    examples: str = ""        # its worked example: a shipped name, "inline", or ""
    settings: str = ""        # its effective settings as JSON: result forms, temperature, max_steps, ...

    @property
    def key(self) -> tuple[str, int]:
        return (self.variant, self.index)


_TYPES = {"index": int, "seed": int, "temperature": float, "case": int, "line": int, "seconds": float,
          "celsius_as_fahrenheit": lambda s: s == "True", "converted_with_tool": lambda s: s == "True"}


def _from_row(row: Mapping[str, str]) -> RunResult:
    values: dict[str, Any] = {}
    for f in fields(RunResult):
        text, convert = row.get(f.name) or "", _TYPES.get(f.name)
        values[f.name] = (convert(text) if convert else text) if text or f.name not in (*_TYPES, "answer") else None
    return RunResult(**values)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole: to a temporary name, flushed to disk, then renamed over it."""
    temp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}{PARTIAL}")
    with temp.open("w", encoding="utf-8", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)


def read_results(folder: str | os.PathLike[str]) -> list[RunResult]:
    """The runs recorded in ``folder`` (none if it has no ``results.csv`` yet)."""
    path = Path(folder) / RESULTS
    if not path.is_file():
        return []
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            return [_from_row(row) for row in csv.DictReader(handle)]
    except (UnicodeDecodeError, ValueError, TypeError) as e:  # a hand-edited or foreign file
        raise ValueError(f"{path}: not a results file this command wrote ({type(e).__name__}: {e})") from None


def read_summary(folder: str | os.PathLike[str]) -> dict[str, Any]:
    path = Path(folder) / SUMMARY
    if not path.is_file():
        return {}
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"{path}: not a summary this command wrote ({type(e).__name__}: {e})") from None
    if not isinstance(summary, dict):
        raise ValueError(f"{path}: not a summary this command wrote (a JSON {type(summary).__name__}, not an object)")
    return summary


def results_csv(runs: Iterable[RunResult]) -> str:
    out, secrets = io.StringIO(), secret_values()
    writer = csv.DictWriter(out, fieldnames=[f.name for f in fields(RunResult)], lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: redact(v, secrets) if isinstance(v, str) else v for k, v in asdict(r).items()} for r in runs)
    return out.getvalue()


def trace_name(slug: str, index: int) -> str:
    return f"{TRACES}/{slug}-{index:02d}.jsonl"


def tidy(folder: Path, recorded: Iterable[RunResult]) -> None:
    """Remove what an interrupted command left behind: partial files, traces of unrecorded runs."""
    keep = {folder / r.trace for r in recorded}
    for path in [*folder.glob(f"*{PARTIAL}"), *(folder / TRACES).glob("*")]:
        if path.is_file() and (path.name.endswith(PARTIAL) or path not in keep):
            path.unlink()


def git(folder: Path, *args: str) -> str | None:
    """What ``git args`` prints in ``folder`` (a commit), or None outside a checkout or without git."""
    try:
        done = subprocess.run(["git", *args], cwd=folder, text=True, capture_output=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def summary_json(summary: Mapping[str, Any]) -> str:
    return json.dumps(safe_json(summary, secret_values()), indent=2, ensure_ascii=False) + "\n"


@contextlib.contextmanager
def locked(folder: str | os.PathLike[str]) -> Iterator[None]:
    """Hold ``folder``'s lock file while a command writes into it; ``ResultsFolderBusy`` if another holds it.
    Created atomically (``O_EXCL``, which network drives honour too), it names its holder; a lock whose
    holder died on this host is taken over."""
    path = Path(folder) / LOCK
    mine = {"pid": os.getpid(), "host": socket.gethostname(), "since": datetime.now(timezone.utc).isoformat()}
    _take(path, mine)
    try:
        yield
    finally:
        if _holder(path) == mine:
            path.unlink()


def _take(path: Path, mine: dict[str, Any]) -> None:
    for _ in range(2):  # a second try only after taking over a dead holder's lock
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            holder = _holder(path)
            if not _dead(holder):
                raise ResultsFolderBusy(_busy(path, holder)) from None
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(mine))
        return
    raise ResultsFolderBusy(_busy(path, _holder(path)))


def _holder(path: Path) -> dict[str, Any] | None:
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # gone, or being written this instant
    return holder if isinstance(holder, dict) else None


def _dead(holder: dict[str, Any] | None) -> bool:
    """Whether the holder is a process of this host that no longer runs (elsewhere we cannot tell)."""
    if os.name == "nt" or holder is None or holder.get("host") != socket.gethostname():
        return False  # on Windows os.kill would end the process, not ask about it
    try:
        os.kill(int(holder["pid"]), 0)  # signal 0 only asks whether it runs
    except ProcessLookupError:
        return True
    except (OSError, TypeError, ValueError, KeyError):  # alive under another user, or no pid to ask about
        pass
    return False


def _busy(path: Path, holder: dict[str, Any] | None) -> str:
    who = ("another experiment command" if holder is None else
           f"another experiment command (pid {holder.get('pid')} on {holder.get('host')}, since {holder.get('since')})")
    return (f"{path.parent} is in use by {who}; wait for it to finish or pass another --out folder "
            f"(if no such command runs any more, delete {path})")
