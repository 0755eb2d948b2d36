"""Refuse an answer that only calls the package's own version of the exercise (issue 21: nothing to copy).

While ``refusing(...)`` is active, calling any of the given functions raises ``PackageCalled``, wherever
the learner's code got its reference from (an alias, a registry, an adapter): the functions' code itself is
swapped for a moment, so every name that points at them sees the swap. A copy made before the swap
(``types.FunctionType(f.__code__, ...)``) still runs the original code, so a profile hook also notes every
frame that runs it; and a second copy of the package's module, loaded afresh from its file, runs code compiled from
the same source, so a frame whose function has the same qualified name in the same file counts too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..calls import watching


class PackageCalled(Exception):
    """The learner's answer called a package function that the exercise asks them to write."""


def _refuse(*args: Any, **kwargs: Any) -> Any:
    # Swapped into another module's function, so it finds this module by import, not by its own globals.
    raise __import__("lessons.exercises.package_guard", fromlist=["PackageCalled"]).PackageCalled()


@contextmanager
def refusing(*functions: Callable[..., Any]) -> Iterator[list[str]]:
    """Inside the block, each of ``functions`` raises ``PackageCalled`` instead of running; the list it gives
    collects the names of the originals' code that ran anyway, through a copy of the function."""
    plain = [getattr(fn, "__func__", fn) for fn in functions]  # a classmethod's function
    saved = [(fn, fn.__code__) for fn in plain]
    codes = [code for _, code in saved]
    places = {(code.co_qualname, os.path.realpath(code.co_filename)) for code in codes}
    names = {name for name, _ in places}

    def runs_one(frame: Any) -> bool:  # the name first: realpath is dear, and almost every frame fails on it
        code = frame.f_code
        return any(code is original for original in codes) or (
            code.co_qualname in names and (code.co_qualname, os.path.realpath(code.co_filename)) in places)

    try:
        for fn, _ in saved:
            fn.__code__ = _refuse.__code__
        with watching(runs_one) as ran:
            yield ran
    finally:
        for fn, code in saved:
            fn.__code__ = code


def calls_package(answer: Callable[..., Any], functions: tuple[Callable[..., Any], ...], *args: Any,
                  **kwargs: Any) -> bool:
    """Whether ``answer(*args, **kwargs)`` reaches one of ``functions`` or a copy of one (any other error is the
    learner's to see later)."""
    with refusing(*functions) as ran:
        try:
            answer(*args, **kwargs)
        except PackageCalled:
            return True
        except Exception:  # the check runs the answer again and explains its own crash
            return bool(ran)
    return bool(ran)
