"""Whether an answer only calls the package's own version instead of writing the exercise's code (issue 21).

Checkers use it to refuse, with a sentence, an answer like ``lambda s, m: BriefNodes(...).route_after_check(s)``.
"""

from __future__ import annotations

from types import CodeType
from typing import Any


def borrowed(answer: Any, names: set[str]) -> str | None:
    """The first of ``names`` the answer's code reaches for (a name, an attribute, a captured object), or None.

    Follows nested functions, closures and the answer's own helper functions, so
    ``lambda s: nodes.route_after_check(s)`` is caught as well."""
    if str(getattr(answer, "__module__", "") or "").startswith("mingraph_lite"):
        return getattr(answer, "__qualname__", repr(answer))
    todo, seen = [answer], set()
    while todo:
        fn = todo.pop()
        code = getattr(fn, "__code__", None)
        if code is None or code in seen:
            continue
        seen.add(code)
        home = getattr(fn, "__globals__", {})
        captured = [cell.cell_contents for cell in getattr(fn, "__closure__", None) or () if _bound(cell)]
        codes = [code]
        while codes:
            current = codes.pop()
            hit = next((name for name in current.co_names if name in names), None)
            if hit:
                return hit
            captured += [home[name] for name in current.co_names if name in home]
            codes += [const for const in current.co_consts if isinstance(const, CodeType)]
        for value in captured:
            hit = _named(value, names)
            if hit:
                return hit
            if getattr(value, "__module__", None) == getattr(fn, "__module__", None):  # the answer's own helper
                todo.append(value)
    return None


def _bound(cell: Any) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:  # an empty cell: the closure's variable is not bound yet
        return False
    return True


def _named(value: Any, names: set[str]) -> str | None:
    """``value`` is one of ``names``: an object of that class, a bound method of one, or a function of that class."""
    owner = type(getattr(value, "__self__", value)).__name__
    qualified = str(getattr(value, "__qualname__", "")).split(".")[0]
    return next((name for name in (owner, qualified) if name in names), None)

__all__ = ["borrowed"]
