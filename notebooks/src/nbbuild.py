"""Shared by the notebook builders: collect markdown and code cells, write the notebook.

Each ``build_NN.py`` writes its notebook's text with ``md`` and ``code``; run it, then execute and
save the result with ``scripts/execute_notebooks.py``. Cell ids are numbered, not random, so a
rebuild gives a clean diff.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

KERNEL = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
          "language_info": {"name": "python"}}


class NotebookBuilder:
    def __init__(self, filename: str) -> None:
        self.out = Path(__file__).resolve().parents[1] / filename
        self.cells: list = []

    def md(self, text: str) -> None:
        self.cells.append(new_markdown_cell(dedent(text).strip()))

    def code(self, text: str) -> None:
        self.cells.append(new_code_cell(dedent(text).strip()))

    def write(self) -> None:
        nb = new_notebook(cells=self.cells, metadata=KERNEL)
        for i, cell in enumerate(nb.cells):
            cell["id"] = f"c{i:02d}"
        nbformat.write(nb, self.out)
        print(f"wrote {self.out.name}: {len(nb.cells)} cells")
