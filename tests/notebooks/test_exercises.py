"""Every exercise: its reference solution passes its check, every plausible wrong answer fails with a hint,
and the saved notebook (run with the stub) says "not done yet" without raising.

Exercise ids are read from the notebooks' ``.py`` pairs (``check("NN.k", ...)``); reference answers from
``notebooks/solutions/NN_name.py`` (``SOLUTIONS = {id: answer}``, ``WRONG = {id: [(answer, hint_part), ...]}``).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import jupytext
import pytest

from lessons.exercises import EXERCISES, verdict

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CHECK = re.compile(r"""\bcheck\(\s*["'](\d\d\.\d+)["']""")


def _pairs() -> dict[str, Path]:
    return {p.stem: p for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))}


def _used() -> dict[str, str]:
    """exercise id -> the notebook stem whose check cell uses it."""
    return {ex: stem for stem, path in _pairs().items() for ex in CHECK.findall(path.read_text(encoding="utf-8"))}


def _solutions(stem: str) -> ModuleType:
    path = NOTEBOOKS / "solutions" / f"{stem}.py"
    assert path.is_file(), f"{stem} has exercises but no notebooks/solutions/{stem}.py"
    spec = importlib.util.spec_from_file_location(f"solutions_{stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


USED = _used()
SOLVED = {stem: _solutions(stem) for stem in sorted(set(USED.values()))}
WRONG = [(ex, i, answer, hint) for ex, stem in sorted(USED.items())
         for i, (answer, hint) in enumerate(getattr(SOLVED[stem], "WRONG", {}).get(ex, []))]


def test_every_check_cell_names_a_registered_exercise_with_a_solution_and_a_wrong_answer():
    for ex, stem in USED.items():
        assert ex in EXERCISES, f"{stem} checks {ex}, which no checker registers"
        assert ex.startswith(stem[:2]), f"{ex} is checked in {stem}: ids start with their notebook's number"
        assert ex in SOLVED[stem].SOLUTIONS, f"{ex} has no reference solution in solutions/{stem}.py"
        assert SOLVED[stem].WRONG.get(ex), f"{ex} has no plausible wrong answer in solutions/{stem}.py"
    assert set(EXERCISES) <= set(USED), f"registered but never checked: {sorted(set(EXERCISES) - set(USED))}"


@pytest.mark.parametrize("ex", sorted(USED))
def test_reference_solution_passes(ex):
    result = verdict(ex, SOLVED[USED[ex]].SOLUTIONS[ex])
    assert result.passed, str(result)


@pytest.mark.parametrize(("ex", "i", "answer", "hint"), WRONG, ids=[f"{ex}-wrong{i}" for ex, i, _, _ in WRONG])
def test_wrong_answer_fails_with_its_hint(ex, i, answer, hint):
    result = verdict(ex, answer)
    assert result.status == "not yet", str(result)
    assert hint in result.message, f"{ex}: the learner would see {result.message!r}, not a hint about {hint!r}"


@pytest.mark.parametrize("stem", sorted(set(USED.values())))
def test_saved_notebook_shows_not_done_yet_for_each_stub(stem):
    notebook = jupytext.read(NOTEBOOKS / f"{stem}.ipynb")
    for cell in notebook.cells:
        for ex in CHECK.findall(cell.source) if cell.cell_type == "code" else ():
            shown = "".join(out.get("text", "") for out in cell.get("outputs", []))
            assert f"{ex} not done" in shown, f"{stem}: the check cell of {ex} shows {shown!r}"
            assert not any(out.get("output_type") == "error" for out in cell.get("outputs", []))


def test_the_course_asks_for_at_least_20_exercises_in_01_to_06_most_of_them_code():
    course = [EXERCISES[ex] for ex in USED if "01" <= ex[:2] <= "06"]
    code = [ex for ex in course if ex.kind == "code"]
    assert len(course) >= 20 and len(code) >= 12, f"{len(course)} exercises, {len(code)} asking for code"
    for stem in sorted({stem for stem in USED.values() if "01" <= stem[:2] <= "06"}):
        assert sum(1 for ex, s in USED.items() if s == stem) >= 3, f"{stem} has fewer than 3 exercises"
