"""Each notebook agrees with its jupytext pair: the same cells, of the same kinds, with the same text.

The ``.py`` file is what contributors edit; the ``.ipynb`` is what learners open (with outputs). A pair
that disagrees means someone edited one side and forgot ``scripts/execute_notebooks.py``.
"""

from __future__ import annotations

from pathlib import Path

import jupytext
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PAIRS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def cells(path: Path) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source.strip()) for cell in jupytext.read(path).cells]


def test_every_notebook_has_a_pair_and_every_pair_a_notebook():
    from lessons.exercises.nb00 import COURSE

    assert [p.stem for p in PAIRS] == list(COURSE), "the course map in notebook 00 and the notebooks disagree"
    assert {p.stem for p in PAIRS} == {p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.py")}


@pytest.mark.parametrize("notebook", PAIRS, ids=lambda p: p.stem)
def test_pair_agrees(notebook):
    saved, source = cells(notebook), cells(notebook.with_suffix(".py"))
    for i, (got, want) in enumerate(zip(saved, source, strict=False)):
        assert got == want, f"{notebook.name} cell {i} differs from {notebook.stem}.py: re-run execute_notebooks"
    assert len(saved) == len(source), f"{notebook.name} has {len(saved)} cells, its pair {len(source)}"
