"""The notebook's own version of an exercise comes from the solutions file, unprinted."""

import pytest

from lessons.exercises import verdict
from lessons.reference import reference


def test_a_reference_is_the_solutions_files_own_answer_and_passes_its_check():
    answer = reference("01.1")
    assert verdict("01.1", answer).passed


def test_an_unknown_exercise_or_notebook_is_named():
    with pytest.raises(KeyError, match="01.99"):
        reference("01.99")
    with pytest.raises(LookupError, match="77_"):
        reference("77.1")
