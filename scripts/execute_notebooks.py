"""Re-execute notebooks with the scripted model and save them with their outputs, ready for strict nbval.

    .venv/bin/python scripts/execute_notebooks.py                 # every notebook in notebooks/
    .venv/bin/python scripts/execute_notebooks.py notebooks/03_observers.ipynb

Runs each notebook top to bottom in a fresh kernel (cwd = notebooks/, MINGRAPH_LLM=scripted, real
model requests refused), strips what varies between runs and is not output (execution timings,
widget state), and prints each notebook's cell count and wall time.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def execute(path: Path) -> tuple[int, float]:
    nb = nbformat.read(path, as_version=4)
    os.environ.update({"MINGRAPH_LLM": "scripted", "MINGRAPH_REAL_MODELS": "off"})
    started = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    elapsed = time.perf_counter() - started
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    return len(nb.cells), elapsed


def main(argv: list[str]) -> int:
    paths = [Path(p) for p in argv] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in paths:
        cells, elapsed = execute(path.resolve())
        print(f"{path.name}: {cells} cells, executed in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
