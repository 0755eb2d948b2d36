"""Check cells for the notebooks' exercises: ``check("01.1", answer)`` prints a verdict and never raises.

Each notebook's exercises live in one module here (``nb01.py`` for notebook 01, ...), each checker
registered with ``@exercise(id, kind=..., title=...)``. A checker takes the learner's answer (a function,
a class or a value) and returns a one-line success message, or raises ``Hint`` with what to look at
next. The exercise cell ships a stub: a function that raises ``NotImplementedError``, or the value
``...``; with the stub, the check says "not done yet" and the notebook carries on.

``notebooks/solutions/NN_name.py`` holds the reference answers (``SOLUTIONS``) and plausible wrong ones
(``WRONG``); ``tests/notebooks/test_exercises.py`` checks that every solution passes and every wrong
answer fails with its hint.

``verdict`` refuses, in every exercise, an answer that is not the learner's own: the notebook's version, or code
that runs it (``reference.watch``); its code pasted back (``copies.py``, asked only of an answer the checker passed,
so a wrong answer gets its hint); a checker's private helper (``from lessons.exercises.nb09 import _repeat_router``)
that the answer is, holds, or names and runs. The public helpers the notebooks import from here (``recorded``,
``agent_with_router``) stay usable.
"""

from __future__ import annotations

import inspect

import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
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
        return Verdict(id, "not done", "replace the `...` in the exercise cell with your answer, then run the check again")
    from ..reference import is_reference, watch

    if is_reference(answer) or _imported_in_a_notebook(answer):
        return Verdict(id, "not yet", OWN_VERSION)
    from ..calls import watching
    from ..copies import copies_reference

    try:
        if not _holds_code(answer):
            return Verdict(id, "passed", EXERCISES[id].checker(answer))
        if (helper := _checkers_own_in(answer)) is not None:
            return Verdict(id, "not yet", CHECKERS_OWN.format(helper))
        with (watch(EXERCISES[id].may_use) as borrowed, watching(_solutions_run_by_learner) as solved,
              watching(_checkers_own_run_by_learner) as helpers):
            message = EXERCISES[id].checker(answer)
        # only an answer that passed is asked whether it is a copy: a wrong one gets its hint, copied or not
        if copies_reference(id, answer):
            return Verdict(id, "not yet", COPIED)
        if borrowed or solved:
            return Verdict(id, "not yet", OWN_VERSION)
        if named := [name for name in helpers if name in _names_in(answer)]:
            return Verdict(id, "not yet", CHECKERS_OWN.format(named[0]))
        return Verdict(id, "passed", message)
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
COPIED = ("that is the notebook's own version, its docstring and all (the same code as in notebooks/solutions, "
          "compiled again): the check wants yours")


CHECKERS_OWN = ("that runs {}, the checker's own helper (a private function in lessons/exercises, there to test "
                "answers with): the check wants your code")
_LESSONS = Path(__file__).resolve().parents[1]
_CHECKERS = _LESSONS / "exercises"
_COURSE = ("lessons", "mingraph_lite", "reference_", "langgraph", "langchain")


@cache
def _place(filename: str) -> str:
    """Where code compiled from ``filename`` lives: "checkers", "solutions", "course" (the rest of lessons, the
    package, the standard library and installed packages) or "learner" (a notebook, a test, anything else)."""
    from ..reference import SOLUTIONS

    path = Path(filename).resolve()
    if path.is_relative_to(_CHECKERS):
        return "checkers"
    if path.is_relative_to(SOLUTIONS):
        return "solutions"
    prefixes = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    return "course" if path.is_relative_to(_LESSONS) or any(path.is_relative_to(p) for p in prefixes) else "learner"


def _private(code: Any) -> bool:
    """A checker's own helper: a private function at the top of a checker module (``_repeat_router``)."""
    return code.co_qualname == code.co_name and code.co_name.startswith("_") and not code.co_name.startswith("__") \
        and _place(code.co_filename) == "checkers"


def _run_by_learner(frame: Any) -> bool:
    """Whether the frame's caller is the learner's code, not a checker, the package or a solutions file."""
    caller = frame.f_back
    return (caller is not None and not caller.f_globals.get("__name__", "").startswith(_COURSE)
            and _place(caller.f_code.co_filename) == "learner")


def _checkers_own_run_by_learner(frame: Any) -> bool:
    return _private(frame.f_code) and _run_by_learner(frame)


def _solutions_run_by_learner(frame: Any) -> bool:
    """Code of a solutions file loaded other than by ``reference`` (which ``watch`` sees, ``may_use`` included)."""
    return (_place(frame.f_code.co_filename) == "solutions" and _run_by_learner(frame)
            and not frame.f_globals.get("__name__", "").startswith("reference_"))


def _imported_in_a_notebook(answer: Any) -> bool:
    """An answer compiled from a solutions file, checked in a notebook: the learner imported it by hand
    (round 18 passed 05.1 and 05.3 so). The course's tests load those files too, to check them, but outside a
    kernel; ``reference`` loads them for later cells, and ``is_reference`` knows those."""
    from ..calls import codes_of

    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    parts = answer if isinstance(answer, tuple | list) else (answer,)
    return type(shell).__name__ == "ZMQInteractiveShell" and any(  # its own code: a class it builds on may be one
        _place(code.co_filename) == "solutions" for part in parts  # that an exercise lets it use (``may_use``)
        for code in codes_of(part if callable(part) else type(part), bases=False))


def _codes(answer: Any) -> list[Any]:
    from ..calls import codes_of

    parts = answer if isinstance(answer, tuple | list) else (answer,)
    return [code for part in parts for code in codes_of(part if callable(part) else type(part))]


def _checkers_own_in(answer: Any) -> str | None:
    """The name of a checker's private function that the answer is, or holds (``class W: messages = _shortest``),
    or reads under another name (``g = nb05_thinking._report`` then ``g(events)``: round 14's reader)."""
    held = next((code.co_name for code in _codes(answer) if _private(code)), None)
    return held or next(iter(sorted(_aliased(answer))), None)


def _aliased(answer: Any) -> set[str]:
    """Checker helpers bound to a global name the answer's functions read."""
    parts = answer if isinstance(answer, tuple | list) else (answer,)
    functions = [f for part in parts for f in ([part] if inspect.isfunction(part) else
                                              [v for v in vars(part).values() if inspect.isfunction(v)]
                                              if inspect.isclass(part) else [])]
    return {bound.__name__ for f in functions for name in _names_in(f)
            if inspect.isfunction(bound := f.__globals__.get(name)) and _private(bound.__code__)}


def _names_in(answer: Any) -> set[str]:
    """The names the answer's code reads: a helper it runs counts only if it named it (imported it), not if the
    check handed it in (a graph's nodes, a fake model)."""
    return {name for code in _codes(answer) for name in code.co_names}


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


def letter_answer(answer: Any, letters: str = "ABC") -> str:
    """A multiple-choice answer as its upper-case letter, or a hint naming the letters to choose from."""
    if not isinstance(answer, str) or answer.strip().upper() not in tuple(letters):
        raise Hint("answer with one letter: " + ", ".join(f'"{x}"' for x in letters[:-1]) + f' or "{letters[-1]}"')
    return answer.strip().upper()


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
