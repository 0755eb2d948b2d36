"""Seeing what code runs: the one profile hook the exercise checks share, to tell what an answer calls at any depth.

An answer can reach a function under any name (an alias, ``getattr``, a copy of its code), but not without running
it; so the checks look at the frames that run. Watchers nest: an inner one passes every event on to the outer one,
so a check that watches for the package's functions does not blind the watch for the notebook's own versions.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def watching(wanted: Callable[[Any], bool]) -> Iterator[list[str]]:
    """Inside the block, the names of the functions called (in this thread, and in threads started there) whose
    frame ``wanted`` picks, in the order they were called."""
    seen: list[str] = []
    outer, outer_threads = sys.getprofile(), threading.getprofile()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and wanted(frame):
            seen.append(frame.f_code.co_name)
        if outer is not None:
            outer(frame, event, arg)

    sys.setprofile(profile)
    threading.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(outer)
        threading.setprofile(outer_threads)
