"""Build each notebook from its jupytext pair, execute it with the scripted model, and save it with outputs.

    .venv/bin/python scripts/execute_notebooks.py                          # every notebook in notebooks/
    .venv/bin/python scripts/execute_notebooks.py notebooks/04_observers.py  # one (the .py or the .ipynb)

The ``.py`` file (jupytext percent format) is the source: contributors edit it, reviewers read it.
This script turns it into ``NN_name.ipynb``, runs it top to bottom in a fresh kernel (cwd = notebooks/,
MINGRAPH_LLM=scripted, real model requests refused), numbers the cells (so a rebuild gives a clean
diff), strips what varies between runs and is not output (execution timings, widget state), and prints
each notebook's cell count and wall time. ``tests/notebooks/test_pairs.py`` fails when a pair disagrees.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
KERNEL = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
          "language_info": {"name": "python"}}


def build(pair: Path) -> nbformat.NotebookNode:
    """The notebook as the .py pair writes it, with numbered cell ids and no outputs yet."""
    nb = jupytext.read(pair)
    nb.metadata = nbformat.from_dict(KERNEL)
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"c{i:02d}"
        cell.metadata = nbformat.from_dict({})
    return nb


def execute(pair: Path) -> tuple[int, float]:
    nb = build(pair)
    os.environ.update({"MINGRAPH_LLM": "scripted", "MINGRAPH_REAL_MODELS": "off"})
    started = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(pair.parent)}}).execute()
    elapsed = time.perf_counter() - started
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, pair.with_suffix(".ipynb"))
    return len(nb.cells), elapsed


def main(argv: list[str]) -> int:
    pairs = [Path(p).with_suffix(".py") for p in argv] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
    for pair in pairs:
        cells, elapsed = execute(pair.resolve())
        print(f"{pair.stem}.ipynb: {cells} cells, executed in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
