"""03.2's check that "asking human" is a situation of the learner's own sticky note, judged on a real run.

It lives apart from ``nb03.py`` to keep each module short. The rule: each time the human is asked, the pass of the
learner's loop it is asked in must have *begun* with the note saying "asking human", and the note must say
something else on other passes. Setting the string just before asking, inside the errands branch, or naming it in
a branch that never runs, does not count; nor does running the given ``sticky_note_loop`` with a wrapped registry.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from collections.abc import Callable
from typing import Any

from ..calls import watching
from ..sticky_note import sticky_note_loop
from . import Hint

_GIVEN = sticky_note_loop.__code__


def _pass_line(loop: Any) -> int | None:
    """The line each pass of the function's outermost (while) loop starts on (its body's first statement): 0 if it has
    no loop, None if its source cannot be read (compiled from a string)."""
    try:
        lines, start = inspect.getsourcelines(loop)
    except (OSError, TypeError):
        return None
    nodes = list(ast.walk(ast.parse(textwrap.dedent("".join(lines)))))  # outer loops first; a while before a for
    loops = [n for n in nodes if isinstance(n, ast.While)] or [n for n in nodes if isinstance(n, ast.For)]
    return start + loops[0].body[0].lineno - 1 if loops else 0


def _is_given(frame: Any) -> bool:  # the given loop under any name: its code runs
    return frame.f_code.co_filename == _GIVEN.co_filename and frame.f_code.co_name == _GIVEN.co_name


def has_its_own_note(loop: Any, run: Callable[[Callable[[Any], Any]], Any]) -> None:
    """``run(spy)`` runs ``loop`` once with ``spy(human)`` as its human, on a run with an unknown city."""
    code, line = getattr(loop, "__code__", None), _pass_line(loop)
    passes: list[dict[str, str]] = []  # the loop's text variables at the start of each pass
    asked_in: list[dict[str, str]] = []  # the pass each question to the human was asked in

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line" and frame.f_lineno == line:
            passes.append({k: v for k, v in frame.f_locals.items() if isinstance(v, str)})
        return local

    def spy(human: Any) -> Callable[[str], str]:
        def ask(city: str) -> str:
            asked_in.append(passes[-1] if passes else {})
            return human(city)
        return ask

    old = sys.gettrace()
    with watching(_is_given) as given:
        sys.settrace(lambda frame, event, arg: local if frame.f_code is code else None)
        try:
            run(spy)
        finally:
            sys.settrace(old)
    if given:
        raise Hint("your function runs the given sticky_note_loop (the human hidden in a wrapped registry, or "
                   "however it is reached): the exercise is the edit to the loop itself, a note value and a branch "
                   "of its own, because that edit is what the cost cell compares with the cards' edit")
    if code is not None and line == 0:
        raise Hint("your function has no while loop of its own: copy sticky_note_loop's lines and add the "
                   "new situation to its note")
    if code is None or line is None or not asked_in:
        return  # not a plain function, or no source to read: the runs above are all we can judge
    for seen in asked_in:
        names = [k for k, v in seen.items() if v == "asking human"]
        if not any(p.get(k) not in (None, "asking human") for k in names for p in passes):
            raise Hint('it runs right, but the human was asked in a pass of your loop that began with the note '
                       'not saying "asking human": the new situation needs a value the note takes and a branch '
                       "of its own that asks; setting the note inside the errands branch just before asking hides "
                       "one situation inside another")
