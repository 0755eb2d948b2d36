"""Notebook 05 shows no answer to copy: the interval's closed form never appears, the package's ``wilson`` only
after the 05.3 check, and no cell defines the reference rules of 05.1 or 05.3 (issue 21)."""

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
