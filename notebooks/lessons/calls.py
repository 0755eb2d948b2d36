"""Seeing what code runs: the one profile hook the exercise checks share, to tell what an answer calls at any depth.

An answer can reach a function under any name (an alias, ``getattr``, a copy of its code), but not without running
it; so the checks look at the frames that run. Watchers nest: an inner one passes every event on to the outer one,
so a check that watches for the package's functions does not blind the watch for the notebook's own versions.
"""

from __future__ import annotations

import inspect
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


def codes_of(value: Any, bases: bool = True) -> list[Any]:
    """The code of a function, of each function a class defines (with ``bases``, its learner-written bases' too),
    and of every function defined inside those."""
    if inspect.isclass(value):
        found = []
        for cls in value.__mro__ if bases else (value,):
            if cls.__module__ not in ("builtins",) and not cls.__module__.startswith(("mingraph_lite", "typing")):
                for member in vars(cls).values():
                    found += codes_of(getattr(member, "__func__", member))
        return found
    code = getattr(inspect.unwrap(value) if callable(value) else value, "__code__", None)  # a @contextmanager's own
    return [] if code is None else nested_codes(code)


def nested_codes(code: Any) -> list[Any]:
    """``code`` and the code of every function, lambda and comprehension defined inside it."""
    found, todo = [], [code]
    while todo:
        code = todo.pop()
        found.append(code)
        todo += [c for c in code.co_consts if inspect.iscode(c)]
    return found


def names_read(code: Any) -> set[str]:
    """Every global or attribute name ``code`` reads, its comprehensions and inner functions included."""
    return {name for inner in nested_codes(code) for name in inner.co_names}
