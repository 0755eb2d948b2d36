"""An answer pasted from the notebook's own version (``inspect.getsource`` of a reference, ``??`` in Jupyter) is
refused: readers passed 03.1 to 03.3, 06.1 and 13.1 that way."""

import inspect
import sys

import pytest

from lessons.copies import copies_reference
from lessons.exercises import COPIED, EXERCISES, verdict
from lessons.reference import reference


def pasted(exercise):
    """The reference answer's source, compiled again in a namespace of its own, as a learner's cell would."""
    answer = reference(exercise)
    parts = answer if isinstance(answer, tuple) else (answer,)
    namespace = dict(vars(sys.modules[parts[0].__module__]), __name__="__main__")
    for original in parts:
        exec(compile(inspect.getsource(original), "<ipython-input-1>", "exec"), namespace)
    copies = tuple(namespace[original.__name__] for original in parts)
    return copies if isinstance(answer, tuple) else copies[0]


@pytest.mark.parametrize("exercise", ["02.1", "03.1", "03.2", "06.1", "08.2", "10.1", "13.1"])
def test_a_pasted_copy_of_the_notebooks_own_version_is_refused(exercise):
    result = verdict(exercise, pasted(exercise))
    assert result.status == "not yet" and result.message == COPIED, str(result)


def test_code_of_ones_own_is_not_a_copy_and_the_solutions_file_itself_is_not_either():
    def schema_of(fn):  # a wrong answer, but the learner's own: it gets the check's hint, not "copied"
        return {"type": "function", "function": {"name": fn.__name__}}

    assert not copies_reference("01.1", schema_of)
    assert "copied" not in verdict("01.1", schema_of).message
    # the course's own tests run the reference answers from the solutions file: that is the file, not a copy
    solved = {ex: reference(ex) for ex in EXERCISES if not ex.split(".")[1].startswith("Q")}
    assert not any(copies_reference(ex, answer) for ex, answer in solved.items() if callable(answer))


def test_the_solutions_file_run_from_a_relative_path_is_still_the_file(monkeypatch):
    import runpy

    from lessons.reference import SOLUTIONS

    monkeypatch.chdir(SOLUTIONS.parent)
    solved = runpy.run_path("solutions/12_capstone_pieces.py")  # co_filename is relative here
    assert not copies_reference("12.3", solved["SOLUTIONS"]["12.3"])
