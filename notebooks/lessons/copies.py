"""Tell a copy of the notebook's own version from the learner's code, by the code itself.

``inspect.getsource(reference(...))`` (or ``??`` in Jupyter) prints a reference answer, and pasting it back in, or
``exec``-ing it, makes new functions under new names: ``is_reference`` and the profile watch no longer know them. But
compiled from the same source they read the same names, keep the same variables in the same order and hold the
same constants; a learner who wrote their own rarely matches all of that in a function of any size. So a check can refuse an answer
whose functions are a reference's, compiled elsewhere. Code compiled from the solutions file itself (the course's
own tests run the reference answers and the wrong ones from there) is that file, not a copy.
"""

from __future__ import annotations

import inspect
from functools import cache
from pathlib import Path
from typing import Any

from .calls import codes_of

#: below this many bytes of bytecode a function is too small to call a copy (``return a + b`` is everybody's)
SMALLEST = 60


def _fingerprint(code: Any) -> tuple:
    # Not the bytecode itself: the compiler words the same source differently in another module (a method call on
    # an imported module, say). The names it reads, its own variables in order and its constants say the same.
    # Strings are left out: a copy with its docstring or a message reworded is still the same code.
    consts = tuple(_fingerprint(c) if inspect.iscode(c) else c for c in code.co_consts if not isinstance(c, str))
    return code.co_names, code.co_varnames, code.co_argcount, consts


@cache
def _reference(exercise: str) -> frozenset:
    """Fingerprints of the functions the reference answer of ``exercise`` defines itself (not those it inherits)."""
    from .reference import reference

    answer = reference(exercise)
    # comprehensions and lambdas are left out: `[x.strip() for x in lines]` is everybody's too
    return frozenset(_fingerprint(c) for part in (answer if isinstance(answer, tuple | list) else (answer,))
                     for c in codes_of(part, bases=False) if len(c.co_code) >= SMALLEST and not c.co_name.startswith("<"))


def copies_reference(exercise: str, answer: Any) -> bool:
    """Whether the answer holds every sizeable function of the exercise's reference answer, compiled from anywhere
    but the solutions file (a wrong answer there shares some of them, never all: it would not be wrong)."""
    from .reference import SOLUTIONS

    try:
        wanted = _reference(exercise)
    except (KeyError, LookupError):  # an exercise without a reference answer has nothing to copy
        return False
    parts = answer if isinstance(answer, tuple | list) else (answer,)
    held = {_fingerprint(code) for part in parts for code in codes_of(part)
            if not Path(code.co_filename).resolve().is_relative_to(SOLUTIONS)}  # run from any folder
    return bool(wanted) and wanted <= held
