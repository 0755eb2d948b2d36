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
CHECK = re.compile(r"""\bcheck\(\s*["'](\d\d\.Q?\d+)["']""")
QUESTION = re.compile(r"^# (\d+)\. ", re.M)  # a numbered question in the "## Questions" markdown cell


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


def _is_question(ex: str) -> bool:
    return ".Q" in ex


def test_the_course_asks_for_at_least_20_exercises_most_of_them_code_and_3_per_notebook():
    course = [EXERCISES[ex] for ex in USED if ex[:2] >= "01" and not _is_question(ex)]
    code = [ex for ex in course if ex.kind == "code"]
    assert len(course) >= 20 and len(code) >= 12, f"{len(course)} exercises, {len(code)} asking for code"
    for stem in sorted(stem for stem in _pairs() if stem[:2] >= "01"):
        count = sum(1 for ex, s in USED.items() if s == stem and not _is_question(ex))
        assert count >= 3, f"{stem} has {count} exercises, fewer than 3"


@pytest.mark.parametrize("stem", sorted(stem for stem in _pairs() if stem[:2] >= "01"))
def test_every_notebook_from_01_ends_with_5_to_10_questions_answered_and_at_least_3_checked(stem):
    cells = jupytext.read(_pairs()[stem]).cells
    heads = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith("## Questions")]
    assert heads, f"{stem} has no '## Questions' section"
    asked = QUESTION.findall("\n".join("# " + line for c in cells[heads[-1]:] if c.cell_type == "markdown"
                                          for line in c.source.splitlines()))
    assert 5 <= len(asked) <= 10, f"{stem} asks {len(asked)} numbered questions, not 5 to 10"
    answers = getattr(SOLVED.get(stem) or _solutions(stem), "QUESTIONS", {})
    wanted = {f"{stem[:2]}.Q{n}" for n in asked}
    assert wanted <= set(answers), f"{stem}: no answer in solutions for {sorted(wanted - set(answers))}"
    checked = [ex for ex, s in USED.items() if s == stem and _is_question(ex)]
    assert len(checked) >= 3 and set(checked) <= wanted, f"{stem}: checked {checked}, need 3 of {sorted(wanted)}"


@pytest.mark.parametrize("stem", sorted(_pairs()))
def test_no_cell_rebinds_an_answer_to_the_notebooks_own_version(stem):
    """A reader's correct 08.2 was refused: a cell had rebound `collect_city` (08.1's answer) to the reference, so
    their declaration ran the notebook's code. Each reference gets a name of its own."""
    source = _pairs()[stem].read_text(encoding="utf-8")
    answers = set(re.findall(r"""\bcheck\(\s*["']\d\d\.Q?\d+["']\s*,\s*\(?([A-Za-z_]\w*)""", source))
    rebound = set(re.findall(r"^([A-Za-z_]\w*)\s*=\s*reference\(", source, flags=re.M))
    assert not answers & rebound, f"{stem} rebinds {sorted(answers & rebound)} to reference(...): use another name"
