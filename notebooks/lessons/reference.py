"""The notebook's own version of an exercise, for the cells after it, loaded from ``notebooks/solutions/``.

Later cells never depend on the learner's code, and the answer must not be printed where the learner can copy it
(issue 21): ``reference("01.4")`` returns the reference object without showing its source.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions"


@cache
def _module(number: str) -> ModuleType:
    paths = sorted(SOLUTIONS.glob(f"{number}_*.py"))
    if len(paths) != 1:
        raise LookupError(f"expected one notebooks/solutions/{number}_*.py, found {len(paths)}")
    spec = importlib.util.spec_from_file_location(f"solutions_{paths[0].stem}", paths[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference(exercise: str) -> Any:
    """The reference answer of an exercise id like ``"01.4"``, as the solutions file defines it."""
    solutions = _module(exercise.split(".")[0]).SOLUTIONS
    if exercise not in solutions:
        raise KeyError(f"notebooks/solutions has no reference answer for {exercise}")
    return solutions[exercise]
