"""Check cells for the notebooks' exercises: ``check("01.1", answer)`` prints a verdict and never raises.

Each notebook's exercises live in one module here (``nb01.py`` for notebook 01, ...), each checker
registered with ``@exercise(id, kind=..., title=...)``. A checker takes the learner's answer (a function,
a class or a value) and returns a one-line success message, or raises ``Hint`` with what to look at
next. The exercise cell ships a stub: a function that raises ``NotImplementedError``, or the value
``...``; with the stub, the check says "not done yet" and the notebook carries on.

``notebooks/solutions/NN_name.py`` holds the reference answers (``SOLUTIONS``) and plausible wrong ones
(``WRONG``); ``tests/notebooks/test_exercises.py`` checks that every solution passes and every wrong
answer fails with its hint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["code", "reasoning"]


class Hint(Exception):
    """Raised by a checker: the answer is not right yet, and the message says where to look."""


class NotDone(Exception):
    """Raised by a checker (or by a stub) when the learner has not started the exercise."""


@dataclass(frozen=True)
class Exercise:
    id: str
    kind: Kind
    title: str
    checker: Callable[[Any], str]
    may_use: tuple[str, ...] = ()  # earlier exercises whose notebook version the answer may run


@dataclass(frozen=True)
class Verdict:
    exercise: str
    status: Literal["passed", "not yet", "not done"]
    message: str

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def __str__(self) -> str:
        mark = {"passed": "✅", "not yet": "❌", "not done": "⏳"}[self.status]
        return f"{mark} {self.exercise} {self.status}: {self.message}"


EXERCISES: dict[str, Exercise] = {}


def exercise(id: str, *, kind: Kind, title: str,
             may_use: tuple[str, ...] = ()) -> Callable[[Callable[[Any], str]], Callable[[Any], str]]:
    """Register a checker under an exercise id like ``"03.3"`` (notebook 03, third exercise). ``may_use`` names
    earlier exercises whose notebook version the answer may call, so a learner stuck on one can go on."""

    def register(checker: Callable[[Any], str]) -> Callable[[Any], str]:
        if id in EXERCISES:
            raise ValueError(f"exercise {id} is registered twice")
        EXERCISES[id] = Exercise(id, kind, title, checker, may_use)
        return checker

    return register


def verdict(id: str, answer: Any) -> Verdict:
    """Run one exercise's checker on an answer; every outcome, the learner's own crash included, is a verdict."""
    if id not in EXERCISES:
        raise KeyError(f"no exercise {id!r}; known: {', '.join(sorted(EXERCISES))}")
    if answer is ... or answer is None:
        return Verdict(id, "not done", "replace the `...` in the exercise cell with your answer, then run both cells")
    from ..reference import is_reference, watch

    if is_reference(answer):
        return Verdict(id, "not yet", OWN_VERSION)
    from ..copies import copies_reference

    if _holds_code(answer) and copies_reference(id, answer):
        return Verdict(id, "not yet", COPIED)
    try:
        if not _holds_code(answer):
            return Verdict(id, "passed", EXERCISES[id].checker(answer))
        with watch(EXERCISES[id].may_use) as borrowed:
            message = EXERCISES[id].checker(answer)
        return Verdict(id, "not yet", OWN_VERSION) if borrowed else Verdict(id, "passed", message)
    except NotImplementedError as error:
        if (inherited := _raised_in_the_package(error)) is not None:
            return Verdict(id, "not yet", f"{inherited}, which your code inherits from the package, raised "
                           "NotImplementedError: it is not meant to run here; write the part it stands for yourself")
        return Verdict(id, "not done", STUB)
    except NotDone:
        return Verdict(id, "not done", STUB)
    except Hint as hint:
        return Verdict(id, "not yet", str(hint))
    except Exception as exc:  # the learner's code crashed inside the check: that is a hint too
        return Verdict(id, "not yet", f"your code raised {type(exc).__name__}: {exc}")


STUB = "the exercise cell still holds the stub: write your code there, then re-run"


def _raised_in_the_package(error: BaseException) -> str | None:
    """The name of the package function that raised, if it did: a stub raises in the learner's own cell, but a
    base class the answer inherits (``RecordingObserver.record``) raises inside ``mingraph_lite``."""
    import traceback
    from pathlib import Path

    where = traceback.extract_tb(error.__traceback__)[-1]
    return where.name if "mingraph_lite" in Path(where.filename).parts else None


OWN_VERSION = ("that runs the notebook's own version, loaded from notebooks/solutions for the cells after the "
               "exercise; the check wants yours")
COPIED = ("that is the notebook's own version, copied (the same code as in notebooks/solutions, compiled again): "
          "the check wants yours")


def _holds_code(answer: Any) -> bool:
    """Whether the answer brings code of its own (a function, a class, an object), which may call a reference."""
    parts = answer if isinstance(answer, tuple | list) else (answer,)
    return any(callable(part) or type(part).__module__ != "builtins" for part in parts)


def number_answer(answer: Any, want: int, hints: dict[int, str], what: str, how: str = "") -> str:
    """A question answered by a count the checker got from a run: the number, or a hint (a known miss's own)."""
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise Hint(f"answer with a whole number (the {what}), not {answer!r}")
    if answer != want:
        raise Hint(hints.get(answer, f"the run says otherwise: {how or f'count the {what} again'}"))
    return f"right, {want}: the run shows the same ({what})"


def check(id: str, answer: Any) -> None:
    """The check cell: print the verdict (never raise, so the notebook runs on with a stub)."""
    print(verdict(id, answer))


def _register_all() -> None:
    # Each notebook's checkers register themselves on import; a missing module is a notebook not yet written.
    from importlib import import_module
    from pkgutil import iter_modules

    for info in iter_modules(__path__):
        if info.name.startswith("nb"):
            import_module(f"{__name__}.{info.name}")


_register_all()

__all__ = ["EXERCISES", "Exercise", "Hint", "NotDone", "Verdict", "check", "exercise", "number_answer", "verdict"]
