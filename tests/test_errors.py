"""The exception tree drawn in ``errors.py`` is the class hierarchy, and docs/errors.md lists every error."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from mingraph_lite import errors
from mingraph_lite.errors import MingraphError

DOCS = Path(__file__).resolve().parents[1] / "docs" / "errors.md"
#: a drawn line: the tree's branches, then a class name; the name's column gives its depth
_DRAWN = re.compile(r"^(?P<lead>[\s│├└─]*)(?P<name>[A-Z]\w*)")


def drawn_parents(docstring: str) -> dict[str, str | None]:
    """Each class in the drawing -> the class drawn above it and to its left (``None`` for the root)."""
    lines = docstring.split(MingraphError.__name__, 1)[1].splitlines()
    parents: dict[str, str | None] = {MingraphError.__name__: None}
    path: list[tuple[int, str]] = [(-1, MingraphError.__name__)]  # (column, name), the open branches
    for line in lines[1:]:
        match = _DRAWN.match(line)
        if match is None or not match.group("lead").strip():
            break  # the drawing ends at the first line that is not a branch
        column = len(match.group("lead"))
        while len(path) > 1 and path[-1][0] >= column:
            path.pop()
        parents[match.group("name")] = path[-1][1]
        path.append((column, match.group("name")))
    return parents


def real_parents() -> dict[str, str | None]:
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass)
               if issubclass(c, MingraphError) and c.__module__ == errors.__name__]
    parents: dict[str, str | None] = {}
    for cls in classes:
        inside = [base for base in cls.__bases__ if issubclass(base, MingraphError)]
        parents[cls.__name__] = inside[0].__name__ if inside else None
    return parents


def test_the_drawing_is_the_hierarchy():
    assert drawn_parents(errors.__doc__) == real_parents()


def test_the_drawing_reader_sees_depth():
    drawing = """x\n    MingraphError\n     ├── A   text\n     │    └── B  more\n     └── C\n\nprose"""
    assert drawn_parents(drawing) == {"MingraphError": None, "A": "MingraphError", "B": "A",
                                      "C": "MingraphError"}


@pytest.mark.parametrize("name", sorted(real_parents()))
def test_docs_list_every_error_with_who_fixes_it(name):
    text = DOCS.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith(f"| `{name}`")]
    assert len(rows) == 1, f"docs/errors.md needs one table row for {name}"
    cells = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert len(cells) == 4 and all(cells), f"{name}: raised by, who can fix it, and how, all filled in"


@pytest.mark.parametrize("name", sorted(real_parents()))
def test_every_error_is_public(name):
    import mingraph_lite

    assert name in mingraph_lite.__all__ and getattr(mingraph_lite, name) is getattr(errors, name)
