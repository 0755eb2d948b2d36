"""Notebook 05 shows no answer to copy: the interval's closed form never appears, the package's ``wilson`` only
after the 05.3 check, no cell defines the reference rules of 05.1 or 05.3, no prediction follows its answer, and
05.2 comes before the notebook shows ``classify`` (issue 21)."""

from __future__ import annotations

from pathlib import Path

import jupytext

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "05_reasoning_capture.py"


def _sources() -> list[str]:
    return [cell.source for cell in jupytext.read(NOTEBOOK).cells]


def test_the_package_interval_appears_only_after_the_exercise_that_builds_it():
    sources = _sources()
    check = next(i for i, s in enumerate(sources) if 'check("05.3"' in s)
    assert not [s for s in sources[:check] if "wilson(" in s]
    assert not [s for s in sources if "half-width" in s or "z²/" in s]  # the closed form is never printed


def test_no_cell_holds_a_working_answer_to_05_1_or_05_3():
    text = "\n".join(_sources())
    assert text.count("def made_up_lines") == 1 and text.count("def interval") == 1
    for stub in ("def made_up_lines(events):\n    raise NotImplementedError",
                 "def interval(k, n):\n    raise NotImplementedError"):
        assert stub in text


def _first(sources: list[str], text: str) -> int:
    return next(i for i, s in enumerate(sources) if text in s)


def test_every_prediction_comes_before_the_cell_that_answers_it():
    sources = _sources()
    assert not [s for s in sources[:_first(sources, "my_prediction = ...") + 2] if "(3, 3" in s]
    guess = _first(sources, "my_outcome_guess = ...")
    answers = ("replay(folder)", "12 of 16", "compare(SHIPPED)")
    assert guess < min(_first(sources, text) for text in answers)
    line_and_case = _first(sources, "my_line_and_case = ...")
    assert line_and_case < _first(sources, "ReplayLLM.from_trace(TRACE_10)")
    assert not [s for s in sources[:line_and_case] if "row['case']" in s or '"case", "line"' in s or "Line 9" in s]


def test_exercise_05_2_comes_before_the_notebook_shows_classify():
    sources = _sources()
    assert _first(sources, 'check("05.2"') < _first(sources, "import classify")
    assert not [s for s in sources[:_first(sources, 'check("05.2"')] if "classify(" in s]
