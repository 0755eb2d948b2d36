"""A solutions file imported by hand in a notebook does not pass a check (round 18 passed 05.1 and 05.3 so); the
same function checked by the course's tests, outside a kernel, still passes, as it must for test_exercises."""

import importlib.util
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from lessons.exercises import OWN_VERSION, verdict

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
BY_HAND = f"""
import importlib.util, sys
sys.path[:0] = [{str(NOTEBOOKS)!r}, {str(NOTEBOOKS.parent)!r}]
from lessons.exercises import verdict
spec = importlib.util.spec_from_file_location("mine", {str(NOTEBOOKS / "solutions" / "05_reasoning_capture.py")!r})
mine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mine)
print(verdict("05.1", mine.SOLUTIONS["05.1"]).message)
print(verdict("05.3", mine.SOLUTIONS["05.3"]).message)
"""


def test_in_a_notebook_a_solution_imported_by_hand_is_the_notebooks_own_version(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(BY_HAND)])
    where = {"metadata": {"path": str(tmp_path)}}
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources=where).execute()
    printed = "".join(output.get("text", "") for output in notebook.cells[0].outputs)
    assert printed.splitlines() == [OWN_VERSION, OWN_VERSION], printed


def test_outside_a_kernel_the_same_import_passes():
    spec = importlib.util.spec_from_file_location("mine", NOTEBOOKS / "solutions" / "05_reasoning_capture.py")
    mine = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mine", mine)
    spec.loader.exec_module(mine)
    assert verdict("05.1", mine.SOLUTIONS["05.1"]).status == "passed"
