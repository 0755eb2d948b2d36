"""No notebook shows the code of its own exercises' answers (issue 21: nothing to copy).

Every function and method of a reference answer in ``notebooks/solutions/NN_name.py`` is compared, as a syntax tree,
with every function the notebook's ``.py`` pair defines; a twin means the answer is printed where a learner can copy
it. ``__init__`` is left out: the exercise cells hand the learner the constructor on purpose.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

from lessons.reference import _module

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: Notebooks whose answers have been taken out of view; add a notebook here once it is.
STEMS = ("03_state_cards", "04_observers", "12_capstone_pieces", "13_capstone_agent",
         "14_capstone")


def _bodies(source: str) -> list[tuple[str, str]]:
    """(name, body) of every function in ``source`` (docstrings dropped), the body as a comparable dump."""
    bodies = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name != "__init__":
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            bodies.append((node.name, ast.dump(ast.Module(body=body, type_ignores=[]))))
    return bodies


def _answer_functions(stem: str) -> list[object]:
    """The functions of the reference answers, and the methods of the reference classes written in the solutions
    file (not those @dataclass makes, nor inherited ones)."""
    module, found = _module(stem[:2]), []
    for answer in module.SOLUTIONS.values():
        for one in answer if isinstance(answer, tuple) else (answer,):
            if inspect.isfunction(one):
                found.append(one)
            elif inspect.isclass(one):
                found += [f for f in vars(one).values()
                          if inspect.isfunction(f) and f.__code__.co_filename == module.__file__]
    return found


@pytest.mark.parametrize("stem", STEMS)
def test_no_reference_answer_is_printed_in_its_notebook(stem):
    shown = {body for _, body in _bodies((NOTEBOOKS / f"{stem}.py").read_text(encoding="utf-8"))}
    functions = _answer_functions(stem)
    assert functions, f"{stem}: no code answers found in its solutions"
    for function in functions:
        for name, body in _bodies(textwrap.dedent(inspect.getsource(function))):
            assert body not in shown, f"{stem} shows the body of {function.__qualname__} ({name}), a reference answer"


def test_the_comparison_finds_a_printed_answer():
    printed = inspect.getsource(_module("03").SOLUTIONS["03.2"])
    assert set(_bodies(printed)) & set(_bodies("x = 1\n\n" + printed))


def _rebound(source: str) -> list[str]:
    """Top-level assignments to a name an earlier def or class statement made (the learner's cells define those)."""
    defined, rebound = set(), []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            rebound += [f"line {node.lineno}: {name}" for name in names if name in defined]
    return rebound


@pytest.mark.parametrize("stem", STEMS)
def test_no_cell_rebinds_a_class_or_function_an_earlier_cell_defined(stem):
    """Loading the notebook's own version under a learner's name (``Errands = reference(...)``) made re-running an
    earlier cell print something else, and a re-run exercise cell subclass the reference: use a new name."""
    assert _rebound((NOTEBOOKS / f"{stem}.py").read_text(encoding="utf-8")) == []


def test_a_rebinding_is_found():
    assert _rebound("class Errands: pass\nErrands, Other = 1, 2\n") == ["line 2: Errands"]
