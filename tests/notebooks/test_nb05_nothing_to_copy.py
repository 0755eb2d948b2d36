"""Notebook 05 shows no answer to copy: the interval's closed form never appears, the package's ``wilson`` only
after the 05.4 check, no cell defines the reference rules of 05.3 or 05.4, no prediction follows its answer, and
05.2 comes before the notebook shows ``classify``, on a run whose events the notebook never holds (issue 21)."""

from __future__ import annotations

from pathlib import Path

import jupytext

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "05_reasoning_capture.py"


def _sources() -> list[str]:
    return [cell.source for cell in jupytext.read(NOTEBOOK).cells]


def test_the_package_interval_appears_only_after_the_exercise_that_builds_it():
    sources = _sources()
    check = next(i for i, s in enumerate(sources) if 'check("05.4"' in s)
    assert not [s for s in sources[:check] if "wilson(" in s]
    assert not [s for s in sources if "half-width" in s or "z²/" in s]  # the closed form is never printed


def test_no_cell_holds_a_working_answer_to_05_1_05_3_or_05_4():
    text = "\n".join(_sources())
    assert text.count("def made_up_counts") == 1 and text.count("def interval") == 1
    assert text.count("def thinking_report") == 1
    for stub in ("def made_up_counts(runs):\n    raise NotImplementedError",
                 "def interval(k, n):\n    raise NotImplementedError",
                 "def thinking_report(events):\n    raise NotImplementedError"):
        assert stub in text


def _first(sources: list[str], text: str) -> int:
    return next(i for i, s in enumerate(sources) if text in s)


def test_the_one_prediction_comes_before_its_answer_and_nothing_above_it_gives_it_away():
    sources = _sources()
    assert "my_prediction = ..." not in "".join(sources) and "my_outcome_guess" not in "".join(sources)
    case_and_line_cell = _first(sources, "my_case_and_line = ...")
    assert case_and_line_cell < _first(sources, "ReplayLLM.from_trace(TRACE_10)")
    before = "\n".join(sources[:case_and_line_cell])
    for giveaway in ("row['case']", "row.case", '"case", "line"', "Line 9", "closest", "unit mistake",
                     "not too small to make"):
        assert giveaway not in before


def test_exercise_05_2_comes_before_the_notebook_shows_classify():
    sources = _sources()
    assert _first(sources, 'check("05.2"') < _first(sources, "import classify")
    assert not [s for s in sources[:_first(sources, 'check("05.2"')] if "classify(" in s]
    # the run is printed, never handed to the notebook: nothing to pass to classify once it is imported
    assert "reconvert_manager" not in "".join(sources) and "show_05_2_run()" in "".join(sources)


def test_the_exercises_come_in_page_order():
    sources = _sources()
    assert [_first(sources, f'check("05.{k}"') for k in (1, 2, 3, 4)] == sorted(
        _first(sources, f'check("05.{k}"') for k in (1, 2, 3, 4))


def test_notebook_04_does_not_give_away_the_gemma_prediction():
    text = "\n".join(cell.source for cell in jupytext.read(NOTEBOOK.with_name("04_observers.py")).cells)
    for giveaway in ("marked °F", "Celsius numbers", "°F (notebook 05", "case 3"):
        assert giveaway not in text
