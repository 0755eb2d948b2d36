"""Tell a copy of the notebook's own version from the learner's code, by the code itself.

``inspect.getsource(reference(...))`` (or ``??`` in Jupyter) prints a reference answer, and pasting it back in, or
``exec``-ing it, makes new functions under new names: ``is_reference`` and the profile watch no longer know them. But
compiled from the same source they run the same instructions on the same names and constants (their strings and
docstring included), laid out on the same lines; a learner who wrote their own, even with the notebook's variable
names, rarely matches all of that. Comments and blank lines do not count, and neither do the names of local
variables (a copy with them renamed is still the copy); a copy reworded or re-wrapped onto other lines is not
caught (a known limit). Only a reference with a docstring is looked for: round 13's reader wrote 04.3's
``ToolLedger`` word for word like the reference, which has none, and was called a copy; nobody writes another's
docstring word for word. A reference of ``LONG`` lines or more is looked for with its docstrings deleted too
(round 15's reader passed 13.1, 41 lines, that way): nobody writes that much the same by chance, on the same lines
with the same constants (01.4's honest 12 lines did, in round 12; 01.2 and 07.2, at 15, are left out). An answer
so short that everybody writes it alike (02.1's four-line ``__init__``, 01.3's script) is never called a copy. Code compiled from the solutions file itself (the course's own tests run the
reference answers and the wrong ones from there) is that file, not a copy. A check asks only about an answer that
passed: a wrong answer gets its hint, copied or not.
"""

from __future__ import annotations

import dis
import inspect
from functools import cache
from pathlib import Path
from typing import Any

from .calls import codes_of

#: below this many bytes of bytecode a function is too small to call a copy (``return a + b`` is everybody's)
SMALLEST = 60
#: and an answer whose sizeable functions hold less than this together, on fewer lines than ``FEWEST_LINES``
#: (def lines aside), is nearly forced by the exercise: 02.1's ``__init__`` (114 bytes on 3 lines: ``if memory is
#: None:``, ``memory = KeepAll(system_prompt)``, the ``super()`` call) is written the same way by everybody, and so
#: is 01.3's script (84 bytes, 3 lines)
LEAST_IN_ALL, FEWEST_LINES = 120, 5
#: a reference this long (its functions' lines together) is found with or without its docstrings
LONG = 20
_JUMPS = set(dis.hasjrel) | set(dis.hasjabs)
_LOCALS = set(dis.haslocal) | set(dis.hasfree)


def _fingerprint(code: Any, docstring: bool = True) -> tuple:
    # Not the raw bytecode: the compiler words a method call on a module the same file imports otherwise than on
    # one it does not (LOAD_ATTR, LOAD_METHOD), and the jumps' offsets move with it; so each instruction is read
    # by its name, its argument (a local variable by its place, not its name) and its line among the function's.
    instructions = list(dis.get_instructions(code))
    lines = sorted({i.positions.lineno for i in instructions if i.positions.lineno is not None})
    steps = tuple(("LOAD_ATTR" if i.opname == "LOAD_METHOD" else i.opname,
                   None if i.opcode in _JUMPS else i.arg if i.opcode in _LOCALS
                   else _fingerprint(i.argval, docstring) if inspect.iscode(i.argval) else i.argval,
                   None if i.positions.lineno is None else lines.index(i.positions.lineno)) for i in instructions)
    consts = tuple(c for c in code.co_consts if not inspect.iscode(c))  # the docstring too, unless asked:
    if not docstring:  # then a function without one holds None first, so the rest are compared as a set
        consts = tuple(sorted({repr(c) for c in consts[_docstring(code):] if c is not None}))
    return steps, consts, code.co_argcount, code.co_kwonlyargcount


def _docstring(code: Any) -> bool:
    """Whether the function has a docstring (in a function's code, the first constant is its docstring or None)."""
    return bool(code.co_consts) and isinstance(code.co_consts[0], str)


def _lines(code: Any) -> int:
    return len({line for _, _, line in code.co_lines() if line is not None}) - 1


@cache
def _reference(exercise: str) -> tuple[frozenset, frozenset]:
    """Fingerprints of the functions the reference answer of ``exercise`` defines itself (not those it inherits),
    with their docstrings, then without them (empty unless the reference is ``LONG``)."""
    from .reference import reference

    answer = reference(exercise)
    # comprehensions and lambdas are left out: `[x.strip() for x in lines]` is everybody's too
    codes = [c for part in (answer if isinstance(answer, tuple | list) else (answer,))
             for c in codes_of(part, bases=False) if len(c.co_code) >= SMALLEST and not c.co_name.startswith("<")]
    lines = sum(_lines(c) for c in codes)
    if not any(_docstring(c) for c in codes):  # nothing but code, which an honest learner can write word for word
        return frozenset(), frozenset()
    if sum(len(c.co_code) for c in codes) < LEAST_IN_ALL and lines < FEWEST_LINES:
        return frozenset(), frozenset()
    bare = frozenset(_fingerprint(c, docstring=False) for c in codes) if lines >= LONG else frozenset()
    return frozenset(_fingerprint(c) for c in codes), bare


def copies_reference(exercise: str, answer: Any) -> bool:
    """Whether the answer holds every sizeable function of the exercise's reference answer, compiled from anywhere
    but the solutions file (a wrong answer there shares some of them, never all: it would not be wrong)."""
    from .reference import SOLUTIONS

    try:
        wanted, bare = _reference(exercise)
    except (KeyError, LookupError):  # an exercise without a reference answer has nothing to copy
        return False
    if not wanted:
        return False
    parts = answer if isinstance(answer, tuple | list) else (answer,)
    codes = [code for part in parts for code in codes_of(part)
             if not Path(code.co_filename).resolve().is_relative_to(SOLUTIONS)]  # run from any folder
    if wanted <= {_fingerprint(code) for code in codes}:
        return True
    return bool(bare) and bare <= {_fingerprint(code, docstring=False) for code in codes}
