"""The notebook's own version of an exercise, for the cells after it, loaded from ``notebooks/solutions/``.

Later cells never depend on the learner's code, and the answer must not be printed where the learner can copy it
(issue 21): ``reference("01.4")`` returns the reference object without printing it, and
``reference("13_capstone_agent")`` the whole solutions module (``.PriceAgent`` ...). Nothing stops a learner from asking
``inspect.getsource`` for it, as nothing stops them opening the solutions file; what the checks refuse is an answer
that is, or runs, the reference (``watch``), or is its code pasted back in (``lessons/copies.py``).
"""

from __future__ import annotations

import importlib.util
import sys
from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from .calls import codes_of, watching

SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions"
PREFIX = "reference_"  # the module name a loaded reference carries, so a check can tell it from the learner's code


@cache
def _module(number: str) -> ModuleType:
    paths = sorted(SOLUTIONS.glob(f"{number}_*.py"))
    if len(paths) != 1:
        raise LookupError(f"expected one notebooks/solutions/{number}_*.py, found {len(paths)}")
    spec = importlib.util.spec_from_file_location(f"{PREFIX}{paths[0].stem}", paths[0])
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a TypedDict's annotations are resolved through its module
    spec.loader.exec_module(module)
    return module


def is_reference(answer: Any) -> bool:
    """Whether an answer (or a part of a tuple answer) is a reference loaded here, not the learner's own code."""
    parts = answer if isinstance(answer, tuple | list) else (answer,)
    loaded = [value for module in sys.modules.values() if getattr(module, "__name__", "").startswith(PREFIX)
              for value in vars(module).values() if not isinstance(value, str | int | float | bool | type(None))
              and not _imported(value)]
    return any((getattr(part if callable(part) else type(part), "__module__", None) or "").startswith(PREFIX)
               or any(part is value for value in loaded) for part in (*parts, answer))


def _imported(value: Any) -> bool:
    """A function, class or module a solutions file imports from elsewhere (the package's own, say): not ours."""
    if isinstance(value, ModuleType):
        return True
    module = getattr(value, "__module__", None) if callable(value) else None
    return module is not None and not module.startswith(PREFIX)


def watch(may_use: tuple[str, ...] = ()) -> AbstractContextManager[list[str]]:
    """Note every call into a loaded reference while the block runs: a learner's answer that only wraps the
    notebook's own version (``lambda *a: reference("01.4")(*a)``) is caught by what it runs, not by its name.
    ``may_use`` names earlier exercises whose own version the answer may run (a later exercise built on them)."""
    allowed = {code for id in may_use for code in codes_of(reference(id), bases=False)}
    return watching(lambda frame: frame.f_globals.get("__name__", "").startswith(PREFIX)
                    and frame.f_code not in allowed)


def reference(exercise: str) -> Any:
    """The reference answer of an exercise id like ``"01.4"``; for a notebook's name, its whole solutions module."""
    if "_" in exercise:
        return _module(exercise.split("_")[0])
    solutions = _module(exercise.split(".")[0]).SOLUTIONS
    if exercise not in solutions:
        raise KeyError(f"notebooks/solutions has no reference answer for {exercise}")
    return solutions[exercise]
