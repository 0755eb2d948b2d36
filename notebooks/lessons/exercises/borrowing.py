"""Whether an answer only calls the package's own version instead of writing the exercise's code (issue 21).

Checkers use it to refuse, with a sentence, an answer like ``lambda s, m: BriefNodes(...).route_after_check(s)``.
"""

from __future__ import annotations

from types import CodeType
from typing import Any


def borrowed(answer: Any, names: set[str]) -> str | None:
    """The first of ``names`` the answer's code reaches for (a name, an attribute, a captured object), or None.

    Follows nested functions and closures, so ``lambda s: nodes.route_after_check(s)`` is caught as well."""
    if getattr(answer, "__module__", "").startswith("mingraph_lite"):
        return getattr(answer, "__qualname__", repr(answer))
    todo, seen = [answer], set()
    while todo:
        fn = todo.pop()
        code = getattr(fn, "__code__", None)
        if code is None or code in seen:
            continue
        seen.add(code)
        codes = [code]
        while codes:
            current = codes.pop()
            hit = next((name for name in current.co_names if name in names), None)
            if hit:
                return hit
            codes += [const for const in current.co_consts if isinstance(const, CodeType)]
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell: the closure's variable is not bound yet
                continue
            if type(value).__name__ in names:
                return type(value).__name__
            todo.append(value)
    return None


__all__ = ["borrowed"]
